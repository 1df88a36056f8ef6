// The app's CSV reader: a thin adapter over PapaParse, kept small so the package's own reader
// (streaming, typed errors; being rewritten in another branch) can replace it later. Two steps:
//   parseCsv(text)            → ParsedTable {header, rows, lines}: the file as strings;
//   buildTable(table, choice) → the numeric table + ±1 labels that dp.train() takes.
// Every error is a CsvError shaped like DpMarginError ({code, message}) plus the 1-based file
// line and the column name when they are known. Numbers are read exactly as the CLI reads them
// (trimmed text → Number → float32), so the app and `dpmargin train` see the same table.
import Papa from "papaparse";

export type CsvErrorCode =
  | "CSV_PARSE" | "RAGGED_ROW" | "NON_NUMERIC" | "NON_FINITE" | "LABEL_NOT_FOUND" | "ONE_CLASS"
  | "MISSING_VALUE" | "BAD_PARAMETER";

export class CsvError extends Error {
  readonly code: CsvErrorCode;
  /** 1-based line of the file (the header is line 1). */
  readonly line?: number;
  readonly column?: string;
  /** The option at fault (BAD_PARAMETER only). */
  readonly parameter?: string;

  constructor(code: CsvErrorCode, message: string,
    where: { line?: number; column?: string; parameter?: string } = {}) {
    super(message);
    this.name = "CsvError";
    this.code = code;
    if (where.line !== undefined) this.line = where.line;
    if (where.column !== undefined) this.column = where.column;
    if (where.parameter !== undefined) this.parameter = where.parameter;
  }
}

export interface ParsedTable {
  header: string[];
  /** Data rows (blank lines skipped), each with header.length fields. */
  rows: string[][];
  /** The file line each data row starts on (quoted fields may span lines). */
  lines: Int32Array;
  delimiter: string;
}

/** The columns the user picked. `rows` selects and orders data rows (default: all, in order). */
export interface TableChoice {
  /** Feature columns, in the order the model will use them. */
  features: readonly string[];
  label?: string;
  /** Label value of the positive class; default "1" when the column holds only 0/1. */
  positive?: string;
  rows?: ArrayLike<number>;
  /** Training data needs both classes (default true); evaluation data need not. */
  requireBothClasses?: boolean;
}

export interface NumericTable {
  /** Row-major n × columns float32, as dp.train() and Model.predict() take it. */
  features: Float32Array;
  columns: number;
  featureNames: string[];
  /** ±1 per row when a label column was chosen. */
  labels: Int8Array | null;
  label: { column: string; positive: string } | null;
  rows: number;
}

const quote = (s: string) => JSON.stringify(s);

/** Parse CSV text (`,` `;` or tab, detected; quotes; CRLF; a UTF-8 BOM) into strings. */
export function parseCsv(input: string): ParsedTable {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (text.trim() === "") throw new CsvError("CSV_PARSE", "the file is empty");
  const rows: string[][] = [];
  const lines: number[] = [];
  let header: string[] | null = null;
  let line = 1;       // line at `cursor`
  let cursor = 0;
  let fatal: CsvError | null = null;
  let delimiter = ",";
  let newline = "\n";
  const parser = Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: false,
    delimitersToGuess: [",", ";", "\t"],
    step(result, p) {
      const start = line;
      const end = result.meta.cursor;
      newline = result.meta.linebreak || newline;
      delimiter = result.meta.delimiter || delimiter;
      const nl = newline === "\r" ? "\r" : "\n";
      for (let i = text.indexOf(nl, cursor); i >= 0 && i < end; i = text.indexOf(nl, i + 1)) line++;
      cursor = end;
      const quotes = result.errors.find((e) => e.type === "Quotes");
      if (quotes) {
        fatal = new CsvError("CSV_PARSE", `${quotes.message} (line ${start})`, { line: start });
        p.abort();
        return;
      }
      const row = result.data;
      if (row.join("").trim() === "") return;  // blank line (as PapaParse's "greedy")
      if (header === null) {
        header = row.map((h) => h.trim());
        return;
      }
      if (row.length !== header.length) {
        fatal = new CsvError("RAGGED_ROW",
          `line ${start} has ${row.length} field${row.length === 1 ? "" : "s"}; the header has ${header.length}`,
          { line: start });
        p.abort();
        return;
      }
      rows.push(row);
      lines.push(start);
    },
  });
  void parser;
  if (fatal) throw fatal;
  const names = header as string[] | null;
  if (names === null) throw new CsvError("CSV_PARSE", "the file is empty");
  if (names.length < 2) {
    throw new CsvError("CSV_PARSE",
      `the header has a single column (${quote(names[0])}); expected a label and at least one feature separated by "," ";" or a tab`,
      { line: 1 });
  }
  const seen = new Set<string>();
  for (const h of names) {
    if (seen.has(h)) throw new CsvError("CSV_PARSE", `duplicate column name ${quote(h)} in the header`, { line: 1, column: h });
    seen.add(h);
  }
  if (rows.length === 0) throw new CsvError("CSV_PARSE", "the file has a header but no data rows", { line: 1 });
  return { header: names, rows, lines: Int32Array.from(lines), delimiter };
}

const NON_FINITE_TEXT = /^[+-]?(nan|inf|infinity)$/i;

