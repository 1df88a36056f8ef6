// `dpmargin predict MODEL.json DATA.csv`: the predictions file (stdout or --out), and the
// yardsticks on DATA.csv when it has the label (stderr; local, not private).
import { writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { Progress } from "./progress.js";
import { readColumns } from "./columns.js";
import { yardsticks } from "./metrics.js";
import { evaluate as evaluateScores } from "../metrics/metrics.js";
import { COMMAND_FLAGS, flagsOf } from "./help.js";
import { listFlag, numberFlag, outExists, parse, PREDICT_TABLE, readText, tableFlags, tableOptions, UsageError } from "./flags.js";
import { csvFile, DpMarginError, predictionsCsv, multiclassPredictionsCsv, SEEDED_WARNING,
  type DpMargin, type CsvProgress } from "../node.js";

export async function predictCommand(dp: DpMargin, argv: string[], signal?: AbortSignal): Promise<void> {
  const { flags: csvFlags, options: csvTable } = tableFlags(dp, PREDICT_TABLE);
  const { values: v, files } = parse(argv, { ...csvFlags, ...flagsOf(COMMAND_FLAGS.predict) }, 2);
  if (v.keep !== undefined && v["keep-all"]) throw new UsageError("--keep contradicts --keep-all");
  const out = v.out as string | undefined;
  // Refuse to overwrite before any work (checked again, atomically, when writing).
  if (out !== undefined && !v.force && existsSync(out)) throw outExists(out);
  const model = dp.modelFromJSON(await readText(files[0], "MODEL.json"));
  // --threshold T: a binary model's decision, score ≥ T (the default decision is score > 0).
  const threshold = numberFlag(v, "threshold", "threshold", false);
  if (threshold !== undefined) {
    if (!Number.isFinite(threshold)) {
      throw new DpMarginError("BAD_PARAMETER", `--threshold must be a finite score, but is ${JSON.stringify(v.threshold)}`, "threshold");
    }
    if (model.classes !== null) {
      throw new DpMarginError("BAD_PARAMETER", `--threshold applies to a binary model; ${files[0]} is a multiclass model (${model.classes.length} classes), which predicts the class of the largest score`, "threshold");
    }
  }
  const progress = Progress.fromFlags(v);
  const read = await tableOptions(v, csvTable);
  const predictions = await model.predictCsv(csvFile(files[1]), {
    ...read, signal,
    ...(progress.enabled ? { onProgress: (p: CsvProgress) => progress.predicting(files[1], p) } : {}),
  });
  progress.done();
  // The input's own columns, to join on (read again with the dialect the core detected).
  let kept: { names: string[]; cells: string[][] } | undefined;
  if (v.keep !== undefined || v["keep-all"]) {
    const dialect = Object.fromEntries(["delimiter", "decimal", "encoding", "missingTokens", "maxBytes"]
      .filter((k) => (read as Record<string, unknown>)[k] !== undefined).map((k) => [k, (read as Record<string, unknown>)[k]]));
    const summary = await dp.summarizeCsv(csvFile(files[1]), { ...dialect, previewRows: 0, signal } as never);
    kept = await readColumns(files[1], summary, summary.header, v["keep-all"] ? "all" : listFlag(v, "keep")!,
      (name) => dp.findColumn(summary.header, name, "keep", `--keep names a column of ${files[1]}, but`));
    if (kept.cells.length !== predictions.table.rows) {
      throw new DpMarginError("INTERNAL", `--keep read ${kept.cells.length} data rows of ${files[1]}, the model scored ${predictions.table.rows}`);
    }
  }
  const extras = { rowIds: true, ...(kept ? { kept } : {}), ...(threshold !== undefined ? { threshold } : {}) };
  // A multiclass model: the predicted class and a score per class.
  const multiclass = "classes" in predictions;
  if (threshold !== undefined) {
    predictions.labels = Int8Array.from(predictions.scores as ArrayLike<number>, (s) => (s >= threshold ? 1 : -1)) as typeof predictions.labels;
  }
  const text = multiclass ? multiclassPredictionsCsv(predictions, (model.label as { column: string | null }).column, extras)
    : predictionsCsv(predictions, model.label as Parameters<typeof predictionsCsv>[1], extras);
  if (model.seeded) process.stderr.write(`dpmargin: warning: the model is ${SEEDED_WARNING}\n`);
  // With the label column in the file: accuracy and its yardsticks (local, not private).
  if (predictions.truth) {
    const y = evaluateScores(predictions.scores, predictions.truth,
      { predicted: predictions.labels, ...(multiclass ? { classes: model.classes!.length } : {}) });
    const classes = model.classes;
    const label = model.label as { column: string | null; positive?: string };
    // A binary model's other class, when its schema lists the two (else "not POSITIVE").
    const other = model.schema?.classes?.length === 2 ? model.schema.classes.find((c) => c !== label.positive) : undefined;
    const majority = classes ? (y.majorityClass >= 0 ? classes[y.majorityClass] : "(not a model class)")
      : y.majorityClass > 0 ? label.positive! : other ?? `not ${label.positive}`;
    process.stderr.write(`dpmargin: on ${files[1]} (${y.rows} rows with the label ${JSON.stringify(label.column)}; local, not private`
      + `${threshold !== undefined ? `; positive when score ≥ ${threshold}` : ""}): `
      + `${yardsticks(y, majority, classes ? undefined : label.positive)}\n`);
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
