// Plain-language explanations of a privacy budget, shared by the CLI (and available to apps).

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
  const f = (x: number) => formatLikeApp(x);
  return `δ = ${f(delta)} is not small next to 1/n = ${f(1 / n)} (n = ${n} training rows): ` +
    "a mechanism that publishes one random row outright satisfies such a δ. Use δ well below 1/n, e.g. 1e-5 or less.";
}

// The app's number format (web/src/ui/dom.ts fmt), so the texts are the same.
function formatLikeApp(x: number, digits = 6): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  const rounded = Number(x.toPrecision(digits));
  return a >= 1e6 || a < 1e-3 ? rounded.toExponential() : String(rounded);
}
