// What a training run produced, as the app shows it and as it downloads it, in two files that
// must not be confused (issue 16.6):
//   - the PRIVACY REPORT (Markdown, JSON): only what may be published — the mechanism, (ε, δ),
//     the μ split, the plan, the selected margin(s), the schema and the other public choices,
//     and the "NOT private" flag of a seeded run. No file name, no accuracy, no confusion
//     counts, no run count or time: nothing computed on the data outside the accounting.
//   - the RUN SUMMARY (Markdown): local, for the user only, labelled not for publication — the
//     file name, train/test accuracy, confusion matrix, yardsticks, run count and time.
// Pure functions of the run's outcome.
import type { TrainOutcome, Evaluation } from "./protocol.ts";

export const SEEDED_TEXT = "seeded — not private";

export interface LedgerRow { key: string; label: string; value: string; raw: number | string | boolean }

const f = (x: number, digits = 8) => {
  if (x === 0) return "0";
  if (!Number.isFinite(x)) return "—";
  const a = Math.abs(x);
  const rounded = Number(x.toPrecision(digits));
  return a >= 1e6 || a < 1e-4 ? rounded.toExponential() : String(rounded);
};
const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : "—");

/** Plan fields the package reports with category discovery (absent otherwise). */
interface DiscoveryPlan { muDiscovery?: number; discoveryColumns?: number; discoverySigma?: number; discoveryThreshold?: number; deltaGdp?: number }

/** The label as the model file states it: binary (column, positive) or multiclass (classes). */
export function labelOf(o: TrainOutcome): { column: string | null; positive: string | null; classes: string[] | null } {
  const l = o.model.label as { column: string | null; positive?: string; classes?: string[] } | null;
  if (!l) return { column: null, positive: null, classes: null };
  const multi = o.report.classes && o.report.classes.length >= 3 ? o.report.classes : null;
  return { column: l.column, positive: multi ? null : l.positive ?? null, classes: multi };
}

/** Every number of the accounting, in the order the ledger shows them. */
export function ledger(o: TrainOutcome): LedgerRow[] {
  const r = o.report.plan;
  const disc = r as typeof r & DiscoveryPlan;
  const rows: LedgerRow[] = [
    { key: "epsilon", label: "ε (target)", value: f(r.epsilon), raw: r.epsilon },
    { key: "delta", label: "δ", value: f(r.delta), raw: r.delta },
    { key: "epsilon-spent", label: "ε spent (recomputed from μ)", value: f(r.epsilonSpent), raw: r.epsilonSpent },
    { key: "mu", label: "μ total (Gaussian DP)", value: f(r.mu), raw: r.mu },
  ];
  if (disc.muDiscovery) rows.push({ key: "mu-discovery", label: "μ_discovery (categories / classes)", value: f(disc.muDiscovery), raw: disc.muDiscovery });
  rows.push(
    { key: "mu-ranges", label: "μ_ranges (private column ranges)", value: r.muRanges > 0 ? f(r.muRanges) : "0 (no private ranges)", raw: r.muRanges },
    { key: "mu-train", label: "μ_train (training and selection)", value: f(r.muTrain), raw: r.muTrain },
  );
  if (r.classes && r.multiclass === "joint") {
    rows.push({ key: "multiclass", label: "multiclass", value: `one joint model over ${r.classes} classes (${r.multiclassLoss ?? "hinge"} loss) at μ_train, sensitivity 2√2·R/c`, raw: "joint" });
  } else if (r.classes) {
    rows.push({ key: "mu-class", label: `μ per class (${r.classes} one-vs-rest problems, μ_train/√${r.classes})`, value: f(r.muClass ?? Number.NaN), raw: r.muClass ?? 0 });
  }
  rows.push(
    { key: "mu-run", label: "μ per base run", value: f(r.muRun), raw: r.muRun },
    { key: "score-sd", label: "score noise sd", value: r.selects ? f(r.scoreSd) : "— (no selection)", raw: r.scoreSd },
    { key: "neighbouring", label: "neighbouring datasets", value: "replace one row", raw: r.neighbouring },
    { key: "calibration", label: "calibration", value: r.calibration, raw: r.calibration },
    { key: "selector", label: "selector", value: r.selector, raw: r.selector },
    { key: "score", label: "score", value: r.score, raw: r.score },
    { key: "n", label: "n (training rows, public)", value: String(r.n), raw: r.n },
    { key: "d", label: "d (columns incl. intercept)", value: String(r.d), raw: r.d },
    { key: "seeded", label: "noise", value: o.report.seeded ? `${SEEDED_TEXT} (deterministic seed)` : "secure (CSPRNG)", raw: o.report.seeded },
  );
  return rows;
}

