// The multiclass part of the model file (docs/reference/MULTICLASS.md, docs/reference/MODEL_FORMAT.md): K weight
// vectors, one per class, and the class names; how they were trained (`multiclass`: one joint
// model with ONE selection record, or one-vs-rest with one per class). Version 3 is written;
// version 2 (one-vs-rest only) is read. Kept apart from model.ts, which holds what binary and
// multiclass models share.
import { DpMarginError } from "../errors.js";
import type { CandidateReport, ColumnMap, RowNormalization, TrainReport } from "../types.js";
import { extrasHeader, extrasRow, userField, type PredictionsCsvExtras } from "../csv/predictions.js";

/** The preprocessing section of a model file (as in the binary ModelFile). */
export interface ModelFilePreprocessing {
  intercept: boolean; rowNormalization: RowNormalization; normBound: number;
  /** [lo, hi] per feature (applied first, by the map of `columnMaps`), or null. */
  columnRanges: [number, number][] | null;
  /** The per-value map of each range (absent: min-max for every column). */
  columnMaps?: ColumnMap[];
  /** True when the ranges were estimated privately (covered by privacy.muRanges). */
  rangesPrivate: boolean;
}

/** The privacy section of a model file (as in the binary ModelFile). */
export interface ModelFilePrivacy {
  epsilon: number; delta: number; mu: number; muRanges: number; muTrain: number;
  muSchema?: number; muDiscovery?: number;
  neighbouring: "replace-one";
  calibration: string; selector: string; seeded: boolean;
}

/** The selection record of one binary problem (one class against the rest). */
export interface ClassSelection {
  /** The class name. */
  class: string;
  gamma: number;
  k: number;
  projected: boolean;
  candidates: CandidateReport[];
}

/** The selection record of a joint multiclass model: one run scored every class. */
export interface JointSelection {
  gamma: number;
  k: number;
  projected: boolean;
  candidates: CandidateReport[];
}

/** A model of a multiclass label (3 to 50 classes): model file version 3 (version 2: trained
 *  one-vs-rest, without `multiclass`). */
export interface MulticlassModelFile {
  format: "dpmargin-model";
  version: 2 | 3;
  /** How the K weight vectors were trained (version 3; absent in version 2: one-vs-rest). */
  multiclass?: "joint" | "one-vs-rest";
  features: string[];
  /** One row per class (in `label.classes` order): the weights of the features. */
  weights: number[][];
  /** The weight of the constant feature per class, or null when trained without an intercept. */
  intercept: number[] | null;
  preprocessing: ModelFilePreprocessing;
  /** The label column (null for a table given as arrays) and the class names: class k is
   *  scored by weights[k]; a row's predicted class is the one with the largest score. */
  label: { column: string | null; classes: string[] };
  /** The run's budget and K = `classes`; one-vs-rest: each class's problem at `muClass` =
   *  μ_train/√classes; joint: one mechanism at μ_train (`multiclass: "joint"`, no muClass). */
  privacy: ModelFilePrivacy & { classes: number; muClass?: number; multiclass?: "joint" | "one-vs-rest" };
  /** One-vs-rest: per class, its problem's selection record; joint: the one run's record. */
  selection: ClassSelection[] | JointSelection;
  /** Trained from a CSV: how a row becomes the model's columns, and the resolved schema (as in
   *  a binary model file). */
  encoding?: Record<string, unknown>;
  schema?: import("../csv/options.js").SchemaFile;
  library: string;
}

/** Predictions of a multiclass model. */
export interface MulticlassPredictions {
  /** n × K scores ⟨w_k, x⟩, row-major (row i's score for class k at i·K + k). */
  scores: Float64Array;
  /** The predicted class of each row: the index (in `classes`) of its largest score. */
  labels: Int32Array;
  classes: string[];
  /** The predicted class names (`classes[labels[i]]`). */
  predicted: string[];
}

/** Multiclass predictions for a CSV, with the true classes when the label column was read. */
export interface MulticlassCsvPredictions extends MulticlassPredictions {
  /** The class index of each row's label (−1 for a value outside the classes), else null. */
  truth: Int32Array | null;
  /** Data rows read. */
  table: { rows: number; labelled: boolean; imputed: number; missing: number };
}

