#!/usr/bin/python3
"""Writes web/public/samples/breast-cancer.csv from scikit-learn's copy of the UCI Breast Cancer
Wisconsin (Diagnostic) table (CC BY 4.0; scikit-learn is BSD-3).

Input: Debian's python3-sklearn, which ships the raw table as
/usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv (first line: 569,30,
malignant,benign; then 30 feature values and a 0/1 target per row). The header takes the
feature names of load_breast_cancer(); the target becomes a `diagnosis` column with the names of
load_breast_cancer().target_names (0 = malignant, 1 = benign). Feature values are copied as
text, byte for byte, so no number is re-rounded.

Run: /usr/bin/python3 web/scripts/make_breast_cancer_sample.py   (from the repository root)
"""
import csv
import os
import sys

from sklearn.datasets import load_breast_cancer

SOURCE = "/usr/lib/python3/dist-packages/sklearn/datasets/data/breast_cancer.csv"
TARGET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public", "samples",
                      "breast-cancer.csv")


def main() -> int:
    bunch = load_breast_cancer()
    names = [str(n) for n in bunch.feature_names]
    classes = [str(c) for c in bunch.target_names]
    with open(SOURCE, newline="") as f:
        rows = list(csv.reader(f))
    n, d = int(rows[0][0]), int(rows[0][1])
    if rows[0][2:] != classes or d != len(names) or len(rows) - 1 != n:
        print(f"unexpected source layout: {rows[0]}", file=sys.stderr)
        return 1
    with open(TARGET, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(names + ["diagnosis"])
        for i, row in enumerate(rows[1:]):
            if len(row) != d + 1:
                print(f"row {i + 2} has {len(row)} fields", file=sys.stderr)
                return 1
            # Same values as load_breast_cancer() (checked, not assumed).
            for j in range(d):
                if float(row[j]) != bunch.data[i, j]:
                    print(f"value mismatch at row {i}, column {j}", file=sys.stderr)
                    return 1
            out.writerow(row[:d] + [classes[int(row[d])]])
    print(f"wrote {os.path.relpath(TARGET)}: {n} rows, {d} features + diagnosis")
    return 0


if __name__ == "__main__":
    sys.exit(main())
