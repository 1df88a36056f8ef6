// The privacy ledger: the cumulative guarantee of every run on the same data (docs/reference/ACCOUNTING.md,
// "Budget across runs"). Choosing among several runs by their accuracy spends all of them; the
// ledger makes that visible and, with a cap, refuses a run that would go beyond it. The
// composition is the core's (accounting/ledger.hpp): exact GDP composition where runs are GDP,
// basic composition otherwise. A ledger holds only public numbers (each run's ε, δ, μ) and a
// local note; it is a plain JSON file (toJSON / fromJSON) that the CLI's --ledger accumulates.
import type { CoreModule } from "../wasm/dpmargin_core.mjs";
import { DpMarginError, badParameter } from "../errors.js";
import { unwrap } from "../module/status.js";
import type { Plan } from "../types.js";

/** One run as the ledger records it (its plan's public budget). */
export interface LedgerRun {
  epsilon: number;
  delta: number;
  /** True when the run is μ-GDP (every selector but PrivTune); then `mu` and `deltaGdp` (the δ
   *  left to the GDP part after category discovery's thresholds) are set. */
  gdp: boolean;
  mu?: number;
  deltaGdp?: number;
  selector: string;
  /** Local note (what was trained, when): never part of a released output. */
  note?: string;
}

/** The cumulative guarantee of the recorded runs. */
export interface LedgerTotal {
  /** (ε, δ) of all runs together: δ = Σδᵢ; ε from the exact GDP composition of the GDP runs
   *  (μ = √Σμᵢ²) plus Σεᵢ of the others. */
  epsilon: number;
  delta: number;
  /** √Σμᵢ² over the GDP runs. */
  mu: number;
  /** Σεᵢ (basic composition), for comparison. */
  basicEpsilon: number;
  runs: number;
  gdpRuns: number;
}

/** The ledger file. */
export interface LedgerFile {
  format: "dpmargin-ledger";
  version: 1;
  /** A total the ledger refuses to go beyond (BUDGET_EXCEEDED), or null. */
  cap: { epsilon: number; delta: number } | null;
  runs: LedgerRun[];
}

/** What a ledger reads of a plan: its budget (a resolved plan, or the budget a CSV run knows
 *  before discovery draws noise). */
export type LedgerBudget = Pick<Plan, "epsilon" | "delta" | "selector" | "mu" | "deltaGdp">;

/** The record of one run from its resolved plan (what `onPlan` and `report.plan` give). */
export function ledgerRun(plan: LedgerBudget, note?: string): LedgerRun {
  // Iter, fixed (and every selector but PrivTune) are μ-GDP apart from discovery's δ charge;
  // PrivTune's guarantee (Papernot–Steinke) is (ε, δ) only.
  const gdp = plan.selector !== "privtune";
  return {
    epsilon: plan.epsilon, delta: plan.delta, gdp,
    ...(gdp ? { mu: plan.mu, deltaGdp: plan.deltaGdp } : {}),
    selector: plan.selector,
    ...(note !== undefined ? { note } : {}),
  };
}

export class PrivacyLedger {
  readonly #core: CoreModule;
  #cap: LedgerFile["cap"];
  #runs: LedgerRun[];

  /** @internal Use `dp.ledger()` or `dp.ledgerFromJSON()`. */
  constructor(core: CoreModule, file: LedgerFile) {
    this.#core = core;
    this.#cap = file.cap ? { ...file.cap } : null;
    this.#runs = file.runs.map((r) => ({ ...r }));
    this.#compose(this.#runs, null);  // the records and the cap are checked by the core
    if (this.#cap) this.#compose([], this.#cap);
  }

  get cap(): LedgerFile["cap"] { return this.#cap ? { ...this.#cap } : null; }
  get runs(): readonly LedgerRun[] { return this.#runs.map((r) => ({ ...r })); }
  /** The cumulative guarantee of the recorded runs. */
  get total(): LedgerTotal { return this.#compose(this.#runs, null); }

  /** What the total would become with one more run of this plan; BUDGET_EXCEEDED when that is
   *  beyond the cap (nothing is recorded). */
  preview(plan: LedgerBudget): LedgerTotal {
    return this.#compose([...this.#runs, ledgerRun(plan)], this.#cap);
  }

  /** Records a run of this plan (train() does it, with the `ledger` option, before the first
   *  iteration): BUDGET_EXCEEDED, and nothing recorded, when the total would pass the cap. */
  charge(plan: LedgerBudget, note?: string): LedgerTotal {
    const run = ledgerRun(plan, note);
    const total = this.#compose([...this.#runs, run], this.#cap);
    this.#runs.push(run);
    return total;
  }

  /** Forgets every run. Only for a new dataset: the runs already made stay spent on the old one. */
  clear(): void { this.#runs = []; }

  toJSON(): LedgerFile {
    return { format: "dpmargin-ledger", version: 1, cap: this.cap, runs: this.runs.map((r) => ({ ...r })) };
  }

  #compose(runs: LedgerRun[], cap: LedgerFile["cap"]): LedgerTotal {
    return unwrap(this.#core.composeLedger(runs, cap)) as LedgerTotal;
  }
}

/** A ledger file from JSON text or an object: BAD_PARAMETER naming the field when invalid. */
export function parseLedgerFile(json: unknown): LedgerFile {
  let f: unknown = json;
  if (typeof json === "string") {
    try {
      f = JSON.parse(json);
    } catch {
      throw new DpMarginError("BAD_PARAMETER", "ledger must be a dpmargin ledger file (JSON), but is not JSON", "ledger");
    }
  }
  const o = f as Record<string, unknown> | null;
  if (!o || typeof o !== "object" || o.format !== "dpmargin-ledger" || o.version !== 1) {
    throw badParameter("ledger", 'a ledger file ({format: "dpmargin-ledger", version: 1, cap, runs})', typeof f === "object" ? JSON.stringify(f)?.slice(0, 80) : f);
  }
  if (o.cap !== null && (typeof o.cap !== "object" || Array.isArray(o.cap))) throw badParameter("ledger.cap", "null or {epsilon, delta}", o.cap);
  if (!Array.isArray(o.runs)) throw badParameter("ledger.runs", "an array of runs", o.runs);
  return { format: "dpmargin-ledger", version: 1, cap: o.cap as LedgerFile["cap"], runs: o.runs as LedgerRun[] };
}
