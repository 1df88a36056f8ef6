// The engine: the wasm module, the loaded file and training all live in this worker, so the
// page stays responsive. Everything goes through the package's public API: its streaming CSV
// reader (a column summary for the preview; trainCsv/predictCsv/profileCsv read the file again,
// straight into wasm memory; the training rows are evaluated where trainCsv holds them, not read
// again), train's onPlan/onProgress events and AbortSignal support. With "Workers: 2" this
// worker coordinates and the package starts two nested shard workers (docs/reference/SHARDING.md).
// Protocol in protocol.ts: each request gets zero or more events and then one "result" or
// "error" ({code, message, …}); no exception escapes as an uncaught error.
import {
  load, DpMarginError, checkReleased, evaluate, isImbalanced, noBetterThanMajority, predictionsCsv, multiclassPredictionsCsv,
  type AnyModelFile, type CsvPredictions, type DpMargin, type LedgerFile, type Model, type MulticlassModelFile,
  type ModelFile, type TrainingPredictionsOf, type TrainReport,
} from "dpmargin";
import { splitRows } from "./split.ts";
import { sha256OfBlob } from "./hash.ts";
import type {
  CsvPreview, Evaluation, EngineInfo, LedgerSummary, MarginProfile, PredictOutcome, PreviewRequest, ProfileRequest,
  ReleasedRecord, Reply, Request, Source, TableSummary, TrainOutcome, TrainRequest, WireTrainOptions, WorkerError,
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
    // Nothing declared: what the core proposes (the label only when a header name says so) and
    // how it would decide every column; the local facts for the user's eyes.
    const s = await dp.previewCsv(blob, {
      previewRows: PREVIEW_ROWS, signal: controller.signal,
      onProgress: (p) => post({ id, type: "load-progress", progress: { bytes: p.bytes, totalBytes: p.totalBytes ?? blob.size, rows: p.rows } }),
    });
    let sha256: string;
    try {
      sha256 = await sha256OfBlob(blob, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw new DpMarginError("CANCELLED", "reading the CSV was cancelled");
      throw error;
    }
    const summary: TableSummary = {
      name: source.name, bytes: blob.size, rows: s.rows, delimiter: s.delimiter, header: s.header,
      columns: s.columns.map((c) => c.local), preview: s.local.preview, previewLines: s.local.previewLines,
      parseMs: performance.now() - started, proposal: s, sha256,
    };
    table = { blob, summary };
    return summary;
  } finally {
    running.delete(id);
  }
}

/** The core's preview of a run on the loaded table with the user's declarations and options,
 *  on the training rows of the held-out split (the rows trainCsv will read). */
async function previewTable(id: number, request: PreviewRequest): Promise<CsvPreview> {
  if (!table) throw new DpMarginError("BAD_PARAMETER", "load a CSV file first");
  const dp = await engine();
  const { blob, summary } = table;
  // An invalid split (e.g. an empty seed) is the train request's error; preview all rows then.
  const valid = Number.isSafeInteger(request.splitSeed) && request.splitSeed >= 0 && request.testFraction >= 0 && request.testFraction < 1;
  const split = valid ? splitRows(summary.rows, request.testFraction, request.splitSeed) : null;
  const controller = cancellable(id);
  try {
    return await dp.previewCsv(blob, {
      schema: request.schema, ...(split && split.test.length > 0 ? { rows: split.train } : {}),
      previewRows: 0, maxValues: 50, signal: controller.signal,
    }, request.options);
  } finally {
    running.delete(id);
  }
}

/** Accuracy and confusion counts of predictions against the truth, over `classes` (actual/
 *  predicted indices; −1 for an actual value that is none of them); the yardsticks (majority
 *  rate, balanced accuracy, F1, ROC AUC and curve) come from the package's `evaluate`, passed in
 *  as `y`. Local, not private. */
