#!/usr/bin/env bash
# Prepare the raw tables (text columns and NA as shipped by Debian's R packages), one command.
#
#   bash bench/raw_tables/prepare.sh [--out DIR] [--no-install] [NAME ...]
#
# 1. apt-get installs what is missing of r-base-core, r-cran-modeldata, r-cran-mlbench,
#    r-cran-jsonlite (apt-get update only if the install fails without it);
# 2. Rscript export.R writes DIR/raw/NAME.csv (write.csv, row.names = FALSE),
#    DIR/raw/NAME.rownames.csv (write.csv's default, with the "" row-names column) and
#    DIR/raw/NAME.columns.json (R's classes, levels, NA counts);
# 3. /usr/bin/python3 split.py writes the stratified 80/20 train/test files (SHA-256 order, rows
#    copied byte for byte) and DIR/manifest.json (and bench/raw_tables/manifest.json).
# DIR defaults to bench/.data/raw_tables (git-ignored). Same package versions, same bytes (the
# manifest has the sha256 of every file). A few seconds; it always redoes everything.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT="$REPO/bench/.data/raw_tables"
INSTALL=1
NAMES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift ;;
    --out=*) OUT="${1#--out=}" ;;
    --no-install) INSTALL=0 ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "prepare.sh: unknown option $1" >&2; exit 2 ;;
    *) NAMES+=("$1") ;;
  esac
  shift
done

PKGS=(r-base-core r-cran-modeldata r-cran-mlbench r-cran-jsonlite)
installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }
missing=()
for p in "${PKGS[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$INSTALL" = 0 ]; then echo "prepare.sh: missing packages (and --no-install): ${missing[*]}" >&2; exit 1; fi
  SUDO=(); [ "$(id -u)" = 0 ] || SUDO=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  echo "installing: ${missing[*]}"
  apt_install() { "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; }
  apt_install || { "${SUDO[@]}" apt-get update -q; apt_install; }
fi

mkdir -p "$OUT/raw"
Rscript --vanilla "$HERE/export.R" "$OUT/raw" "${NAMES[@]}" 2> "$OUT/raw/export.log" \
  || { cat "$OUT/raw/export.log" >&2; exit 1; }
/usr/bin/python3 "$HERE/split.py" --out "$OUT" "${NAMES[@]}"
