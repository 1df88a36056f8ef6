// Plain-language explanations shared by the CLI and the web app (one wording, one number format):
// what ε means, the δ ≥ 1/n warning, how the positive class was chosen, and the yardsticks'
// flags. Texts about a plan come from the core (plan.advice: `text`, `selection`).

/** Above this ε the "odds within a factor e^ε" reading is meaningless (e^10 ≈ 22,000). */
export const MEANINGFUL_EPSILON = 10;

function short(x: number): string {
  return Number(x.toPrecision(3)).toString();
}

/**
 * What ε means, in one sentence: for ε ≤ 10 the odds factor e^ε; above, that the guarantee gives
 * no meaningful protection (instead of an absurd factor such as e^50 ≈ 5e21).
 */
export function epsilonMeaning(epsilon: number): string {
  if (!(Number.isFinite(epsilon) && epsilon > 0)) return "ε must be a finite number > 0.";
  if (epsilon > MEANINGFUL_EPSILON) {
    return `With ε = ${short(epsilon)} (above ${MEANINGFUL_EPSILON}) the guarantee gives no meaningful protection: ` +
      "what the release reveals about a person is essentially unbounded. Use ε of a few units at most.";
  }
  return `With ε = ${short(epsilon)}, whatever someone concludes about a person from the release, they would ` +
    `conclude almost as confidently (odds within a factor e^ε ≈ ${short(Math.exp(epsilon))}) had that person's ` +
    "row been replaced by any other.";
}

/** The warning for δ ≥ 1/n (the app's text), or null when δ is small next to 1/n. */
export function deltaWarning(delta: number, n: number): string | null {
  if (!(delta >= 1 / n)) return null;
  const f = (x: number) => formatNumber(x);
  return `δ = ${f(delta)} is not small next to 1/n = ${f(1 / n)} (n = ${n} training rows): ` +
    "a mechanism that publishes one random row outright satisfies such a δ. Use δ well below 1/n, e.g. 1e-5 or less.";
}

/** Numbers for people, as every text of the package and the app writes them: `digits`
 *  significant digits, exponent form at ≥ 1e6 or below 1e-3, "—" for NaN. */
export function formatNumber(x: number, digits = 6): string {
  if (Number.isNaN(x)) return "—";
  if (x === 0) return "0";
  const a = Math.abs(x);
  const rounded = Number(x.toPrecision(digits));
  return a >= 1e6 || a < 1e-3 ? rounded.toExponential() : String(rounded);
}

/** How the core chose a binary label's positive class (the schema's `positiveRule`). */
export type PositiveRule = "named" | "binary01" | "second-declared" | "second-discovered";

const POSITIVE_RULES: Record<PositiveRule, string> = {
  named: "named by you (the positive option or the schema)",
  binary01: "1 of a 0/1 label (the core's public rule)",
  "second-declared": "the second of the two declared classes (the core's public rule)",
  "second-discovered": "the second, in byte order, of the two classes discovered under the budget (the core's public rule)",
};

/**
 * Which rule chose a binary label's positive class, read off the released schema (its public
 * fields `classSource`, `classes`, `positive`; the core applies the rules in data/schema.cpp and
 * run/csv_run.cpp): the user's positive against the rest, 1 of a 0/1 label, a declared pair's
 * second class unless the positive names the first, the second of two discovered classes.
 * Undefined when there is no binary label (no positive, or three or more classes).
 */
export function positiveRule(schema: { classSource?: string; classes?: readonly string[]; positive?: string } | null | undefined): PositiveRule | undefined {
  if (!schema || typeof schema.positive !== "string" || schema.positive === "") return undefined;
  const classes = schema.classes ?? [];
  switch (schema.classSource) {
    case "positive": return "named";
    case "binary01": return "binary01";
    case "declared":
      if (classes.length !== 2) return undefined;
      return schema.positive === classes[0] ? "named" : "second-declared";
    case "discover": return classes.length === 2 ? "second-discovered" : undefined;
    default: return undefined;
  }
}

/** The rule that chose the positive class, in words ("" when the schema does not say). */
export function positiveRuleText(rule: string | undefined): string {
  return rule !== undefined && rule in POSITIVE_RULES ? POSITIVE_RULES[rule as PositiveRule] : "";
}

/** The flag on an accuracy at or under the majority-class rate. */
export function majorityFlag(majorityClass: string): string {
  return `at or under the majority-class rate: no better than always answering “${majorityClass}”`;
}

/** The warning when every scored row gets the same class (e.g. "0 predicted bad"). */
export function oneClassWarning(predicted: string, rows: number): string {
  return `Warning: all ${rows} rows are predicted “${predicted}”: on this file the model does not tell the classes ` +
    "apart (its scores fall on one side of the decision). Move the threshold, or look at ROC AUC and balanced accuracy.";
}

/** Why balanced accuracy and ROC AUC lead for an imbalanced label (metrics' `isImbalanced`). */
export const IMBALANCED_NOTE = "an imbalanced label: always answering the commonest class scores as much in accuracy, " +
  "so balanced accuracy and ROC AUC come first";
