// What a training run produced, as the app shows it and as it downloads it, in two files that
// must not be confused (issue 16.6, issue 30 item 1):
//   - the PRIVACY REPORT (Markdown, JSON): only what may be published. It is written from
//     `outcome.released` alone — the run's report and the model file's header, each checked in
//     the worker against the package's list of released fields (checkReleased, wasm/src/
//     release.ts) — plus the app's fixed wording. No file name, no accuracy, no confusion
//     counts, no run count or time: nothing computed on the data outside the accounting.
//   - the RUN SUMMARY (Markdown): local, for the user only, labelled not for publication — the
//     file name, train/test accuracy, confusion matrix, yardsticks, run count and time.
// Pure functions of the run's outcome.
import { positiveRule } from "dpmargin/explain";
import type { TrainOutcome, Evaluation, ReleasedRecord } from "./protocol.ts";

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

/** The label as the released model file states it: binary (column, positive and the rule that
 *  chose it, read off the released schema) or multiclass (classes, and how they trained). */
export function labelOf(r: ReleasedRecord): {
  column: string | null; positive: string | null; positiveRule: string | null; classes: string[] | null; joint: boolean;
} {
  const l = r.model.label as { column: string | null; positive?: string; classes?: string[] } | null;
  const multi = r.report.classes && r.report.classes.length >= 3 ? r.report.classes : null;
  // The rule, as the package reads it off the released schema (explain.ts positiveRule).
  const rule = positiveRule(r.model.schema as Parameters<typeof positiveRule>[0]) ?? null;
  return {
    column: l?.column ?? null, positive: multi ? null : l?.positive ?? null, positiveRule: multi ? null : rule,
    classes: multi, joint: r.report.plan.multiclass === "joint",
  };
}

/** How K classes trained, in words ("one joint model" unless the user chose one-vs-rest). */
export const schemeText = (r: ReleasedRecord) =>
  r.report.plan.multiclass === "joint" ? "one joint model" : `${r.report.classes?.length ?? 0} one-vs-rest problems`;

/** Every number of the accounting, in the order the results and the report show them. */
export function ledger(released: ReleasedRecord): LedgerRow[] {
  const { report } = released;
  const r = report.plan;
  const rows: LedgerRow[] = [
    { key: "epsilon", label: "ε (target)", value: f(r.epsilon), raw: r.epsilon },
    { key: "delta", label: "δ", value: f(r.delta), raw: r.delta },
    { key: "epsilon-spent", label: "ε spent (recomputed from μ)", value: f(r.epsilonSpent), raw: r.epsilonSpent },
    { key: "mu", label: "μ total (Gaussian DP; μ² = μ_schema² + μ_discovery² + μ_ranges² + μ_train²)", value: f(r.mu), raw: r.mu },
    // The parts of μ spent before training: the private schema decisions (kinds, nullable, the
    // label's class source) and category / class discovery (plan.muSchema, plan.muDiscovery).
    { key: "mu-schema", label: "μ_schema (private schema decisions: column kinds, nullable, class source)",
      value: r.muSchema ? `${f(r.muSchema)} (${r.schemaCoordinates ?? 0} noisy counts, sd ${f(r.schemaSigma ?? Number.NaN, 4)})` : "0 (no private schema decision)",
      raw: r.muSchema ?? 0 },
    { key: "mu-discovery", label: "μ_discovery (categories and classes discovered)",
      value: r.muDiscovery ? f(r.muDiscovery) : "0 (nothing discovered)", raw: r.muDiscovery ?? 0 },
    { key: "mu-ranges", label: "μ_ranges (private column ranges)", value: r.muRanges > 0 ? f(r.muRanges) : "0 (no private ranges)", raw: r.muRanges },
    { key: "mu-train", label: "μ_train (training and selection)", value: f(r.muTrain), raw: r.muTrain },
  ];
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
    { key: "seeded", label: "noise", value: report.seeded ? `${SEEDED_TEXT} (deterministic seed)` : "secure (CSPRNG)", raw: report.seeded },
  );
  return rows;
}

