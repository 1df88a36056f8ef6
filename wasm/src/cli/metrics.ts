// The CLI's wording of the yardsticks. The numbers themselves come from the package's one
// implementation, metrics/metrics.ts (`evaluate`): local, not private.
import type { Evaluation } from "../metrics/metrics.js";

export const percent = (x: number) => `${(100 * x).toFixed(2)}%`;

/** True when the accuracy is no better than the majority rate plus one point. */
export function noBetterThanMajority(y: Evaluation): boolean {
  return y.accuracy <= y.majorityRate + 0.01;
}

/** "ROC AUC 0.9123" (binary) or "macro ROC AUC (one-vs-rest) 0.9123"; "" when undefined. */
export function aucText(y: Evaluation): string {
  if (y.rocAuc === null) return "";
  return `${y.rocAucPerClass ? "macro ROC AUC (one-vs-rest)" : "ROC AUC"} ${y.rocAuc.toFixed(4)}`;
}
