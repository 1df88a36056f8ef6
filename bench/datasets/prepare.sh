#!/usr/bin/env bash
# Prepare the benchmark data sets from Debian packages (one command).
#
#   bench/datasets/prepare.sh [--force] [--out DIR] [--no-install] [NAME ...]
#
# 1. apt-get installs the packages that ship the data, only those missing
#    (apt-get update first only if an install is needed and fails without it);
# 2. Rscript export_r.R dumps the R-packaged tables to DIR/raw/*.csv;
# 3. /usr/bin/python3 prepare.py writes DIR/NAME_{train,test}.csv,
#    DIR/NAME.meta.json and DIR/datasets.json (and, for the default DIR,
#    bench/datasets/datasets.json).
# DIR defaults to bench/.data (git-ignored).  Data sets already prepared with
# the same package versions are skipped unless --force.  Output is
# deterministic: the same package versions give the same bytes (the sha256 of
# every CSV is in datasets.json).  See bench/datasets/README.md.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT="$REPO/bench/.data"
FORCE=()
INSTALL=1
NAMES=()

while [ $# -gt 0 ]; do
  case "$1" in
    --force) FORCE=(--force) ;;
    --out) OUT="$2"; shift ;;
    --out=*) OUT="${1#--out=}" ;;
    --no-install) INSTALL=0 ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "prepare.sh: unknown option $1" >&2; exit 2 ;;
    *) NAMES+=("$1") ;;
  esac
  shift
done

# Debian packages that ship the data, plus the converters.
PKGS=(
  python3-numpy python3-sklearn   # breast_cancer, digits (bundled CSVs); numpy for all
  dataset-fashion-mnist           # fashion_mnist, fashion_pullover_coat, fashion_sandal_sneaker
  r-base-core                     # Rscript, to read the R data sets
  r-cran-mlbench                  # pima, dna, satellite, letter, shuttle
  r-cran-kernlab                  # spam, ticdata
  r-cran-modeldata                # churn
  r-cran-aer                      # cps1988
  r-cran-cardata                  # mpls_stops
)

installed() { dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null | grep -qx installed; }

start=$(date +%s)
missing=()
for p in "${PKGS[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$INSTALL" = 0 ]; then
    echo "prepare.sh: missing packages (and --no-install): ${missing[*]}" >&2; exit 1
  fi
  SUDO=()
  if [ "$(id -u)" != 0 ]; then SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  echo "installing: ${missing[*]}"
  apt_install() { "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; }
  if ! apt_install; then
    "${SUDO[@]}" apt-get update -q
    apt_install
  fi
fi

mkdir -p "$OUT/raw"
# If a source package changed version, redo everything (raw stage included).
versions=$(for p in "${PKGS[@]}"; do printf '%s %s\n' "$p" "$(dpkg-query -W -f='${Version}' "$p")"; done)
if [ -f "$OUT/.versions" ] && [ "$(cat "$OUT/.versions")" != "$versions" ]; then
  echo "package versions changed since the last run: redoing all"
  FORCE=(--force)
fi

Rscript --vanilla "$HERE/export_r.R" "$OUT/raw" "${FORCE[@]}" "${NAMES[@]}" 2> "$OUT/raw/export_r.log" \
  || { cat "$OUT/raw/export_r.log" >&2; exit 1; }
/usr/bin/python3 "$HERE/prepare.py" --out "$OUT" "${FORCE[@]}" "${NAMES[@]}"
printf '%s\n' "$versions" > "$OUT/.versions"

echo "done in $(( $(date +%s) - start )) s; $(du -sh "$OUT" | cut -f1) in $OUT"