/** What the release contains (everything covered by the accounting). */
export function releasedItems(released: ReleasedRecord): string[] {
  const { report: r, model } = released;
  const p = r.plan;
  const selected = p.candidates[r.selectedCandidate];
  const K = r.classes?.length ?? 0;
  const joint = p.multiclass === "joint";
  const margin = `${p.selects ? "the selected margin" : "the margin"} γ = ${f(r.selectedMargin, 6)} (k = ${selected.k}${selected.projected ? ", JL-projected" : ", no projection"})`;
  const items = K >= 3 && joint
    ? [`the model: ${K} weight vectors of ${p.d} weights (one per class, trained as one joint model) and the class names ${r.classes!.map((c) => `“${c}”`).join(", ")}`, margin]
    : K >= 3
    ? [`the model: ${K} weight vectors of ${p.d} weights (one per class, one-vs-rest) and the class names ${r.classes!.map((c) => `“${c}”`).join(", ")}`,
      `every class's ${p.selects ? "selected " : ""}margin γ (${r.perClass!.map((c) => `${c.class}: ${f(c.selectedMargin, 4)}`).join(", ")})`]
    : [`the model: ${p.d} weights in the preprocessed space${model.preprocessing.intercept ? " (one of them the intercept)" : ""}`, margin];
  if (p.selector === "privtune") items.push("the selected candidate only (its theorem keeps the number of runs K hidden)");
  else if (p.selects) items.push(`the noisy score, k, T and σ of all ${r.candidates.length} margin candidates${K >= 3 && !joint ? " of every class" : ""}`);
  else items.push("nothing else (one run at that margin)");
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
  if (p.muSchema) items.push("the schema decisions taken on noisy cell counts under μ_schema (column kinds, nullable, the label's class source)");
  if (p.muDiscovery) items.push("the categories and classes discovered under μ_discovery (in the model's column names and classes)");
  items.push("the schema (column kinds, missing handling, categories, label and classes): declared by you, public rules, or decided under the budget above");
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

export const REPORT_NOTE = "Only what may be published: the run's released report and the model file's public " +
  "header (no weights: they are the model file), each checked against dpmargin's list of released fields. " +
  "Figures computed on the data outside the accounting (accuracies, counts, the run count, the time) and the " +
  "data file's name are not in it.";

/** The privacy report as JSON (version 3): the released record, and the app's fixed wording. */
export function reportJSON(released: ReleasedRecord): Record<string, unknown> {
  return {
    format: "dpmargin-privacy-report",
    version: 3,
    ...(released.report.seeded ? { notPrivate: SEEDED_TEXT } : {}),
    seeded: released.report.seeded,
    note: REPORT_NOTE,
    report: released.report,
    model: released.model,
  };
}

export function reportMarkdown(released: ReleasedRecord, explain: { positiveRule: string }): string {
  const { report: r, model } = released;
  const label = labelOf(released);
  const lines: string[] = [];
  lines.push("# dpmargin privacy report", "");
  if (r.seeded) {
    lines.push(`> **${SEEDED_TEXT.toUpperCase()}.** This run used a fixed seed: its noise is deterministic, so`,
      "> the model and scores below are NOT differentially private. Use seeded runs for tests and demos only.", "");
  }
  lines.push("This report holds only what may be published: the mechanism, its budget, the plan, what was",
    "released and the schema. Whatever was computed on the data outside the accounting is in the run",
    "summary, which is not for publication.", "");
  lines.push(`Label \`${label.column}\`` + (label.classes ? `, ${label.classes.length} classes (${schemeText(released)}): ${label.classes.map((c) => `\`${c}\``).join(", ")}`
    : `, positive class \`${label.positive}\`${explain.positiveRule ? ` (${explain.positiveRule})` : ""}`) + `; ${model.features.length} model columns; n = ${r.plan.n} training rows (public).`, "");
  lines.push(`What ran: ${r.plan.advice.selection}`, "");
  lines.push("## Privacy accounting", "", "| quantity | value |", "|---|---|");
  for (const row of ledger(released)) lines.push(`| ${row.label} | ${row.value} |`);
  lines.push("", "## Released (covered by ε, δ)", "", ...releasedItems(released).map((s) => `- ${s}`));
  const record = (title: string, candidates: typeof r.candidates, selectedMargin: number) => {
    lines.push("", `## ${title}`, "", "| γ | k | projected | T | σ | noisy score | |", "|---|---|---|---|---|---|---|");
    for (const c of candidates) {
      lines.push(`| ${f(c.gamma, 6)} | ${c.k} | ${c.projected ? "yes" : "no"} | ${c.T}${c.capped ? " (cap)" : ""} | ${f(c.sigma, 6)} | ${Number.isNaN(c.noisyScore) ? "—" : f(c.noisyScore, 6)} | ${r.plan.selects && c.gamma === selectedMargin ? "selected" : ""} |`);
    }
  };
  if (r.perClass) for (const c of r.perClass) record(`Selection record: class ${c.class}`, c.candidates, c.selectedMargin);
  else record(r.plan.selects ? "Selection record" : "The run", r.candidates, r.selectedMargin);
  lines.push("", "## Schema", "", "```json", JSON.stringify(model.schema ?? null, null, 2), "```");
  lines.push("", `dpmargin ${r.library}; method: Wang, Zhu, Wang, ICML 2025. Neighbouring datasets differ by replacing one row.`, "");
  return lines.join("\n");
}

