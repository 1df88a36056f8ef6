#!/usr/bin/env bash
# The multiclass benchmark's tables (docs/design/MULTICLASS_MEASURED.md), from Debian packages, one command:
#   bash bench/multiclass/prepare.sh [OUT]        (OUT default bench/.data/multiclass)
# satellite, letter, dna (r-cran-mlbench) through bench/datasets/prepare.sh's R export; vehicle,
# vowel (r-cran-mlbench) through export_r.R here; digits from python3-sklearn; penguins
# (r-cran-modeldata) and Soybean (r-cran-mlbench) as raw tables (text columns, NA cells) through
# bench/raw_tables/prepare.sh. Sources go to OUT-src (git-ignored). The Opacus peer needs
# python3-torch python3-pandas python3-scipy python3-sklearn (../shared/peers/README.md).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT="${1:-$REPO/bench/.data/multiclass}"
SRC="$OUT-src"
bash "$REPO/bench/datasets/prepare.sh" --out "$SRC" satellite letter dna digits
Rscript --vanilla "$HERE/export_r.R" "$SRC/raw"
bash "$REPO/bench/raw_tables/prepare.sh" --out "$SRC/raw_tables" penguins Soybean
/usr/bin/python3 "$HERE/make_tables.py" --raw "$SRC/raw" --raw-tables "$SRC/raw_tables" --out "$OUT"
