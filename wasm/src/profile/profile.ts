// The margin profile (SPEC §2.8): a local, NOT differentially private diagnostic of how far the
// data is from being linearly separable with a large margin — the paper's removal–margin
// experiment. Runs in chunks with progress and cancellation, like training.
import type { CoreDataset, CoreModule, CoreOptions, CoreProfileAdvice, CoreProfileResult } from "../wasm/dpmargin_core.mjs";
import { dispose, unwrap } from "../module/status.js";
import { coreOptions, optionalFunction, optionalSignal, requireObject } from "../options.js";
import { toCoreDataset, type TrainingData } from "../train/data.js";
import type { CsvSource } from "../csv/source.js";
import type { CsvReadOptions } from "../csv/options.js";
import { readLocalTable, type TableInfo } from "../csv/table.js";
import type { PreprocessingOptions } from "../types.js";
import { cancelled, now, runChunked } from "../train/chunked.js";

/** Options of the margin profile; unset ones take the core's defaults. */
export interface ProfileOptions extends Omit<PreprocessingOptions, "columnRanges"> {
  /** Largest fraction of rows to remove, in (0, 1) (default 0.05). The grid is 0, 0.05%, 0.1%,
   *  0.2%, 0.3%, 0.5%, 0.75%, 1%, 1.5%, 2%, 3%, 4%, 5%, cut at (and ending with) this value. */
  maxRemoved?: number;
  /** The budget of the run to compare the curve with (the advice): with both, the advice sets the
   *  margin reached against the margin γ₀ the default learner trains at for this n and ε. The
   *  other training options (selector, …) may be given too: the plan is the one training would
   *  make for this table. Nothing is spent: the profile is local and not private. */
  epsilon?: number;
  delta?: number;
  /** Soft-margin C on unit-norm rows while the data is not separable (default 1000). */
  C?: number;
  /** Batches (refits) between consecutive grid points (default 1; a batch never removes more rows
   *  than the current fit misclassifies). */
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

/** What the curve means for the choice of learner — computed in the core (profile/advice.hpp).
 *  Local and not private, like the profile. */
export interface ProfileAdvice {
  private: false;
  note: string;
  /** "large margin", "small margin" (separable, but below γ₀), "not separable", or "separable"
   *  (no budget given). */
  verdict: CoreProfileAdvice["verdict"];
  separable: boolean;
  /** Rows in the way of separability (the first separable count), when separable. */
  rowsInTheWay: number;
  rowsInTheWayFraction: number | null;
  /** Not separable: removing the rows the last fit still misclassifies would separate the rest,
   *  so at most this many rows stand in the way (0 when separable). */
  rowsInTheWayAtMost: number;
  maxRemoved: number;
  marginReached: number;
  marginReachedFraction: number;
  marginAtFirstSeparable: number;
  /** With a budget: the default learner's margin γ₀ (`normalizedMargin` = γ₀/b, on the curve's scale). */
  learner?: CoreProfileAdvice["learner"];
  largeMarginRemoved?: number;
  largeMarginFraction?: number | null;
  nForLargeMargin?: number;
  /** Two or three plain sentences. */
  text: string;
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
  /** Rows the last fit leaves at normalized margin ≤ 0. */
  lastViolators: number;
  curve: ProfilePoint[];
  advice: ProfileAdvice;
  elapsedMs: number;
}

interface Control {
  options: CoreOptions;
  onProgress: ((p: ProfileProgress) => void) | undefined;
  signal: AbortSignal | undefined;
}

// The callbacks stay here; every other option goes to the core (names, values, defaults).
function control(options: ProfileOptions): Control {
  const o = requireObject(options ?? {}, "options");
  return {
    options: coreOptions(o, ["onProgress", "signal"]),
    onProgress: optionalFunction(o, "onProgress"),
    signal: optionalSignal(o),
  };
}

async function run(core: CoreModule, dataset: CoreDataset, c: Control, started: number): Promise<MarginProfile> {
  const profiler = new core.Profiler();
  try {
    unwrap(profiler.start(dataset, c.options));
    await runChunked((budget) => unwrap(profiler.advance(budget)), (done) => {
      if (!c.onProgress) return;
      const p = unwrap(profiler.progress());
      c.onProgress({ ...p, fraction: done ? 1 : p.gridDone / Math.max(p.gridSize, 1), elapsedMs: now() - started });
    }, c.signal, "the margin profile", 10_000);
    const r: CoreProfileResult = unwrap(profiler.result());
    const orNull = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? null : x);
    const advice: ProfileAdvice = {
      ...r.advice,
      rowsInTheWayFraction: orNull(r.advice.rowsInTheWayFraction),
      ...(r.advice.learner ? { largeMarginFraction: orNull(r.advice.largeMarginFraction) } : {}),
    };
    return {
      ...r,
      advice,
      firstSeparableFraction: Number.isNaN(r.firstSeparableFraction) ? null : r.firstSeparableFraction,
      elapsedMs: now() - started,
    };
  } finally {
    dispose(profiler);
  }
}

/** Profile a numeric table (labels 1 / 0 or ±1). Not private: for the user's own eyes. */
export async function profileMargins(core: CoreModule, data: TrainingData, options: ProfileOptions = {}): Promise<MarginProfile> {
  const started = now();
  const c = control(options);
  const d = requireObject(data, "data");
  if (c.signal?.aborted) throw cancelled("the margin profile");
  const dataset = toCoreDataset(core, d.features as ArrayLike<number>, d.columns as number, d.labels as ArrayLike<number>, true);
  try {
    return await run(core, dataset, c, started);
  } finally {
    dispose(dataset);
  }
}

/** Profile a CSV (streamed straight into wasm memory). Not private. */
export async function profileCsv(core: CoreModule, source: CsvSource, csv: CsvReadOptions,
  options: ProfileOptions = {}): Promise<MarginProfile & { table: TableInfo }> {
  const started = now();
  const c = control(options);
  if (c.signal?.aborted) throw cancelled("the margin profile");
  const { dataset, table } = await readLocalTable(core, source, csv, c.signal);
  try {
    unwrap(dataset.validate(true));
  } catch (error) {
    dispose(dataset);
    throw error;
  }
  try {
    return { ...(await run(core, dataset, c, started)), table };
  } finally {
    dispose(dataset);
  }
}
