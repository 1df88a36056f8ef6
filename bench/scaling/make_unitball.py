#!/usr/bin/env python3
"""The centred synthetic table of issue 14: rows uniform in the unit ball of R^d, labelled by a
hyperplane through the origin with margin gamma (rows with |<w*, x>| < gamma are redrawn), a share
of training labels flipped. Writes DIR/unitball_{train,test}.csv (header, x0..x{d-1}, label 0/1);
the test split has no flipped labels. Deterministic (numpy seed).
  make_unitball.py DIR [--n 4000] [--test 1000] [--d 50] [--margin 0.1] [--flip 0.01] [--seed 1]"""
import argparse, os
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("dir")
ap.add_argument("--n", type=int, default=4000)
ap.add_argument("--test", type=int, default=1000)
ap.add_argument("--d", type=int, default=50)
ap.add_argument("--margin", type=float, default=0.1)
ap.add_argument("--flip", type=float, default=0.01)
ap.add_argument("--seed", type=int, default=1)
a = ap.parse_args()
rng = np.random.default_rng(a.seed)
w = rng.standard_normal(a.d)
w /= np.linalg.norm(w)


def draw(m):
    out = []
    while len(out) < m:
        z = rng.standard_normal((m, a.d))
        z /= np.linalg.norm(z, axis=1, keepdims=True)
        z *= rng.random((m, 1)) ** (1.0 / a.d)
        out.extend(z[np.abs(z @ w) >= a.margin])
    x = np.array(out[:m])
    return x, (x @ w > 0).astype(int)


os.makedirs(a.dir, exist_ok=True)
for name, m, flip in (("train", a.n, a.flip), ("test", a.test, 0.0)):
    x, y = draw(m)
    k = int(round(flip * m))
    if k:
        idx = rng.choice(m, k, replace=False)
        y[idx] = 1 - y[idx]
    with open(os.path.join(a.dir, f"unitball_{name}.csv"), "w") as f:
        f.write(",".join([f"x{j}" for j in range(a.d)] + ["label"]) + "\n")
        for xi, yi in zip(x, y):
            f.write(",".join(f"{v:.9g}" for v in xi) + f",{yi}\n")
