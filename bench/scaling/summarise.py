#!/usr/bin/env python3
"""Tables of bench/results/scaling-{screen,focus,final}.csv and scaling-coverage.txt (test
accuracy %, mean ± sd over seeds; mean10 = mean of the 10 real tables, without the synthetic
unitball table). Prints markdown; --write-doc also writes it to docs/results/scaling-tables.md (discussed in
docs/design/SCALING.md)."""
import csv, os, re, statistics as st, sys
from collections import defaultdict

TEN = ["breast_cancer", "pima", "dna", "spam", "satellite", "fashion_mnist", "letter", "cps1988",
       "mpls_stops", "shuttle"]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "results")
DOC = os.path.join(HERE, "..", "..", "docs", "results", "scaling-tables.md")
SHORT = {"breast_cancer": "breast", "fashion_mnist": "fashion", "mpls_stops": "mpls", "satellite": "satel.",
         "cps1988": "cps", "unitball": "unitball*"}
out = []


def p(s=""):
    out.append(s)


def load(phase):
    path = os.path.join(ROOT, f"scaling-{phase}.csv")
    if not os.path.exists(path):
        return None, []
    acc, order = defaultdict(dict), []
    for r in csv.DictReader(open(path)):
        acc[(r["variant"], float(r["epsilon"]), r["dataset"])][int(r["seed"])] = 100 * float(r["test_accuracy"])
        if r["variant"] not in order:
            order.append(r["variant"])
    return acc, order


def table(title, acc, order, eps, ref):
    tabs = [t for t in TEN + ["unitball"] if any((v, eps, t) in acc for v in order)]
    p(f"\n{title}\n")
    p("| variant | " + " | ".join(SHORT.get(t, t) for t in tabs) + " | mean10 | Δ vs " + ref + " | seeds |")
    p("|---" + "|---:" * (len(tabs) + 3) + "|")
    for v in order:
        if not any((v, eps, t) in acc for t in tabs):
            continue
        cells, m10, diff, ns = [], [], [], set()
        for t in tabs:
            a = list(acc.get((v, eps, t), {}).values())
            if not a:
                cells.append("–")
                continue
            ns.add(len(a))
            cells.append(f"{st.mean(a):.1f} ± {st.stdev(a) if len(a) > 1 else 0:.1f}")
            if t in TEN:
                m10.append(st.mean(a))
                b = acc.get((ref, eps, t))
                if b:
                    diff.append(st.mean(a) - st.mean(b.values()))
        mean = f"{st.mean(m10):.2f}" + ("" if len(m10) == len(TEN) else f" ({len(m10)})") if m10 else "–"
        p(f"| {v} | " + " | ".join(cells) + f" | {mean} | "
          f"{(f'{st.mean(diff):+.2f}' if diff else '–')} | {','.join(map(str, sorted(ns)))} |")


def paired(acc, order, eps, ref):
    """Paired differences to `ref` on the same seeds (the candidate path draws the same noisy
    histograms and the same training noise for a seed, so rules differ only by post-processing)."""
    tabs = [t for t in TEN + ["unitball"] if (ref, eps, t) in acc]
    p(f"\nPaired difference to `{ref}` (same seeds: same noisy histograms and training noise), "
      "points, mean ± standard error:\n")
    p("| variant | " + " | ".join(SHORT.get(t, t) for t in tabs) + " |")
    p("|---" + "|---:" * len(tabs) + "|")
    for v in order:
        if v == ref:
            continue
        cells, any_ = [], False
        for t in tabs:
            a, b = acc.get((ref, eps, t), {}), acc.get((v, eps, t), {})
            s = sorted(set(a) & set(b))
            if len(s) < 2:
                cells.append("–")
                continue
            any_ = True
            d = [b[i] - a[i] for i in s]
            cells.append(f"{st.mean(d):+.1f} ± {st.stdev(d) / len(d) ** 0.5:.1f}")
        if any_:
            p(f"| {v} | " + " | ".join(cells) + " |")


def final_checks(acc):
    p("\nTargets against `old` (the rule before this work) per ε: the mean over the 10 tables, and "
      "every table within its seed spread (the larger of the two sds):\n")
    for eps in sorted({e for _, e, _ in acc}):
        m_old = [st.mean(acc[("old", eps, t)].values()) for t in TEN if ("old", eps, t) in acc]
        m_new = [st.mean(acc[("default", eps, t)].values()) for t in TEN if ("default", eps, t) in acc]
        if len(m_old) != len(TEN) or len(m_new) != len(TEN):
            continue
        worse = []
        for t in TEN:
            a, b = list(acc[("old", eps, t)].values()), list(acc[("default", eps, t)].values())
            d, spread = st.mean(b) - st.mean(a), max(st.stdev(a), st.stdev(b))
            if d < -spread:
                worse.append(f"{t} {d:+.1f} (spread {spread:.1f})")
        ub = acc.get(("default", eps, "unitball"))
        p(f"- ε = {eps:g}: mean10 {st.mean(m_new):.2f} vs {st.mean(m_old):.2f} ({st.mean(m_new) - st.mean(m_old):+.2f}); "
          f"tables lower by more than their spread: {', '.join(worse) if worse else 'none'}"
          + (f"; unitball {st.mean(ub.values()):.1f}" if ub else ""))


screen, so = load("screen")
if screen:
    table("#### Round 1 (`screen`): all tables, ε = 1, 5 seeds", screen, so, 1.0, "old")
focus, fo = load("focus")
if focus:
    table("#### Round 2 (`focus`): the tables that moved, ε = 1, 20 seeds; F-m2, G, H and library on every table, 10 seeds",
          focus, fo, 1.0, "old")
    lib = "library"
    if any(k[0] == lib for k in focus):
        paired(focus, fo, 1.0, lib)
final, fi = load("final")
if final:
    for eps in sorted({e for _, e, _ in final}):
        table(f"#### Final: ε = {eps:g}, 10 seeds (`default` = the library through the trainer)", final, fi, eps, "old")
    final_checks(final)
cov = os.path.join(ROOT, "scaling-coverage.txt")
if os.path.exists(cov):
    p("\n#### Erased columns (`coverage`): share of released column scalings holding fewer than half "
      "of the rows, 200 runs at ε = 1, share 0.1\n")
    p("```")
    for line in open(cov):
        p(line.rstrip())
    p("```")

text = "\n".join(out)
print(text)
if "--write-doc" in sys.argv:
    open(DOC, "w").write("generated by `/usr/bin/python3 bench/scaling/summarise.py --write-doc`; do not edit\n\n"
                         + text + "\n")
