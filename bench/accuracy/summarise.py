#!/usr/bin/python3
"""The accuracy benchmark's report generator (bench/accuracy/run.sh): one Markdown file per
phase, bench/results/accuracy-<phase>.md, from bench/results/accuracy-<phase>.csv, each marked
with the command that wrote it; the final phase also draws bench/results/accuracy.png.

  summarise.py [PHASE ...] [--print] [--no-plot]

PHASE (default: every phase whose CSV exists):
  design, design2  one knob at a time at ε = 1: test accuracy per table, Δ to `base`, mean rank;
  final            defaults vs paper vs the pre-change defaults over ε, the targets, the plot;
  auto             auto vs iter vs paper vs the Opacus peer over ε (issue 15); a table without
                   `paper` rows borrows the final phase's (marked †);
  auto2, heldout   auto, auto1 (auto without its selection), iter, before, the fixed public
                   margins and Opacus per ε, with the verdicts against the seed spread; the
                   synthetic margin tables and the targets (issue 15, round 2; heldout: the
                   same on tables no default was chosen on).
--print writes the Markdown to stdout too; --no-plot skips the plot (it needs matplotlib).
Where auto selected a margin (marked *) is read off the runs: on the same seed, auto and auto1
are the same run unless auto selected."""
import csv
import json
import math
import os
import statistics as st
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RES = os.path.join(ROOT, "bench", "results")
PHASES = ["design", "design2", "final", "auto", "auto2", "heldout"]
# Tables in the order of the tables (the rest follow in the order of the CSV).
REAL = ["breast_cancer", "pima", "dna", "fashion_pullover_coat", "fashion_sandal_sneaker", "spam",
        "satellite", "fashion_mnist", "letter", "cps1988", "mpls_stops", "shuttle"]
SYNTHETIC = ["unitball", "unitball_g02", "unitball_d1000", "unitball_d1000_g05"]


def csv_path(phase):
    return os.path.join(RES, f"accuracy-{phase}.csv")


def load_rows(phase):
    """(dataset, variant, ε) → {seed: row}; a resumed run may repeat a seeded row (the last wins)."""
    rows = defaultdict(dict)
    if not os.path.exists(csv_path(phase)):
        return rows
    with open(csv_path(phase)) as f:
        for row in csv.DictReader(f):
            if row.get("test_accuracy"):
                rows[(row["dataset"], row["variant"], float(row["epsilon"]))][int(row["seed"])] = row
    return rows


def accuracies(rows, scale=100):
    """(dataset, variant, ε) → test accuracies (in % by default), by seed."""
    return {k: [scale * float(r["test_accuracy"]) for _, r in sorted(v.items())] for k, v in rows.items()}


def mean(xs):
    return sum(xs) / len(xs)


def sd(xs):
    return st.stdev(xs) if len(xs) > 1 else 0.0


def ms(v):
    return f"{st.mean(v):.1f} ± {st.stdev(v):.1f}" if len(v) > 1 else (f"{v[0]:.1f}" if v else "–")


def ceiling():
    path = os.path.join(RES, "ceiling.json")
    return json.load(open(path)) if os.path.exists(path) else {}


def by_size(tables, ceil):
    return sorted(tables, key=lambda t: ceil.get(t, {}).get("n", 0))


def in_order(tables, order):
    return [t for t in order if t in tables] + [t for t in tables if t not in order]


# ---- design, design2 ----

