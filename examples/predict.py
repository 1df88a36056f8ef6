#!/usr/bin/env python3
"""Apply a dpmargin model file to a CSV, without dpmargin: Python 3 standard library only.

    python3 examples/predict.py MODEL.json DATA.csv [--fill X] > predictions.csv

Writes what `dpmargin predict MODEL.json DATA.csv` writes (docs/reference/MODEL_FORMAT.md): a header
`row,score,COLUMN=POSITIVE` and one `row,score,1|0` line per data row (a multiclass model:
`row,COLUMN,score:CLASS1,...`). The scores agree with dpmargin's to about 1e-7: the table is held
in float32 as in dpmargin (emulated with struct), the arithmetic in double.

--fill X: a version 1 model (no `encoding`) refuses missing cells unless given a public fill,
as `dpmargin predict --impute X`.
"""
import csv
import json
import math
import struct
import sys

DEFAULT_MISSING = ["", "NA", "N/A", "n/a", "#N/A", "NaN", "nan", "-nan", "-NaN", "NULL", "null", "?"]


def f32(x):
    """Round a double to the nearest float32 (dpmargin's table holds float32)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def parse_number(text, decimal="."):
    """A finite number as dpmargin reads one (after trimming), or None for text."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not (body[0].isdigit() or body[0] == decimal):
        return None
    if decimal != ".":
        if "." in text:
            return None
        text = text.replace(decimal, ".")
    if "_" in text or not all(c in "0123456789+-.eE" for c in text):
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    try:
        return f32(value)  # beyond float32 (or 1e999): dpmargin refuses the cell too
    except OverflowError:
        raise ValueError("a number beyond float32: %r" % text)


def fnv_bucket(value, buckets):
    """The hash bucket of a category value (FNV-1a 64 over "dpmargin/category/v1", NUL, UTF-8)."""
    h = 1469598103934665603
    for byte in b"dpmargin/category/v1\x00" + value.encode("utf-8"):
        h ^= byte
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h % buckets


def encoding_of(model, fill):
    """The model's encoding, or version 1's: every feature a numeric column of its name."""
    if "encoding" in model:
        return model["encoding"]["blocks"]
    return [{"column": name, "kind": "numeric", "missing": "error" if fill is None else "constant",
             "nullable": fill is not None, "fill": 0.0 if fill is None else fill, "indicator": False,
             "textAsMissing": False} for name in model["features"]]


def encode_row(blocks, header_index, cells, missing_tokens, line, decimal):
    """One CSV row -> the model's columns (float32), as encoding.cpp's encodeRows."""
    out = []
    for b in blocks:
        raw = cells[header_index[b["column"]]].strip()
        missing = raw in missing_tokens
        if b["kind"] == "numeric":
            value = None if missing else parse_number(raw, decimal)
            if value is None and not missing:
                if not b.get("textAsMissing", False):
                    raise ValueError("line %d, column %r: %r is not a number" % (line, b["column"], raw))
                missing = True
            if missing:
                if b["missing"] == "error":
                    raise ValueError("line %d, column %r: a missing value" % (line, b["column"]))
                out.append(f32(b["fill"]))
            else:
                out.append(value)
            if b["indicator"]:
                out.append(1.0 if missing else 0.0)
            continue
        # categorical: one-hot over the levels plus "other" (declared/discovered), or one 0/1
        # column for the second of two levels ("binary"), or hash buckets; then a "missing"
        # level when missingLevel.
        if b["categories"] == "hash":
            block = [0.0] * b["buckets"]
            if not missing:
                block[fnv_bucket(raw, b["buckets"])] = 1.0
        elif b.get("binary"):
            if missing and not b["missingLevel"] and b["missing"] == "error":
                raise ValueError("line %d, column %r: a missing value" % (line, b["column"]))
            block = [1.0 if (not missing and raw == b["levels"][1]) else 0.0]
        else:
            levels = b["levels"]
            block = [0.0] * (len(levels) + 1)
            if missing and b["missingLevel"]:
                pass
            elif missing:
                if b["missing"] == "error":
                    raise ValueError("line %d, column %r: a missing value" % (line, b["column"]))
                block[len(levels)] = 1.0
            else:
                block[levels.index(raw) if raw in levels else len(levels)] = 1.0
        if b["missingLevel"]:
            block.append(1.0 if missing else 0.0)
        elif missing and b["missing"] == "error":
            raise ValueError("line %d, column %r: a missing value" % (line, b["column"]))
        out.extend(block)
    return out


