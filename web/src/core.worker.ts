// The engine: the wasm module, the parsed table and training all live in this worker, so the
// page stays responsive. With "Workers: 2" this worker coordinates and the package starts two
// nested shard workers holding the training rows (docs/SHARDING.md).
// Protocol in protocol.ts: each request gets zero or more events
// ("started", "progress") and then one "result" or "error" ({code, message, …}); no exception
// escapes as an uncaught worker error. Training is cancelled through the package's AbortSignal
// support; the package yields between chunks of iterations, so "cancel" messages are handled
// while a run is in progress.
import { load, DpMarginError, type DpMargin, type Model, type ModelFile } from "dpmargin";
import { CsvError, buildTable, parseCsv, summarizeColumns, type NumericTable, type ParsedTable } from "./csv-adapter.ts";
import { splitRows } from "./split.ts";
import type {
  Evaluation, MarginProfile, PredictOutcome, ProfileRequest, Reply, Request, Source, TableSummary, TrainOutcome,
  TrainRequest, WorkerError,
} from "./protocol.ts";

const PREVIEW_ROWS = 8;

let instance: Promise<DpMargin> | null = null;
const engine = () => (instance ??= load());

/** The last table loaded with "load" (training reads it; predict parses its own file). */
let table: ParsedTable | null = null;
const running = new Map<number, AbortController>();

const post = (reply: Reply) => (self as unknown as Worker).postMessage(reply);

async function readSource(source: Source): Promise<{ text: string; bytes: number }> {
  if (source.kind === "file") {
    try {
      return { text: await source.file.text(), bytes: source.file.size };
    } catch (error) {
      throw new DpMarginError("OUT_OF_MEMORY",
        `cannot read ${JSON.stringify(source.name)} (${source.file.size} bytes) into memory: ${(error as Error).message}`);
    }
  }
  let response: Response;
  try {
    response = await fetch(source.url);
  } catch (error) {
    throw new DpMarginError("BAD_PARAMETER", `cannot fetch ${source.name} (offline?): ${(error as Error).message}`);
  }
  if (!response.ok) throw new DpMarginError("BAD_PARAMETER", `cannot fetch ${source.name}: HTTP ${response.status}`);
  const text = await response.text();
  return { text, bytes: text.length };
}

function parse(text: string): ParsedTable {
  try {
    return parseCsv(text);
  } catch (error) {
    if (error instanceof RangeError) {
      throw new DpMarginError("OUT_OF_MEMORY", `the file is too large to parse in this tab: ${error.message}`);
    }
    throw error;
  }
}

async function loadTable(source: Source): Promise<TableSummary> {
  const started = performance.now();
  const { text, bytes } = await readSource(source);
  const parsed = parse(text);
  table = parsed;
  const count = Math.min(PREVIEW_ROWS, parsed.rows.length);
  return {
    name: source.name,
    bytes,
    rows: parsed.rows.length,
    delimiter: parsed.delimiter,
    header: parsed.header,
    columns: summarizeColumns(parsed),
    preview: parsed.rows.slice(0, count),
    previewLines: Array.from(parsed.lines.subarray(0, count)),
    parseMs: performance.now() - started,
  };
}

/** Accuracy and confusion counts of `model` on `data` (local; not differentially private). */
function evaluate(model: Model, data: NumericTable): Evaluation {
  const { labels } = model.predict(data.features);
  const truth = data.labels!;
  let tp = 0, fp = 0, tn = 0, fn = 0;
  for (let i = 0; i < truth.length; i++) {
    if (labels[i] > 0) { if (truth[i] > 0) tp++; else fp++; }
    else if (truth[i] > 0) fn++;
    else tn++;
  }
  return {
    rows: truth.length, accuracy: (tp + tn) / truth.length,
    truePositive: tp, falsePositive: fp, trueNegative: tn, falseNegative: fn,
  };
}

/** The margin profile of the loaded table: NOT private (the package says `private: false`). */
async function profile(id: number, request: ProfileRequest): Promise<MarginProfile> {
  if (!table) throw new DpMarginError("BAD_PARAMETER", "load a CSV file first");
  const dp = await engine();
  const data = buildTable(table, { label: request.label, positive: request.positive, features: request.features });
  const controller = new AbortController();
  running.set(id, controller);
  try {
    return await dp.profileMargins(
      { features: data.features, columns: data.columns, labels: data.labels! },
      {
        maxRemoved: request.maxRemoved, intercept: request.intercept, signal: controller.signal,
        onProgress: (progress) => post({ id, type: "profile-progress", progress }),
      });
  } finally {
    running.delete(id);
  }
}

