// The streaming CSV reader (SPEC §3). Two passes over a re-readable source:
//   1. validate every row and cell, count rows, resolve the columns and the positive class —
//      nothing is allocated, and a table too large for memory fails here, early;
//   2. after the caller allocated the table (`allocate`), parse again and write each value
//      straight into it (e.g. a view of wasm memory): no full copy of the data is ever made.
// Errors are DpMarginError with a stable code; rows are named by their line in the file
// (the header is line 1; line breaks inside quoted fields count).
import { DpMarginError, badParameter } from "../errors.js";
import { isCsvSource, sourceSize, type CsvSource } from "./source.js";
import { csvRows, isBlankRow, lineOf, type Delimiter, type Dialect, type Newline } from "./rows.js";
import {
  cellError, cellValue, missingLabel, planColumns, resolveCsvOptions,
  type ColumnPlan, type CsvReadOptions, type ResolvedCsvOptions,
} from "./columns.js";

/** What the reader found: the table's shape and the role of every column. */
export interface TableSchema {
  /** Column names (trimmed), in file order. */
  header: string[];
  /** The delimiter used (detected unless given). */
  delimiter: Delimiter;
  newline: Newline;
  /** Number of data rows read (blank lines are skipped; with `rows`, the selected ones). */
  rows: number;
  /** Feature columns, in the order of the table's columns. */
  featureNames: string[];
  /** Columns read but not used (the `ignore` list, or those not in `features`). */
  ignored: string[];
  /** The label column and its positive value, when a binary label was asked for. */
  label: { column: string; positive: string } | null;
  /** A multiclass label (`classes` given): its column, the class names, and the number of rows
   *  whose value is none of them (negative in every class; local, not released). */
  multiclass: { column: string; classes: string[]; other: number } | null;
  /** Number of empty feature cells replaced by `missing.impute`. */
  imputed: number;
}

/**
 * Where pass 2 writes: value j of row i goes to `features()[i * stride + j]`, the label (±1)
 * to `labels()[i]`. The functions are called again for every chunk, so views of wasm memory
 * are re-read after anything that may have grown (and so detached) it.
 */
export interface CsvTarget {
  stride: number;
  features(): Float32Array;
  labels(): Int8Array | null;
  /** A multiclass label: the class code of row i goes to `codes()[i]` (−1: none of them). */
  codes?(): Int32Array | null;
}

/** Allocates the table once pass 1 has counted it: `columns` features, ±1 labels if `labelled`
 *  (a binary label), class codes if `classes` (a multiclass label of that many classes). */
