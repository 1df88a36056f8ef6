#!/usr/bin/env bash
# Column scaling benchmark (docs/design/SCALING.md, issue 14 item 3): candidate post-processing rules of
# the private column histograms, measured with the native runner on the 10 accuracy tables and on
# the centred unit-ball table, δ = 1e-5, tight defaults, share 0.1, seeded runs (a benchmark).
#   bash bench/scaling/run.sh screen [SEEDS=5]   every candidate at ε = 1
#   bash bench/scaling/run.sh focus [SEEDS=20]   round 2 at ε = 1, on the tables that moved
#   bash bench/scaling/run.sh final  [SEEDS=10]  today's rule vs the chosen one, ε ∈ {0.5, 1, 2}
#   bash bench/scaling/run.sh pooled [SEEDS=5]   issue 15: the table's span (step 5) and its
#                                                variants vs the rule before it, 14 tables,
#                                                ε ∈ {0.5, 1} (EPSILONS=… for more)
#   bash bench/scaling/run.sh coverage [RUNS=200] erased-column rate on the breast-cancer sample
#   bash bench/scaling/run.sh summary            tables from the CSVs (no training)
# Appends to bench/results/scaling-<phase>.csv (rows present are skipped: resumable).
# VARIANTS="a b" / TABLES="x y" restrict a phase; EXTRA adds variants, one "name|args" a line.
set -euo pipefail
cd "$(dirname "$0")/../.."
phase=${1:?screen|focus|final|coverage|summary}
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
# Candidates: `ranges=rule rule=SPEC` estimates the scalings in the runner (bench/scaling/rule.hpp
# for SPEC); `ranges=private` is the trainer's own path (the library default rule).
# Round 1 (all tables, 5 seeds): the fallback, the symmetric map, the grid, the extension, the
# fallback scale (fs: 20.7 ≈ log1p(1e9) maps the grid's extent onto [−1, 1]), the mirror test.
screen_variants() {
  cat <<V
none|ranges=none
old|ranges=rule rule=fb0/sym0
fallback|ranges=rule rule=sym0
fallback+sym|ranges=rule rule=sym1
fallback+sym+ext2|ranges=rule rule=sym1/ext2
fallback+sym+bpd2|ranges=rule rule=sym1/bpd2
ratio|ranges=rule rule=ratio1
ratio+ext2|ranges=rule rule=ratio1/ext2
ratio+bpd2|ranges=rule rule=ratio1/bpd2
ratio+bpd1|ranges=rule rule=ratio1/bpd1
ratio+zo|ranges=rule rule=ratio1/zo1
fs|ranges=rule rule=fs20.7
fs+mir|ranges=rule rule=fs20.7/mir2
fs+mir+ext2|ranges=rule rule=fs20.7/mir2/ext2
fs+mir+ext3|ranges=rule rule=fs20.7/mir2/ext3
fs+mir+ext2+bpd2|ranges=rule rule=fs20.7/mir2/ext2/bpd2
fs+mir+ext2+fw|ranges=rule rule=fs20.7/mir2/ext2/fw0.05
C|ranges=rule rule=fs20.7/mir2/zero2/inner1/ext2/split1
C+zero3|ranges=rule rule=fs20.7/mir2/zero3/inner1/ext2/split1
V
  printf '%s\n' "${EXTRA:-}"
}
# Round 2 (the tables that moved, 20 seeds): zero bin, inner edges, family-wise threshold,
# fallback scale, extension of symmetric ranges only, widening of one-bin ranges (pad, padf), the
# mirror test on the sum (mirsum), the top of 0/1 columns (zohi, zit, onetop). The last rounds ran
# on all tables (TABLES_FOCUS=all, 10 seeds): F-m2, G, library.
focus_variants() {
  cat <<V
old|ranges=rule rule=fb0/sym0
B|ranges=rule rule=fs20.7/mir2
B+ext2|ranges=rule rule=fs20.7/mir2/ext2
B+zero2|ranges=rule rule=fs20.7/mir2/zero2
B+inner|ranges=rule rule=fs20.7/mir2/inner1
B+zero2+inner|ranges=rule rule=fs20.7/mir2/zero2/inner1
B+ext2+zero2+inner|ranges=rule rule=fs20.7/mir2/ext2/zero2/inner1
B+fw|ranges=rule rule=fs20.7/mir2/fw0.05
B+zero2+inner+fw|ranges=rule rule=fs20.7/mir2/zero2/inner1/fw0.05
B+zero2+inner+fs5|ranges=rule rule=fs5/mir2/zero2/inner1
B+zero2+inner+fs10|ranges=rule rule=fs10/mir2/zero2/inner1
C|ranges=rule rule=fs20.7/mir2/zero2/inner1/ext2/split1
C+ext1.5|ranges=rule rule=fs20.7/mir2/zero2/inner1/ext1.5/split1
C+mir3|ranges=rule rule=fs20.7/mir3/zero2/inner1/ext2/split1
C+zero3|ranges=rule rule=fs20.7/mir2/zero3/inner1/ext2/split1
D|ranges=rule rule=fs20.7/mir2/zero2/ext2/split1/zohi1.778/pad1/padspan1
D-zohi|ranges=rule rule=fs20.7/mir2/zero2/ext2/split1/pad1/padspan1
D+padspan2|ranges=rule rule=fs20.7/mir2/zero2/ext2/split1/zohi1.778/pad1/padspan2
D-ext|ranges=rule rule=fs20.7/mir2/zero2/zohi1.778/pad1/padspan1
E|ranges=rule rule=fs20.7/mir2/zero2/ext2/split1/zohi1.778/padf0.5
E25|ranges=rule rule=fs20.7/mir2/zero2/ext2/split1/zohi1.778/padf0.25
E0|ranges=rule rule=fs20.7/mir2/zero2/ext2/split1/zohi1.778
F|ranges=rule rule=fs20.7/mir3/mirsum1/zero3/ext2/split1/zohi1.778/padf0.5
F-m2|ranges=rule rule=fs20.72326583794641/mir2/mirsum1/zero3/ext2/split1/zohi1.7782794100389228/padf0.5
F-z2|ranges=rule rule=fs20.7/mir3/mirsum1/zero2/ext2/split1/zohi1.778/padf0.5
G|ranges=rule rule=fs20.72326583794641/mir2/mirsum1/zero3/ext2/split1/zohi1/zit1/padf0.5
H|ranges=rule rule=fs20.72326583794641/mir2/mirsum1/zero3/ext2/split1/zohi1/onetop1/padf0.5
library|ranges=rule rule=library
V
  printf '%s\n' "${EXTRA:-}"
}
# Issue 15: the table's span for columns whose own histogram supports nothing (pool1) or only 0
# (pool2), with the one-scale tests (pooldec: supported nonzero bins within that many decades;
# poolmass: the span holds that share of the n·d counts; poolcol: of the column's n).
# `previous` is the library rule before step 5; `final` the rule chosen (= the library's, through
# the runner's rule path); `library` the trainer's own path.
pooled_variants() {
  local H=fs20.72326583794641/mir2/mirsum1/zero3/ext2/split1/zohi1/onetop1/padf0.5/zprim1
  cat <<V
previous|ranges=rule rule=$H
pool1|ranges=rule rule=$H/pool1
pool2|ranges=rule rule=$H/pool2
pool1d1|ranges=rule rule=$H/pool1/pooldec1
pool2d1|ranges=rule rule=$H/pool2/pooldec1
pool2d2|ranges=rule rule=$H/pool2/pooldec2
pm9|ranges=rule rule=$H/pool2/pooldec1/poolmass0.9
pm9c5|ranges=rule rule=$H/pool2/pooldec1/poolmass0.9/poolcol0.5
final|ranges=rule rule=$H/pool2/pooldec1/poolmass0.9/poolcol0.5/pooltop1/poolzo10
library|ranges=private
V
  printf '%s\n' "${EXTRA:-}"
}
final_variants() {
  cat <<V
old|ranges=rule rule=old
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
  screen) run_phase screen "1" "${2:-5}" ;;
  focus) TABLES=${TABLES_FOCUS:-"breast_cancer pima dna unitball satellite shuttle"} run_phase focus "1" "${2:-20}" ;;
  final) run_phase final "${EPSILONS:-0.5 1 2}" "${2:-10}" ;;
  pooled)
    bash bench/datasets/prepare.sh digits churn fashion_pullover_coat fashion_sandal_sneaker >/dev/null
    TABLES=${TABLES_POOLED:-"breast_cancer pima dna spam satellite fashion_mnist letter cps1988 mpls_stops shuttle fashion_pullover_coat fashion_sandal_sneaker digits churn"} \
      run_phase pooled "${EPSILONS:-0.5 1}" "${2:-5}" ;;
  coverage)
    out=bench/results/scaling-coverage.txt
    : > "$out"
    for f in web/public/samples/breast-cancer.csv $D/breast_cancer_train.csv; do
      ./$BUILD_DIR/bench/scaling_coverage file=$f rule=library check=1 runs=50 >> "$out"
      for rule in old library ${COVERAGE_RULES:-}; do
        ./$BUILD_DIR/bench/scaling_coverage file=$f rule="$rule" runs="${2:-200}" | tr '\n' ' ' >> "$out"
        echo "file=$f" >> "$out"
      done
    done
    cat "$out" ;;
  summary) ;;
  *) echo "unknown phase $phase" >&2; exit 2 ;;
esac
[ "$phase" = coverage ] || /usr/bin/python3 bench/scaling/summarise.py
