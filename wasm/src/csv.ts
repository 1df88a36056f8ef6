// A plain CSV reader for numeric tables (PapaParse). Hardening, streaming and preprocessing
// options belong to the data-pipeline work; this reader already names row and column in every
// error. Rows are numbered as lines of the file (the header is line 1).
import Papa from "papaparse";
import { DpMarginError, badParameter } from "./errors.js";

export interface CsvTable {
  features: Float32Array;
  columns: number;
  featureNames: string[];
  /** ±1 per row when a label column was asked for. */
  labels: Int8Array | null;
  label: { column: string; positive: string } | null;
  rows: number;
}

export interface CsvOptions {
  /** Label column name (training, or evaluation). */
  label?: string;
  /** Label value of the positive class; default "1" when the column holds only 0/1. */
  positive?: string;
  /** Feature columns to read, in this order (prediction: the model's features). */
  features?: readonly string[];
  /** Training data needs both classes (default true); evaluation data need not. */
  requireBothClasses?: boolean;
}

function parseNumber(text: string, line: number, column: string): number {
  const t = text.trim();
  if (t === "") throw new DpMarginError("NON_NUMERIC", `missing value at line ${line}, column "${column}"`);
  const v = Number(t);
  if (Number.isNaN(v) && !/^nan$/i.test(t)) {
    throw new DpMarginError("NON_NUMERIC", `non-numeric value ${JSON.stringify(t)} at line ${line}, column "${column}"`);
  }
  if (!Number.isFinite(v)) {
    throw new DpMarginError("NON_FINITE", `non-finite value ${JSON.stringify(t)} at line ${line}, column "${column}"`);
  }
  return v;
}

export function readCsvTable(text: string, options: CsvOptions = {}): CsvTable {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { header: false, skipEmptyLines: "greedy" });
  const fatal = parsed.errors.find((e) => e.type === "Quotes");
  if (fatal) {
    throw new DpMarginError("CSV_PARSE", `${fatal.message} at line ${(fatal.row ?? 0) + 1}`);
  }
  const rows = parsed.data;
  if (rows.length === 0) throw new DpMarginError("CSV_PARSE", "the file is empty");
  const header = rows[0].map((h) => h.trim());
  const seen = new Set<string>();
  for (const h of header) {
    if (seen.has(h)) throw new DpMarginError("CSV_PARSE", `duplicate column name ${JSON.stringify(h)} in the header`);
    seen.add(h);
  }
  if (rows.length === 1) throw new DpMarginError("CSV_PARSE", "the file has a header but no data rows");
  let labelIndex = -1;
  if (options.label !== undefined) {
    labelIndex = header.indexOf(options.label);
    if (labelIndex < 0) {
      throw new DpMarginError("LABEL_NOT_FOUND",
        `label column ${JSON.stringify(options.label)} is not in the header (${header.map((h) => JSON.stringify(h)).join(", ")})`, "label");
    }
  }
  const featureNames = options.features ? [...options.features] : header.filter((_, j) => j !== labelIndex);
  const featureIndex = featureNames.map((name) => {
    const j = header.indexOf(name);
    if (j < 0) throw new DpMarginError("CSV_PARSE", `feature column ${JSON.stringify(name)} is not in the header`);
    return j;
  });
  const n = rows.length - 1;
  const d = featureNames.length;
  if (d === 0) throw new DpMarginError("CSV_PARSE", "no feature columns");
  const features = new Float32Array(n * d);
  const rawLabels: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = rows[i + 1];
    const line = i + 2;
    if (row.length !== header.length) {
      throw new DpMarginError("RAGGED_ROW", `line ${line} has ${row.length} fields; the header has ${header.length}`);
    }
    for (let j = 0; j < d; j++) features[i * d + j] = parseNumber(row[featureIndex[j]], line, featureNames[j]);
    if (labelIndex >= 0) rawLabels.push(row[labelIndex].trim());
  }
  let labels: Int8Array | null = null;
  let label: CsvTable["label"] = null;
  if (labelIndex >= 0) {
    const values = new Set(rawLabels);
    let positive = options.positive;
    if (positive === undefined) {
      if ([...values].every((v) => v === "0" || v === "1")) positive = "1";
      else {
        throw badParameter("positive", `given (the label column holds ${[...values].slice(0, 5).map((v) => JSON.stringify(v)).join(", ")}${values.size > 5 ? ", …" : ""})`, undefined);
      }
    }
    labels = Int8Array.from(rawLabels, (v) => (v === positive ? 1 : -1));
    label = { column: options.label!, positive };
    const positives = labels.reduce((a, v) => a + (v === 1 ? 1 : 0), 0);
    if ((options.requireBothClasses ?? true) && (positives === 0 || positives === n)) {
      throw new DpMarginError("ONE_CLASS",
        `every row is ${positives === 0 ? "negative" : "positive"} for positive value ${JSON.stringify(positive)} in column ${JSON.stringify(options.label)}`);
    }
  }
  return { features, columns: d, featureNames, labels, label, rows: n };
}
