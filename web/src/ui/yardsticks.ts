// The yardsticks of predictions on labelled rows, worded once for the Results and the Predict
// tab: accuracy and ROC AUC with balanced accuracy and the majority-class rate beside them (an
// imbalanced label, by the package's rule, leads with balanced accuracy and ROC AUC), F1, and an
// accuracy at or under the majority rate flagged where it stands. Computed on the user's rows by
// the package's `evaluate` (in the worker): local, not private.
import { IMBALANCED_NOTE, majorityFlag } from "dpmargin/explain";
import type { Evaluation } from "../protocol.ts";
import { fmt, percent } from "./dom.ts";

/** A line of a <dl>: term, text, data-key, data-value. */
export type Row = [term: string, text: string, key: string, value?: string];

// ROC AUC with four decimals, as the CLI prints it (0.9900, not 0.99).
export const auc = (x: number) => x.toFixed(4);

/** " — " and the package's majority flag (explain.ts majorityFlag) when the accuracy is not above
 *  the majority rate, else "". */
export const accuracyFlag = (e: Evaluation) => (e.accuracy <= e.majorityRate ? ` — ${majorityFlag(e.majorityClass)}` : "");

/**
 * The rows in the order they should be read. `accuracy` is the accuracy's own row (its wording
 * depends on where it was measured); `extra` rows go after the majority rate. `scheme` says how
 * a multiclass model's classes trained ("one joint model", "3 one-vs-rest problems").
 */
export function yardstickRows(e: Evaluation, o: { which: string; scheme: string; accuracy: Row; extra?: Row[]; prefix?: string }): Row[] {
  const key = (k: string) => (o.prefix ?? "") + k;
  const multi = e.rocAucPerClass !== null;
  const rocAuc: Row = [`ROC AUC (${o.which}, not private)`, e.rocAuc === null ? "— (one class only)"
    : `${auc(e.rocAuc)}${multi ? ` (macro over the ${e.perClass.length} classes, ${o.scheme}: each class's score ranked against the other rows)` : " (from the scores; 0.5 = chance)"}`,
    key("roc-auc"), e.rocAuc === null ? "" : String(e.rocAuc)];
  const balanced: Row = [`balanced accuracy (${o.which}, not private)`, percent(e.balancedAccuracy), key("balanced-accuracy"), String(e.balancedAccuracy)];
  const majority: Row = [`majority-class rate (${o.which}, not private)`,
    `${percent(e.majorityRate)} (always “${e.majorityClass}”)${e.imbalanced ? ` — ${IMBALANCED_NOTE}` : ""}`, key("majority-rate"), String(e.majorityRate)];
  const f1: Row = [`F1 (${o.which}, not private)`,
    `${fmt(e.f1, 3)}${e.classes.length === 2 ? ` (class “${e.classes[0]}”)` : ` (macro over the classes, ${o.scheme})`}`, key("f1"), String(e.f1)];
  return e.imbalanced
    ? [balanced, rocAuc, o.accuracy, majority, ...(o.extra ?? []), f1]
    : [o.accuracy, rocAuc, balanced, majority, ...(o.extra ?? []), f1];
}

/** The warning under the yardsticks when the accuracy is not above the majority rate + 1 point
 *  (the package's noBetterThanMajority), or "" . */
export function weakWarning(e: Evaluation, where: string): string {
  return e.noBetterThanMajority
    ? `Warning: the accuracy ${where} (${percent(e.accuracy)}) is not above the majority-class rate + 1 point (${percent(e.majorityRate)}: always answering “${e.majorityClass}”). This model is no better than that constant guess here.`
    : "";
}
