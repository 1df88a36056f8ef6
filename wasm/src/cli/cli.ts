#!/usr/bin/env node
/**
 * The `dpmargin` command (SPEC §5.2). Exit codes: 0 success; 2 bad input or parameters
 * (one line on stderr, nothing on stdout); 1 internal failure.
 */
import { parseArgs } from "node:util";
import { readFile, writeFile } from "node:fs/promises";
import { load, csvFile, DpMarginError, type Plan, type TrainReport, type DpMargin, type CsvReadOptions } from "./node.js";
import { SEEDED_WARNING } from "./train.js";
import { DEFAULT_RANGE_SHARE } from "./options.js";

const USAGE = `usage:
  dpmargin train TRAIN.csv --label COL [--positive VALUE] --epsilon E --delta D
                 [--test TEST.csv] [--selector iter|privtune|fixed] [--margin G]
                 [--score empirical|population] [--calibration tight|paper]
                 [--output last|average] [--max-iterations T] [--expected-runs K]
                 [--norm-bound B] [--no-intercept] [--range-share S | --no-private-ranges]
                 [--step-scale D] [--hinge-scale H] [--pruning auto|none|noise-floor]
                 [--prune-ratio R] [--seed N] [--out model.json] [--json]
                 [--features A,B,C] [--ignore X,Y] [--impute VALUE] [--max-bytes N]
  dpmargin predict MODEL.json DATA.csv [--out predictions.csv] [--impute VALUE] [--max-bytes N]
  dpmargin profile DATA.csv --label COL [--positive VALUE] [--max-removed F] [--no-intercept] [--json]
                   (not private: a local diagnostic)
  dpmargin account --epsilon E --delta D --n N --d D [--selector iter|privtune]
                   [--expected-runs K] [--calibration tight|paper] [--score empirical|population]
                   [--norm-bound B] [--jl-failure BETA] [--max-iterations T]
                   [--step-scale D] [--hinge-scale H] [--pruning auto|none|noise-floor]
                   [--prune-ratio R] [--range-share S] [--json]
  dpmargin --help | --version`;

class UsageError extends Error {}

// CLI flag ↔ API parameter names, so errors from the core name the flag the user typed.
const FLAGS: Record<string, string> = {
  epsilon: "--epsilon", delta: "--delta", n: "--n", d: "--d", selector: "--selector",
  expectedRuns: "--expected-runs", calibration: "--calibration", score: "--score",
  normBound: "--norm-bound", jlFailure: "--jl-failure", maxIterations: "--max-iterations",
  margin: "--margin", output: "--output", rangeShare: "--range-share", seed: "--seed",
  label: "--label", positive: "--positive",
  features: "--features", ignore: "--ignore", missing: "--impute", maxBytes: "--max-bytes",
  maxRemoved: "--max-removed", stepScale: "--step-scale", hingeScale: "--hinge-scale",
  pruning: "--pruning", pruneRatio: "--prune-ratio",
};

// Flags of the command being run: an error names a flag only if the user could have typed it.
let acceptedFlags = new Set<string>();

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
  if (plan.pruned.length > 0) {
    lines.push(`  pruned ${plan.pruned.length} of ${plan.gridSize} margins (noise floor 2Δ√k/(nμ_run) > ${plan.pruneRatio}): γ ≤ ${formatNumber(plan.pruned[plan.pruned.length - 1])}`);
  }
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

type Flags = Record<string, { type: "string" | "boolean" }>;

function parse(argv: string[], options: Flags, positionals: number) {
  acceptedFlags = new Set(Object.keys(options).map((name) => `--${name}`));
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(argv), strict: true, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`expected ${positionals} file argument${positionals === 1 ? "" : "s"}, got ${parsed.positionals.length}`);
  }
  return { values: parsed.values as Record<string, unknown>, files: parsed.positionals };
}

