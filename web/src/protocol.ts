// Messages between the page (main.ts, WorkerClient) and the engine worker (core.worker.ts).
// Page → worker: a Request with a fresh id. Worker → page: any number of "progress" / "started"
// events for that id, then exactly one "result" or "error". Only structured-cloneable data
// crosses: Files/Blobs go by reference; the parsed table stays in the worker.
import type {
  AccountOptions, ColumnSummary, LocalRunInfo, MarginProfile, ModelFile, OptionInfo, Plan, ProfileProgress, TrainOptions,
  TrainProgress, TrainReport,
} from "dpmargin";

/** Where a CSV comes from: a File the user gave, or a same-origin URL (the shipped samples). */
export type Source =
  | { kind: "file"; file: Blob; name: string }
  | { kind: "url"; url: string; name: string };

/** Training options that can cross to the worker (no callbacks, no signal). */
export type WireTrainOptions = Omit<TrainOptions, "onProgress" | "onPlan" | "signal">;

/** What "init" returns: the package's version and the core's option table (the defaults). */
export interface EngineInfo {
  version: string;
  options: readonly OptionInfo[];
}

export interface TrainRequest {
  label: string;
  positive: string;
  /** Feature columns, in file order. */
  features: string[];
  /** Share of rows held out for evaluation (0 ≤ f < 1), and the seed of the app's shuffle. */
  testFraction: number;
  splitSeed: number;
  options: WireTrainOptions;
}

export type Request =
  | { id: number; type: "init" }
  | { id: number; type: "account"; options: AccountOptions }
  | { id: number; type: "plan-for"; options: WireTrainOptions; table: { rows: number; features: number } }
  | { id: number; type: "load"; source: Source }
  | { id: number; type: "train"; request: TrainRequest }
  | { id: number; type: "cancel"; target: number }
  | { id: number; type: "model"; json: string }
  | { id: number; type: "predict"; model: ModelFile; source: Source }
  | { id: number; type: "profile"; request: ProfileRequest };

/** The margin profile of the loaded table (NOT private; a local diagnostic). */
export interface ProfileRequest {
  label: string;
  positive: string;
  features: string[];
  maxRemoved: number;
  intercept: boolean;
}

export type { ColumnSummary, MarginProfile, ProfileProgress };

/** What `load` returns: enough to draw the preview and the column pickers. */
export interface TableSummary {
  name: string;
  bytes: number;
  rows: number;
  delimiter: string;
  header: string[];
  columns: ColumnSummary[];
  /** The first data rows, as text, with their file lines. */
  preview: string[][];
  previewLines: number[];
  parseMs: number;
}

/** Accuracy and confusion counts on rows of the user's data: local, NOT differentially private. */
export interface Evaluation {
  rows: number;
  accuracy: number;
  /** Positive class predicted / true. */
  truePositive: number;
  falsePositive: number;
  trueNegative: number;
  falseNegative: number;
}

export interface TrainOutcome {
  report: TrainReport;
  /** Not released, not private: the run count (PrivTune's K) and the time. */
  local: LocalRunInfo;
  /** The model file (SPEC §5.3) with its label column and positive class. */
  model: ModelFile;
  train: Evaluation;
  test: Evaluation | null;
  split: { rows: number; trainRows: number; testRows: number; testFraction: number; seed: number };
}

export interface PredictOutcome {
  rows: number;
  positives: number;
  /** The predictions file, in the CLI's format: `score,COLUMN=POSITIVE` then `score,1|0`. */
  csv: string;
  preview: { line: number; score: number; positive: boolean }[];
  /** When the file has the model's label column: accuracy (local, not private). */
  evaluation: Evaluation | null;
}

export interface WorkerError {
  code: string;
  message: string;
  parameter?: string;
  /** The wasm instance may be broken (e.g. an abort): the page should start a new worker. */
  fatal?: boolean;
}

export type Reply =
  | { id: number; type: "result"; value: unknown }
  | { id: number; type: "error"; error: WorkerError }
  | { id: number; type: "started"; plan: Plan }
  | { id: number; type: "progress"; progress: TrainProgress }
  | { id: number; type: "load-progress"; progress: { bytes: number; totalBytes: number | null; rows: number } }
  | { id: number; type: "profile-progress"; progress: ProfileProgress };
