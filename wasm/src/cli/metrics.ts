// Yardsticks for an accuracy: the majority-class rate (what always answering the commonest class
// scores), balanced accuracy (the mean recall over the classes present) and, for a binary label,
// F1 of the positive class. Computed on the user's own labelled file: local, not private.

export interface Yardsticks {
  rows: number;
  accuracy: number;
  balancedAccuracy: number;
  /** Share of the commonest true class, and its index (binary: +1 or −1; multiclass: k, −1 for
   *  a value outside the model's classes). */
  majorityRate: number;
  majorityClass: number;
  /** F1 of the positive class (binary only; null for multiclass or when undefined). */
  f1: number | null;
}

/** `predicted` and `truth`: ±1 (binary) or class indices (multiclass, −1 outside). */
export function yardsticks(predicted: ArrayLike<number>, truth: ArrayLike<number>, binary: boolean): Yardsticks {
  const n = truth.length;
  const count = new Map<number, number>();
  const hit = new Map<number, number>();
  let correct = 0;
  let tp = 0, fp = 0, fn = 0;
  for (let i = 0; i < n; i++) {
    const t = truth[i], p = predicted[i];
    count.set(t, (count.get(t) ?? 0) + 1);
    if (p === t) {
      correct++;
      hit.set(t, (hit.get(t) ?? 0) + 1);
    }
    if (binary) {
      if (p > 0 && t > 0) tp++;
      else if (p > 0) fp++;
      else if (t > 0) fn++;
    }
  }
  let majorityClass = 0, majority = -1, recall = 0;
  for (const [c, k] of count) {
    if (k > majority || (k === majority && c > majorityClass)) {
      majority = k;
      majorityClass = c;
    }
    recall += (hit.get(c) ?? 0) / k;
  }
  return {
    rows: n,
    accuracy: n ? correct / n : Number.NaN,
    balancedAccuracy: count.size ? recall / count.size : Number.NaN,
    majorityRate: n ? majority / n : Number.NaN,
    majorityClass,
    f1: binary && 2 * tp + fp + fn > 0 ? (2 * tp) / (2 * tp + fp + fn) : null,
  };
}

export const percent = (x: number) => `${(100 * x).toFixed(2)}%`;

/** True when the accuracy is no better than the majority rate plus one point. */
export function noBetterThanMajority(y: Yardsticks): boolean {
  return y.accuracy <= y.majorityRate + 0.01;
}
