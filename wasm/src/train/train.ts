import type { CoreDataset, CoreModule, CoreTrainer, PlanInputRaw } from "./wasm/dpmargin_core.mjs";
import { DpMarginError, badParameter } from "./errors.js";
import { unwrap } from "./status.js";
import { PLAN_OPTION_NAMES, planInput, rejectUnknown, requireObject } from "./options.js";
import {
  resolvePreprocessing, toCoreDataset, type PreprocessingOptions, type ResolvedPreprocessing, type TrainingData,
} from "./data.js";
import type { CsvSource } from "./csv_source.js";
import type { CsvReadOptions } from "./csv_columns.js";
import type { TableSchema } from "./csv.js";
import { readCsvToCore } from "./csv_core.js";
import type { AccountOptions, Plan } from "./types.js";
import { Model } from "./model.js";
import { LIBRARY_VERSION } from "./version.js";
import { cancelled, now, runChunked } from "./chunked.js";
import { MAX_WORKERS, trainOnShards, type ShardHost } from "./sharded.js";

/** Training progress, emitted between chunks of iterations. */
export interface TrainProgress {
  /** Base runs completed so far. */
  run: number;
  /** Number of base runs: the grid size (iter), K (privtune) or 1 (fixed). */
  runs: number;
  /** Base runs advancing together (unprojected candidates train in one batch). */
  batch: number;
  /** Grid index of the margin being trained (the first of a batch), and its γ. */
  candidate: number;
  gamma: number;
  /** Noisy-GD iteration within the run, of `iterations`. */
  iteration: number;
  iterations: number;
  /** Overall fraction done in [0, 1] (by iterations; PrivTune's later runs are estimated). */
  fraction: number;
  elapsedMs: number;
}

/** Options of `train()`: the privacy budget, the method, preprocessing, and control. */
export interface TrainOptions extends Omit<AccountOptions, "n" | "d">, PreprocessingOptions {
  /** Output iterate of noisy GD: "average" (default, the paper's) or "last". */
  output?: "average" | "last";
  /** Margin γ of the fixed-margin learner (selector "fixed" only). */
  margin?: number;
  /** Deterministic run for tests and demos: NOT private (every output says `seeded: true`). */
  seed?: number;
  /**
   * Threads holding the rows (default 1: train in the calling thread). With N ≥ 2 (at most 8)
   * the prepared rows are split into N contiguous shards held by N worker threads (Web Workers
   * in browsers, worker_threads in Node); per iteration each returns its partial gradient sum
   * and this thread adds them and the noise once. Same mechanism, same privacy; seeded runs
   * equal the one-thread run up to the order of floating-point additions (docs/SHARDING.md).
   */
  workers?: number;
  onProgress?: (progress: TrainProgress) => void;
  signal?: AbortSignal;
}

/** One margin candidate in the released selection record (SPEC §2.7). */
export interface CandidateReport {
  gamma: number;
  k: number;
  projected: boolean;
  T: number;
  capped: boolean;
  sigma: number;
  /** Noisy score released by Iter (NaN for the fixed-margin learner). */
  noisyScore: number;
}

/** What a training run released, and how it was accounted (SPEC §5.2). */
export interface TrainReport {
  selectedMargin: number;
  selectedK: number;
  selectedProjected: boolean;
  epsilon: number;
  delta: number;
  mu: number;
  /** μ of the private column ranges (0: none) and of training; μ² = μ_ranges² + μ_train². */
  muRanges: number;
  muTrain: number;
  /** Column ranges used for min–max scaling ([lo, hi] per feature), null when none; released
   *  with the model (private when `rangesPrivate`). */
  columnRanges: [number, number][] | null;
  rangesPrivate: boolean;
  muRun: number;
  scoreSd: number;
  epsilonSpent: number;
  neighbouring: "replace-one";
  calibration: Plan["calibration"];
  selector: Plan["selector"];
  score: Plan["score"];
  output: "average" | "last";
  maxIterations: number;
  /** Utility-only public choices (docs/ACCURACY.md): D of the step size, hinge-scale
   *  multiplier, pruning applied and its ratio, and the margins it dropped before training. */
  stepScale: number;
  hingeScale: number;
  pruning: Plan["pruning"];
  pruneRatio: number;
  pruned: number[];
  n: number;
  /** Columns the model sees (features + intercept). */
  d: number;
  /** Iter: every candidate with its noisy score; PrivTune: the selected one only. */
  candidates: CandidateReport[];
  /** Number of base runs (K for PrivTune, which may be released). */
  runs: number;
  seeded: boolean;
  /** Present when seeded: outputs of a seeded run are not differentially private. */
  warning?: string;
  elapsedMs: number;
  library: string;
}

