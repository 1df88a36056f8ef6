/**
 * The `dpmargin` command (SPEC §5.2), run by the bin entry (../cli.ts). Exit codes: 0 success;
 * 2 bad input or parameters (one line on stderr, nothing on stdout); 1 internal failure.
 * Every option of a run comes from the core's option table (`dp.options`): its flag is the
 * name in kebab case (maxIterations → --max-iterations), its type and help are the table's.
 */
import { parseArgs } from "node:util";
import { readFile, rename, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { Progress } from "./progress.js";
import { readColumns } from "./columns.js";
import { aucText, noBetterThanMajority, percent } from "./metrics.js";
import { evaluate as evaluateScores } from "../metrics/metrics.js";
import { COMMAND_FLAGS, commandHelp, flagsOf, kebab, usage, type Flags } from "./help.js";
import { load, csvFile, epsilonMeaning, deltaWarning, DpMarginError, predictionsCsv, multiclassPredictionsCsv, SEEDED_WARNING,
  type Plan, type DpMargin, type PrivacyLedger, type CsvReadOptions, type OptionInfo, type CsvProgress, type ProfileProgress, type TrainProgress,
  type ColumnSummary, type TableInfo, type SchemaFile, type SchemaColumn } from "../node.js";

class UsageError extends Error {}


// API parameter → the flag the user typed, so errors from the core name the flag. Every option
// of the core's table (run options and CSV options) has its name in kebab case; a schema
// field ("schema.columns[2].kind", "columns.age.missing") names --schema.
const flagOf = (parameter: string) => {
  const head = parameter.split(/[.[]/)[0];
  return head === "columns" ? "--schema" : head === "maxRemoved" ? "--max-removed"
    : head === "cap" ? "--ledger-cap" : head === "entries" ? "--ledger" : `--${kebab(head)}`;
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
    throw new DpMarginError("BAD_PARAMETER", `--${flag} must be a number, but is ${JSON.stringify(raw)}`, param);
  }
  return value;
}

// A share given as a fraction (0.05) or a percentage (5%), as the app asks for it (its profile
// field is "Remove at most (%)"); a bare number above 1 is refused as ambiguous.
function fractionFlag(values: Record<string, unknown>, flag: string, param: string): number | undefined {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const percent = text.endsWith("%");
  const value = Number(percent ? text.slice(0, -1).trim() : text);
  if (text === "" || text === "%" || !Number.isFinite(value)) {
    throw new DpMarginError("BAD_PARAMETER", `--${flag} must be a fraction (0.05) or a percentage (5%), but is ${JSON.stringify(raw)}`, param);
  }
  if (!percent && value > 1) {
    throw new DpMarginError("BAD_PARAMETER", `--${flag} must be a fraction (0.05) or a percentage (5%), but is ${JSON.stringify(raw)}: write ${JSON.stringify(`${text}%`)} for a percentage`, param);
  }
  return percent ? value / 100 : value;
}

function formatNumber(x: number, digits = 6): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-3 ? x.toExponential(digits - 1) : x.toPrecision(digits);
}

// The core's plain-language advice on a plan (plan::advise): its verdict and its sentence.
function adviceLine(plan: Plan): string {
  return `verdict: ${plan.advice.verdict} — ${plan.advice.text}`;
}

function printPlan(plan: Plan): void {
  const lines: string[] = [];
  lines.push(`dpmargin plan — ${plan.selector} selection, ${plan.calibration} calibration, ${plan.score} score`);
  lines.push(`  (ε, δ) = (${plan.epsilon}, ${plan.delta}), replace-one neighbours, n = ${plan.n}, d = ${plan.d}, b = ${plan.normBound}`);
  lines.push(`  μ total = ${formatNumber(plan.mu, 10)}   μ per run = ${formatNumber(plan.muRun, 10)}   score noise sd = ${formatNumber(plan.scoreSd)}`);
  if (plan.multiclass === "joint") {
    lines.push(`  ${plan.classes} classes: one joint model on ${plan.classes} × k weights (${plan.multiclassLoss === "softmax" ? "softmax" : "multiclass hinge"}), the whole training budget; Delta = 2√2·R/c`);
  } else if (plan.multiclass === "one-vs-rest") {
    lines.push(`  ${plan.classes} classes: one-vs-rest, ${plan.classes} binary problems at μ per class = ${formatNumber(plan.muClass!, 10)}`);
  }
  lines.push(`  ${epsilonMeaning(plan.epsilon)}`);
  lines.push(`  ${adviceLine(plan)}`);
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

// The command being run: usage errors point at its help.
let currentCommand: string | null = null;

// node:util parseArgs's messages ("Unknown option '--foo'. To specify a positional argument
// starting with a '-', place it at the end of the command after '--', as in '-- \"--foo\"") are
// for programmers: say what is wrong with the flag, in the CLI's words.
function parseError(error: Error & { code?: string }): UsageError {
  const message = error.message;
  const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag) return new UsageError(`unknown option ${flag}`);
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag) {
    return new UsageError(/does not take an argument/.test(message) ? `option ${flag} takes no value` : `option ${flag} needs a value`);
  }
  if (error.code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return new UsageError("too many file arguments");
  return new UsageError(message);
}

