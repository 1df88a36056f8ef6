// Step 5: what the run did on the user's data first — accuracy and ROC AUC with the majority
// rate and balanced accuracy (local, not private), the positive class and the rule that chose
// it — then what ran (the core's sentence: auto's one run at γ₀ and why, or its choice), what it
// released (γ, candidates, model, accounting), and the downloads.
import { positiveRuleText } from "dpmargin/explain";
import type { TrainOutcome, Evaluation } from "../protocol.ts";
import { labelOf, ledger, localItems, releasedItems, reportJSON, reportMarkdown, runSummaryMarkdown, schemeText } from "../report.ts";
import { drawRocChart, drawScoreChart, destroyChart, destroyRocChart } from "./chart.ts";
import { $, download, el, fmt, percent, seconds, table } from "./dom.ts";
import { accuracyFlag, auc, weakWarning, yardstickRows, type Row } from "./yardsticks.ts";

export interface ResultsView {
  show(outcome: TrainOutcome, dataName: string): void;
  hide(): void;
}

/** "breast-cancer.csv" → "breast-cancer"; a safe stem for download names. */
const stem = (name: string) => name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "data";

/** A K × K confusion matrix (rows: actual, columns: predicted); binary cells keep the keys
 *  tp/fn/fp/tn. */
function confusion(target: HTMLTableElement, e: Evaluation): void {
  const K = e.confusion[0].length;
  const binary = K === 2 && e.classes[1] === `not ${e.classes[0]}`;
  const key = (a: number, p: number) => (binary ? [["tp", "fn"], ["fp", "tn"]][a][p] : `c${a}-${p}`);
  target.replaceChildren(
    el("caption", { class: "visually-hidden" }, "Rows: actual class; columns: predicted class"),
    el("thead", {}, el("tr", {}, el("td", {}),
      ...e.classes.slice(0, K).map((c) => el("th", { scope: "col", class: "ellipsis", title: `predicted ${c}` }, `predicted ${c}`)))),
    el("tbody", {}, ...e.confusion.map((row, a) => el("tr", {},
      el("th", { scope: "row", class: "ellipsis", title: `actual ${e.classes[a]}` }, `actual ${e.classes[a]}`),
      ...row.map((n, p) => el("td", { "data-key": key(a, p), class: a === p ? "good" : "bad" }, String(n)))))),
  );
}

/** Per-class recall, precision and F1 (multiclass), saying how the classes trained. */
function perClassTable(target: HTMLTableElement, e: Evaluation, scheme: string): void {
  table(target, ["class", "rows", "recall (per-class accuracy)", "precision", "F1"],
    e.perClass.map((c) => [c.class, String(c.support), percent(c.recall), percent(c.precision), fmt(c.f1, 3)]),
    `Per class (not private) — ${scheme}`);
}

/**
 * The headline: what the model does on the user's rows (local, not private), in the yardsticks'
 * order (accuracy and ROC AUC first; balanced accuracy first for an imbalanced label).
 */
function headline(o: TrainOutcome, scheme: string): Row[] {
  const e = o.test ?? o.train;
  const test: Row = ["test accuracy (not private)", o.test ? `${percent(o.test.accuracy)} on ${o.test.rows} held-out rows${accuracyFlag(o.test)}` : "— (no held-out rows)",
    "test-accuracy", o.test ? String(o.test.accuracy) : ""];
  const train: Row = ["train accuracy (not private)", `${percent(o.train.accuracy)} on ${o.train.rows} rows${o.split.testRows ? "" : " (the whole file)"}${accuracyFlag(o.train)}`,
    "train-accuracy", String(o.train.accuracy)];
  return yardstickRows(e, { which: o.test ? "held-out" : "training", scheme, accuracy: o.test ? test : train, extra: [o.test ? train : test] });
}

