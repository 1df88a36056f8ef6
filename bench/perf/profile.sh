#!/usr/bin/env bash
# The margin profile's speed, one command (docs/design/MARGIN_PROFILE_MEASURED.md, "Speed"; bench/perf/README.md):
#   bash bench/perf/profile.sh [--before DIR] [options of profile_bench.mjs: --reps N, --tables …]
# Builds what it needs (incremental): build-bench/bench/profile_native, dist/ and the bench page
# (build-perf-web/); prepares mpls_stops (and its first 26,000 rows, mpls26k) if missing. With
# --before DIR (a checkout of an older commit with its dist/ built), also builds DIR's
# profile_native (this driver copied in) and the bench page against DIR/dist into
# /tmp/perf-web-before. Writes bench/results/profile_perf.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = "--before" ] && before="${args[$((i + 1))]}"; done
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j2 --target profile_native >/dev/null
bash scripts/build.sh wasm ts >/dev/null
node node_modules/vite/bin/vite.js build --config bench/perf/browser/vite.config.mjs --logLevel warn
if [ -n "$before" ]; then
  # The driver reads tables with the core's CSV reader (bench/common/csv_table.hpp): DIR needs
  # run::CsvRun's local mode (299b65f, 2026-11-23, or later).
  cp bench/perf/profile_native.cpp "$before/bench/perf/profile_native.cpp"
  cp bench/common/csv_table.hpp "$before/bench/common/csv_table.hpp"
  grep -q profile_native "$before/bench/CMakeLists.txt" || cat >> "$before/bench/CMakeLists.txt" <<'CMAKE'
add_executable(profile_native perf/profile_native.cpp)
target_link_libraries(profile_native PRIVATE dpmargin_core)
CMAKE
  cmake -S "$before" -B "$before/build-bench" -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
  cmake --build "$before/build-bench" -j2 --target profile_native >/dev/null
  PERF_DIST="$before/dist" PERF_OUT=/tmp/perf-web-before \
    node node_modules/vite/bin/vite.js build --config bench/perf/browser/vite.config.mjs --logLevel warn
fi
data="${DPMARGIN_BENCH_DATA:-bench/.data}"
[ -f "$data/mpls_stops_train.csv" ] || bash bench/datasets/prepare.sh --out "$data" mpls_stops
# The issue's size: the first 26,000 rows of mpls_stops' train split (its rows are in hash order).
[ -f "$data/mpls26k_train.csv" ] || head -n 26001 "$data/mpls_stops_train.csv" > "$data/mpls26k_train.csv"
node bench/perf/profile_bench.mjs "$@"