function evaluateCodes(truth: ArrayLike<number>, predicted: ArrayLike<number>, classes: string[],
  y: ReturnType<typeof evaluate>, majorityName: string): Evaluation {
  const K = classes.length;
  const other = Array.from(truth).some((t) => t < 0);
  const names = other ? [...classes, "(other)"] : [...classes];
  const confusion = names.map(() => new Array<number>(K).fill(0));
  let correct = 0;
  for (let i = 0; i < truth.length; i++) {
    const a = truth[i] < 0 ? K : truth[i];
    confusion[a][predicted[i]]++;
    if (truth[i] === predicted[i]) correct++;
  }
  const rows = truth.length;
  const support = confusion.map((r) => r.reduce((x, y) => x + y, 0));
  const perClass = classes.map((c, k) => {
    const tp = confusion[k][k];
    const predictedK = confusion.reduce((x, r) => x + r[k], 0);
    const recall = support[k] ? tp / support[k] : Number.NaN;
    const precision = predictedK ? tp / predictedK : Number.NaN;
    const f1 = tp === 0 ? 0 : (2 * tp) / (support[k] + predictedK);
    return { class: c, support: support[k], recall, precision, f1 };
  });
  return {
    rows, accuracy: rows ? correct / rows : Number.NaN, classes: names, confusion,
    majorityRate: y.majorityRate, majorityClass: majorityName,
    imbalanced: isImbalanced(y), noBetterThanMajority: noBetterThanMajority(y),
    // Binary: F1 of the positive class; multiclass: macro F1 (0 where undefined, as before).
    balancedAccuracy: y.balancedAccuracy, f1: y.f1 ?? 0, perClass,
    rocAuc: y.rocAuc, rocAucPerClass: y.rocAucPerClass, roc: y.roc,
  };
}

/** A binary model: class 0 is the positive class, class 1 "not positive". */
function evaluateBinary(scores: Float64Array, truth: Int8Array, labels: Int8Array, positive: string): Evaluation {
  const y = evaluate(scores, truth, { predicted: labels });
  const t = Array.from(truth, (v) => (v > 0 ? 0 : 1));
  const p = Array.from(labels, (v) => (v > 0 ? 0 : 1));
  return evaluateCodes(t, p, [positive, `not ${positive}`], y, y.majorityClass > 0 ? positive : `not ${positive}`);
}

/** A multiclass model: class indices (−1: a value that is none of the classes). */
function evaluateMulticlass(scores: Float64Array, truth: ArrayLike<number>, labels: ArrayLike<number>, classes: string[]): Evaluation {
  const y = evaluate(scores, truth, { classes: classes.length, predicted: labels });
  return evaluateCodes(truth, labels, classes, y, y.majorityClass >= 0 ? classes[y.majorityClass] : "(other)");
}

const isMulticlass = (m: AnyModelFile): m is MulticlassModelFile => m.version !== 1 && Array.isArray(m.weights[0]);

/** The predictions of `model` on its own training rows (trainCsv's `trainingPredictions`:
 *  scored in the module, no second read of the file), evaluated against their labels. */
function evaluateTraining(model: Model, p: TrainingPredictionsOf<AnyModelFile>): Evaluation {
  const file = model.toJSON() as AnyModelFile;
  if (isMulticlass(file)) return evaluateMulticlass(p.scores, p.truth, p.labels, file.label.classes);
  return evaluateBinary(p.scores, p.truth as Int8Array, p.labels as Int8Array, (file as ModelFile).label!.positive);
}

