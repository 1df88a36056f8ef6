// The predictions file, written by one function for the CLI (`dpmargin predict`) and the app's
// download: a header `score,COLUMN=POSITIVE`, then one `score,1|0` line per data row.
import type { Predictions } from "../model/model.js";

function field(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The predictions CSV text of `predictions` for a model with label `label` (or none). */
export function predictionsCsv(predictions: Predictions, label: { column: string; positive: string } | null): string {
  const { scores, labels } = predictions;
  const lines = new Array<string>(scores.length + 1);
  lines[0] = `score,${field(`${label?.column ?? "label"}=${label?.positive ?? "1"}`)}`;
  for (let i = 0; i < scores.length; i++) lines[i + 1] = `${scores[i]},${labels[i] > 0 ? 1 : 0}`;
  return lines.join("\n") + "\n";
}
