// The engine: the wasm module, the loaded file and training all live in this worker, so the
// page stays responsive. Everything goes through the package's public API: its streaming CSV
// reader (a column summary for the preview; trainCsv/predictCsv/profileCsv read the file again,
// straight into wasm memory), train's onPlan/onProgress events and AbortSignal support. With
// "Workers: 2" this worker coordinates and the package starts two nested shard workers
// (docs/SHARDING.md). Protocol in protocol.ts: each request gets zero or more events and then
// one "result" or "error" ({code, message, …}); no exception escapes as an uncaught error.
import { load, DpMarginError, predictionsCsv, type DpMargin, type Model, type ModelFile, type CsvPredictions } from "dpmargin";
import { splitRows } from "./split.ts";
import type {
  Evaluation, EngineInfo, MarginProfile, PredictOutcome, ProfileRequest, Reply, Request, Source, TableSummary,
  TrainOutcome, TrainRequest, WorkerError,
} from "./protocol.ts";

const PREVIEW_ROWS = 8;

let instance: Promise<DpMargin> | null = null;
const engine = () => (instance ??= load());

/** The file loaded with "load" (the package re-reads it for training, evaluation, the profile). */
let table: { blob: Blob; summary: TableSummary } | null = null;
const running = new Map<number, AbortController>();

const post = (reply: Reply) => (self as unknown as Worker).postMessage(reply);

async function blobOf(source: Source): Promise<Blob> {
  if (source.kind === "file") return source.file;
  let response: Response;
  try {
    response = await fetch(source.url);
  } catch (error) {
    throw new DpMarginError("BAD_PARAMETER", `cannot fetch ${source.name} (offline?): ${(error as Error).message}`);
  }
  if (!response.ok) throw new DpMarginError("BAD_PARAMETER", `cannot fetch ${source.name}: HTTP ${response.status}`);
  return response.blob();
}

function cancellable(id: number): AbortController {
  const controller = new AbortController();
  running.set(id, controller);
  return controller;
}

async function loadTable(id: number, source: Source): Promise<TableSummary> {
  const started = performance.now();
  const dp = await engine();
  const blob = await blobOf(source);
  const controller = cancellable(id);
  try {
    const s = await dp.summarizeCsv(blob, {
      previewRows: PREVIEW_ROWS, signal: controller.signal,
      onProgress: (p) => post({ id, type: "load-progress", progress: { bytes: p.bytes, totalBytes: p.totalBytes, rows: p.rows } }),
    });
    const summary: TableSummary = {
      name: source.name, bytes: blob.size, rows: s.rows, delimiter: s.delimiter, header: s.header,
      columns: s.columns, preview: s.preview, previewLines: s.previewLines, parseMs: performance.now() - started,
    };
    table = { blob, summary };
    return summary;
  } finally {
    running.delete(id);
  }
}

/** Accuracy and confusion counts of predictions against the truth (local; not private). */
function evaluate(p: CsvPredictions): Evaluation {
  const truth = p.truth!;
  let tp = 0, fp = 0, tn = 0, fn = 0;
  for (let i = 0; i < truth.length; i++) {
    if (p.labels[i] > 0) { if (truth[i] > 0) tp++; else fp++; }
    else if (truth[i] > 0) fn++;
    else tn++;
  }
  return {
    rows: truth.length, accuracy: (tp + tn) / truth.length,
    truePositive: tp, falsePositive: fp, trueNegative: tn, falseNegative: fn,
  };
}

async function train(id: number, request: TrainRequest): Promise<TrainOutcome> {
  if (!table) throw new DpMarginError("BAD_PARAMETER", "load a CSV file first");
  const dp = await engine();
  const { blob, summary } = table;
  const n = summary.rows;
  const split = splitRows(n, request.testFraction, request.splitSeed);
  const held = split.test.length > 0;
  // With no held-out rows the training table is the whole file in file order: the table
  // `dpmargin train FILE` reads, so seeded runs match the CLI exactly.
  const csv = { label: request.label, positive: request.positive, features: request.features, ...(held ? { rows: split.train } : {}) };
  const controller = cancellable(id);
  try {
    const { model, report, local } = await dp.trainCsv(blob, csv, {
      ...request.options,
      signal: controller.signal,
      onPlan: (plan) => post({ id, type: "started", plan }),
      onProgress: (progress) => post({ id, type: "progress", progress }),
    });
    // Evaluation on the user's own rows: local, not private.
    const evalCsv = { label: request.label, positive: model.label!.positive, signal: controller.signal };
    const onTrain = evaluate(await model.predictCsv(blob, { ...evalCsv, ...(held ? { rows: split.train } : {}) }));
    const onTest = held ? evaluate(await model.predictCsv(blob, { ...evalCsv, rows: split.test })) : null;
    return {
      report,
      local,
      model: model.toJSON(),
      train: onTrain,
      test: onTest,
      split: {
        rows: n, trainRows: onTrain.rows, testRows: onTest?.rows ?? 0,
        testFraction: request.testFraction, seed: request.splitSeed,
      },
    };
  } finally {
    running.delete(id);
  }
}

