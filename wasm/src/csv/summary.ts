// A column summary of a CSV for a preview (the app's data step): one streaming pass, the same
// tokenizer and number rules as the reader, the first rows as text. Local only: it describes
// the user's own data to the user and is never released.
import { DpMarginError, badParameter } from "../errors.js";
import { optionalFunction, optionalSignal, requireObject } from "../options.js";
import { isCsvSource, sourceSize, type CsvSource } from "./source.js";
import { csvRows, isBlankRow, lineOf, type Delimiter, type Dialect, type Newline, DELIMITERS } from "./rows.js";
import { cellValue, readHeader, type CsvProgress } from "./columns.js";

/** What one column holds. */
export interface ColumnSummary {
  name: string;
  /** "numeric": every present cell is a finite number; "text" otherwise. */
  kind: "numeric" | "text";
  /** Empty cells. */
  missing: number;
  /** Cells that read as NaN / ±Inf / beyond float32. */
  nonFinite: number;
  /** Distinct values (exact up to DISTINCT_CAP, then `distinctCapped`). */
  distinct: number;
  distinctCapped: boolean;
  /** Values with their counts, most frequent first (exact when !distinctCapped; otherwise the
   *  first DISTINCT_CAP values, counted until the cap). */
  values: { value: string; count: number }[];
  /** First cell that is not a number, with its file line. */
  firstText?: { value: string; line: number };
}

export interface CsvSummary {
  header: string[];
  delimiter: Delimiter;
  newline: Newline;
  /** Data rows (blank lines skipped). */
  rows: number;
  columns: ColumnSummary[];
  /** The first data rows as text, with their file lines. */
  preview: string[][];
  previewLines: number[];
}

/** Distinct values counted per column; past it a column cannot be a label. */
export const DISTINCT_CAP = 50;

const NON_FINITE_TEXT = /^[+-]?(nan|inf|infinity)$/i;

interface Counter {
  counts: Map<string, number>;
  capped: boolean;
  missing: number;
  nonFinite: number;
  firstText?: { value: string; line: number };
}

/** Summarise every column of a CSV (one pass; the source is streamed, never held whole). */
export async function summarizeCsv(source: CsvSource, options: {
  delimiter?: Delimiter; previewRows?: number; signal?: AbortSignal; onProgress?: (p: CsvProgress) => void;
} = {}): Promise<CsvSummary> {
  if (!isCsvSource(source)) throw badParameter("source", "CSV text, a Blob/File, or { open() }", source);
  const o = requireObject(options, "options");
  const want = o.previewRows ?? 8;
  if (typeof want !== "number" || !Number.isInteger(want) || want < 0) throw badParameter("previewRows", "an integer >= 0", want);
  if (o.delimiter !== undefined && !(DELIMITERS as readonly unknown[]).includes(o.delimiter)) {
    throw badParameter("delimiter", 'one of ",", ";", "\\t"', o.delimiter);
  }
  const signal = optionalSignal(o);
  const onProgress = optionalFunction<(p: CsvProgress) => void>(o, "onProgress");
  const total = sourceSize(source);
  let header: string[] | null = null;
  let dialect: Dialect | null = null;
  let counters: Counter[] = [];
  const preview: string[][] = [];
  const previewLines: number[] = [];
  let rows = 0;
  for await (const batch of csvRows(source, { delimiter: o.delimiter as Delimiter | undefined }, signal)) {
    dialect = batch.dialect;
    for (let i = 0; i < batch.rows.length; i++) {
      const row = batch.rows[i];
      if (isBlankRow(row)) continue;
      const line = lineOf(batch, i);
      if (header === null) {
        header = readHeader(row, line).header;
        counters = header.map(() => ({ counts: new Map(), capped: false, missing: 0, nonFinite: 0 }));
        continue;
      }
      if (row.length !== header.length) {
        throw new DpMarginError("RAGGED_ROW", `line ${line} has ${row.length} field${row.length === 1 ? "" : "s"}; the header has ${header.length}`);
      }
      if (preview.length < want) {
        preview.push(row);
        previewLines.push(line);
      }
      for (let j = 0; j < row.length; j++) {
        const c = counters[j];
        const t = row[j].trim();
        if (t === "") {
          c.missing++;
          continue;
        }
        // Past DISTINCT_CAP values the column cannot be a label: stop counting.
        if (!c.capped) {
          const n = c.counts.get(t);
          if (n !== undefined) c.counts.set(t, n + 1);
          else if (c.counts.size < DISTINCT_CAP) c.counts.set(t, 1);
          else c.capped = true;
        }
        if (cellValue(t) === cellValue(t)) continue;  // a usable number
        const v = Number(t);
        if (NON_FINITE_TEXT.test(t) || v === Infinity || v === -Infinity || (Number.isFinite(v) && !/^[+-]?0[xob]/i.test(t))) {
          c.nonFinite++;
        } else if (c.firstText === undefined) {
          c.firstText = { value: t, line };
        }
      }
      rows++;
    }
    onProgress?.({ pass: 1, bytes: batch.bytes, totalBytes: total, rows });
  }
  if (header === null || dialect === null) throw new DpMarginError("CSV_PARSE", "the file is empty (no header row)");
  const columns = header.map((name, j): ColumnSummary => {
    const c = counters[j];
    const values = [...c.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([value, count]) => ({ value, count }));
    return {
      name, kind: c.firstText ? "text" : "numeric", missing: c.missing, nonFinite: c.nonFinite,
      distinct: c.counts.size, distinctCapped: c.capped, values,
      ...(c.firstText ? { firstText: c.firstText } : {}),
    };
  });
  return { header, delimiter: dialect.delimiter, newline: dialect.newline, rows, columns, preview, previewLines };
}
