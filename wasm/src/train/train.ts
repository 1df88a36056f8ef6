// train() and trainCsv(): data into a core Dataset, the core resolves the run (run::resolve:
// every default, every check) and reports its plan before the first iteration, then the
// Trainer runs in chunks — here, or driving shards in worker threads — and the report is built
// from what the core released.
import type { CoreDataset, CoreModule, CoreTrainer, CoreOptions, CoreTrainStart } from "../wasm/dpmargin_core.mjs";
import { DpMarginError, badParameter } from "../errors.js";
import { unwrap, dispose } from "../module/status.js";
import { coreOptions, optionalFunction, optionalSignal, requireObject } from "../options.js";
import { toCoreDataset, type TrainingData } from "./data.js";
import type { CsvSource } from "../csv/source.js";
import type { CsvReadOptions } from "../csv/options.js";
import { readTrainingTable, type TableInfo } from "../csv/table.js";
import type { LocalRunInfo, MethodOptions, Plan, PreprocessingOptions, TrainProgress, TrainReport } from "../types.js";
import { Model, type AnyModelFile, type ModelFile, type PredictionsOf, type TrainingPredictionsOf } from "../model/model.js";
import { buildLocal, buildReport } from "./report.js";
import { cancelled, now, runChunked } from "./chunked.js";
import { PrivacyLedger } from "../ledger/ledger.js";
import { MAX_WORKERS, ShardPool, startShards, trainOnShards, type ShardHost, type ShardPredictions } from "../shards/sharded.js";

/** Options of `train()`: the privacy budget, the method, preprocessing, and control. */
export interface TrainOptions extends MethodOptions, PreprocessingOptions {
  /** The released noisy-GD iterate (default "last" with calibration "tight", "average" with
   *  "paper"). */
  output?: "average" | "last";
  /** Deterministic run for tests and demos: NOT private (every output says `seeded: true`). */
  seed?: number;
  /**
   * Threads holding the rows (default 1: train in the calling thread). With N ≥ 2 (at most 8)
   * the prepared rows are split into N contiguous shards held by N worker threads (Web Workers
   * in browsers, worker_threads in Node); per iteration each returns its partial gradient sum
   * and this thread adds them and the noise once. Same mechanism, same privacy; seeded runs
   * equal the one-thread run up to the order of floating-point additions (docs/reference/SHARDING.md).
   */
  workers?: number;
  /** The resolved plan, once, before the first iteration (every default applied). */
  onPlan?: (plan: Plan) => void;
  /** A privacy ledger (`dp.ledger()`): the run is recorded in it before its first iteration,
   *  or refused with BUDGET_EXCEEDED when it would take the total beyond the ledger's cap. */
  ledger?: PrivacyLedger;
  /** Also return the model's predictions on its own training rows (`trainingPredictions` of
   *  the result): scored in the module before the rows are freed, so no second read of the
   *  data — what a training accuracy needs. Local, not private. Default false. */
  trainingPredictions?: boolean;
  onProgress?: (progress: TrainProgress) => void;
  signal?: AbortSignal;
}

export interface TrainResult<F extends AnyModelFile = ModelFile> {
  /** The released model and its report: exactly what the privacy accounting covers. */
  model: Model<F>;
  report: TrainReport;
  /** Not released, not private: run count and time, for the user's own eyes. */
  local: LocalRunInfo;
  /** Not released, not private: with the option `trainingPredictions`, the model's predictions
   *  on the rows it was trained on and their true labels — exactly `model.predictCsv` on the
   *  same rows (with `workers` ≥ 2 the shard workers score their rows before they stop). */
  trainingPredictions?: TrainingPredictionsOf<F>;
}

/** What `trainCsv` returns: the model and report of `train`, and what was read. */
export interface CsvTrainResult<F extends AnyModelFile = ModelFile> extends TrainResult<F> {
  table: TableInfo;
}

/** A multiclass label's class names: an array of distinct strings (the core checks the count). */
function classNames(value: unknown): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.length < 3 || !value.every((c) => typeof c === "string")
    || new Set(value).size !== value.length) {
    throw badParameter("classes", "an array of 3 to 50 distinct class names (a binary label needs none: labels 1 / 0)", value);
  }
  return [...value];
}

/** Options that live in JavaScript; every other one goes to the core. */
export const TRAIN_JS_ONLY = ["workers", "onPlan", "onProgress", "signal", "ledger", "trainingPredictions"] as const;

interface Control {
  started: number;
  /** The ledger has recorded the run already (before a CSV's discovery drew noise). */
  charged: boolean;
  workers: number;
  onPlan: ((plan: Plan) => void) | undefined;
  ledger: PrivacyLedger | undefined;
  trainingPredictions: boolean;
  onProgress: ((progress: TrainProgress) => void) | undefined;
  signal: AbortSignal | undefined;
  options: CoreOptions;
}

