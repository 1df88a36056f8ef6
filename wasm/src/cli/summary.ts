// The wording of a run's summary that more than one command shares: numbers, the plan's
// advice, how the columns were read, and the warnings about a label that looks wrong.
import { percent } from "./metrics.js";
import type { Plan, ColumnSummary, TableInfo, SchemaFile, SchemaColumn } from "../node.js";

export function formatNumber(x: number, digits = 6): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-3 ? x.toExponential(digits - 1) : x.toPrecision(digits);
}

// The core's plain-language advice on a plan (plan::advise): its verdict and its sentence.
export function adviceLine(plan: Plan): string {
  return `verdict: ${plan.advice.verdict} — ${plan.advice.text}`;
}

// How the core chose the positive class of a binary label (the schema's positiveRule).
const POSITIVE_RULES: Record<string, string> = {
  named: "named with --positive (or in --schema)",
  binary01: "1 of a 0/1 label",
  "second-declared": "the second of the two declared classes",
  "second-discovered": "the second of the two classes discovered under the budget, in byte order",
};

/** The positive class of a binary label and the rule that chose it; when the user did not
 *  name it, how to choose the other one. Null for a multiclass label. */
export function positiveLine(label: { column: string; positive: string; classes: string[]; positiveRule?: string }): string | null {
  if (label.classes.length > 2 || !label.positive) return null;
  const rule = label.positiveRule ?? "named";
  const other = label.classes.find((c) => c !== label.positive);
  const choose = rule === "named" ? ""
    : other !== undefined ? `; --positive ${JSON.stringify(other)} makes ${JSON.stringify(other)} the positive class`
      : "; choose it with --positive VALUE";
  return `positive class ${JSON.stringify(label.positive)} of ${JSON.stringify(label.column)}: ${POSITIVE_RULES[rule] ?? rule}${choose}`;
}

// Binary: ±1 against ±1; multiclass: class index against class index (a label outside the
// classes, −1, is never predicted: it counts as an error).
export function accuracy(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  let correct = 0;
  for (let i = 0; i < truth.length; i++) correct += predicted[i] === truth[i] ? 1 : 0;
  return correct / truth.length;
}

// How the file's columns were read (the resolved schema: public), so that a column read as text
// (hashed or one-hot) or left out is seen, not only the model's width:
// "columns: 2 numeric; 3 text (hashed: income, rate, spend); left out: id (identifier)".
export function columnsLine(schema: SchemaFile): string {
  const names = (list: SchemaColumn[]) =>
    list.slice(0, 6).map((c) => c.name || "(unnamed)").join(", ") + (list.length > 6 ? `, … (${list.length} in all)` : "");
  const features = schema.columns.filter((c) => c.kind === "numeric" || c.kind === "categorical");
  const numeric = features.filter((c) => c.kind === "numeric");
  const text = features.filter((c) => c.kind === "categorical");
  const parts = [`${numeric.length} numeric`];
  if (text.length > 0) {
    const how = { hash: "hashed", discover: "levels discovered", declared: "declared levels", auto: "levels" } as const;
    const groups = new Map<string, SchemaColumn[]>();
    for (const c of text) {
      const key = c.categories !== undefined ? how[c.categories] : c.levels !== undefined ? "declared levels" : "levels";
      groups.set(key, [...(groups.get(key) ?? []), c]);
    }
    parts.push(`${text.length} text (${[...groups].map(([k, l]) => `${k}: ${names(l)}`).join("; ")})`);
  }
  const ignored = schema.columns.filter((c) => c.kind === "ignore");
  const short = (reason = "") => reason.includes("identifier") ? "identifier" : reason === "no values" ? "no values" : reason;
  if (ignored.length > 0) {
    parts.push(`left out: ${ignored.slice(0, 6).map((c) => `${c.name || "(unnamed)"}${c.reason ? ` (${short(c.reason)})` : ""}`).join(", ")}`
      + (ignored.length > 6 ? `, … (${ignored.length} in all)` : ""));
  }
  return `columns: ${parts.join("; ")}`;
}

// Labels that look like the wrong column: more than 20 classes, or a numeric column with many
// distinct values trained as one value against the rest (an age, an amount, an id). The distinct
// count comes from the training read's own scan of the label column (`table.labelSummary`: a
// local summary, a note on the user's terminal, never released; no second read of the file).
export const MANY_CLASSES = 20;
export const MANY_NUMBERS = 10;
export function labelWarnings(label: { column: string; classes: string[]; classSource?: string; positive?: string },
  column: ColumnSummary | null): string[] {
  const hint = "is it the column you meant to predict? (choose it with --label COL)";
  if (label.classes.length > MANY_CLASSES) {
    return [`the label ${JSON.stringify(label.column)} has ${label.classes.length} classes; ${hint}`];
  }
  const numeric = label.classes.length > 0 && label.classes.every((c) => c.trim() !== "" && Number.isFinite(Number(c)));
  if (label.classSource !== "positive" && !(numeric && label.classes.length > 2)) return [];
  if (!column || column.kind !== "numeric" || column.distinct < MANY_NUMBERS) return [];
  const what = label.classSource === "positive" ? `, trained as ${JSON.stringify(label.positive)} against the rest` : "";
  return [`the label ${JSON.stringify(label.column)} looks numeric with ${column.distinct}${column.distinctCapped ? " or more" : ""} distinct values${what}; ${hint}`];
}

// Rows whose label was not among the privately discovered classes are trained as negatives
// (DATA_PIPELINE.md): say how many (a local count, not released), since a missed class — a
// rare one, or a spelling variant — otherwise passes silently.
export function outsideClassesWarning(read: TableInfo, joint: boolean): string | null {
  const k = read.labelOutside;
  if (!(k > 0) || !read.label) return null;
  const classes = read.label.classes.map((c) => JSON.stringify(c)).join(", ");
  const as = joint ? "left out of the joint model's gradients and scores"
    : read.label.classes.length >= 3 ? "trained as negatives for every class" : `trained as negatives (not ${JSON.stringify(read.label.positive)})`;
  return `${k} of ${read.rows} training rows (${percent(k / read.rows)}) have a label that is none of the classes discovered under the budget (${classes}): they were ${as}; declare the classes (--classes A,B,…) to train on them, or leave those rows out`;
}
