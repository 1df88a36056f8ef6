// Step 5: what a run released (γ, candidates, model, ledger) and what it did on the user's
// data (accuracy, confusion matrix: local, not private), with the downloads.
import type { TrainOutcome, Evaluation } from "../protocol.ts";
import { ledger, localItems, releasedItems, reportJSON, reportMarkdown } from "../report.ts";
import { drawScoreChart, destroyChart } from "./chart.ts";
import { $, download, el, fmt, percent, seconds, table } from "./dom.ts";

export interface ResultsView {
  show(outcome: TrainOutcome, dataName: string): void;
  hide(): void;
}

/** "breast-cancer.csv" → "breast-cancer"; a safe stem for download names. */
const stem = (name: string) => name.replace(/\.[^.]*$/, "").replace(/[^\w.-]+/g, "_") || "data";

function confusion(target: HTMLTableElement, e: Evaluation, positive: string): void {
  const neg = `not ${positive}`;
  target.replaceChildren(
    el("caption", { class: "visually-hidden" }, "Rows: actual class; columns: predicted class"),
    el("thead", {}, el("tr", {}, el("td", {}),
      el("th", { scope: "col" }, `predicted ${positive}`), el("th", { scope: "col" }, `predicted ${neg}`))),
    el("tbody", {},
      el("tr", {}, el("th", { scope: "row" }, `actual ${positive}`),
        el("td", { "data-key": "tp", class: "good" }, String(e.truePositive)),
        el("td", { "data-key": "fn", class: "bad" }, String(e.falseNegative))),
      el("tr", {}, el("th", { scope: "row" }, `actual ${neg}`),
        el("td", { "data-key": "fp", class: "bad" }, String(e.falsePositive)),
        el("td", { "data-key": "tn", class: "good" }, String(e.trueNegative)))),
  );
}

export function setupResults(onPredict: () => void): ResultsView {
  let outcome: TrainOutcome | null = null;
  let dataName = "data.csv";
  const suffix = () => (outcome!.report.seeded ? "-SEEDED-not-private" : "");

  $("download-model").addEventListener("click", () => {
    download(`${stem(dataName)}-model${suffix()}.json`, JSON.stringify(outcome!.model, null, 2) + "\n", "application/json");
  });
  $("download-report-md").addEventListener("click", () => {
    download(`${stem(dataName)}-privacy-report${suffix()}.md`, reportMarkdown(outcome!, dataName), "text/markdown");
  });
  $("download-report-json").addEventListener("click", () => {
    download(`${stem(dataName)}-privacy-report${suffix()}.json`, JSON.stringify(reportJSON(outcome!, dataName), null, 2) + "\n", "application/json");
  });
  $("use-in-predict").addEventListener("click", onPredict);

  return {
    hide() {
      $("results").hidden = true;
      destroyChart();
    },
    show(o, name) {
      outcome = o;
      dataName = name;
      const r = o.report;
      const p = r.plan;
      const selected = p.candidates[r.selectedCandidate];
      const positive = o.model.label?.positive ?? "1";
      $("results").hidden = false;
      $("results").dataset.seeded = String(r.seeded);
      for (const badge of document.querySelectorAll<HTMLElement>("#results [data-seeded]")) badge.hidden = !r.seeded;

      const summary: [string, string, string, string?][] = [
        ["selected margin γ", fmt(r.selectedMargin), "gamma", String(r.selectedMargin)],
        ["test accuracy (not private)", o.test ? `${percent(o.test.accuracy)} on ${o.test.rows} held-out rows` : "— (no held-out rows)",
          "test-accuracy", o.test ? String(o.test.accuracy) : ""],
        ["train accuracy (not private)", `${percent(o.train.accuracy)} on ${o.train.rows} rows${o.split.testRows ? "" : " (the whole file)"}`,
          "train-accuracy", String(o.train.accuracy)],
        ["dimension k", `${selected.k}${selected.projected ? " (JL projection)" : " (no projection)"}`, "k"],
        ["privacy", `ε = ${fmt(p.epsilon)}, δ = ${fmt(p.delta)}, μ = ${fmt(p.mu)}`, "privacy"],
        ["time (not private)", `${seconds(o.local.elapsedMs)} (${o.local.runs} base run${o.local.runs === 1 ? "" : "s"}; local only)`, "time"],
      ];
      $("result-summary").replaceChildren(...summary.flatMap(([term, text, key, value]) => [
        el("dt", {}, term),
        el("dd", { "data-key": key, ...(value !== undefined ? { "data-value": value } : {}) }, text),
      ]));

      const which = o.test ?? o.train;
      confusion($<HTMLTableElement>("confusion"), which, positive);
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
      const weightRows = m.features.map((f, i) => [f || "(unnamed)", fmt(m.weights[i]),
        m.preprocessing.columnRanges ? `[${fmt(m.preprocessing.columnRanges[i][0], 4)}, ${fmt(m.preprocessing.columnRanges[i][1], 4)}]` : "—"]);
      if (m.intercept !== null) weightRows.push(["(intercept)", fmt(m.intercept), "—"]);
      table($<HTMLTableElement>("weights-table"), ["feature", "weight", "range used"], weightRows,
        `Weights after preprocessing (${m.preprocessing.rowNormalization}, b = ${m.preprocessing.normBound}); positive score → ${positive}`);
    },
  };
}
