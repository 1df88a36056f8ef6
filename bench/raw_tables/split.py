#!/usr/bin/python3
"""Split the raw R exports into train/test CSVs, byte for byte, and write the manifest.

Run by prepare.sh after export.R. Input: OUT/raw/NAME.csv, NAME.rownames.csv, NAME.columns.json.
Output, per table NAME (in OUT, default bench/.data/raw_tables):
    NAME_train.csv, NAME_test.csv                    as shipped (write.csv, row.names = FALSE)
    NAME_rownames_train.csv, NAME_rownames_test.csv  the same rows with R's row-names column ("")
    NAME_na0_train.csv, NAME_na0_test.csv            only for tables with NA in a numeric column:
                                                     every unquoted NA cell emptied (today's
                                                     workaround: the CLI's --impute fills only
                                                     empty cells); nothing else changed
    NAME_onehot_train.csv, NAME_onehot_test.csv      encoded by hand: text columns one-hot over
                                                     R's levels (+ "=NA"), numeric NA -> 0 plus an
                                                     indicator column; all numeric but the label
and OUT/manifest.json (+ the committed copy bench/raw_tables/manifest.json, paths from the repo
root).

The split is the one of bench/datasets: stratified 80/20 per class (round(0.2 * class count) to
test), rows of each part ordered by SHA-256 of "NAME:20240901:ROW" (ROW = 0-based row of the
source, no row dropped). No RNG. Rows are copied as R wrote them (each record is one line: checked),
so quoting, NA spelling and number formatting are exactly R's.
"""
import argparse
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys

SEED = 20240901
TEST_FRACTION = 0.2
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "bench", ".data", "raw_tables")

# name -> label column, positive class for today's binary CLI (None: multiclass), Debian package,
# why the table is here; target=True: named by issue 14's target (the others are extra tables).
TABLES = {
    "credit_data": dict(target=True, label="Status", positive="bad", deb="r-cran-modeldata",
                        why="credit scoring; 4 factor columns, NA in 3 numeric (Income 381) and 3 factor columns"),
    "attrition": dict(target=True, label="Attrition", positive="Yes", deb="r-cran-modeldata",
                      why="IBM HR attrition; 14 factor columns (7 ordered, underscored levels); row names not 1..n"),
    "mlc_churn": dict(target=True, label="churn", positive="yes", deb="r-cran-modeldata",
                      why="telecom churn; state (51 levels), area_code, two yes/no plans; label levels yes|no"),
    "penguins": dict(target=True, label="species", positive=None, deb="r-cran-modeldata",
                     why="3 classes; island and sex (11 NA) factors; NA in the 4 numeric columns (2 rows)"),
    "wa_churn": dict(label="churn", positive="Yes", deb="r-cran-modeldata",
                     why="IBM telco churn; 10 factor columns with spaces and parentheses in levels; NA in total_charges"),
    "HouseVotes84": dict(target=True, label="Class", positive="republican", deb="r-cran-mlbench",
                         why="16 y/n votes, every feature a factor, 392 NA cells (V16: 104)"),
    "BreastCancer": dict(label="Class", positive="malignant", deb="r-cran-mlbench",
                         why="an Id column (character, repeated ids); 9 factors whose levels are the digits 1..10 (5 ordered), quoted; NA in Bare.nuclei"),
    "Soybean": dict(label="Class", positive=None, deb="r-cran-mlbench",
                    why="19 classes (some with 8 rows); 35 factors with digit levels, 2337 NA cells"),
}

NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$")
FIELD = re.compile(r'"(?:[^"]|"")*"|[^,]*')


def fields_raw(line):
    """The fields of one CSV line as written (quotes kept). R quotes every string, so a
    comma or quote outside a quoted field cannot occur."""
    out, pos = [], 0
    while True:
        m = FIELD.match(line, pos)
        out.append(m.group(0))
        pos = m.end()
        if pos >= len(line):
            return out
        assert line[pos] == ",", (line, pos)
        pos += 1


def hash_key(name, i):
    return hashlib.sha256(("%s:%d:%d" % (name, SEED, i)).encode()).digest()


def stratified_split(name, y):
    train, test = [], []
    for cls in sorted(set(y)):
        idx = sorted((i for i in range(len(y)) if y[i] == cls), key=lambda i: hash_key(name, i))
        k = int(round(TEST_FRACTION * len(idx)))
        test += idx[:k]
        train += idx[k:]
    train.sort(key=lambda i: hash_key(name, i))
    test.sort(key=lambda i: hash_key(name, i))
    return train, test


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def write_lines(path, header, lines):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(header + "\n")
        for line in lines:
            f.write(line + "\n")
    os.replace(tmp, path)


def read_lines(path):
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    assert "\r" not in text, path
    lines = text.split("\n")
    assert lines[-1] == "", path
    lines = lines[:-1]
    records = list(csv.reader(io.StringIO(text, newline="")))
    assert len(records) == len(lines), "%s: a record spans lines" % path
    return lines, records