function parse(argv: string[], options: Flags, positionals: number) {
  acceptedFlags = new Set(Object.keys(options).map((name) => `--${name}`));
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(argv), strict: true, allowPositionals: true, options });
  } catch (error) {
    throw parseError(error as Error & { code?: string });
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`expected ${positionals} file argument${positionals === 1 ? "" : "s"}, got ${parsed.positionals.length}`);
  }
  return { values: parsed.values as Record<string, unknown>, files: parsed.positionals };
}

// The run options a command takes, from the core's table: scope "both" plus `scope`; ranges
// (and the maps that go with them) are declared through the API, not on a command line.
const apiOnly = (o: OptionInfo): boolean => o.type === "ranges" || o.name === "columnMaps";
function optionFlags(dp: DpMargin, scope: "train" | "plan"): { flags: Flags; options: OptionInfo[] } {
  const options = dp.options.filter((o) => (o.scope === "both" || o.scope === scope) && !apiOnly(o));
  const flags: Flags = {};
  for (const o of options) {
    if (o.type === "boolean") flags[`no-${kebab(o.name)}`] = { type: "boolean" };  // defaults are true
    else flags[kebab(o.name)] = { type: "string" };
  }
  // Aliases kept for scripts: --no-private-ranges is --range-share 0, --private-ranges the
  // default (which has private ranges with iter and fixed).
  if (options.some((o) => o.name === "rangeShare")) {
    flags["no-private-ranges"] = { type: "boolean" };
    flags["private-ranges"] = { type: "boolean" };
  }
  return { flags, options };
}

// Flag values → API options (numbers parsed here so a typo names its flag; every value is then
// checked by the core).
function runOptions(v: Record<string, unknown>, options: OptionInfo[], required: string[] = []): Record<string, unknown> {
  const rangeFlags = ["range-share", "private-ranges", "no-private-ranges"].filter((f) => v[f] !== undefined);
  if (v["no-private-ranges"] !== undefined && rangeFlags.length > 1) {
    throw new UsageError(`--no-private-ranges contradicts --${rangeFlags.find((f) => f !== "no-private-ranges")}`);
  }
  const out: Record<string, unknown> = {};
  for (const o of options) {
    const flag = kebab(o.name);
    if (o.type === "boolean") {
      if (v[`no-${flag}`]) out[o.name] = false;
    } else if (o.type === "number" || o.type === "count") {
      const x = numberFlag(v, flag, o.name, required.includes(o.name));
      if (x !== undefined) out[o.name] = x;
    } else if (v[flag] !== undefined) {
      out[o.name] = v[flag];
    }
  }
  // --private-ranges asks for the default, which has private ranges (kept for old scripts).
  if (out.rangeShare === undefined && v["no-private-ranges"]) out.rangeShare = 0;
  return out;
}

async function account(dp: DpMargin, argv: string[]): Promise<void> {
  const { flags, options } = optionFlags(dp, "plan");
  const { values: v } = parse(argv, { ...flags, ...flagsOf(COMMAND_FLAGS.account) }, 0);
  const plan = dp.account(runOptions(v, options, ["epsilon", "delta", "n", "d"]) as unknown as Parameters<DpMargin["account"]>[0]);
  const delta = deltaWarning(plan.delta, plan.n);
  if (delta) process.stderr.write(`dpmargin: warning: ${delta}\n`);
  if (v.json) process.stdout.write(JSON.stringify(plan, null, 2) + "\n");
  else printPlan(plan);
}
// Binary: ±1 against ±1; multiclass: class index against class index (a label outside the
// classes, −1, is never predicted: it counts as an error).
function accuracy(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  let correct = 0;
  for (let i = 0; i < truth.length; i++) correct += predicted[i] === truth[i] ? 1 : 0;
  return correct / truth.length;
}

