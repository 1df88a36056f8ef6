#!/usr/bin/python3
"""Turn the packaged data sets into the benchmark CSVs.

Run by prepare.sh (Debian's /usr/bin/python3, which has numpy and sklearn).
Input: the Debian packages' files, and OUT/raw/NAME.csv written by export_r.R.
Output, per data set NAME:
    OUT/NAME_train.csv, OUT/NAME_test.csv   header row, numeric features,
                                            last column `label` (0/1)
    OUT/NAME.meta.json                      the data set's entry (also a stamp:
                                            present => already prepared)
and OUT/datasets.json with every entry.  With the default OUT (bench/.data)
it also writes bench/datasets/datasets.json, the committed copy the benchmark
drivers read (paths there are relative to the repository root).

Rules: no scaling or standardisation (raw units are kept: the library does
its own DP-safe preprocessing); categoricals are one-hot encoded over the
category set of the published schema (all levels kept, none dropped); binary
yes/no categoricals become one 0/1 indicator; rows with a missing value in a
used column are dropped (and counted).  Splits are either the data set's
official one or a stratified 80/20 split whose order comes from SHA-256 of
"NAME:SEED:row", so the bytes do not depend on any library's RNG.
Numbers are written as integers when integral, else as Python's shortest
round-trip repr ("." decimal).  Same inputs, same bytes.
"""
import argparse
import csv
import datetime
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys

import numpy as np

SEED = 20240901
TEST_FRACTION = 0.2
RECIPE_VERSION = 2  # bump when a recipe changes, to invalidate old outputs

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "bench", ".data")
FASHION_DIR = "/usr/share/datasets/fashion-mnist"


# ---------------------------------------------------------------- helpers

def slug(s):
    s = re.sub(r"[^0-9A-Za-z]+", "_", str(s).strip()).strip("_").lower()
    return s or "x"


