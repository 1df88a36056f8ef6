// Types of the Emscripten glue (dist/wasm/dpmargin_core.mjs). Internal: the public API never
// hands these objects to users.
export type Status<T> =
  | { ok: true; value: T }
  | { ok: false; code: string; parameter: string; message: string };

export interface PlanInputRaw {
  epsilon: number;
  delta: number;
  n: number;
  d: number;
  normBound: number;
  selector: string;
  calibration: string;
  score: string;
  expectedRuns: number;
  jlFailure: number;
  maxIterations: number;
  margin: number;
  rangeShare: number;
  stepScale: number;
  hingeScale: number;
  pruning: string;
  pruneRatio: number;
}

export interface EmbindObject {
  delete(): void;
}

export interface CoreDataset extends EmbindObject {
  allocate(rows: number, features: number, intercept: boolean, rowNormalization: string,
    normBound: number, labelled: boolean): Status<number>;
  features(): Float32Array;
  labels(): Int8Array;
  width(): number;
  declareRanges(lo: Float64Array, hi: Float64Array): Status<boolean>;
  validate(requireBothClasses: boolean): Status<boolean>;
  preprocess(): Status<boolean>;
  scores(weights: Float64Array): Status<Float64Array>;
  release(): void;
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
}

export interface CoreTrainResult {
  runs: { candidate: number; noisyScore: number }[];
  selectedRun: number;
  selectedCandidate: number;
  weights: Float64Array;
  seeded: boolean;
  plan: unknown;
  columnRanges: [number, number][];
  rangesPrivate: boolean;
}

/** What the coordinating trainer needs next from its shards (docs/SHARDING.md). */
export type CoreShardRequest =
  | { kind: "setup"; k: number; clipRadius: number; phi: Float32Array | null; c: Float64Array }
  | { kind: "gradients"; k: number; m: number; weights: Float32Array }
  | { kind: "errors"; m: number; weights: Float64Array }
  | { kind: "done" };

export interface CoreTrainer extends EmbindObject {
  start(data: CoreDataset, input: PlanInputRaw, output: string, seed: number): Status<unknown>;
  advance(budget: number): Status<boolean>;
  progress(): CoreProgress;
  result(): Status<CoreTrainResult>;
  release(): void;
  request(): Status<CoreShardRequest>;
  answerSetup(): Status<boolean>;
  answerGradients(partials: Float64Array[]): Status<boolean>;
  answerErrors(partials: Float64Array[]): Status<boolean>;
  detachRows(): void;
}

/** A shard of prepared rows (in a shard worker). */
export interface CoreShard extends EmbindObject {
  allocate(rows: number, width: number): Status<boolean>;
  features(): Float32Array;
  labels(): Int8Array;
  setup(k: number, clipRadius: number, phi: Float32Array | null, c: Float64Array): Status<boolean>;
  /** A view into wasm memory: copy it before anything else runs. */
  gradients(weights: Float32Array): Status<Float64Array>;
  countErrors(weights: Float64Array, m: number): Status<Float64Array>;
  release(): void;
}

export interface CoreProfilePoint {
  fraction: number; removed: number; margin: number; minimumMargin: number;
  onGrid: boolean; hardMargin: boolean; converged: boolean;
}

export interface CoreProfileResult {
  private: false; note: string; n: number; zeroRows: number; separable: boolean;
  firstSeparableFraction: number; firstSeparableRemoved: number; fits: number;
  allConverged: boolean; curve: CoreProfilePoint[];
}

export interface CoreProfiler extends EmbindObject {
  start(data: CoreDataset, maxRemoved: number, C: number, maxRefitsPerStep: number): Status<boolean>;
  advance(budget: number): Status<boolean>;
  progress(): { gridDone: number; gridSize: number; removed: number; n: number; fits: number; lastMargin: number; done: boolean };
  result(): Status<CoreProfileResult>;
  release(): void;
}

export interface CoreModule {
  plan(input: PlanInputRaw): Status<unknown>;
  defaults(): { maxIterations: number; pruneRatio: number; tightStepScale: number; tightOutput: string; paperOutput: string };
  gdpDelta(epsilon: number, mu: number): Status<number>;
  gdpLogDelta(epsilon: number, mu: number): Status<number>;
  gdpEpsilon(mu: number, delta: number): Status<number>;
  gdpMu(epsilon: number, delta: number): Status<number>;
  composeGdp(mus: number[]): Status<number>;
  paperMuMstar(epsilon: number, delta: number): Status<number>;
  paperEpsilonLemma(mu: number, delta: number): Status<number>;
  marginGrid(n: number, b: number): Status<number[]>;
  tnbSummary(eta: number, r: number, candidates: number): Status<unknown>;
  tnbPgf(eta: number, r: number, s: number): Status<number>;
  ps22Epsilon(mu: number, eta: number, gamma: number, delta: number): Status<number>;
  ps22Mu(epsilon: number, eta: number, gamma: number, delta: number): Status<number>;
  privtunePaperEpsilon(mu: number, r: number, delta: number): Status<number>;
  version(): string;
  /** Test instrumentation: wasm memory size and malloc's bytes in use. */
  heapBytes(): { total: number; inUse: number };
  Dataset: new () => CoreDataset;
  /** The glue keeps this view of the whole wasm memory current (re-assigned when it grows). */
  HEAPF32: Float32Array;
  Trainer: new () => CoreTrainer;
  Shard: new () => CoreShard;
  shardBounds(n: number, shards: number): Status<number[]>;
  Profiler: new () => CoreProfiler;
}

export interface FactoryOptions {
  locateFile?: (path: string, prefix: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
}

declare const createDpMarginCore: (options?: FactoryOptions) => Promise<CoreModule>;
export default createDpMarginCore;
