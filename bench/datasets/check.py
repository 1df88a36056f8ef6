#!/usr/bin/python3
"""Check the prepared CSVs against bench/datasets/datasets.json; print a table.

    /usr/bin/python3 bench/datasets/check.py [--index PATH] [--baseline]

Checks, for every entry: files exist, sha256 matches, header = `columns`
feature names + `label`, row counts, every field numeric and finite ("."
decimal), label in {0,1}, both classes in train and test, positives as
recorded.  Prints a Markdown table (name, n_train, n_test, d, positive share
train/test, raw units).  With --baseline it adds the test accuracy of a
non-private logistic regression (sklearn, standardised on train, C=1) as a
sanity reference only: it is not a DP result.  Exit code 1 on any failure.
"""
import argparse
import hashlib
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def load(path, d):
    with open(path, encoding="ascii") as f:
        header = f.readline().rstrip("\n").split(",")
        rows = []
        for ln, line in enumerate(f, 2):
            fields = line.rstrip("\n").split(",")
            if len(fields) != d + 1:
                raise ValueError("%s:%d: %d fields, want %d" % (path, ln, len(fields), d + 1))
            rows.append([float(x) for x in fields])  # raises on empty / non-numeric
    a = np.array(rows, dtype=float)
    return header, a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default=os.path.join(HERE, "datasets.json"))
    ap.add_argument("--baseline", action="store_true")
    a = ap.parse_args()
    base = REPO if os.path.abspath(a.index) == os.path.join(HERE, "datasets.json") \
        else os.path.dirname(os.path.abspath(a.index))
    with open(a.index) as f:
        entries = json.load(f)["datasets"]
    bad = 0
    out = []
    for e in entries:
        name = e["name"]
        try:
            tr_path = os.path.join(base, e["train"])
            te_path = os.path.join(base, e["test"])
            for p, key in ((tr_path, "sha256_train"), (te_path, "sha256_test")):
                if sha256(p) != e[key]:
                    raise ValueError("%s: sha256 differs from datasets.json" % p)
            d = e["columns"]
            htr, tr = load(tr_path, d)
            hte, te = load(te_path, d)
            if htr != hte or htr[-1] != "label" or len(set(htr)) != len(htr):
                raise ValueError("bad header")
            if any(h.strip() == "" or h.lower() in ("", "index", "id", "unnamed: 0") for h in htr):
                raise ValueError("suspicious column name")
            if tr.shape[0] != e["rows_train"] or te.shape[0] != e["rows_test"]:
                raise ValueError("row counts differ")
            for arr in (tr, te):
                if not np.isfinite(arr).all():
                    raise ValueError("non-finite value")
                if not set(np.unique(arr[:, -1])) == {0.0, 1.0}:
                    raise ValueError("label not 0/1 with both classes")
            if int(tr[:, -1].sum()) != e["pos_train"] or int(te[:, -1].sum()) != e["pos_test"]:
                raise ValueError("positive counts differ")
            row = [name, e["rows_train"], e["rows_test"], d,
                   "%.3f / %.3f" % (tr[:, -1].mean(), te[:, -1].mean()),
                   "yes" if e["raw_units"] else "no"]
            if a.baseline:
                from sklearn.linear_model import LogisticRegression
                from sklearn.preprocessing import StandardScaler
                s = StandardScaler().fit(tr[:, :-1])
                m = LogisticRegression(C=1.0, max_iter=5000).fit(s.transform(tr[:, :-1]), tr[:, -1])
                from sklearn.metrics import roc_auc_score
                acc = m.score(s.transform(te[:, :-1]), te[:, -1])
                auc = roc_auc_score(te[:, -1], m.decision_function(s.transform(te[:, :-1])))
                maj = max(te[:, -1].mean(), 1 - te[:, -1].mean())
                row += ["%.3f" % acc, "%.3f" % maj, "%.3f" % auc]
            out.append(row)
        except (OSError, ValueError) as ex:
            bad += 1
            print("FAIL %s: %s" % (name, ex), file=sys.stderr)
    cols = ["name", "n_train", "n_test", "d", "positive share (train / test)", "raw units"]
    if a.baseline:
        cols += ["LR test acc (non-private)", "majority", "LR test AUC"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")
    for r in out:
        print("| " + " | ".join(str(x) for x in r) + " |")
    print("%d passed, %d failed" % (len(out), bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
