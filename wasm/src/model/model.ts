import type { CoreDataset, CoreModule } from "../wasm/dpmargin_core.mjs";
import { DpMarginError, badParameter } from "../errors.js";
import { dispose, unwrap } from "../module/status.js";
import { PREPROCESSING_OPTIONS, pick, requireObject } from "../options.js";
import { toCoreDataset } from "../train/data.js";
import type { CsvSource } from "../csv/source.js";
import type { CsvReadOptions } from "../csv/columns.js";
import type { TableSchema } from "../csv/reader.js";
import { readCsvToCore } from "../csv/core.js";
import type { RowNormalization, TrainReport } from "../types.js";
import { LIBRARY_VERSION } from "../version.js";

/** The preprocessing a model applies to every row it scores (resolved by the core at training). */
export interface ModelPreprocessing {
  intercept: boolean;
  rowNormalization: RowNormalization;
  normBound: number;
  /** [lo, hi] per feature (min–max with clamping, applied first), or null. */
  columnRanges: [number, number][] | null;
}

/** The model file, version 1 (SPEC §5.3). */
export interface ModelFile {
  format: "dpmargin-model";
  version: 1;
  /** Feature names, one per weight. */
  features: string[];
  /** Weights of the features in the preprocessed space (intercept excluded). */
  weights: number[];
  /** Weight of the constant feature, or null when trained without an intercept. */
  intercept: number | null;
  preprocessing: {
    intercept: boolean; rowNormalization: RowNormalization; normBound: number;
    /** [lo, hi] per feature (min–max with clamping, applied first), or null. */
    columnRanges: [number, number][] | null;
    /** True when the ranges were estimated privately (covered by privacy.muRanges). */
    rangesPrivate: boolean;
  };
  label: { column: string; positive: string } | null;
  privacy: {
    epsilon: number; delta: number; mu: number; muRanges: number; muTrain: number;
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

/** Options of {@link Model.predictCsv}: the features are the model's, read by name. */
export type PredictCsvOptions = Pick<CsvReadOptions,
  "label" | "positive" | "missing" | "delimiter" | "maxBytes" | "signal" | "onProgress" | "rows">;

/** Predictions for a CSV, with the true labels when a label column was read. */
export interface CsvPredictions extends Predictions {
  /** ±1 from the label column (`options.label`), else null. */
  truth: Int8Array | null;
  table: TableSchema;
}

const PREDICT_CSV_OPTIONS = ["label", "positive", "missing", "delimiter", "maxBytes", "signal", "onProgress", "rows"];

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

/** A trained classifier. Its weights and selection record are the DP release. */
export class Model {
  readonly #core: CoreModule;
  readonly #file: ModelFile;

  private constructor(core: CoreModule, file: ModelFile) {
    this.#core = core;
    this.#file = file;
  }

  /** @internal */
  static fromTraining(core: CoreModule, t: {
    weights: ArrayLike<number>; columns: number; featureNames?: string[];
    preprocessing: ModelPreprocessing; report: TrainReport; label?: ModelFile["label"];
  }): Model {
    const w = Array.from(t.weights);
    const plan = t.report.plan;
    const features = t.featureNames ?? Array.from({ length: t.columns }, (_, i) => `x${i}`);
    return new Model(core, {
      format: "dpmargin-model",
      version: 1,
      features,
      weights: w.slice(0, t.columns),
      intercept: t.preprocessing.intercept ? w[t.columns] : null,
      preprocessing: { ...t.preprocessing, rangesPrivate: t.report.rangesPrivate },
      label: t.label ?? null,
      privacy: {
        epsilon: plan.epsilon, delta: plan.delta, mu: plan.mu,
        muRanges: plan.muRanges, muTrain: plan.muTrain,
        neighbouring: "replace-one", calibration: plan.calibration,
        selector: plan.selector, seeded: t.report.seeded,
      },
      selection: {
        gamma: t.report.selectedMargin, k: plan.candidates[t.report.selectedCandidate].k,
        projected: plan.candidates[t.report.selectedCandidate].projected,
        candidates: t.report.candidates,
      },
      library: LIBRARY_VERSION,
    });
  }

  /** Validate a model file and bind it to a loaded module (`dp.modelFromJSON` calls this). */
  static fromJSON(json: ModelFile | string, dp: { core: CoreModule }): Model {
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
    if (m.version !== 1) throw badModel(`unsupported version ${JSON.stringify(m.version)} (this library reads version 1)`);
    if (!Array.isArray(m.features) || m.features.length === 0
      || !allOf(m.features, (x): x is string => typeof x === "string")) throw badModel("features must be a non-empty array of names");
    if (!Array.isArray(m.weights) || m.weights.length !== m.features.length) {
      throw badModel(`weights must be an array of ${Array.isArray(m.features) ? m.features.length : "?"} numbers (one per feature)`);
    }
    for (let i = 0; i < m.weights.length; i++) {
      if (!isFiniteNumber(m.weights[i])) throw badModel(`weights[${i}] is not a finite number`);
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
    if (typeof p.rangesPrivate !== "boolean") throw badModel("preprocessing.rangesPrivate must be a boolean");
    if (p.intercept ? !isFiniteNumber(m.intercept) : m.intercept !== null) {
      throw badModel(p.intercept ? "intercept must be a finite number" : "intercept must be null without an intercept");
    }
    const privacy = m.privacy as Record<string, unknown> | undefined;
    if (!privacy || !isFiniteNumber(privacy.epsilon) || !isFiniteNumber(privacy.delta) || !isFiniteNumber(privacy.mu)
      || typeof privacy.seeded !== "boolean" || privacy.neighbouring !== "replace-one") {
      throw badModel("privacy must hold epsilon, delta, mu, neighbouring \"replace-one\" and seeded");
    }
    const label = m.label as Record<string, unknown> | null | undefined;
    if (label !== null && (typeof label !== "object" || typeof label?.column !== "string" || typeof label?.positive !== "string")) {
      throw badModel("label must be null or {column, positive} strings");
    }
    const selection = m.selection as Record<string, unknown> | undefined;
    if (!selection || !isFiniteNumber(selection.gamma)) throw badModel("selection.gamma must be a number");
    // Scores are ⟨w, x⟩ with |x_j| ≤ b: bounded weights keep them finite (model-file fuzzing:
    // weights near 1e308 gave ±∞ − ∞ = NaN scores).
    const magnitude = (m.weights as number[]).reduce((sum, w) => sum + Math.abs(w), Math.abs(Number(m.intercept ?? 0)));
    if (!(magnitude * Math.max(1, p.normBound as number) <= 1e300)) {
      throw badModel("weights too large: b * sum |w| must be at most 1e300");
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
    let copy: ModelFile;
    try {
      copy = structuredClone(m) as unknown as ModelFile;
    } catch (error) {
      throw badModel(`cannot be copied (${(error as Error)?.message ?? error})`);
    }
    return new Model(dp.core, copy);
  }

  /** Feature names, in the order predict() expects columns. */
  get features(): readonly string[] { return this.#file.features; }
  get weights(): Float64Array { return Float64Array.from(this.#file.weights); }
  get intercept(): number | null { return this.#file.intercept; }
  get gamma(): number { return this.#file.selection.gamma; }
  /** True when trained with a seed: such a model is NOT differentially private. */
  get seeded(): boolean { return this.#file.privacy.seeded; }
  get privacy(): ModelFile["privacy"] { return { ...this.#file.privacy }; }
  get label(): ModelFile["label"] { return this.#file.label ? { ...this.#file.label } : null; }

  /**
   * Score rows with the stored preprocessing applied: `rows` is row-major (n × features.length)
   * or an array of rows. Positive class where the score is > 0.
   */
  predict(rows: ArrayLike<number> | ArrayLike<number>[]): Predictions {
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
   * @throws DpMarginError as `readCsvInto` (BAD_PARAMETER names a model feature missing from
   * the file), CANCELLED.
   */
  async predictCsv(source: CsvSource, options: PredictCsvOptions = {}): Promise<CsvPredictions> {
    const o = requireObject(options, "options");
    for (const key of Object.keys(o)) {
      if (!PREDICT_CSV_OPTIONS.includes(key) && o[key] !== undefined) {
        throw badParameter(key, `a known option (${PREDICT_CSV_OPTIONS.join(", ")})`, "set");
      }
    }
    const own = this.#file.label;
    const positive = o.positive ?? (own && o.label === own.column ? own.positive : undefined);
    const { dataset, table } = await readCsvToCore(this.#core, source, {
      ...o, positive, features: this.#file.features, requireBothClasses: false,
    } as CsvReadOptions);
    try {
      const truth = table.label ? unwrap(dataset.labels()).slice() : null;  // a JS copy
      const predictions = this.#score(dataset);
      return { ...predictions, truth, table };
    } finally {
      dispose(dataset);
    }
  }

  // Applies the stored preprocessing (column ranges, intercept, row step) in place, then scores.
  #score(dataset: CoreDataset): Predictions {
    unwrap(dataset.prepare(pick(this.#file.preprocessing as unknown as Record<string, unknown>, PREPROCESSING_OPTIONS)));
    const w = Float64Array.from(this.#file.intercept === null
      ? this.#file.weights : [...this.#file.weights, this.#file.intercept]);
    const scores = unwrap(dataset.scores(w));
    const labels = new Int8Array(scores.length);
    for (let i = 0; i < scores.length; i++) labels[i] = scores[i] > 0 ? 1 : -1;
    return { scores, labels };
  }

  /** The model file (SPEC §5.3). */
  toJSON(): ModelFile {
    return structuredClone(this.#file);
  }
}