def design(phase, rows, ceil, plots):
    acc = accuracies(rows, 1)
    seconds = {k: [float(r["seconds"]) for r in v.values()] for k, v in rows.items()}
    tables = by_size({k[0] for k in acc}, ceil)
    variants = list(dict.fromkeys(k[1] for k in acc))
    complete = [v for v in variants if all((t, v, 1.0) in acc for t in tables)]
    means = {(t, v): mean(acc[(t, v, 1.0)]) for t in tables for v in complete}
    ranks = defaultdict(list)
    for t in tables:
        ordered = sorted(complete, key=lambda v: -means[(t, v)])
        for v in complete:  # average rank for ties
            tied = [i for i, u in enumerate(ordered) if abs(means[(t, u)] - means[(t, v)]) < 1e-12]
            ranks[v].append(1 + mean(tied))
    base = "base" if "base" in complete else complete[0]
    lines = ["Test accuracy (%) at ε = 1, δ = 1e-5, mean over seeds; Δ = mean over tables of the",
             f"difference to `{base}` (points); rank = mean rank over tables (1 = best).", "",
             "| variant | " + " | ".join(tables) + " | mean | Δ vs base | mean rank | s/run |",
             "|---|" + "---:|" * (len(tables) + 4)]
    for v in sorted(complete, key=lambda v: mean(ranks[v])):
        cells = [f"{100 * means[(t, v)]:.1f}" for t in tables]
        m = mean([means[(t, v)] for t in tables])
        delta = mean([means[(t, v)] - means[(t, base)] for t in tables])
        secs = mean([s for t in tables for s in seconds[(t, v, 1.0)]])
        lines.append(f"| {v} | " + " | ".join(cells) + f" | {100 * m:.1f} | {100 * delta:+.1f} | "
                     f"{mean(ranks[v]):.2f} | {secs:.2f} |")
    sds = [f"{100 * sd(acc[(t, base, 1.0)]):.1f}" for t in tables]
    lines.append(f"| *seed sd of {base}* | " + " | ".join(sds) + " | | | | |")
    lines.append("| *ceiling (LinearSVC)* | " + " | ".join(
        f"{100 * ceil[t]['test_accuracy']:.1f}" if t in ceil else "–" for t in tables) + " | | | | |")
    return lines


# ---- final ----

def final(phase, rows, ceil, plots):
    acc = accuracies(rows, 1)
    tables = by_size({k[0] for k in acc}, ceil)
    epsilons = sorted({k[2] for k in acc})
    variants = [v for v in ["defaults", "paper", "pre-change", "pre-change-api", "defaults-10x"]
                if any(k[1] == v for k in acc)]
    variants += sorted({k[1] for k in acc} - set(variants))
    lines = ["Test accuracy (%), mean ± sd over seeds, δ = 1e-5; ceiling = non-private LinearSVC.", ""]
    lines.append("| table | n | d | ε | " + " | ".join(variants) + " | ceiling |")
    lines.append("|---|---:|---:|---:|" + "---|" * len(variants) + "---:|")
    for t in tables:
        c = ceil.get(t, {})
        for e in epsilons:
            cells = []
            for v in variants:
                xs = acc.get((t, v, e), [])
                cells.append(f"{100 * mean(xs):.1f} ± {100 * sd(xs):.1f}" if xs else "–")
            lines.append(f"| {t} | {c.get('n', '')} | {c.get('d', '')} | {e:g} | " + " | ".join(cells) +
                         (f" | {100 * c['test_accuracy']:.1f} |" if c else " | – |"))
    lines += ["", "Targets:", ""]
    if "defaults" in variants and "paper" in variants:
        worse = []
        for t in tables:
            d = [mean(acc[(t, "defaults", e)]) for e in epsilons if (t, "defaults", e) in acc]
            p = [mean(acc[(t, "paper", e)]) for e in epsilons if (t, "paper", e) in acc]
            if d and p and not mean(d) > mean(p):
                worse.append(t)
        lines.append(f"- defaults beat `calibration: \"paper\"` (mean over ε) on {len(tables) - len(worse)} of "
                     f"{len(tables)} tables" + (f"; not on {', '.join(worse)}" if worse else ""))
        pairs = [(t, e) for t in tables for e in epsilons if (t, "defaults", e) in acc and (t, "paper", e) in acc]
        wins = sum(1 for t, e in pairs if mean(acc[(t, "defaults", e)]) > mean(acc[(t, "paper", e)]))
        lines.append(f"- … and at {wins} of {len(pairs)} (table, ε) pairs")
    for pre, what in [("pre-change", "the pre-change learner defaults (same private ranges)"),
                      ("pre-change-api", "the pre-change API defaults (unit-norm rows, no ranges, T ≤ 1000, average)")]:
        if "defaults" not in variants or pre not in variants:
            continue
        wins = []
        for t in tables:
            diffs, spreads = [], []
            for e in epsilons:
                if (t, "defaults", e) in acc and (t, pre, e) in acc:
                    d, p = acc[(t, "defaults", e)], acc[(t, pre, e)]
                    diffs.append(mean(d) - mean(p))
                    spreads.append(max(sd(d), sd(p)))
            if diffs and mean(diffs) > mean(spreads):
                wins.append(f"{t} (+{100 * mean(diffs):.1f} vs spread {100 * mean(spreads):.1f})")
        lines.append(f"- defaults beat {what} by more than the seed-to-seed spread (mean over ε of "
                     f"the difference > mean over ε of the larger seed sd) on {len(wins)} of {len(tables)} tables: "
                     + (", ".join(wins) if wins else "none"))
    if "defaults" in variants and "defaults-10x" in variants:
        diffs = [f"{t} {100 * (mean(acc[(t, 'defaults', 1.0)]) - mean(acc[(t, 'defaults-10x', 1.0)])):+.1f}"
                 for t in tables if (t, "defaults", 1.0) in acc and (t, "defaults-10x", 1.0) in acc]
        lines.append("- defaults (T = 200) minus 10× the iterations (T = 2000) at ε = 1, points: " + "; ".join(diffs))
    if "defaults" in variants and 1.0 in epsilons:
        gaps = []
        for t in tables:
            if t in ceil and (t, "defaults", 1.0) in acc:
                g = 100 * (ceil[t]["test_accuracy"] - mean(acc[(t, "defaults", 1.0)]))
                target = 4 if ceil[t]["n"] >= 10000 else 8
                gaps.append(f"{t} {g:.1f} ({'met' if g <= target else 'MISSED'}, target ≤ {target})")
        lines.append("- gap to the ceiling at ε = 1 (points): " + "; ".join(gaps))
    if plots:
        plot(acc, ceil, tables, epsilons, variants, os.path.join(RES, "accuracy.png"))
        lines += ["", "The plot: bench/results/accuracy.png."]
    return lines


