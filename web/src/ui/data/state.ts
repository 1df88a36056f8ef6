// The Data tab's state: the loaded table, the core's latest preview of the run, and what the
// user DECLARED — only what they explicitly chose or typed (or imported). Everything else is
// the run's decision, shown from the core's preview (docs/reference/PRIVACY_SCHEMA.md "The schema").
import type { CsvPreview, PreviewColumn } from "dpmargin";
import type { Source, TableSummary } from "../../protocol.ts";

export type Kind = "numeric" | "categorical" | "ignore";
export type Missing = "indicator" | "constant" | "error" | "level";
export type Categories = "auto" | "discover" | "hash" | "declared";
/** How the label's classes are fixed: "" leaves it to the run (decided privately), the others
 *  are declarations (the core's classSource). */
export type ClassMode = "" | "binary01" | "discover" | "positive" | "declared";

/** A column's declarations: a field is set only when the user chose it. */
export interface Declared {
  kind?: Kind;
  missing?: Missing;
  nullable?: boolean;
  fill?: number;
  categories?: Categories;
  /** Declared levels as typed ("a, b, c"). */
  levels?: string;
}

/** How the label column was chosen (said under the picker). */
export type LabelHow = "header" | "user" | "sample" | "import" | "none";

export interface DataState {
  table: TableSummary | null;
  source: Source | null;
  /** The core's preview of the run with the current declarations and options (null until the
   *  first one arrives; the table's `proposal` has nothing declared). */
  preview: CsvPreview | null;
  declared: Map<string, Declared>;
  label: string;
  labelHow: LabelHow;
  classMode: ClassMode;
  /** Typed by the user (never picked from the file's values). */
  positive: string;
  declaredClasses: string;
  /** Table-level fields, declared only by an imported schema file. */
  imported: { csv?: CsvPreviewCsv; maxLevels?: number; hashBuckets?: number };
}

type CsvPreviewCsv = { delimiter: string; decimal: "." | "," | "either"; encoding: "utf-8" | "latin1"; missingTokens: string[] };

export function emptyState(): DataState {
  return {
    table: null, source: null, preview: null, declared: new Map(), label: "", labelHow: "none",
    classMode: "", positive: "", declaredClasses: "", imported: {},
  };
}

/** The latest preview, or the table's proposal while the first one is on its way. */
export const shownPreview = (s: DataState): CsvPreview | null => s.preview ?? s.table?.proposal ?? null;

export function previewColumn(s: DataState, name: string): PreviewColumn | undefined {
  return shownPreview(s)?.columns.find((c) => c.name === name);
}

export const parseList = (text: string) => text.split(",").map((x) => x.trim()).filter((x) => x !== "");

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** How a decision is made, in the column table's words. */
export function decisionText(decision: string | null | undefined): string {
  if (decision === "declared") return "declared by you";
  if (decision === "public") return "public rule";
  if (decision === "private") return "decided in the run, privately";
  return "";
}
