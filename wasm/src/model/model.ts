import type { CoreDataset, CoreModule } from "../wasm/dpmargin_core.mjs";
import { DpMarginError, badParameter } from "../errors.js";
import { dispose, unwrap } from "../module/status.js";
import { PREPROCESSING_OPTIONS, pick, requireObject } from "../options.js";
import { toCoreDataset } from "../train/data.js";
import type { CsvSource } from "../csv/source.js";
import type { CsvReadOptions, SchemaFile } from "../csv/options.js";
import { splitCsvOptions } from "../csv/options.js";
import { runPasses } from "../csv/passes.js";
import { expectSize } from "../csv/table.js";
import type { ColumnMap, RowNormalization, TrainReport } from "../types.js";
import { LIBRARY_VERSION } from "../version.js";
import { checkReleased } from "../release.js";
import {
  claimsMulticlass, isMulticlassFile, multiclassFile, stackedWeights, validateMulticlass,
  type MulticlassCsvPredictions, type MulticlassModelFile, type MulticlassPredictions,
} from "./multiclass.js";

/** The preprocessing a model applies to every row it scores (resolved by the core at training). */
export interface ModelPreprocessing {
  intercept: boolean;
  rowNormalization: RowNormalization;
  normBound: number;
  /** [lo, hi] per feature (applied first, by the map of `columnMaps`), or null. */
  columnRanges: [number, number][] | null;
  /** The per-value map of each range (absent: min-max for every column). */
  columnMaps?: ColumnMap[];
}

/** The label of a binary model: its column, its positive class, and (version 2) `classes:
 *  [positive]`, the class its weights score against the rest. The label's full class list (as
 *  declared or discovered) is in `schema.classes`. */
export interface ModelLabel {
  column: string;
  positive: string;
  classes?: string[];
}

/** The model file of a binary label (SPEC §5.3, docs/reference/MODEL_FORMAT.md): version 3 is written
 *  (version 2 is the same for a binary label; version 1, without `label.classes`, `encoding`
 *  and `schema`, is read). A multiclass label has {@link MulticlassModelFile}. */
export interface ModelFile {
  format: "dpmargin-model";
  version: 1 | 2 | 3;
  /** Model column names, one per weight ("age", "age: missing", "plan: basic", …). */
  features: string[];
  /** Weights of the features in the preprocessed space (intercept excluded). */
  weights: number[];
  /** Weight of the constant feature, or null when trained without an intercept. */
  intercept: number | null;
  preprocessing: {
    intercept: boolean; rowNormalization: RowNormalization; normBound: number;
    /** [lo, hi] per feature (applied first, by the map of `columnMaps`), or null. */
    columnRanges: [number, number][] | null;
    /** The per-value map of each range, one per feature (absent: min-max for every column;
     *  docs/reference/MODEL_FORMAT.md). */
    columnMaps?: ColumnMap[];
    /** True when the ranges were estimated privately (covered by privacy.muRanges). */
    rangesPrivate: boolean;
  };
  label: ModelLabel | null;
  /** How a CSV row becomes the model's columns (trained from a CSV; version 2): per file
   *  column its kind, missing handling, levels or hash buckets. Absent: every feature is a
   *  numeric column of the same name. */
  encoding?: Record<string, unknown>;
  /** The resolved schema of the training table (public; pass it as `schema` to repeat). */
  schema?: SchemaFile;
  privacy: {
    epsilon: number; delta: number; mu: number; muRanges: number; muTrain: number;
    /** The private schema decisions' and category discovery's parts of μ (CSV runs; absent: 0). */
    muSchema?: number; muDiscovery?: number;
    neighbouring: "replace-one";
    calibration: string; selector: string; seeded: boolean;
  };
  selection: {
    gamma: number; k: number; projected: boolean;
    candidates: TrainReport["candidates"];
  };
  library: string;
}

/** Predictions: the decision score ⟨w, x⟩ of each row and the predicted class (±1). */
export interface Predictions {
  scores: Float64Array;
  labels: Int8Array;
}

/** Any model file this library writes or reads: a binary label's or a multiclass one's. */
export type AnyModelFile = ModelFile | MulticlassModelFile;
/** What a model of file type F predicts (multiclass: scores per class and the argmax). */
export type PredictionsOf<F extends AnyModelFile> = F extends MulticlassModelFile ? MulticlassPredictions : Predictions;
export type CsvPredictionsOf<F extends AnyModelFile> = F extends MulticlassModelFile ? MulticlassCsvPredictions : CsvPredictions;
/**
 * A model's predictions on the rows it was trained on, with their true labels (train/trainCsv
 * with `trainingPredictions: true`): scored in the module on the prepared training rows before
 * they are freed — no second read of the file — and exactly what `predictCsv` (`predict`) gives
 * on the same rows. `truth`: ±1 for a binary model; for a multiclass one the class index (−1: a
 * value that is none of the model's classes). Local, NOT private: never part of the model file
 * or the report.
 */