async function train(id: number, request: TrainRequest): Promise<TrainOutcome> {
  if (!table) throw new DpMarginError("BAD_PARAMETER", "load a CSV file first");
  const dp = await engine();
  const n = table.rows.length;
  const split = splitRows(n, request.testFraction, request.splitSeed);
  const choice = { label: request.label, positive: request.positive, features: request.features };
  // With no held-out rows the training table is the whole file in file order: the same table
  // `dpmargin train FILE` reads, so seeded runs match the CLI exactly.
  const trainData = buildTable(table, split.test.length ? { ...choice, rows: split.train } : choice);
  const testData = split.test.length
    ? buildTable(table, { ...choice, rows: split.test, requireBothClasses: false }) : null;
  const { output: _output, seed: _seed, intercept, rowNormalization: _r, columnRanges: _c, workers: _w, ...planOptions } = request.options;
  void _output; void _seed; void _r; void _c; void _w;
  const plan = dp.account({
    ...planOptions, n: trainData.rows, d: trainData.columns + (intercept === false ? 0 : 1),
  });
  post({ id, type: "started", plan });
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const { model, report } = await dp.train(
      { features: trainData.features, columns: trainData.columns, labels: trainData.labels!, featureNames: trainData.featureNames },
      {
        ...request.options,
        signal: controller.signal,
        onProgress: (progress) => post({ id, type: "progress", progress }),
      });
    const file: ModelFile = { ...model.toJSON(), label: trainData.label };
    return {
      report,
      model: file,
      train: evaluate(model, trainData),
      test: testData ? evaluate(model, testData) : null,
      split: {
        rows: n, trainRows: trainData.rows, testRows: testData?.rows ?? 0,
        testFraction: request.testFraction, seed: request.splitSeed,
      },
      plan,
    };
  } finally {
    running.delete(id);
  }
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function predict(modelFile: ModelFile, source: Source): Promise<PredictOutcome> {
  const dp = await engine();
  const model = dp.modelFromJSON(modelFile);
  const { text } = await readSource(source);
  const parsed = parse(text);
  const features = [...model.features];
  const data = buildTable(parsed, { features });
  const { scores, labels } = model.predict(data.features);
  const label = model.label;
  // The CLI's format (`dpmargin predict`), so files from the app and the CLI are interchangeable.
  const header = `score,${csvField(`${label?.column ?? "label"}=${label?.positive ?? "1"}`)}`;
  const lines = new Array<string>(scores.length + 1);
  lines[0] = header;
  let positives = 0;
  for (let i = 0; i < scores.length; i++) {
    lines[i + 1] = `${scores[i]},${labels[i] > 0 ? 1 : 0}`;
    positives += labels[i] > 0 ? 1 : 0;
  }
  let evaluation: Evaluation | null = null;
  if (label && parsed.header.includes(label.column)) {
    try {
      const truth = buildTable(parsed, { features, label: label.column, positive: label.positive, requireBothClasses: false });
      evaluation = evaluate(model, truth);
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;  // e.g. a missing label: predictions still stand
    }
  }
  return {
    rows: scores.length,
    positives,
    csv: lines.join("\n") + "\n",
    preview: Array.from({ length: Math.min(PREVIEW_ROWS, scores.length) },
      (_, i) => ({ line: parsed.lines[i], score: scores[i], positive: labels[i] > 0 })),
    evaluation,
  };
}

function toWire(error: unknown): WorkerError {
  if (error instanceof DpMarginError) {
    return { code: error.code, message: error.message, ...(error.parameter ? { parameter: error.parameter } : {}) };
  }
  if (error instanceof CsvError) {
    return {
      code: error.code, message: error.message,
      ...(error.line !== undefined ? { line: error.line } : {}),
      ...(error.column !== undefined ? { column: error.column } : {}),
      ...(error.parameter !== undefined ? { parameter: error.parameter } : {}),
    };
  }
  if (error instanceof RangeError) return { code: "OUT_OF_MEMORY", message: error.message };
  // A WebAssembly trap or abort leaves the instance in an undefined state (TOOLCHAIN.md).
  const fatal = error instanceof WebAssembly.RuntimeError || /Aborted\(/.test(String(error));
  return { code: "INTERNAL", message: String((error as Error)?.message ?? error), ...(fatal ? { fatal } : {}) };
}

async function handle(request: Request): Promise<unknown> {
  switch (request.type) {
    case "init": return { version: (await engine()).version };
    case "account": return (await engine()).account(request.options);
    case "load": return loadTable(request.source);
    case "train": return train(request.id, request.request);
    case "cancel": {
      const controller = running.get(request.target);
      controller?.abort();
      return { cancelled: controller !== undefined };
    }
    case "model": return (await engine()).modelFromJSON(request.json).toJSON();
    case "predict": return predict(request.model, request.source);
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