export type CsvAllocate = (rows: number, columns: number, labelled: boolean, classes: number | null) => CsvTarget;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB (${bytes} bytes)`;

function tooLarge(rows: number, d: number, maxBytes: number, counting: boolean): DpMarginError {
  const bytes = rows * (d + 1) * 4;
  return new DpMarginError("OUT_OF_MEMORY",
    `the table needs ${counting ? "at least " : ""}${mib(bytes)} of memory (${rows}${counting ? "+" : ""} rows × (${d} features + 1) × 4 bytes), `
    + `more than the limit of ${mib(maxBytes)}${counting ? "; stopped reading" : ""}`);
}

function ragged(line: number, fields: number, width: number): DpMarginError {
  return new DpMarginError("RAGGED_ROW", `line ${line} has ${fields} field${fields === 1 ? "" : "s"}; the header has ${width}`);
}

function changed(what: string): DpMarginError {
  return new DpMarginError("CSV_PARSE", `the source changed while it was being read (${what}); read it again`);
}

interface Scan {
  plan: ColumnPlan;
  /** Rows selected (all data rows without a selection). */
  rows: number;
  dialect: Dialect;
  positive: string | null;
  imputed: number;
  /** Multiclass: rows (selected) whose label is none of the classes. */
  other: number;
}

const listed = (values: string[]) => values.map((v) => JSON.stringify(v)).join(", ");

async function firstPass(source: CsvSource, o: ResolvedCsvOptions): Promise<Scan> {
  const total = sourceSize(source);
  // `as`: TypeScript does not follow assignments made inside the for-await loop below.
  let plan = null as ColumnPlan | null;
  let dialect = null as Dialect | null;
  let headerLine = 1;
  let rows = 0;
  let dataRows = 0;  // every data row, selected or not
  let next = 0;      // position in o.rows
  let imputed = 0;
  let positives = 0;
  let binary = true;
  let other = 0;
  const classIndex = o.classes ? new Map(o.classes.map((c, k) => [c, k])) : null;
  const groups = new Set<number>();  // multiclass: the codes seen (−1: another value), up to 2
  const seen: string[] = [];
  const selection = o.rows;
  for await (const batch of csvRows(source, { delimiter: o.delimiter }, o.signal)) {
    dialect = batch.dialect;
    const data = batch.rows;
    for (let i = 0; i < data.length; i++) {
      const row = data[i];
      if (isBlankRow(row)) continue;
      if (plan === null) {
        headerLine = lineOf(batch, i);
        plan = planColumns(row, o, headerLine);
        continue;
      }
      if (row.length !== plan.header.length) throw ragged(lineOf(batch, i), row.length, plan.header.length);
      const index = plan.featureIndex;
      for (let k = 0; k < index.length; k++) {
        const text = row[index[k]];
        const v = cellValue(text);
        if (v !== v) {  // NaN: not a usable number (cellError throws, or returns the imputed value)
          cellError(text, lineOf(batch, i), plan.featureNames[k], o.impute);
          imputed++;
        }
      }
      // Every row is checked (cells, labels, and whether the labels are 0/1, so the default
      // positive class does not depend on the selection); only selected rows are counted.
      const selected = selection === null || (next < selection.length && selection[next] === dataRows);
      dataRows++;
      if (selected) next++;
      if (plan.labelIndex >= 0) {
        const y = row[plan.labelIndex].trim();
        if (y === "") throw missingLabel(lineOf(batch, i), plan.header[plan.labelIndex]);
        if (classIndex !== null) {
          const code = classIndex.get(y) ?? -1;
          if (selected && code < 0) other++;
          if (selected && groups.size < 2) groups.add(code);
        } else if (o.positive !== null) {
          if (selected && y === o.positive) positives++;
        } else if (y === "1") {
          if (selected) positives++;
        } else if (y !== "0") {
          binary = false;
        }
        if (seen.length < 6 && !seen.includes(y)) seen.push(y);
      }
      if (selected) rows++;
    }
    if (plan && rows * (plan.featureNames.length + 1) * 4 > o.maxBytes) {
      throw tooLarge(rows, plan.featureNames.length, o.maxBytes, true);
    }
    o.onProgress?.({ pass: 1, bytes: batch.bytes, totalBytes: total, rows });
  }
  if (plan === null || dialect === null) throw new DpMarginError("CSV_PARSE", "the file is empty (no header row)");
  if (dataRows === 0) throw new DpMarginError("CSV_PARSE", `the file has a header (line ${headerLine}) but no data rows`);
  if (selection !== null && next < selection.length) {
    throw new DpMarginError("BAD_PARAMETER", `rows: row ${selection[next]} is past the last data row (${dataRows - 1})`, "rows");
  }
  let positive = o.positive;
  if (plan.labelIndex >= 0 && o.classes !== null) {
    if (o.requireBothClasses) {
      const column = JSON.stringify(plan.header[plan.labelIndex]);
      if (rows < 2) {
        throw new DpMarginError("BAD_PARAMETER", `rows: training needs at least 2 data rows, but the file has ${rows}`, "rows");
      }
      if (groups.size < 2) {
        throw new DpMarginError("ONE_CLASS",
          `all ${rows} rows of label column ${column} hold ${[...groups][0] < 0 ? "values outside the classes" : `the class ${JSON.stringify(o.classes[[...groups][0]])}`} `
          + `(values: ${listed(seen)}${seen.length === 6 ? ", …" : ""}); training needs at least two classes`);
      }
    }
  } else if (plan.labelIndex >= 0) {
    const column = JSON.stringify(plan.header[plan.labelIndex]);
    const values = listed(seen) + (seen.length === 6 ? ", …" : "");
    if (positive === null) {
      if (!binary) {
        throw new DpMarginError("BAD_PARAMETER",
          `positive must be given: label column ${column} holds values other than 0 and 1 (${values}); name the positive class`, "positive");
      }
      positive = "1";
    }
    if (o.requireBothClasses) {
      if (rows < 2) {
        throw new DpMarginError("BAD_PARAMETER", `rows: training needs at least 2 data rows, but the file has ${rows}`, "rows");
      }
      if (positives === 0 || positives === rows) {
        throw new DpMarginError("ONE_CLASS",
          `all ${rows} rows are ${positives === 0 ? "negative" : "positive"} for positive value ${JSON.stringify(positive)} `
          + `in label column ${column} (values: ${values}); training needs both classes`);
      }
    }
  }
  if (rows * (plan.featureNames.length + 1) * 4 > o.maxBytes) throw tooLarge(rows, plan.featureNames.length, o.maxBytes, false);
  return { plan, rows, dialect, positive, imputed, other };
}

async function secondPass(source: CsvSource, o: ResolvedCsvOptions, scan: Scan, target: CsvTarget): Promise<void> {
  const { plan, rows, positive } = scan;
  const total = sourceSize(source);
  const d = plan.featureNames.length;
  const index = plan.featureIndex;
  const labelIndex = plan.labelIndex;
  const stride = target.stride;
  const classIndex = o.classes ? new Map(o.classes.map((c, k) => [c, k])) : null;
  if (!Number.isInteger(stride) || stride < d) throw new DpMarginError("INTERNAL", `CsvTarget.stride must be an integer >= ${d}, but is ${stride}`);
  let r = 0;
  let header = false;
  let dataRows = 0;
  const selection = o.rows;
  for await (const batch of csvRows(source, scan.dialect, o.signal)) {
    // Fresh views for every chunk: wasm memory may have grown (detaching old views) while this
    // pass awaited the source.
    const x = target.features();
    const y = labelIndex >= 0 && classIndex === null ? target.labels() : null;
    const codes = labelIndex >= 0 && classIndex !== null ? target.codes?.() ?? null : null;
    if (x.length < rows * stride - (stride - d) || (labelIndex >= 0 && (classIndex === null ? y === null || y.length < rows : codes === null || codes.length < rows))) {
      throw new DpMarginError("INTERNAL", `the allocated table is smaller than ${rows} rows × stride ${stride}`);
    }
    const data = batch.rows;
    for (let i = 0; i < data.length; i++) {
      const row = data[i];
      if (isBlankRow(row)) continue;
      if (!header) {
        if (row.length !== plan.header.length || row.some((h, j) => h.trim() !== plan.header[j])) throw changed("its header");
        header = true;
        continue;
      }
      if (row.length !== plan.header.length) throw ragged(lineOf(batch, i), row.length, plan.header.length);
      const selected = selection === null || (r < selection.length && selection[r] === dataRows);
      dataRows++;
      if (!selected) continue;
      if (r >= rows) throw changed(`more than ${rows} data rows`);
      const base = r * stride;
      for (let k = 0; k < d; k++) {
        const text = row[index[k]];
        let v = cellValue(text);
        if (v !== v) v = cellError(text, lineOf(batch, i), plan.featureNames[k], o.impute);
        x[base + k] = v;
      }
      if (y !== null) {
        const label = row[labelIndex].trim();
        if (label === "") throw missingLabel(lineOf(batch, i), plan.header[labelIndex]);
        y[r] = label === positive ? 1 : -1;
      } else if (codes !== null) {
        const label = row[labelIndex].trim();
        if (label === "") throw missingLabel(lineOf(batch, i), plan.header[labelIndex]);
        codes[r] = classIndex!.get(label) ?? -1;
      }
      r++;
    }
    o.onProgress?.({ pass: 2, bytes: batch.bytes, totalBytes: total, rows: r });
  }
  if (r !== rows) throw changed(`${r} data rows instead of ${rows}`);
}

/**
 * Read a CSV straight into a table the caller allocates (two streaming passes; see the top of
 * this file). Returns what was read. Throws DpMarginError: CSV_PARSE (empty file, header only,
 * duplicate column names, unterminated quote, not UTF-8), RAGGED_ROW, NON_NUMERIC, NON_FINITE,
 * MISSING_VALUE, LABEL_NOT_FOUND, ONE_CLASS, OUT_OF_MEMORY (before allocating), BAD_PARAMETER
 * (options; `positive` needed; unknown feature/ignore column; n < 2 for training), CANCELLED.
 */
export async function readCsvInto(source: CsvSource, options: CsvReadOptions, allocate: CsvAllocate): Promise<TableSchema> {
  if (!isCsvSource(source)) throw badParameter("source", "CSV text, a Blob/File, or { open() } (csvFile(path) in Node)", source);
  if (typeof allocate !== "function") throw badParameter("allocate", "a function", allocate);
  const o = resolveCsvOptions(options);
  const scan = await firstPass(source, o);
  const d = scan.plan.featureNames.length;
  const multiclass = scan.plan.labelIndex >= 0 && o.classes !== null;
  const labelled = scan.plan.labelIndex >= 0 && !multiclass;
  await secondPass(source, o, scan, allocate(scan.rows, d, labelled, multiclass ? o.classes!.length : null));
  return {
    header: scan.plan.header,
    delimiter: scan.dialect.delimiter,
    newline: scan.dialect.newline,
    rows: scan.rows,
    featureNames: scan.plan.featureNames,
    ignored: scan.plan.ignored,
    label: labelled ? { column: scan.plan.header[scan.plan.labelIndex], positive: scan.positive! } : null,
    multiclass: multiclass ? { column: scan.plan.header[scan.plan.labelIndex], classes: [...o.classes!], other: scan.other } : null,
    imputed: scan.imputed,
  };
}

/** A table read into JavaScript memory (row-major, n × columns); usable as `TrainingData`. */
export interface CsvTable extends TableSchema {
  features: Float32Array;
  columns: number;
  /** ±1 per row when a binary label column was read; a multiclass label's class index per row
   *  (−1: a value outside `classes`). */
  labels: Int8Array | Int32Array | null;
  /** A multiclass label's class names (so the table trains one-vs-rest as `TrainingData`). */
  classes?: string[];
}

/**
 * Read a CSV into JavaScript typed arrays (for small data, or to inspect it). To train without
 * this copy, use `DpMargin.trainCsv`, which writes straight into wasm memory.
 */
export async function readCsv(source: CsvSource, options: CsvReadOptions = {}): Promise<CsvTable> {
  let features = new Float32Array(0);
  let labels: Int8Array | null = null;
  let codes: Int32Array | null = null;
  const schema = await readCsvInto(source, options, (rows, columns, labelled, classes) => {
    features = new Float32Array(rows * columns);
    labels = labelled ? new Int8Array(rows) : null;
    codes = classes !== null ? new Int32Array(rows) : null;
    return { stride: columns, features: () => features, labels: () => labels, codes: () => codes };
  });
  return {
    ...schema, features, columns: schema.featureNames.length,
    ...(schema.multiclass ? { labels: codes, classes: schema.multiclass.classes } : { labels }),
  };
}

/** The first rows of a CSV, as text, with a guess at each column's type (for a preview UI). */
export interface CsvPreview {
  header: string[];
  delimiter: Delimiter;
  newline: Newline;
  /** Up to `rows` data rows, fields as in the file (not trimmed). */
  rows: string[][];
  /** The file line each of `rows` starts on (the header is line 1). */
  lines: number[];
  /** Per header column, over the previewed rows: every non-empty cell a finite number,
   *  no non-empty cell, or anything else. */
  columnTypes: ("numeric" | "text" | "empty")[];
  /** True when the file has more rows than previewed. */
  truncated: boolean;
}

/** Read only the first rows of a CSV (the rest of the source is never read). */
export async function previewCsv(source: CsvSource,
  options: { rows?: number; delimiter?: Delimiter; signal?: AbortSignal } = {}): Promise<CsvPreview> {
  if (!isCsvSource(source)) throw badParameter("source", "CSV text, a Blob/File, or { open() }", source);
  const want = options.rows ?? 20;
  if (!Number.isInteger(want) || want < 1) throw badParameter("rows", "an integer >= 1", want);
  const delimiter = resolveCsvOptions({ delimiter: options.delimiter }).delimiter;
  let header = null as string[] | null;
  let dialect = null as Dialect | null;
  const rows: string[][] = [];
  const lines: number[] = [];
  let truncated = false;
  scan: for await (const batch of csvRows(source, { delimiter }, options.signal)) {
    dialect = batch.dialect;
    for (let i = 0; i < batch.rows.length; i++) {
      const row = batch.rows[i];
      if (isBlankRow(row)) continue;
      if (header === null) {
        header = row.map((h) => h.trim());
      } else if (rows.length === want) {
        truncated = true;
        break scan;  // closes the source
      } else {
        rows.push(row);
        lines.push(lineOf(batch, i));
      }
    }
  }
  if (header === null || dialect === null) throw new DpMarginError("CSV_PARSE", "the file is empty (no header row)");
  const columnTypes = header.map((_, j) => {
    let numeric = 0;
    let text = 0;
    for (const row of rows) {
      const cell = row[j] ?? "";
      if (cell.trim() === "") continue;
      if (!Number.isNaN(cellValue(cell))) numeric++;
      else text++;
    }
    return text > 0 ? "text" as const : numeric > 0 ? "numeric" as const : "empty" as const;
  });
  return { header, delimiter: dialect.delimiter, newline: dialect.newline, rows, lines, columnTypes, truncated };
}
