// Messages between the page (main.ts, WorkerClient) and the engine worker (core.worker.ts).
// Page → worker: a Request with a fresh id. Worker → page: any number of "progress" / "started"
// events for that id, then exactly one "result" or "error". Only structured-cloneable data
// crosses: Files/Blobs go by reference; the parsed table stays in the worker.
import type {
  AccountOptions, AnyModelFile, ColumnSummary, CsvPreview, LedgerFile, LedgerTotal, LocalRunInfo, MarginProfile, OptionInfo,
  Plan, ProfileProgress, SchemaColumn, SchemaFile, TrainOptions, TrainProgress, TrainReport,
} from "dpmargin";

/** Where a CSV comes from: a File the user gave, or a same-origin URL (the shipped samples). */
export type Source =
  | { kind: "file"; file: Blob; name: string }
  | { kind: "url"; url: string; name: string };

/** Training options that can cross to the worker (no callbacks, no signal, no ledger object:
 *  the ledger crosses as its file, TrainRequest.ledger). */
export type WireTrainOptions = Omit<TrainOptions, "onProgress" | "onPlan" | "signal" | "ledger">;

/** What "init" returns: the package's version and the core's option table (the defaults). */
export interface EngineInfo {
  version: string;
  options: readonly OptionInfo[];
}

/** What the user declared in the Data tab — only what they explicitly chose or typed (or
 *  imported from a schema file): never the core's proposal or a local expectation. The rest is
 *  decided by the run, publicly or privately (docs/PRIVACY.md "The schema"). */
export type DeclaredSchema = {
  format: "dpmargin-schema";
  version: 1;
  csv?: SchemaFile["csv"];
  label?: string;
  classSource?: SchemaFile["classSource"];
  classes?: string[];
  positive?: string;
  maxLevels?: number;
  hashBuckets?: number;
  columns: (Partial<SchemaColumn> & { name: string })[];
};

/** The core's preview of the run on the loaded table (dp.previewCsv, through the worker):
 *  the user's declarations, the form's options and the held-out split. */
export interface PreviewRequest {
  schema: DeclaredSchema;
  options: WireTrainOptions;
  testFraction: number;
  splitSeed: number;
}

export interface TrainRequest {
  /** What the user declared in the column table (only that): passed to trainCsv as `schema`;
   *  everything else is the run's decision. */
  schema: DeclaredSchema;
  /** Share of rows held out for evaluation (0 ≤ f < 1), and the seed of the app's shuffle. */
  testFraction: number;
  splitSeed: number;
  options: WireTrainOptions;
  /** The file's privacy ledger (the package's PrivacyLedger state): the worker passes it to
   *  trainCsv, which records the run before its first noise; the new state comes back as a
   *  "ledger" event. */
  ledger?: LedgerFile;
}

/** What "ledger-total" returns: the package's composition of a file's ledger and, for a next
 *  run of the given options, the total with it (null when those options cannot be planned). */
export interface LedgerSummary {
  total: LedgerTotal;
  next: { epsilon: number; delta: number; selector: string } | null;
  after: LedgerTotal | null;
}

export type Request =
  | { id: number; type: "init" }
  | { id: number; type: "account"; options: AccountOptions }
  | { id: number; type: "load"; source: Source }
  | { id: number; type: "ledger-total"; ledger: LedgerFile; next?: { options: WireTrainOptions; table: { rows: number; features: number } } }
  | { id: number; type: "preview"; request: PreviewRequest }
  | { id: number; type: "gdp-epsilon"; mu: number; delta: number }
  | { id: number; type: "train"; request: TrainRequest }
  | { id: number; type: "cancel"; target: number }
  | { id: number; type: "model"; json: string }
  | { id: number; type: "predict"; model: AnyModelFile; source: Source; threshold?: number }
  | { id: number; type: "predict-threshold"; threshold: number | null }
  | { id: number; type: "profile"; request: ProfileRequest };

/** The margin profile of the loaded table (NOT private; a local diagnostic). */
export interface ProfileRequest {
  schema: DeclaredSchema;
  maxRemoved: number;
  intercept: boolean;
  /** The Train tab's budget, for the advice (nothing is spent; unset when not valid there). */
  epsilon?: number;
  delta?: number;
}

