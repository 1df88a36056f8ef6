// The Predict tab: a model (the one just trained, or a model file, validated by the engine)
// applied to a new CSV in the worker; predictions download in the CLI's format. With the label
// in the file, the same yardsticks as training (the package's `evaluate`: local, not private);
// for a binary model, a decision threshold the user can move (predictions, yardsticks and the
// download follow it, as `dpmargin predict --threshold T`).
import type { AnyModelFile } from "dpmargin";
import { oneClassWarning } from "dpmargin/explain";
import type { PredictOutcome, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, clearError, download, dropTarget, el, fmt, percent, showError, table } from "./dom.ts";
import { accuracyFlag, weakWarning, yardstickRows } from "./yardsticks.ts";

export interface PredictView {
  /** A freshly trained model became available. */
  setTrained(model: AnyModelFile | null): void;
  useTrained(): void;
}

function labelText(m: AnyModelFile): string {
  if (!m.label) return "class 1 (score > 0)";
  if ("classes" in m.label && m.label.classes && m.label.classes.length >= 3) {
    return `${m.label.column ?? "class"}: one of ${m.label.classes.map((c) => `“${c}”`).join(", ")} (the largest score)`;
  }
  const l = m.label as { column: string; positive: string };
  return `${l.column} = ${l.positive} (score > 0)`;
}

