// Rows of a CSV stream, in batches, with the file's line number of every row (header = line 1).
// PapaParse's core Parser does the RFC 4180 work (quotes, escaped quotes, delimiters and line
// breaks inside quoted fields); this module feeds it whole text, carries the unfinished last
// row over to the next chunk, and picks the newline and delimiter from a sample of whole lines
// (PapaParse's streamers guess them from a possibly truncated first chunk, mholt/PapaParse#1132).
import Papa from "papaparse";
import { DpMarginError } from "../errors.js";
import { textChunks, type CsvSource } from "./source.js";

export type Delimiter = "," | ";" | "\t";
export type Newline = "\n" | "\r\n" | "\r";

export interface Dialect {
  delimiter: Delimiter;
  newline: Newline;
}

export const DELIMITERS: readonly Delimiter[] = [",", ";", "\t"];

/** Longest row (in characters) the reader accepts; longer means a quote was left open. */
export const MAX_ROW_CHARS = 1 << 25;

/** Characters parsed per batch at most, whatever the source's chunk size: the rows of a batch
 *  (one short string per field) then die young, and peak memory stays near the table's. */
const PARSE_CHARS = 1 << 16;

/** Dialect detection waits for this many line breaks, or characters, or the end of input. */
const DETECT_LINES = 10;
const DETECT_CHARS = 1 << 16;

export interface RowBatch {
  /** Fields of each row, as text (blank lines included: a single blank field). */
  rows: string[][];
  /** Line of rows[0]; rows[i] is on line `lines ? lines[i] : firstLine + i`. */
  firstLine: number;
  lines: number[] | null;
  dialect: Dialect;
  /** Bytes of the source consumed so far. */
  bytes: number;
}

export function lineOf(batch: RowBatch, i: number): number {
  return batch.lines ? batch.lines[i] : batch.firstLine + i;
}

/** A blank line: no field, or a single field of whitespace. */
export function isBlankRow(row: string[]): boolean {
  return row.length === 0 || (row.length === 1 && row[0].trim() === "");
}

/** The first line break outside quoted fields; a trailing CR is trusted only at the end. */
export function detectNewline(sample: string, final: boolean): Newline {
  let inQuotes = false;
  let fieldStart = true;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (inQuotes) {
      if (c === 34) {
        if (sample.charCodeAt(i + 1) === 34) i++;
        else inQuotes = false;
      }
      continue;
    }
    if (c === 34 && fieldStart) {
      inQuotes = true;
      continue;
    }
    if (c === 10) return "\n";
    if (c === 13) {
      if (i + 1 < sample.length) return sample.charCodeAt(i + 1) === 10 ? "\r\n" : "\r";
      return final ? "\r" : "\r\n";
    }
    fieldStart = c === 44 || c === 59 || c === 9;
  }
  return "\n";
}

/**
 * The delimiter among `,` `;` tab that splits the sample's first rows into the same number
 * (> 1) of fields, the most fields winning; when none is consistent (a ragged file), the one
 * that splits the header into most fields, so the ragged row is what gets reported.
 */
export function detectDelimiter(sample: string, newline: Newline, final: boolean): Delimiter {
  let best: Delimiter = ",";
  let bestScore = 0;
  for (const delimiter of DELIMITERS) {
    const parsed = new Papa.Parser({ delimiter, newline, preview: 2 * DETECT_LINES }).parse(sample, 0, false);
    // Rows of blank fields (a line of tabs, say) say nothing about the delimiter.
    let rows = (parsed.data as string[][]).filter((r) => !r.every((field) => field.trim() === ""));
    if (!final && rows.length > 1 && !parsed.meta.truncated) rows = rows.slice(0, -1);  // maybe cut short
    if (rows.length === 0) continue;
    const width = rows[0].length;
    const consistent = rows.every((r) => r.length === width);
    const score = consistent && width > 1 ? 1e9 + width : width;
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

function countBreaks(field: string, newline: Newline): number {
  const mark = newline === "\r" ? "\r" : "\n";
  let count = 0;
  for (let at = field.indexOf(mark); at !== -1; at = field.indexOf(mark, at + 1)) count++;
  return count;
}

function breaksIn(text: string): number {
  let n = 0;
  let r = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) r++;
  }
  return Math.max(n, r);
}