const PLAN_FLAGS: Flags = {
  epsilon: { type: "string" }, delta: { type: "string" }, selector: { type: "string" },
  "expected-runs": { type: "string" }, calibration: { type: "string" }, score: { type: "string" },
  "norm-bound": { type: "string" }, "jl-failure": { type: "string" },
  "max-iterations": { type: "string" }, "range-share": { type: "string" },
  "private-ranges": { type: "boolean" }, "no-private-ranges": { type: "boolean" },
  json: { type: "boolean" },
  "step-scale": { type: "string" }, "hinge-scale": { type: "string" }, pruning: { type: "string" },
  "prune-ratio": { type: "string" },
};

function planOptions(v: Record<string, unknown>) {
  const rangeFlags = ["range-share", "private-ranges", "no-private-ranges"].filter((f) => v[f] !== undefined);
  if (v["no-private-ranges"] !== undefined && rangeFlags.length > 1) {
    throw new UsageError(`--no-private-ranges contradicts --${rangeFlags.find((f) => f !== "no-private-ranges")}`);
  }
  const options = {
    epsilon: numberFlag(v, "epsilon", "epsilon", true)!,
    delta: numberFlag(v, "delta", "delta", true)!,
    normBound: numberFlag(v, "norm-bound", "normBound", false),
    expectedRuns: numberFlag(v, "expected-runs", "expectedRuns", false),
    jlFailure: numberFlag(v, "jl-failure", "jlFailure", false),
    maxIterations: numberFlag(v, "max-iterations", "maxIterations", false),
    rangeShare: numberFlag(v, "range-share", "rangeShare", false)
      // Private ranges are the default (share DEFAULT_RANGE_SHARE with iter/fixed);
      // --private-ranges is kept for scripts that asked for them explicitly.
      ?? (v["no-private-ranges"] ? 0 : v["private-ranges"] ? DEFAULT_RANGE_SHARE : undefined),
    selector: v.selector as "iter" | "privtune" | "fixed" | undefined,
    calibration: v.calibration as "tight" | "paper" | undefined,
    score: v.score as "empirical" | "population" | undefined,
    stepScale: numberFlag(v, "step-scale", "stepScale", false),
    hingeScale: numberFlag(v, "hinge-scale", "hingeScale", false),
    pruning: v.pruning as "auto" | "none" | "noise-floor" | undefined,
    pruneRatio: numberFlag(v, "prune-ratio", "pruneRatio", false),
  };
  return Object.fromEntries(Object.entries(options).filter(([, x]) => x !== undefined));
}

async function account(argv: string[]): Promise<void> {
  const { values: v } = parse(argv, { ...PLAN_FLAGS, n: { type: "string" }, d: { type: "string" } }, 0);
  const options = {
    ...planOptions(v),
    n: numberFlag(v, "n", "n", true)!,
    d: numberFlag(v, "d", "d", true)!,
  };
  const dp = await load();
  const plan = dp.account(options as unknown as Parameters<typeof dp.account>[0]);
  if (v.json) process.stdout.write(JSON.stringify(plan, null, 2) + "\n");
  else printPlan(plan);
}

function accuracy(predicted: Int8Array, truth: Int8Array): number {
  let correct = 0;
  for (let i = 0; i < truth.length; i++) correct += predicted[i] === truth[i] ? 1 : 0;
  return correct / truth.length;
}

const CSV_FLAGS: Flags = { impute: { type: "string" }, "max-bytes": { type: "string" } };

// A comma-separated list of column names (a name cannot contain a comma here).
function listFlag(values: Record<string, unknown>, flag: string): string[] | undefined {
  const raw = values[flag];
  return raw === undefined ? undefined : String(raw).split(",").map((name) => name.trim());
}

/** Reader options shared by train and predict: --impute, --max-bytes. */
function csvFlags(v: Record<string, unknown>): Pick<CsvReadOptions, "missing" | "maxBytes"> {
  const impute = numberFlag(v, "impute", "missing", false);
  const maxBytes = numberFlag(v, "max-bytes", "maxBytes", false);
  return {
    ...(impute !== undefined ? { missing: { impute } } : {}),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
  };
}