def plot(acc, ceil, tables, epsilons, variants, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cols = 5
    nrows = math.ceil(len(tables) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.2 * cols, 2.8 * nrows), squeeze=False)
    styles = {"defaults": ("C0", "o-"), "paper": ("C3", "s--"), "pre-change": ("C2", "^:"),
              "pre-change-api": ("C1", "v:"), "defaults-10x": ("C4", "x")}
    for ax, t in zip(axes.flat, tables):
        for i, v in enumerate(variants):
            es = [e for e in epsilons if (t, v, e) in acc]
            if not es:
                continue
            ys = [100 * mean(acc[(t, v, e)]) for e in es]
            err = [100 * sd(acc[(t, v, e)]) for e in es]
            color, style = styles.get(v, (f"C{4 + i}", ".-"))
            ax.errorbar(es, ys, yerr=err, fmt=style, color=color, label=v, capsize=2, ms=4, lw=1.2)
        if t in ceil:
            ax.axhline(100 * ceil[t]["test_accuracy"], color="k", lw=0.8, ls="-", label="LinearSVC (non-private)")
            ax.axhline(100 * ceil[t]["majority_test_accuracy"], color="0.6", lw=0.8, ls=":", label="majority class")
        ax.set_xscale("log", base=2)
        ax.set_title(f"{t} (n={ceil.get(t, {}).get('n', '?')}, d={ceil.get(t, {}).get('d', '?')})", fontsize=9)
        ax.set_xlabel("ε", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(tables):]:
        ax.axis("off")
    axes.flat[0].set_ylabel("test accuracy (%)", fontsize=8)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=110)


# ---- auto ----