export type TrainingPredictionsOf<F extends AnyModelFile> = F extends MulticlassModelFile
  ? MulticlassPredictions & { truth: Int32Array } : Predictions & { truth: Int8Array };

/** Options of {@link Model.predictCsv}: the model's columns are read by name with its encoding;
 *  only the dialect, the label to compare with, and the selection are chosen here. */
export type PredictCsvOptions = Pick<CsvReadOptions,
  "label" | "positive" | "missing" | "fill" | "delimiter" | "decimal" | "encoding" | "missingTokens" | "maxBytes"
  | "signal" | "onProgress" | "rows">;

/** Predictions for a CSV, with the true labels when a label column was read. */
export interface CsvPredictions extends Predictions {
  /** ±1 from the label column (`options.label`, default the model's), else null. */
  truth: Int8Array | null;
  /** Data rows read. */
  table: { rows: number; labelled: boolean; imputed: number; missing: number };
}

const PREDICT_CSV_OPTIONS = ["label", "positive", "missing", "fill", "delimiter", "decimal", "encoding", "missingTokens",
  "maxBytes", "signal", "onProgress", "rows"];

/** The encoding of a model without one (version 1, or trained from arrays): every feature a
 *  numeric column of the same name; a missing cell is refused, or the public `fill`. */
function numericEncoding(features: string[], fill: number | null): Record<string, unknown> {
  return {
    blocks: features.map((column) => ({
      column, kind: "numeric", missing: fill === null ? "error" : "constant", nullable: fill !== null,
      fill: fill ?? 0, indicator: false,
    })),
    width: features.length,
  };
}

function badModel(message: string): DpMarginError {
  return new DpMarginError("BAD_MODEL", `invalid model file: ${message}`);
}

const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
// Every index, holes included: Array.prototype.every/forEach skip the holes of a sparse array,
// so a weight deleted from a model object used to pass and predict gave NaN (model-file fuzzing).
const allOf = <T>(a: unknown[], ok: (v: unknown, i: number) => v is T): a is T[] => {
  for (let i = 0; i < a.length; i++) if (!ok(a[i], i)) return false;
  return true;
};

/** The parts of μ beyond ranges and training that a CSV run spent (absent when none). */
function budgetParts(plan: TrainReport["plan"]): { muSchema?: number; muDiscovery?: number } {
  return {
    ...(plan.muSchema ? { muSchema: plan.muSchema } : {}),
    ...(plan.muDiscovery ? { muDiscovery: plan.muDiscovery } : {}),
  };
}

/**
 * A trained classifier. Its weights and selection record are the DP release. `F` is its file
 * type: a binary label's {@link ModelFile} (the default) or a {@link MulticlassModelFile}.
 */
export class Model<F extends AnyModelFile = ModelFile> {
  readonly #core: CoreModule;
  readonly #file: F;

  private constructor(core: CoreModule, file: F) {
    this.#core = core;
    this.#file = file;
  }

