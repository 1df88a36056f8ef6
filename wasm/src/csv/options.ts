// The CSV options (trainCsv, predictCsv, summarizeCsv, readCsv): every one that describes the
// table goes to the core's option table (scope "table": label, classes, missing values,
// categories, dialect, schema …, with their defaults and checks); only the row selection, the
// AbortSignal and the progress callback live here.
import { badParameter } from "../errors.js";
import { coreOptions, optionalFunction, optionalSignal, requireObject } from "../options.js";
import type { CoreOptions } from "../wasm/dpmargin_core.mjs";
import type { CsvProgress } from "./passes.js";

/** The schema of a table as the core writes it (`--json`, the app's export, `table.schema`). */
export interface SchemaFile {
  format: "dpmargin-schema";
  version: 1;
  /** decimal: ".", "," or "either" (each cell read with "." or ","). */
  csv: { delimiter: string; decimal: "." | "," | "either"; encoding: "utf-8" | "latin1"; missingTokens: string[] };
  label?: string;
  classSource?: "declared" | "binary01" | "positive" | "discover";
  /** How the class source was decided: "declared", "private" (noisy counts of the run), "local". */
  classDecision?: "declared" | "private" | "local";
  classes?: string[];
  positive?: string;
  /** How `positive` was chosen: "named" (the `positive` option), "binary01" (1 of a 0/1
   *  label), "second-declared" / "second-discovered" (the second of two declared classes, in
   *  their order / of two discovered classes, in byte order). Written by the core, ignored when
   *  a schema is read back. */
  positiveRule?: "named" | "binary01" | "second-declared" | "second-discovered";
  maxLevels: number;
  hashBuckets: number;
  columns: SchemaColumn[];
}

export interface SchemaColumn {
  name: string;
  kind: "ignore" | "numeric" | "categorical" | "label";
  missing?: "error" | "constant" | "indicator" | "level";
  nullable?: boolean;
  fill?: number;
  range?: [number, number];
  categories?: "declared" | "discover" | "hash" | "auto";
  levels?: string[];
  buckets?: number;
  /** Why the column has this kind ("declared", "header name reads like an identifier",
   *  "numbers", "text", "almost no values", …): a rule's name, never a count. */
  reason?: string;
  /** How kind and nullable were decided: "declared" (by you), "public" (a rule of the header and
   *  the options), "private" (the run's noisy cell counts, under the budget), "local" (exact
   *  counts: a preview or a local read, never released). */
  decision?: string;
}

/** Options of the CSV readers. Every table option's default is the core's (`dp.options`). */
export interface CsvReadOptions {
  /** Label column. Default: the one column whose header says so (label, target, class, y,
   *  outcome, …); training without one fails with LABEL_NOT_FOUND. */
  label?: string;
  /** The label's classes, declared public (2–50; with 3 or more: one-vs-rest). Default: decided
   *  privately from noisy counts — binary-coded (1 against the rest) when most cells are 0, 1 or
   *  −1, else discovered under the budget. */
  classes?: string[];
  /** Train this class against all the others (a binary model, nothing discovered). */
  positive?: string;
  /** Discover the label's classes under the budget (true), or read the label as binary-coded,
   *  1 against the rest (false). Default: decided privately (see `classes`). */
  discoverClasses?: boolean;
  /** Feature columns, in this order. Default: every column but the label, the ignored ones
   *  and identifiers (id, *_id, row names). */
  features?: string[];
  /** Columns to leave out. */
  ignore?: string[];
  /** Missing numeric cells: "indicator" (default: the public `fill` plus a 0/1 column
   *  "<name>: missing"), "constant" (`fill` only), "error" (MISSING_VALUE). `{impute: c}` is the
   *  former spelling of "constant" with fill c. */
  missing?: "indicator" | "constant" | "error" | { impute: number };
  /** The public constant a missing numeric cell becomes (default 0). */
  fill?: number;
  /** Text columns' levels: "auto" (default: discovered when the budget can find levels held by
   *  10% of the rows, else hashed), "discover", or "hash". Declared levels go in `schema`. */
  categories?: "auto" | "discover" | "hash";
  maxLevels?: number;
  hashBuckets?: number;
  /** Field delimiter (default: detected among , ; tab |). */
  delimiter?: "," | ";" | "\t" | "|";
  /** Decimal mark (default: "." where the header is delimited by ",", else either mark per
   *  cell: "1.5" and "1,5" alike — decided from the header, never from the rows). */
  decimal?: "." | ",";
  /** Text encoding: "utf-8" (default) or "latin1" (Windows-1252). */
  encoding?: "utf-8" | "latin1";
  /** Cell texts read as missing (default: "", NA, N/A, n/a, #N/A, NaN, nan, NULL, null, ?, …). */
  missingTokens?: string[];
  /** A schema (e.g. from `--json` or the app's export): every column's role and handling. */
  schema?: SchemaFile | Record<string, unknown>;
  /** Largest table to allocate: rows × (model columns + 1) × 4 bytes. */
  maxBytes?: number;
  /** Only these data rows (0-based among the data rows, strictly increasing), e.g. a split. */
  rows?: ArrayLike<number>;
  /** Cancels reading between chunks (CANCELLED). */
  signal?: AbortSignal;
  /** Called after every chunk of every pass. */
  onProgress?: (progress: CsvProgress) => void;
  /** @deprecated Training always requires both classes; accepted as true for compatibility. */
  requireBothClasses?: boolean;
}

const JS_ONLY = ["rows", "signal", "onProgress", "requireBothClasses"] as const;

export interface SplitCsvOptions {
  core: CoreOptions;
  rows: ArrayLike<number> | null;
  signal: AbortSignal | undefined;
  onProgress: ((p: CsvProgress) => void) | undefined;
}

/** The JavaScript-only options checked, the rest for the core (which checks every name). */
export function splitCsvOptions(options: unknown, fallbackSignal?: AbortSignal): SplitCsvOptions {
  const o = requireObject(options ?? {}, "csv");
  const rows = o.rows as ArrayLike<number> | undefined;
  if (rows !== undefined && (rows === null || typeof rows !== "object" || typeof rows.length !== "number")) {
    throw badParameter("rows", "an array of row indices", rows);
  }
  if (o.requireBothClasses !== undefined && o.requireBothClasses !== true) {
    throw badParameter("requireBothClasses", "true or omitted (training needs both classes)", o.requireBothClasses);
  }
  const core = coreOptions(o, JS_ONLY);
  const missing = core.missing as unknown;
  if (missing !== null && typeof missing === "object" && !Array.isArray(missing)) {
    const c = (missing as { impute?: unknown }).impute;
    if (Object.keys(missing).length !== 1 || typeof c !== "number" || !Number.isFinite(c)) {
      throw badParameter("missing", '"indicator", "constant", "error", or { impute: c } with a finite public constant c', missing);
    }
    if (core.fill !== undefined && core.fill !== c) throw badParameter("fill", `equal to missing.impute (${c}) or unset`, core.fill);
    core.missing = "constant";
    core.fill = c;
  }
  return {
    core,
    rows: rows ?? null,
    signal: optionalSignal(o) ?? fallbackSignal,
    onProgress: optionalFunction(o, "onProgress"),
  };
}