def auto(phase, rows, ceil, plots):
    acc = accuracies(rows)
    # Where this run has no `paper` rows (skipped for time), the final phase's paper rows stand in
    # (same code path and seeds; marked †).
    borrowed = set()
    for k, v in accuracies(load_rows("final")).items():
        if k[1] == "paper" and k not in acc and (k[0], "auto", k[2]) in acc:
            acc[k] = v
            borrowed.add(k)
    eps_all = sorted({k[2] for k in acc if k[1] == "auto"})
    tables = in_order(list(dict.fromkeys(k[0] for k in acc)), REAL + SYNTHETIC)
    others = ["iter", "paper", "opacus"]
    lines = ["Test accuracy (%), mean ± sd over seeds, δ = 1e-5; Δ = auto − variant (points, means). "
             "Opacus: DP-SGD (hinge, lr 3, 10 epochs), run at ε/2 add/remove (= (ε, δ) replace-one), "
             "column min/max from the training split (not private: favours it).", "",
             "| table | ε | auto | iter | paper | Opacus | Δ iter | Δ paper | Δ Opacus |",
             "|---|---:|---|---|---|---|---:|---:|---:|"]
    summary = defaultdict(list)
    for t in tables:
        for e in eps_all:
            v = {x: acc.get((t, x, e), []) for x in ["auto"] + others}
            if not v["auto"]:
                continue
            d = {x: (st.mean(v["auto"]) - st.mean(v[x])) if v[x] else None for x in others}
            for x in others:
                if d[x] is not None and t not in SYNTHETIC:
                    summary[(x, e)].append(d[x])
            f = lambda z: "–" if z is None else f"{z:+.1f}"
            paper = ms(v["paper"]) + (" †" if (t, "paper", e) in borrowed else "")
            lines.append(f"| {t} | {e:g} | {ms(v['auto'])} | {ms(v['iter'])} | {paper} | {ms(v['opacus'])} | "
                         f"{f(d['iter'])} | {f(d['paper'])} | {f(d['opacus'])} |")
    if borrowed:
        lines += ["", "† paper rows from bench/results/accuracy-final.csv (the final phase: same code path, "
                  "seeds 0–4), not re-run in this phase."]
    real = sum(1 for t in tables if t not in SYNTHETIC)
    lines += ["", f"Over the {real} real tables (synthetic excluded): mean Δ, and tables where auto is ahead / behind.",
              "", "| ε | vs iter | vs paper | vs Opacus |", "|---:|---|---|---|"]
    for e in eps_all:
        cells = []
        for x in others:
            ds = summary[(x, e)]
            cells.append(f"{st.mean(ds):+.1f} ({sum(z > 0 for z in ds)} ahead / {sum(z < 0 for z in ds)} behind of {len(ds)})"
                         if ds else "–")
        lines.append(f"| {e:g} | " + " | ".join(cells) + " |")
    return lines


# ---- auto2, heldout ----

def selected(rows, t, e):
    """Whether auto selected a margin on (t, ε): on the same seed auto and auto1 (auto without its
    selection) are the same run unless it did."""
    a, b = rows.get((t, "auto", e), {}), rows.get((t, "auto1", e), {})
    fields = ("test_accuracy", "train_accuracy", "selected_gamma")
    return any(tuple(a[s][f] for f in fields) != tuple(b[s][f] for f in fields) for s in set(a) & set(b))


def verdict(a, b):
    """'+' ahead beyond the spread, '=' level (within the larger sd), '−' behind beyond it."""
    d, spread = st.mean(a) - st.mean(b), max(sd(a), sd(b))
    return d, ("=" if abs(d) <= spread else ("+" if d > 0 else "−"))


