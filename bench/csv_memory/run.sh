#!/usr/bin/env bash
# One command: peak memory while loading a ~100 MB CSV through the package in Node.
#   bash bench/csv_memory/run.sh [MB=100] [--write-doc]
# Builds what is missing (wasm module, TypeScript layer), generates the CSV into a temporary
# directory (removed afterwards) and prints a markdown table; --write-doc also writes it to
# docs/results/csv-memory.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh
bash scripts/build.sh wasm ts >/dev/null
node bench/csv_memory/run.mjs "$@"
