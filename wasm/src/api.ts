import type { CoreModule } from "./wasm/dpmargin_core.mjs";
import { dispose, unwrap } from "./module/status.js";
import type { AccountOptions, OptionInfo, Plan } from "./types.js";
import { coreOptions, requireObject } from "./options.js";
import { profileCsv, profileMargins, type MarginProfile, type ProfileOptions } from "./profile/profile.js";
import { TRAIN_JS_ONLY, train, trainCsv, type CsvTrainResult, type TrainOptions, type TrainResult } from "./train/train.js";
import type { TrainingData } from "./train/data.js";
import type { CsvSource } from "./csv/source.js";
import type { CsvReadOptions } from "./csv/options.js";
import { readLocalTable, type TableInfo } from "./csv/table.js";
import { summarizeCsv, type CsvSummary, type SummaryOptions } from "./csv/summary.js";
import { csvHeader, type CsvHeader } from "./csv/header.js";
import { previewCsv, type CsvPreview, type PreviewOptions } from "./csv/preview.js";
import { Model, type AnyModelFile, type ModelFile } from "./model/model.js";
import type { MulticlassModelFile } from "./model/multiclass.js";
import type { ShardHost } from "./shards/sharded.js";
import { PrivacyLedger, parseLedgerFile, type LedgerFile } from "./ledger/ledger.js";
import { evaluate, type EvaluateOptions, type Evaluation } from "./metrics/metrics.js";

/** Pure accounting functions (SPEC §2.1, §2.6), exposed for reports and cross-checks. */
export interface Accounting {
  /** δ(ε; μ) of μ-GDP, exact and numerically stable. */
  gdpDelta(epsilon: number, mu: number): number;
  /** ln δ(ε; μ), finite where δ underflows. */
  gdpLogDelta(epsilon: number, mu: number): number;
  /** Smallest ε with δ(ε; μ) ≤ δ. */
  gdpEpsilon(mu: number, delta: number): number;
  /** Largest μ with δ(ε; μ) ≤ δ (rounded down). */
  gdpMu(epsilon: number, delta: number): number;
  /** √(Σ μᵢ²). */
  composeGdp(mus: number[]): number;
  /** The paper's M* choice μ = ε / (2√(2 ln(1/δ))). */
  paperMuMstar(epsilon: number, delta: number): number;
  /** The paper's Lemma: ε = μ²/2 + μ√(2 ln(1/δ)). */
  paperEpsilonLemma(mu: number, delta: number): number;
  /** The margin grid Γ for n rows and norm bound b. */
  marginGrid(n: number, b?: number): number[];
  /** PGF of TNB_{η,r}. */
  tnbPgf(eta: number, r: number, s: number): number;
  /** PrivTune ε by Papernot–Steinke RDP → (ε, δ) (CKS conversion, optimal order). */
  ps22Epsilon(mu: number, eta: number, r: number, delta: number): number;
  /** Largest μ with ps22Epsilon ≤ ε. */
  ps22Mu(epsilon: number, eta: number, r: number, delta: number): number;
  /** PrivTune ε by the paper's Lemma: 1.5μ² + 3μ√(2 ln(1/(rδ))) + δ. */
  privtunePaperEpsilon(mu: number, r: number, delta: number): number;
}

/** A loaded dpmargin module. Create it with `load()`; it holds no per-call state. */
/** A CSV read into JavaScript by {@link DpMargin.readCsv}: local, NOT private. */
export interface CsvTable {
  features: Float32Array;
  columns: number;
  featureNames: string[];
  /** ±1 per row for a binary label (the positive class +1); the class index per row for a
   *  label of 3 or more classes (then `classes` names them); null without a label. */
  labels: Int8Array | Int32Array | null;
  /** The class names of a multiclass label (train() takes the table as it is). */
  classes?: string[];
  /** The class index per row (in `table.label.classes`), or null without a label. */
  classCodes: Int32Array | null;
  table: TableInfo;
}

export class DpMargin {
  readonly #core: CoreModule;
  readonly #host: ShardHost | undefined;
  /** Pure accounting functions. */
  readonly accounting: Accounting;
  /** Library version (from the C++ core). */
  readonly version: string;
  /** Every option of a run (the core's table): name, type, default, help. */
  readonly options: readonly OptionInfo[];