async function trainCommand(argv: string[]): Promise<void> {
  const { values: v, files } = parse(argv, {
    ...PLAN_FLAGS, ...CSV_FLAGS, label: { type: "string" }, positive: { type: "string" }, test: { type: "string" },
    output: { type: "string" }, margin: { type: "string" }, "no-intercept": { type: "boolean" },
    seed: { type: "string" }, out: { type: "string" }, features: { type: "string" }, ignore: { type: "string" },
  }, 1);
  if (v.label === undefined) throw new DpMarginError("BAD_PARAMETER", "label is required (--label COL)", "label");
  const options = {
    ...planOptions(v),
    margin: numberFlag(v, "margin", "margin", false),
    seed: numberFlag(v, "seed", "seed", false),
    output: v.output as "average" | "last" | undefined,
    intercept: v["no-intercept"] ? false : undefined,
  };
  const clean = Object.fromEntries(Object.entries(options).filter(([, x]) => x !== undefined));
  const shared = csvFlags(v);
  const features = listFlag(v, "features");
  const ignore = listFlag(v, "ignore");
  const csv = {
    label: v.label as string, ...shared,
    ...(v.positive !== undefined ? { positive: v.positive as string } : {}),
    ...(features ? { features } : {}),
    ...(ignore ? { ignore } : {}),
  };
  const dp = await load();
  // Two streaming passes into wasm memory, then training; the data are never copied into JS.
  const { model, report, table } = await dp.trainCsv(csvFile(files[0]), csv,
    clean as unknown as Parameters<DpMargin["trainCsv"]>[2]);
  // Accuracy on the user's own data: computed locally, not differentially private. Everything is
  // computed before anything is written, so bad test data leaves no model file behind.
  const evaluate = { ...shared, label: table.label!.column, positive: table.label!.positive };
  const onTrain = await model.predictCsv(csvFile(files[0]), evaluate);
  const trainAccuracy = accuracy(onTrain.labels, onTrain.truth!);
  const onTest = v.test === undefined ? null : await model.predictCsv(csvFile(v.test as string), evaluate);
  const testAccuracy = onTest ? accuracy(onTest.labels, onTest.truth!) : undefined;
  const test = onTest ? { rows: onTest.table.rows } : null;
  const out: TrainReport & Record<string, unknown> = {
    ...report,
    label: table.label,
    features: table.featureNames,
    delimiter: table.delimiter,
    trainAccuracy,
    trainAccuracyNote: "computed on the training data; not differentially private",
    ...(test ? { testAccuracy, testRows: test.rows } : {}),
  };
  if (v.out !== undefined) await writeFile(v.out as string, JSON.stringify(model.toJSON(), null, 2) + "\n");
  if (report.seeded) process.stderr.write(`dpmargin: warning: ${SEEDED_WARNING}\n`);
  if (v.json) {
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return;
  }
  const lines = [
    `dpmargin train — ${report.selector} selection, ${report.calibration} calibration${report.seeded ? "  [NOT PRIVATE: seeded]" : ""}`,
    `  (ε, δ) = (${report.epsilon}, ${report.delta}), μ = ${formatNumber(report.mu, 8)}, replace-one neighbours; n = ${report.n}, d = ${report.d}`,
    `  selected margin γ = ${formatNumber(report.selectedMargin)} (k = ${report.selectedK}${report.selectedProjected ? ", projected" : ""}), ${report.runs} base run(s), ${Math.round(report.elapsedMs)} ms`,
    `  train accuracy ${(trainAccuracy * 100).toFixed(2)}% (not private)` + (test ? `, test accuracy ${(testAccuracy! * 100).toFixed(2)}% on ${test.rows} rows` : ""),
  ];
  if (report.selector === "iter") {
    lines.push("", "  candidates (released): gamma, k, T, noisy score");
    for (const c of report.candidates) {
      lines.push(`    ${formatNumber(c.gamma).padStart(11)} ${String(c.k).padStart(6)} ${String(c.T).padStart(6)} ${formatNumber(c.noisyScore).padStart(12)}${c.gamma === report.selectedMargin ? "  <- selected" : ""}`);
    }
  }
  if (v.out !== undefined) lines.push("", `  model written to ${v.out}`);
  process.stdout.write(lines.join("\n") + "\n");
}

