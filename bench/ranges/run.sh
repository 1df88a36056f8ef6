#!/usr/bin/env bash
# One command: test accuracy at ε = 1 (δ = 1e-5, M* tight defaults) on the real raw-unit tables
# with (a) unit-norm rows only, (b) private column ranges at several budget shares, (c) min/max
# taken from the training data NON-privately (reference only).
#   bash bench/ranges/run.sh [SEEDS=5] [DATASET …]   (datasets given: append only those)
# Writes bench/results/ranges.csv and docs/results/ranges-table.md (summarised in docs/reference/DATA_PIPELINE.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
seeds=${1:-5}
shift || true
datasets=("$@")
((${#datasets[@]})) || datasets=(breast_cancer pima spam churn cps1988 shuttle mpls_stops)
bash bench/datasets/prepare.sh >/dev/null
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
cmake --build build-bench -j"$(nproc)" --target experiment >/dev/null
D=bench/.data
out=bench/results/ranges.csv
mkdir -p bench/results
[ -f "$out" ] && (($# > 0)) || echo "dataset,variant,seed,test_accuracy,train_accuracy,selected_gamma,seconds" > "$out"
for ds in "${datasets[@]}"; do
  for variant in "none:ranges=none" "private-0.05:ranges=private share=0.05" \
                 "private-0.1:ranges=private share=0.1" "private-0.2:ranges=private share=0.2" \
                 "data-minmax:ranges=data"; do
    name=${variant%%:*}
    # shellcheck disable=SC2086
    ./build-bench/bench/experiment train=$D/${ds}_train.csv test=$D/${ds}_test.csv \
      eps=1 seeds="$seeds" tag="$ds,$name" ${variant#*:} >> "$out"
  done
done
/usr/bin/python3 bench/ranges/summarise.py "$out" docs/results/ranges-table.md