  /** @internal `problems`: the weights of each binary problem (one for a binary label). */
  static fromTraining(core: CoreModule, t: {
    problems: ArrayLike<number>[]; columns: number; featureNames?: string[];
    preprocessing: ModelPreprocessing; report: TrainReport; label?: ModelFile["label"];
    /** A multiclass label: its column (null for arrays) and class names, one per problem. */
    multiclass?: { column: string | null; classes: string[] };
    /** Trained from a CSV: how to read one, and the resolved schema. */
    encoding?: Record<string, unknown>; schema?: SchemaFile;
  }): Model<AnyModelFile> {
    const features = t.featureNames ?? Array.from({ length: t.columns }, (_, i) => `x${i}`);
    const preprocessing = { ...t.preprocessing, rangesPrivate: t.report.rangesPrivate };
    if (t.multiclass) {
      return new Model<AnyModelFile>(core, checkReleased("model", {
        ...multiclassFile({
          problems: t.problems, columns: t.columns, features, intercept: t.preprocessing.intercept,
          preprocessing, report: t.report, ...t.multiclass, library: LIBRARY_VERSION,
        }),
        ...(t.encoding ? { encoding: t.encoding } : {}),
        ...(t.schema ? { schema: t.schema } : {}),
      }));
    }
    const w = Array.from(t.problems[0]);
    const plan = t.report.plan;
    return new Model<AnyModelFile>(core, checkReleased("model", {
      format: "dpmargin-model",
      version: 3,
      features,
      weights: w.slice(0, t.columns),
      intercept: t.preprocessing.intercept ? w[t.columns] : null,
      preprocessing,
      label: t.label ? { column: t.label.column, positive: t.label.positive, classes: [t.label.positive] } : null,
      ...(t.encoding ? { encoding: t.encoding } : {}),
      ...(t.schema ? { schema: t.schema } : {}),
      privacy: {
        epsilon: plan.epsilon, delta: plan.delta, mu: plan.mu,
        muRanges: plan.muRanges, muTrain: plan.muTrain, ...budgetParts(plan),
        neighbouring: "replace-one", calibration: plan.calibration,
        selector: plan.selector, seeded: t.report.seeded,
      },
      selection: {
        gamma: t.report.selectedMargin, k: plan.candidates[t.report.selectedCandidate].k,
        projected: plan.candidates[t.report.selectedCandidate].projected,
        candidates: t.report.candidates,
      },
      library: LIBRARY_VERSION,
    }));
  }