// ---------------------------------------------------------------- run summary (local only)

function evaluationLines(e: Evaluation, what: string, scheme: string): string[] {
  const lines = [`### ${what} (${e.rows} rows)`, "",
    `- accuracy: ${pct(e.accuracy)}${e.accuracy <= e.majorityRate ? " (at or under the majority-class rate)" : ""}`,
    `- majority-class rate (always answering “${e.majorityClass}”): ${pct(e.majorityRate)}${e.imbalanced ? " (imbalanced: balanced accuracy and ROC AUC lead)" : ""}`,
    `- balanced accuracy: ${pct(e.balancedAccuracy)}`,
    `- F1${e.classes.length === 2 ? ` (class “${e.classes[0]}”)` : ` (macro over the classes, ${scheme})`}: ${f(e.f1, 4)}`,
    `- ROC AUC${e.rocAucPerClass ? ` (macro over the classes, ${scheme})` : ""}: ${e.rocAuc === null ? "— (one class only)" : f(e.rocAuc, 4)}`];
  if (e.rocAucPerClass) {
    lines.push(`- ROC AUC per class (its score against the other rows): ${e.rocAucPerClass.map((a, k) => `${e.classes[k]} ${a === null ? "—" : f(a, 4)}`).join(", ")}`);
  }
  if (e.noBetterThanMajority) lines.push(`- **warning**: the accuracy is not above the majority-class rate + 1 point`);
  lines.push("", `| actual \\ predicted | ${e.classes.slice(0, e.confusion[0].length).join(" | ")} |`,
    `|---|${e.confusion[0].map(() => "---").join("|")}|`);
  e.confusion.forEach((row, a) => lines.push(`| ${e.classes[a]} | ${row.join(" | ")} |`));
  lines.push("");
  return lines;
}

/** The run summary: local, NOT for publication (file name, accuracy, confusion, time). */
export function runSummaryMarkdown(o: TrainOutcome, dataName: string): string {
  const r = o.report;
  const scheme = schemeText(o.released);
  const lines = ["# dpmargin run summary — LOCAL, NOT FOR PUBLICATION", "",
    "> Everything below was computed on your data outside the privacy accounting: accuracies,",
    "> confusion counts, the run count and the time are NOT differentially private. Keep this file",
    "> to yourself; publish the privacy report instead.", ""];
  if (r.seeded) lines.push(`> **${SEEDED_TEXT.toUpperCase()}**: the model itself is not private either.`, "");
  lines.push(`- data file: \`${dataName}\``,
    `- rows: ${o.split.rows} (${o.split.trainRows} for training${o.split.testRows ? `, ${o.split.testRows} held out, split seed ${o.split.seed}` : ""})`,
    `- privacy: ε = ${f(r.plan.epsilon)}, δ = ${f(r.plan.delta)}, μ = ${f(r.plan.mu)}`,
    `- ${r.plan.selects ? "selected margin" : "margin"} γ = ${f(r.selectedMargin, 6)}`,
    `- what ran: ${r.plan.advice.selection}`,
    `- base runs: ${o.local.runs}; time: ${Math.round(o.local.elapsedMs)} ms`, "");
  lines.push("## Evaluation (not private)", "");
  lines.push(...evaluationLines(o.train, "Training rows", scheme));
  if (o.test) lines.push(...evaluationLines(o.test, "Held-out rows", scheme));
  return lines.join("\n");
}
