// The Predict tab: a model (the one just trained, or a model file, validated by the engine)
// applied to a new CSV in the worker; predictions download in the CLI's format.
import type { AnyModelFile } from "dpmargin";
import type { PredictOutcome, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, clearError, download, dropTarget, el, fmt, percent, showError, table } from "./dom.ts";

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
  const modelError = $("model-error");
  const predictError = $("predict-error");
  const dataInput = $<HTMLInputElement>("predict-file");

  const setModel = (m: AnyModelFile | null, origin: string) => {
    model = m;
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

  const run = async (file: File) => {
    if (!model) return;
    clearError(predictError);
    $("predict-output").hidden = true;
    $("predict-summary").textContent = "";
    document.body.dataset.predictState = "running";
    try {
      const result = await client.request<PredictOutcome>({ type: "predict", model, source: { kind: "file", file, name: file.name } });
      const positive = model.label && "positive" in model.label ? model.label.positive : "1";
      output = { name: `${file.name.replace(/\.[^.]*$/, "")}-predictions${model.privacy.seeded ? "-SEEDED-not-private" : ""}.csv`, csv: result.csv };
      $("predict-summary").replaceChildren(
        el("strong", {}, file.name), ` — ${result.rows} rows scored, `,
        ...(result.classes ? [`one of ${result.classes.length} classes predicted per row.`]
          : [el("span", { "data-key": "positives" }, String(result.positives)), ` predicted ${positive}.`]),
        result.evaluation ? ` Accuracy on this file's label column: ` : "",
        result.evaluation ? el("span", { "data-key": "predict-accuracy", "data-value": String(result.evaluation.accuracy) },
          percent(result.evaluation.accuracy)) : "",
        result.evaluation ? " (not private)." : "");
      table($<HTMLTableElement>("predict-table"), ["line", "score", "predicted"],
        result.preview.map((r) => [String(r.line), fmt(r.score), r.predicted ?? (r.positive ? positive : `not ${positive}`)]),
        `First ${result.preview.length} of ${result.rows} predictions`);
      document.querySelector<HTMLElement>("[data-model-seeded]")!.hidden = !model.privacy.seeded;
      $("predict-output").hidden = false;
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
