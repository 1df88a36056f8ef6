#!/usr/bin/python3
"""Fit and plot the rate benchmark (bench/rate/run.sh): log-log slope of the mean training
0-1 risk against n, per (method, gamma*, epsilon). Writes docs/figures/rate.png and docs/design/RATE.md.
Uses Debian's python3-matplotlib (run with /usr/bin/python3)."""
import csv
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = list(csv.DictReader(open(sys.argv[1])))
out_png, out_md = sys.argv[2], sys.argv[3]
groups = defaultdict(lambda: defaultdict(list))
for r in rows:
    key = (r["method"], float(r["gamma_star"]), float(r["epsilon"]))
    groups[key][int(r["n"])].append(r)


def mean(xs):
    return sum(xs) / len(xs)


def fit(points):
    """Least-squares slope of log(err) on log(n), over points with err > 0."""
    pts = [(math.log(n), math.log(e)) for n, e in points if e > 0]
    if len(pts) < 3:
        return float("nan"), len(pts)
    mx, my = mean([p[0] for p in pts]), mean([p[1] for p in pts])
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    return sxy / sxx, len(pts)


labels = {"mstar": "M* (tight, Iter)", "fixed_small": "JL-GD, fixed γ = γ*/8",
          "fixed_large": "JL-GD, fixed γ = 4γ*"}
settings = sorted({(g, e) for (_, g, e) in groups})
fig, axes = plt.subplots(1, len(settings), figsize=(4.2 * len(settings), 3.8), sharey=True)
lines = ["| method | γ* | ε | slope of log risk vs log n | points used | risk at smallest n | risk at largest n | mean selected γ (largest n) |",
         "|---|---|---|---|---|---|---|---|"]
for ax, (g, e) in zip(axes, settings):
    for method in ["mstar", "fixed_small", "fixed_large"]:
        series = groups[(method, g, e)]
        ns = sorted(series)
        risk = [mean([float(r["train_error"]) for r in series[n]]) for n in ns]
        slope, used = fit(list(zip(ns, risk)))
        sel = mean([float(r["selected_gamma"]) for r in series[ns[-1]]])
        lines.append(f"| {labels[method]} | {g} | {e} | {slope:.2f} | {used} | {risk[0]:.4f} | {risk[-1]:.4f} | {sel:.3g} |")
        ax.plot(ns, [max(x, 1e-5) for x in risk], marker="o", label=f"{labels[method]} (slope {slope:.2f})")
    ref = [1.0 / (n * g * g * e) for n in ns]
    ax.plot(ns, ref, "k--", linewidth=0.8, label="1/(nγ*²ε)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_title(f"γ* = {g}, ε = {e}")
    ax.set_xlabel("n (training rows)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6.5)
axes[0].set_ylabel("mean training 0-1 risk (zeros drawn at 1e-5)")
fig.tight_layout()
fig.savefig(out_png, dpi=130)
open(out_md, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