export interface TrainResult {
  model: Model;
  report: TrainReport;
}

export const SEEDED_WARNING = "not private: seeded (deterministic noise; for tests and demos only)";

const TRAIN_OPTIONS = new Set<string>([
  ...PLAN_OPTION_NAMES, "output", "seed", "workers", "onProgress", "signal", "intercept",
  "rowNormalization", "columnRanges",
]);

interface TrainSetup {
  started: number;
  pre: ResolvedPreprocessing;
  output: "average" | "last";
  seed: number | undefined;
  workers: number;
  onProgress: ((progress: TrainProgress) => void) | undefined;
  signal: AbortSignal | undefined;
  input: PlanInputRaw;
}

// Everything about the options that can be checked before any data is read.
function setup(options: TrainOptions): TrainSetup {
  const started = now();
  const o = requireObject(options, "options");
  rejectUnknown(o, TRAIN_OPTIONS);
  const pre = resolvePreprocessing(o);
  // The released iterate: last with tight calibration, the paper's average with "paper"
  // (docs/ACCURACY.md; the core's plan::defaultOutputName, checked by a test).
  const output = o.output ?? (o.calibration === "paper" ? "average" : "last");
  if (output !== "average" && output !== "last") throw badParameter("output", 'one of "average", "last"', output);
  const seed = o.seed;
  if (seed !== undefined && (typeof seed !== "number" || !Number.isSafeInteger(seed) || seed < 0)) {
    throw badParameter("seed", "a non-negative safe integer", seed);
  }
  const workers = o.workers ?? 1;
  if (typeof workers !== "number" || !Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS) {
    throw badParameter("workers", `an integer from 1 to ${MAX_WORKERS}`, workers);
  }
  const onProgress = o.onProgress;
  if (onProgress !== undefined && typeof onProgress !== "function") throw badParameter("onProgress", "a function", onProgress);
  const signal = o.signal as AbortSignal | undefined;
  if (signal !== undefined && (typeof signal !== "object" || signal === null || typeof signal.aborted !== "boolean")) {
    throw badParameter("signal", "an AbortSignal", signal);
  }
  const input = planInput({ ...o, normBound: pre.normBound }, 2, 1, (pre.columnRanges?.length ?? 0) > 0);
  return {
    started, pre, output: output as TrainSetup["output"], seed: seed as number | undefined, workers,
    onProgress: onProgress as TrainSetup["onProgress"], signal, input,
  };
}

export async function train(core: CoreModule, data: TrainingData, options: TrainOptions,
  host?: ShardHost): Promise<TrainResult> {
  const s = setup(options);
  const d = requireObject(data, "data");
  const featureNames = d.featureNames as string[] | undefined;
  const columns = d.columns as number;
  if (featureNames !== undefined && (!Array.isArray(featureNames) || featureNames.length !== columns)) {
    throw badParameter("featureNames", `an array of ${columns} names`, featureNames);
  }
  if (s.signal?.aborted) throw cancelled("training");
  const dataset = toCoreDataset(core, d.features as ArrayLike<number>, columns,
    d.labels as ArrayLike<number>, s.pre);
  try {
    return await run(core, dataset, s, columns, featureNames, host);
  } finally {
    dataset.release();
    dataset.delete();
  }
}

/** What `trainCsv` returns: the model and report of `train`, and what was read. */
export interface CsvTrainResult extends TrainResult {
  table: TableSchema;
}

