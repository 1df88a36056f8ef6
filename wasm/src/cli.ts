#!/usr/bin/env node
/**
 * The `dpmargin` command (SPEC §5.2). Exit codes: 0 success; 2 bad input or parameters
 * (one line on stderr, nothing on stdout); 1 internal failure.
 */
import { parseArgs } from "node:util";
import { load, DpMarginError, type Plan } from "./node.js";

const USAGE = `usage:
  dpmargin account --epsilon E --delta D --n N --d D [--selector iter|privtune]
                   [--expected-runs K] [--calibration tight|paper] [--score empirical|population]
                   [--norm-bound B] [--jl-failure BETA] [--max-iterations T] [--json]
  dpmargin --help | --version`;

class UsageError extends Error {}

// CLI flag ↔ API parameter names, so errors from the core name the flag the user typed.
const FLAGS: Record<string, string> = {
  epsilon: "--epsilon", delta: "--delta", n: "--n", d: "--d", selector: "--selector",
  expectedRuns: "--expected-runs", calibration: "--calibration", score: "--score",
  normBound: "--norm-bound", jlFailure: "--jl-failure", maxIterations: "--max-iterations",
};

function numberFlag(values: Record<string, unknown>, flag: string, param: string,
  required: boolean): number | undefined {
  const raw = values[flag];
  if (raw === undefined) {
    if (required) throw new DpMarginError("BAD_PARAMETER", `${param} is required (--${flag})`, param);
    return undefined;
  }
  const text = String(raw).trim();
  const value = text === "" ? Number.NaN : Number(text);
  if (Number.isNaN(value) && text.toLowerCase() !== "nan") {
    throw new DpMarginError("BAD_PARAMETER", `${param} must be a number, but is ${JSON.stringify(raw)}`, param);
  }
  return value;
}

function formatNumber(x: number, digits = 6): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-3 ? x.toExponential(digits - 1) : x.toPrecision(digits);
}

function printPlan(plan: Plan): void {
  const lines: string[] = [];
  lines.push(`dpmargin plan — ${plan.selector} selection, ${plan.calibration} calibration, ${plan.score} score`);
  lines.push(`  (ε, δ) = (${plan.epsilon}, ${plan.delta}), replace-one neighbours, n = ${plan.n}, d = ${plan.d}, b = ${plan.normBound}`);
  lines.push(`  μ total = ${formatNumber(plan.mu, 10)}   μ per run = ${formatNumber(plan.muRun, 10)}   score noise sd = ${formatNumber(plan.scoreSd)}`);
  lines.push(`  ε spent (recomputed from μ) = ${formatNumber(plan.epsilonSpent, 10)}   JL failure β = ${formatNumber(plan.jlFailure)}`);
  if (plan.selector === "privtune") {
    lines.push(`  E[K] = ${plan.expectedRuns}   TNB η = ${plan.tnbEta}, r = ${formatNumber(plan.tnbR!)}   P(a candidate is never tried) = ${formatNumber(plan.probabilityMiss!)}`);
  }
  const header = ["gamma", "c", "Delta", "k_jl", "projected", "k", "T", "sigma", "eta"];
  const rows = plan.candidates.map((c) => [
    formatNumber(c.gamma), formatNumber(c.c), formatNumber(c.sensitivity), String(c.kJl),
    c.projected ? "yes" : "no", String(c.k), `${c.T}${c.capped ? "*" : ""}`,
    formatNumber(c.sigma), formatNumber(c.stepSize),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => "  " + r.map((x, i) => x.padStart(widths[i])).join("  ");
  lines.push("", fmt(header), ...rows.map(fmt));
  if (plan.candidates.some((c) => c.capped)) {
    lines.push(`  * capped at --max-iterations ${plan.maxIterations} (T changes utility and time, never privacy)`);
  }
  process.stdout.write(lines.join("\n") + "\n");
}

// node:util parseArgs treats "-1" after a flag as another option; a negative number is what
// the user meant (and the core then names the bad value), so glue it on as --flag=-1.
function joinNegativeNumbers(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (/^--[a-z-]+$/.test(argv[i]) && next !== undefined && /^-(\d|\.\d|inf|Infinity)/i.test(next)) {
      out.push(`${argv[i]}=${next}`);
      i++;
    } else {
      out.push(argv[i]);
    }
  }
  return out;
}

async function account(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeNumbers(argv),
      strict: true,
      allowPositionals: false,
      options: {
        epsilon: { type: "string" }, delta: { type: "string" }, n: { type: "string" },
        d: { type: "string" }, selector: { type: "string" }, "expected-runs": { type: "string" },
        calibration: { type: "string" }, score: { type: "string" },
        "norm-bound": { type: "string" }, "jl-failure": { type: "string" },
        "max-iterations": { type: "string" }, json: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values as Record<string, unknown>;
  const options = {
    epsilon: numberFlag(v, "epsilon", "epsilon", true)!,
    delta: numberFlag(v, "delta", "delta", true)!,
    n: numberFlag(v, "n", "n", true)!,
    d: numberFlag(v, "d", "d", true)!,
    normBound: numberFlag(v, "norm-bound", "normBound", false),
    expectedRuns: numberFlag(v, "expected-runs", "expectedRuns", false),
    jlFailure: numberFlag(v, "jl-failure", "jlFailure", false),
    maxIterations: numberFlag(v, "max-iterations", "maxIterations", false),
    selector: v.selector as "iter" | "privtune" | undefined,
    calibration: v.calibration as "tight" | "paper" | undefined,
    score: v.score as "empirical" | "population" | undefined,
  };
  const clean = Object.fromEntries(Object.entries(options).filter(([, x]) => x !== undefined));
  const dp = await load();
  const plan = dp.account(clean as unknown as Parameters<typeof dp.account>[0]);
  if (v.json) process.stdout.write(JSON.stringify(plan, null, 2) + "\n");
  else printPlan(plan);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h") {
      process.stdout.write(USAGE + "\n");
      return command === undefined ? 2 : 0;
    }
    if (command === "--version") {
      process.stdout.write((await load()).version + "\n");
      return 0;
    }
    if (command === "account") {
      await account(rest);
      return 0;
    }
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    if (error instanceof UsageError) {
      // One line: scripts read the first line of stderr.
      const message = error.message.split("\n")[0];
      process.stderr.write(`dpmargin: ${message} (see dpmargin --help)\n`);
      return 2;
    }
    if (error instanceof DpMarginError && error.code !== "INTERNAL" && error.code !== "WASM_LOAD") {
      const flag = error.parameter ? FLAGS[error.parameter] : undefined;
      process.stderr.write(`dpmargin: ${error.code}${flag ? ` (${flag})` : ""}: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`dpmargin: internal error: ${(error as Error)?.stack ?? error}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