export function setupResults(onPredict: () => void): ResultsView {
  let outcome: TrainOutcome | null = null;
  let dataName = "data.csv";
  const suffix = () => (outcome!.report.seeded ? "-SEEDED-not-private" : "");

  $("download-model").addEventListener("click", () => {
    download(`${stem(dataName)}-model${suffix()}.json`, JSON.stringify(outcome!.model, null, 2) + "\n", "application/json");
  });
  // The privacy report is for publication: written from the released record only; neither its
  // content nor its name holds the file name.
  $("download-report-md").addEventListener("click", () => {
    const rule = positiveRuleText(labelOf(outcome!.released).positiveRule ?? undefined);
    download(`privacy-report${suffix()}.md`, reportMarkdown(outcome!.released, { positiveRule: rule }), "text/markdown");
  });
  $("download-report-json").addEventListener("click", () => {
    download(`privacy-report${suffix()}.json`, JSON.stringify(reportJSON(outcome!.released), null, 2) + "\n", "application/json");
  });
  $("download-summary").addEventListener("click", () => {
    download(`${stem(dataName)}-run-summary-LOCAL-not-for-publication.md`, runSummaryMarkdown(outcome!, dataName), "text/markdown");
  });
  $("use-in-predict").addEventListener("click", onPredict);

  return {
    hide() {
      $("results").hidden = true;
      destroyChart();
      destroyRocChart();
    },
    show(o, name) {
      outcome = o;
      dataName = name;
      const r = o.report;
      const p = r.plan;
      const selected = p.candidates[r.selectedCandidate];
      const label = labelOf(o.released);
      const scheme = label.classes ? schemeText(o.released) : "";
      const positive = label.positive ?? "1";
      $("results").hidden = false;
      $("results").dataset.seeded = String(r.seeded);
      for (const badge of document.querySelectorAll<HTMLElement>("#results [data-seeded]")) badge.hidden = !r.seeded;

      const rule = positiveRuleText(label.positiveRule ?? undefined);
      const margin = p.selector === "auto"
        ? p.selects ? `${fmt(r.selectedMargin)} (selected among auto's three margins around γ₀ = ${fmt(p.margin ?? Number.NaN, 4)})`
          : `${fmt(r.selectedMargin)} (auto's public margin γ₀: one run, nothing selected)`
        : p.selects ? `${fmt(r.selectedMargin)} (selected)` : `${fmt(r.selectedMargin)} (the margin you gave)`;
      const summary: Row[] = [
        ...headline(o, scheme),
        ...(label.classes
          ? [["classes", `${label.classes.length} (${scheme}): ${label.classes.join(", ")}`, "classes", label.classes.join("\n")] as Row]
          : [["positive class", `“${positive}” of “${label.column ?? "label"}”${rule ? ` — ${rule}` : ""}`, "positive", positive] as Row]),
        ["what ran", p.advice.selection, "selection", String(p.selects)],
        [p.selects ? "selected margin γ" : "margin γ", margin, "gamma", String(r.selectedMargin)],
        ["dimension k", `${selected.k}${selected.projected ? " (JL projection)" : " (no projection)"}`, "k"],
        ["privacy", `ε = ${fmt(p.epsilon)}, δ = ${fmt(p.delta)}, μ = ${fmt(p.mu)}`, "privacy"],
        ["time (not private)", `${seconds(o.local.elapsedMs)} (${o.local.runs} base run${o.local.runs === 1 ? "" : "s"}; local only)`, "time"],
      ];
      $("result-summary").replaceChildren(...summary.flatMap(([term, text, key, value]) => [
        el("dt", {}, term),
        el("dd", { "data-key": key, ...(value !== undefined ? { "data-value": value } : {}) }, text),
      ]));
      const positiveDd = document.querySelector<HTMLElement>('#result-summary dd[data-key="positive"]');
      if (positiveDd) positiveDd.dataset.rule = label.positiveRule ?? "";

      const which = o.test ?? o.train;
      confusion($<HTMLTableElement>("confusion"), which);
      $("per-class").hidden = !label.classes;
      if (label.classes) perClassTable($<HTMLTableElement>("per-class-table"), which, scheme);
      const weak = weakWarning(which, `on the ${o.test ? "held-out" : "training"} rows`);
      $("accuracy-warning").hidden = !weak;
      $("accuracy-warning").textContent = weak ? `${weak} Try a larger ε, more rows, or other columns.` : "";
      // Rows whose label the private discovery did not find: say how many (a local count, like
      // the accuracies), or a missed class passes silently.
      const outside = o.labelOutside ?? 0;
      $("label-outside-warning").hidden = !(outside > 0);
      $("label-outside-warning").dataset.rows = String(outside);
      $("label-outside-warning").textContent = outside > 0
        ? `Warning: ${outside} of the ${o.split.trainRows} training rows (${percent(outside / o.split.trainRows)}) have a label that is none of the classes discovered under the budget (${(o.released.model.schema?.classes ?? []).map((c) => `“${c}”`).join(", ")}); they were ${label.classes && label.joint ? "left out of the joint model's gradients" : label.classes ? "trained as negatives for every class" : `trained as negatives (not “${positive}”)`}. Declare the classes (Label → classes: declared) to train on them. This count is local to your machine, not released.`
        : "";
      // The ROC curve of the binary scores (local, not private); multiclass: the AUCs only.
      $("roc-box").hidden = false;
      const rocDrawn = drawRocChart($("roc-chart"), which.roc);
      $("roc-box").hidden = !rocDrawn;
      $("roc-which").textContent = o.test ? `(${o.test.rows} held-out rows, not private)` : `(${o.train.rows} training rows, not private)`;
      $("roc-chart").setAttribute("aria-label", `ROC curve: true-positive rate against false-positive rate; AUC ${which.rocAuc === null ? "—" : auc(which.rocAuc)}.`);
      $("roc-note").textContent = rocDrawn
        ? `Computed on your data, not private. Blue: the rows called “${which.classes[0]}” at each score threshold; dashed: chance. AUC = ${auc(which.rocAuc!)}.`
        : "";
      $("confusion-which").textContent = `(${o.test ? `${o.test.rows} held-out rows` : `${o.train.rows} training rows`}${label.classes ? `; ${scheme}` : ""})`;

      // What ran: the noisy scores when the run selected (Iter, auto's choice among three),
      // else the core's sentence on what ran and why no choice was needed.
      const drawn = drawScoreChart($("score-chart"), r);
      $("score-chart").setAttribute("aria-label",
        `Noisy score per margin γ; the selected γ = ${fmt(r.selectedMargin, 4)} is marked. The same numbers are in the candidates table.`);
      $("chart-heading").textContent = drawn ? "Noisy score of every margin γ" : "What ran";
      $("chart-note").textContent = drawn
        ? `Blue: each candidate's error count plus Gaussian noise (sd ${fmt(p.scoreSd, 3)}, shaded ±1 sd); red: the selected γ, the lowest noisy score. ${p.advice.selection}`
        : p.advice.selection;
      $("score-chart").hidden = !drawn;

      table($<HTMLTableElement>("candidates-table"), ["γ", "k", "projected", "T", "σ", "noisy score", ""],
        r.candidates.map((c) => [fmt(c.gamma), String(c.k), c.projected ? "yes" : "no", `${c.T}${c.capped ? "*" : ""}`,
          fmt(c.sigma), fmt(c.noisyScore), p.selects && c.gamma === r.selectedMargin ? "selected" : ""]),
        r.candidates.some((c) => c.capped) ? `* T capped at max iterations (${p.maxIterations})` : undefined);
      $("candidates-summary").textContent = p.selects ? "Candidates (released selection record)" : "The run (released record: one margin, no score)";

      $<HTMLTableElement>("ledger").replaceChildren(el("tbody", {}, ...ledger(o.released).map((row) =>
        el("tr", { "data-key": row.key }, el("th", { scope: "row" }, row.label),
          el("td", { class: row.key === "seeded" && r.seeded ? "seeded-cell" : "" }, row.value)))));
      $("released-list").replaceChildren(...releasedItems(o.released).map((s) => el("li", {}, s)));
      $("local-list").replaceChildren(...localItems(o).map((s) => el("li", {}, s)));

      const m = o.model;
      const range = (i: number) => m.preprocessing.columnRanges
        ? `[${fmt(m.preprocessing.columnRanges[i][0], 4)}, ${fmt(m.preprocessing.columnRanges[i][1], 4)}]` : "—";
      const featureName = (f: string) => el("span", { class: "ellipsis", title: f || "(unnamed)" }, f || "(unnamed)");
      if (label.classes) {
        const w = m.weights as number[][];
        const b = m.intercept as number[] | null;
        const weightRows: (string | Node)[][] = m.features.map((f, i) => [featureName(f), ...w.map((row) => fmt(row[i])), range(i)]);
        if (b) weightRows.push(["(intercept)", ...b.map((x) => fmt(x)), "—"]);
        table($<HTMLTableElement>("weights-table"), ["feature", ...label.classes.map((c) => `weight: ${c}`), "range used"], weightRows,
          `Weights after preprocessing (${m.preprocessing.rowNormalization}, b = ${m.preprocessing.normBound}; ${scheme}); the largest score wins`);
      } else {
        const w = m.weights as number[];
        const weightRows: (string | Node)[][] = m.features.map((f, i) => [featureName(f), fmt(w[i]), range(i)]);
        if (m.intercept !== null) weightRows.push(["(intercept)", fmt(m.intercept as number), "—"]);
        table($<HTMLTableElement>("weights-table"), ["feature", "weight", "range used"], weightRows,
          `Weights after preprocessing (${m.preprocessing.rowNormalization}, b = ${m.preprocessing.normBound}); positive score → ${positive}`);
      }
    },
  };
}
