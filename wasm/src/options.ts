// The JavaScript side of options: only what the core cannot see. Every option of a run — its
// name, type, domain and default — belongs to the core's option table (core/src/run/options.cpp,
// `dp.options`); this file splits off the options that live in JavaScript (callbacks, an
// AbortSignal, worker threads) and checks those.
import { badParameter } from "./errors.js";
import type { CoreOptions } from "./wasm/dpmargin_core.mjs";

export function requireObject(options: unknown, what: string): Record<string, unknown> {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw badParameter(what, "an object", options);
  }
  return options as Record<string, unknown>;
}

export function optionalFunction<T>(o: Record<string, unknown>, name: string): T | undefined {
  const value = o[name];
  if (value !== undefined && typeof value !== "function") throw badParameter(name, "a function", value);
  return value as T | undefined;
}

export function optionalSignal(o: Record<string, unknown>, name = "signal"): AbortSignal | undefined {
  const signal = o[name] as AbortSignal | undefined;
  if (signal !== undefined && (typeof signal !== "object" || signal === null || typeof signal.aborted !== "boolean")) {
    throw badParameter(name, "an AbortSignal", signal);
  }
  return signal;
}

/**
 * The options for the core: a plain copy of `o` without the JavaScript-only keys and without
 * unset (undefined) values. The core parses every name and value (BAD_PARAMETER naming it).
 */
export function coreOptions(o: Record<string, unknown>, jsOnly: readonly string[]): CoreOptions {
  const out: CoreOptions = {};
  for (const key of Object.keys(o)) {
    if (!jsOnly.includes(key) && o[key] !== undefined) out[key] = o[key];
  }
  return out;
}

/** Keys of `o` from `names` only (for options that go to a part of the core). */
export function pick(o: Record<string, unknown>, names: readonly string[]): CoreOptions {
  const out: CoreOptions = {};
  for (const key of names) if (o[key] !== undefined) out[key] = o[key];
  return out;
}

/** The preprocessing options of the core's table (a model file and the profile use them). */
export const PREPROCESSING_OPTIONS = ["intercept", "rowNormalization", "normBound", "columnRanges", "columnMaps"] as const;