def fmt(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("non-finite value")
    if v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return repr(v)


def read_raw(out, name):
    path = os.path.join(out, "raw", name + ".csv")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    cols = {h: [r[i] for r in body] for i, h in enumerate(header)}
    return header, cols, len(body)


def num(s):
    """R's CSV field -> number, or None for missing (empty field)."""
    if s == "":
        return None
    v = float(s)
    return int(v) if v.is_integer() and abs(v) < 1e15 else v


class Table:
    """Columns being assembled: list of (name, values) with None = missing."""

    def __init__(self, n):
        self.n = n
        self.names = []
        self.cols = []

    def add(self, name, values):
        assert len(values) == self.n, name
        if name in self.names:
            raise ValueError("duplicate column " + name)
        self.names.append(name)
        self.cols.append(list(values))

    def numeric(self, name, raw, out_name=None):
        self.add(out_name or slug(name), [num(s) for s in raw])

    def indicator(self, name, raw, positive):
        self.add(slug(name), [None if s == "" else int(s == positive) for s in raw])

    def onehot(self, name, raw, levels=None):
        present = sorted({s for s in raw if s != ""})
        if levels is None:
            levels = present
        unknown = set(present) - set(levels)
        if unknown:
            raise ValueError("%s: levels not in schema: %s" % (name, sorted(unknown)))
        for lev in levels:
            col = slug(lev)
            if not col.startswith(slug(name) + "_"):  # "area_code_408" stays as is
                col = "%s_%s" % (slug(name), col)
            self.add(col,
                     [None if s == "" else int(s == lev) for s in raw])
        return levels


def finish(table, label):
    """Drop rows with a missing value; return (names, rows, y, n_dropped, kept_index)."""
    assert len(label) == table.n
    keep = [i for i in range(table.n)
            if label[i] is not None and all(c[i] is not None for c in table.cols)]
    rows = [[c[i] for c in table.cols] for i in keep]
    y = [int(label[i]) for i in keep]
    return table.names, rows, y, table.n - len(keep), keep


def hash_key(name, i):
    return hashlib.sha256(("%s:%d:%d" % (name, SEED, i)).encode()).digest()


def stratified_split(name, y):
    """Return (train_idx, test_idx), each in hash order (i.e. shuffled)."""
    train, test = [], []
    for cls in sorted(set(y)):
        idx = sorted((i for i in range(len(y)) if y[i] == cls),
                     key=lambda i: hash_key(name, i))
        k = int(round(TEST_FRACTION * len(idx)))
        test += idx[:k]
        train += idx[k:]
    train.sort(key=lambda i: hash_key(name, i))
    test.sort(key=lambda i: hash_key(name, i))
    return train, test


def write_csv(path, names, rows, y):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii", newline="\n") as f:
        f.write(",".join(names + ["label"]) + "\n")
        if isinstance(rows, np.ndarray) and rows.dtype.kind in "iu":
            for r, lab in zip(rows.tolist(), y):
                f.write(",".join(map(str, r)) + "," + str(int(lab)) + "\n")
        else:
            for r, lab in zip(rows, y):
                f.write(",".join(fmt(v) for v in r) + "," + str(int(lab)) + "\n")
    os.replace(tmp, path)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def deb_version(pkg):
    try:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# ---------------------------------------------------------------- recipes
# Each recipe returns a dict with names, rows, y, dropped, split (train_idx,
# test_idx) and split description.  Metadata lives in DATASETS below.

def split_hash(name, names, rows, y, dropped):
    tr, te = stratified_split(name, y)
    return dict(names=names, rows=rows, y=y, dropped=dropped, train=tr, test=te,
                split="stratified %d/%d per class; rows ordered by SHA-256 of '%s:%d:<row>'"
                % (round(100 * (1 - TEST_FRACTION)), round(100 * TEST_FRACTION), name, SEED))


def split_first(names, rows, y, dropped, n_train, what):
    n = len(y)
    return dict(names=names, rows=rows, y=y, dropped=dropped,
                train=list(range(n_train)), test=list(range(n_train, n)),
                split="official: %s (first %d rows train, last %d test, source order)"
                % (what, n_train, n - n_train))


def r_numeric_all(out, name, label_col):
    header, cols, n = read_raw(out, name)
    t = Table(n)
    for h in header:
        if h != label_col:
            t.numeric(h, cols[h])
    return t, cols[label_col]


def recipe_breast_cancer(out):
    from sklearn.datasets import load_breast_cancer
    d = load_breast_cancer()  # reads the CSV bundled in python3-sklearn, no download
    assert list(d.target_names) == ["malignant", "benign"]
    names = [slug(s) for s in d.feature_names]
    rows = d.data.tolist()
    y = [int(t == 0) for t in d.target]  # positive: malignant
    return split_hash("breast_cancer", names, rows, y, 0)


def recipe_digits(out):
    from sklearn.datasets import load_digits
    d = load_digits()
    X = d.data.astype(np.int64)
    names = ["px%02d" % j for j in range(X.shape[1])]
    y = [int(t >= 5) for t in d.target]  # positive: digits 5-9
    r = split_hash("digits", names, X, y, 0)
    return r


def recipe_pima(out):
    t, lab = r_numeric_all(out, "pima", "diabetes")
    names, rows, y, dropped, _ = finish(t, [None if s == "" else int(s == "pos") for s in lab])
    return split_hash("pima", names, rows, y, dropped)


def recipe_dna(out):
    t, lab = r_numeric_all(out, "dna", "Class")
    # positive: a splice junction (exon/intron "ei" or intron/exon "ie"); negative: "n"
    names, rows, y, dropped, _ = finish(t, [None if s == "" else int(s != "n") for s in lab])
    return split_hash("dna", names, rows, y, dropped)


def recipe_satellite(out):
    t, lab = r_numeric_all(out, "satellite", "classes")
    names, rows, y, dropped, _ = finish(
        t, [None if s == "" else int(s == "very damp grey soil") for s in lab])
    return split_hash("satellite", names, rows, y, dropped)


def recipe_letter(out):
    t, lab = r_numeric_all(out, "letter", "lettr")
    names, rows, y, dropped, _ = finish(t, [None if s == "" else int(s <= "M") for s in lab])
    assert dropped == 0 and len(y) == 20000
    return split_first(names, rows, y, dropped, 16000, "UCI letter-recognition's usual split")


def recipe_shuttle(out):
    t, lab = r_numeric_all(out, "shuttle", "Class")
    names, rows, y, dropped, _ = finish(t, [None if s == "" else int(s != "Rad.Flow") for s in lab])
    assert dropped == 0 and len(y) == 58000
    # mlbench keeps the Statlog order: shuttle.trn (43,500) then shuttle.tst (14,500);
    # checked: row 43,501 is the first row of shuttle.tst.
    assert rows[43500] == [55, 0, 81, 0, -6, 11, 25, 88, 64], rows[43500]
    return split_first(names, rows, y, dropped, 43500, "Statlog shuttle.trn / shuttle.tst")


def recipe_spam(out):
    t, lab = r_numeric_all(out, "spam", "type")
    names, rows, y, dropped, _ = finish(t, [None if s == "" else int(s == "spam") for s in lab])
    return split_hash("spam", names, rows, y, dropped)


def recipe_ticdata(out):
    header, cols, n = read_raw(out, "ticdata")
    t = Table(n)
    for h in header:
        if h == "CARAVAN":
            continue
        if h in ("STYPE", "MOSHOOFD"):  # nominal: customer subtype / main type
            t.onehot(h, cols[h])
        else:                           # numeric, or ordinal code 0..k (export_r.R)
            t.numeric(h, cols[h])
    lab = [None if s == "" else int(s == "insurance") for s in cols["CARAVAN"]]
    names, rows, y, dropped, _ = finish(t, lab)
    assert dropped == 0 and len(y) == 9822 and sum(y[:5822]) == 348
    return split_first(names, rows, y, dropped, 5822, "CoIL 2000 TICDATA2000 / TICEVAL2000")


def recipe_churn(out):
    header, cols, n = read_raw(out, "churn")
    t = Table(n)
    for h in header:
        if h == "churn":
            continue
        if h in ("state", "area_code"):
            t.onehot(h, cols[h])
        elif h in ("international_plan", "voice_mail_plan"):
            t.indicator(h, cols[h], "yes")
        else:
            t.numeric(h, cols[h])
    names, rows, y, dropped, _ = finish(t, [None if s == "" else int(s == "yes") for s in cols["churn"]])
    return split_hash("churn", names, rows, y, dropped)


def recipe_cps1988(out):
    header, cols, n = read_raw(out, "cps1988")
    t = Table(n)
    t.numeric("education", cols["education"])
    t.numeric("experience", cols["experience"])
    t.indicator("afam", cols["ethnicity"], "afam")
    t.indicator("smsa", cols["smsa"], "yes")
    t.indicator("parttime", cols["parttime"], "yes")
    t.onehot("region", cols["region"], ["northeast", "midwest", "south", "west"])
    # target: weekly wage above $500 (close to the median, $522).  The
    # Adult-style cut (x52 > $50,000) leaves 14% positive, where a linear model
    # is no better than always saying 0.
    lab = [None if s == "" else int(float(s) > 500) for s in cols["wage"]]
    names, rows, y, dropped, _ = finish(t, lab)
    return split_hash("cps1988", names, rows, y, dropped)


RACES = ["Asian", "Black", "East African", "Latino", "Native American", "Other",
         "Unknown", "White"]
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def recipe_mpls_stops(out):
    header, cols, n = read_raw(out, "mpls_stops")
    t = Table(n)
    stamps = [datetime.datetime.strptime(s, "%Y-%m-%d %H:%M:%S") for s in cols["date"]]
    t.add("hour", [d.hour for d in stamps])  # local time, 0..23
    wd = [WEEKDAYS[d.weekday()] for d in stamps]
    t.onehot("weekday", wd, WEEKDAYS)
    # MDC (logged via in-car computer vs other) is not used: every row with the
    # demographics recorded is an MDC row, so the column would be constant.
    assert all(m == "MDC" for m, r in zip(cols["MDC"], cols["race"]) if r != "")
    t.onehot("race", cols["race"], RACES)
    t.onehot("prerace", cols["preRace"], RACES)
    t.onehot("gender", cols["gender"], ["Female", "Male", "Unknown"])
    t.numeric("lat", cols["lat"])
    t.numeric("long", cols["long"])
    t.onehot("precinct", cols["policePrecinct"], ["1", "2", "3", "4", "5"])
    t.onehot("neighborhood", cols["neighborhood"])  # 87 neighbourhoods
    # target: traffic stop (1) vs suspicious person/vehicle stop (0).  The
    # outcomes of the stop (citationIssued, personSearch, vehicleSearch) are
    # not used: a search target is 12% positive and no linear model beats the
    # majority class on it.
    lab = [None if s == "" else int(s == "traffic") for s in cols["problem"]]
    names, rows, y, dropped, _ = finish(t, lab)
    return split_hash("mpls_stops", names, rows, y, dropped)


def read_idx(path, offset):
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


def recipe_fashion(out):
    a, b = 0, 6  # T-shirt/top (negative) vs Shirt (positive)
    parts = {}
    for split, prefix in (("train", "train"), ("test", "t10k")):
        X = read_idx(os.path.join(FASHION_DIR, prefix + "-images-idx3-ubyte.gz"), 16).reshape(-1, 784)
        lab = read_idx(os.path.join(FASHION_DIR, prefix + "-labels-idx1-ubyte.gz"), 8)
        m = (lab == a) | (lab == b)
        parts[split] = (X[m].astype(np.int64), (lab[m] == b).astype(np.int64))
    Xtr, ytr = parts["train"]
    Xte, yte = parts["test"]
    X = np.vstack([Xtr, Xte])
    y = np.concatenate([ytr, yte]).tolist()
    names = ["px%03d" % j for j in range(784)]
    r = split_first(names, X, y, 0, len(ytr), "Fashion-MNIST train / t10k, classes 0 and 6 only")
    return r


def fashion_pair_small(a, b, n_train=2000, n_test=2000):
    """Issue 15's high-dimensional small tables: a Fashion-MNIST pair (a negative, b positive),
    the first n_train train-set images of the two classes and the first n_test t10k ones, in the
    source order (784 columns, n ≤ 3000: the regime where DP-SGD led)."""
    def recipe(out):
        parts = {}
        for split, prefix, keep in (("train", "train", n_train), ("test", "t10k", n_test)):
            X = read_idx(os.path.join(FASHION_DIR, prefix + "-images-idx3-ubyte.gz"), 16).reshape(-1, 784)
            lab = read_idx(os.path.join(FASHION_DIR, prefix + "-labels-idx1-ubyte.gz"), 8)
            m = np.flatnonzero((lab == a) | (lab == b))[:keep]
            parts[split] = (X[m].astype(np.int64), (lab[m] == b).astype(np.int64))
        (Xtr, ytr), (Xte, yte) = parts["train"], parts["test"]
        names = ["px%03d" % j for j in range(784)]
        return split_first(names, np.vstack([Xtr, Xte]), np.concatenate([ytr, yte]).tolist(), 0, len(ytr),
                           "Fashion-MNIST classes %d and %d: the first %d train and %d t10k images" % (a, b, n_train, n_test))
    return recipe


# ---------------------------------------------------------------- catalogue

R_NOTE = "exported with Rscript (r-base-core) by export_r.R"

DATASETS = [
    dict(name="breast_cancer", recipe=recipe_breast_cancer, packages=["python3-sklearn"],
         source="python3-sklearn: sklearn/datasets/data/breast_cancer.csv (load_breast_cancer)",
         licence="BSD-3-Clause (scikit-learn); data: UCI Breast Cancer Wisconsin (Diagnostic), CC BY 4.0",
         reference="W.N. Street, W.H. Wolberg, O.L. Mangasarian (1993), Nuclear feature extraction for breast tumor diagnosis",
         positive="malignant (212 of 569)", raw_units=True, raw_columns="all 30 (radius, texture, perimeter, area, ... in their own units)",
         preprocessing="none; target inverted so that malignant = 1"),
    dict(name="pima", recipe=recipe_pima, packages=["r-cran-mlbench"],
         source="r-cran-mlbench: PimaIndiansDiabetes (" + R_NOTE + ")",
         licence="GPL-2 (mlbench); data: National Institute of Diabetes and Digestive and Kidney Diseases, via UCI (no licence stated upstream)",
         reference="J.W. Smith et al. (1988), Using the ADAP learning algorithm to forecast the onset of diabetes mellitus",
         positive="diabetes = pos", raw_units=True,
         raw_columns="all 8 (pregnant, glucose mg/dL, pressure mmHg, triceps mm, insulin uU/mL, mass kg/m2, pedigree, age years)",
         preprocessing="none; as in the source, 0 stands for 'not measured' in glucose, pressure, triceps, insulin, mass (kept as 0)"),
    dict(name="digits", recipe=recipe_digits, packages=["python3-sklearn"],
         source="python3-sklearn: sklearn/datasets/data/digits.csv.gz (load_digits)",
         licence="BSD-3-Clause (scikit-learn); data: UCI Optical Recognition of Handwritten Digits, CC BY 4.0",
         reference="E. Alpaydin, C. Kaynak (1998), Optical Recognition of Handwritten Digits, UCI",
         positive="digit >= 5 (5,6,7,8,9)", raw_units=False, raw_columns="none (8x8 counts 0..16)",
         preprocessing="none"),
    dict(name="dna", recipe=recipe_dna, packages=["r-cran-mlbench"],
         source="r-cran-mlbench: DNA (" + R_NOTE + ")",
         licence="GPL-2 (mlbench); data: Statlog DNA (primate splice-junction), UCI",
         reference="M.O. Noordewier, G.G. Towell, J.W. Shavlik (1991), Training knowledge-based neural networks to recognize genes in DNA sequences, NIPS 3",
         positive="splice junction (class ei or ie; negative: n)", raw_units=False, raw_columns="none (180 binary indicators)",
         preprocessing="none (the source's 0/1 factors written as 0/1)"),
    dict(name="spam", recipe=recipe_spam, packages=["r-cran-kernlab"],
         source="r-cran-kernlab: spam (" + R_NOTE + ")",
         licence="GPL-2+ (kernlab); data: UCI Spambase (Hopkins, Reeber, Forman, Suermondt, HP Labs), CC BY 4.0",
         reference="M. Hopkins, E. Reeber, G. Forman, J. Suermondt (1999), Spambase, UCI",
         positive="spam (1813 of 4601)", raw_units=True,
         raw_columns="all 57 (word and character frequencies in %, 0..100; capitalAve, capitalLong, capitalTotal run lengths, up to 15841)",
         preprocessing="none"),
    dict(name="churn", recipe=recipe_churn, packages=["r-cran-modeldata"],
         source="r-cran-modeldata: mlc_churn (" + R_NOTE + ")",
         licence="MIT (modeldata); data: MLC++ churn data (artificial, from the MLC++ / C50 distribution)",
         reference="MLC++ machine learning library churn data (SGI); modeldata::mlc_churn",
         positive="churn = yes", raw_units=True,
         raw_columns="account_length (days), number_vmail_messages, total_*_minutes, total_*_calls, total_*_charge ($), number_customer_service_calls",
         preprocessing="one-hot: state (51), area_code (3); 0/1 indicators: international_plan, voice_mail_plan"),
    dict(name="satellite", recipe=recipe_satellite, packages=["r-cran-mlbench"],
         source="r-cran-mlbench: Satellite (" + R_NOTE + ")",
         licence="GPL-2 (mlbench); data: Statlog (Landsat Satellite), UCI, CC BY 4.0",
         reference="A. Srinivasan (1993), Statlog (Landsat Satellite), UCI",
         positive="very damp grey soil", raw_units=False, raw_columns="none (36 multispectral values, 0..255 scale)",
         preprocessing="none"),
    dict(name="ticdata", recipe=recipe_ticdata, packages=["r-cran-kernlab"],
         source="r-cran-kernlab: ticdata (" + R_NOTE + ")",
         licence="GPL-2+ (kernlab); data: CoIL 2000 Insurance Company Benchmark (Sentient Machine Research), UCI KDD",
         reference="P. van der Putten, M. van Someren (eds.) (2000), CoIL Challenge 2000: The Insurance Company Case",
         positive="CARAVAN = insurance (holds a caravan policy)", raw_units=False,
         raw_columns="none (zip-code band codes and counts 0..10, policy counts 0..12)",
         preprocessing="one-hot: STYPE (39 levels present), MOSHOOFD (10); ordered factors and the age band MGEMLEEF as 0-based level index"),
    dict(name="fashion_mnist", recipe=recipe_fashion, packages=["dataset-fashion-mnist"],
         source="dataset-fashion-mnist: /usr/share/datasets/fashion-mnist/*-idx*-ubyte.gz",
         licence="MIT (Expat)",
         reference="H. Xiao, K. Rasul, R. Vollgraf (2017), Fashion-MNIST, arXiv:1708.07747",
         positive="Shirt (class 6); negative: T-shirt/top (class 0), the pair a linear model confuses most",
         raw_units=False, raw_columns="none (784 pixels 0..255)", preprocessing="none"),
    *[dict(name=name, recipe=fashion_pair_small(a, b), packages=["dataset-fashion-mnist"],
           source="dataset-fashion-mnist: /usr/share/datasets/fashion-mnist/*-idx*-ubyte.gz",
           licence="MIT (Expat)",
           reference="H. Xiao, K. Rasul, R. Vollgraf (2017), Fashion-MNIST, arXiv:1708.07747",
           positive=positive, raw_units=False, raw_columns="none (784 pixels 0..255)",
           preprocessing="none; 2000 train / 2000 test images (the first of each split), a small high-dimensional table")
      for name, a, b, positive in (
          ("fashion_pullover_coat", 2, 4, "Coat (class 4); negative: Pullover (class 2)"),
          ("fashion_sandal_sneaker", 5, 7, "Sneaker (class 7); negative: Sandal (class 5)"))],
    dict(name="letter", recipe=recipe_letter, packages=["r-cran-mlbench"],
         source="r-cran-mlbench: LetterRecognition (" + R_NOTE + ")",
         licence="GPL-2 (mlbench); data: UCI Letter Recognition, CC BY 4.0",
         reference="P.W. Frey, D.J. Slate (1991), Letter recognition using Holland-style adaptive classifiers, Machine Learning 6",
         positive="letters A-M (negative: N-Z), the LETTER.p2 task of Caruana & Niculescu-Mizil (2006)",
         raw_units=False, raw_columns="none (16 integer features 0..15)", preprocessing="none"),
    dict(name="cps1988", recipe=recipe_cps1988, packages=["r-cran-aer"],
         source="r-cran-aer: CPS1988 (" + R_NOTE + ")",
         licence="GPL-2+ (AER); data: U.S. Current Population Survey, March 1988 (public), as in Bierens & Ginther (2001)",
         reference="H.J. Bierens, D.K. Ginther (2001), Integrated conditional moment testing of quantile regression models, Empirical Economics 26",
         positive="wage > 500 dollars per week (the median is 522)", raw_units=True,
         raw_columns="education (years), experience (years, can be negative in the source: -4..63)",
         preprocessing="0/1 indicators: afam (ethnicity), smsa, parttime; one-hot: region (4); wage is the target only"),
    dict(name="mpls_stops", recipe=recipe_mpls_stops, packages=["r-cran-cardata"],
         source="r-cran-cardata: MplsStops (" + R_NOTE + ")",
         licence="GPL-2+ (carData); data: City of Minneapolis open data, police stops 2017",
         reference="J. Fox, S. Weisberg (2019), An R Companion to Applied Regression, 3rd ed.; carData::MplsStops",
         positive="problem = traffic (a traffic stop; negative: suspicious person/vehicle)", raw_units=True,
         raw_columns="hour (0..23 local time), lat, long (degrees)",
         preprocessing="from date: hour and one-hot weekday (7); one-hot: race (8), prerace (8), gender (3), precinct (5), neighborhood (87); not used: idNum, MDC (constant once rows without demographics are dropped), citationIssued, personSearch, vehicleSearch (outcomes of the stop); rows with missing race/preRace/gender dropped"),
    dict(name="shuttle", recipe=recipe_shuttle, packages=["r-cran-mlbench"],
         source="r-cran-mlbench: Shuttle (" + R_NOTE + ")",
         licence="GPL-2 (mlbench); data: Statlog (Shuttle), UCI (Jason Catlett), CC BY 4.0",
         reference="J. Catlett (1991); D. Michie, D.J. Spiegelhalter, C.C. Taylor (1994), Machine Learning, Neural and Statistical Classification",
         positive="any class other than Rad.Flow (about 21%)", raw_units=True,
         raw_columns="all 9 (v1 is time; the others are sensor readings on different scales, from -13839 to 13148)",
         preprocessing="none"),
]


# ---------------------------------------------------------------- driver

def describe(spec):
    return dict(raw_units=spec["raw_units"], source=spec["source"],
                positive_class=spec["positive"], raw_columns=spec["raw_columns"],
                preprocessing=spec["preprocessing"], licence=spec["licence"],
                reference=spec["reference"])


def write_meta(path, meta):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def prepare_one(spec, out, force):
    name = spec["name"]
    meta_path = os.path.join(out, name + ".meta.json")
    tr_path = os.path.join(out, name + "_train.csv")
    te_path = os.path.join(out, name + "_test.csv")
    versions = {p: deb_version(p) for p in spec["packages"]}
    if not force and os.path.exists(meta_path) and os.path.exists(tr_path) and os.path.exists(te_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if meta.get("recipe_version") == RECIPE_VERSION and meta.get("package_versions") == versions:
            print("skip %-14s (prepared; --force to redo)" % name)
            meta.update(describe(spec))  # descriptions may have been edited
            write_meta(meta_path, meta)
            return meta
    r = spec["recipe"](out)
    names, rows, y = r["names"], r["rows"], r["y"]
    assert len(set(names)) == len(names)
    assert "label" not in names
    arr = np.asarray(rows, dtype=float)
    const = [names[j] for j in range(arr.shape[1]) if arr[:, j].min() == arr[:, j].max()]
    del arr  # constant columns are kept (image borders) and listed in the entry
    ytr = [y[i] for i in r["train"]]
    yte = [y[i] for i in r["test"]]
    if isinstance(rows, np.ndarray):
        rtr, rte = rows[r["train"]], rows[r["test"]]
    else:
        rtr = [rows[i] for i in r["train"]]
        rte = [rows[i] for i in r["test"]]
    assert not set(r["train"]) & set(r["test"])
    assert len(r["train"]) + len(r["test"]) == len(y)
    write_csv(tr_path, names, rtr, ytr)
    write_csv(te_path, names, rte, yte)
    meta = dict(
        name=name,
        train=os.path.basename(tr_path), test=os.path.basename(te_path),
        rows_train=len(ytr), rows_test=len(yte), columns=len(names), label="label",
        pos_train=sum(ytr), pos_test=sum(yte),
        rows_dropped_missing=r["dropped"], split=r["split"],
        constant_columns=const,
        packages=spec["packages"], package_versions=versions,
        sha256_train=sha256_file(tr_path), sha256_test=sha256_file(te_path),
        recipe_version=RECIPE_VERSION,
    )
    meta.update(describe(spec))
    write_meta(meta_path, meta)
    print("made %-14s train %6d  test %6d  d %4d  pos %.3f" %
          (name, len(ytr), len(yte), len(names), (sum(ytr) + sum(yte)) / len(y)))
    return meta


KEYS = ["name", "train", "test", "rows_train", "rows_test", "columns", "label",
        "raw_units", "source", "positive_class", "pos_train", "pos_test",
        "raw_columns", "preprocessing", "rows_dropped_missing", "constant_columns",
        "split", "licence",
        "reference", "packages", "package_versions", "sha256_train", "sha256_test"]


def write_index(path, metas, prefix):
    entries = []
    for m in metas:
        e = {k: m[k] for k in KEYS}
        e["train"] = prefix + m["train"]
        e["test"] = prefix + m["test"]
        entries.append(e)
    doc = dict(
        about="Benchmark data sets made by bench/datasets/prepare.sh; see bench/datasets/README.md. "
              "CSV: header, numeric features, last column `label` in {0,1}; no scaling.",
        datasets=entries)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    specs = [s for s in DATASETS if not a.names or s["name"] in a.names]
    unknown = set(a.names) - {s["name"] for s in DATASETS}
    if unknown:
        sys.exit("unknown data set(s): " + ", ".join(sorted(unknown)))
    metas = [prepare_one(s, out, a.force) for s in specs]
    # the index always lists every prepared data set, not just this run's
    if a.names:
        metas = []
        for s in DATASETS:
            p = os.path.join(out, s["name"] + ".meta.json")
            if os.path.exists(p):
                with open(p) as f:
                    metas.append(json.load(f))
    write_index(os.path.join(out, "datasets.json"), metas, "")
    if out == os.path.abspath(DEFAULT_OUT):
        write_index(os.path.join(HERE, "datasets.json"), metas,
                    os.path.relpath(out, REPO) + "/")


if __name__ == "__main__":
    main()
