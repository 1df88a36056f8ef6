#!/usr/bin/env bash
# The raw-tables benchmark (issue 14's first target; docs/design/RAW_TABLES.md), one command:
#
#   bash bench/raw_tables/run.sh [--quick] [drive.py options: --tables a,b --arms a,b --jobs 2 ...]
#
# 1. prepares the tables as shipped (bench/raw_tables/prepare.sh: R exports, 80/20 split);
# 2. builds the package if dist/cli.js is missing (scripts/build.sh wasm ts);
# 3. the non-private baselines (baseline.py, python3-sklearn) -> bench/results/raw_tables_baseline.json;
# 4. the DP runs through the CLI, defaults except ε ∈ {0.5, 1, 2}, δ = 1e-5, --seed 1..5
#    (--quick: seeds 1..2, ε = 1) -> bench/results/raw_tables.csv (one row per run, failures included;
#    rows already there for the same product version are skipped);
# 5. the summary: the generated part of docs/design/RAW_TABLES.md.
# DPMARGIN_CLI=path/to/dist/cli.js measures another build (e.g. the main worktree after a merge);
# the product tag is that repository's commit unless --product TAG is given.
# Runs under nice; one training at a time unless --jobs N. The wall time of each invocation is
# appended to bench/results/raw_tables_wall.csv (note: WALL_NOTE, else the arguments).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
MODE=full
for a in "$@"; do [ "$a" = --quick ] && MODE=quick; done
CLI=${DPMARGIN_CLI:-dist/cli.js}

bash bench/raw_tables/prepare.sh > /dev/null
if [ ! -f "$CLI" ]; then
  [ "$CLI" = dist/cli.js ] || { echo "run.sh: $CLI is missing" >&2; exit 1; }
  [ -d node_modules ] || npm ci --no-audit --no-fund
  nice bash scripts/build.sh wasm ts
fi
nice /usr/bin/python3 bench/raw_tables/baseline.py 2> >(grep -v -i warning >&2)
nice /usr/bin/python3 bench/raw_tables/drive.py --cli "$CLI" "$@" | tee /tmp/raw_tables_drive.$$.log
product=$(sed -n 's/^raw tables: product \([^,]*\),.*/\1/p' /tmp/raw_tables_drive.$$.log | head -1)
runs=$(sed -n 's/^raw tables: product [^,]*, \([0-9]*\) runs to do.*/\1/p' /tmp/raw_tables_drive.$$.log | head -1)
rm -f /tmp/raw_tables_drive.$$.log
secs=$(( $(date +%s) - start ))
wall=bench/results/raw_tables_wall.csv
[ -f "$wall" ] || echo "product,mode,runs,seconds,date,note" > "$wall"
if [ "${runs:-0}" != 0 ]; then  # a run that found everything recorded adds no line
  note=$(printf '%s' "${WALL_NOTE:-$*}" | tr -d '"')
  echo "$product,$MODE,$runs,$secs,$(date -u +%Y-%m-%dT%H:%MZ),\"$note\"" >> "$wall"
fi
/usr/bin/python3 bench/raw_tables/summarise.py
echo "raw tables: $MODE, $runs runs, wall $secs s"