/** The margin profile of the loaded table: NOT private (the package says `private: false`). */
async function profile(id: number, request: ProfileRequest): Promise<MarginProfile> {
  if (!table) throw new DpMarginError("BAD_PARAMETER", "load a CSV file first");
  const dp = await engine();
  const controller = cancellable(id);
  try {
    const { table: _t, ...result } = await dp.profileCsv(table.blob,
      { label: request.label, positive: request.positive, features: request.features },
      {
        maxRemoved: request.maxRemoved, intercept: request.intercept, signal: controller.signal,
        onProgress: (progress) => post({ id, type: "profile-progress", progress }),
      });
    void _t;
    return result;
  } finally {
    running.delete(id);
  }
}

async function predict(id: number, modelFile: ModelFile, source: Source): Promise<PredictOutcome> {
  const dp = await engine();
  const model: Model = dp.modelFromJSON(modelFile);
  const blob = await blobOf(source);
  const controller = cancellable(id);
  try {
    const head = await dp.summarizeCsv(blob, { previewRows: PREVIEW_ROWS, maxValues: 0, signal: controller.signal });
    const label = model.label;
    let predictions: CsvPredictions | null = null;
    if (label && head.header.includes(label.column)) {
      try {
        predictions = await model.predictCsv(blob, { label: label.column, signal: controller.signal });
      } catch (error) {
        // e.g. a missing label: the predictions still stand, without an evaluation.
        if (!(error instanceof DpMarginError) || error.code === "CANCELLED") throw error;
      }
    }
    predictions ??= await model.predictCsv(blob, { signal: controller.signal });
    const { scores, labels } = predictions;
    let positives = 0;
    for (let i = 0; i < labels.length; i++) positives += labels[i] > 0 ? 1 : 0;
    return {
      rows: scores.length,
      positives,
      // The CLI's format (`dpmargin predict`), written by the same package function.
      csv: predictionsCsv(predictions, label),
      preview: head.previewLines.map((line, i) => ({ line, score: scores[i], positive: labels[i] > 0 })),
      evaluation: predictions.truth ? evaluate(predictions) : null,
    };
  } finally {
    running.delete(id);
  }
}

function toWire(error: unknown): WorkerError {
  if (error instanceof DpMarginError) {
    return { code: error.code, message: error.message, ...(error.parameter ? { parameter: error.parameter } : {}) };
  }
  if (error instanceof RangeError) return { code: "OUT_OF_MEMORY", message: error.message };
  // A WebAssembly trap or abort leaves the instance in an undefined state (TOOLCHAIN.md).
  const fatal = error instanceof WebAssembly.RuntimeError || /Aborted\(/.test(String(error));
  return { code: "INTERNAL", message: String((error as Error)?.message ?? error), ...(fatal ? { fatal } : {}) };
}

async function handle(request: Request): Promise<unknown> {
  switch (request.type) {
    case "init": {
      const dp = await engine();
      const info: EngineInfo = { version: dp.version, options: dp.options };
      return info;
    }
    case "account": return (await engine()).account(request.options);
    case "plan-for": return (await engine()).planFor(request.options, request.table);
    case "load": return loadTable(request.id, request.source);
    case "train": return train(request.id, request.request);
    case "cancel": {
      const controller = running.get(request.target);
      controller?.abort();
      return { cancelled: controller !== undefined };
    }
    case "model": return (await engine()).modelFromJSON(request.json).toJSON();
    case "predict": return predict(request.id, request.model, request.source);
    case "profile": return profile(request.id, request.request);
    default: throw new DpMarginError("BAD_PARAMETER", `unknown request ${(request as { type: string }).type}`);
  }
}

self.onmessage = async (event: MessageEvent<Request>) => {
  const request = event.data;
  try {
    post({ id: request.id, type: "result", value: await handle(request) });
  } catch (error) {
    const wire = toWire(error);
    if (wire.code === "WASM_LOAD") instance = null;  // allow a retry
    post({ id: request.id, type: "error", error: wire });
  }
};
