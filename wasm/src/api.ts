import type { CoreModule, Status } from "./wasm/dpmargin_core.mjs";
import { DpMarginError, badParameter, type DpMarginErrorCode } from "./errors.js";
import type { AccountOptions, Plan, Selector, Calibration, ScoreKind } from "./types.js";

const SELECTORS: readonly Selector[] = ["iter", "privtune"];
const CALIBRATIONS: readonly Calibration[] = ["tight", "paper"];
const SCORES: readonly ScoreKind[] = ["empirical", "population"];
const KNOWN_ACCOUNT_OPTIONS = new Set([
  "epsilon", "delta", "n", "d", "normBound", "selector", "calibration", "score",
  "expectedRuns", "jlFailure", "maxIterations",
]);

/** Turn a core status into a value or a thrown DpMarginError. */
export function unwrap<T>(status: Status<T>): T {
  if (status.ok) return status.value;
  throw new DpMarginError(status.code as DpMarginErrorCode, status.message,
    status.parameter || undefined);
}

// Type checks only: ranges are validated once, in the C++ core, so every front end reports the
// same message. NaN is a number and reaches the core, which rejects it by name.
function numberOption(options: Record<string, unknown>, name: string, fallback?: number): number {
  const value = options[name];
  if (value === undefined) {
    if (fallback === undefined) throw badParameter(name, "a number (it is required)", value);
    return fallback;
  }
  if (typeof value !== "number") throw badParameter(name, "a number", value);
  return value;
}

function choiceOption<T extends string>(options: Record<string, unknown>, name: string,
  allowed: readonly T[], fallback: T): T {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw badParameter(name, `one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`, value);
  }
  return value as T;
}

function requireObject(options: unknown, what: string): Record<string, unknown> {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw badParameter(what, "an object", options);
  }
  return options as Record<string, unknown>;
}

/** Pure accounting functions (SPEC §2.1, §2.6), exposed for reports and cross-checks. */
export interface Accounting {
  /** δ(ε; μ) of μ-GDP, exact and numerically stable. */
  gdpDelta(epsilon: number, mu: number): number;
  /** ln δ(ε; μ), finite where δ underflows. */
  gdpLogDelta(epsilon: number, mu: number): number;
  /** Smallest ε with δ(ε; μ) ≤ δ. */
  gdpEpsilon(mu: number, delta: number): number;
  /** Largest μ with δ(ε; μ) ≤ δ (rounded down). */
  gdpMu(epsilon: number, delta: number): number;
  /** √(Σ μᵢ²). */
  composeGdp(mus: number[]): number;
  /** The paper's M* choice μ = ε / (2√(2 ln(1/δ))). */
  paperMuMstar(epsilon: number, delta: number): number;
  /** The paper's Lemma: ε = μ²/2 + μ√(2 ln(1/δ)). */
  paperEpsilonLemma(mu: number, delta: number): number;
  /** The margin grid Γ for n rows and norm bound b. */
  marginGrid(n: number, b?: number): number[];
  /** PGF of TNB_{η,r}. */
  tnbPgf(eta: number, r: number, s: number): number;
  /** PrivTune ε by Papernot–Steinke RDP → (ε, δ) (CKS conversion, optimal order). */
  ps22Epsilon(mu: number, eta: number, r: number, delta: number): number;
  /** Largest μ with ps22Epsilon ≤ ε. */
  ps22Mu(epsilon: number, eta: number, r: number, delta: number): number;
  /** PrivTune ε by the paper's Lemma: 1.5μ² + 3μ√(2 ln(1/(rδ))) + δ. */
  privtunePaperEpsilon(mu: number, r: number, delta: number): number;
}

/** A loaded dpmargin module. Create it with `load()`; it holds no per-call state. */
export class DpMargin {
  readonly #core: CoreModule;
  /** Pure accounting functions. */
  readonly accounting: Accounting;
  /** Library version (from the C++ core). */
  readonly version: string;

  /** @internal Use `load()`. */
  constructor(core: CoreModule) {
    this.#core = core;
    this.version = core.version();
    const num = (name: string, v: unknown) => {
      if (typeof v !== "number") throw badParameter(name, "a number", v);
      return v;
    };
    this.accounting = {
      gdpDelta: (e, m) => unwrap(core.gdpDelta(num("epsilon", e), num("mu", m))),
      gdpLogDelta: (e, m) => unwrap(core.gdpLogDelta(num("epsilon", e), num("mu", m))),
      gdpEpsilon: (m, d) => unwrap(core.gdpEpsilon(num("mu", m), num("delta", d))),
      gdpMu: (e, d) => unwrap(core.gdpMu(num("epsilon", e), num("delta", d))),
      composeGdp: (mus) => {
        if (!Array.isArray(mus)) throw badParameter("mus", "an array of numbers", mus);
        mus.forEach((m, i) => num(`mus[${i}]`, m));
        return unwrap(core.composeGdp(mus));
      },
      paperMuMstar: (e, d) => unwrap(core.paperMuMstar(num("epsilon", e), num("delta", d))),
      paperEpsilonLemma: (m, d) => unwrap(core.paperEpsilonLemma(num("mu", m), num("delta", d))),
      marginGrid: (n, b = 1) => unwrap(core.marginGrid(num("n", n), num("b", b))),
      tnbPgf: (eta, r, s) => unwrap(core.tnbPgf(num("eta", eta), num("r", r), num("s", s))),
      ps22Epsilon: (m, eta, r, d) =>
        unwrap(core.ps22Epsilon(num("mu", m), num("eta", eta), num("r", r), num("delta", d))),
      ps22Mu: (e, eta, r, d) =>
        unwrap(core.ps22Mu(num("epsilon", e), num("eta", eta), num("r", r), num("delta", d))),
      privtunePaperEpsilon: (m, r, d) =>
        unwrap(core.privtunePaperEpsilon(num("mu", m), num("r", r), num("delta", d))),
    };
  }

  /**
   * Plan a training run without data: μ in total and per run, and per margin candidate the
   * JL dimension, hinge scale, sensitivity, iterations, noise sd and step size.
   * @throws DpMarginError with code BAD_PARAMETER naming the parameter.
   */
  account(options: AccountOptions): Plan {
    const o = requireObject(options, "options");
    for (const key of Object.keys(o)) {
      if (!KNOWN_ACCOUNT_OPTIONS.has(key)) {
        throw badParameter(key, `a known option (${[...KNOWN_ACCOUNT_OPTIONS].join(", ")})`, "set");
      }
    }
    const plan = this.#core.plan({
      epsilon: numberOption(o, "epsilon"),
      delta: numberOption(o, "delta"),
      n: numberOption(o, "n"),
      d: numberOption(o, "d"),
      normBound: numberOption(o, "normBound", 1),
      selector: choiceOption(o, "selector", SELECTORS, "iter"),
      calibration: choiceOption(o, "calibration", CALIBRATIONS, "tight"),
      score: choiceOption(o, "score", SCORES, "empirical"),
      expectedRuns: numberOption(o, "expectedRuns", 10),
      jlFailure: numberOption(o, "jlFailure", 0),
      maxIterations: numberOption(o, "maxIterations", 1000),
    });
    return unwrap(plan) as Plan;
  }
}
