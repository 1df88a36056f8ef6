#!/usr/bin/python3
"""Synthetic unit-ball margin data (issue 15): unit-norm rows x ∈ R^d separable through the
origin by a random unit w* with margin γ* (|<w*, x>| >= γ*), 1% of the TRAINING labels flipped
(the test split is clean). Same construction as tests/cpp/synthetic.hpp (rejection sampling of
uniform directions), written as a benchmark table: header, features, `label` in {0, 1}.

usage: make_unitball.py OUTDIR [--n 4000] [--test 2000] [--d 50] [--margin 0.1] [--flip 0.01] [--seed 7]
                        [--name unitball]
Writes OUTDIR/NAME_train.csv and OUTDIR/NAME_test.csv (deterministic for a seed). For d > 200
the rejection sampler would need ~1/P(|t| ≥ γ*) draws per row (10^9 at d = 1000, γ* = 0.2), so
there t = ⟨w*, x⟩ is drawn exactly from its distribution conditioned on |t| ≥ γ* ((1 + t)/2 is
Beta((d−1)/2, (d−1)/2) for a uniform direction; inverse CDF on the tail) and the rest of x is a
uniform direction orthogonal to w* of norm √(1 − t²): the same distribution, drawn directly.
"""
import argparse, os
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument('out'); ap.add_argument('--n', type=int, default=4000); ap.add_argument('--test', type=int, default=2000)
ap.add_argument('--d', type=int, default=50); ap.add_argument('--margin', type=float, default=0.1)
ap.add_argument('--flip', type=float, default=0.01); ap.add_argument('--seed', type=int, default=7)
ap.add_argument('--name', default='unitball')
a = ap.parse_args()
rng = np.random.default_rng(a.seed)
w = rng.standard_normal(a.d); w /= np.linalg.norm(w)


def draw_direct(m):
    from scipy.stats import beta
    a_ = (a.d - 1) / 2
    lo = beta.cdf((1 + a.margin) / 2, a_, a_)  # P(t < γ*)
    u = lo + (1 - lo) * rng.random(m)
    t = 2 * beta.ppf(u, a_, a_) - 1  # |t| ≥ γ*
    t *= np.where(rng.random(m) < 0.5, -1.0, 1.0)
    g = rng.standard_normal((m, a.d))
    g -= np.outer(g @ w, w)
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    x = t[:, None] * w[None, :] + np.sqrt(1 - t * t)[:, None] * g
    return x, (t > 0).astype(int)


def draw(m):
    if a.d > 200:
        return draw_direct(m)
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
    np.savetxt(os.path.join(a.out, f'{a.name}_{name}.csv'), np.column_stack([x, y]), delimiter=',',
               header=head, comments='', fmt=['%.7g'] * a.d + ['%d'])
