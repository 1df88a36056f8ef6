// The margin profile (SPEC §2.8): a local, NOT differentially private diagnostic of how far the
// data is from being linearly separable with a large margin — the paper's removal–margin
// experiment. Runs in chunks with progress and cancellation, like training.
import type { CoreDataset, CoreModule, CoreProfileResult } from "./wasm/dpmargin_core.mjs";
import { badParameter } from "./errors.js";
import { unwrap } from "./status.js";
import { rejectUnknown, requireObject, numberOption } from "./options.js";
import { resolvePreprocessing, toCoreDataset, type PreprocessingOptions, type TrainingData } from "./data.js";
import type { CsvSource } from "./csv_source.js";
import type { CsvReadOptions } from "./csv_columns.js";
import type { TableSchema } from "./csv.js";
import { readCsvToCore } from "./csv_core.js";
import { cancelled, now, runChunked } from "./chunked.js";

export interface ProfileOptions extends Omit<PreprocessingOptions, "columnRanges"> {
  /** Largest fraction of rows to remove, in (0, 1) (default 0.05). The grid is 0, 0.05%, 0.1%,
   *  0.2%, 0.3%, 0.5%, 0.75%, 1%, 1.5%, 2%, 3%, 4%, 5%, cut at (and ending with) this value. */
  maxRemoved?: number;
  /** Soft-margin C on unit-norm rows while the data is not separable (default 1000). */
  C?: number;
  /** Refits between consecutive grid points (default 3). */
  maxRefitsPerStep?: number;
  onProgress?: (p: ProfileProgress) => void;
  signal?: AbortSignal;
}

export interface ProfileProgress {
  /** Grid points done, of `gridSize`. */
  gridDone: number;
  gridSize: number;
  removed: number;
  n: number;
  fits: number;
  /** Normalized margin of the last fit. */
  lastMargin: number;
  fraction: number;
  elapsedMs: number;
}

export interface ProfilePoint {
  /** Fraction of rows removed so far. */
  fraction: number;
  removed: number;
  /** Normalized margin max{min yᵢ⟨w, xᵢ⟩/(‖xᵢ‖‖w‖), 0} of the SVM fit on the remaining rows. */
  margin: number;
  /** The minimum before clamping at 0 (negative: not separated). */
  minimumMargin: number;
  /** A point of the requested grid (false: an intermediate refit). */
  onGrid: boolean;
  hardMargin: boolean;
  converged: boolean;
}

/** The removal–margin curve. `private: false`: it reads every row and is never released. */
export interface MarginProfile {
  private: false;
  note: string;
  n: number;
  zeroRows: number;
  separable: boolean;
  /** First fraction at which the remaining rows were separable, or null. */
  firstSeparableFraction: number | null;
  firstSeparableRemoved: number;
  fits: number;
  allConverged: boolean;
  curve: ProfilePoint[];
  elapsedMs: number;
}

const PROFILE_OPTIONS = new Set([
  "maxRemoved", "C", "maxRefitsPerStep", "onProgress", "signal", "intercept", "rowNormalization",
  "normBound",
]);

function check(options: ProfileOptions) {
  const o = requireObject(options ?? {}, "options");
  rejectUnknown(o, PROFILE_OPTIONS);
  if (o.onProgress !== undefined && typeof o.onProgress !== "function") throw badParameter("onProgress", "a function", o.onProgress);
  return {
    o,
    pre: { ...resolvePreprocessing(o), columnRanges: null },
    maxRemoved: numberOption(o, "maxRemoved", 0.05),
    C: numberOption(o, "C", 1000),
    maxRefitsPerStep: numberOption(o, "maxRefitsPerStep", 3),
  };
}

async function run(core: CoreModule, dataset: CoreDataset, options: ProfileOptions,
  c: ReturnType<typeof check>, started: number): Promise<MarginProfile> {
  const profiler = new core.Profiler();
  try {
    unwrap(profiler.start(dataset, c.maxRemoved, c.C, c.maxRefitsPerStep));
    await runChunked((budget) => unwrap(profiler.advance(budget)), (done) => {
      if (!options.onProgress) return;
      const p = profiler.progress();
      options.onProgress({ ...p, fraction: done ? 1 : p.gridDone / Math.max(p.gridSize, 1), elapsedMs: now() - started });
    }, options.signal, "the margin profile", 10_000);
    const r: CoreProfileResult = unwrap(profiler.result());
    return {
      ...r,
      firstSeparableFraction: Number.isNaN(r.firstSeparableFraction) ? null : r.firstSeparableFraction,
      elapsedMs: now() - started,
    };
  } finally {
    profiler.release();
    profiler.delete();
  }
}

/** Profile a numeric table (labels 1 / 0 or ±1). Not private: for the user's own eyes. */
export async function profileMargins(core: CoreModule, data: TrainingData, options: ProfileOptions = {}): Promise<MarginProfile> {
  const started = now();
  const c = check(options);
  const d = requireObject(data, "data");
  if (options.signal?.aborted) throw cancelled("the margin profile");
  const dataset = toCoreDataset(core, d.features as ArrayLike<number>, d.columns as number, d.labels as ArrayLike<number>, c.pre);
  try {
    return await run(core, dataset, options, c, started);
  } finally {
    dataset.release();
    dataset.delete();
  }
}

/** Profile a CSV (streamed straight into wasm memory). Not private. */
export async function profileCsv(core: CoreModule, source: CsvSource, csv: CsvReadOptions & { label: string },
  options: ProfileOptions = {}): Promise<MarginProfile & { table: TableSchema }> {
  const started = now();
  const c = check(options);
  if (options.signal?.aborted) throw cancelled("the margin profile");
  const { dataset, table } = await readCsvToCore(core, source, { ...csv, requireBothClasses: true }, c.pre);
  try {
    return { ...(await run(core, dataset, options, c, started)), table };
  } finally {
    dataset.release();
    dataset.delete();
  }
}
