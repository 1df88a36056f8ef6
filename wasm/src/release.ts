/**
 * What a released record may hold (docs/reference/PRIVACY.md, "What a training run releases"): every field
 * of a model file and of a run's report, by path, with where its value comes from. A record is
 * checked against this list when it is assembled (the model file when the model is made, the
 * report when the run ends): a field not listed — a new count, a value read off the cells — is an
 * INTERNAL error, never a release. Local facts (accuracies, times, cell counts) live in
 * `result.local`, `table`, and the CLI's `local` and stderr, never here.
 *
 * Provenance of the listed fields:
 * - public inputs: the header's column names, the options and the declared schema, n;
 * - the plan: a function of public inputs only (μ and its split, σ, T, k, γ per candidate);
 * - accounted outputs: the weights, the noisy scores and the selection, the private column
 *   ranges, the levels and classes discovered under the budget, the schema decisions made on
 *   the private cell counts (kind, nullable, class source);
 * - public rules: fixed vocabularies (a reason, a scaling map, a decision's name).
 */
import { DpMarginError } from "./errors.js";

const MODEL_FIELDS = [
  // The file's own fields, the multiclass scheme (an option) and the library version.
  "format", "version", "library", "multiclass",
  // The model: column names (public), weights and intercept (accounted outputs; one row per
  // class for a multiclass model).
  "features[]", "weights[]", "weights[][]", "intercept", "intercept[]",
  // The preprocessing: public options, the released column ranges and their maps (accounted).
  "preprocessing.intercept", "preprocessing.rowNormalization", "preprocessing.normBound",
  "preprocessing.columnRanges", "preprocessing.columnRanges[][]", "preprocessing.columnMaps[]",
  "preprocessing.rangesPrivate",
  // The label: its column (header), positive class and classes (declared, public rule, or
  // discovered under the budget); null for a model trained from arrays without one.
  "label", "label.column", "label.positive", "label.classes[]",
  // The encoding: from the schema (public or private decisions) and discovered levels.
  "encoding.width", "encoding.blocks[].column", "encoding.blocks[].kind", "encoding.blocks[].missing",
  "encoding.blocks[].nullable", "encoding.blocks[].fill", "encoding.blocks[].indicator",
  "encoding.blocks[].textAsMissing", "encoding.blocks[].categories", "encoding.blocks[].buckets",
  "encoding.blocks[].levels[]", "encoding.blocks[].binary", "encoding.blocks[].missingLevel",
  "encoding.blocks[].range[]",
  // The schema, as describeSchema writes it.
  ...schemaFields("schema."),
  // The privacy record: the budget and its split (the plan), the mechanism's names.
  "privacy.epsilon", "privacy.delta", "privacy.mu", "privacy.muRanges", "privacy.muTrain",
  "privacy.muSchema", "privacy.muDiscovery", "privacy.muClass", "privacy.classes", "privacy.multiclass",
  "privacy.neighbouring", "privacy.calibration", "privacy.selector", "privacy.seeded",
  // The selection record (the plan's numbers and the noisy scores), one per class when multiclass.
  ...selectionFields("selection."), ...selectionFields("selection[]."), "selection[].class",
];

function schemaFields(prefix: string): string[] {
  return [
    "format", "version", "label", "classSource", "classDecision", "classes[]", "positive", "positiveRule", "maxLevels",
    "hashBuckets", "missing", "fill", "categories",
    "csv.delimiter", "csv.decimal", "csv.encoding", "csv.missingTokens[]",
    "columns[].name", "columns[].kind", "columns[].missing", "columns[].nullable", "columns[].fill",
    "columns[].range[]", "columns[].categories", "columns[].levels[]", "columns[].buckets",
    "columns[].reason", "columns[].decision",
  ].map((f) => prefix + f);
}

function selectionFields(prefix: string): string[] {
  return ["gamma", "k", "projected", ...candidateFields("candidates[].")].map((f) => prefix + f);
}

function candidateFields(prefix: string): string[] {
  return ["gamma", "k", "projected", "T", "capped", "sigma", "noisyScore"].map((f) => prefix + f);
}