def deb_version(pkg):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def as_list(v):
    return v if isinstance(v, list) else ([] if v is None else [v])


def describe(name, spec, out, rel):
    raw = os.path.join(out, "raw")
    lines, records = read_lines(os.path.join(raw, name + ".csv"))
    rn_lines, rn_records = read_lines(os.path.join(raw, name + ".rownames.csv"))
    meta = json.load(open(os.path.join(raw, name + ".columns.json")))
    header, body = records[0], records[1:]
    raws = [fields_raw(line) for line in lines[1:]]
    assert len(rn_lines) == len(lines) and rn_records[0][0] == "" and rn_records[0][1:] == header
    assert all(len(r) == len(header) for r in raws)
    label = spec["label"]
    li = header.index(label)
    y = [r[li] for r in body]
    assert all(raws[i][li] != "NA" for i in range(len(y))), "missing label"
    n = len(body)
    assert n == meta["rows"]

    rcols = {c["name"]: c for c in meta["columns"]}
    text_cols, numeric_cols, missing, id_like = [], [], {}, []
    q = {}  # quirk kind -> columns

    def quirk(kind, col):
        q.setdefault(kind, []).append(col)

    for j, col in enumerate(header):
        if col == label:
            continue
        rc = rcols[col]
        cls = as_list(rc["r_class"])
        lv = as_list(rc["levels"])
        toks = [raws[i][j] for i in range(n)]
        na = sum(t == "NA" for t in toks)  # unquoted NA: R's missing value
        assert na == rc["na"], (col, na, rc["na"])
        assert '"NA"' not in toks, col  # a level spelled NA would need the quotes to tell it apart
        if na:
            missing[col] = na
        vals = [body[i][j] for i in range(n) if toks[i] != "NA"]
        quoted = any(t.startswith('"') for t in toks)
        if all(NUMBER.match(v) for v in vals):
            numeric_cols.append(col)
            if quoted:
                quirk("quoted values that all look like numbers (R factor/character: a CSV reader "
                      "that drops quotes sees a numeric column)", col)
            if na:
                quirk("NA (unquoted) in a numeric column", col)
        else:
            text_cols.append(col)
            if na:
                quirk("NA (unquoted) among quoted levels of a text column", col)
        if any(" " in l for l in lv):
            quirk("levels with spaces", "%s (%s)" % (col, ", ".join(l for l in lv if " " in l)))
        if any(re.search(r"[(),/]", l) for l in lv):
            quirk("levels with punctuation", "%s (%s)" % (col, ", ".join(l for l in lv if re.search(r"[(),/]", l))))
        if rc["ordered"]:
            quirk("ordered factors (written as level strings; order only in R's metadata)",
                  "%s (%s)" % (col, " < ".join(lv)))
        if "logical" in cls:
            quirk("logical columns written TRUE/FALSE unquoted", col)
        if "character" in cls and rc["distinct"] > 0.5 * n or re.search(r"(^|_)id$|^id(_|$)", col, re.I):
            id_like.append(col)
            quirk("id-like columns", "%s (%s, %d distinct of %d rows)" % (col, "/".join(cls), rc["distinct"], n))
        if lv and len(lv) > len(set(vals)):
            quirk("declared levels that never occur", "%s (%s)" % (col, ", ".join(l for l in lv if l not in set(vals))))
    quirks = ["%s: %s" % (k, "; ".join(v)) for k, v in q.items()]
    if not meta["row_names"]["sequential"]:
        quirks.append('row names (the "" column of the row-names variant) are not 1..n: %s, ...'
                      % ", ".join(meta["row_names"]["first"]))
    lab_levels = as_list(rcols[label]["levels"])
    if lab_levels != sorted(lab_levels):
        quirks.append("label levels in R order %s (the first level is not the alphabetically first)"
                      % " | ".join(lab_levels))

    train, test = stratified_split(name, y)
    files = {}

    def emit(kind, src_lines, idx_train, idx_test):
        for part, idx in (("train", idx_train), ("test", idx_test)):
            fn = "%s%s_%s.csv" % (name, "" if kind == "raw" else "_" + kind, part)
            write_lines(os.path.join(out, fn), src_lines[0], [src_lines[1 + i] for i in idx])
            files.setdefault(kind, {})[part] = dict(path=os.path.join(rel, fn), sha256=sha256_file(os.path.join(out, fn)))

    emit("raw", lines, train, test)
    emit("rownames", rn_lines, train, test)
    numeric_missing = {c: missing[c] for c in numeric_cols if c in missing}
    if numeric_missing:
        na0 = [lines[0]] + [",".join("" if f == "NA" else f for f in r) for r in raws]
        emit("na0", na0, train, test)
    # The table encoded by hand (what the product's own encoding should at least match): every
    # text column one-hot over R's declared levels (public schema, as bench/datasets does) plus an
    # "NA" column where the column has a missing cell; a numeric column with a missing cell in
    # train: 0 plus an indicator column "col=NA". The label column is kept as it is.
    oh_header, oh_cols = [], []
    for j, col in enumerate(header):
        if col == label:
            oh_header.append(col)
            oh_cols.append(lambda i, j=j: body[i][j])
        elif col in text_cols:
            lv = as_list(rcols[col]["levels"]) or sorted({body[i][j] for i in range(n) if raws[i][j] != "NA"})
            for l in lv:
                oh_header.append("%s=%s" % (col, l))
                oh_cols.append(lambda i, j=j, l=l: "1" if raws[i][j] != "NA" and body[i][j] == l else "0")
            if col in missing:
                oh_header.append(col + "=NA")
                oh_cols.append(lambda i, j=j: "1" if raws[i][j] == "NA" else "0")
        else:
            oh_header.append(col)
            oh_cols.append(lambda i, j=j: "0" if raws[i][j] == "NA" else body[i][j])
            if any(raws[i][j] == "NA" for i in train):
                oh_header.append(col + "=NA")
                oh_cols.append(lambda i, j=j: "1" if raws[i][j] == "NA" else "0")

    def csv_line(values):
        buf = io.StringIO()
        csv.writer(buf, lineterminator="").writerow(values)
        return buf.getvalue()

    onehot = [csv_line(oh_header)] + [csv_line([f(i) for f in oh_cols]) for i in range(n)]
    emit("onehot", onehot, train, test)

    classes = []
    for c in sorted(set(y), key=lambda c: (-y.count(c), c)):
        classes.append(dict(value=c, rows=y.count(c), train=sum(y[i] == c for i in train),
                            test=sum(y[i] == c for i in test)))
    majority = classes[0]["value"]
    rows_missing = sum(any(t == "NA" for t in r) for r in raws)
    return dict(
        name=name, package=spec["deb"], package_version=deb_version(spec["deb"]),
        r_object="%s::%s" % (meta["package"], meta["object"]), shipped_class=as_list(meta["shipped_class"]),
        why=spec["why"], target=bool(spec.get("target")), label=label, task="binary" if len(classes) == 2 else "multiclass",
        positive=spec["positive"], classes=classes, label_levels_r=lab_levels,
        majority_class=majority,
        majority_rate_train=round(classes[0]["train"] / len(train), 6),
        majority_rate_test=round(sum(y[i] == majority for i in test) / len(test), 6),
        rows=n, rows_train=len(train), rows_test=len(test), columns=len(header) - 1,
        text_columns=text_cols, numeric_columns=numeric_cols,
        r_factor_columns=[c for c in header if c != label and "factor" in as_list(rcols[c]["r_class"])],
        ordered_columns=[c for c in header if c != label and rcols[c]["ordered"]],
        logical_columns=[c for c in header if c != label and "logical" in as_list(rcols[c]["r_class"])],
        id_like_columns=id_like, missing_cells=missing, missing_cells_total=sum(missing.values()),
        rows_with_missing=rows_missing, numeric_columns_with_missing=numeric_missing,
        quirks=quirks, files=files,
        split="stratified %d/%d per class; rows ordered by SHA-256 of '%s:%d:<row>'"
              % (round(100 * (1 - TEST_FRACTION)), round(100 * TEST_FRACTION), name, SEED),
        typing="numeric_columns: every non-NA cell is a decimal number (quotes ignored, as a CSV "
               "reader sees it); text_columns: the rest. R's own classes: r_factor_columns etc.",
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    default = out == DEFAULT_OUT
    rel = os.path.relpath(out, REPO) if default else "."
    names = a.names or list(TABLES)
    entries = [describe(n, TABLES[n], out, rel) for n in names]
    man_path = os.path.join(out, "manifest.json")
    old = json.load(open(man_path)) if os.path.exists(man_path) else []
    keep = [e for e in old if e["name"] not in names]
    order = list(TABLES)
    allentries = sorted(keep + entries, key=lambda e: order.index(e["name"]))
    text = json.dumps(allentries, indent=2, ensure_ascii=False) + "\n"
    with open(man_path, "w", encoding="utf-8") as f:
        f.write(text)
    if default:
        with open(os.path.join(HERE, "manifest.json"), "w", encoding="utf-8") as f:
            f.write(text)
    for e in entries:
        print("split %-13s %5d + %4d rows, %2d columns (%2d text), %4d NA cells, %s%s" % (
            e["name"], e["rows_train"], e["rows_test"], e["columns"], len(e["text_columns"]),
            e["missing_cells_total"], e["task"], "" if e["task"] == "binary" else " (%d classes)" % len(e["classes"])))


if __name__ == "__main__":
    sys.exit(main())
