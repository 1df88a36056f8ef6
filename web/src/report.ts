// The privacy report of a training run, as the app shows it (ledger) and as it downloads it
// (Markdown for people, JSON for tools). Pure functions of the run's outcome.
import type { TrainOutcome } from "./protocol.ts";

export const SEEDED_TEXT = "seeded — not private";

export interface LedgerRow { key: string; label: string; value: string; raw: number | string | boolean }

const f = (x: number, digits = 8) => {
  if (x === 0) return "0";
  const a = Math.abs(x);
  const rounded = Number(x.toPrecision(digits));
  return a >= 1e6 || a < 1e-4 ? rounded.toExponential() : String(rounded);
};

/** Every number of the accounting, in the order the ledger shows them. */
export function ledger(o: TrainOutcome): LedgerRow[] {
  const r = o.report.plan;
  const rows: LedgerRow[] = [
    { key: "epsilon", label: "ε (target)", value: f(r.epsilon), raw: r.epsilon },
    { key: "delta", label: "δ", value: f(r.delta), raw: r.delta },
    { key: "epsilon-spent", label: "ε spent (recomputed from μ)", value: f(r.epsilonSpent), raw: r.epsilonSpent },
    { key: "mu", label: "μ total (Gaussian DP)", value: f(r.mu), raw: r.mu },
    { key: "mu-ranges", label: "μ_ranges (private column ranges)", value: r.muRanges > 0 ? f(r.muRanges) : "0 (no private ranges)", raw: r.muRanges },
    { key: "mu-train", label: "μ_train (training and selection)", value: f(r.muTrain), raw: r.muTrain },
    { key: "mu-run", label: "μ per base run", value: f(r.muRun), raw: r.muRun },
    { key: "score-sd", label: "score noise sd", value: r.selector === "fixed" || r.selector === "auto" ? "— (no selection)" : f(r.scoreSd), raw: r.scoreSd },
    { key: "neighbouring", label: "neighbouring datasets", value: "replace one row", raw: r.neighbouring },
    { key: "calibration", label: "calibration", value: r.calibration, raw: r.calibration },
    { key: "selector", label: "selector", value: r.selector, raw: r.selector },
    { key: "score", label: "score", value: r.score, raw: r.score },
    { key: "n", label: "n (training rows, public)", value: String(r.n), raw: r.n },
    { key: "d", label: "d (columns incl. intercept)", value: String(r.d), raw: r.d },
    { key: "seeded", label: "noise", value: o.report.seeded ? `${SEEDED_TEXT} (deterministic seed)` : "secure (CSPRNG)", raw: o.report.seeded },
  ];
  return rows;
}

/** What the release contains (everything covered by the accounting). */
export function releasedItems(o: TrainOutcome): string[] {
  const r = o.report;
  const p = r.plan;
  const selected = p.candidates[r.selectedCandidate];
  const items = [
    `the model: ${p.d} weights in the preprocessed space${o.model.intercept !== null ? " (one of them the intercept)" : ""}`,
    `the selected margin γ = ${f(r.selectedMargin, 6)} (k = ${selected.k}${selected.projected ? ", JL-projected" : ", no projection"})`,
  ];
  if (p.selector === "iter") items.push(`the noisy score, k, T and σ of all ${r.candidates.length} margin candidates`);
  else if (p.selector === "privtune") items.push("the selected candidate only (its theorem keeps the number of runs K hidden)");
  else items.push("nothing else (one run at the given margin)");
  if (r.columnRanges) {
    items.push(`${r.columnRanges.length} column ranges [lo, hi]${r.rangesPrivate ? " (estimated privately, μ_ranges)" : " (declared public)"}`);
  }
  return items;
}

/** What the page shows but is not part of the release (and not private). */
export function localItems(o: TrainOutcome): string[] {
  const items = [`accuracy on the ${o.split.trainRows} training rows`];
  items.push(`the run count (${o.local.runs}${o.report.plan.selector === "privtune" ? " = K" : ""}) and the time (${Math.round(o.local.elapsedMs)} ms): never publish them`);
  if (o.test) items.push(`accuracy and confusion matrix on the ${o.test.rows} held-out rows`);
  else items.push("confusion matrix on the training rows");
  items.push("the data preview and column types");
  return items;
}

