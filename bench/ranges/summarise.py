#!/usr/bin/python3
"""Summarise bench/results/ranges.csv: mean ± sd test accuracy per dataset and variant."""
import csv
import statistics
import sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
acc = defaultdict(list)
order_ds, order_var = [], []
for r in rows:
    key = (r["dataset"], r["variant"])
    acc[key].append(float(r["test_accuracy"]))
    if r["dataset"] not in order_ds:
        order_ds.append(r["dataset"])
    if r["variant"] not in order_var:
        order_var.append(r["variant"])
lines = ["| dataset | " + " | ".join(order_var) + " | (b: share 0.1) − (c) |",
         "|---" * (len(order_var) + 2) + "|"]
for ds in order_ds:
    cells = []
    for v in order_var:
        a = acc.get((ds, v), [])
        cells.append(f"{100*statistics.mean(a):.1f} ± {100*statistics.stdev(a):.1f}" if len(a) > 1 else
                     (f"{100*a[0]:.1f}" if a else "—"))
    b, c = acc.get((ds, "private-0.1")), acc.get((ds, "data-minmax"))
    gap = f"{100*(statistics.mean(b) - statistics.mean(c)):+.1f}" if b and c else "—"
    lines.append(f"| {ds} | " + " | ".join(cells) + f" | {gap} |")
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
