#!/usr/bin/python3
"""Multiclass versions of benchmark tables (docs/design/MULTICLASS_MEASURED.md): the same sources, columns and
train/test splits as bench/datasets/prepare.py, with the original class as the label (a class
name) instead of the binary one-vs-rest label. Also a non-private reference per table:
multinomial logistic regression on standardised columns (fitted on the training rows; a
ceiling, not a private method) and the majority-class rate.

    /usr/bin/python3 bench/multiclass/make_tables.py [--raw DIR] [--out DIR]

--raw: the R exports of bench/datasets/prepare.sh and of bench/multiclass/export_r.R (default
bench/.data/raw); digits needs none (python3-sklearn ships it). penguins3 and soybean19 are the raw
tables of bench/raw_tables (text columns, NA cells, as R writes them; --raw-tables, default
bench/.data/raw_tables), copied as they are, with their own label column. Writes
OUT/NAME_train.csv, OUT/NAME_test.csv and OUT/tables.json (per table its label column, class
list, the non-private multinomial logistic regression's test accuracy and the majority rate).
The whole benchmark: bash bench/multiclass/prepare.sh, then bench/multiclass/run.mjs.
"""
import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench", "datasets"))
import prepare as P  # noqa: E402  (the binary tables' recipes: columns, splits, formats)


def digits(raw):
    from sklearn.datasets import load_digits
    d = load_digits()
    X = d.data.astype(np.int64)
    names = ["px%02d" % j for j in range(X.shape[1])]
    labels = ["d%d" % t for t in d.target]
    # The binary table's split is stratified by its 0/1 label; stratify by the digit instead.
    r = P.split_hash("digits10", names, X.tolist(), list(d.target), 0)
    return names, X.tolist(), labels, r["train"], r["test"], "sklearn load_digits, 10 digits"


def r_table(raw, name, label_col, split):
    P_out = os.path.dirname(raw)
    t, lab = P.r_numeric_all(P_out, name, label_col)
    names, rows, _, dropped, keep = P.finish(t, [None if s == "" else 0 for s in lab])
    labels = [lab[i] for i in keep]
    assert dropped == 0
    if split == "hash":
        codes = {c: k for k, c in enumerate(sorted(set(labels)))}
        r = P.split_hash(name + "_multi", names, rows, [codes[c] for c in labels], 0)
    else:
        r = P.split_first(names, rows, [0] * len(rows), 0, split, "official")
    return names, rows, labels, r["train"], r["test"], "r-cran-mlbench " + name


TABLES = {
    "digits10": lambda raw: digits(raw),
    "satellite6": lambda raw: r_table(raw, "satellite", "classes", "hash"),
    "letter26": lambda raw: r_table(raw, "letter", "lettr", 16000),
    "dna3": lambda raw: r_table(raw, "dna", "Class", "hash"),
    "vehicle4": lambda raw: r_table(raw, "vehicle", "class", "hash"),
    "vowel11": lambda raw: r_table(raw, "vowel", "class", "hash"),
}
# Raw tables (bench/raw_tables: stratified 80/20 splits of the tables as R writes them): name ->
# (file stem, label column, source).
RAW = {
    "penguins3": ("penguins", "species", "r-cran-modeldata penguins (2 text columns, NA cells)"),
    "soybean19": ("Soybean", "Class", "r-cran-mlbench Soybean (35 factor columns, NA cells)"),
}


def raw_ceiling(train_path, test_path, label):
    """Non-private multinomial LR on a raw table: one-hot text columns (training levels), NA ->
    training median plus an indicator, standardised (a ceiling, not a private method)."""
    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler
    tr, te = pd.read_csv(train_path), pd.read_csv(test_path)
    ytr, yte = tr.pop(label).astype(str).to_numpy(), te.pop(label).astype(str).to_numpy()
    both = pd.concat([tr, te], keys=["tr", "te"])
    parts = []
    for col in both.columns:
        x = both[col]
        if x.dtype == object:
            parts.append(pd.get_dummies(x.astype("category").cat.set_categories(sorted(tr[col].dropna().unique())),
                                        prefix=col, dummy_na=True).astype(float))
        else:
            med = tr[col].median()
            parts.append(pd.DataFrame({col: x.fillna(med), col + ":na": x.isna().astype(float)}))
    X = pd.concat(parts, axis=1)
    Xtr, Xte = X.loc["tr"].to_numpy(float), X.loc["te"].to_numpy(float)
    sc = StandardScaler().fit(Xtr)
    lr = LogisticRegression(max_iter=5000).fit(sc.transform(Xtr), ytr)
    values, counts = np.unique(ytr, return_counts=True)
    return (float((lr.predict(sc.transform(Xte)) == yte).mean()), float((yte == values[np.argmax(counts)]).mean()),
            sorted(set(ytr)), len(ytr), len(yte), X.shape[1])


def write(path, names, rows, labels, idx):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(",".join(names + ["label"]) + "\n")
        for i in idx:
            f.write(",".join(P.fmt(v) for v in rows[i]) + "," + labels[i] + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--raw", default=os.path.join(REPO, "bench", ".data", "raw"))
    ap.add_argument("--raw-tables", default=os.path.join(REPO, "bench", ".data", "raw_tables"))
    ap.add_argument("--out", default=os.path.join(REPO, "bench", ".data", "multiclass"))
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler
    index = []
    for name in a.names or list(TABLES) + list(RAW):
        if name in RAW:
            stem, label, source = RAW[name]
            import shutil
            for part in ("train", "test"):
                shutil.copyfile(os.path.join(a.raw_tables, "%s_%s.csv" % (stem, part)),
                                os.path.join(a.out, "%s_%s.csv" % (name, part)))
            acc, majority, classes, ntr, nte, width = raw_ceiling(
                os.path.join(a.out, name + "_train.csv"), os.path.join(a.out, name + "_test.csv"), label)
            index.append(dict(name=name, train=name + "_train.csv", test=name + "_test.csv", label=label,
                              rows_train=ntr, rows_test=nte, columns=width, classes=classes, source=source,
                              majority_test=majority, logreg_test=acc))
            print("%s: %d/%d rows, %d classes, LR %.3f, majority %.3f" % (name, ntr, nte, len(classes), acc, majority))
            continue
        names, rows, labels, tr, te, source = TABLES[name](a.raw)
        classes = sorted(set(labels))
        write(os.path.join(a.out, name + "_train.csv"), names, rows, labels, tr)
        write(os.path.join(a.out, name + "_test.csv"), names, rows, labels, te)
        X = np.asarray(rows, dtype=float)
        y = np.asarray(labels)
        scaler = StandardScaler().fit(X[tr])
        lr = LogisticRegression(max_iter=5000).fit(scaler.transform(X[tr]), y[tr])
        acc = float((lr.predict(scaler.transform(X[te])) == y[te]).mean())
        values, counts = np.unique(y[tr], return_counts=True)
        majority = values[np.argmax(counts)]
        index.append(dict(name=name, train=name + "_train.csv", test=name + "_test.csv", label="label",
                          rows_train=len(tr), rows_test=len(te), columns=len(names),
                          classes=classes, source=source,
                          majority_test=float((y[te] == majority).mean()),
                          logreg_test=acc))
        print("%s: %d/%d rows, %d columns, %d classes, LR %.3f, majority %.3f"
              % (name, len(tr), len(te), len(names), len(classes), acc, index[-1]["majority_test"]))
    with open(os.path.join(a.out, "tables.json"), "w") as f:
        json.dump(index, f, indent=1)


if __name__ == "__main__":
    main()