export function isMulticlassFile(file: { label: unknown; weights: unknown[] }): file is MulticlassModelFile {
  return Array.isArray((file.label as { classes?: unknown } | null)?.classes) && Array.isArray(file.weights[0]);
}

function badModel(message: string): DpMarginError {
  return new DpMarginError("BAD_MODEL", `invalid model file: ${message}`);
}

const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** True when a file trained all K classes in one joint model (version 3, `multiclass: "joint"`). */
export function isJointFile(file: MulticlassModelFile): boolean {
  return file.multiclass === "joint";
}

/** True when a (version 2 or 3) file object claims a multiclass label: `label.classes` of 3 or more. */
export function claimsMulticlass(m: Record<string, unknown>): boolean {
  const label = m.label as { classes?: unknown } | null | undefined;
  return (m.version === 2 || m.version === 3) && label !== null && typeof label === "object" && Array.isArray(label.classes)
    && label.classes.length >= 3;
}

/**
 * Checks the multiclass fields of a version 2 file (features and preprocessing are checked by
 * the caller) and returns K. Throws BAD_MODEL naming the field.
 */
export function validateMulticlass(m: Record<string, unknown>, features: number): number {
  const label = m.label as Record<string, unknown>;
  const classes = label.classes as unknown[];
  if (label.column !== null && typeof label.column !== "string") throw badModel("label.column must be a string or null");
  if (!classes.every((c) => typeof c === "string") || new Set(classes).size !== classes.length) {
    throw badModel("label.classes must be distinct class names");
  }
  if ("positive" in label) throw badModel("label.positive is for a binary label (a multiclass label has classes only)");
  const K = classes.length;
  const w = m.weights;
  if (!Array.isArray(w) || w.length !== K) throw badModel(`weights must be ${K} rows (one per class)`);
  for (let k = 0; k < K; k++) {
    const row = w[k];
    if (!Array.isArray(row) || row.length !== features) throw badModel(`weights[${k}] must be an array of ${features} numbers (one per feature)`);
    for (let j = 0; j < features; j++) {
      if (!isFiniteNumber(row[j])) throw badModel(`weights[${k}][${j}] is not a finite number`);
    }
  }
  const p = m.preprocessing as Record<string, unknown>;
  const b = m.intercept;
  if (p.intercept ? !(Array.isArray(b) && b.length === K && b.every(isFiniteNumber)) : b !== null) {
    throw badModel(p.intercept ? `intercept must be ${K} finite numbers (one per class)` : "intercept must be null without an intercept");
  }
  // Scores are ⟨w, x⟩ with |x_j| ≤ b: bounded weights keep them finite (as for a binary model).
  for (let k = 0; k < K; k++) {
    const magnitude = (w[k] as number[]).reduce((sum, x) => sum + Math.abs(x), Math.abs(Number((b as number[] | null)?.[k] ?? 0)));
    if (!(magnitude * Math.max(1, p.normBound as number) <= 1e300)) throw badModel(`weights[${k}] too large: b * sum |w| must be at most 1e300`);
  }
  const privacy = m.privacy as Record<string, unknown>;
  // Version 2 is one-vs-rest; version 3 says which.
  const mode = m.version === 2 ? "one-vs-rest" : m.multiclass;
  if (mode !== "joint" && mode !== "one-vs-rest") throw badModel('multiclass must be "joint" or "one-vs-rest" (version 3)');
  if (m.version === 2 && m.multiclass !== undefined) throw badModel("multiclass is a version 3 field");
  if (mode === "joint") {
    if (privacy.classes !== K || privacy.multiclass !== "joint") {
      throw badModel(`privacy must hold classes = ${K} and multiclass "joint"`);
    }
    const s = m.selection as Record<string, unknown> | null;
    if (s === null || typeof s !== "object" || Array.isArray(s) || !isFiniteNumber(s.gamma)) {
      throw badModel("selection must be the joint model's one record {gamma, k, projected, candidates}");
    }
    return K;
  }
  if (privacy.classes !== K || !isFiniteNumber(privacy.muClass)) {
    throw badModel(`privacy must hold classes = ${K} and muClass`);
  }
  const selection = m.selection;
  if (!Array.isArray(selection) || selection.length !== K
    || !selection.every((s, k) => s !== null && typeof s === "object" && (s as ClassSelection).class === classes[k] && isFiniteNumber((s as ClassSelection).gamma))) {
    throw badModel(`selection must be ${K} records {class, gamma, …}, in label.classes order`);
  }
  return K;
}