export function reportJSON(o: TrainOutcome, dataName: string): Record<string, unknown> {
  const r = o.report;
  const p = r.plan;
  const selected = p.candidates[r.selectedCandidate];
  return {
    format: "dpmargin-privacy-report",
    version: 1,
    ...(r.seeded ? { notPrivate: SEEDED_TEXT, warning: r.warning } : {}),
    seeded: r.seeded,
    privacy: {
      epsilon: p.epsilon, delta: p.delta, epsilonSpent: p.epsilonSpent, mu: p.mu,
      muRanges: p.muRanges, muTrain: p.muTrain, muRun: p.muRun, scoreSd: p.scoreSd,
      rangeShare: p.rangeShare, neighbouring: p.neighbouring, calibration: p.calibration,
      selector: p.selector, score: p.score, output: r.output, maxIterations: p.maxIterations,
    },
    released: {
      selectedMargin: r.selectedMargin, selectedK: selected.k, selectedProjected: selected.projected,
      candidates: r.candidates, columnRanges: r.columnRanges, rangesPrivate: r.rangesPrivate,
      model: "see the model file (weights, intercept, preprocessing)",
    },
    data: {
      file: dataName, rows: o.split.rows, trainRows: o.split.trainRows, testRows: o.split.testRows,
      features: o.model.features, label: o.model.label,
    },
    evaluation: {
      note: "computed on the user's data; NOT differentially private",
      split: { testFraction: o.split.testFraction, seed: o.split.seed },
      train: o.train, test: o.test,
    },
    library: r.library,
  };
}

export function reportMarkdown(o: TrainOutcome, dataName: string): string {
  const r = o.report;
  const lines: string[] = [];
  lines.push("# dpmargin privacy report", "");
  if (r.seeded) {
    lines.push(`> **${SEEDED_TEXT.toUpperCase()}.** This run used a fixed seed: its noise is deterministic, so`,
      "> the model and scores below are NOT differentially private. Use seeded runs for tests and demos only.", "");
  }
  lines.push(`Data: \`${dataName}\` — ${o.split.trainRows} training rows` +
    (o.split.testRows ? `, ${o.split.testRows} held out` : "") +
    `; label \`${o.model.label?.column}\`, positive class \`${o.model.label?.positive}\`; ${o.model.features.length} features.`, "");
  lines.push("## Privacy ledger", "", "| quantity | value |", "|---|---|");
  for (const row of ledger(o)) lines.push(`| ${row.label} | ${row.value} |`);
  lines.push("", "## Released (covered by ε, δ)", "", ...releasedItems(o).map((s) => `- ${s}`));
  lines.push("", "## Not private (local only)", "", ...localItems(o).map((s) => `- ${s}`));
  lines.push("", "## Selection record", "", "| γ | k | projected | T | σ | noisy score | |", "|---|---|---|---|---|---|---|");
  for (const c of r.candidates) {
    lines.push(`| ${f(c.gamma, 6)} | ${c.k} | ${c.projected ? "yes" : "no"} | ${c.T}${c.capped ? " (cap)" : ""} | ${f(c.sigma, 6)} | ${Number.isNaN(c.noisyScore) ? "—" : f(c.noisyScore, 6)} | ${c.gamma === r.selectedMargin ? "selected" : ""} |`);
  }
  lines.push("", "## Evaluation (not private)", "");
  lines.push(`- train accuracy: ${(o.train.accuracy * 100).toFixed(2)}% on ${o.train.rows} rows`);
  if (o.test) lines.push(`- test accuracy: ${(o.test.accuracy * 100).toFixed(2)}% on ${o.test.rows} held-out rows (split seed ${o.split.seed})`);
  lines.push("", `dpmargin ${r.library}; method: Wang, Zhu, Wang, ICML 2025. Neighbouring datasets differ by replacing one row.`, "");
  return lines.join("\n");
}
