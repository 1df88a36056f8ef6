// The CLI's wording of the yardsticks. The numbers themselves come from the package's one
// implementation, metrics/metrics.ts (`evaluate`): local, not private.
import type { Evaluation } from "../metrics/metrics.js";

export const percent = (x: number) => `${(100 * x).toFixed(2)}%`;

/** A label is imbalanced when its commonest class holds at least this share of the rows: always
 *  answering that class scores as much in accuracy, so balanced accuracy and ROC AUC lead. */
export const IMBALANCED = 0.6;

/** True when the accuracy is no better than the majority rate plus one point. */
export function noBetterThanMajority(y: Evaluation): boolean {
  return y.accuracy <= y.majorityRate + 0.01;
}

/**
 * The yardsticks in one line. Balanced rows: accuracy, balanced accuracy, F1 (binary, naming the
 * positive class); the majority class and its rate; ROC AUC. An imbalanced label (IMBALANCED):
 * balanced accuracy and ROC AUC first, then accuracy. Accuracy at or under the majority rate
 * says so where it stands.
 */
export function yardsticks(y: Evaluation, majority: string, positive?: string): string {
  const flag = y.accuracy <= y.majorityRate ? ` (at or under the majority rate: no better than always answering ${JSON.stringify(majority)})` : "";
  const accuracy = `accuracy ${percent(y.accuracy)}${flag}`;
  const balanced = `balanced accuracy ${percent(y.balancedAccuracy)}`;
  const f1 = positive !== undefined && y.f1 !== null ? `, F1 ${y.f1.toFixed(4)} (positive ${JSON.stringify(positive)})` : "";
  const rate = `majority class ${JSON.stringify(majority)} ${percent(y.majorityRate)}`;
  const auc = aucText(y);
  if (y.majorityRate >= IMBALANCED) {
    return `${balanced}${auc ? `, ${auc}` : ""}; ${accuracy}${f1}; ${rate} (imbalanced: balanced accuracy and AUC first)`;
  }
  return `${accuracy}, ${balanced}${f1}; ${rate}${auc ? `; ${auc}` : ""}`;
}

/** "ROC AUC 0.9123" (binary) or "macro ROC AUC (one-vs-rest) 0.9123"; "" when undefined. */
export function aucText(y: Evaluation): string {
  if (y.rocAuc === null) return "";
  return `${y.rocAucPerClass ? "macro ROC AUC (one-vs-rest)" : "ROC AUC"} ${y.rocAuc.toFixed(4)}`;
}
