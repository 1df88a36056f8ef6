#!/usr/bin/env bash
# Issue 15, a go/no-go for the next step (docs/design/ACCURACY.md, "The selection"): would a
# private choice among three public margins {¼, 1, 4}/√n pay at large ε? Emulated with the
# benchmark runner, not a product path: each candidate trains with selector fixed at the ε whose
# GDP μ equals Iter's per-run share for m = 3 — μ_class/√6 (Iter's even split) or
# μ_class·√(0.97/3) (a 97/3 run/score split) — and the choice is the argmin of training errors
# plus N(0, sd²) with Iter's score sd for that split. Pessimistic on small tables: the emulated
# runs also estimate their column ranges at the smaller ε. 3 seeds; prints one table per split.
#   bash bench/accuracy/select3_emulation.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
D=bench/.data
BUILD_DIR=${BUILD_DIR:-build-bench}
TABLES=${TABLES:-"mpls_stops shuttle pima dna fashion_sandal_sneaker breast_cancer cps1988 letter unitball_d1000_g05 unitball_g02"}
cmake --build "$BUILD_DIR" -j2 --target experiment >/dev/null
out=${OUT:-$(mktemp -d)}
# split | ε | the emulated runs' ε | their maxIterations (auto's rule at the run's μ) | score sd (errors)
while IFS='|' read -r split eps runEps iters sd; do
  for ds in $TABLES; do
    c="ranges=private share=0.1"; [[ $ds != unitball* ]] || c="ranges=none intercept=0"
    for k in 0.25 1 4; do
      # shellcheck disable=SC2086
      nice "./$BUILD_DIR/bench/experiment" train=$D/${ds}_train.csv test=$D/${ds}_test.csv eps="$runEps" seeds=3 \
        tag="$ds,$split,$eps,$sd,$k" $c marginRootN=$k maxIterations="$iters" >> "$out/runs.csv"
    done
  done
done <<'S'
even|8|2.816470644598099|516|1.5497848003573793
even|2|0.7444168895561747|200|5.1480015982923355
97/3|8|4.111934042805117|600|6.326969953327794
97/3|2|1.070489532593312|217|21.016628518080804
S
/usr/bin/python3 - "$out/runs.csv" <<'P'
import csv, json, random, statistics as st, sys
from collections import defaultdict
rows = defaultdict(dict)
n = {d['name']: d['rows_train'] for d in json.load(open('bench/.data/datasets.json'))['datasets']}
for r in csv.reader(open(sys.argv[1])):
    ds, split, eps, sd, k, seed = r[0], r[1], r[2], float(r[3]), r[4], int(r[5])
    rows[(split, eps, ds, sd, seed)][k] = (float(r[6]), float(r[7]))
rng = random.Random(1)
chosen = defaultdict(list)
for (split, eps, ds, sd, seed), c in sorted(rows.items()):
    size = n.get(ds, 4000)
    best = min(c, key=lambda k: (1 - c[k][1]) * size + rng.gauss(0, sd))
    chosen[(split, eps, ds)].append(100 * c[best][0])
for key, v in sorted(chosen.items()):
    print(*key, f'{st.mean(v):.1f}', sep='\t')
P
