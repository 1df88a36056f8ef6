#!/usr/bin/env bash
# One command: build and run the rate benchmark, then fit and plot it.
#   bash bench/rate/run.sh [SEEDS=10] [D=50] [MAX_N=32000]
# (rate_bench also takes GAMMA EPS N SEED after MAX_N to resume an interrupted run, appending.)
# Writes bench/results/rate.csv, docs/figures/rate.png and docs/results/rate-table.md (discussed in docs/design/RATE.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/setup.sh
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c "import matplotlib" 2>/dev/null || {
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get install -y -qq python3-matplotlib >/dev/null
}
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" --target rate_bench >/dev/null
mkdir -p bench/results
./build-bench/bench/rate_bench "${1:-10}" "${2:-50}" "${3:-32000}" > bench/results/rate.csv
/usr/bin/python3 bench/rate/plot_rate.py bench/results/rate.csv docs/figures/rate.png docs/results/rate-table.md