// Everything that can be checked before any data is read: the JavaScript-only options here,
// the rest by the core (the same checks as training's, on the smallest table).
function control(core: CoreModule, options: TrainOptions): Control {
  const started = now();
  const o = requireObject(options, "options");
  const workers = o.workers ?? 1;
  if (typeof workers !== "number" || !Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw badParameter("workers", `an integer from 1 to ${MAX_WORKERS}`, workers);
  }
  const trainingPredictions = o.trainingPredictions ?? false;
  if (typeof trainingPredictions !== "boolean") throw badParameter("trainingPredictions", "true or false", trainingPredictions);
  const c: Control = {
    started, workers, trainingPredictions, charged: false,
    onPlan: optionalFunction(o, "onPlan"),
    ledger: optionalLedger(o),
    onProgress: optionalFunction(o, "onProgress"),
    signal: optionalSignal(o),
    options: coreOptions(o, TRAIN_JS_ONLY),
  };
  unwrap(core.validateOptions(c.options));
  return c;
}

function optionalLedger(o: Record<string, unknown>): PrivacyLedger | undefined {
  if (o.ledger === undefined) return undefined;
  if (!(o.ledger instanceof PrivacyLedger)) throw badParameter("ledger", "a PrivacyLedger (dp.ledger())", o.ledger);
  return o.ledger;
}

/** With workers ≥ 2, the shard workers, started now: their start overlaps reading and preparing
 *  the data (a failure before training terminates them). */
function shardPool(c: Control, host: ShardHost | undefined): ShardPool | null {
  if (c.workers <= 1) return null;
  if (!host) {
    throw new DpMarginError("BAD_PARAMETER", "workers > 1 needs worker threads, which this module cannot start", "workers");
  }
  return startShards(c.workers, host);
}

export async function train(core: CoreModule, data: TrainingData, options: TrainOptions,
  host?: ShardHost): Promise<TrainResult<AnyModelFile>> {
  const c = control(core, options);
  const d = requireObject(data, "data");
  const featureNames = d.featureNames as string[] | undefined;
  const columns = d.columns as number;
  if (featureNames !== undefined && (!Array.isArray(featureNames) || featureNames.length !== columns)) {
    throw badParameter("featureNames", `an array of ${columns} names`, featureNames);
  }
  const classes = classNames(d.classes);
  if (c.signal?.aborted) throw cancelled("training");
  const pool = shardPool(c, host);
  try {
    const dataset = toCoreDataset(core, d.features as ArrayLike<number>, columns, d.labels as ArrayLike<number>, true,
      classes?.length);
    try {
      // A multiclass label's truth: the class codes given (toCoreDataset checked them).
      return await run(core, dataset, c, columns, featureNames, pool, classes && { column: null, classes },
        undefined, null, () => d.labels as ArrayLike<number>);
    } finally {
      dispose(dataset);
    }
  } finally {
    pool?.terminate();
  }
}

export async function trainCsv(core: CoreModule, source: CsvSource, csv: CsvReadOptions,
  options: TrainOptions, host?: ShardHost): Promise<CsvTrainResult<AnyModelFile>> {
  const c = control(core, options);
  if (c.signal?.aborted) throw cancelled("training");
  const pool = shardPool(c, host);
  try {
    // With a ledger, the run is recorded before the first noise: before discovery when there is
    // one (BUDGET_EXCEEDED then stops it with nothing drawn), else from the plan below.
    const { run: csvRun, dataset, table } = await readTrainingTable(core, source, csv ?? {}, c.options, c.signal,
      c.ledger ? (budget) => { c.ledger!.charge(budget); c.charged = true; } : undefined);
    try {
      const label = table.label;
      const multiclass = label && label.classes.length >= 3 ? { column: label.column, classes: label.classes } : null;
      const result = await run(core, dataset, c, table.featureNames.length, table.featureNames, pool, multiclass,
        (trainer) => trainer.startRun(dataset, csvRun), {
          encoding: unwrap(csvRun.encoding()), schema: table.schema,
          label: label && !multiclass ? { column: label.column, positive: label.positive } : null,
        }, () => unwrap(csvRun.classCodes()));
      return { ...result, table };
    } finally {
      dispose(dataset);
      dispose(csvRun);
    }
  } finally {
    pool?.terminate();
  }
}

/** What a CSV run adds to the model file: how to read a table, and the label. */
interface TableRelease {
  encoding: Record<string, unknown>;
  schema: TableInfo["schema"];
  label: { column: string; positive: string } | null;
}

