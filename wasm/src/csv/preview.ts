// The preview of a training run on a CSV (run::previewCsv): one streaming pass of the core's
// reader over the rows the run would train on, then everything the run would decide — the
// public facts, every column's kind and nullable and HOW each is decided, the encoding's width
// and, with run options, the plan — by the run's own functions. Local and NOT private: it
// describes the user's own data to the user, labels its exact figures as local, and is never
// part of a model file or a report.
import type { CoreModule } from "../wasm/dpmargin_core.mjs";
import { badParameter } from "../errors.js";
import { dispose, unwrap } from "../module/status.js";
import { coreOptions, requireObject } from "../options.js";
import { cancelled } from "../train/chunked.js";
import { TRAIN_JS_ONLY, type TrainOptions } from "../train/train.js";
import type { Plan } from "../types.js";
import { isCsvSource, type CsvSource } from "./source.js";
import { runPasses } from "./passes.js";
import { splitCsvOptions, type CsvReadOptions } from "./options.js";
import { columnSummaries, takeListing, type ColumnSummary } from "./summary.js";

/** How a decision of the schema is made: by you ("declared"), by a rule of the header and the
 *  options ("public"), or in the run on noisy cell counts under the budget ("private"). */
export type SchemaDecision = "declared" | "public" | "private";

/** An error the run would stop with (the core's code, the parameter it names, its message). */
export interface PreviewError { code: string; parameter: string; message: string }

/** One column of a {@link CsvPreview}. */
export interface PreviewColumn {
  name: string;
  /** The kind the run would give the column. When `kindDecision` is "private" this is the
   *  LOCAL expectation (the exact counts of your file): the run decides on noisy counts.
   *  Absent when the options do not fit the table (`schemaError`). */
  kind?: "ignore" | "numeric" | "categorical" | "label";
  kindDecision?: SchemaDecision;
  /** May the column be missing (a missing indicator or level)? null for the label and ignored
   *  columns. With `nullableDecision` "private": the local expectation. */
  nullable?: boolean | null;
  nullableDecision?: SchemaDecision | null;
  /** True when `kind` or `nullable` is the local expectation of a private decision. */
  expectedLocally?: boolean;
  /** The core's reason for the kind ("numbers", "text", "header name reads like an identifier",
   *  "declared", "named", …): a rule's name, never a count. */
  reason?: string;
  missing?: "error" | "constant" | "indicator" | "level";
  fill?: number;
  range?: [number, number];
  /** A categorical column's levels: declared, discovered under the budget, hashed; "auto" when
   *  no run options were given (the budget decides between discovery and hashing). */
  categories?: "declared" | "discover" | "hash" | "auto";
  /** The categories were "auto" and the budget's public rule chose `categories`. */
  categoriesAuto?: boolean;
  levels?: string[];
  buckets?: number;
  /** Model columns this column becomes; `widthEstimate`: counted from the local values that
   *  discovery is expected to find. */
  width?: number;
  widthEstimate?: boolean;
  /** Exact facts of your file (cell counts, most frequent values): LOCAL, not private. */
  local: ColumnSummary;
}

/** What {@link DpMargin.previewCsv} returns. `private: false`: a local view, never released. */
export interface CsvPreview {
  private: false;
  /** Training rows (with `rows`, the selected ones): public, like n. */
  rows: number;
  /** Data rows in the file. */
  fileRows: number;
  header: string[];
  /** The dialect, from the header line (public rules). */
  delimiter: string;
  decimal: "." | "," | "either";
  encoding: "utf-8" | "latin1";
  /** The label: named by you ("named", decision "declared") or proposed by its header name
   *  ("header name", decision "public"); null when neither. */
  label: { column: string; reason: "named" | "header name"; decision: "declared" | "public" } | null;
  /** Header names that read like a label (several: none is chosen). */
  labelCandidates: string[];
  /** Columns left out because their header name reads like an identifier (a public rule). */
  identifiers: string[];
  /** The label's classes: their source, how it is decided, and the public positive-class rule. */
  classes: {
    /** With decision "private": the local expectation of the run's decision. */
    source: "declared" | "binary01" | "positive" | "discover";
    decision: "declared" | "private";
    /** The core's rule in words (which class is positive; 3 or more classes: the model). */
    rule: string;
    /** Declared or 0/1 classes (public); null when they are discovered. */
    classes: string[] | null;
    /** The positive class when public (named, 0/1, the second of two declared). */
    positive: string | null;
    /** "named", "binary01", "second-declared", "second-discovered", or "" (3 or more classes). */
    positiveRule: string;
    /** The classes and positive class under the local expectation (discovered: the local values
     *  above the budget's threshold): LOCAL, not private. */
    local: { classes: string[]; positive: string | null; estimate: boolean };
  } | null;
  columns: PreviewColumn[];
  /** The model's columns (the encoding's width and feature names) under the local
   *  expectation; `estimate` when discovered levels or classes were counted from the local
   *  values. null with `schemaError`. */
  modelColumns: { width: number; estimate: boolean; featureNames: string[]; note: string } | null;
  /** With run options: the plan the run would make (the core's resolution: the schema
   *  release, the discovery reservation, d, μ and its split, the candidates) — the run's own
   *  whenever its private decisions agree with the exact counts and nothing is discovered. */
  plan: Plan | null;
  /** What the run would refuse instead (a bad option, no label, too few rows, …). */
  planError: PreviewError | null;
  /** The CSV options do not fit the table (e.g. an unknown column). */
  schemaError: PreviewError | null;
  /** LOCAL, not private: the first rows as text, with their file lines. */
  local: { note: string; preview: string[][]; previewLines: number[] };
}

/** Options of {@link DpMargin.previewCsv}: the CSV options of `trainCsv` (the schema you
 *  declare, `rows`, …), plus the preview's own. */
export interface PreviewOptions extends CsvReadOptions {
  /** Data rows kept as text in `local.preview` (default 8, at most 1000). */
  previewRows?: number;
  /** Values listed per column in `local.values` (default 50). */
  maxValues?: number;
}

export async function previewCsv(core: CoreModule, source: CsvSource, csv: PreviewOptions = {},
  options?: TrainOptions): Promise<CsvPreview> {
  if (!isCsvSource(source)) throw badParameter("source", "CSV text, a Blob/File, or { open() }", source);
  const o = { ...requireObject(csv, "csv") };
  const { previewRows, maxValues } = takeListing(o);
  const split = splitCsvOptions(o);
  const run = options === undefined ? null : coreOptions(requireObject(options, "options"), TRAIN_JS_ONLY);
  if (split.signal?.aborted) throw cancelled("reading the CSV");
  const preview = new core.CsvPreview();
  try {
    unwrap(preview.start(split.core, run, split.rows, previewRows));
    await runPasses(preview, source, split.signal, split.onProgress);
    const p = unwrap(preview.preview(maxValues)) as Record<string, unknown>;
    const columns = (p.columns as Record<string, unknown>[]).map((c) => {
      const { local, ...decided } = c;
      return { ...decided, local: columnSummaries({ columns: [local] })[0] } as PreviewColumn;
    });
    return { ...p, columns } as unknown as CsvPreview;
  } finally {
    dispose(preview);
  }
}
