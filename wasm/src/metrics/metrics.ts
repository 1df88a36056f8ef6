// Yardsticks for a model's predictions on labelled rows: accuracy, balanced accuracy, the
// majority-class rate, precision/recall/F1 (binary; macro F1 for multiclass) and ROC AUC with the
// ROC curve. One implementation, used by the CLI (`train --test`, `predict` on a labelled file)
// and the web app. They are computed on the user's own rows: local, NOT differentially private —
// do not release them as private outputs.

/** One ROC curve: the false-positive rate, true-positive rate and the score threshold of each
 *  point (a row is called positive when its score is ≥ the threshold). The first point is
 *  (0, 0) at threshold +∞ (`null` in JSON), the last (1, 1). Thinned to at most 200 points. */
export interface RocCurve {
  fpr: number[];
  tpr: number[];
  thresholds: number[];
}

export interface Evaluation {
  rows: number;
  accuracy: number;
  /** Mean recall over the true classes present (a value outside the model's classes counts
   *  as a class of its own, whose recall is 0). */
  balancedAccuracy: number;
  /** Share of the commonest true class: what always answering it would score. */
  majorityRate: number;
  /** Binary: +1 (positive) or −1; multiclass: the class index (−1: a value outside the classes). */
  majorityClass: number;
  /** Binary: of the positive class; null when undefined (no predicted / no true positives). */
  precision: number | null;
  recall: number | null;
  /** Binary: F1 of the positive class; multiclass: macro F1 over the model's classes. Null when
   *  undefined (binary: no positive predicted or true). */
  f1: number | null;
  /** Binary: the AUC of the scores (Mann–Whitney, ties counted one half); multiclass: the macro
   *  mean of the one-vs-rest AUCs of the classes that have positives and negatives. Null when
   *  no class has both. */
  rocAuc: number | null;
  /** Multiclass: each class's one-vs-rest AUC (null when undefined); binary: null. */
  rocAucPerClass: (number | null)[] | null;
  /** Binary: the ROC curve of the scores (null without both classes); multiclass: null. */
  roc: RocCurve | null;
  /** Multiclass: each class's one-vs-rest ROC curve; binary: null. */
  rocPerClass: (RocCurve | null)[] | null;
  /** Always false: these numbers are not differentially private. */
  private: false;
}

export interface EvaluateOptions {
  /** Multiclass: the number of classes K; `scores` is then n × K row-major (row i's score for
   *  class k at i·K + k) and `truth` the class index (−1 for a value outside the classes).
   *  Omitted: binary, one score per row and `truth` ±1. */
  classes?: number;
  /** The predicted labels (binary ±1, multiclass class index), when the caller has them;
   *  otherwise binary: +1 where the score is > 0, multiclass: the first largest score. */
  predicted?: ArrayLike<number>;
}

/** A label is imbalanced when its commonest class holds at least this share of the rows: always
 *  answering that class scores as much in accuracy, so balanced accuracy and ROC AUC lead. */
export const IMBALANCED = 0.6;

/** The commonest true class holds at least {@link IMBALANCED} of the rows. */
export function isImbalanced(y: Pick<Evaluation, "majorityRate">): boolean {
  return y.majorityRate >= IMBALANCED;
}

/** The accuracy is not above the majority-class rate plus one point: no better than a constant. */
export function noBetterThanMajority(y: Pick<Evaluation, "accuracy" | "majorityRate">): boolean {
  return y.accuracy <= y.majorityRate + 0.01;
}

/** Most points a ROC curve keeps. */
export const ROC_POINTS = 200;

/** The area under the ROC curve of `scores` for `positive` rows: the Mann–Whitney statistic
 *  (the probability that a random positive scores above a random negative, ties one half),
 *  from average ranks. Null without a positive or without a negative. */
export function rocAuc(scores: ArrayLike<number>, positive: (i: number) => boolean): number | null {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let pos = 0;
  let rankSum = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1]] === scores[order[i]]) j++;
    const rank = (i + j) / 2 + 1; // average rank (1-based) of the tied group
    for (let t = i; t <= j; t++) {
      if (positive(order[t])) {
        pos++;
        rankSum += rank;
      }
    }
    i = j + 1;
  }
  const neg = n - pos;
  if (pos === 0 || neg === 0) return null;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** The ROC curve of `scores` for `positive` rows (one point per distinct score, then thinned to
 *  at most `maxPoints`, keeping the first and the last). Null without both classes. */
