// Types of the Emscripten glue (dist/wasm/dpmargin_core.mjs), i.e. of the bindings in
// wasm/bindings/*.cpp. Internal: the public API never hands these objects to users. Every
// method returns a Status (bindings/guard.hpp); arguments are checked by the core.
import type { OptionInfo, Plan, OutputIterate, RowNormalization } from "../types.js";

export type Status<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; parameter: string; message: string };

/** Options as the core's option table reads them (names and values; unset = default). */
export type CoreOptions = Record<string, unknown>;

export interface EmbindObject {
  delete(): void;
}

export interface CoreShape {
  rows: number;
  features: number;
  /** Floats per row in features(): features + 1 before prepare(), width after it. */
  stride: number;
  /** Columns the model sees (features + intercept), 0 before prepare(). */
  width: number;
  prepared: boolean;
}

export interface CoreDataset extends EmbindObject {
  allocate(rows: number, features: number, labelled: boolean): Status<CoreShape>;
  features(): Status<Float32Array>;
  labels(): Status<Int8Array>;
  /** A multiclass label: a view to write one class code per row (0…classes−1); training then
   *  runs one-vs-rest over `classes` (checked by the core at start). */
  codes(classes: number): Status<Int32Array>;
  validate(requireBothClasses: boolean): Status<boolean>;
  /** {intercept, rowNormalization, normBound, columnRanges}: the core's defaults for the rest. */
  prepare(preprocessing: CoreOptions): Status<CoreShape>;
  scores(weights: Float64Array): Status<Float64Array>;
  /** Scores n × problems (row-major; weights problems × width) and per row the label: ±1 for
   *  one problem, else the index of the largest score. */
  predict(weights: Float64Array, problems: number): Status<{ scores: Float64Array; labels: Int32Array }>;
  shape(): Status<CoreShape>;
  release(): Status<boolean>;
}

export interface CoreProgress {
  run: number;
  runs: number;
  candidate: number;
  iteration: number;
  iterations: number;
  batch: number;
  workDone: number;
  workTotal: number;
  done: boolean;
  problem: number;
  problems: number;
}

export interface CoreTrainStart {
  plan: Plan;
  output: OutputIterate;
  preprocessing: { intercept: boolean; rowNormalization: RowNormalization; normBound: number };
}

/** One binary problem of a run (a binary label has one; one-vs-rest one per class). */
export interface CoreProblemResult {
  runs: { candidate: number; noisyScore: number }[];
  selectedRun: number;
  selectedCandidate: number;
  weights: number[];
}

export interface CoreTrainResult {
  /** The label's classes (2 for a binary label). */
  classes: number;
  problems: CoreProblemResult[];
  seeded: boolean;
  columnRanges: [number, number][];
  columnScalings: { lo: number; hi: number; map: "min-max" | "symmetric" | "signed-log"; path: "declared" | "private" | "fallback" | "pooled" }[];
  rangesPrivate: boolean;
}

/** What the coordinating trainer needs next from its shards (docs/reference/SHARDING.md). */
export type CoreShardRequest =
  | { kind: "setup"; k: number; clipRadius: number; phi: Float32Array | null; c: Float64Array; classes: number; loss: string }
  | { kind: "gradients"; k: number; m: number; weights: Float32Array }
  | { kind: "errors"; m: number; weights: Float64Array }
  /** One-vs-rest between two problems: the next problem's ±1 labels of every row. */
  | { kind: "labels"; labels: Int8Array }
  | { kind: "done" };

export interface CoreTrainer extends EmbindObject {
  start(data: CoreDataset, options: CoreOptions): Status<CoreTrainStart>;
  /** A CSV run's table (moved into `data` by CsvRun.takeDataset), settings and generator. */
  startRun(data: CoreDataset, run: CoreCsvRun): Status<CoreTrainStart>;
  advance(budget: number): Status<boolean>;
  progress(): Status<CoreProgress>;
  result(): Status<CoreTrainResult>;
  release(): Status<boolean>;
  request(): Status<CoreShardRequest>;
  answerLabels(): Status<boolean>;
  answerSetup(): Status<boolean>;
  answerGradients(partials: Float64Array[]): Status<boolean>;
  answerErrors(partials: Float64Array[]): Status<boolean>;
  detachRows(): Status<boolean>;
}