export async function trainCsv(core: CoreModule, source: CsvSource, csv: CsvReadOptions,
  options: TrainOptions, host?: ShardHost): Promise<CsvTrainResult> {
  const s = setup(options);
  const c = requireObject(csv, "csv");
  if (typeof c.label !== "string") throw badParameter("label", "a column name (training needs a label column)", c.label);
  if (c.requireBothClasses !== undefined && c.requireBothClasses !== true) {
    throw badParameter("requireBothClasses", "true or omitted (training needs both classes and n >= 2)", c.requireBothClasses);
  }
  if (s.signal?.aborted) throw cancelled("training");
  const { dataset, table } = await readCsvToCore(core, source, { ...c, signal: (c.signal as AbortSignal | undefined) ?? s.signal }, s.pre);
  try {
    const result = await run(core, dataset, s, table.featureNames.length, table.featureNames, host);
    return { model: result.model.withLabel(table.label), report: result.report, table };
  } finally {
    dataset.release();
    dataset.delete();
  }
}

async function run(core: CoreModule, dataset: CoreDataset, s: TrainSetup, columns: number,
  featureNames: string[] | undefined, host: ShardHost | undefined): Promise<TrainResult> {
  const { started, pre, output, seed, workers, onProgress, signal, input } = s;
  if (workers > 1 && !host) {
    throw new DpMarginError("BAD_PARAMETER", "workers > 1 needs worker threads, which this module cannot start", "workers");
  }
  let trainer: CoreTrainer | null = null;
  try {
    trainer = new core.Trainer();
    const plan = unwrap(trainer.start(dataset, input, output, seed ?? -1)) as Plan;
    const t = trainer;
    const afterChunk = (done: boolean) => {
      if (!onProgress) return;
      const p = t.progress();
      onProgress({
        run: p.run, runs: p.runs, batch: p.batch, candidate: p.candidate,
        gamma: plan.candidates[p.candidate].gamma, iteration: p.iteration, iterations: p.iterations,
        fraction: done ? 1 : Math.min(1, p.workDone / Math.max(p.workTotal, 1)),
        elapsedMs: now() - started,
      });
    };
    if (workers > 1) {
      await trainOnShards(core, t, dataset, workers, host!, afterChunk, signal);
    } else {
      await runChunked((budget) => unwrap(t.advance(budget)), afterChunk, signal, "training");
    }
    const result = unwrap(trainer.result());
    const finalPlan = result.plan as Plan;
    const selected = finalPlan.candidates[result.selectedCandidate];
    const released = finalPlan.selector === "privtune"
      ? [result.runs[result.selectedRun]]
      : result.runs;
    const candidates: CandidateReport[] = released.map((run) => {
      const c = finalPlan.candidates[run.candidate];
      return { gamma: c.gamma, k: c.k, projected: c.projected, T: c.T, capped: c.capped, sigma: c.sigma, noisyScore: run.noisyScore };
    });
    const report: TrainReport = {
      selectedMargin: selected.gamma,
      selectedK: selected.k,
      selectedProjected: selected.projected,
      epsilon: finalPlan.epsilon,
      delta: finalPlan.delta,
      mu: finalPlan.mu,
      muRanges: finalPlan.muRanges,
      muTrain: finalPlan.muTrain,
      columnRanges: result.columnRanges.length ? result.columnRanges : null,
      rangesPrivate: result.rangesPrivate,
      muRun: finalPlan.muRun,
      scoreSd: finalPlan.scoreSd,
      epsilonSpent: finalPlan.epsilonSpent,
      neighbouring: "replace-one",
      calibration: finalPlan.calibration,
      selector: finalPlan.selector,
      score: finalPlan.score,
      output: output as "average" | "last",
      maxIterations: finalPlan.maxIterations,
      stepScale: finalPlan.stepScale,
      hingeScale: finalPlan.hingeScale,
      pruning: finalPlan.pruning,
      pruneRatio: finalPlan.pruneRatio,
      pruned: finalPlan.pruned,
      n: finalPlan.n,
      d: finalPlan.d,
      candidates,
      runs: result.runs.length,
      seeded: result.seeded,
      ...(result.seeded ? { warning: SEEDED_WARNING } : {}),
      elapsedMs: now() - started,
      library: LIBRARY_VERSION,
    };
    const model = Model.fromTraining(core, {
      weights: result.weights, columns, featureNames, report,
      preprocessing: { ...pre, columnRanges: report.columnRanges },
    });
    return { model, report };
  } finally {
    trainer?.release();
    trainer?.delete();
  }
}