  /** @internal Use `load()`. */
  constructor(core: CoreModule, host?: ShardHost) {
    this.#core = core;
    this.#host = host;
    this.version = unwrap(core.version());
    this.options = Object.freeze(unwrap(core.optionTable()));
    // Arguments go to the core as given: it checks their types and names them in its errors.
    this.accounting = {
      gdpDelta: (e, m) => unwrap(core.gdpDelta(e, m)),
      gdpLogDelta: (e, m) => unwrap(core.gdpLogDelta(e, m)),
      gdpEpsilon: (m, d) => unwrap(core.gdpEpsilon(m, d)),
      gdpMu: (e, d) => unwrap(core.gdpMu(e, d)),
      composeGdp: (mus) => unwrap(core.composeGdp(mus)),
      paperMuMstar: (e, d) => unwrap(core.paperMuMstar(e, d)),
      paperEpsilonLemma: (m, d) => unwrap(core.paperEpsilonLemma(m, d)),
      marginGrid: (n, b) => unwrap(core.marginGrid(n, b)),
      tnbPgf: (eta, r, s) => unwrap(core.tnbPgf(eta, r, s)),
      ps22Epsilon: (m, eta, r, d) => unwrap(core.ps22Epsilon(m, eta, r, d)),
      ps22Mu: (e, eta, r, d) => unwrap(core.ps22Mu(e, eta, r, d)),
      privtunePaperEpsilon: (m, r, d) => unwrap(core.privtunePaperEpsilon(m, r, d)),
    };
  }

  /** The constant defaults of the core's options, by name (rule-based or required ones are
   *  absent; `options` says what they mean). */
  get defaults(): Readonly<Record<string, number | boolean | string>> {
    return Object.fromEntries(this.options.filter((o) => o.default !== null).map((o) => [o.name, o.default!]));
  }

  /**
   * Plan a training run without data: μ in total and per run, and per margin candidate the
   * JL dimension, hinge scale, sensitivity, iterations, noise sd and step size.
   * @throws DpMarginError with code BAD_PARAMETER naming the parameter.
   */
  account(options: AccountOptions): Plan {
    return unwrap(this.#core.plan({ ...requireObject(options, "options") }));
  }

  /**
   * The plan `train(data, options)` would make for a table of `rows` rows and `features` feature
   * columns (and a label of `classes` classes: 2, the default, or 3 to 50 trained one-vs-rest),
   * before any data is read (every default resolved by the core, the intercept included in d).
   * JavaScript-only options (callbacks, signal, workers) are ignored.
   * @throws DpMarginError with code BAD_PARAMETER naming the parameter.
   */
  planFor(options: TrainOptions, table: { rows: number; features: number; classes?: number }): Plan {
    const o = requireObject(options, "options");
    const t = requireObject(table, "table");
    return unwrap(this.#core.planForTable(coreOptions(o, TRAIN_JS_ONLY), t.rows as number, t.features as number,
      t.classes as number | undefined));
  }

