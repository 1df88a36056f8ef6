#!/usr/bin/python3
"""Synthetic unit-ball margin data (issue 15): unit-norm rows x ∈ R^d separable through the
origin by a random unit w* with margin γ* (|<w*, x>| >= γ*), 1% of the TRAINING labels flipped
(the test split is clean). Same construction as tests/cpp/synthetic.hpp (rejection sampling of
uniform directions), written as a benchmark table: header, features, `label` in {0, 1}.

usage: make_unitball.py OUTDIR [--n 4000] [--test 2000] [--d 50] [--margin 0.1] [--flip 0.01] [--seed 7]
Writes OUTDIR/unitball_train.csv and OUTDIR/unitball_test.csv (deterministic for a seed).
"""
import argparse, os
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument('out'); ap.add_argument('--n', type=int, default=4000); ap.add_argument('--test', type=int, default=2000)
ap.add_argument('--d', type=int, default=50); ap.add_argument('--margin', type=float, default=0.1)
ap.add_argument('--flip', type=float, default=0.01); ap.add_argument('--seed', type=int, default=7)
a = ap.parse_args()
rng = np.random.default_rng(a.seed)
w = rng.standard_normal(a.d); w /= np.linalg.norm(w)


def draw(m):
    rows = []
    while sum(len(r) for r in rows) < m:
        x = rng.standard_normal((4 * m, a.d)); x /= np.linalg.norm(x, axis=1, keepdims=True)
        rows.append(x[np.abs(x @ w) >= a.margin])
    x = np.concatenate(rows)[:m]
    return x, (x @ w > 0).astype(int)


xtr, ytr = draw(a.n)
xte, yte = draw(a.test)
flip = rng.choice(a.n, int(round(a.flip * a.n)), replace=False)
ytr[flip] = 1 - ytr[flip]
os.makedirs(a.out, exist_ok=True)
head = ','.join([f'x{j}' for j in range(a.d)] + ['label'])
for name, x, y in (('train', xtr, ytr), ('test', xte, yte)):
    np.savetxt(os.path.join(a.out, f'unitball_{name}.csv'), np.column_stack([x, y]), delimiter=',',
               header=head, comments='', fmt=['%.7g'] * a.d + ['%d'])