/** The multiclass model file of a run: joint (one selection record) or one-vs-rest (one per
 *  class), as the plan says. */
export function multiclassFile(t: {
  problems: ArrayLike<number>[]; columns: number; features: string[]; intercept: boolean;
  preprocessing: ModelFilePreprocessing; report: TrainReport; column: string | null; classes: string[];
  library: string;
}): MulticlassModelFile {
  const plan = t.report.plan;
  const rows = t.problems.map((w) => Array.from(w));
  const joint = plan.multiclass === "joint";
  const budget = {
    epsilon: plan.epsilon, delta: plan.delta, mu: plan.mu,
    muRanges: plan.muRanges, muTrain: plan.muTrain,
    ...(plan.muSchema ? { muSchema: plan.muSchema } : {}),
    ...(plan.muDiscovery ? { muDiscovery: plan.muDiscovery } : {}),
    neighbouring: "replace-one" as const, calibration: plan.calibration,
    selector: plan.selector, seeded: t.report.seeded,
  };
  const selected = plan.candidates[t.report.selectedCandidate];
  return {
    format: "dpmargin-model",
    version: 3,
    multiclass: joint ? "joint" : "one-vs-rest",
    features: t.features,
    weights: rows.map((w) => w.slice(0, t.columns)),
    intercept: t.intercept ? rows.map((w) => w[t.columns]) : null,
    preprocessing: t.preprocessing,
    label: { column: t.column, classes: t.classes },
    privacy: joint
      ? { ...budget, classes: plan.classes!, multiclass: "joint" }
      : { ...budget, classes: plan.classes!, muClass: plan.muClass! },
    selection: joint
      ? { gamma: t.report.selectedMargin, k: selected.k, projected: selected.projected, candidates: t.report.candidates }
      : t.report.perClass!.map((c) => ({
        class: c.class, gamma: c.selectedMargin, k: plan.candidates[c.selectedCandidate].k,
        projected: plan.candidates[c.selectedCandidate].projected, candidates: c.candidates,
      })),
    library: t.library,
  };
}

/** The weights of every class, with the intercepts, row-major K × (features + intercept). */
export function stackedWeights(file: MulticlassModelFile): Float64Array {
  const rows = file.weights.map((w, k) => (file.intercept === null ? w : [...w, file.intercept[k]]));
  return Float64Array.from(rows.flat());
}

/**
 * The predictions CSV of a multiclass model (what `dpmargin predict` writes): a header
 * `COLUMN,score:CLASS1,…,score:CLASSK` (COLUMN is the label column, or "class"), then per data
 * row the predicted class name and the K scores.
 */
export function multiclassPredictionsCsv(predictions: MulticlassPredictions, column: string | null,
  extras: PredictionsCsvExtras = { rowIds: true }): string {
  const { scores, predicted, classes } = predictions;
  const K = classes.length;
  const lines = new Array<string>(predicted.length + 1);
  const names = [column ?? "class", ...classes.map((c) => `score:${c}`)];
  const head = extrasHeader(extras, names);
  lines[0] = [...head.before, ...names.map(userField), ...head.after].join(",");
  for (let i = 0; i < predicted.length; i++) {
    const x = extrasRow(extras, i);
    const row = [userField(predicted[i])];
    for (let k = 0; k < K; k++) row.push(String(scores[i * K + k]));
    lines[i + 1] = x.before + row.join(",") + x.after;
  }
  return lines.join("\n") + "\n";
}
