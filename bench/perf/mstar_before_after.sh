#!/usr/bin/env bash
# Full M* end to end, before/after the gradient kernel, natively and in wasm (Node), in ONE run,
# interleaved per dataset and T: old native, new native, old wasm, new wasm. Wall and CPU time
# (the machine may be shared: CPU time is the robust figure). Old binaries: build-base/
# (experiment and dist/ built from the commit before kernels.cpp).
# Usage: bash bench/perf/mstar_before_after.sh [datasets…]   → JSON lines on stdout
set -euo pipefail
cd "$(dirname "$0")/../.."
datasets=("$@")
((${#datasets[@]})) || datasets=(mpls_stops fashion_mnist)
for name in "${datasets[@]}"; do
  for T in 200 1000; do
    for which in old new; do
      exe=build-bench/bench/experiment
      [ "$which" = old ] && exe=build-base/experiment
      read -r wall user sys < <( { /usr/bin/time -f "%e %U %S" "$exe" "train=bench/.data/${name}_train.csv" \
        "test=bench/.data/${name}_test.csv" seeds=1 "maxIterations=$T" >/dev/null; } 2>&1 | tail -1)
      echo "{\"dataset\":\"$name\",\"T\":$T,\"kernel\":\"$which\",\"platform\":\"native\",\"wallSeconds\":$wall,\"cpuSeconds\":$(echo "$user + $sys" | bc)}"
    done
    for which in old new; do
      dist=dist
      [ "$which" = old ] && dist=build-base/dist
      node bench/perf/train_wasm.mjs "$name" "$T" "$dist" |
        sed "s/^{/{\"T\":$T,\"kernel\":\"$which\",\"platform\":\"wasm\",/"
    done
  done
done