export type { ColumnSummary, CsvPreview, MarginProfile, ProfileProgress, SchemaFile };

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
  /** The core's preview with nothing declared (dp.previewCsv): the label it proposes by header
   *  name, every column's decision, and the local facts. */
  proposal: CsvPreview;
  /** SHA-256 of the file's bytes (hex), computed here: the key of the privacy ledger. */
  sha256: string;
}

/** Accuracy and confusion counts on rows of the user's data: local, NOT differentially private. */
export interface Evaluation {
  rows: number;
  accuracy: number;
  /** The classes of the confusion matrix: a binary model's [positive, "not positive"], a
   *  multiclass model's class names (plus "(other)" when a row's label is none of them). */
  classes: string[];
  /** confusion[actual][predicted], in `classes` order. */
  confusion: number[][];
  /** The share of the most frequent actual class: what always answering it would score. */
  majorityRate: number;
  majorityClass: string;
  /** The package's rules (metrics' isImbalanced, noBetterThanMajority): the commonest class
   *  holds ≥ 60% of the rows (balanced accuracy and ROC AUC lead); the accuracy is not above the
   *  majority rate + 1 point. */
  imbalanced: boolean;
  noBetterThanMajority: boolean;
  /** Mean recall over the classes present. */
  balancedAccuracy: number;
  /** Binary: F1 of the positive class; multiclass: macro F1 over the model's classes. */
  f1: number;
  perClass: { class: string; support: number; recall: number; precision: number; f1: number }[];
  /** ROC AUC of the scores (binary; multiclass: macro mean of the one-vs-rest AUCs), null when
   *  undefined (one class only). From the package's `evaluate`: local, not private. */
  rocAuc: number | null;
  /** Multiclass: each class's one-vs-rest AUC; binary: null. */
  rocAucPerClass: (number | null)[] | null;
  /** Binary: the ROC curve (≤ 200 points; the first threshold is +∞); multiclass: null. */
  roc: { fpr: number[]; tpr: number[]; thresholds: number[] } | null;
}

/** A model file without its weights (and without the selection record, which is the report's). */
type ModelHeader<F> = F extends AnyModelFile ? Omit<F, "weights" | "intercept" | "selection"> : never;

/** What a run publishes, assembled in the worker and checked there against the package's list of
 *  released fields (checkReleased): the run's report and the model file's header. The privacy
 *  report is written from this alone. */
export interface ReleasedRecord {
  report: TrainReport;
  model: ModelHeader<AnyModelFile>;
}

export interface TrainOutcome {
  report: TrainReport;
  /** The publishable record (the privacy report's only source). */
  released: ReleasedRecord;
  /** Not released, not private: the run count (PrivTune's K) and the time. */
  local: LocalRunInfo;
  /** The model file (SPEC §5.3, docs/reference/MODEL_FORMAT.md; version 3) with its label and schema. */
  model: AnyModelFile;
  train: Evaluation;
  test: Evaluation | null;
  split: { rows: number; trainRows: number; testRows: number; testFraction: number; seed: number };
  /** Training rows whose label is none of the discovered classes (one-vs-rest: trained as
   *  negatives; joint: left out of the gradients): a
   *  local count, not released (the package's `table.labelOutside`). */
  labelOutside: number;
}

export interface PredictOutcome {
  rows: number;
  positives: number;
  /** A multiclass model's classes (null: binary). */
  classes: string[] | null;
  /** The predictions file, in the CLI's format: `score,COLUMN=POSITIVE` then `score,1|0`
   *  (multiclass: `COLUMN,score:A,score:B,…`). */
  csv: string;
  preview: { line: number; score: number; positive: boolean; predicted?: string }[];
  /** When the file has the model's label column: accuracy and the yardsticks (local, not private). */
  evaluation: Evaluation | null;
  /** A binary model's decision threshold T (positive when score ≥ T), or null: the model's own
   *  decision (score > 0). Multiclass: always null. */
  threshold: number | null;
  /** The smallest and largest score of a binary model's rows (for the threshold's range). */
  scoreRange: [number, number] | null;
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
  | { id: number; type: "ledger"; ledger: LedgerFile }
  | { id: number; type: "progress"; progress: TrainProgress }
  | { id: number; type: "load-progress"; progress: { bytes: number; totalBytes: number | null; rows: number } }
  | { id: number; type: "profile-progress"; progress: ProfileProgress };
