// `dpmargin train`: a CSV → a differentially private model (SPEC §5.2), its summary or --json,
// the test file's yardsticks (local, not private), the model file and the --ledger file.
// Everything that can be checked is checked before TRAIN.csv is read (preflight.ts); a run that
// has started keeps its model (written as soon as it exists) and its ledger record.
import { Progress } from "./progress.js";
import { noBetterThanMajority, percent, yardsticks } from "./metrics.js";
import { evaluate as evaluateScores } from "../metrics/metrics.js";
import { COMMAND_FLAGS, flagsOf } from "./help.js";
import { optionFlags, parse, runOptions, tableFlags, tableOptions } from "./flags.js";
import { openLedger, writeLedger } from "./ledger.js";
import { checkHeaders, DIALECT, keepModel, modelTarget, probeLedger } from "./preflight.js";
import { accuracy, adviceLine, columnsLine, formatNumber, labelWarnings, outsideClassesWarning, positiveLine } from "./summary.js";
import { csvFile, epsilonMeaning, deltaWarning, DpMarginError, SEEDED_WARNING,
  type Plan, type DpMargin, type CsvProgress, type TrainProgress } from "../node.js";

export async function trainCommand(dp: DpMargin, argv: string[], signal?: AbortSignal): Promise<void> {
  const { flags, options: table } = optionFlags(dp, "train");
  const { flags: csvFlags, options: csvTable } = tableFlags(dp);
  const { values: v, files } = parse(argv, {
    ...flags, ...csvFlags, ...flagsOf(COMMAND_FLAGS.train),
  }, 1);
  const options = runOptions(v, table, ["epsilon", "delta"]);
  const csv = await tableOptions(v, csvTable);
  // Before a byte of TRAIN.csv is read, so before any noise: the model's file (--out, never
  // overwritten without --force, or a new file next to TRAIN.csv) and the ledger can be
  // written, the ledger parses, the label is in the header, the --test file holds the columns.
  const target = await modelTarget(files[0], v.out as string | undefined, Boolean(v.force));
  const ledgerFile = v.ledger as string | undefined;
  const ledger = await openLedger(dp, ledgerFile, v["ledger-cap"] as string | undefined);
  if (ledgerFile !== undefined) await probeLedger(ledgerFile);
  await checkHeaders(dp, files[0], csv, v.test as string | undefined, signal);
  const progress = Progress.fromFlags(v);
  const recorded = ledger?.runs.length ?? 0;
  // Streaming passes into wasm memory, then training; the data are never copied into JS.
  let trained;
  try {
    trained = await dp.trainCsv(csvFile(files[0]),
      { ...csv, ...(progress.enabled ? { onProgress: (p) => progress.reading(files[0], p) } : {}) },
      { ...options, ...(ledger ? { ledger } : {}), signal,
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
  // The budget is spent: the model is kept before anything else can fail (a bad cell of the
  // test file, say), where asked or, failing that, where it can be written.
  const kept = await keepModel(JSON.stringify(model.toJSON(), null, 2) + "\n", target);
  if (kept.failed) process.stderr.write(`dpmargin: warning: ${kept.failed}; the model is kept in ${kept.path}\n`);
  const where = `the model is kept in ${kept.path}${ledger ? ` and the run is recorded in ${ledgerFile}` : ""}`;
  if (ledger) {
    const t = ledger.total;
    process.stderr.write(`dpmargin: ledger ${ledgerFile}: ${t.runs} run(s) on this data, in total ε = ${formatNumber(t.epsilon, 6)}, δ = ${formatNumber(t.delta, 6)}${ledger.cap ? ` (cap ε = ${ledger.cap.epsilon}, δ = ${ledger.cap.delta})` : ""}\n`);
  }
  // Accuracy on the user's own data: computed locally, not differentially private.
  const dialect = Object.fromEntries([...DIALECT, "maxBytes"]
    .filter((k) => (csv as Record<string, unknown>)[k] !== undefined).map((k) => [k, (csv as Record<string, unknown>)[k]]));
  const multiclass = model.classes !== null;
  const evaluate = multiclass ? { ...dialect, label: read.label!.column }
    : { ...dialect, label: read.label!.column, positive: read.label!.positive };
  const scoring = (file: string) => ({
    ...evaluate, signal, ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.predicting(file, p) } : {}),
  });
  // The training rows, scored in the module before they were freed: exactly model.predictCsv on
  // the training file (tests/jest/training_predictions.test.js), without reading it again.
  const onTrain = trainingPredictions!;
  const trainAccuracy = accuracy(onTrain.labels, onTrain.truth);
  let onTest = null;
  try {
    onTest = v.test === undefined ? null : await model.predictCsv(csvFile(v.test as string), scoring(v.test as string));
  } catch (error) {
    // A problem of the test file's cells (its header was checked before training) names it,
    // and says that the run's model and ledger record are kept.
    if (error instanceof DpMarginError && error.code !== "INTERNAL" && error.code !== "CANCELLED") {
      throw new DpMarginError(error.code, `--test ${v.test}: ${error.message}; ${where}`, "test");
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
  // A binary label's other class when the two are known (declared, discovered, 0/1), else "not X".
  const other = read.label!.classes.length === 2 ? read.label!.classes.find((c) => c !== read.label!.positive) : undefined;
  const className = (k: number) => (multiclass ? (k >= 0 ? model.classes![k] : "(not a class)")
    : k > 0 ? read.label!.positive : other ?? `not ${read.label!.positive}`);
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
  const positive = positiveLine(read.label!);
  // SPEC §5.2's fields first, then the whole report (its plan holds every setting).
  const out = {
    selectedMargin: report.selectedMargin,
    epsilon: plan.epsilon, delta: plan.delta, mu: plan.mu,
    calibration: plan.calibration, selector: plan.selector, score: plan.score,
    n: plan.n, d: plan.d,
    candidates: report.candidates,
    seeded: report.seeded,
    ...(report.warning ? { warning: report.warning } : {}),
    label: read.label,
    features: read.featureNames,
    // The resolved schema (discovered levels and classes included; public): --schema reads it.
    schema: read.schema,
    // Where the model file was written (--out, or the default next to TRAIN.csv).
    modelFile: kept.path,
    report,
    // Not released, not private: the accuracies on the user's own rows (exact counts of
    // them), the run count (PrivTune's K) and the time. Shown to the data owner, never
    // published; the released fields above pass checkReleased.
    local: {
      ...local,
      trainAccuracy,
      trainAccuracyNote: "computed on the training data; not differentially private",
      ...(test ? { testAccuracy, testRows: test.rows, test: testMetrics } : {}),
    },
  };
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
    ...(positive ? [`  ${positive}`] : []),
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
      `    ${yardsticks(y!, testMetrics.majorityClass, multiclass ? undefined : read.label!.positive)}`,
    ] : []),
    `  local, not private: ${local.runs} base run(s) in ${Math.round(local.elapsedMs)} ms`,
  ];
  if (plan.selector === "iter" && !report.perClass) {
    lines.push("", "  candidates (released): gamma, k, T, noisy score");
    for (const c of report.candidates) {
      lines.push(`    ${formatNumber(c.gamma).padStart(11)} ${String(c.k).padStart(6)} ${String(c.T).padStart(6)} ${formatNumber(c.noisyScore).padStart(12)}${c.gamma === report.selectedMargin ? "  <- selected" : ""}`);
    }
  }
  lines.push("", `  model written to ${kept.path}${target.named || kept.failed ? "" : ` (next to ${files[0]}: name it with --out FILE)`}`);
  process.stdout.write(lines.join("\n") + "\n");
}