/** Predictions of `model` on rows of `blob`, evaluated against its label column. */
async function evaluateModel(model: Model, blob: Blob, options: { label: string; rows?: ArrayLike<number>; signal: AbortSignal }): Promise<Evaluation> {
  const file = model.toJSON() as AnyModelFile;
  if (isMulticlass(file)) {
    const p = await (model as unknown as Model<MulticlassModelFile>).predictCsv(blob, options);
    return evaluateMulticlass(p.scores, p.truth!, p.labels, file.label.classes);
  }
  const positive = (file as ModelFile).label!.positive;
  const p = await (model as Model<ModelFile>).predictCsv(blob, { ...options, positive });
  return evaluateBinary(p.scores, p.truth!, p.labels, positive);
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
  const csv = { schema: request.schema, ...(held ? { rows: split.train } : {}) };
  // The file's ledger, as the package keeps it: trainCsv records the run before its first noise
  // (the CLI's --ledger does the same), so a run cancelled or failed afterwards stays recorded.
  const ledger = request.ledger ? dp.ledgerFromJSON(request.ledger) : undefined;
  const recorded = ledger?.runs.length ?? 0;
  const controller = cancellable(id);
  try {
    const { model, report, local, trainingPredictions, table: read } = await dp.trainCsv(blob, csv, {
      ...request.options,
      ...(ledger ? { ledger } : {}),
      // The training rows scored where they are (this module, or the shard workers with
      // "Workers: 2") before they are freed: no second read of the file.
      trainingPredictions: true,
      signal: controller.signal,
      onPlan: (plan) => post({ id, type: "started", plan }),
      onProgress: (progress) => post({ id, type: "progress", progress }),
    });
    // Evaluation on the user's own rows: local, not private. The label column is the run's
    // (the user's, or the one the core proposed by its header name).
    const label = read.label!.column;
    const onTrain = evaluateTraining(model as Model, trainingPredictions!);
    const onTest = held ? await evaluateModel(model as Model, blob, { label, signal: controller.signal, rows: split.test }) : null;
    const file = model.toJSON() as AnyModelFile;
    return {
      report,
      released: releasedRecord(report, file),
      local,
      model: file,
      train: onTrain,
      test: onTest,
      split: {
        rows: n, trainRows: onTrain.rows, testRows: onTest?.rows ?? 0,
        testFraction: request.testFraction, seed: request.splitSeed,
      },
      labelOutside: read.labelOutside,
    };
  } finally {
    running.delete(id);
    // Before the result or the error: the page stores the ledger whatever the outcome.
    if (ledger && ledger.runs.length > recorded) post({ id, type: "ledger", ledger: ledger.toJSON() });
  }
}

/** The package's composition of a file's ledger, and the total with one more run of `next`'s
 *  options (planned for the table's shape: `dp.planFor`). Nothing is recorded. */
async function ledgerTotal(file: LedgerFile, next?: { options: WireTrainOptions; table: { rows: number; features: number } }): Promise<LedgerSummary> {
  const dp = await engine();
  const ledger = dp.ledgerFromJSON(file);
  let plan = null;
  if (next) {
    try {
      plan = dp.planFor(next.options, next.table);
    } catch (error) {
      if (!(error instanceof DpMarginError)) throw error;  // options the run would refuse: no preview
    }
  }
  return {
    total: ledger.total,
    next: plan ? { epsilon: plan.epsilon, delta: plan.delta, selector: plan.selector } : null,
    after: plan ? ledger.preview(plan) : null,
  };
}

/** What the run publishes, checked against the package's list of released fields: the model
 *  file (the model download) and the report; the privacy report gets the report and the model
 *  file without its weights (INTERNAL, never a download, if a field is not listed). */
function releasedRecord(report: TrainReport, file: AnyModelFile): ReleasedRecord {
  checkReleased("model", file);
  const { weights: _w, intercept: _i, selection: _s, ...header } = file;
  void _w; void _i; void _s;
  return { report: checkReleased("report", report), model: checkReleased("model", header) as ReleasedRecord["model"] };
}

/** The margin profile of the loaded table: NOT private (the package says `private: false`). */
async function profile(id: number, request: ProfileRequest): Promise<MarginProfile> {
  if (!table) throw new DpMarginError("BAD_PARAMETER", "load a CSV file first");
  const dp = await engine();
  const controller = cancellable(id);
  try {
    const { table: _t, ...result } = await dp.profileCsv(table.blob, { schema: request.schema },
      {
        maxRemoved: request.maxRemoved, intercept: request.intercept, signal: controller.signal,
        ...(request.epsilon !== undefined && request.delta !== undefined ? { epsilon: request.epsilon, delta: request.delta } : {}),
        onProgress: (progress) => post({ id, type: "profile-progress", progress }),
      });
    void _t;
    return result;
  } finally {
    running.delete(id);
  }
}

/** The last binary predictions (the Predict tab's file), kept so that moving the decision
 *  threshold re-decides them without reading the file again. */
let scored: {
  predictions: CsvPredictions; label: ModelFile["label"]; positive: string; previewLines: number[];
} | null = null;

/** A binary model's predictions decided at `threshold` (positive when score ≥ T; null: the
 *  model's own decision, score > 0), in the CLI's format (`dpmargin predict [--threshold T]`),
 *  with the yardsticks when the file has the label (the package's `evaluate`). */