export function setupPredict(client: WorkerClient): PredictView {
  let trained: AnyModelFile | null = null;
  let model: AnyModelFile | null = null;
  let output: { name: string; csv: string } | null = null;
  // The shown predictions (their file's name and the worker's outcome); a counter that drops
  // the answers of superseded threshold requests.
  let current: { file: string; result: PredictOutcome } | null = null;
  let generation = 0;
  const modelError = $("model-error");
  const predictError = $("predict-error");
  const dataInput = $<HTMLInputElement>("predict-file");

  const setModel = (m: AnyModelFile | null, origin: string) => {
    model = m;
    current = null;
    dataInput.disabled = m === null;
    $("predict-output").hidden = true;
    clearError(predictError);
    if (!m) {
      $("model-summary").replaceChildren(el("p", { class: "note" }, "No model yet."));
      return;
    }
    const p = m.privacy;
    $("model-summary").replaceChildren(
      el("p", {}, el("strong", {}, origin), p.seeded ? el("span", { class: "badge-seeded" }, "seeded — not private") : null),
      el("dl", { class: "summary" },
        el("dt", {}, "predicts"), el("dd", { "data-key": "model-label" },
          labelText(m)),
        el("dt", {}, "features"), el("dd", { "data-key": "model-features" },
          `${m.features.length}: ${m.features.slice(0, 8).map((f) => `“${f}”`).join(" ")}${m.features.length > 8 ? " …" : ""}`),
        el("dt", {}, "margin γ"), el("dd", {}, Array.isArray(m.selection)
          ? m.selection.map((c) => `${c.class}: ${fmt(c.gamma, 4)}`).join(", ") : fmt(m.selection.gamma)),
        el("dt", {}, "privacy"), el("dd", {}, `ε = ${fmt(p.epsilon)}, δ = ${fmt(p.delta)}, μ = ${fmt(p.mu)}, ${p.selector}, ${p.calibration}`),
        el("dt", {}, "library"), el("dd", {}, m.library)),
    );
    $("model-summary").dataset.seeded = String(p.seeded);
  };

  $<HTMLButtonElement>("predict-use-trained").addEventListener("click", () => {
    clearError(modelError);
    if (trained) setModel(trained, "The model just trained");
  });

  const modelInput = $<HTMLInputElement>("model-file");
  modelInput.addEventListener("change", async () => {
    const file = modelInput.files?.[0];
    modelInput.value = "";
    if (!file) return;
    clearError(modelError);
    document.body.dataset.modelState = "loading";
    try {
      const json = await file.text();
      setModel(await client.request<AnyModelFile>({ type: "model", json }), `Model file ${file.name}`);
      document.body.dataset.modelState = "loaded";
    } catch (error) {
      setModel(null, "");
      document.body.dataset.modelState = "error";
      showError(modelError, (error as WorkerError).code ? error as WorkerError
        : { code: "BAD_MODEL", message: String(error) }, file.name);
    }
  });

  const thresholdInput = $<HTMLInputElement>("threshold");
  const slider = $<HTMLInputElement>("threshold-range");
  const STEPS = 1000;

  const show = (fileName: string, result: PredictOutcome) => {
    if (!model) return;
    current = { file: fileName, result };
    const positive = model.label && "positive" in model.label ? model.label.positive : "1";
    const decision = result.threshold === null ? "score > 0, the model's decision" : `score ≥ ${fmt(result.threshold)}`;
    output = { name: `${fileName.replace(/\.[^.]*$/, "")}-predictions${model.privacy.seeded ? "-SEEDED-not-private" : ""}.csv`, csv: result.csv };
    $("predict-output").dataset.threshold = result.threshold === null ? "" : String(result.threshold);
    $("predict-summary").replaceChildren(
      el("strong", {}, fileName), ` — ${result.rows} rows scored, `,
      ...(result.classes ? [`one of ${result.classes.length} classes predicted per row (the largest score).`]
        : [el("span", { "data-key": "positives" }, String(result.positives)), ` predicted ${positive} (${decision}).`]),
      result.evaluation ? ` On this file's label column (not private):` : " The file has no label column: no accuracy.");
    const e = result.evaluation;
    $("predict-metrics").hidden = !e;
    if (e) {
      const scheme = model.version !== 1 && "classes" in (model.label ?? {})
        ? (model as { multiclass?: string }).multiclass === "joint" ? "one joint model" : "one-vs-rest" : "";
      const rows = yardstickRows(e, {
        which: "this file", scheme, prefix: "predict-",
        accuracy: ["accuracy (this file, not private)", `${percent(e.accuracy)} on ${e.rows} rows${accuracyFlag(e)}`, "predict-accuracy", String(e.accuracy)],
      });
      $("predict-metrics").replaceChildren(...rows.flatMap(([term, text, key, value]) => [
        el("dt", {}, term), el("dd", { "data-key": key, ...(value !== undefined ? { "data-value": value } : {}) }, text)]));
    }
    // Every row on one side of the decision (binary), and an accuracy no better than the
    // majority class: the package's words.
    const oneClass = result.classes === null && result.rows > 0 && (result.positives === 0 || result.positives === result.rows)
      ? oneClassWarning(result.positives === 0 ? `not ${positive}` : positive, result.rows) : "";
    const warning = [oneClass, e ? weakWarning(e, "on this file") : ""].filter((w) => w !== "").join(" ");
    $("predict-warning").hidden = !warning;
    $("predict-warning").dataset.oneClass = String(oneClass !== "");
    $("predict-warning").textContent = warning;
    // The threshold: binary models only, over the range of this file's scores.
    const range = result.scoreRange;
    $("threshold-box").hidden = result.classes !== null || range === null;
    if (range && result.classes === null) {
      $("threshold-positive").textContent = positive;
      const [lo, hi] = range;
      const t = result.threshold ?? 0;
      if (document.activeElement !== thresholdInput) thresholdInput.value = result.threshold === null ? "" : String(result.threshold);
      thresholdInput.placeholder = "0 (the model's)";
      slider.value = String(hi > lo ? Math.round(((Math.min(Math.max(t, lo), hi) - lo) / (hi - lo)) * STEPS) : 0);
      $<HTMLButtonElement>("threshold-reset").disabled = result.threshold === null;
    }
    table($<HTMLTableElement>("predict-table"), ["line", "score", "predicted"],
      result.preview.map((r) => [String(r.line), fmt(r.score), r.predicted ?? (r.positive ? positive : `not ${positive}`)]),
      `First ${result.preview.length} of ${result.rows} predictions`);
    document.querySelector<HTMLElement>("[data-model-seeded]")!.hidden = !model.privacy.seeded;
    $("predict-output").hidden = false;
  };

  /** Re-decide the shown predictions at `threshold` (null: the model's own decision). */
  const rethreshold = async (threshold: number | null) => {
    if (!current) return;
    const mine = ++generation;
    clearError(predictError);
    document.body.dataset.predictState = "running";
    try {
      const result = await client.request<PredictOutcome>({ type: "predict-threshold", threshold });
      if (mine !== generation || !current) return;
      show(current.file, result);
      document.body.dataset.predictState = "done";
    } catch (error) {
      if (mine !== generation) return;
      showError(predictError, error as WorkerError);
      document.body.dataset.predictState = "error";
    }
  };
  thresholdInput.addEventListener("change", () => {
    const text = thresholdInput.value.trim();
    void rethreshold(text === "" ? null : Number(text));
  });
  slider.addEventListener("input", () => {
    const range = current?.result.scoreRange;
    if (!range) return;
    const t = Number((range[0] + (Number(slider.value) / STEPS) * (range[1] - range[0])).toPrecision(6));
    thresholdInput.value = String(t);
    void rethreshold(t);
  });
  $("threshold-reset").addEventListener("click", () => {
    thresholdInput.value = "";
    void rethreshold(null);
  });

  const run = async (file: File) => {
    if (!model) return;
    clearError(predictError);
    $("predict-output").hidden = true;
    $("predict-summary").textContent = "";
    current = null;
    ++generation;
    thresholdInput.value = "";
    document.body.dataset.predictState = "running";
    try {
      const result = await client.request<PredictOutcome>({ type: "predict", model, source: { kind: "file", file, name: file.name } });
      show(file.name, result);
      document.body.dataset.predictState = "done";
    } catch (error) {
      showError(predictError, error as WorkerError, file.name);
      document.body.dataset.predictState = "error";
    }
  };
  dataInput.addEventListener("change", () => {
    const file = dataInput.files?.[0];
    dataInput.value = "";
    if (file) void run(file);
  });
  dropTarget($("predict-drop"), (file) => void run(file));
  $("download-predictions").addEventListener("click", () => {
    if (output) download(output.name, output.csv, "text/csv");
  });

  return {
    setTrained(m) {
      trained = m;
      $<HTMLButtonElement>("predict-use-trained").disabled = m === null;
    },
    useTrained() {
      if (trained) setModel(trained, "The model just trained");
    },
  };
}