  /** Validate a model file and bind it to a loaded module (`dp.modelFromJSON` calls this). */
  static fromJSON(json: AnyModelFile | string, dp: { core: CoreModule }): Model<AnyModelFile> {
    let f: unknown = json;
    if (typeof json === "string") {
      try {
        f = JSON.parse(json);
      } catch (error) {
        throw badModel(`not JSON (${(error as Error).message})`);
      }
    }
    if (f === null || typeof f !== "object") throw badModel("not an object");
    const m = f as Record<string, unknown>;
    if (m.format !== "dpmargin-model") throw badModel(`format must be "dpmargin-model", but is ${JSON.stringify(m.format)}`);
    if (m.version !== 1 && m.version !== 2 && m.version !== 3) {
      throw badModel(`unsupported version ${JSON.stringify(m.version)} (this library reads versions 1, 2 and 3)`);
    }
    if (!Array.isArray(m.features) || m.features.length === 0
      || !allOf(m.features, (x): x is string => typeof x === "string")) throw badModel("features must be a non-empty array of names");
    // A multiclass label (version 2 or 3, label.classes of 3 or more): its own weights, intercepts,
    // label and selection (multiclass.ts); the preprocessing and the budget as below.
    const multiclass = claimsMulticlass(m);
    if (multiclass) {
      // checked after the preprocessing (validateMulticlass)
    } else if (!Array.isArray(m.weights) || m.weights.length !== m.features.length) {
      throw badModel(`weights must be an array of ${Array.isArray(m.features) ? m.features.length : "?"} numbers (one per feature)`);
    }
    for (let i = 0; !multiclass && i < (m.weights as unknown[]).length; i++) {
      if (!isFiniteNumber((m.weights as unknown[])[i])) throw badModel(`weights[${i}] is not a finite number`);
    }
    const p = m.preprocessing as Record<string, unknown> | undefined;
    if (!p || typeof p.intercept !== "boolean" || (p.rowNormalization !== "unit-norm" && p.rowNormalization !== "clip")
      || !isFiniteNumber(p.normBound) || p.normBound <= 0) {
      throw badModel("preprocessing must be {intercept: boolean, rowNormalization: \"unit-norm\"|\"clip\", normBound > 0}");
    }
    const ranges = p.columnRanges;
    if (ranges !== null && (!Array.isArray(ranges) || ranges.length !== m.features.length
      || !allOf(ranges, (r): r is [number, number] => Array.isArray(r) && r.length === 2 && isFiniteNumber(r[0]) && isFiniteNumber(r[1]) && r[1] > r[0]))) {
      throw badModel(`preprocessing.columnRanges must be null or ${m.features.length} pairs [lo, hi] with hi > lo`);
    }
    const maps = p.columnMaps;
    if (maps !== undefined && (ranges === null || !Array.isArray(maps) || maps.length !== m.features.length
      || !allOf(maps, (x): x is ColumnMap => x === "min-max" || x === "symmetric" || x === "signed-log"))) {
      throw badModel(`preprocessing.columnMaps must be absent, or with columnRanges ${m.features.length} of "min-max", "symmetric", "signed-log"`);
    }
    if (typeof p.rangesPrivate !== "boolean") throw badModel("preprocessing.rangesPrivate must be a boolean");
    if (!multiclass && (p.intercept ? !isFiniteNumber(m.intercept) : m.intercept !== null)) {
      throw badModel(p.intercept ? "intercept must be a finite number" : "intercept must be null without an intercept");
    }
    const privacy = m.privacy as Record<string, unknown> | undefined;
    if (!privacy || !isFiniteNumber(privacy.epsilon) || !isFiniteNumber(privacy.delta) || !isFiniteNumber(privacy.mu)
      || typeof privacy.seeded !== "boolean" || privacy.neighbouring !== "replace-one") {
      throw badModel("privacy must hold epsilon, delta, mu, neighbouring \"replace-one\" and seeded");
    }
    if (multiclass) {
      validateMulticlass(m, m.features.length);
    } else {
      const label = m.label as Record<string, unknown> | null | undefined;
      if (label !== null && (typeof label !== "object" || typeof label?.column !== "string" || typeof label?.positive !== "string")) {
        throw badModel("label must be null or {column, positive} strings");
      }
      // Version 2 names the one class its weights score against the rest: [positive].
      if (label && label.classes !== undefined
        && !(m.version !== 1 && Array.isArray(label.classes) && label.classes.length === 1 && label.classes[0] === label.positive)) {
        throw badModel("label.classes of a binary label must be [positive] (versions 2 and 3)");
      }
      const selection = m.selection as Record<string, unknown> | undefined;
      if (!selection || !isFiniteNumber(selection.gamma)) throw badModel("selection.gamma must be a number");
      // Scores are ⟨w, x⟩ with |x_j| ≤ b: bounded weights keep them finite (model-file fuzzing:
      // weights near 1e308 gave ±∞ − ∞ = NaN scores).
      const magnitude = (m.weights as number[]).reduce((sum, w) => sum + Math.abs(w), Math.abs(Number(m.intercept ?? 0)));
      if (!(magnitude * Math.max(1, p.normBound as number) <= 1e300)) {
        throw badModel("weights too large: b * sum |w| must be at most 1e300");
      }
    }
    if (m.encoding !== undefined) {
      if (m.version === 1) throw badModel("encoding is a field of versions 2 and 3");
      // The core parses it (BAD_MODEL naming the field) and it must give the model's columns.
      const read = new dp.core.CsvRead();
      try {
        unwrap(read.start({}, m.encoding as Record<string, unknown>, null, null));
      } catch (error) {
        throw badModel(`encoding rejected: ${(error as Error)?.message ?? error}`);
      } finally {
        dispose(read);
      }
      const width = (m.encoding as { width?: unknown }).width;
      if (width !== m.features.length) throw badModel(`encoding.width must be ${m.features.length} (one per feature)`);
    }
    // The core's own checks of the preprocessing (e.g. normBound <= 1e30), on a one-row table, so
    // a file that loads always predicts.
    let probe: CoreDataset | null = null;
    try {
      probe = toCoreDataset(dp.core, new Float32Array(m.features.length), m.features.length, null, false);
      unwrap(probe.prepare(pick(p, PREPROCESSING_OPTIONS)));
    } catch (error) {
      throw badModel(`preprocessing rejected: ${(error as Error)?.message ?? error}`);
    } finally {
      dispose(probe);
    }
    // Unknown extra fields are kept; a copy of a pathologically deep one overflows the stack
    // (model-file fuzzing: RangeError escaped), which is a bad file, not an internal error.
    let copy: AnyModelFile;
    try {
      copy = structuredClone(m) as unknown as AnyModelFile;
    } catch (error) {
      throw badModel(`cannot be copied (${(error as Error)?.message ?? error})`);
    }
    return new Model<AnyModelFile>(dp.core, copy);
  }

