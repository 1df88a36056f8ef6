// Step 5: what a run released (γ, candidates, model, ledger) and what it did on the user's
// data (accuracy, confusion matrix: local, not private), with the downloads.
import type { TrainOutcome, Evaluation } from "../protocol.ts";
import { labelOf, ledger, localItems, releasedItems, reportJSON, reportMarkdown, runSummaryMarkdown } from "../report.ts";
import { drawRocChart, drawScoreChart, destroyChart, destroyRocChart } from "./chart.ts";
import { $, download, el, fmt, percent, seconds, table } from "./dom.ts";

// ROC AUC with four decimals, as the CLI prints it (0.9900, not 0.99).
const auc = (x: number) => x.toFixed(4);

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

/** Per-class recall, precision and F1 (multiclass). */
function perClassTable(target: HTMLTableElement, e: Evaluation): void {
  table(target, ["class", "rows", "recall (per-class accuracy)", "precision", "F1"],
    e.perClass.map((c) => [c.class, String(c.support), percent(c.recall), percent(c.precision), fmt(c.f1, 3)]),
    "Per class (not private)");
}

/** Yardsticks of an evaluation (local, not private): what the accuracy must beat. */
function yardsticks(e: Evaluation, which: string): [string, string, string, string][] {
  return [
    [`majority-class rate (${which}, not private)`, `${percent(e.majorityRate)} (always “${e.majorityClass}”)`, "majority-rate", String(e.majorityRate)],
    [`balanced accuracy (${which}, not private)`, percent(e.balancedAccuracy), "balanced-accuracy", String(e.balancedAccuracy)],
    [`F1 (${which}, not private)`, `${fmt(e.f1, 3)}${e.classes.length === 2 ? ` (class “${e.classes[0]}”)` : " (macro over the classes)"}`, "f1", String(e.f1)],
    [`ROC AUC (${which}, not private)`, e.rocAuc === null ? "— (one class only)"
      : `${auc(e.rocAuc)}${e.rocAucPerClass ? " (macro over the classes, one-vs-rest)" : " (from the scores; 0.5 = chance)"}`,
      "roc-auc", e.rocAuc === null ? "" : String(e.rocAuc)],
  ];
}

