import type { CoreDataset, CoreModule } from "./wasm/dpmargin_core.mjs";
import { unwrap } from "./status.js";
import { DpMarginError, badParameter } from "./errors.js";

/** How rows are brought inside the public norm bound b (SPEC §3). */
export type RowNormalization = "unit-norm" | "clip";

/** Per-row preprocessing: public constants only, so it costs no privacy. */
export interface PreprocessingOptions {
  /** Append the constant feature 1 before the row operation (default true). */
  intercept?: boolean;
  /** "unit-norm" (default): x ← b·x/‖x‖; "clip": x ← x·min(1, b/‖x‖). */
  rowNormalization?: RowNormalization;
  /** Public norm bound b (default 1). */
  normBound?: number;
  /**
   * Public per-column ranges [lo, hi], one per feature column: x ← clamp((x − lo)/(hi − lo), 0, 1)
   * before everything else. Only declare ranges that are public (known without looking at the
   * data); otherwise use `rangeShare` to estimate them privately.
   */
  columnRanges?: [number, number][];
}

/** A numeric table: n rows × `columns` features, row-major. */
export interface TrainingData {
  /** Row-major features (n × columns). */
  features: Float32Array | Float64Array | ArrayLike<number>;
  /** Number of feature columns. */
  columns: number;
  /** Labels: 1 = positive class; 0 or −1 = negative. */
  labels: ArrayLike<number>;
  /** Optional feature names, kept in the model file. */
  featureNames?: string[];
}

export interface ResolvedPreprocessing {
  intercept: boolean;
  rowNormalization: RowNormalization;
  normBound: number;
  columnRanges: [number, number][] | null;
}

export function resolvePreprocessing(o: PreprocessingOptions): ResolvedPreprocessing {
  const intercept = o.intercept ?? true;
  if (typeof intercept !== "boolean") throw badParameter("intercept", "a boolean", intercept);
  const rowNormalization = o.rowNormalization ?? "unit-norm";
  if (rowNormalization !== "unit-norm" && rowNormalization !== "clip") {
    throw badParameter("rowNormalization", 'one of "unit-norm", "clip"', rowNormalization);
  }
  const normBound = o.normBound ?? 1;
  if (typeof normBound !== "number") throw badParameter("normBound", "a number", normBound);
  const ranges = o.columnRanges ?? null;
  if (ranges !== null && (!Array.isArray(ranges) || !ranges.every((r) => Array.isArray(r) && r.length === 2
    && typeof r[0] === "number" && typeof r[1] === "number"))) {
    throw badParameter("columnRanges", "an array of [lo, hi] number pairs", ranges);
  }
  return { intercept, rowNormalization, normBound, columnRanges: ranges && ranges.map((r) => [r[0], r[1]]) };
}

/**
 * After the raw values are in wasm memory: declare public column ranges, then validate (finite
 * values, labels, both classes for training). Preprocessing happens later, in place.
 */
export function finishCoreDataset(dataset: CoreDataset, pre: ResolvedPreprocessing,
  requireBothClasses: boolean): void {
  if (pre.columnRanges) {
    unwrap(dataset.declareRanges(Float64Array.from(pre.columnRanges, (r) => r[0]),
      Float64Array.from(pre.columnRanges, (r) => r[1])));
  }
  unwrap(dataset.validate(requireBothClasses));
}

/**
 * Copy a table into wasm memory (one write, straight into the heap) and validate it there. The
 * trainer preprocesses it in place (after estimating private ranges when asked); prediction calls
 * `preprocess()`. The caller owns the returned object and must call `.release()` and `.delete()`.
 */
export function toCoreDataset(core: CoreModule, features: ArrayLike<number>, columns: number,
  labels: ArrayLike<number> | null, pre: ResolvedPreprocessing): CoreDataset {
  if (typeof columns !== "number" || !Number.isInteger(columns) || columns < 1) {
    throw badParameter("columns", "an integer >= 1", columns);
  }
  if (features === null || typeof features !== "object" || typeof features.length !== "number") {
    throw badParameter("features", "an array or typed array of numbers", features);
  }
  if (features.length % columns !== 0) {
    throw badParameter("features", `a multiple of columns = ${columns} long`, features.length);
  }
  const rows = features.length / columns;
  if (labels !== null && labels.length !== rows) {
    throw badParameter("labels", `of length n = ${rows} (one per row)`, labels.length);
  }
  const dataset = new core.Dataset();
  try {
    const width = unwrap(dataset.allocate(rows, columns, pre.intercept, pre.rowNormalization,
      pre.normBound, labels !== null));
    const heap = dataset.features();  // fresh view: allocate() may have grown memory
    if (width === columns) {
      heap.set(features as ArrayLike<number>);
    } else {
      for (let i = 0; i < rows; i++) {
        const row = (features as Float32Array).subarray
          ? (features as Float32Array).subarray(i * columns, (i + 1) * columns)
          : Array.prototype.slice.call(features, i * columns, (i + 1) * columns);
        heap.set(row, i * width);
      }
    }
    if (labels !== null) {
      const y = dataset.labels();
      for (let i = 0; i < rows; i++) {
        const v = labels[i];
        if (v === 1 || (v as unknown) === true) y[i] = 1;
        else if (v === 0 || v === -1 || (v as unknown) === false) y[i] = -1;
        else {
          throw new DpMarginError("BAD_LABEL",
            `label at row ${i} (0-based) must be 1 (positive) or 0/-1 (negative), but is ${String(v)}`, "labels");
        }
      }
    }
    finishCoreDataset(dataset, pre, labels !== null);
    return dataset;
  } catch (error) {
    dataset.delete();
    throw error;
  }
}