// A comma-separated list (a value holding a comma is declared in a --schema file instead).
function listFlag(values: Record<string, unknown>, flag: string): string[] | undefined {
  const raw = values[flag];
  return raw === undefined ? undefined : String(raw).split(",").map((name) => name.trim());
}

// The CSV options a command takes, from the core's table (scope "table"): --label, --classes,
// --missing, --categories, --delimiter, --decimal, --encoding, --schema FILE, …; `only`
// restricts them (predict reads with the model's encoding). --impute C is kept for scripts:
// --missing constant --fill C.
function tableFlags(dp: DpMargin, only?: readonly string[]): { flags: Flags; options: OptionInfo[] } {
  const options = dp.options.filter((o) => o.scope === "table" && (!only || only.includes(o.name)));
  const flags: Flags = { impute: { type: "string" } };
  for (const o of options) {
    flags[kebab(o.name)] = { type: o.type === "boolean" ? "boolean" : "string" };
    if (o.type === "boolean") flags[`no-${kebab(o.name)}`] = { type: "boolean" };
  }
  return { flags, options };
}

async function tableOptions(v: Record<string, unknown>, options: OptionInfo[]): Promise<CsvReadOptions> {
  const out: Record<string, unknown> = {};
  for (const o of options) {
    const flag = kebab(o.name);
    if (o.type === "boolean") {
      if (v[flag] && v[`no-${flag}`]) throw new UsageError(`--${flag} contradicts --no-${flag}`);
      if (v[flag]) out[o.name] = true;
      if (v[`no-${flag}`]) out[o.name] = false;
    } else if (v[flag] === undefined) {
      continue;
    } else if (o.type === "number" || o.type === "count") {
      out[o.name] = numberFlag(v, flag, o.name, false);
    } else if (o.type === "texts") {
      out[o.name] = listFlag(v, flag);
    } else if (o.type === "schema") {
      const text = await readText(v[flag] as string, "schema");
      try {
        out[o.name] = JSON.parse(text);
      } catch (error) {
        throw new DpMarginError("BAD_PARAMETER", `schema must be a JSON file, but ${JSON.stringify(v[flag])} is not JSON (${(error as Error).message})`, "schema");
      }
    } else {
      out[o.name] = v[flag];
    }
  }
  const impute = numberFlag(v, "impute", "impute", false);
  if (impute !== undefined) {
    if (!Number.isFinite(impute)) {
      throw new DpMarginError("BAD_PARAMETER", `impute must be a finite public constant, but is ${JSON.stringify(v.impute)}`, "impute");
    }
    if (out.missing !== undefined || out.fill !== undefined) throw new UsageError("--impute contradicts --missing/--fill");
    out.missing = "constant";
    out.fill = impute;
  }
  return out as CsvReadOptions;
}

// The --ledger file: read (and kept accumulating) or created, with --ledger-cap EPSILON,DELTA.
async function openLedger(dp: DpMargin, file: string | undefined, cap: string | undefined): Promise<PrivacyLedger | undefined> {
  if (file === undefined) {
    if (cap !== undefined) throw new UsageError("--ledger-cap needs --ledger FILE");
    return undefined;
  }
  if (existsSync(file)) {
    if (cap !== undefined) throw new UsageError(`--ledger-cap applies to a new ledger; ${file} exists (its cap: ${JSON.stringify(JSON.parse(await readFile(file, "utf8")).cap ?? null)})`);
    try {
      return dp.ledgerFromJSON(await readFile(file, "utf8"));
    } catch (error) {
      if (error instanceof DpMarginError) throw new DpMarginError(error.code, `--ledger ${file}: ${error.message}`, "ledger");
      throw error;
    }
  }
  if (cap === undefined) return dp.ledger();
  const parts = cap.split(",").map((x) => Number(x.trim()));
  if (parts.length !== 2 || !parts.every(Number.isFinite)) {
    throw new DpMarginError("BAD_PARAMETER", `--ledger-cap must be EPSILON,DELTA (e.g. 3,1e-5), but is ${JSON.stringify(cap)}`, "ledger-cap");
  }
  return dp.ledger({ cap: { epsilon: parts[0], delta: parts[1] } });
}

// Written whole to a temporary file, then renamed over the old one (never half a ledger).
async function writeLedger(file: string, ledger: PrivacyLedger): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(ledger.toJSON(), null, 2) + "\n");
  await rename(temporary, file);
}

// Predict reads with the model's encoding: only the dialect, the label to compare with and
// the size limit are chosen.
const PREDICT_TABLE = ["label", "positive", "delimiter", "decimal", "encoding", "missingTokens", "maxBytes"] as const;

