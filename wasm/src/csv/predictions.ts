// The predictions file, written by one function for the CLI (`dpmargin predict`) and the app's
// download: a header `row,score,COLUMN=POSITIVE`, then one `row,score,1|0` line per data row —
// `row` is the 1-based data row number (blank lines not counted; `rowIds: false` leaves it out) —
// and with `kept`, columns copied from the input so the predictions can be joined back to it.
//
// CSV formula injection (OWASP): a cell written from user data (column and class names, kept
// cells) that starts with = + - @, a tab or a carriage return is prefixed with ' so that a
// spreadsheet shows it as text instead of running it; a plain number (-1.5, +3e2) is left as is.

/** Scores and ±1 labels (the model's Predictions; typed here so that this file imports nothing). */
interface Predictions {
  scores: ArrayLike<number>;
  labels: ArrayLike<number>;
}
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A cell of user data made safe to open in a spreadsheet (see above). */
export function neutralizeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** A CSV field: quoted when needed. */
export function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A field written from user data: formula-neutralized, then quoted when needed. */
export function userField(text: string): string {
  return csvField(neutralizeFormula(text));
}

/** What a predictions file adds to the scores, for joining it to its input. */
export interface PredictionsCsvExtras {
  /** A first column `row`: the 1-based data row number (default: true; an explicit extras
   *  object without it leaves it out). */
  rowIds?: boolean;
  /** Columns of the input, appended: their names and, per data row, their cells. */
  kept?: { names: string[]; cells: string[][] };
  /** A binary model's decision threshold T, when the labels were decided by score ≥ T instead of
   *  score > 0 (`dpmargin predict --threshold T`): a column `threshold` after the label says so. */
  threshold?: number;
}

/** The columns an extras object adds before (row) and after (kept) a predictions row. */
export function extrasHeader(extras: PredictionsCsvExtras, taken: string[]): { before: string[]; after: string[] } {
  const used = new Set(["row", ...taken]);
  return {
    before: extras.rowIds ? ["row"] : [],
    after: (extras.kept?.names ?? []).map((name) => userField(used.has(name) ? `${name} (input)` : name)),
  };
}

export function extrasRow(extras: PredictionsCsvExtras, i: number): { before: string; after: string } {
  const kept = extras.kept?.cells[i];
  return {
    before: extras.rowIds ? `${i + 1},` : "",
    after: kept && kept.length > 0 ? "," + kept.map(userField).join(",") : "",
  };
}

/** The predictions CSV text of `predictions` for a model with label `label` (or none). */
export function predictionsCsv(predictions: Predictions, label: { column: string; positive: string } | null,
  extras: PredictionsCsvExtras = { rowIds: true }): string {
  const { scores, labels } = predictions;
  const lines = new Array<string>(scores.length + 1);
  const name = `${label?.column ?? "label"}=${label?.positive ?? "1"}`;
  const threshold = extras.threshold === undefined ? [] : ["threshold"];
  const head = extrasHeader(extras, ["score", name, ...threshold]);
  lines[0] = [...head.before, "score", userField(name), ...threshold, ...head.after].join(",");
  const t = extras.threshold === undefined ? "" : `,${extras.threshold}`;
  for (let i = 0; i < scores.length; i++) {
    const x = extrasRow(extras, i);
    lines[i + 1] = `${x.before}${scores[i]},${labels[i] > 0 ? 1 : 0}${t}${x.after}`;
  }
  return lines.join("\n") + "\n";
}
