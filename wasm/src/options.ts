import type { PlanInputRaw } from "./wasm/dpmargin_core.mjs";
import { badParameter } from "./errors.js";
import type { Calibration, ScoreKind, Selector } from "./types.js";

export const SELECTORS: readonly Selector[] = ["iter", "privtune", "fixed"];
export const CALIBRATIONS: readonly Calibration[] = ["tight", "paper"];
export const SCORES: readonly ScoreKind[] = ["empirical", "population"];
/** Provisional default (see docs/ACCOUNTING.md): T changes utility and time, never privacy. */
export const DEFAULT_MAX_ITERATIONS = 1000;
export const DEFAULT_EXPECTED_RUNS = 10;
/** Share of the GDP budget for private column ranges when they are asked for without a share
 *  (`--private-ranges`): μ_ranges = √0.1·μ, so training keeps √0.9 ≈ 95% of μ. */
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
  "jlFailure", "maxIterations", "margin", "rangeShare",
] as const;

/** The privacy/plan options shared by account() and train(). n and d come from the caller. */
export function planInput(o: Record<string, unknown>, n: number, d: number): PlanInputRaw {
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
    rangeShare: numberOption(o, "rangeShare", 0),
  };
}