function decide(threshold: number | null): PredictOutcome {
  const { predictions: p, label, positive, previewLines } = scored!;
  if (threshold !== null && !Number.isFinite(threshold)) {
    throw new DpMarginError("BAD_PARAMETER", `threshold must be a finite score, but is ${threshold}`, "threshold");
  }
  const labels = threshold === null ? p.labels : Int8Array.from(p.scores, (x) => (x >= threshold ? 1 : -1));
  let positives = 0, lo = Infinity, hi = -Infinity;
  for (let i = 0; i < labels.length; i++) {
    positives += labels[i] > 0 ? 1 : 0;
    lo = Math.min(lo, p.scores[i]);
    hi = Math.max(hi, p.scores[i]);
  }
  const decided = { ...p, labels };
  return {
    rows: p.scores.length,
    positives,
    classes: null,
    // The CLI's format, written by the same package function (a threshold column when one is set).
    csv: predictionsCsv(decided, label, threshold === null ? { rowIds: true } : { rowIds: true, threshold }),
    preview: previewLines.map((line, i) => ({ line, score: p.scores[i], positive: labels[i] > 0 })),
    evaluation: p.truth ? evaluateBinary(p.scores, p.truth, labels, positive) : null,
    threshold,
    scoreRange: labels.length ? [lo, hi] : null,
  };
}

async function predict(id: number, modelFile: AnyModelFile, source: Source, threshold: number | null): Promise<PredictOutcome> {
  const dp = await engine();
  const model = dp.modelFromJSON(modelFile);
  const file = model.toJSON();
  const blob = await blobOf(source);
  const controller = cancellable(id);
  scored = null;
  try {
    const head = await dp.summarizeCsv(blob, { previewRows: PREVIEW_ROWS, maxValues: 0, signal: controller.signal });
    const column = file.label?.column ?? null;
    const signal = controller.signal;
    // With the model's label column in the file: an evaluation too (a missing label: without).
    const labelled = async <T>(read: (withLabel: boolean) => Promise<T>): Promise<T> => {
      if (column !== null && head.header.includes(column)) {
        try {
          return await read(true);
        } catch (error) {
          if (!(error instanceof DpMarginError) || error.code === "CANCELLED") throw error;
        }
      }
      return read(false);
    };
    if (isMulticlass(file)) {
      const m = model as unknown as Model<MulticlassModelFile>;
      const p = await labelled((withLabel) => m.predictCsv(blob, withLabel ? { label: column!, signal } : { signal }));
      return {
        rows: p.predicted.length,
        positives: 0,
        classes: file.label.classes,
        csv: multiclassPredictionsCsv(p, column),
        preview: head.previewLines.map((line, i) => ({ line, score: Math.max(...p.scores.subarray(i * p.classes.length, (i + 1) * p.classes.length)), positive: false, predicted: p.predicted[i] })),
        evaluation: p.truth ? evaluateMulticlass(p.scores, p.truth, p.labels, file.label.classes) : null,
        threshold: null,
        scoreRange: null,
      };
    }
    const m = model as Model<ModelFile>;
    const label = (file as ModelFile).label;
    const predictions = await labelled((withLabel) => m.predictCsv(blob, withLabel ? { label: column!, signal } : { signal }));
    scored = { predictions, label, positive: label?.positive ?? "1", previewLines: head.previewLines };
    return decide(threshold);
  } finally {
    running.delete(id);
  }
}

/** The last binary predictions at another threshold (BAD_PARAMETER when there are none). */
function rethreshold(threshold: number | null): PredictOutcome {
  if (!scored) throw new DpMarginError("BAD_PARAMETER", "a decision threshold applies to the predictions of a binary model: predict a file first", "threshold");
  return decide(threshold);
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
    case "load": return loadTable(request.id, request.source);
    case "ledger-total": return ledgerTotal(request.ledger, request.next);
    case "preview": return previewTable(request.id, request.request);
    case "gdp-epsilon": return (await engine()).accounting.gdpEpsilon(request.mu, request.delta);
    case "train": return train(request.id, request.request);
    case "cancel": {
      const controller = running.get(request.target);
      controller?.abort();
      return { cancelled: controller !== undefined };
    }
    case "model": return (await engine()).modelFromJSON(request.json).toJSON();
    case "predict": return predict(request.id, request.model, request.source, request.threshold ?? null);
    case "predict-threshold": return rethreshold(request.threshold);
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
