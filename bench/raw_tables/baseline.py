#!/usr/bin/python3
"""Non-private baselines of the raw-tables benchmark, on the same columns as the DP arms.

    /usr/bin/python3 bench/raw_tables/baseline.py        (Debian's python3-sklearn)

Reads bench/raw_tables/manifest.json and the raw train/test CSVs (bench/raw_tables/prepare.sh);
writes bench/results/raw_tables_baseline.json. Not private: a reference only.

Column typing is what a CSV reader sees (manifest: numeric_columns = every non-NA cell is a
number, quotes ignored; text_columns = the rest). Per table:
  majority          the train majority class, scored on the test file
  numeric_indicator numeric columns only; missing -> 0 plus a 0/1 indicator column (for each
                    column with a missing cell in train); StandardScaler fitted on train;
                    LogisticRegression (C = 1, lbfgs: multinomial for multiclass)
  numeric_mean      the same with the train mean filled in, no indicator
  numeric_zero      the same with 0 filled in, no indicator (today's --impute 0 workaround)
  all_indicator     numeric as numeric_indicator + every text column one-hot
                    (OneHotEncoder(handle_unknown='ignore'), NA its own level): the columns the
                    "raw" arm gets
  all_mean          the same with mean imputation
  all_rtypes        R's types instead: every R factor one-hot (digit levels too), id-like columns
                    (BreastCancer's Id) left out, numeric as numeric_indicator
A table without numeric columns (HouseVotes84) has no numeric_* model: null, and the target
check uses the majority rate (what a model without features can do).
"""
import csv
import json
import math
import os
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import OneHotEncoder, StandardScaler

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(REPO, "bench", "results", "raw_tables_baseline.json")


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def raw_tokens(path):
    """Which cells are R's NA (unquoted): csv drops the quotes, so look at the text."""
    sys.path.insert(0, HERE)
    from split import fields_raw
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")[1:-1]
    return [[t == "NA" for t in fields_raw(l)] for l in lines]


def numeric_block(cols_tr, cols_te, mode):
    """cols_*: list of float arrays with nan = missing. Returns (Xtr, Xte)."""
    tr, te = [], []
    for a, b in zip(cols_tr, cols_te):
        miss_a, miss_b = np.isnan(a), np.isnan(b)
        fill = float(np.nanmean(a)) if mode == "mean" and not np.all(miss_a) else 0.0
        tr.append(np.where(miss_a, fill, a))
        te.append(np.where(miss_b, fill, b))
        if mode == "indicator" and miss_a.any():
            tr.append(miss_a.astype(float))
            te.append(miss_b.astype(float))
    if not tr:
        return None, None
    return np.column_stack(tr), np.column_stack(te)


def fit_score(Xtr, ytr, Xte, yte):
    sc = StandardScaler().fit(Xtr)
    clf = LogisticRegression(C=1.0, max_iter=10000).fit(sc.transform(Xtr), ytr)
    return float(np.mean(clf.predict(sc.transform(Xte)) == yte)), int(Xtr.shape[1])


def table_baselines(e):
    ptr = os.path.join(REPO, e["files"]["raw"]["train"]["path"])
    pte = os.path.join(REPO, e["files"]["raw"]["test"]["path"])
    htr, btr = read(ptr)
    hte, bte = read(pte)
    natr, nate = raw_tokens(ptr), raw_tokens(pte)
    L = e["label"]
    li = htr.index(L)
    ytr = np.array([r[li] for r in btr])
    yte = np.array([r[li] for r in bte])

    def num(col, body, na):
        j = htr.index(col)
        return np.array([math.nan if na[i][j] else float(body[i][j]) for i in range(len(body))])

    def txt(cols, body, na):
        js = [htr.index(c) for c in cols]
        return np.array([["NA" if na[i][j] else body[i][j] for j in js] for i in range(len(body))], dtype=object)

    def onehot(cols):
        if not cols:
            return None, None
        enc = OneHotEncoder(handle_unknown="ignore", sparse_output=False).fit(txt(cols, btr, natr))
        return enc.transform(txt(cols, btr, natr)), enc.transform(txt(cols, bte, nate))

    values, _ = np.unique(ytr, return_counts=True)
    counts = {v: int(np.sum(ytr == v)) for v in values}
    majority = sorted(counts, key=lambda v: (-counts[v], v))[0]
    res = dict(majority=dict(accuracy=float(np.mean(yte == majority)), cls=majority, columns=0))

    def model(name, num_cols, text_cols, mode):
        ntr, nte = numeric_block([num(c, btr, natr) for c in num_cols],
                                 [num(c, bte, nate) for c in num_cols], mode)
        otr, ote = onehot(text_cols)
        parts_tr = [x for x in (ntr, otr) if x is not None]
        parts_te = [x for x in (nte, ote) if x is not None]
        if not parts_tr:
            res[name] = None
            return
        acc, d = fit_score(np.hstack(parts_tr), ytr, np.hstack(parts_te), yte)
        res[name] = dict(accuracy=acc, columns=d, numeric=len(num_cols), text=len(text_cols), missing=mode)

    numeric, text = e["numeric_columns"], e["text_columns"]
    for mode in ("indicator", "mean", "zero"):
        model("numeric_" + mode, numeric, [], mode)
    model("all_indicator", numeric, text, "indicator")
    model("all_mean", numeric, text, "mean")
    rfac = [c for c in e["r_factor_columns"] if c not in e["id_like_columns"]]
    rnum = [c for c in numeric if c not in rfac and c not in e["id_like_columns"]]
    model("all_rtypes", rnum, rfac, "indicator")
    return res


def main():
    manifest = json.load(open(os.path.join(HERE, "manifest.json")))
    out = {}
    for e in manifest:
        out[e["name"]] = table_baselines(e)
        r = out[e["name"]]
        print("%-13s majority %.3f  numeric %s  all %s  all_rtypes %s" % (
            e["name"], r["majority"]["accuracy"],
            "%.3f" % r["numeric_indicator"]["accuracy"] if r["numeric_indicator"] else "  -  ",
            "%.3f" % r["all_indicator"]["accuracy"], "%.3f" % r["all_rtypes"]["accuracy"]))
    out["_about"] = ("Non-private sklearn LogisticRegression(C=1) after StandardScaler fitted on train; "
                     "see bench/raw_tables/baseline.py. Accuracy on the test CSV.")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
