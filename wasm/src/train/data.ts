// Typed arrays → a core Dataset in wasm memory (one write, straight into the heap), validated
// there. Preprocessing is decided later by the core: the trainer prepares the rows with the
// run's resolved settings, prediction with the model file's.
import type { CoreDataset, CoreModule } from "../wasm/dpmargin_core.mjs";
import { unwrap } from "../module/status.js";
import { DpMarginError, badParameter } from "../errors.js";

/** A numeric table: n rows × `columns` features, row-major. */
export interface TrainingData {
  /** Row-major features (n × columns). */
  features: Float32Array | Float64Array | ArrayLike<number>;
  /** Number of feature columns. */
  columns: number;
  /** Labels: 1 = positive class; 0 or −1 = negative. With `classes`: the class of each row,
   *  an index into `classes` (0…K−1). */
  labels: ArrayLike<number>;
  /** Optional feature names, kept in the model file. */
  featureNames?: string[];
  /**
   * A multiclass label: the names of its K = 3…50 classes (public: declared, not read off the
   * data), in the order of the codes in `labels`. Training then runs one-vs-rest — one binary
   * problem per class, all under the one (ε, δ) (docs/reference/MULTICLASS.md). Omit it for a binary label.
   */
  classes?: string[];
}

/**
 * Copy a table into a new core Dataset and validate it (finite values, labels, both classes
 * when `requireBothClasses`). With `classes` (a multiclass label of that many classes) the
 * labels are class codes 0…classes−1, written as such; the core validates the table when
 * training starts. The caller owns the result: `dispose()` it.
 */
export function toCoreDataset(core: CoreModule, features: ArrayLike<number>, columns: number,
  labels: ArrayLike<number> | null, requireBothClasses: boolean, classes?: number): CoreDataset {
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
    const { stride } = unwrap(dataset.allocate(rows, columns, labels !== null));
    const heap = unwrap(dataset.features());  // fresh view: allocate() may have grown memory
    for (let i = 0; i < rows; i++) {
      const row = (features as Float32Array).subarray
        ? (features as Float32Array).subarray(i * columns, (i + 1) * columns)
        : Array.prototype.slice.call(features, i * columns, (i + 1) * columns);
      heap.set(row, i * stride);
    }
    if (labels !== null && classes !== undefined) {
      const codes = unwrap(dataset.codes(classes));
      for (let i = 0; i < rows; i++) {
        const v = labels[i];
        if (!Number.isInteger(v) || v < 0 || v >= classes) {
          throw new DpMarginError("BAD_LABEL",
            `label at row ${i} (0-based) must be a class index from 0 to ${classes - 1} (classes has ${classes} names), but is ${String(v)}`, "labels");
        }
        codes[i] = v;
      }
      return dataset;
    }
    if (labels !== null) {
      const y = unwrap(dataset.labels());
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
    unwrap(dataset.validate(labels !== null && requireBothClasses));
    return dataset;
  } catch (error) {
    dataset.delete();
    throw error;
  }
}