/** What the release contains (everything covered by the accounting). */
export function releasedItems(o: TrainOutcome): string[] {
  const r = o.report;
  const p = r.plan;
  const selected = p.candidates[r.selectedCandidate];
  const K = r.classes?.length ?? 0;
  const joint = p.multiclass === "joint";
  const items = K >= 3 && joint
    ? [`the model: ${K} weight vectors of ${p.d} weights (one per class, trained jointly) and the class names ${r.classes!.map((c) => `“${c}”`).join(", ")}`,
      `the selected margin γ = ${f(r.selectedMargin, 6)} (k = ${selected.k}${selected.projected ? ", JL-projected" : ", no projection"})`]
    : K >= 3
    ? [`the model: ${K} weight vectors of ${p.d} weights (one per class, one-vs-rest) and the class names ${r.classes!.map((c) => `“${c}”`).join(", ")}`,
      `every class's selected margin γ (${r.perClass!.map((c) => `${c.class}: ${f(c.selectedMargin, 4)}`).join(", ")})`]
    : [`the model: ${p.d} weights in the preprocessed space${o.model.intercept !== null ? " (one of them the intercept)" : ""}`,
      `the selected margin γ = ${f(r.selectedMargin, 6)} (k = ${selected.k}${selected.projected ? ", JL-projected" : ", no projection"})`];
  if (p.selector === "privtune") items.push("the selected candidate only (its theorem keeps the number of runs K hidden)");
  else if (p.selects) items.push(`the noisy score, k, T and σ of all ${r.candidates.length} margin candidates${K >= 3 && !joint ? " of every class" : ""}`);
  else items.push("nothing else (one run at the given margin)");
  if (r.columnScalings) {
    // Per column, the path its scaling took (docs/design/SCALING.md): each count said, zeros left out.
    const count = (path: string) => r.columnScalings!.filter((c) => c.path === path).length;
    const parts = [
      [count("private"), "ranges estimated privately (μ_ranges)"],
      [count("pooled"), "the table's span, estimated privately from all columns' histograms together (the column's own supported no range, or only 0)"],
      [count("fallback"), "public signed-log transforms (the noisy histogram supported no range)"],
      [count("declared"), "declared public (encoded 0/1 columns and declared ranges)"],
    ].filter(([n]) => (n as number) > 0).map(([n, what]) => `${n} ${what}`);
    items.push(`${r.columnScalings.length} column scalings [lo, hi] with their map: ${parts.join(", ")}`);
  }
  if ((p as typeof p & DiscoveryPlan).muDiscovery) items.push("the categories and classes discovered under μ_discovery (in the model's column names and classes)");
  items.push("the schema you declared (column kinds, missing handling, categories, label and classes): public by declaration");
  return items;
}

/** What the page shows but is not part of the release (and not private). */
export function localItems(o: TrainOutcome): string[] {
  const items = [`accuracy, balanced accuracy, F1, ROC AUC and the majority-class rate on the ${o.split.trainRows} training rows`];
  items.push(`the run count (${o.local.runs}${o.report.plan.selector === "privtune" ? " = K" : ""}) and the time (${Math.round(o.local.elapsedMs)} ms): never publish them`);
  if (o.test) items.push(`the same, the confusion matrix and the ROC curve, on the ${o.test.rows} held-out rows`);
  else items.push("the confusion matrix and the ROC curve on the training rows");
  items.push("the file name, the data preview, the column statistics and the class balance");
  items.push("this browser's privacy ledger for the file");
  return items;
}

