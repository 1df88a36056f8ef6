#!/usr/bin/env bash
# Column scaling benchmark (docs/SCALING.md): the product's column scaling — the private column
# histograms and the rule of learn::scalingsFromNoisyHistograms, through the trainer — measured
# with the native runner on the 10 accuracy tables and the centred unit-ball table, δ = 1e-5,
# tight defaults, share 0.1, seeded runs (a benchmark).
#   bash bench/scaling/run.sh final  [SEEDS=10]  the product's scalings vs none, ε ∈ {0.5, 1, 2}
#   bash bench/scaling/run.sh coverage [RUNS=200] erased-column rate on the breast-cancer sample
#   bash bench/scaling/run.sh summary            tables from the CSVs (no training)
# Appends to bench/results/scaling-<phase>.csv (rows present are skipped: resumable).
# VARIANTS="a b" / TABLES="x y" restrict a phase; EXTRA adds variants, one "name|args" a line.
# The candidate rules the rule was chosen among (phases screen, focus, pooled; the `old` rows:
# the rule before issue 14) served issues 14 and 15: their rows stay in bench/results/scaling-*.csv,
# their code in git history (git log -- bench/scaling/candidates.hpp).
set -euo pipefail
cd "$(dirname "$0")/../.."
phase=${1:?final|coverage|summary}
D=bench/.data
BUILD_DIR=${BUILD_DIR:-build-bench}  # another build directory keeps a running sweep's binary intact
U=build-bench/scaling-data
TABLES=${TABLES:-"breast_cancer pima dna spam satellite fashion_mnist letter cps1988 mpls_stops shuttle unitball"}
if [ "$phase" != summary ]; then
  bash bench/datasets/prepare.sh >/dev/null
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DDPMARGIN_BUILD_BENCH=ON -DDPMARGIN_BUILD_TESTS=OFF >/dev/null
  cmake --build "$BUILD_DIR" -j"$(nproc)" --target experiment scaling_coverage >/dev/null
  [ -f $U/unitball_train.csv ] || /usr/bin/python3 bench/scaling/make_unitball.py $U
fi
final_variants() {
  cat <<V
default|ranges=private
none|ranges=none
V
  printf '%s\n' "${EXTRA:-}"
}
run_phase() {
  local out=bench/results/scaling-$1.csv epsilons=$2 seeds=$3
  mkdir -p bench/results
  [ -f "$out" ] || echo "dataset,variant,epsilon,seed,test_accuracy,train_accuracy,selected_gamma,seconds" > "$out"
  while IFS='|' read -r name args; do
    [ -n "$name" ] || continue
    [ -z "${VARIANTS:-}" ] || [[ " $VARIANTS " == *" $name "* ]] || continue
    for eps in $epsilons; do
      for ds in $TABLES; do
        local dir=$D
        [ "$ds" = unitball ] && dir=$U
        local done_rows
        done_rows=$(grep -c "^$ds,$name,$eps," "$out" || true)
        ((done_rows >= seeds)) && continue
        # shellcheck disable=SC2086
        ./$BUILD_DIR/bench/experiment train=$dir/${ds}_train.csv test=$dir/${ds}_test.csv \
          eps="$eps" seeds="$seeds" share=0.1 tag="$ds,$name,$eps" $args > "$out.tmp" \
          && cat "$out.tmp" >> "$out" || echo "FAILED: $ds $name $eps" >&2
        rm -f "$out.tmp"
      done
    done
  done < <("$1"_variants)
}
case "$phase" in
  final) run_phase final "${EPSILONS:-0.5 1 2}" "${2:-10}" ;;
  coverage)
    out=bench/results/scaling-coverage.txt
    : > "$out"
    for f in web/public/samples/breast-cancer.csv:diagnosis $D/breast_cancer_train.csv:label; do
      ./$BUILD_DIR/bench/scaling_coverage file="${f%:*}" label="${f##*:}" runs="${2:-200}" | tr '\n' ' ' >> "$out"
      echo "file=${f%:*}" >> "$out"
    done
    cat "$out" ;;
  summary) ;;
  *) echo "unknown phase $phase" >&2; exit 2 ;;
esac
[ "$phase" = coverage ] || /usr/bin/python3 bench/scaling/summarise.py
