// CSV → a core Dataset, by the core's reader (run::CsvRun / run::CsvRead): the bytes stream
// into wasm memory pass by pass and the table is written there once, encoded (numeric columns,
// missing indicators, one-hot or hashed categories); nothing the size of the data is ever held
// in JavaScript.
import type { CoreCsvRun, CoreDataset, CoreModule, CoreOptions } from "../wasm/dpmargin_core.mjs";
import { dispose, unwrap } from "../module/status.js";
import { cancelled } from "../train/chunked.js";
import { sourceSize, type CsvSource } from "./source.js";
import { runPasses } from "./passes.js";
import { splitCsvOptions, type SchemaFile } from "./options.js";
import { columnSummaries, type ColumnSummary } from "./summary.js";
import type { LedgerBudget } from "../ledger/ledger.js";

/** What a CSV read: its shape, the resolved schema, and the model columns. */
export interface TableInfo {
  /** Data rows read (with `rows`, the selected ones). */
  rows: number;
  /** The resolved schema: every column's kind and handling, discovered levels and classes
   *  included — public (save it and pass it back as `schema` to repeat the run exactly). */
  schema: SchemaFile;
  /** The model's columns, in order ("age", "age: missing", "plan: basic", …). */
  featureNames: string[];
  /** File columns read as features, and those left out. */
  columns: string[];
  ignored: string[];
  /** `positiveRule`: how the positive class of a binary label was chosen (the schema's: "named",
   *  "binary01", "second-declared", "second-discovered"); absent for a multiclass label. */
  label: { column: string; positive: string; classes: string[]; classSource: string; positiveRule?: string } | null;
  /** Missing numeric cells replaced by their constant, and cells read as missing (indicator
   *  or missing level). Local facts about the data: not released. */
  imputed: number;
  missing: number;
  /** The label column's cells as `summarizeCsv` counts them (kind, distinct values, …; no values
   *  listed), from this read's own scan — a local fact about the data (the CLI's label
   *  warnings): not released. null without a label. */
  labelSummary: ColumnSummary | null;
  /** Rows whose label is none of the classes discovered under the budget: they were trained
   *  as negatives for every class (DATA_PIPELINE.md). 0 when the classes are declared, 0/1, a
   *  positive class, or read exactly. A local fact about the data: not released. */
  labelOutside: number;
}

// The label column's summary from the run's own scan (run::summarizeColumn, no values listed).
function labelSummaryOf(run: CoreCsvRun): ColumnSummary | null {
  const column = unwrap(run.labelSummary(0));
  return column === null ? null : columnSummaries({ columns: [column] })[0];
}

export function tableInfo(schema: SchemaFile, featureNames: string[], rows: number,
  fill: { imputed: number; marked: number; labelOutside?: number }, labelSummary: ColumnSummary | null = null): TableInfo {
  const columns = schema.columns.filter((c) => c.kind === "numeric" || c.kind === "categorical").map((c) => c.name);
  const ignored = schema.columns.filter((c) => c.kind === "ignore").map((c) => c.name);
  const label = schema.label === undefined ? null : {
    column: schema.label,
    positive: schema.positive ?? "",
    classes: schema.classes ?? [],
    classSource: schema.classSource ?? "binary01",
    ...(schema.positiveRule ? { positiveRule: schema.positiveRule } : {}),
  };
  return { rows, schema, featureNames, columns, ignored, label, imputed: fill.imputed, missing: fill.marked, labelSummary,
    labelOutside: fill.labelOutside ?? 0 };
}

// The source's size (text: its length, a guess of its UTF-8 bytes), so that the core can keep a
// plain numeric table's values while scanning and skip the fill pass (CsvRun and CsvRead).
export function expectSize(reader: Pick<CoreCsvRun, "expectBytes">, source: CsvSource): void {
  const size = sourceSize(source);
  if (size !== null && size > 0) unwrap(reader.expectBytes(size));
}

export interface TrainingTable {
  run: CoreCsvRun;
  dataset: CoreDataset;
  table: TableInfo;
}

/**
 * Read `source` for training (run::CsvRun: scan, count the categories to discover — drawing
 * their noise from the run's generator —, fill). The caller owns `run` and `dataset` (dispose
 * both); on error nothing is left allocated.
 */
export async function readTrainingTable(core: CoreModule, source: CsvSource, csv: unknown,
  options: CoreOptions, signal: AbortSignal | undefined,
  beforeNoise?: (budget: LedgerBudget) => void): Promise<TrainingTable> {
  const split = splitCsvOptions(csv, signal);
  if (split.signal?.aborted) throw cancelled("reading the CSV");
  const run = new core.CsvRun();
  let dataset: CoreDataset | null = null;
  try {
    unwrap(run.start(split.core, options, split.rows));
    expectSize(run, source);
    // Category or class discovery (the "count" pass) draws the run's first noise: the caller
    // records the run (its ledger) before it, from the run's budget.
    await runPasses(run, source, split.signal, split.onProgress,
      (pass) => { if (pass === "count") beforeNoise?.(unwrap(run.budget()) as LedgerBudget); });
    dataset = new core.Dataset();
    unwrap(run.takeDataset(dataset));
    const schema = unwrap(run.schema()) as unknown as SchemaFile;
    const names = unwrap(run.featureNames());
    const rows = unwrap(dataset.shape()).rows;
    return { run, dataset, table: tableInfo(schema, names, rows, unwrap(run.fill()), labelSummaryOf(run)) };
  } catch (error) {
    dispose(dataset);
    dispose(run);
    throw error;
  }
}

/**
 * Read `source` for local use (run::CsvRun in local mode: categories and classes exact, no
 * budget — NOT private; for the margin profile and readCsv). The caller owns the dataset.
 */
export async function readLocalTable(core: CoreModule, source: CsvSource, csv: unknown,
  signal?: AbortSignal): Promise<{ dataset: CoreDataset; table: TableInfo; classCodes: Int32Array }> {
  const split = splitCsvOptions(csv, signal);
  if (split.signal?.aborted) throw cancelled("reading the CSV");
  const run = new core.CsvRun();
  let dataset: CoreDataset | null = null;
  try {
    unwrap(run.startLocal(split.core, split.rows));
    expectSize(run, source);
    await runPasses(run, source, split.signal, split.onProgress);
    dataset = new core.Dataset();
    unwrap(run.takeDataset(dataset));
    const schema = unwrap(run.schema()) as unknown as SchemaFile;
    const names = unwrap(run.featureNames());
    const rows = unwrap(dataset.shape()).rows;
    const classCodes = unwrap(run.classCodes());
    const table = tableInfo(schema, names, rows, unwrap(run.fill()), labelSummaryOf(run));
    return { dataset, table, classCodes };
  } catch (error) {
    dispose(dataset);
    throw error;
  } finally {
    dispose(run);
  }
}
