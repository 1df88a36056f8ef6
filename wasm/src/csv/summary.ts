// A summary of a CSV for a preview (the app's data step, the CLI's `schema` command): one
// streaming pass of the core's scanner — the same dialect, cell classes and missing tokens as
// training — with the first rows as text and the schema training would resolve. Local only: it
// describes the user's own data to the user and is never released.
import type { CoreModule } from "../wasm/dpmargin_core.mjs";
import { badParameter } from "../errors.js";
import { dispose, unwrap } from "../module/status.js";
import { requireObject } from "../options.js";
import { cancelled } from "../train/chunked.js";
import { isCsvSource, type CsvSource } from "./source.js";
import { feedPass } from "./passes.js";
import { splitCsvOptions, type CsvReadOptions, type SchemaFile } from "./options.js";

/** A cell quoted by a summary, with its file line. */
export interface CellSample { value: string; line: number }

/** What one column holds (counts over every data row). */
export interface ColumnSummary {
  name: string;
  /** "numeric": no text cells; "text": some; "empty": no values at all. */
  kind: "numeric" | "text" | "empty";
  numbers: number;
  /** Missing cells (empty, NA, N/A, NaN, null, ?, … — `missingTokens`). */
  missing: number;
  /** Cells that read as inf/NaN numbers or beyond float32. */
  nonFinite: number;
  text: number;
  /** Distinct values (exact unless `distinctCapped`: tracking stops past 256 values, or past 64
   *  in a column of numbers only; then this is the number tracked when it stopped). */
  distinct: number;
  distinctCapped: boolean;
  /** The most frequent values with their counts. */
  values: { value: string; count: number }[];
  firstText: CellSample | null;
  firstMissing: CellSample | null;
  firstNonFinite: CellSample | null;
}

export interface CsvSummary {
  header: string[];
  delimiter: string;
  /** ".", "," or "either" (each cell read with "." or ","): from the header line, never the rows. */
  decimal: "." | "," | "either";
  encoding: "utf-8" | "latin1";
  newline: string;
  /** Data rows (blank lines skipped). */
  rows: number;
  columns: ColumnSummary[];
  /** The first data rows as text, with their file lines. */
  preview: string[][];
  previewLines: number[];
  /** The schema training would resolve with these options (null, with `schemaError`, when an
   *  option does not fit the table, e.g. an unknown column). */
  schema: SchemaFile | null;
  schemaError: { code: string; parameter: string; message: string } | null;
}

export interface SummaryOptions extends Pick<CsvReadOptions,
  "label" | "classes" | "positive" | "features" | "ignore" | "missing" | "fill" | "categories" | "delimiter" | "decimal"
  | "encoding" | "missingTokens" | "schema" | "signal" | "onProgress"> {
  /** Data rows kept as text (default 8, at most 1000). */
  previewRows?: number;
  /** Values listed per column (default 50). */
  maxValues?: number;
}

/** The columns of the core's scan summary (run::summarizeScan), typed. */
/** The listing options of a summary or a preview (first rows shown, values listed per column),
 *  checked and taken out of `o` (the rest are the CSV options). */
export function takeListing(o: Record<string, unknown>): { previewRows: number; maxValues: number } {
  const previewRows = (o.previewRows ?? 8) as number;
  const maxValues = (o.maxValues ?? 50) as number;
  for (const [name, v] of [["previewRows", previewRows], ["maxValues", maxValues]] as const) {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw badParameter(name, "an integer >= 0", v);
  }
  delete o.previewRows;
  delete o.maxValues;
  return { previewRows, maxValues };
}

export function columnSummaries(summary: Record<string, unknown>): ColumnSummary[] {
  return (summary.columns as Record<string, unknown>[]).map((c): ColumnSummary => ({
    name: c.name as string,
    kind: (c.text as number) > 0 ? "text" : (c.numbers as number) + (c.nonFinite as number) > 0 ? "numeric" : "empty",
    numbers: c.numbers as number,
    missing: c.missing as number,
    nonFinite: c.nonFinite as number,
    text: c.text as number,
    distinct: c.distinct as number,
    distinctCapped: c.distinctCapped as boolean,
    values: c.values as { value: string; count: number }[],
    firstText: (c.firstText as CellSample | null) ?? null,
    firstMissing: (c.firstMissing as CellSample | null) ?? null,
    firstNonFinite: (c.firstNonFinite as CellSample | null) ?? null,
  }));
}

/** Summarise every column of a CSV (one pass; the source is streamed, never held whole). */
export async function summarizeCsv(core: CoreModule, source: CsvSource, options: SummaryOptions = {}): Promise<CsvSummary> {
  if (!isCsvSource(source)) throw badParameter("source", "CSV text, a Blob/File, or { open() }", source);
  const o = { ...requireObject(options, "options") };
  const { previewRows, maxValues } = takeListing(o);
  const split = splitCsvOptions(o);
  if (split.signal?.aborted) throw cancelled("reading the CSV");
  const scan = new core.CsvScan();
  try {
    unwrap(scan.start(split.core, previewRows));
    await feedPass(scan, source, "scan", split.signal, split.onProgress);
    const s = unwrap(scan.finish(maxValues)) as Record<string, unknown>;
    const columns = columnSummaries(s);
    return {
      header: columns.map((c) => c.name),
      delimiter: s.delimiter as string,
      decimal: s.decimal as CsvSummary["decimal"],
      encoding: s.encoding as "utf-8" | "latin1",
      newline: s.newline as string,
      rows: s.rows as number,
      columns,
      preview: s.preview as string[][],
      previewLines: s.previewLines as number[],
      schema: (s.schema as SchemaFile | null) ?? null,
      schemaError: (s.schemaError as CsvSummary["schemaError"]) ?? null,
    };
  } finally {
    dispose(scan);
  }
}