def column_map(x, lo, hi, kind):
    """Per-column scaling (docs/reference/MODEL_FORMAT.md): min-max (the default), symmetric, signed-log."""
    if kind == "min-max":
        t = (x - lo) / (hi - lo)
        return f32(0.0 if t < 0 else 1.0 if t > 1 else t)
    if kind == "symmetric":
        t = x / hi
        return f32(-1.0 if t < -1 else 1.0 if t > 1 else t)
    if kind == "signed-log":
        return f32(math.copysign(math.log1p(abs(x)), x) / hi)
    raise ValueError("unknown column map %r" % kind)


def prepare(row, p):
    """dataset.cpp prepare(): column scaling, the intercept, then the row operation."""
    ranges = p.get("columnRanges")
    if ranges is not None:
        maps = p.get("columnMaps") or ["min-max"] * len(row)
        row = [column_map(x, r[0], r[1], m) for x, r, m in zip(row, ranges, maps)]
    if p["intercept"]:
        row = row + [1.0]
    norm = math.sqrt(sum(x * x for x in row))
    if norm == 0.0 or not math.isfinite(norm):
        return row  # a zero row stays 0
    b = p["normBound"]
    scale = b / norm if p["rowNormalization"] == "unit-norm" else min(1.0, b / norm)
    return [f32(x * scale) for x in row]


def csv_field(text):
    return '"%s"' % text.replace('"', '""') if any(c in text for c in '",\n\r') else text


def user_field(text):
    """A name or class from user data, formula-neutralized as dpmargin writes it (OWASP)."""
    plain = text.lstrip("+-")
    number = plain and (plain[0].isdigit() or plain[0] == ".") and parse_number(text) is not None
    if text[:1] in ("=", "+", "-", "@", "\t", "\r") and not number:
        text = "'" + text
    return csv_field(text)


def main(argv):
    fill = None
    if "--fill" in argv:
        i = argv.index("--fill")
        fill = float(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[0], encoding="utf-8") as f:
        model = json.load(f)
    if model.get("format") != "dpmargin-model" or model.get("version") not in (1, 2, 3):
        sys.exit("not a dpmargin model file of version 1, 2 or 3")
    p = model["preprocessing"]
    label = model.get("label")
    multiclass = isinstance(model["weights"][0], list)
    weights = model["weights"] if multiclass else [model["weights"]]
    intercepts = model["intercept"] if multiclass else [model["intercept"]]
    if p["intercept"]:
        weights = [w + [b] for w, b in zip(weights, intercepts)]
    blocks = encoding_of(model, fill)
    tokens = set(DEFAULT_MISSING)  # dpmargin predict's default --missing-tokens
    decimal = "."
    with open(argv[1], newline="", encoding="utf-8-sig") as f:
        sample = f.read(65536)
        f.seek(0)
        delimiter = max([",", ";", "\t", "|"], key=sample.split("\n")[0].count)
        reader = csv.reader(f, delimiter=delimiter)
        header = [h.strip() for h in next(reader)]
        index = {name: j for j, name in enumerate(header)}
        for b in blocks:
            if b["column"] not in index:
                sys.exit("the model's column %r is not in the header" % b["column"])
        if multiclass:
            names = [label["column"] or "class"] + ["score:" + c for c in label["classes"]]
        else:
            names = ["score", "%s=%s" % ((label or {}).get("column", "label"), (label or {}).get("positive", "1"))]
        sys.stdout.write(",".join(["row"] + [user_field(n) for n in names]) + "\n")
        row_id = 0
        for cells in reader:
            if not cells or (len(cells) == 1 and cells[0].strip() == ""):
                continue  # a blank line is not a data row
            row_id += 1
            x = prepare(encode_row(blocks, index, cells, tokens, reader.line_num, decimal), p)
            scores = [math.fsum(a * w for a, w in zip(x, ws)) for ws in weights]
            if multiclass:
                best = max(range(len(scores)), key=lambda k: (scores[k], -k))
                sys.stdout.write(",".join([str(row_id), user_field(label["classes"][best])] + [repr(s) for s in scores]) + "\n")
            else:
                sys.stdout.write("%d,%r,%d\n" % (row_id, scores[0], 1 if scores[0] > 0 else 0))


if __name__ == "__main__":
    main(sys.argv[1:])