/** A shard of prepared rows (in a shard worker). */
export interface CoreShard extends EmbindObject {
  allocate(rows: number, width: number): Status<boolean>;
  features(): Status<Float32Array>;
  labels(): Status<Int8Array>;
  /** The next problem's labels of this shard's rows (±1). */
  setLabels(labels: Int8Array): Status<boolean>;
  setup(k: number, clipRadius: number, phi: Float32Array | null, c: Float64Array, classes: number, loss: string): Status<boolean>;
  /** A view into wasm memory: copy it before anything else runs. */
  gradients(weights: Float32Array): Status<Float64Array>;
  countErrors(weights: Float64Array, m: number): Status<Float64Array>;
  /** learn::predict over the shard's prepared rows (as Dataset.predict). */
  predict(weights: Float64Array, problems: number): Status<{ scores: Float64Array; labels: Int32Array }>;
  release(): Status<boolean>;
}

export interface CoreProfilePoint {
  fraction: number; removed: number; margin: number; minimumMargin: number;
  onGrid: boolean; hardMargin: boolean; converged: boolean;
}

export interface CoreProfileResult {
  private: false; note: string; n: number; zeroRows: number; separable: boolean;
  firstSeparableFraction: number; firstSeparableRemoved: number; fits: number;
  allConverged: boolean; lastViolators: number; curve: CoreProfilePoint[];
  advice: CoreProfileAdvice;
}

/** profile/advice.hpp; NaN where a fraction does not apply. `learner` etc. only with a budget. */
export interface CoreProfileAdvice {
  private: false; note: string; verdict: "large margin" | "small margin" | "not separable" | "separable";
  separable: boolean; rowsInTheWay: number; rowsInTheWayFraction: number; rowsInTheWayAtMost: number;
  maxRemoved: number; marginReached: number; marginReachedFraction: number; marginAtFirstSeparable: number;
  learner?: { epsilon: number; delta: number; n: number; normBound: number; muRun: number; gamma0: number; normalizedMargin: number };
  largeMarginRemoved?: number; largeMarginFraction?: number; nForLargeMargin?: number;
  text: string;
}

export interface CoreProfileProgress {
  gridDone: number; gridSize: number; removed: number; n: number; fits: number; lastMargin: number; done: boolean;
}

export interface CoreProfiler extends EmbindObject {
  /** options: {maxRemoved?, C?, maxRefitsPerStep?}, preprocessing options and, for the advice,
   *  epsilon/delta (and other training options: the plan training would make). */
  start(data: CoreDataset, options: CoreOptions): Status<boolean>;
  advance(budget: number): Status<boolean>;
  progress(): Status<CoreProfileProgress>;
  result(): Status<CoreProfileResult>;
  release(): Status<boolean>;
}