async function trainCommand(dp: DpMargin, argv: string[]): Promise<void> {
  const { flags, options: table } = optionFlags(dp, "train");
  const { flags: csvFlags, options: csvTable } = tableFlags(dp);
  const { values: v, files } = parse(argv, {
    ...flags, ...csvFlags, ...flagsOf(COMMAND_FLAGS.train),
  }, 1);
  const options = runOptions(v, table, ["epsilon", "delta"]);
  const csv = await tableOptions(v, csvTable);
  // Before any byte is read: never overwrite a file (the input included) without --force.
  if (v.out !== undefined && !v.force && existsSync(v.out as string)) throw outExists(v.out as string);
  const progress = Progress.fromFlags(v);
  const ledgerFile = v.ledger as string | undefined;
  const ledger = await openLedger(dp, ledgerFile, v["ledger-cap"] as string | undefined);
  const recorded = ledger?.runs.length ?? 0;
  // Streaming passes into wasm memory, then training; the data are never copied into JS.
  let trained;
  try {
    trained = await dp.trainCsv(csvFile(files[0]),
      { ...csv, ...(progress.enabled ? { onProgress: (p) => progress.reading(files[0], p) } : {}) },
      { ...options, ...(ledger ? { ledger } : {}),
        // The train accuracy from the rows already in the module (no second read of the file).
        trainingPredictions: true,
        // A plan with too little data is said before training starts (stderr), so that a long
        // run can be stopped; the summary repeats it (as it does a "marginal" one).
        ...(v.quiet ? {} : { onPlan: (plan: Plan) => {
          if (plan.advice.verdict === "too little data") progress.note(`dpmargin: plan ${adviceLine(plan)}`);
        } }),
        ...(progress.enabled ? { onProgress: (p: TrainProgress) => progress.training(p) } : {}) } as unknown as Parameters<DpMargin["trainCsv"]>[2]);
  } finally {
    // A run the ledger recorded stays recorded, whether it finished or not (the data were read).
    if (ledger && ledger.runs.length > recorded) await writeLedger(ledgerFile!, ledger);
  }
  const { model, report, local, table: read, trainingPredictions } = trained;
  progress.done();
  if (ledger) {
    const t = ledger.total;
    process.stderr.write(`dpmargin: ledger ${ledgerFile}: ${t.runs} run(s) on this data, in total ε = ${formatNumber(t.epsilon, 6)}, δ = ${formatNumber(t.delta, 6)}${ledger.cap ? ` (cap ε = ${ledger.cap.epsilon}, δ = ${ledger.cap.delta})` : ""}\n`);
  }
  // Accuracy on the user's own data: computed locally, not differentially private. Everything is
  // computed before anything is written, so bad test data leaves no model file behind.
  const dialect = Object.fromEntries(["delimiter", "decimal", "encoding", "missingTokens", "maxBytes"]
    .filter((k) => (csv as Record<string, unknown>)[k] !== undefined).map((k) => [k, (csv as Record<string, unknown>)[k]]));
  const multiclass = model.classes !== null;
  const evaluate = multiclass ? { ...dialect, label: read.label!.column }
    : { ...dialect, label: read.label!.column, positive: read.label!.positive };
  const scoring = (file: string) => ({
    ...evaluate, ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.predicting(file, p) } : {}),
  });
  // The training rows, scored in the module before they were freed: exactly model.predictCsv on
  // the training file (tests/jest/training_predictions.test.js), without reading it again.
  const onTrain = trainingPredictions!;
  const trainAccuracy = accuracy(onTrain.labels, onTrain.truth);
  let onTest = null;
  try {
    onTest = v.test === undefined ? null : await model.predictCsv(csvFile(v.test as string), scoring(v.test as string));
  } catch (error) {
    if (error instanceof DpMarginError && error.code === "LABEL_NOT_FOUND") {
      throw new DpMarginError("LABEL_NOT_FOUND", `--test ${v.test} has no column ${JSON.stringify(read.label!.column)} (the label)`, "test");
    }
    // Any other problem of the test file names it (a feature missing from its header, a bad cell).
    if (error instanceof DpMarginError && error.code !== "INTERNAL") {
      throw new DpMarginError(error.code, `--test ${v.test}: ${error.message}`, "test");
    }
    throw error;
  }
  progress.done();
  const testAccuracy = onTest ? accuracy(onTest.labels, onTest.truth!) : undefined;
  const test = onTest ? { rows: onTest.table.rows } : null;
  // Yardsticks for the test accuracy: what always answering the commonest class scores, the
  // mean recall per class, F1 (binary), ROC AUC and curve. On the user's own test file: not
  // private outputs.
  const y = onTest ? evaluateScores(onTest.scores, onTest.truth!,
    { predicted: onTest.labels, ...(multiclass ? { classes: model.classes!.length } : {}) }) : null;
  const className = (k: number) => (multiclass ? (k >= 0 ? model.classes![k] : "(not a class)")
    : k > 0 ? read.label!.positive : `not ${read.label!.positive}`);
  const testMetrics = y ? {
    rows: y.rows, accuracy: y.accuracy, balancedAccuracy: y.balancedAccuracy,
    ...(!multiclass && y.f1 !== null ? { f1: y.f1 } : {}),
    ...(!multiclass && y.precision !== null ? { precision: y.precision } : {}),
    ...(!multiclass && y.recall !== null ? { recall: y.recall } : {}),
    majorityClass: className(y.majorityClass), majorityRate: y.majorityRate,
    rocAuc: y.rocAuc,
    ...(y.rocAucPerClass ? { rocAucPerClass: Object.fromEntries(model.classes!.map((c, k) => [c, y.rocAucPerClass![k]])) } : {}),
    ...(y.roc ? { roc: y.roc } : {}),
    note: "computed on your own test file; not differentially private outputs (do not release them as such)",
  } : null;
  const warnings: string[] = [];
  const delta = deltaWarning(report.plan.delta, report.plan.n);
  if (delta) warnings.push(delta);
  if (y && noBetterThanMajority(y)) {
    warnings.push(`test accuracy ${percent(y.accuracy)} is no better than always answering the majority class ${JSON.stringify(testMetrics!.majorityClass)} (${percent(y.majorityRate)} of the test rows): the model has learned little`);
  }
  warnings.push(...labelWarnings(read.label!, read.labelSummary));
  const outside = outsideClassesWarning(read, report.plan.multiclass === "joint");
  if (outside) warnings.push(outside);
  const plan = report.plan;
  const selected = plan.candidates[report.selectedCandidate];
  // SPEC §5.2's fields first, then the whole report (its plan holds every setting).
  const out = {
    selectedMargin: report.selectedMargin,
    epsilon: plan.epsilon, delta: plan.delta, mu: plan.mu,
    calibration: plan.calibration, selector: plan.selector, score: plan.score,
    n: plan.n, d: plan.d,
    candidates: report.candidates,
    ...(test ? { testAccuracy, testRows: test.rows, test: testMetrics } : {}),
    trainAccuracy,
    trainAccuracyNote: "computed on the training data; not differentially private",
    seeded: report.seeded,
    ...(report.warning ? { warning: report.warning } : {}),
    label: read.label,
    features: read.featureNames,
    // The resolved schema (discovered levels and classes included; public): --schema reads it.
    schema: read.schema,
    report,
    // Not released, not private: the run count (PrivTune's K) and the time.
    local,
  };
  if (v.out !== undefined) {
    try {
      await writeFile(v.out as string, JSON.stringify(model.toJSON(), null, 2) + "\n", { flag: v.force ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw outExists(v.out as string);
      throw error;
    }
  }
  if (report.seeded) process.stderr.write(`dpmargin: warning: ${SEEDED_WARNING}\n`);
  for (const w of warnings) process.stderr.write(`dpmargin: warning: ${w}\n`);
  if (v.json) {
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return;
  }
  const lines = [
    `dpmargin train — ${plan.selector} selection, ${plan.calibration} calibration${report.seeded ? "  [NOT PRIVATE: seeded]" : ""}`,
    `  (ε, δ) = (${plan.epsilon}, ${plan.delta}), μ = ${formatNumber(plan.mu, 8)}, replace-one neighbours; n = ${plan.n}, d = ${plan.d}`,
    `  ${columnsLine(read.schema)}`,
    `  ${epsilonMeaning(plan.epsilon)}`,
    `  plan ${adviceLine(plan)}`,
    ...(plan.classFoundAt !== undefined
      ? [`  classes discovered under the budget: a class is found half of the time with about ${Math.ceil(plan.classThreshold!)} training rows, 97.7% of the time with ${plan.classFoundAt} (declare them with --classes to spend nothing on it)`]
      : []),
    ...(plan.multiclass === "joint"
      ? [`  one joint model over ${plan.classes} classes (${plan.multiclassLoss === "softmax" ? "softmax" : "multiclass hinge"}), μ for training = ${formatNumber(plan.muTrain, 8)}; selected margin γ = ${formatNumber(report.selectedMargin)} (k = ${selected.k}${selected.projected ? ", projected" : ""})`]
      : []),
    ...(plan.multiclass === "joint" ? [] : report.perClass
      ? [`  one-vs-rest over ${report.perClass.length} classes, μ per class = ${formatNumber(plan.muClass!, 8)}; selected margin γ per class:`,
        ...report.perClass.map((c) => `    ${c.class}: γ = ${formatNumber(c.selectedMargin)} (k = ${plan.candidates[c.selectedCandidate].k})`)]
      : [`  selected margin γ = ${formatNumber(report.selectedMargin)} (k = ${selected.k}${selected.projected ? ", projected" : ""})`]),
    `  train accuracy ${(trainAccuracy * 100).toFixed(2)}% (not private)`,
    ...(testMetrics ? [
      `  on ${v.test} (${testMetrics.rows} rows; computed on your own test file, not private outputs):`,
      `    accuracy ${percent(testMetrics.accuracy)}, balanced accuracy ${percent(testMetrics.balancedAccuracy)}`
        + (testMetrics.f1 !== undefined ? `, F1 ${testMetrics.f1.toFixed(4)} (positive ${JSON.stringify(read.label!.positive)})` : "")
        + `; majority class ${JSON.stringify(testMetrics.majorityClass)} ${percent(testMetrics.majorityRate)}`
        + (aucText(y!) ? `; ${aucText(y!)}` : ""),
    ] : []),
    `  local, not private: ${local.runs} base run(s) in ${Math.round(local.elapsedMs)} ms`,
  ];
  if (plan.selector === "iter" && !report.perClass) {
    lines.push("", "  candidates (released): gamma, k, T, noisy score");
    for (const c of report.candidates) {
      lines.push(`    ${formatNumber(c.gamma).padStart(11)} ${String(c.k).padStart(6)} ${String(c.T).padStart(6)} ${formatNumber(c.noisyScore).padStart(12)}${c.gamma === report.selectedMargin ? "  <- selected" : ""}`);
    }
  }
  if (v.out !== undefined) lines.push("", `  model written to ${v.out}`);
  process.stdout.write(lines.join("\n") + "\n");
}

// How the file's columns were read (the resolved schema: public), so that a column read as text
// (hashed or one-hot) or left out is seen, not only the model's width:
// "columns: 2 numeric; 3 text (hashed: income, rate, spend); left out: id (identifier)".
function columnsLine(schema: SchemaFile): string {
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
const MANY_CLASSES = 20;
const MANY_NUMBERS = 10;
function labelWarnings(label: { column: string; classes: string[]; classSource?: string; positive?: string },
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
function outsideClassesWarning(read: TableInfo, joint: boolean): string | null {
  const k = read.labelOutside;
  if (!(k > 0) || !read.label) return null;
  const classes = read.label.classes.map((c) => JSON.stringify(c)).join(", ");
  const as = joint ? "left out of the joint model's gradients and scores"
    : read.label.classes.length >= 3 ? "trained as negatives for every class" : `trained as negatives (not ${JSON.stringify(read.label.positive)})`;
  return `${k} of ${read.rows} training rows (${percent(k / read.rows)}) have a label that is none of the classes discovered under the budget (${classes}): they were ${as}; declare the classes (--classes A,B,…) to train on them, or leave those rows out`;
}

async function readText(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new DpMarginError("BAD_PARAMETER", `cannot read ${what} ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, what);
  }
}

async function predictCommand(dp: DpMargin, argv: string[]): Promise<void> {
  const { flags: csvFlags, options: csvTable } = tableFlags(dp, PREDICT_TABLE);
  const { values: v, files } = parse(argv, { ...csvFlags, ...flagsOf(COMMAND_FLAGS.predict) }, 2);
  if (v.keep !== undefined && v["keep-all"]) throw new UsageError("--keep contradicts --keep-all");
  const out = v.out as string | undefined;
  // Refuse to overwrite before any work (checked again, atomically, when writing).
  if (out !== undefined && !v.force && existsSync(out)) throw outExists(out);
  const threshold = numberFlag(v, "threshold", "threshold", false);
  if (threshold !== undefined && !Number.isFinite(threshold)) {
    throw new DpMarginError("BAD_PARAMETER", `--threshold must be a finite score, but is ${JSON.stringify(v.threshold)}`, "threshold");
  }
  const model = dp.modelFromJSON(await readText(files[0], "MODEL.json"));
  if (threshold !== undefined && model.classes !== null) {
    throw new DpMarginError("BAD_PARAMETER", "--threshold applies to a binary model: a multiclass model predicts the class of the largest score", "threshold");
  }
  const progress = Progress.fromFlags(v);
  const read = await tableOptions(v, csvTable);
  const scored = await model.predictCsv(csvFile(files[1]), {
    ...read,
    ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.predicting(files[1], p) } : {}),
  });
  progress.done();
  // A moved decision (binary): positive when score ≥ T, as the app's threshold control decides.
  const predictions = threshold === undefined || "classes" in scored ? scored
    : { ...scored, labels: Int8Array.from(scored.scores, (x) => (x >= threshold ? 1 : -1)) };
  // The input's own columns, to join on (read again with the dialect the core detected).
  let kept: { names: string[]; cells: string[][] } | undefined;
  if (v.keep !== undefined || v["keep-all"]) {
    const dialect = Object.fromEntries(["delimiter", "decimal", "encoding", "missingTokens", "maxBytes"]
      .filter((k) => (read as Record<string, unknown>)[k] !== undefined).map((k) => [k, (read as Record<string, unknown>)[k]]));
    const summary = await dp.summarizeCsv(csvFile(files[1]), { ...dialect, previewRows: 0 } as never);
    kept = await readColumns(files[1], summary, summary.header, v["keep-all"] ? "all" : listFlag(v, "keep")!);
    if (kept.cells.length !== predictions.table.rows) {
      throw new DpMarginError("INTERNAL", `--keep read ${kept.cells.length} data rows of ${files[1]}, the model scored ${predictions.table.rows}`);
    }
  }
  const extras = { rowIds: true, ...(kept ? { kept } : {}), ...(threshold !== undefined ? { threshold } : {}) };
  // A multiclass model: the predicted class and a score per class.
  const multiclass = "classes" in predictions;
  const text = multiclass ? multiclassPredictionsCsv(predictions, (model.label as { column: string | null }).column, extras)
    : predictionsCsv(predictions, model.label as Parameters<typeof predictionsCsv>[1], extras);
  if (model.seeded) process.stderr.write(`dpmargin: warning: the model is ${SEEDED_WARNING}\n`);
  // With the label column in the file: accuracy and its yardsticks (local, not private).
  if (predictions.truth) {
    const y = evaluateScores(predictions.scores, predictions.truth,
      { predicted: predictions.labels, ...(multiclass ? { classes: model.classes!.length } : {}) });
    const classes = model.classes;
    const label = model.label as { column: string | null; positive?: string };
    const majority = classes ? (y.majorityClass >= 0 ? classes[y.majorityClass] : "(not a model class)")
      : y.majorityClass > 0 ? label.positive! : `not ${label.positive}`;
    process.stderr.write(`dpmargin: on ${files[1]} (${y.rows} rows with the label ${JSON.stringify(label.column)}; local, not private): `
      + `accuracy ${percent(y.accuracy)}, balanced accuracy ${percent(y.balancedAccuracy)}, `
      + `majority class ${JSON.stringify(majority)} ${percent(y.majorityRate)}`
      + (aucText(y) ? `, ${aucText(y)}` : "") + "\n");
  }
  if (out !== undefined) {
    try {
      await writeFile(out, text, { flag: v.force ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw outExists(out);
      throw new DpMarginError("BAD_PARAMETER", `cannot write ${JSON.stringify(out)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, "out");
    }
    if (!v.quiet) process.stderr.write(`dpmargin: wrote ${predictions.table.rows} predictions to ${out}\n`);
  } else {
    process.stdout.write(text);
  }
}

const outExists = (path: string) => new DpMarginError("BAD_PARAMETER",
  `${JSON.stringify(path)} exists: choose another name, or add --force to overwrite it`, "out");

async function profileCommand(dp: DpMargin, argv: string[]): Promise<void> {
  const { flags: csvFlags, options: csvTable } = tableFlags(dp);
  const { values: v, files } = parse(argv, {
    ...csvFlags, ...flagsOf(COMMAND_FLAGS.profile),
  }, 1);
  const maxRemoved = fractionFlag(v, "max-removed", "maxRemoved");
  const epsilon = numberFlag(v, "epsilon", "epsilon", false);
  const delta = numberFlag(v, "delta", "delta", false) ?? (epsilon !== undefined ? 1e-5 : undefined);
  const progress = Progress.fromFlags(v);
  const profile = await dp.profileCsv(csvFile(files[0]), {
    ...(await tableOptions(v, csvTable)),
    ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.reading(files[0], p) } : {}),
  }, {
    ...(maxRemoved !== undefined ? { maxRemoved } : {}), ...(v["no-intercept"] ? { intercept: false } : {}),
    ...(epsilon !== undefined ? { epsilon } : {}), ...(delta !== undefined ? { delta } : {}),
    ...(progress.enabled ? { onProgress: (p) => progress.profiling(p) } : {}),
  });
  progress.done();
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
    "", `  advice (local, not private): ${profile.advice.verdict} — ${profile.advice.text}`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

// The schema training would resolve for a CSV (JSON on stdout): review it, edit it, and pass
// it back with --schema FILE to fix every column's role and handling. Local: it reads the file
// but releases nothing (category lists and classes are not in it unless declared).
async function schemaCommand(dp: DpMargin, argv: string[]): Promise<void> {
  const { flags: csvFlags, options: csvTable } = tableFlags(dp);
  const { values: v, files } = parse(argv, { ...csvFlags, ...flagsOf(COMMAND_FLAGS.schema) }, 1);
  const progress = Progress.fromFlags(v);
  const summary = await dp.summarizeCsv(csvFile(files[0]), {
    ...(await tableOptions(v, csvTable)), previewRows: 0,
    ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.reading(files[0], p) } : {}),
  } as never);
  progress.done();
  if (summary.schema === null) {
    const e = summary.schemaError!;
    throw new DpMarginError(e.code as DpMarginError["code"], e.message, e.parameter || undefined);
  }
  process.stdout.write(JSON.stringify(summary.schema, null, 2) + "\n");
}

