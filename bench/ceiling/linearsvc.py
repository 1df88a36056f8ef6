#!/usr/bin/python3
"""The non-private ceiling: scikit-learn's LinearSVC (Debian's python3-sklearn) on the same
feature columns the private learner sees, standardised on the training split, C chosen by
3-fold cross-validation on the training split from {0.001, 0.01, 0.1, 1, 10}; test accuracy on the
fixed test split. NOT private — a reference for what a linear model can do on the table.

  /usr/bin/python3 bench/ceiling/linearsvc.py --train A.csv --test B.csv --name X
      prints one JSON object {name, test_accuracy, train_accuracy, C, n, d, ...}
  /usr/bin/python3 bench/ceiling/linearsvc.py [DATASET ...]
      every (or the named) table of bench/.data/datasets.json → bench/results/ceiling.json
"""
import argparse
import json
import os
import sys
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "bench", ".data")


def read(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
    table = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    label = header.index("label") if "label" in header else len(header) - 1
    y = table[:, label]
    x = np.delete(table, label, axis=1)
    return x, (y == 1).astype(int)


def ceiling(train, test, name):
    x, y = read(train)
    xt, yt = read(test)
    t0 = time.time()
    warnings.simplefilter("ignore", ConvergenceWarning)
    dual = x.shape[0] < 4 * x.shape[1]  # sklearn's advice: primal when n ≫ d
    model = make_pipeline(StandardScaler(), LinearSVC(dual=dual, max_iter=5000, random_state=0))
    search = GridSearchCV(model, {"linearsvc__C": [0.001, 0.01, 0.1, 1.0, 10.0]},
                          cv=StratifiedKFold(3, shuffle=True, random_state=0), n_jobs=1)
    search.fit(x, y)
    best = search.best_estimator_
    return {
        "name": name, "n": int(x.shape[0]), "d": int(x.shape[1]), "n_test": int(xt.shape[0]),
        "test_accuracy": float((best.predict(xt) == yt).mean()),
        "train_accuracy": float((best.predict(x) == y).mean()),
        "majority_test_accuracy": float(max(yt.mean(), 1 - yt.mean())),
        "C": float(search.best_params_["linearsvc__C"]), "cv_accuracy": float(search.best_score_),
        "model": "StandardScaler + LinearSVC (hinge², L2), C by 3-fold CV on train",
        "sklearn": sklearn.__version__, "seconds": round(time.time() - t0, 2), "private": False,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train"), p.add_argument("--test"), p.add_argument("--name")
    p.add_argument("datasets", nargs="*")
    a = p.parse_args()
    if a.train:
        print(json.dumps(ceiling(a.train, a.test, a.name or os.path.basename(a.train))))
        return
    meta = json.load(open(os.path.join(DATA, "datasets.json")))["datasets"]
    names = a.datasets or [m["name"] for m in meta]
    out = os.path.join(ROOT, "bench", "results", "ceiling.json")
    results = json.load(open(out)) if os.path.exists(out) and a.datasets else {}
    for m in meta:
        if m["name"] in names:
            r = ceiling(os.path.join(DATA, m["train"]), os.path.join(DATA, m["test"]), m["name"])
            results[m["name"]] = r
            print(json.dumps(r), file=sys.stderr)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