// ---------------------------------------------------------------- privacy report (publishable)

/** The privacy report as JSON: only what may be published (no file name, no accuracy). */
export function reportJSON(o: TrainOutcome): Record<string, unknown> {
  const r = o.report;
  const p = r.plan;
  const selected = p.candidates[r.selectedCandidate];
  const label = labelOf(o);
  const disc = p as typeof p & DiscoveryPlan;
  return {
    format: "dpmargin-privacy-report",
    version: 2,
    ...(r.seeded ? { notPrivate: SEEDED_TEXT, warning: r.warning } : {}),
    seeded: r.seeded,
    mechanism: {
      method: "noisy gradient descent on JL projections over a grid of margins, private selection (Wang, Zhu, Wang, ICML 2025)",
      selector: p.selector, calibration: p.calibration, score: p.score, output: r.output,
      neighbouring: p.neighbouring, multiclass: label.classes ? p.multiclass ?? "one-vs-rest" : null,
      ...(p.multiclass === "joint" ? { multiclassLoss: p.multiclassLoss } : {}),
    },
    privacy: {
      epsilon: p.epsilon, delta: p.delta, epsilonSpent: p.epsilonSpent, mu: p.mu,
      muDiscovery: disc.muDiscovery ?? 0, muRanges: p.muRanges, muTrain: p.muTrain,
      ...(p.classes ? (p.multiclass === "joint" ? { classes: p.classes } : { classes: p.classes, muClass: p.muClass }) : {}),
      muRun: p.muRun, scoreSd: p.scoreSd, rangeShare: p.rangeShare,
    },
    plan: p,
    released: {
      selectedMargin: r.selectedMargin, selectedK: selected.k, selectedProjected: selected.projected,
      candidates: r.candidates,
      ...(r.perClass ? { perClass: r.perClass.map((c) => ({ class: c.class, selectedMargin: c.selectedMargin, candidates: c.candidates })) } : {}),
      columnRanges: r.columnRanges, columnScalings: r.columnScalings, rangesPrivate: r.rangesPrivate,
      model: "see the model file (weights, intercept, preprocessing)",
    },
    public: {
      note: "declared by the user (the schema is the domain of the mechanism) or computed from public numbers",
      label: label.column, positive: label.positive, classes: label.classes ?? o.model.schema?.classes ?? null,
      features: o.model.features, schema: o.model.schema ?? null,
      intercept: o.model.preprocessing.intercept, rowNormalization: o.model.preprocessing.rowNormalization,
      normBound: o.model.preprocessing.normBound, n: p.n, d: p.d,
    },
    library: r.library,
  };
}

export function reportMarkdown(o: TrainOutcome): string {
  const r = o.report;
  const label = labelOf(o);
  const lines: string[] = [];
  lines.push("# dpmargin privacy report", "");
  if (r.seeded) {
    lines.push(`> **${SEEDED_TEXT.toUpperCase()}.** This run used a fixed seed: its noise is deterministic, so`,
      "> the model and scores below are NOT differentially private. Use seeded runs for tests and demos only.", "");
  }
  lines.push("This report holds only what may be published: the mechanism, its budget, the plan, what was",
    "released and the public choices. Whatever was computed on the data outside the accounting is in",
    "the run summary, which is not for publication.", "");
  lines.push(`Label \`${label.column}\`` + (label.classes ? `, ${label.classes.length} classes (${r.plan.multiclass === "joint" ? "one joint model" : "one-vs-rest"}): ${label.classes.map((c) => `\`${c}\``).join(", ")}`
    : `, positive class \`${label.positive}\``) + `; ${o.model.features.length} model columns; n = ${r.plan.n} training rows (public).`, "");
  lines.push("## Privacy accounting", "", "| quantity | value |", "|---|---|");
  for (const row of ledger(o)) lines.push(`| ${row.label} | ${row.value} |`);
  lines.push("", "## Released (covered by ε, δ)", "", ...releasedItems(o).map((s) => `- ${s}`));
  const record = (title: string, candidates: typeof r.candidates, selectedMargin: number) => {
    lines.push("", `## ${title}`, "", "| γ | k | projected | T | σ | noisy score | |", "|---|---|---|---|---|---|---|");
    for (const c of candidates) {
      lines.push(`| ${f(c.gamma, 6)} | ${c.k} | ${c.projected ? "yes" : "no"} | ${c.T}${c.capped ? " (cap)" : ""} | ${f(c.sigma, 6)} | ${Number.isNaN(c.noisyScore) ? "—" : f(c.noisyScore, 6)} | ${c.gamma === selectedMargin ? "selected" : ""} |`);
    }
  };
  if (r.perClass) for (const c of r.perClass) record(`Selection record: class ${c.class}`, c.candidates, c.selectedMargin);
  else record("Selection record", r.candidates, r.selectedMargin);
  lines.push("", "## Schema (public choices)", "", "```json", JSON.stringify(o.model.schema ?? null, null, 2), "```");
  lines.push("", `dpmargin ${r.library}; method: Wang, Zhu, Wang, ICML 2025. Neighbouring datasets differ by replacing one row.`, "");
  return lines.join("\n");
}