/** The number in a cell, or a typed error naming line and column. */
export function parseCell(text: string, line: number, column: string): number {
  const t = text.trim();
  if (t === "") throw new CsvError("MISSING_VALUE", `missing value at line ${line}, column ${quote(column)}`, { line, column });
  const v = Number(t);
  if (Number.isNaN(v) && !NON_FINITE_TEXT.test(t)) {
    throw new CsvError("NON_NUMERIC", `non-numeric value ${quote(t)} at line ${line}, column ${quote(column)}`, { line, column });
  }
  if (!Number.isFinite(v) || !Number.isFinite(Math.fround(v))) {
    throw new CsvError("NON_FINITE",
      `non-finite value ${quote(t)} at line ${line}, column ${quote(column)}${Number.isFinite(v) ? " (beyond float32)" : ""}`,
      { line, column });
  }
  return v;
}

export interface ColumnSummary {
  name: string;
  /** "numeric": every present cell is a finite number; "text" otherwise. */
  kind: "numeric" | "text";
  missing: number;
  /** Cells that read as NaN / ±Inf. */
  nonFinite: number;
  /** Distinct values (exact up to DISTINCT_CAP, then `distinctCapped`). */
  distinct: number;
  distinctCapped: boolean;
  /** Values with their counts, most frequent first, for the positive-class picker (exact
   *  when !distinctCapped; otherwise the first DISTINCT_CAP values, counted until the cap). */
  values: { value: string; count: number }[];
  /** First cell that is not a number, for the preview's explanation. */
  firstText?: { value: string; line: number };
}

export const DISTINCT_CAP = 50;

/** Column types and value counts, for the preview and the pickers (local only, never released). */
export function summarizeColumns(table: ParsedTable): ColumnSummary[] {
  return table.header.map((name, j) => {
    const counts = new Map<string, number>();
    let missing = 0, nonFinite = 0, capped = false;
    let firstText: ColumnSummary["firstText"];
    for (let i = 0; i < table.rows.length; i++) {
      const t = table.rows[i][j].trim();
      if (t === "") { missing++; continue; }
      // Past DISTINCT_CAP values the column cannot be a label: stop counting (the hot path of
      // a large numeric table is then one Number() per cell).
      if (!capped) {
        const seen = counts.get(t);
        if (seen !== undefined) counts.set(t, seen + 1);
        else if (counts.size < DISTINCT_CAP) counts.set(t, 1);
        else capped = true;
      }
      const v = Number(t);
      if (v - v === 0) continue;  // finite
      if (!Number.isNaN(v) || NON_FINITE_TEXT.test(t)) nonFinite++;
      else if (firstText === undefined) firstText = { value: t, line: table.lines[i] };
    }
    const values = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([value, count]) => ({ value, count }));
    return {
      name, kind: firstText ? "text" : "numeric", missing, nonFinite,
      distinct: counts.size, distinctCapped: capped, values,
      ...(firstText ? { firstText } : {}),
    };
  });
}

/** The numeric table + labels for dp.train() / Model.predict() from the chosen columns and rows. */
export function buildTable(table: ParsedTable, choice: TableChoice): NumericTable {
  const { header } = table;
  let labelIndex = -1;
  if (choice.label !== undefined) {
    labelIndex = header.indexOf(choice.label);
    if (labelIndex < 0) {
      throw new CsvError("LABEL_NOT_FOUND",
        `label column ${quote(choice.label)} is not in the header (${header.map(quote).join(", ")})`);
    }
  }
  const featureNames = [...choice.features];
  if (featureNames.length === 0) throw new CsvError("CSV_PARSE", "no feature columns are selected");
  const featureIndex = featureNames.map((name) => {
    const j = header.indexOf(name);
    if (j < 0) throw new CsvError("CSV_PARSE", `feature column ${quote(name)} is not in the header`, { column: name });
    if (j === labelIndex) throw new CsvError("CSV_PARSE", `the label column ${quote(name)} cannot also be a feature`, { column: name });
    return j;
  });
  const order = choice.rows;
  const all = order === undefined;
  const n = all ? table.rows.length : order.length;
  const d = featureNames.length;
  const features = new Float32Array(n * d);
  const rawLabels: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = all ? i : order[i];
    const row = table.rows[r];
    const line = table.lines[r];
    for (let j = 0; j < d; j++) features[i * d + j] = parseCell(row[featureIndex[j]], line, featureNames[j]);
    if (labelIndex >= 0) {
      const v = row[labelIndex].trim();
      if (v === "") {
        throw new CsvError("MISSING_VALUE", `missing label at line ${line}, column ${quote(header[labelIndex])}`,
          { line, column: header[labelIndex] });
      }
      rawLabels.push(v);
    }
  }
  let labels: Int8Array | null = null;
  let label: NumericTable["label"] = null;
  if (labelIndex >= 0) {
    const column = header[labelIndex];
    let positive = choice.positive;
    if (positive === undefined) {
      const values = new Set(rawLabels);
      if ([...values].every((v) => v === "0" || v === "1")) positive = "1";
      else throw new CsvError("BAD_PARAMETER", `choose the positive class of column ${quote(column)}`,
        { column, parameter: "positive" });
    }
    labels = Int8Array.from(rawLabels, (v) => (v === positive ? 1 : -1));
    label = { column, positive };
    let positives = 0;
    for (const y of labels) positives += y === 1 ? 1 : 0;
    if ((choice.requireBothClasses ?? true) && (positives === 0 || positives === n)) {
      throw new CsvError("ONE_CLASS",
        `every ${all ? "" : "training "}row is ${positives === 0 ? "negative" : "positive"} for positive class ${quote(positive)} in column ${quote(column)}: both classes are needed`,
        { column });
    }
  }
  return { features, columns: d, featureNames, labels, label, rows: n };
}