  /**
   * Train a differentially private linear classifier (selector "auto" by default, SPEC §2.7) on a numeric
   * table. Runs in chunks so `onProgress` fires and `signal` can cancel between iterations;
   * `onPlan` receives the resolved plan before the first iteration.
   * With `seed` the run is deterministic and NOT private (`report.seeded === true`).
   * `workers: 2` splits the rows over two worker threads (same mechanism; docs/reference/SHARDING.md).
   * With `data.classes` (3 to 50 class names; labels are class indices) it trains one-vs-rest:
   * one binary problem per class under the one (ε, δ) (docs/reference/MULTICLASS.md).
   * @throws DpMarginError (BAD_PARAMETER, NON_FINITE, BAD_LABEL, ONE_CLASS, OUT_OF_MEMORY, CANCELLED)
   */
  train(data: TrainingData & { classes: string[] }, options: TrainOptions): Promise<TrainResult<MulticlassModelFile>>;
  train(data: TrainingData, options: TrainOptions): Promise<TrainResult>;
  train(data: TrainingData, options: TrainOptions): Promise<TrainResult<AnyModelFile>> {
    return train(this.#core, data, options, this.#host);
  }

  /**
   * Train on a CSV without ever holding the table in JavaScript. The core reads it in streaming
   * passes: a scan (dialect, header, rows, the kind of every column's cells), a count of the
   * categories to discover (only when some are), and a fill straight into wasm memory (none for
   * a plain numeric table of known size: the scan keeps its numbers; docs/reference/CSV.md), encoded
   * as the resolved schema says — numeric columns (missing cells: a public constant plus a 0/1
   * missing column), text columns one-hot over declared or privately discovered levels (or
   * hashed), the label's classes declared, 0/1, or privately discovered. Then it trains as
   * {@link DpMargin.train}; the model records the encoding, the schema and the label.
   * `options.signal` also cancels reading.
   *
   * `source`: CSV text, a `Blob`/`File`, or a re-readable byte source (`csvFile(path)` in Node).
   * `csv`: {@link CsvReadOptions} — `label` (default: the column whose header says so), `classes`
   * (declared; with 3 or more, one-vs-rest), `positive`, `features`, `ignore`, `missing`,
   * `categories`, `schema`, the dialect, `rows`. A text label whose discovered classes are 3 or
   * more also trains one-vs-rest: check `model.classes`.
   * @throws DpMarginError: the reader's codes (CSV_PARSE, RAGGED_ROW, NON_NUMERIC, NON_FINITE,
   * MISSING_VALUE, LABEL_NOT_FOUND, BAD_LABEL, ONE_CLASS, OUT_OF_MEMORY, BAD_PARAMETER) and
   * train()'s. The module stays usable after any of them.
   */
  trainCsv(source: CsvSource, csv: CsvReadOptions & { classes: readonly string[] },
    options: TrainOptions): Promise<CsvTrainResult<AnyModelFile>>;
  trainCsv(source: CsvSource, csv: CsvReadOptions, options: TrainOptions): Promise<CsvTrainResult>;
  trainCsv(source: CsvSource, csv: CsvReadOptions, options: TrainOptions): Promise<CsvTrainResult<AnyModelFile>> {
    return trainCsv(this.#core, source, csv, options, this.#host);
  }

  /**
   * Yardsticks of predictions on labelled rows — accuracy, balanced accuracy, the majority
   * rate, precision/recall/F1, ROC AUC and curve — as `dpmargin train --test` and `predict`
   * print them: the package's `evaluate`, here on the instance too (`dp.evaluate(p.scores,
   * p.truth)` after `model.predictCsv`). Computed on your rows: local, NOT private.
   */
  evaluate(scores: ArrayLike<number>, truth: ArrayLike<number>, options: EvaluateOptions = {}): Evaluation {
    return evaluate(scores, truth, options);
  }

  /**
   * The position of column `name` in a CSV's header (e.g. `summarizeCsv(…).header`), or a
   * `DpMarginError` naming `parameter` — LABEL_NOT_FOUND for "label", else BAD_PARAMETER — whose
   * message lists every column and the names `name` resembles ("did you mean"): the core's
   * `data::requireColumn`, the message of every column-name error of the package.
   */
  findColumn(header: readonly string[], name: string, parameter = "column", what = `${parameter} names`): number {
    return unwrap(this.#core.requireColumn([...header], name, parameter, what));
  }

  /**
   * A CSV's header, read alone (the bytes up to the end of its first row), with the label and
   * the columns a model trained with these CSV options may read, by the core's public rules
   * (the header's names and the options — never a cell): what can be checked before any data
   * are read, e.g. that a test file holds every column a model of the training file may need.
   */
  csvHeader(source: CsvSource, options: Parameters<typeof csvHeader>[2] = {}): Promise<CsvHeader> {
    return csvHeader(this.#core, source, options);
  }

  /** Column kinds, missing cells and value counts of a CSV, its first rows, and the schema
   *  training would resolve: a preview (local; never released). One streaming pass. */
  summarizeCsv(source: CsvSource, options: SummaryOptions = {}): Promise<CsvSummary> {
    return summarizeCsv(this.#core, source, options);
  }

  /**
   * What a training run on this CSV would decide, and how — before anything is spent. One
   * streaming pass of the core's reader over the rows the run would train on (`csv.rows`), then
   * the run's own resolution (docs/PRIVACY.md, "The schema"):
   * - public facts: the header, n, the dialect, the label the core proposes and why, the
   *   identifier columns, the positive-class rule;
   * - per column: its kind and nullable with their decision — `declared` (your `csv` options or
   *   `schema`), `public` (a rule of the header and the options) or `private` (decided in the
   *   run on noisy counts: the value shown is then the LOCAL expectation from the exact counts);
   *   the column's exact facts under `local`;
   * - the encoding's width and feature names under that expectation (discovered levels and
   *   classes counted from the local values above the budget's threshold: an estimate, said so);
   * - with `options` (ε, δ, … as for `trainCsv`): the plan the run would make. It equals the
   *   run's `report.plan` whenever the run's private decisions agree with the exact counts and
   *   nothing is discovered; what the run would refuse comes back as `planError`.
   *
   * **Local, NOT private** (`private: false`): show it to the data owner; never publish it or
   * copy a value read from it into a declaration (that would make the run not private).
   * @throws DpMarginError for a source that cannot be read (CSV_PARSE, RAGGED_ROW, …), CSV
   * options of the wrong type or value, or CANCELLED.
   */
  previewCsv(source: CsvSource, csv: PreviewOptions = {}, options?: TrainOptions): Promise<CsvPreview> {
    return previewCsv(this.#core, source, csv, options);
  }

  /**
   * Read a CSV into JavaScript typed arrays, encoded as training would encode it — but with
   * categories and classes read exactly from the data: **local and NOT private** (to inspect a
   * table; never release what it returns). Rows × `columns` float32, row-major; `labels` ±1 for a
   * binary label, `classCodes` the class index per row.
   */
  async readCsv(source: CsvSource, csv: CsvReadOptions = {}): Promise<CsvTable> {
    const { dataset, table, classCodes } = await readLocalTable(this.#core, source, csv);
    try {
      const shape = unwrap(dataset.shape());
      const width = table.featureNames.length;
      const heap = unwrap(dataset.features());
      const features = new Float32Array(shape.rows * width);
      for (let i = 0; i < shape.rows; i++) features.set(heap.subarray(i * shape.stride, i * shape.stride + width), i * width);
      const label = table.label;
      // A multiclass label: the class index per row with the class names (what train() takes);
      // a binary one: ±1 (the positive class +1).
      const multiclass = label !== null && label.classes.length >= 3;
      return {
        features, columns: width, featureNames: table.featureNames,
        labels: label === null ? null : multiclass ? classCodes : unwrap(dataset.labels()).slice(),
        ...(multiclass ? { classes: [...label.classes] } : {}),
        classCodes: label === null ? null : classCodes,
        table,
      };
    } finally {
      dispose(dataset);
    }
  }

  /**
   * Current size of this instance's WebAssembly memory in bytes. It grows as tables are
   * allocated and never shrinks (freed memory is reused by later tables).
   */
  get memoryBytes(): number {
    return this.#core.HEAPF32.buffer.byteLength;
  }

  /**
   * The margin profile (SPEC §2.8; the paper's removal–margin experiment): fit a linear SVM, then
   * repeatedly remove the rows with the smallest normalized margin and refit, recording the
   * margin. **Not differentially private** (`private: false`): a local diagnostic, never released.
   */
  profileMargins(data: TrainingData, options: ProfileOptions = {}): Promise<MarginProfile> {
    return profileMargins(this.#core, data, options);
  }

  /** The margin profile of a CSV, streamed into wasm memory. Not private. */
  profileCsv(source: CsvSource, csv: CsvReadOptions,
    options: ProfileOptions = {}): Promise<MarginProfile & { table: TableInfo }> {
    return profileCsv(this.#core, source, csv, options);
  }

  /** A new privacy ledger (optionally with a total cap): pass it as the `ledger` option of every
   *  train()/trainCsv() on the same data and it records each run and refuses one beyond the cap
   *  (BUDGET_EXCEEDED) before any iteration. docs/reference/ACCOUNTING.md, "Budget across runs". */
  ledger(options: { cap?: { epsilon: number; delta: number } } = {}): PrivacyLedger {
    const o = requireObject(options, "options");
    return new PrivacyLedger(this.#core, { format: "dpmargin-ledger", version: 1, cap: (o.cap as LedgerFile["cap"]) ?? null, runs: [] });
  }

  /** A ledger from its file (JSON text or object), to keep accumulating. */
  ledgerFromJSON(json: LedgerFile | string): PrivacyLedger {
    return new PrivacyLedger(this.#core, parseLedgerFile(json));
  }

  /** Load a model file (validated; versions 1 and 2, binary or multiclass) and bind it to this
   *  module for prediction. */
  modelFromJSON(json: MulticlassModelFile): Model<MulticlassModelFile>;
  modelFromJSON(json: ModelFile): Model;
  modelFromJSON(json: AnyModelFile | string): Model<AnyModelFile>;
  modelFromJSON(json: AnyModelFile | string): Model<AnyModelFile> {
    return Model.fromJSON(json, this);
  }

  /** @internal */
  get core(): CoreModule {
    return this.#core;
  }
}
