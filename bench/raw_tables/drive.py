#!/usr/bin/python3
"""The DP side of the raw-tables benchmark: train through the package's command line, evaluate
on the held-out CSV with the command line's `predict`, append one row per run to
bench/results/raw_tables.csv. Failures are rows too (status, error code, message).

    /usr/bin/python3 bench/raw_tables/drive.py [--quick] [--seeds N] [--eps 0.5,1,2]
        [--tables a,b] [--arms a,b] [--cli dist/cli.js] [--product TAG] [--jobs 1]

Every run: default options except --epsilon, --delta 1e-5 and --seed (seeded runs are for
benchmarks: deterministic, NOT private). Arms per table (manifest.json):

  numeric          the raw CSV, --label, --positive P (binary tables), --ignore every text column
                   (what today's CLI needs to train at all). Multiclass: no --positive.
  numeric-na0      tables with NA in a numeric column, binary: the *_na0 copy (every unquoted NA
                   cell emptied) with --impute 0 for train and predict: today's only way through.
  numeric-na0-ovr  the same for multiclass tables: one-vs-rest by hand, K runs with --positive c
                   at (eps/K, delta/K) each (basic composition: (eps, delta) overall), the class
                   of the largest score wins.
  onehot           the table encoded by hand (*_onehot: text columns one-hot over R's levels plus
                   an NA column, numeric NA -> 0 plus an indicator), --label, --positive: what
                   today's learner reaches on the encoded columns, a reference for `raw`.
  onehot-ovr       the same for multiclass tables, one-vs-rest by hand as above.
  raw              the raw CSV with nothing but --label (multiclass: no --positive).
  ARM-noranges     (diagnostic, only with --arms) ARM with --no-private-ranges.
  raw-rownames     the same on the copy with R's row-names column (header "").
  raw-nolabel      the raw CSV with no flag at all: the default label proposal, when it exists.

Rows already in the results file for the same (product, table, arm, eps, seed) are skipped, so a
run resumes, and a later product version adds its own rows next to today's. The product tag is
--product, or by default the last commit that changed core/, wasm/, CMakeLists.txt or the
package files in the CLI's repository.
"""
import argparse
import concurrent.futures as cf
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(REPO, "bench", "results", "raw_tables.csv")
FIELDS = ["product", "table", "arm", "epsilon", "seed", "status", "error_code", "error_flag",
          "error_message", "test_accuracy", "train_accuracy", "n_train", "d", "label_used",
          "positive_used", "selected_gamma", "seconds", "args"]
DELTA = 1e-5
ERROR = re.compile(r"^dpmargin: ([A-Z_]+)(?: \(([^)]*)\))?: (.*)$")
ARMS = ["numeric", "numeric-na0", "numeric-na0-ovr", "onehot", "onehot-ovr", "raw", "raw-rownames",
        "raw-nolabel"]


class Failure(Exception):
    def __init__(self, status, code="", flag="", message=""):
        super().__init__(message)
        self.status, self.code, self.flag, self.message = status, code, flag, message


def cli_run(cli, args, timeout=1800):
    p = subprocess.run(["node", cli] + args, capture_output=True, text=True, timeout=timeout)
    if p.returncode == 0:
        return p.stdout
    lines = [l for l in p.stderr.splitlines() if l.strip() and "warning:" not in l]
    last = lines[-1] if lines else "(no message; exit %d)" % p.returncode
    m = ERROR.match(last)
    if p.returncode == 2 and m:
        raise Failure("error", m.group(1), m.group(2) or "", m.group(3))
    errs = [l.strip() for l in lines if "Error" in l or "error" in l][:2]
    raise Failure("crash", "EXIT_%d" % p.returncode, "", " | ".join(errs or lines[-3:])[:500] or last)


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def truth_of(path, label):
    header, body = read_csv(path)
    j = header.index(label)
    return [r[j].strip() for r in body]


def predicted_classes(pred_path, label, positive):
    """Class per row from a predictions CSV, whatever its layout: a class column (label name,
    class, prediction, predicted, predicted_class, label), one `LABEL=VALUE` 0/1 column (today's
    binary format), several `LABEL=VALUE` columns (one-hot or scores: the largest wins), or
    `score:CLASS`-style columns."""
    header, body = read_csv(pred_path)
    names = [h.strip() for h in header]
    for cand in (label, "class", "prediction", "predicted", "predicted_class", "label"):
        if cand in names:
            j = names.index(cand)
            return [r[j].strip() for r in body], None
    eq = [(j, h.split("=", 1)[1]) for j, h in enumerate(names) if h.startswith(label + "=")]
    if len(eq) == 1:
        j, value = eq[0]
        return [value if r[j].strip() == "1" else None for r in body], value
    if len(eq) > 1:
        return [max(eq, key=lambda jv: float(r[jv[0]]))[1] for r in body], None
    sc = [(j, re.split(r"[:=]", h, 1)[1]) for j, h in enumerate(names)
          if re.match(r"^(score|p|prob)[:=]", h)]
    if len(sc) > 1:
        return [max(sc, key=lambda jv: float(r[jv[0]]))[1] for r in body], None
    raise Failure("eval-error", "UNKNOWN_PREDICTIONS", "", "predictions header: " + ",".join(names)[:300])