// `dpmargin --help`: the commands, then every flag of train (the widest command) and the
// plan-only options of account, grouped, with their defaults.
function fullHelp(dp: DpMargin): string {
  const account = commandHelp(dp, "account", PREDICT_TABLE).split("\n");
  const tableSize = account.slice(account.indexOf("table size (account):"));
  return [usage(), "", "── dpmargin train --help ──", commandHelp(dp, "train", PREDICT_TABLE), "",
    "── dpmargin account --help (what train does not take) ──",
    ...tableSize.slice(0, tableSize.indexOf("")), "",
    "predict, profile and schema take the reading options above that apply (see their --help)."].join("\n");
}

const COMMANDS: Record<string, (dp: DpMargin, argv: string[]) => Promise<void>> = {
  account, train: trainCommand, predict: predictCommand, profile: profileCommand, schema: schemaCommand,
};

// `dpmargin predict … | head`: the reader went away; that is not an error. Exit 0, quietly.
function quietOnBrokenPipe(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
}

export async function main(argv: string[]): Promise<number> {
  quietOnBrokenPipe();
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h") {
      const dp = await load();
      const text = command === undefined ? usage() : fullHelp(dp);
      (command === undefined ? process.stderr : process.stdout).write(text + "\n");
      return command === undefined ? 2 : 0;
    }
    if (command === "--version") {
      process.stdout.write((await load()).version + "\n");
      return 0;
    }
    const run = COMMANDS[command];
    if (!run) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    currentCommand = command;
    // `dpmargin train --help` (before any "--", which ends the flags).
    const end = rest.indexOf("--");
    if ((end < 0 ? rest : rest.slice(0, end)).some((a) => a === "--help" || a === "-h")) {
      process.stdout.write(commandHelp(await load(), command, PREDICT_TABLE) + "\n");
      return 0;
    }
    await run(await load(), rest);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      // One line: scripts read the first line of stderr.
      const message = error.message.split("\n")[0];
      process.stderr.write(`dpmargin: ${message} (see dpmargin ${currentCommand ? `${currentCommand} ` : ""}--help)\n`);
      return 2;
    }
    if (error instanceof DpMarginError && error.code !== "INTERNAL" && error.code !== "WASM_LOAD") {
      // Bad input or parameters: exit 2, one line, nothing on stdout.
      const mapped = error.parameter ? flagOf(error.parameter) : undefined;
      const flag = mapped && acceptedFlags.has(mapped) ? mapped
        : mapped && acceptedFlags.has(mapped.replace(/^--/, "--no-")) ? mapped.replace(/^--/, "--no-") : undefined;
      process.stderr.write(`dpmargin: ${error.code}${flag ? ` (${flag})` : ""}: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`dpmargin: internal error: ${(error as Error)?.stack ?? error}\n`);
    return 1;
  }
}