export function rocCurve(scores: ArrayLike<number>, positive: (i: number) => boolean, maxPoints = ROC_POINTS): RocCurve | null {
  const n = scores.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b] - scores[a]);
  let P = 0;
  for (let i = 0; i < n; i++) if (positive(i)) P++;
  const N = n - P;
  if (P === 0 || N === 0) return null;
  const fpr = [0], tpr = [0], thresholds = [Number.POSITIVE_INFINITY];
  let tp = 0, fp = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && scores[order[j + 1]] === scores[order[i]]) j++;
    for (let t = i; t <= j; t++) {
      if (positive(order[t])) tp++;
      else fp++;
    }
    fpr.push(fp / N);
    tpr.push(tp / P);
    thresholds.push(scores[order[i]]);
    i = j + 1;
  }
  const m = fpr.length;
  const limit = Math.max(2, maxPoints);
  if (m <= limit) return { fpr, tpr, thresholds };
  const keep: number[] = [];
  for (let s = 0; s < limit; s++) {
    const at = Math.round((s * (m - 1)) / (limit - 1));
    if (keep.length === 0 || keep[keep.length - 1] !== at) keep.push(at);
  }
  return { fpr: keep.map((k) => fpr[k]), tpr: keep.map((k) => tpr[k]), thresholds: keep.map((k) => thresholds[k]) };
}

/**
 * Evaluate a model's scores against the true labels (local, NOT private).
 * Binary: `scores[i]` is row i's score (positive class where > 0), `truth[i]` ±1.
 * Multiclass (`options.classes` = K): `scores` n × K row-major, `truth` class indices (−1 for
 * a value outside the classes).
 */
export function evaluate(scores: ArrayLike<number>, truth: ArrayLike<number>, options: EvaluateOptions = {}): Evaluation {
  const K = options.classes;
  const n = truth.length;
  const multiclass = K !== undefined;
  if (multiclass ? scores.length !== n * K : scores.length !== n) {
    throw new RangeError(`evaluate: ${scores.length} scores for ${n} rows${multiclass ? ` and ${K} classes` : ""}`);
  }
  const predictedOf = (i: number): number => {
    if (options.predicted) return options.predicted[i];
    if (!multiclass) return scores[i] > 0 ? 1 : -1;
    let best = 0;
    for (let k = 1; k < K; k++) if (scores[i * K + k] > scores[i * K + best]) best = k;
    return best;
  };
  const count = new Map<number, number>();
  const hit = new Map<number, number>();
  const predictedCount = new Map<number, number>();
  let correct = 0;
  for (let i = 0; i < n; i++) {
    const t = truth[i], p = predictedOf(i);
    count.set(t, (count.get(t) ?? 0) + 1);
    predictedCount.set(p, (predictedCount.get(p) ?? 0) + 1);
    if (p === t) {
      correct++;
      hit.set(t, (hit.get(t) ?? 0) + 1);
    }
  }
  let majorityClass = multiclass ? 0 : 1, majority = -1, recallSum = 0;
  for (const [c, k] of count) {
    if (k > majority || (k === majority && c > majorityClass)) {
      majority = k;
      majorityClass = c;
    }
    recallSum += (hit.get(c) ?? 0) / k;
  }
  const f1Of = (c: number): number | null => {
    const tp = hit.get(c) ?? 0, actual = count.get(c) ?? 0, called = predictedCount.get(c) ?? 0;
    return actual + called > 0 ? (2 * tp) / (actual + called) : null;
  };
  const base = {
    rows: n,
    accuracy: n ? correct / n : Number.NaN,
    balancedAccuracy: count.size ? recallSum / count.size : Number.NaN,
    majorityRate: n ? majority / n : Number.NaN,
    majorityClass,
    private: false as const,
  };
  if (!multiclass) {
    const tp = hit.get(1) ?? 0, actual = count.get(1) ?? 0, called = predictedCount.get(1) ?? 0;
    const positive = (i: number) => truth[i] > 0;
    return {
      ...base,
      precision: called ? tp / called : null,
      recall: actual ? tp / actual : null,
      f1: f1Of(1),
      rocAuc: rocAuc(scores, positive),
      rocAucPerClass: null,
      roc: rocCurve(scores, positive),
      rocPerClass: null,
    };
  }
  const perClass: (number | null)[] = [];
  const curves: (RocCurve | null)[] = [];
  let f1Sum = 0;
  for (let k = 0; k < K; k++) {
    const column = new Float64Array(n);
    for (let i = 0; i < n; i++) column[i] = scores[i * K + k];
    const positive = (i: number) => truth[i] === k;
    perClass.push(rocAuc(column, positive));
    curves.push(rocCurve(column, positive));
    f1Sum += f1Of(k) ?? 0;
  }
  const defined = perClass.filter((a): a is number => a !== null);
  return {
    ...base,
    precision: null,
    recall: null,
    f1: K ? f1Sum / K : null,
    rocAuc: defined.length ? defined.reduce((x, y) => x + y, 0) / defined.length : null,
    rocAucPerClass: perClass,
    roc: null,
    rocPerClass: curves,
  };
}