export function setupResults(onPredict: () => void): ResultsView {
  let outcome: TrainOutcome | null = null;
  let dataName = "data.csv";
  const suffix = () => (outcome!.report.seeded ? "-SEEDED-not-private" : "");

  $("download-model").addEventListener("click", () => {
    download(`${stem(dataName)}-model${suffix()}.json`, JSON.stringify(outcome!.model, null, 2) + "\n", "application/json");
  });
  // The privacy report is for publication: neither its content nor its name holds the file name.
  $("download-report-md").addEventListener("click", () => {
    download(`privacy-report${suffix()}.md`, reportMarkdown(outcome!), "text/markdown");
  });
  $("download-report-json").addEventListener("click", () => {
    download(`privacy-report${suffix()}.json`, JSON.stringify(reportJSON(outcome!), null, 2) + "\n", "application/json");
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
      const label = labelOf(o);
      const positive = label.positive ?? "1";
      $("results").hidden = false;
      $("results").dataset.seeded = String(r.seeded);
      for (const badge of document.querySelectorAll<HTMLElement>("#results [data-seeded]")) badge.hidden = !r.seeded;

      const summary: [string, string, string, string?][] = [
        ["selected margin γ", fmt(r.selectedMargin), "gamma", String(r.selectedMargin)],
        ["test accuracy (not private)", o.test ? `${percent(o.test.accuracy)} on ${o.test.rows} held-out rows` : "— (no held-out rows)",
          "test-accuracy", o.test ? String(o.test.accuracy) : ""],
        ["train accuracy (not private)", `${percent(o.train.accuracy)} on ${o.train.rows} rows${o.split.testRows ? "" : " (the whole file)"}`,
          "train-accuracy", String(o.train.accuracy)],
        ...(label.classes ? [["classes", `${label.classes.length} (${r.plan.multiclass === "joint" ? "one joint model" : "one-vs-rest"}): ${label.classes.join(", ")}`, "classes", label.classes.join("\n")] as [string, string, string, string]] : []),
        ...yardsticks(o.test ?? o.train, o.test ? "held-out" : "training"),
        ["dimension k", `${selected.k}${selected.projected ? " (JL projection)" : " (no projection)"}`, "k"],
        ["privacy", `ε = ${fmt(p.epsilon)}, δ = ${fmt(p.delta)}, μ = ${fmt(p.mu)}`, "privacy"],
        ["time (not private)", `${seconds(o.local.elapsedMs)} (${o.local.runs} base run${o.local.runs === 1 ? "" : "s"}; local only)`, "time"],
      ];
      $("result-summary").replaceChildren(...summary.flatMap(([term, text, key, value]) => [
        el("dt", {}, term),
        el("dd", { "data-key": key, ...(value !== undefined ? { "data-value": value } : {}) }, text),
      ]));

      const which = o.test ?? o.train;
      confusion($<HTMLTableElement>("confusion"), which);
      $("per-class").hidden = !label.classes;
      if (label.classes) perClassTable($<HTMLTableElement>("per-class-table"), which);
      const weak = which.accuracy <= which.majorityRate + 0.01;
      $("accuracy-warning").hidden = !weak;
      $("accuracy-warning").textContent = weak
        ? `Warning: the ${o.test ? "held-out" : "training"} accuracy (${percent(which.accuracy)}) is not above the majority-class rate + 1 point (${percent(which.majorityRate)}: always answering “${which.majorityClass}”). This model is no better than that constant guess; try a larger ε, more rows, or other columns.`
        : "";
      // Rows whose label the private discovery did not find were trained as negatives: say how
      // many (a local count, like the accuracies), or a missed class passes silently.
      const outside = o.labelOutside ?? 0;
      $("label-outside-warning").hidden = !(outside > 0);
      $("label-outside-warning").dataset.rows = String(outside);
      $("label-outside-warning").textContent = outside > 0
        ? `Warning: ${outside} of the ${o.split.trainRows} training rows (${percent(outside / o.split.trainRows)}) have a label that is none of the classes discovered under the budget (${(((o.model as { schema?: { classes?: string[] } }).schema?.classes) ?? []).map((c) => `“${c}”`).join(", ")}); they were trained as negatives${label.classes && label.classes.length >= 3 ? " for every class" : ` (not “${positive}”)`}. Declare the classes (Label → classes: declared) to train on them. This count is local to your machine, not released.`
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
      $("confusion-which").textContent = o.test ? `(${o.test.rows} held-out rows)` : `(${o.train.rows} training rows)`;

      const drawn = drawScoreChart($("score-chart"), r);
      $("score-chart").setAttribute("aria-label",
        `Noisy score per margin γ; the selected γ = ${fmt(r.selectedMargin, 4)} is marked. The same numbers are in the candidates table.`);
      $("chart-note").textContent = p.selector === "iter"
        ? `Blue: each candidate's error count plus Gaussian noise (sd ${fmt(p.scoreSd, 3)}, shaded ±1 sd); red: the selected γ, the lowest noisy score.`
        : p.selector === "privtune"
          ? "PrivTune releases only the selected run (how many runs were drawn stays hidden): one point."
          : "The fixed-margin learner selects nothing: there is no score to show.";
      $("score-chart").hidden = !drawn;

      table($<HTMLTableElement>("candidates-table"), ["γ", "k", "projected", "T", "σ", "noisy score", ""],
        r.candidates.map((c) => [fmt(c.gamma), String(c.k), c.projected ? "yes" : "no", `${c.T}${c.capped ? "*" : ""}`,
          fmt(c.sigma), fmt(c.noisyScore), c.gamma === r.selectedMargin ? "selected" : ""]),
        r.candidates.some((c) => c.capped) ? `* T capped at max iterations (${p.maxIterations})` : undefined);

      $<HTMLTableElement>("ledger").replaceChildren(el("tbody", {}, ...ledger(o).map((row) =>
        el("tr", { "data-key": row.key }, el("th", { scope: "row" }, row.label),
          el("td", { class: row.key === "seeded" && r.seeded ? "seeded-cell" : "" }, row.value)))));
      $("released-list").replaceChildren(...releasedItems(o).map((s) => el("li", {}, s)));
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
          `Weights after preprocessing (${m.preprocessing.rowNormalization}, b = ${m.preprocessing.normBound}); the largest score wins`);
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