// ---------------------------------------------------------------- run summary (local only)

function evaluationLines(e: Evaluation, what: string): string[] {
  const lines = [`### ${what} (${e.rows} rows)`, "",
    `- accuracy: ${pct(e.accuracy)}`,
    `- majority-class rate (always answering “${e.majorityClass}”): ${pct(e.majorityRate)}`,
    `- balanced accuracy: ${pct(e.balancedAccuracy)}`,
    `- F1${e.classes.length === 2 ? ` (class “${e.classes[0]}”)` : " (macro)"}: ${f(e.f1, 4)}`,
    `- ROC AUC${e.rocAucPerClass ? " (macro, one-vs-rest)" : ""}: ${e.rocAuc === null ? "— (one class only)" : f(e.rocAuc, 4)}`];
  if (e.rocAucPerClass) {
    lines.push(`- ROC AUC per class (one-vs-rest): ${e.rocAucPerClass.map((a, k) => `${e.classes[k]} ${a === null ? "—" : f(a, 4)}`).join(", ")}`);
  }
  if (e.accuracy <= e.majorityRate + 0.01) lines.push(`- **warning**: the accuracy is not above the majority-class rate + 1 point`);
  lines.push("", `| actual \\ predicted | ${e.classes.slice(0, e.confusion[0].length).join(" | ")} |`,
    `|---|${e.confusion[0].map(() => "---").join("|")}|`);
  e.confusion.forEach((row, a) => lines.push(`| ${e.classes[a]} | ${row.join(" | ")} |`));
  lines.push("");
  return lines;
}

/** The run summary: local, NOT for publication (file name, accuracy, confusion, time). */
export function runSummaryMarkdown(o: TrainOutcome, dataName: string): string {
  const r = o.report;
  const lines = ["# dpmargin run summary — LOCAL, NOT FOR PUBLICATION", "",
    "> Everything below was computed on your data outside the privacy accounting: accuracies,",
    "> confusion counts, the run count and the time are NOT differentially private. Keep this file",
    "> to yourself; publish the privacy report instead.", ""];
  if (r.seeded) lines.push(`> **${SEEDED_TEXT.toUpperCase()}**: the model itself is not private either.`, "");
  lines.push(`- data file: \`${dataName}\``,
    `- rows: ${o.split.rows} (${o.split.trainRows} for training${o.split.testRows ? `, ${o.split.testRows} held out, split seed ${o.split.seed}` : ""})`,
    `- privacy: ε = ${f(r.plan.epsilon)}, δ = ${f(r.plan.delta)}, μ = ${f(r.plan.mu)}`,
    `- selected margin γ = ${f(r.selectedMargin, 6)}`,
    `- base runs: ${o.local.runs}; time: ${Math.round(o.local.elapsedMs)} ms`, "");
  lines.push("## Evaluation (not private)", "");
  lines.push(...evaluationLines(o.train, "Training rows"));
  if (o.test) lines.push(...evaluationLines(o.test, "Held-out rows"));
  return lines.join("\n");
}