function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new DpMarginError("BAD_PARAMETER", `cannot read ${what} ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, what);
  }
}

async function predictCommand(argv: string[]): Promise<void> {
  const { values: v, files } = parse(argv, { out: { type: "string" }, ...CSV_FLAGS }, 2);
  const dp = await load();
  const model = dp.modelFromJSON(await readText(files[0], "MODEL.json"));
  const { scores, labels } = await model.predictCsv(csvFile(files[1]), csvFlags(v));
  const positive = model.label?.positive ?? "1";
  const column = model.label?.column ?? "label";
  const header = `score,${csvField(`${column}=${positive}`)}`;
  const body = Array.from(scores, (s, i) => `${s},${labels[i] > 0 ? 1 : 0}`);
  const text = [header, ...body].join("\n") + "\n";
  if (model.seeded) process.stderr.write(`dpmargin: warning: the model is ${SEEDED_WARNING}\n`);
  if (v.out !== undefined) await writeFile(v.out as string, text);
  else process.stdout.write(text);
}

async function profileCommand(argv: string[]): Promise<void> {
  const { values: v, files } = parse(argv, {
    label: { type: "string" }, positive: { type: "string" }, "max-removed": { type: "string" },
    "no-intercept": { type: "boolean" }, json: { type: "boolean" }, ...CSV_FLAGS,
  }, 1);
  if (v.label === undefined) throw new DpMarginError("BAD_PARAMETER", "label is required (--label COL)", "label");
  const dp = await load();
  const maxRemoved = numberFlag(v, "max-removed", "maxRemoved", false);
  const profile = await dp.profileCsv(csvFile(files[0]),
    { ...csvFlags(v), label: v.label as string, positive: v.positive as string | undefined },
    { ...(maxRemoved !== undefined ? { maxRemoved } : {}), ...(v["no-intercept"] ? { intercept: false } : {}) });
  if (v.json) {
    const { table, ...rest } = profile;
    process.stdout.write(JSON.stringify({ ...rest, rows: table.rows, label: table.label }, null, 2) + "\n");
    return;
  }
  const lines = [
    "dpmargin profile — NOT PRIVATE: a local diagnostic that reads every row (never release it)",
    `  ${profile.n} rows${profile.zeroRows ? ` (+${profile.zeroRows} zero rows skipped)` : ""}, ${profile.fits} SVM fits, ${Math.round(profile.elapsedMs)} ms`,
    profile.firstSeparableFraction === null
      ? "  never linearly separable within the removal budget"
      : `  separable after removing ${profile.firstSeparableRemoved} rows (${(100 * profile.firstSeparableFraction).toFixed(3)}%)`,
    "", "  % removed   normalized margin   (minimum before clamping)",
    ...profile.curve.filter((p) => p.onGrid).map((p) =>
      `  ${(100 * p.fraction).toFixed(3).padStart(9)}   ${p.margin.toFixed(6).padStart(17)}   (${p.minimumMargin.toFixed(6)})`),
  ];
  process.stdout.write(lines.join("\n") + "\n");
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
    if (command === "train") {
      await trainCommand(rest);
      return 0;
    }
    if (command === "predict") {
      await predictCommand(rest);
      return 0;
    }
    if (command === "profile") {
      await profileCommand(rest);
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
      // Bad input or parameters: exit 2, one line, nothing on stdout.
      const mapped = error.parameter ? FLAGS[error.parameter] : undefined;
      const flag = mapped && acceptedFlags.has(mapped) ? mapped : undefined;
      process.stderr.write(`dpmargin: ${error.code}${flag ? ` (${flag})` : ""}: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`dpmargin: internal error: ${(error as Error)?.stack ?? error}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