/**
 * Stream the rows of `source` in batches (one per parsed chunk). `dialect` fixes the delimiter
 * and/or newline; what is missing is detected from the first lines. Quote errors (unterminated
 * or malformed quoted fields) throw CSV_PARSE naming the line.
 */
export async function* csvRows(source: CsvSource, dialect: Partial<Dialect> = {},
  signal?: AbortSignal): AsyncGenerator<RowBatch> {
  let pending: string[] = [];
  let pendingLength = 0;
  let pendingBreaks = 0;
  let partial = "";
  let line = 1;
  let bytes = 0;
  let fixed: Dialect | null = null;
  let parser: Papa.Parser | null = null;

  const parse = (final: boolean): RowBatch | null => {
    const text = partial + pending.join("");
    pending = [];
    pendingLength = 0;
    if (!fixed) {
      const newline = dialect.newline ?? detectNewline(text, final);
      fixed = { newline, delimiter: dialect.delimiter ?? detectDelimiter(text, newline, final) };
      parser = new Papa.Parser({ delimiter: fixed.delimiter, newline: fixed.newline, quoteChar: '"' });
    }
    const result = parser!.parse(text, 0, !final);
    const rows = result.data as string[][];
    const cursor = result.meta.cursor as number;
    partial = final ? "" : text.substring(cursor);
    const firstLine = line;
    let lines: number[] | null = null;
    if (text.indexOf('"') === -1) {
      line += rows.length;  // no quotes: one row per line
    } else {
      lines = new Array<number>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        lines[i] = line;
        line += 1;
        for (const field of rows[i]) line += countBreaks(field, fixed.newline);
      }
    }
    const batch: RowBatch = { rows, firstLine, lines, dialect: fixed, bytes };
    // Errors in the unfinished last row are reported again, for real, once it is complete.
    const error = (result.errors as Papa.ParseError[]).find((e) => e.type === "Quotes" && (e.row ?? 0) < rows.length);
    if (error) {
      const at = lineOf(batch, error.row ?? 0);
      throw new DpMarginError("CSV_PARSE", error.code === "MissingQuotes"
        ? `unterminated quoted field starting at line ${at} (a quote is never closed)`
        : `malformed quoted field at line ${at}: a closing quote must be followed by a delimiter or a line break`);
    }
    if (partial.length > MAX_ROW_CHARS) {
      throw new DpMarginError("CSV_PARSE",
        `the row starting at line ${line} is longer than ${MAX_ROW_CHARS} characters (is a quote left open?)`);
    }
    return rows.length ? batch : null;
  };

  for await (const chunk of textChunks(source, signal)) {
    bytes = chunk.bytes;
    for (let at = 0; at < chunk.text.length; at += PARSE_CHARS) {
      const text = chunk.text.length <= PARSE_CHARS ? chunk.text : chunk.text.slice(at, at + PARSE_CHARS);
      pending.push(text);
      pendingLength += text.length;
      if (!fixed) {
        pendingBreaks += breaksIn(text);
        if (pendingBreaks < DETECT_LINES && pendingLength < DETECT_CHARS) continue;
      } else if (pendingLength < partial.length) {
        // Re-parsing the unfinished row costs its length: wait for as much new text, so a long
        // row (or an open quote) costs linear, not quadratic, time.
        continue;
      }
      const batch = parse(false);
      if (batch) yield batch;
    }
  }
  if (pendingLength > 0 || partial.length > 0) {
    const batch = parse(true);
    if (batch) yield batch;
  }
}