def auto2(phase, rows, ceil, plots):
    acc = accuracies(rows)
    eps_all = sorted({k[2] for k in acc if k[1] == "auto"})
    present = list(dict.fromkeys(k[0] for k in acc))
    real = in_order([t for t in present if t not in SYNTHETIC], REAL)
    synthetic = [t for t in SYNTHETIC if t in present]
    selects = {(t, e) for t in present for e in eps_all if selected(rows, t, e)}
    seeds = sorted({len(v) for k, v in acc.items() if k[1] in ("auto", "opacus")})
    lines = [f"Seeds per cell: {', '.join(map(str, seeds))}. Test accuracy (%), mean ± sd over seeds, δ = 1e-5. "
             "Δ = difference of means (points); the mark after it: + ahead beyond the seed spread (the "
             "larger of the two sds), = level within it, − behind beyond it. Opacus: DP-SGD (hinge, lr 3, "
             "10 epochs, batch 512, clip 1) at ε/2 add/remove (= (ε, δ) replace-one), column min/max from "
             "the training split (not private: favours it). before: the default when issue 15 was filed "
             "(Iter, the old range rule, share 0.1). auto1: auto without its selection (one run at γ₀). "
             "* where auto selected among its three margins (its runs differ from auto1's).", ""]
    summary = defaultdict(list)
    marks = defaultdict(lambda: defaultdict(int))
    losses_hi = []
    columns = ("auto", "auto1", "iter", "before", "opacus")
    for e in eps_all:
        lines += [f"### ε = {e:g}", "",
                  "| table | auto | auto1 | iter | before | Opacus | Δ Opacus | Δ before | Δ auto1 |",
                  "|---|---|---|---|---|---|---:|---:|---:|"]
        for t in real:
            v = {x: acc.get((t, x, e), []) for x in columns}
            if not v["auto"]:
                continue
            dop = dbe = da1 = ""
            if v["auto1"]:
                d, m = verdict(v["auto"], v["auto1"])
                da1 = f"{d:+.1f} {m}"
                summary[(e, "auto1")].append(d)
            if v["opacus"]:
                d, m = verdict(v["auto"], v["opacus"])
                dop = f"{d:+.1f} {m}"
                summary[(e, "opacus")].append(d)
                marks[e][m] += 1
            if v["before"]:
                d, m = verdict(v["auto"], v["before"])
                dbe = f"{d:+.1f} {m}"
                summary[(e, "before")].append(d)
                if e >= 2 and m == "−":
                    losses_hi.append(f"{t} at ε = {e:g} ({d:+.1f})")
            name = t + (" *" if (t, e) in selects else "")
            lines.append(f"| {name} | " + " | ".join(ms(v[x]) for x in columns) + f" | {dop} | {dbe} | {da1} |")
        if summary[(e, "opacus")]:
            lines.append(f"| **mean Δ** | | | | | | {st.mean(summary[(e, 'opacus')]):+.2f} | "
                         + (f"{st.mean(summary[(e, 'before')]):+.2f}" if summary[(e, "before")] else "") + " | "
                         + (f"{st.mean(summary[(e, 'auto1')]):+.2f}" if summary[(e, "auto1")] else "") + " |")
            lines += ["", f"Against Opacus at ε = {e:g}: {marks[e]['+']} tables ahead, {marks[e]['=']} level, "
                      f"{marks[e]['−']} behind (of {sum(marks[e].values())})."]
        lines.append("")
    syn_bad, syn_pipe_bad = [], []
    if synthetic:
        lines += ["### Synthetic margin tables (unit-norm rows, no column scaling, no intercept)", "",
                  "unitball: d 50, n 4000, γ* 0.1, 1 % flipped training labels; unitball_g02: γ* 0.02, 5 % "
                  "flipped; unitball_d1000: d 1000, n 2000, γ* 0.2, 1 %; unitball_d1000_g05: d 1000, n 4000, "
                  "γ* 0.05, 1 %. fixed1 / fixed4: one run at the public margin 1/√n, 4/√n. Δ best = auto − the "
                  "best of before (= Iter, today's M* there), the best fixed margin and Opacus.", "",
                  "| table | ε | auto | auto1 | before (Iter) | fixed1 | fixed4 | Opacus | Δ best |",
                  "|---|---:|---|---|---|---|---|---|---:|"]
        syn_columns = ("auto", "auto1", "before", "fixed1", "fixed4", "opacus")
        for t in synthetic:
            for e in eps_all:
                v = {x: acc.get((t, x, e), []) for x in syn_columns}
                if not v["auto"]:
                    continue
                others = [x for x in ("before", "fixed1", "fixed4", "opacus") if v[x]]
                db = ""
                if others:
                    best = max(others, key=lambda x: st.mean(v[x]))
                    d, m = verdict(v["auto"], v[best])
                    db = f"{d:+.1f} {m} (vs {best})"
                    if m == "−":
                        syn_bad.append(f"{t} at ε = {e:g} ({d:+.1f} vs {best})")
                name = t + (" *" if (t, e) in selects else "")
                lines.append(f"| {name} | {e:g} | " + " | ".join(ms(v[x]) for x in syn_columns) + f" | {db} |")
        lines.append("")
        pipe = [(t, e) for t in synthetic for e in eps_all if acc.get((t, "auto-pipeline", e))]
        if pipe:
            lines += ["### Synthetic margin tables through the default pipeline (column ranges, intercept)", "",
                      "The same rows as a package user's CSV gets them: auto with private column ranges (share "
                      "0.1) and the intercept; the peer with the column min/max of the training split (not "
                      "private) and row normalisation, as on the real tables. \"as generated\": the table above.", "",
                      "| table | ε | auto (pipeline) | Opacus (min–max) | Δ Opacus | auto as generated | Δ as generated |",
                      "|---|---:|---|---|---:|---|---:|"]
            for t, e in pipe:
                a, o, g = (acc.get((t, x, e), []) for x in ("auto-pipeline", "opacus-pipeline", "auto"))
                dop = dg = ""
                if o:
                    d, m = verdict(a, o)
                    dop = f"{d:+.1f} {m}"
                    if m == "−":
                        syn_pipe_bad.append(f"{t} at ε = {e:g} ({d:+.1f})")
                if g:
                    d, m = verdict(a, g)
                    dg = f"{d:+.1f} {m}"
                lines.append(f"| {t} | {e:g} | {ms(a)} | {ms(o)} | {dop} | {ms(g)} | {dg} |")
            lines.append("")
        else:
            pipe = None
    lines.append("Targets read off these tables: ε ≤ 1 — tables behind Opacus beyond the spread: "
                 + (", ".join(f"ε = {e:g}: {marks[e]['−']}" for e in eps_all if e <= 1) or "none")
                 + "; ε ≥ 2 — losses against before beyond the spread: " + (", ".join(losses_hi) or "none")
                 + ("; synthetic — below the best of before / fixed / Opacus beyond the spread: "
                    + (", ".join(syn_bad) or "none") if synthetic else "")
                 + ("; synthetic through the pipeline — behind Opacus (min–max) beyond the spread: "
                    + (", ".join(syn_pipe_bad) or "none") if synthetic and pipe else "") + ".")
    return lines


