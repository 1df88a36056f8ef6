import type { PlanInputRaw } from "./wasm/dpmargin_core.mjs";
import { badParameter } from "./errors.js";
import type { Calibration, Pruning, ScoreKind, Selector } from "./types.js";

export const SELECTORS: readonly Selector[] = ["iter", "privtune", "fixed"];
export const CALIBRATIONS: readonly Calibration[] = ["tight", "paper"];
export const SCORES: readonly ScoreKind[] = ["empirical", "population"];
/** Default cap on noisy-GD iterations, chosen by measurement (docs/ACCURACY.md, docs/BENCHMARKS.md):
 *  T changes utility and time, never privacy. Equals the core's kDefaultMaxIterations (tested). */
export const DEFAULT_MAX_ITERATIONS = 200;
/** Default ratio of noise-floor pruning (docs/ACCURACY.md; equals the core's kDefaultPruneRatio). */
export const DEFAULT_PRUNE_RATIO = 100;
export const PRUNINGS: readonly Pruning[] = ["auto", "none", "noise-floor"];
export const DEFAULT_EXPECTED_RUNS = 10;
/** Share of the GDP budget for private column ranges — the default with the "iter" and "fixed"
 *  selectors when no column ranges are declared (docs/ACCURACY.md: +5.8 points mean over 10
 *  tables at ε = 1 against unit-norm rows alone): μ_ranges = √0.1·μ, so training keeps
 *  √0.9 ≈ 95% of μ. `rangeShare: 0` turns them off. */
export const DEFAULT_RANGE_SHARE = 0.1;

// Type checks only: ranges are validated once, in the C++ core, so every front end reports the
// same message. NaN is a number and reaches the core, which rejects it by name.
export function numberOption(options: Record<string, unknown>, name: string, fallback?: number): number {
  const value = options[name];
  if (value === undefined) {
    if (fallback === undefined) throw badParameter(name, "a number (it is required)", value);
    return fallback;
  }
  if (typeof value !== "number") throw badParameter(name, "a number", value);
  return value;
}

export function choiceOption<T extends string>(options: Record<string, unknown>, name: string,
  allowed: readonly T[], fallback: T): T {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw badParameter(name, `one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`, value);
  }
  return value as T;
}

export function requireObject(options: unknown, what: string): Record<string, unknown> {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw badParameter(what, "an object", options);
  }
  return options as Record<string, unknown>;
}

export function rejectUnknown(o: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const key of Object.keys(o)) {
    if (!known.has(key) && o[key] !== undefined) {
      throw badParameter(key, `a known option (${[...known].join(", ")})`, "set");
    }
  }
}

export const PLAN_OPTION_NAMES = [
  "epsilon", "delta", "normBound", "selector", "calibration", "score", "expectedRuns",
  "jlFailure", "maxIterations", "margin", "rangeShare", "stepScale", "hingeScale", "pruning",
  "pruneRatio",
] as const;

// An optional scale whose unset value travels to the core as 0, "the calibration's default";
// an explicit value must be a positive number (0 would silently mean the default).
function scaleOption(o: Record<string, unknown>, name: string): number {
  if (o[name] === undefined) return 0;
  const value = numberOption(o, name);
  if (!(value > 0) || !Number.isFinite(value)) throw badParameter(name, "a positive finite number", value);
  return value;
}

/** The privacy/plan options shared by account() and train(). n and d come from the caller.
 *  Private ranges default to DEFAULT_RANGE_SHARE unless `rangesDeclared` or PrivTune (whose
 *  accounting is not GDP and does not cover them). */
export function planInput(o: Record<string, unknown>, n: number, d: number, rangesDeclared = false): PlanInputRaw {
  const rangeDefault = rangesDeclared || o.selector === "privtune" ? 0 : DEFAULT_RANGE_SHARE;
  return {
    epsilon: numberOption(o, "epsilon"),
    delta: numberOption(o, "delta"),
    n,
    d,
    normBound: numberOption(o, "normBound", 1),
    selector: choiceOption(o, "selector", SELECTORS, "iter"),
    calibration: choiceOption(o, "calibration", CALIBRATIONS, "tight"),
    score: choiceOption(o, "score", SCORES, "empirical"),
    expectedRuns: numberOption(o, "expectedRuns", DEFAULT_EXPECTED_RUNS),
    jlFailure: numberOption(o, "jlFailure", 0),
    maxIterations: numberOption(o, "maxIterations", DEFAULT_MAX_ITERATIONS),
    margin: numberOption(o, "margin", 0),
    rangeShare: numberOption(o, "rangeShare", rangeDefault),
    stepScale: scaleOption(o, "stepScale"),
    hingeScale: scaleOption(o, "hingeScale"),
    pruning: choiceOption(o, "pruning", PRUNINGS, "auto"),
    pruneRatio: numberOption(o, "pruneRatio", DEFAULT_PRUNE_RATIO),
  };
}
