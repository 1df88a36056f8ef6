#!/usr/bin/env bash
# The performance suite, one command (see bench/perf/README.md):
#   bash bench/perf/run.sh [--quick] [more options of run_all.mjs: --seeds N, --envs …, --tables …]
# Builds what it needs (idempotent, incremental): the native bench runner (build-bench/), the
# wasm module + TypeScript package (dist/), the bench page (build-perf-web/); prepares the real
# tables if missing (bench/datasets/prepare.sh). Then measures and writes
# bench/results/perf.json and docs/results/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=$(( $(nproc 2>/dev/null || echo 2) < 2 ? 1 : 2 ))

# Tooling (apt packages, node_modules) only when something is missing: setup.sh is idempotent.
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/vite ] || ! command -v emcc >/dev/null \
   || [ ! -x /usr/bin/chromium ]; then
  bash scripts/setup.sh
fi

echo "[perf] building the native runner (build-bench/)" >&2
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j"$jobs" --target perf_native >/dev/null

echo "[perf] building the wasm module and the package (dist/)" >&2
bash scripts/build.sh wasm ts >/dev/null

echo "[perf] building the bench page (build-perf-web/)" >&2
node node_modules/vite/bin/vite.js build --config bench/perf/browser/vite.config.mjs --logLevel warn

data="${DPMARGIN_BENCH_DATA:-bench/.data}"
for t in mpls_stops fashion_mnist; do
  if [ ! -f "$data/${t}_train.csv" ] || [ ! -f "$data/${t}_test.csv" ]; then
    echo "[perf] preparing $t" >&2
    bash bench/datasets/prepare.sh --out "$data" "$t"
  fi
done

node bench/perf/run_all.mjs "$@"