  /** Feature names, in the order predict() expects columns. */
  get features(): readonly string[] { return this.#file.features; }
  /** The feature weights (multiclass: K × features, row k for class k, row-major). */
  get weights(): Float64Array { return Float64Array.from(this.#file.weights.flat()); }
  /** The intercept of a binary model, or null (no intercept, or a multiclass model: see
   *  `intercepts`). */
  get intercept(): number | null { return isMulticlassFile(this.#file) ? null : this.#file.intercept; }
  /** The intercept of every weight vector (one per class; one for a binary model), or null. */
  get intercepts(): Float64Array | null {
    const b = this.#file.intercept;
    return b === null ? null : Float64Array.from(Array.isArray(b) ? b : [b]);
  }
  /** The selected margin γ (one-vs-rest multiclass: NaN; every class's is in `gammas`). */
  get gamma(): number {
    const s = this.#file.selection;
    return Array.isArray(s) ? Number.NaN : s.gamma;
  }
  /** The selected margin of every weight vector (one per class — a joint model's one margin K
   *  times; one for a binary model). */
  get gammas(): number[] {
    const f = this.#file;
    if (!isMulticlassFile(f)) return [f.selection.gamma];
    const s = f.selection;
    return Array.isArray(s) ? s.map((c) => c.gamma) : f.label.classes.map(() => s.gamma);
  }
  /** The class names of a multiclass model (score and label index k is classes[k]); null for a
   *  binary one. */
  get classes(): string[] | null { return isMulticlassFile(this.#file) ? [...this.#file.label.classes] : null; }
  /** True when trained with a seed: such a model is NOT differentially private. */
  get seeded(): boolean { return this.#file.privacy.seeded; }
  get privacy(): F["privacy"] { return { ...this.#file.privacy }; }
  /** The label: a binary model's column and positive class ({column, positive}, as version 1),
   *  or a multiclass model's column and classes ({column, classes}). */
  get label(): F["label"] {
    const f = this.#file;
    if (isMulticlassFile(f)) return { column: f.label.column, classes: [...f.label.classes] } as F["label"];
    return (f.label ? { column: f.label.column, positive: f.label.positive } : null) as F["label"];
  }

  /**
   * Score rows with the stored preprocessing applied: `rows` is row-major (n × features.length)
   * or an array of rows. Positive class where the score is > 0; a multiclass model scores every
   * class (n × K, row-major) and predicts the class with the largest score.
   */
  predict(rows: ArrayLike<number> | ArrayLike<number>[]): PredictionsOf<F> {
    const d = this.#file.features.length;
    let flat: ArrayLike<number>;
    if (Array.isArray(rows) && rows.length > 0 && typeof rows[0] === "object") {
      const out = new Float32Array(rows.length * d);
      (rows as ArrayLike<number>[]).forEach((r, i) => {
        if (!r || r.length !== d) throw badParameter(`rows[${i}]`, `a row of ${d} numbers`, r?.length);
        out.set(r, i * d);
      });
      flat = out;
    } else {
      flat = rows as ArrayLike<number>;
    }
    const dataset = toCoreDataset(this.#core, flat, d, null, false);
    try {
      return this.#score(dataset);
    } finally {
      dispose(dataset);
    }
  }

  /**
   * Score the rows of a CSV: the model's feature columns are read by name (other columns are
   * skipped), streamed straight into wasm memory with the stored preprocessing applied. With
   * `label`, the true labels come back too (`positive` defaults to the model's positive value
   * when the column is the model's label column).
   * @throws DpMarginError as `trainCsv` (BAD_PARAMETER names a model feature missing from
   * the file), CANCELLED.
   */
  async predictCsv(source: CsvSource, options: PredictCsvOptions = {}): Promise<CsvPredictionsOf<F>> {
    const o = requireObject(options, "options");
    for (const key of Object.keys(o)) {
      if (!PREDICT_CSV_OPTIONS.includes(key) && o[key] !== undefined) {
        throw badParameter(key, `a known option (${PREDICT_CSV_OPTIONS.join(", ")})`, "set");
      }
    }
    const split = splitCsvOptions(o);
    const f = this.#file;
    const multiclass = isMulticlassFile(f);
    const own = f.label;
    // The label to compare with: given, else the model's own column when the file has it.
    const labelName = (split.core.label as string | undefined) ?? own?.column ?? undefined;
    // The classes the truth is read against: a multiclass model's, or a binary model's positive
    // class against every other value.
    let classes: string[] | null;
    if (multiclass) {
      classes = labelName === undefined ? null : [...f.label.classes];
      if (split.core.positive !== undefined) throw badParameter("positive", "unset for a multiclass model", split.core.positive);
    } else {
      const positive = (split.core.positive as string | undefined)
        ?? (own && labelName === own.column ? (own as ModelLabel).positive : undefined);
      if (o.label !== undefined && positive === undefined) {
        throw badParameter("positive", "given: the label column is not the model's own", positive);
      }
      classes = positive === undefined ? null : [positive];
    }
    const core: Record<string, unknown> = { ...split.core };
    delete core.positive;
    delete core.label;
    if (labelName !== undefined) core.label = labelName;
    let encoding = f.encoding;
    if (encoding === undefined) {
      encoding = numericEncoding(f.features, core.missing === "constant" ? Number(core.fill ?? 0) : null);
    }
    delete core.missing;
    delete core.fill;
    const read = new this.#core.CsvRead();
    let dataset: CoreDataset | null = null;
    try {
      unwrap(read.start(core, encoding, classes, split.rows));
      expectSize(read, source);  // a plain numeric file is then read once (docs/reference/CSV.md)
      await runPasses(read, source, split.signal, split.onProgress);
      dataset = new this.#core.Dataset();
      unwrap(read.takeDataset(dataset));
      const labelled = unwrap(read.labelled());
      if (o.label !== undefined && !labelled) {
        // The core's message: every column of the file, and "did you mean".
        unwrap(this.#core.requireColumn(unwrap(read.header()), String(o.label), "label", "label column"));
        throw new DpMarginError("LABEL_NOT_FOUND", `label column ${JSON.stringify(o.label)} is not in the header`, "label");
      }
      let truth: Int8Array | null = null;
      if (labelled) {
        const codes = unwrap(read.labelCodes());
        truth = new Int8Array(codes.length);
        for (let i = 0; i < codes.length; i++) truth[i] = codes[i] === 0 ? 1 : -1;
      }
      unwrap(dataset.validate(false));
      const fill = unwrap(read.fill());
      const predictions = this.#score(dataset);
      // One label per row (a multiclass model has K scores per row).
      const table = { rows: predictions.labels.length, labelled, imputed: fill.imputed, missing: fill.marked };
      if (multiclass) {
        // The truth is the class index (−1: a value that is not one of the model's classes).
        const codes = labelled ? Int32Array.from(unwrap(read.labelCodes()), (k) => (k < 0 ? -1 : k)) : null;
        return { ...predictions, truth: codes, table } as CsvPredictionsOf<F>;
      }
      return { ...predictions, truth, table } as CsvPredictionsOf<F>;
    } finally {
      dispose(dataset);
      dispose(read);
    }
  }

  /** The encoding a CSV is read with (null: every feature a numeric column of its name). */
  get encoding(): Record<string, unknown> | null {
    return this.#file.encoding ? structuredClone(this.#file.encoding) : null;
  }

  /** The resolved schema of the training table, when trained from a CSV. */
  get schema(): SchemaFile | null {
    return this.#file.schema ? structuredClone(this.#file.schema) : null;
  }

  // Applies the stored preprocessing (column ranges, intercept, row step) in place, then scores.
  #score(dataset: CoreDataset): PredictionsOf<F> {
    const f = this.#file;
    unwrap(dataset.prepare(pick(f.preprocessing as unknown as Record<string, unknown>, PREPROCESSING_OPTIONS)));
    return this.scorePrepared(dataset);
  }

  /**
   * @internal Scores rows already prepared with this model's preprocessing — its own training
   * rows, prepared by the trainer, still in the module (train.ts) — as {@link predictCsv} scores
   * the rows it prepares (the core: ⟨w_k, x⟩ per weight vector, and ±1 or the argmax).
   */
  scorePrepared(dataset: CoreDataset): PredictionsOf<F> {
    const { weights, problems } = this.scoringWeights();
    const { scores, labels } = unwrap(dataset.predict(weights, problems));
    return this.predictionsFrom(scores, labels);
  }

  /** @internal The weights the core's learn::predict scores with: one vector per problem
   *  (a binary model: one), each with its intercept last, stacked. */
  scoringWeights(): { weights: Float64Array; problems: number } {
    const f = this.#file;
    if (isMulticlassFile(f)) return { weights: stackedWeights(f), problems: f.label.classes.length };
    return { weights: Float64Array.from(f.intercept === null ? f.weights : [...f.weights, f.intercept]), problems: 1 };
  }

  /** @internal The predictions of this model from learn::predict's scores and labels. */
  predictionsFrom(scores: Float64Array, labels: Int32Array): PredictionsOf<F> {
    const f = this.#file;
    if (isMulticlassFile(f)) {
      const classes = [...f.label.classes];
      return { scores, labels, classes, predicted: Array.from(labels, (k) => classes[k]) } as PredictionsOf<F>;
    }
    return { scores, labels: Int8Array.from(labels) } as PredictionsOf<F>;
  }

  /** The model file (SPEC §5.3; docs/reference/MODEL_FORMAT.md, docs/reference/MULTICLASS.md). */
  toJSON(): F {
    return structuredClone(this.#file);
  }
}