def accuracy(pred, truth, positive_value):
    if positive_value is not None:  # binary 1/0 column: None = "not the positive class"
        ok = sum((p is not None) == (t == positive_value) for p, t in zip(pred, truth))
    else:
        ok = sum(p == t for p, t in zip(pred, truth))
    return ok / len(truth)


def path_of(entry, kind, part):
    return os.path.join(REPO, entry["files"][kind][part]["path"])


def one_model(cli, entry, kind, args, predict_extra, eps, delta, seed, work, tag):
    """Train one model, predict the test file; return (train JSON, predictions path)."""
    model = os.path.join(work, tag + ".model.json")
    out = cli_run(cli, ["train", path_of(entry, kind, "train")] + args +
                  ["--epsilon", repr(eps), "--delta", repr(delta), "--seed", str(seed),
                   "--out", model, "--json"])
    info = json.loads(out)
    preds = os.path.join(work, tag + ".pred.csv")
    cli_run(cli, ["predict", model, path_of(entry, kind, "test"), "--out", preds] + predict_extra)
    return info, preds


def run_any(cli, entry, arm, eps, seed):
    if arm.endswith("-noranges"):  # diagnostic: the same arm without private column ranges
        row = run_arm(cli, entry, arm[:-len("-noranges")], eps, seed, ["--no-private-ranges"])
        row["args"] += " --no-private-ranges"
        return row
    return run_arm(cli, entry, arm, eps, seed)


def run_arm(cli, entry, arm, eps, seed, more=()):
    more = list(more)
    L, pos, text = entry["label"], entry["positive"], entry["text_columns"]
    binary = entry["task"] == "binary"
    ignore = ["--ignore", ",".join(text)] if text else []
    row = dict(positive_used="", label_used="")
    with tempfile.TemporaryDirectory(prefix="dpm-raw-") as work:
        if arm in ("numeric-na0-ovr", "onehot-ovr"):
            classes = [c["value"] for c in entry["classes"]]
            K = len(classes)
            if arm == "numeric-na0-ovr":
                kind, args_all, extra = "na0", ["--label", L] + ignore + ["--impute", "0"], ["--impute", "0"]
            else:
                kind, args_all, extra = "onehot", ["--label", L], []
            row["args"] = " ".join(args_all) + " --positive <each of %d classes> at eps/%d, delta/%d" % (K, K, K)
            scores, d, n = [], None, None
            for k, c in enumerate(classes):
                info, preds = one_model(cli, entry, kind, args_all + more + ["--positive", c], extra,
                                        eps / K, DELTA / K, seed * 1000 + k, work, "c%d" % k)
                header, body = read_csv(preds)
                scores.append([float(r[header.index("score")]) for r in body])
                d, n = info.get("d"), info.get("n")
            pred = [classes[max(range(K), key=lambda k: scores[k][i])] for i in range(len(scores[0]))]
            truth = truth_of(path_of(entry, kind, "test"), L)
            row.update(test_accuracy=accuracy(pred, truth, None), n_train=n, d=d, label_used=L,
                       positive_used="(one-vs-rest by hand)")
            return row
        if arm == "numeric":
            kind, args, extra = "raw", ["--label", L] + (["--positive", pos] if binary else []) + ignore, []
        elif arm == "numeric-na0":
            kind = "na0"
            args = ["--label", L, "--positive", pos] + ignore + ["--impute", "0"]
            extra = ["--impute", "0"]
        elif arm == "onehot":
            kind, args, extra = "onehot", ["--label", L, "--positive", pos], []
        elif arm == "raw":
            kind, args, extra = "raw", ["--label", L], []
        elif arm == "raw-rownames":
            kind, args, extra = "rownames", ["--label", L], []
        elif arm == "raw-nolabel":
            kind, args, extra = "raw", [], []
        else:
            raise ValueError(arm)
        row["args"] = " ".join(args)
        info, preds = one_model(cli, entry, kind, args + more, extra, eps, DELTA, seed, work, "m")
        lab = info.get("label") or {}
        used = lab.get("column", L) if isinstance(lab, dict) else str(lab)
        positive = lab.get("positive") if isinstance(lab, dict) else None
        row.update(label_used=used, positive_used=positive if positive is not None else "",
                   train_accuracy=info.get("trainAccuracy", ""), n_train=info.get("n", ""),
                   d=info.get("d", ""), selected_gamma=info.get("selectedMargin", ""))
        pred, pos_value = predicted_classes(preds, used, positive)
        truth = truth_of(path_of(entry, kind, "test"), used)
        row["test_accuracy"] = accuracy(pred, truth, pos_value)
        if used != L:
            row["status"] = "wrong-label"
        return row


