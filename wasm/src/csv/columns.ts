// Column roles (label, features, ignored), option checks and cell parsing of the CSV reader.
// Both passes use the same functions, so pass 2 rejects exactly what pass 1 rejects.
import { DpMarginError, badParameter } from "../errors.js";
import { optionalFunction, optionalSignal, requireObject } from "../options.js";
import { DELIMITERS, type Delimiter } from "./rows.js";

/**
 * Largest table the reader allocates by default: rows × (features + 1) × 4 bytes of float32.
 * It matches the core's limit (2^29 − 1 values keeps every index inside wasm32's signed
 * 32-bit range); a larger table fails with OUT_OF_MEMORY before anything is allocated.
 */
export const MAX_TABLE_BYTES = ((2 ** 29) - 1) * 4;

/** Options of the CSV reader (`readCsvInto`, `readCsv`, `DpMargin.trainCsv`). */
export interface CsvReadOptions {
  /** Label column, by name (training and evaluation). */
  label?: string;
  /** Label value of the positive class (one-vs-rest; compared after trimming spaces).
   *  Default "1" when the label column holds only 0 and 1; required otherwise. */
  positive?: string;
  /**
   * A multiclass label: the names of its classes (public: declared, not read off the data), in
   * the order of their codes. Each row's label becomes the index of its value in this list; a
   * value outside it is negative in every class (docs/MULTICLASS.md). Not with `positive`.
   */
  classes?: readonly string[];
  /** Feature columns, in this order. Default: every column except the label and `ignore`. */
  features?: readonly string[];
  /** Columns to skip (e.g. ids or text). */
  ignore?: readonly string[];
  /** Empty feature cells: "error" (default, MISSING_VALUE) or replaced by a public constant. */
  missing?: "error" | { impute: number };
  /** Training data needs both classes and n ≥ 2 (default true when `label` is given). */
  requireBothClasses?: boolean;
  /** Size limit in bytes of the float32 table, rows × (features + 1) × 4 (default
   *  {@link MAX_TABLE_BYTES}); checked before anything is allocated. */
  maxBytes?: number;
  /** Field delimiter; default: detected among `,` `;` tab from the first lines. */
  delimiter?: Delimiter;
  /** Cancels reading between chunks (CANCELLED). */
  signal?: AbortSignal;
  /** Called after every parsed chunk of either pass. */
  onProgress?: (progress: CsvProgress) => void;
  /** Only these data rows (0-based among the data rows, blank lines not counted; strictly
   *  increasing), e.g. a held-out split: the others are checked but not read into the table. */
  rows?: ArrayLike<number>;
}

/** Reading progress. Pass 1 validates and counts; pass 2 writes into memory. */
export interface CsvProgress {
  pass: 1 | 2;
  /** Bytes (characters, for text input) read so far in this pass. */
  bytes: number;
  /** Size of the source, when known. */
  totalBytes: number | null;
  /** Data rows read so far in this pass. */
  rows: number;
}

export interface ResolvedCsvOptions {
  label: string | null;
  positive: string | null;
  classes: string[] | null;
  features: string[] | null;
  ignore: string[];
  impute: number | null;
  requireBothClasses: boolean;
  maxBytes: number;
  delimiter: Delimiter | undefined;
  signal: AbortSignal | undefined;
  onProgress: ((progress: CsvProgress) => void) | undefined;
  rows: ArrayLike<number> | null;
}

const CSV_OPTIONS = new Set(["label", "positive", "classes", "features", "ignore", "missing",
  "requireBothClasses", "maxBytes", "delimiter", "signal", "onProgress", "rows"]);

function rowSelection(o: Record<string, unknown>): ArrayLike<number> | null {
  const rows = o.rows as ArrayLike<number> | undefined;
  if (rows === undefined) return null;
  if (rows === null || typeof rows !== "object" || typeof rows.length !== "number") {
    throw badParameter("rows", "an array of row indices", rows);
  }
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!Number.isInteger(r) || r < 0 || (i > 0 && r <= rows[i - 1])) {
      throw badParameter("rows", "strictly increasing non-negative integers", `${r} at position ${i}`);
    }
  }
  return rows;
}

function nameList(o: Record<string, unknown>, name: string): string[] | null {
  const v = o[name];
  if (v === undefined) return null;
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw badParameter(name, "an array of column names", v);
  const seen = new Set<string>();
  for (const x of v as string[]) {
    if (seen.has(x.trim())) throw badParameter(name, "a list without repeats", `repeating ${JSON.stringify(x)}`);
    seen.add(x.trim());
  }
  return (v as string[]).map((x) => x.trim());
}