const REPORT_FIELDS = [
  // The resolved plan: public numbers (checked by name below, every field of plan:: describePlan).
  "plan.*",
  "output", "selectedMargin", "selectedCandidate", ...candidateFields("candidates[]."),
  "classes", "classes[]", "perClass", "perClass[].class", "perClass[].index", "perClass[].selectedMargin",
  "perClass[].selectedCandidate", ...candidateFields("perClass[].candidates[]."),
  "columnRanges", "columnRanges[][]", "columnScalings", "columnScalings[].lo", "columnScalings[].hi",
  "columnScalings[].map", "columnScalings[].path", "rangesPrivate", "seeded", "warning", "library",
];

/** Why a column has its kind: a rule's name, never a count or a cell. */
export const RELEASED_REASONS: ReadonlySet<string> = new Set([
  "declared", "ignore", "not in features", "header name reads like an identifier", "almost no values",
  "numbers", "text", "named", "header name",
]);

/** How the positive class was chosen (the schema's positiveRule): a rule's name, a function of
 *  the released class source, classes and positive class. */
export const RELEASED_POSITIVE_RULES: ReadonlySet<string> = new Set([
  "named", "binary01", "second-declared", "second-discovered",
]);

/** How a decision was made, in a released record ("local" never is). */
export const RELEASED_DECISIONS: ReadonlySet<string> = new Set([
  "declared", "public", "private", "declared, nullable private", "public, nullable private",
]);

type Kind = "model" | "report";

function matcher(patterns: string[]): (path: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.endsWith(".*")));
  const prefixes = patterns.filter((p) => p.endsWith(".*")).map((p) => p.slice(0, -1));
  return (path) => exact.has(path) || prefixes.some((p) => path.startsWith(p));
}

const ALLOWED: Record<Kind, (path: string) => boolean> = {
  model: matcher(MODEL_FIELDS),
  report: matcher(REPORT_FIELDS),
};

/** Every leaf path of a record ("a.b[].c"), with its value. */
export function releasedPaths(record: unknown, prefix = ""): Array<[string, unknown]> {
  if (Array.isArray(record)) {
    return record.length === 0 ? [[`${prefix}[]`, undefined]] : record.flatMap((v) => releasedPaths(v, `${prefix}[]`));
  }
  if (record !== null && typeof record === "object" && !ArrayBuffer.isView(record)) {
    const out: Array<[string, unknown]> = [];
    for (const [k, v] of Object.entries(record as Record<string, unknown>)) out.push(...releasedPaths(v, prefix ? `${prefix}.${k}` : k));
    return out.length ? out : [[prefix, record]];
  }
  if (ArrayBuffer.isView(record)) return [[`${prefix}[]`, undefined]];
  return [[prefix, record]];
}

/**
 * Throws INTERNAL naming the first field of `record` that a released record of this kind may not
 * hold, or a reason or decision outside the public vocabulary. Returns the record.
 */
export function checkReleased<T>(kind: Kind, record: T): T {
  for (const [path, value] of releasedPaths(record)) {
    if (!ALLOWED[kind](path)) {
      throw new DpMarginError("INTERNAL", `the ${kind} would release "${path}", which is not on the list of released fields (wasm/src/release.ts)`);
    }
    if (path.endsWith(".reason") && !RELEASED_REASONS.has(String(value))) {
      throw new DpMarginError("INTERNAL", `the ${kind} would release the reason ${JSON.stringify(value)}, not a public rule's name`);
    }
    if (path.endsWith("positiveRule") && !RELEASED_POSITIVE_RULES.has(String(value))) {
      throw new DpMarginError("INTERNAL", `the ${kind} would release the positive-class rule ${JSON.stringify(value)}, not a public rule's name`);
    }
    if ((path.endsWith(".decision") || path.endsWith("classDecision")) && !RELEASED_DECISIONS.has(String(value))) {
      throw new DpMarginError("INTERNAL", `the ${kind} would release a decision made ${JSON.stringify(value)} (only public or private decisions are released)`);
    }
  }
  return record;
}