def applicable(entry, arm):
    arm = arm[:-len("-noranges")] if arm.endswith("-noranges") else arm
    has_na0 = "na0" in entry["files"]
    if arm == "numeric-na0":
        return has_na0 and entry["task"] == "binary"
    if arm == "numeric-na0-ovr":
        return has_na0 and entry["task"] == "multiclass"
    if arm == "onehot":
        return entry["task"] == "binary"
    if arm == "onehot-ovr":
        return entry["task"] == "multiclass"
    return True


PRODUCT_PATHS = ["core", "wasm", "CMakeLists.txt", "package.json", "package-lock.json"]


def product_tag(cli):
    """The last commit that changed what dist/ is built from (a commit that touches only bench/,
    docs/ or tests/ is the same product), with -dirty for uncommitted changes there. The CLI
    must have been rebuilt from that tree: the tag cannot check it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(cli)))
    try:
        head = subprocess.run(["git", "-C", root, "log", "-1", "--format=%h", "--"] + PRODUCT_PATHS,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--"] + PRODUCT_PATHS,
                               capture_output=True, text=True, check=True).stdout.strip()
        return (head or "unknown") + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="2 seeds, eps = 1 only")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--eps", default="0.5,1,2")
    ap.add_argument("--tables", default="")
    ap.add_argument("--arms", default="")
    ap.add_argument("--cli", default=os.path.join(REPO, "dist", "cli.js"))
    ap.add_argument("--product", default="", help="tag of the product version (default: git commit of the CLI's repo)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default=RESULTS)
    a = ap.parse_args()
    seeds = list(range(1, (2 if a.quick else a.seeds) + 1))
    epsilons = [1.0] if a.quick else [float(e) for e in a.eps.split(",")]
    manifest = json.load(open(os.path.join(HERE, "manifest.json")))
    if a.tables:
        manifest = [e for e in manifest if e["name"] in a.tables.split(",")]
    arms = a.arms.split(",") if a.arms else ARMS
    product = a.product or product_tag(a.cli)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    done = set()
    if os.path.exists(a.out):
        with open(a.out, newline="") as f:
            for r in csv.DictReader(f):
                done.add((r["product"], r["table"], r["arm"], float(r["epsilon"]), int(r["seed"])))
    else:
        with open(a.out, "w", newline="") as f:
            csv.DictWriter(f, FIELDS).writeheader()
    jobs = [(e, arm, eps, s) for e in manifest for arm in arms if applicable(e, arm)
            for eps in epsilons for s in seeds if (product, e["name"], arm, eps, s) not in done]
    print("raw tables: product %s, %d runs to do (%d already in %s)" % (
        product, len(jobs), len(done), os.path.relpath(a.out, REPO)), flush=True)
    lock = threading.Lock()
    counts = {}

    def work(job):
        e, arm, eps, s = job
        t0 = time.time()
        row = dict(product=product, table=e["name"], arm=arm, epsilon=eps, seed=s, status="ok")
        try:
            row.update(run_any(a.cli, e, arm, eps, s))
        except Failure as f:
            row.update(status=f.status, error_code=f.code, error_flag=f.flag, error_message=f.message)
        except subprocess.TimeoutExpired:
            row.update(status="crash", error_code="TIMEOUT")
        except Exception as ex:  # the harness records, never stops
            row.update(status="harness-error", error_code=type(ex).__name__, error_message=str(ex)[:500])
        row.setdefault("args", "")
        row["seconds"] = round(time.time() - t0, 2)
        if isinstance(row.get("test_accuracy"), float):
            row["test_accuracy"] = round(row["test_accuracy"], 6)
        if isinstance(row.get("train_accuracy"), float):
            row["train_accuracy"] = round(row["train_accuracy"], 6)
        with lock:
            with open(a.out, "a", newline="") as f:
                csv.DictWriter(f, FIELDS).writerow({k: row.get(k, "") for k in FIELDS})
            counts[row["status"]] = counts.get(row["status"], 0) + 1
            acc = row.get("test_accuracy", "")
            print("  %-13s %-16s eps=%-4g seed=%d  %-11s %s" % (
                e["name"], arm, eps, s, row["status"],
                ("%.4f" % acc) if isinstance(acc, float) else row.get("error_code", "")), flush=True)

    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        list(ex.map(work, jobs))
    print("raw tables: " + ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())))


if __name__ == "__main__":
    sys.exit(main())