/** Bytes fed to the core pass by pass (bindings/csv.cpp). */
export interface CoreByteSink extends EmbindObject {
  /** A view of `size` bytes in wasm memory to copy the next chunk into (fill, then feed). */
  buffer(size: number): Status<Uint8Array>;
  feed(size: number): Status<boolean>;
  progress(): Status<{ bytes: number; rows: number }>;
}
export interface CorePassReader extends CoreByteSink {
  pass(): Status<string>;
  endPass(): Status<boolean>;
  release(): Status<boolean>;
}
export interface CoreFill {
  imputed: number;
  marked: number;
  /** CsvRun only: training rows whose label is none of the discovered classes (local). */
  labelOutside?: number;
}
export interface CoreCsvRun extends CorePassReader {
  start(csv: CoreOptions, options: CoreOptions, rows: ArrayLike<number> | null): Status<boolean>;
  /** Exact categories and classes, no budget: NOT private (the margin profile, readCsv). */
  startLocal(csv: CoreOptions, rows: ArrayLike<number> | null): Status<boolean>;
  classCodes(): Status<Int32Array>;
  /** The source's size in bytes, before the first feed: a plain numeric table is then read in
   *  one pass (data::TableReader::keepScanValues); the same table either way. */
  expectBytes(bytes: number): Status<boolean>;
  schema(): Status<Record<string, unknown>>;
  /** Once scanned: what a ledger records of the run (run::CsvRun::budget), before discovery
   *  draws noise. */
  budget(): Status<{ epsilon: number; delta: number; selector: string; mu: number; deltaGdp: number }>;
  encoding(): Status<Record<string, unknown>>;
  featureNames(): Status<string[]>;
  fill(): Status<CoreFill>;
  /** The label column's entry of run::summarizeScan, from the run's scan (null without a
   *  label): local, never released. */
  labelSummary(maxValues: number): Status<Record<string, unknown> | null>;
  takeDataset(into: CoreDataset): Status<boolean>;
}
export interface CoreCsvRead extends CorePassReader {
  start(csv: CoreOptions, encoding: Record<string, unknown>, classes: string[] | null,
    rows: ArrayLike<number> | null): Status<boolean>;
  labelled(): Status<boolean>;
  /** As CoreCsvRun.expectBytes. */
  expectBytes(bytes: number): Status<boolean>;
  labelCodes(): Status<Int32Array>;
  fill(): Status<CoreFill>;
  rowCount(): Status<number>;
  /** The file's column names (after the scan pass). */
  header(): Status<string[]>;
  takeDataset(into: CoreDataset): Status<boolean>;
}
export interface CoreCsvScan extends CoreByteSink {
  start(csv: CoreOptions, previewRows: number): Status<boolean>;
  header(): Status<string[] | null>;
  finish(maxValues: number): Status<Record<string, unknown>>;
  release(): Status<boolean>;
}
/** run::CsvPreview: one scan, then run::previewCsv (local, NOT private). */
export interface CoreCsvPreview extends CorePassReader {
  start(csv: CoreOptions, options: CoreOptions | null, rows: ArrayLike<number> | null, previewRows: number): Status<boolean>;
  preview(maxValues: number): Status<Record<string, unknown>>;
}
export interface CoreModule {
  optionTable(): Status<OptionInfo[]>;
  plan(options: CoreOptions): Status<Plan>;
  planForTable(options: CoreOptions, rows: number, features: number, classes: number | undefined): Status<Plan>;
  validateOptions(options: CoreOptions): Status<boolean>;
  /** data::requireColumn: the index of `name` in `header`, or LABEL_NOT_FOUND ("label") /
   *  BAD_PARAMETER naming `parameter`, every column listed, "did you mean". */
  requireColumn(header: string[], name: string, parameter: string, what: string): Status<number>;
  /** data::publicColumns: the label and the columns a model may read, by the header's names and
   *  the CSV options alone. */
  publicColumns(header: string[], csv: CoreOptions): Status<{ label: string | null; features: string[] }>;
  gdpDelta(epsilon: unknown, mu: unknown): Status<number>;
  gdpLogDelta(epsilon: unknown, mu: unknown): Status<number>;
  gdpEpsilon(mu: unknown, delta: unknown): Status<number>;
  gdpMu(epsilon: unknown, delta: unknown): Status<number>;
  composeGdp(mus: unknown): Status<number>;
  paperMuMstar(epsilon: unknown, delta: unknown): Status<number>;
  paperEpsilonLemma(mu: unknown, delta: unknown): Status<number>;
  marginGrid(n: unknown, b: unknown): Status<number[]>;
  tnbSummary(eta: unknown, r: unknown, candidates: unknown): Status<{ mean: number; probabilityMiss: number; pmf1to10: number[] }>;
  tnbPgf(eta: unknown, r: unknown, s: unknown): Status<number>;
  ps22Epsilon(mu: unknown, eta: unknown, r: unknown, delta: unknown): Status<number>;
  ps22Mu(epsilon: unknown, eta: unknown, r: unknown, delta: unknown): Status<number>;
  privtunePaperEpsilon(mu: unknown, r: unknown, delta: unknown): Status<number>;
  /** The privacy ledger's total (accounting/ledger.hpp); BUDGET_EXCEEDED beyond `cap`. */
  composeLedger(entries: unknown, cap: unknown): Status<{ epsilon: number; delta: number; mu: number; basicEpsilon: number; runs: number; gdpRuns: number }>;
  version(): Status<string>;
  /** Test instrumentation: wasm memory size and malloc's bytes in use. */
  heapBytes(): Status<{ total: number; inUse: number }>;
  /** Test instrumentation: the entries registered through the guard, and a fault the next
   *  guarded call reports instead of running (tests/jest/bindings.test.js). */
  guardedEntries(): Status<string[]>;
  armFaultForTest(): void;
  Dataset: new () => CoreDataset;
  /** The glue keeps this view of the whole wasm memory current (re-assigned when it grows). */
  HEAPF32: Float32Array;
  Trainer: new () => CoreTrainer;
  Shard: new () => CoreShard;
  shardBounds(n: number, shards: number): Status<number[]>;
  Profiler: new () => CoreProfiler;
  CsvRun: new () => CoreCsvRun;
  CsvRead: new () => CoreCsvRead;
  CsvScan: new () => CoreCsvScan;
  CsvPreview: new () => CoreCsvPreview;
}

export interface FactoryOptions {
  locateFile?: (path: string, prefix: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
}

declare const createDpMarginCore: (options?: FactoryOptions) => Promise<CoreModule>;
export default createDpMarginCore;