SUMMARIES = {"design": design, "design2": design, "final": final, "auto": auto, "auto2": auto2,
             "heldout": auto2}


def main(argv):
    flags = {a for a in argv if a.startswith("--")}
    unknown = flags - {"--print", "--no-plot"}
    phases = [a for a in argv if not a.startswith("--")]
    bad = [p for p in phases if p not in SUMMARIES]
    if unknown or bad:
        sys.exit(f"summarise.py: unknown {', '.join(sorted(unknown) + bad)} (phases: {', '.join(PHASES)})")
    phases = phases or [p for p in PHASES if os.path.exists(csv_path(p))]
    ceil = ceiling()
    for phase in phases:
        rows = load_rows(phase)
        if not rows:
            print(f"summarise.py: no rows in {os.path.relpath(csv_path(phase), ROOT)}", file=sys.stderr)
            continue
        lines = SUMMARIES[phase](phase, rows, ceil, "--no-plot" not in flags)
        header = (f"<!-- generated by `/usr/bin/python3 bench/accuracy/summarise.py {phase}` from "
                  f"bench/results/accuracy-{phase}.csv; do not edit -->")
        text = "\n".join([header, ""] + lines).rstrip("\n") + "\n"
        out = os.path.join(RES, f"accuracy-{phase}.md")
        with open(out, "w") as f:
            f.write(text)
        if "--print" in flags:
            print(text)
        print(f"wrote {os.path.relpath(out, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