export function resolveCsvOptions(options: unknown): ResolvedCsvOptions {
  const o = requireObject(options ?? {}, "options");
  for (const key of Object.keys(o)) {
    if (!CSV_OPTIONS.has(key) && o[key] !== undefined) {
      throw badParameter(key, `a known option (${[...CSV_OPTIONS].join(", ")})`, "set");
    }
  }
  const label = o.label;
  if (label !== undefined && typeof label !== "string") throw badParameter("label", "a column name", label);
  const positive = o.positive;
  if (positive !== undefined && typeof positive !== "string") throw badParameter("positive", "a string (a label value)", positive);
  if (positive !== undefined && label === undefined) throw badParameter("positive", "given only with label", positive);
  let classes: string[] | null = null;
  if (o.classes !== undefined) {
    const c = o.classes;
    if (!Array.isArray(c) || c.length < 3 || !c.every((x) => typeof x === "string")) {
      throw badParameter("classes", "an array of 3 to 50 class names (a binary label takes positive instead)", c);
    }
    classes = c.map((x: string) => x.trim());
    if (new Set(classes).size !== classes.length) throw badParameter("classes", "a list without repeats", c);
    if (label === undefined) throw badParameter("classes", "given only with label", "set");
    if (positive !== undefined) throw badParameter("classes", "not given with positive (a multiclass label has no positive class)", "set");
  }
  const features = nameList(o, "features");
  if (features && features.length === 0) throw badParameter("features", "a non-empty list of column names", "[]");
  const ignore = nameList(o, "ignore") ?? [];
  let impute: number | null = null;
  const missing = o.missing;
  if (missing !== undefined && missing !== "error") {
    const c = (missing as { impute?: unknown } | null)?.impute;
    if (typeof missing !== "object" || typeof c !== "number" || !Number.isFinite(c)) {
      throw badParameter("missing", '"error" or { impute: c } with a finite public constant c', typeof c === "number" ? c : missing);
    }
    impute = c;
  }
  const requireBothClasses = o.requireBothClasses ?? label !== undefined;
  if (typeof requireBothClasses !== "boolean") throw badParameter("requireBothClasses", "a boolean", requireBothClasses);
  const maxBytes = o.maxBytes ?? MAX_TABLE_BYTES;
  if (typeof maxBytes !== "number" || !(maxBytes > 0)) throw badParameter("maxBytes", "a number > 0", maxBytes);
  const delimiter = o.delimiter;
  if (delimiter !== undefined && !(DELIMITERS as readonly unknown[]).includes(delimiter)) {
    throw badParameter("delimiter", 'one of ",", ";", "\\t"', delimiter);
  }
  return {
    label: label === undefined ? null : (label as string).trim(),
    positive: positive === undefined ? null : (positive as string).trim(),
    classes,
    features, ignore, impute, requireBothClasses, maxBytes,
    delimiter: delimiter as Delimiter | undefined,
    signal: optionalSignal(o),
    onProgress: optionalFunction(o, "onProgress"),
    rows: rowSelection(o),
  };
}

/** Which column of the file plays which role. */
export interface ColumnPlan {
  header: string[];
  /** Index in the row of each feature, in output order. */
  featureIndex: number[];
  featureNames: string[];
  labelIndex: number;
  ignored: string[];
}

const quoted = (names: readonly string[], max = 12) =>
  names.slice(0, max).map((h) => JSON.stringify(h)).join(", ") + (names.length > max ? `, … (${names.length} columns)` : "");

/** The trimmed column names and their positions; CSV_PARSE on a duplicate name. */
export function readHeader(rawHeader: string[], line: number): { header: string[]; position: Map<string, number> } {
  const header = rawHeader.map((h) => h.trim());
  const position = new Map<string, number>();
  header.forEach((name, j) => {
    const before = position.get(name);
    if (before !== undefined) {
      throw new DpMarginError("CSV_PARSE",
        `duplicate column name ${JSON.stringify(name)} in the header (line ${line}, columns ${before + 1} and ${j + 1})`);
    }
    position.set(name, j);
  });
  return { header, position };
}