// The training predictions with their truth: a binary label's ±1 as read (copied before
// training), a multiclass one's class codes (−1: none of the model's classes, as predictCsv reads
// them; the dataset's labels hold only the current one-vs-rest problem's ±1).
function withTruth(model: Model<AnyModelFile>, predictions: PredictionsOf<AnyModelFile>, binary: Int8Array | null,
  codes: ArrayLike<number> | null): TrainingPredictionsOf<AnyModelFile> {
  if (codes === null) return { ...predictions, truth: binary! } as TrainingPredictionsOf<AnyModelFile>;
  const classes = model.classes!.length;
  const truth = Int32Array.from(codes, (k) => (k >= 0 && k < classes ? k : -1));
  return { ...predictions, truth } as TrainingPredictionsOf<AnyModelFile>;
}

// `multiclass`: a label of 3 or more classes (one-vs-rest), its column and class names;
// `classCodes`: its class code per row (the truth of the training predictions).
async function run(core: CoreModule, dataset: CoreDataset, c: Control, columns: number,
  featureNames: string[] | undefined, pool: ShardPool | null,
  multiclass: { column: string | null; classes: string[] } | null = null,
  begin: (trainer: CoreTrainer) => ReturnType<CoreTrainer["start"]> = (trainer) => trainer.start(dataset, c.options),
  table: TableRelease | null = null,
  classCodes: () => ArrayLike<number> = () => []): Promise<TrainResult<AnyModelFile>> {
  const { started, onPlan, onProgress, signal, ledger } = c;
  let trainer: CoreTrainer | null = null;
  try {
    trainer = new core.Trainer();
    const start: CoreTrainStart = unwrap(begin(trainer));
    const { plan } = start;
    if (!c.charged) ledger?.charge(plan);  // BUDGET_EXCEEDED before any iteration: nothing is released
    onPlan?.(plan);
    const t = trainer;
    // A binary label's ±1 as read (n bytes): the truth of the training predictions, kept before
    // shard workers take the rows and the dataset is released.
    const binaryTruth = c.trainingPredictions && !multiclass ? Int8Array.from(unwrap(dataset.labels())) : null;
    const afterChunk = (done: boolean) => {
      if (!onProgress) return;
      const p = unwrap(t.progress());
      onProgress({
        run: p.run, runs: p.runs, batch: p.batch, candidate: p.candidate,
        gamma: plan.candidates[p.candidate].gamma, iteration: p.iteration, iterations: p.iterations,
        fraction: done ? 1 : Math.min(1, p.workDone / Math.max(p.workTotal, 1)),
        elapsedMs: now() - started,
        problem: p.problem, problems: p.problems,
      });
    };
    // The release, built once training is done — with workers, before they stop, so that they
    // can score their rows with the model's weights.
    let released: TrainResult<AnyModelFile> | null = null;
    const release = (): TrainResult<AnyModelFile> => {
      if (released) return released;
      const result = unwrap(t.result());
      const report = buildReport(start, result, multiclass?.classes ?? null);
      // The joint multiclass model is one problem whose weights are K blocks (class after class).
      const K = multiclass?.classes.length ?? 0;
      const problems = plan.multiclass === "joint"
        ? Array.from({ length: K }, (_, k) => result.problems[0].weights.slice(k * (columns + (start.preprocessing.intercept ? 1 : 0)),
          (k + 1) * (columns + (start.preprocessing.intercept ? 1 : 0))))
        : result.problems.map((p) => p.weights);
      const model = Model.fromTraining(core, {
        problems, columns, featureNames, report, label: table?.label ?? null,
        encoding: table?.encoding, schema: table?.schema,
        preprocessing: {
          ...start.preprocessing, columnRanges: report.columnRanges,
          ...(report.columnScalings ? { columnMaps: report.columnScalings.map((s) => s.map) } : {}),
        },
        ...(multiclass ? { multiclass } : {}),
      });
      return (released = { model, report, local: buildLocal(result, now() - started) });
    };
    let sharded: ShardPredictions | null = null;
    if (pool) {
      sharded = await trainOnShards(core, t, dataset, pool, afterChunk, signal,
        c.trainingPredictions ? () => release().model.scoringWeights() : undefined);
    } else {
      await runChunked((budget) => unwrap(t.advance(budget)), afterChunk, signal, "training");
    }
    const { model, report, local } = release();
    if (!c.trainingPredictions) return { model, report, local };
    // Local, not private: the model's predictions of its training rows, scored where the rows
    // are — in this module before the caller frees them, or in the shard workers before they stop.
    const predictions = sharded ? model.predictionsFrom(sharded.scores, sharded.labels) : model.scorePrepared(dataset);
    return { model, report, local,
      trainingPredictions: withTruth(model, predictions, binaryTruth, multiclass ? classCodes() : null) };
  } finally {
    dispose(trainer);
  }
}