export function planColumns(rawHeader: string[], o: ResolvedCsvOptions, line: number): ColumnPlan {
  const { header, position } = readHeader(rawHeader, line);
  const labelIndex = o.label === null ? -1 : position.get(o.label) ?? -2;
  if (labelIndex === -2) {
    throw new DpMarginError("LABEL_NOT_FOUND",
      `label column ${JSON.stringify(o.label)} is not in the header (${quoted(header)})`, "label");
  }
  const require = (list: string[], parameter: "features" | "ignore") => {
    for (const name of list) {
      if (!position.has(name)) {
        throw new DpMarginError("BAD_PARAMETER",
          `${parameter}: column ${JSON.stringify(name)} is not in the header (${quoted(header)})`, parameter);
      }
      if (name === o.label) {
        throw new DpMarginError("BAD_PARAMETER", `${parameter}: ${JSON.stringify(name)} is the label column`, parameter);
      }
    }
  };
  require(o.ignore, "ignore");
  let featureNames: string[];
  if (o.features) {
    require(o.features, "features");
    const both = o.features.find((name) => o.ignore.includes(name));
    if (both !== undefined) {
      throw new DpMarginError("BAD_PARAMETER", `ignore: column ${JSON.stringify(both)} is also listed in features`, "ignore");
    }
    featureNames = [...o.features];
  } else {
    featureNames = header.filter((name, j) => j !== labelIndex && !o.ignore.includes(name));
  }
  if (featureNames.length === 0) {
    if (header.length === 1 && labelIndex === 0) {
      throw new DpMarginError("CSV_PARSE", `no feature columns: the file has only the label column ${JSON.stringify(o.label)}`);
    }
    throw new DpMarginError("BAD_PARAMETER", `ignore: no feature columns are left (header: ${quoted(header)})`, "ignore");
  }
  const ignored = header.filter((name, j) => j !== labelIndex && !featureNames.includes(name));
  return { header, featureIndex: featureNames.map((name) => position.get(name)!), featureNames, labelIndex, ignored };
}

const F32_MAX = 3.4028234663852886e38;

/**
 * The value of a numeric cell, or NaN when it is not a finite decimal number in float32 range
 * (then {@link cellError} says why). Number() does the parsing: it accepts surrounding
 * whitespace, a leading + and exponents, and rejects "1,000", "inf" and "nan"; what it accepts
 * beyond decimal numbers (empty text → 0, "0x1A" → 26, "Infinity") is caught here.
 */
export function cellValue(text: string): number {
  const v = +text;
  if (v - v !== 0) return NaN;  // NaN, ±Infinity
  if (v === 0 && text.trim() === "") return NaN;
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  if (text.charCodeAt(i) === 48 && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1) | 32;
    if (next === 120 || next === 111 || next === 98) return NaN;  // 0x, 0o, 0b
  }
  if ((v > F32_MAX || v < -F32_MAX) && !Number.isFinite(Math.fround(v))) return NaN;
  return v;
}

const NON_FINITE_TEXT = /^[+-]?(nan|inf|infinity)$/i;

/** Why `text` is not a usable value: the imputed constant for an empty cell, or a thrown error. */
export function cellError(text: string, line: number, column: string, impute: number | null): number {
  const t = text.trim();
  const where = `at line ${line}, column ${JSON.stringify(column)}`;
  if (t === "") {
    if (impute !== null) return impute;
    throw new DpMarginError("MISSING_VALUE",
      `missing value ${where} (to replace empty cells by a public constant c: missing: { impute: c }, or --impute c)`);
  }
  const v = Number(t);
  if (NON_FINITE_TEXT.test(t) || v === Infinity || v === -Infinity) {
    throw new DpMarginError("NON_FINITE", `non-finite value ${JSON.stringify(t)} ${where}`);
  }
  if (Number.isFinite(v) && !Number.isFinite(Math.fround(v)) && !/^[+-]?0[xob]/i.test(t)) {
    throw new DpMarginError("NON_FINITE", `value ${JSON.stringify(t)} ${where} is outside the float32 range (±3.4e38)`);
  }
  throw new DpMarginError("NON_NUMERIC",
    `non-numeric value ${JSON.stringify(t.length > 40 ? t.slice(0, 40) + "…" : t)} ${where} (decimal numbers only; to skip a column: ignore / --ignore)`);
}

export function missingLabel(line: number, column: string): DpMarginError {
  return new DpMarginError("MISSING_VALUE", `missing label at line ${line}, column ${JSON.stringify(column)}`);
}
