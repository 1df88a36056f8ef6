// Train a differentially private model on a CSV, save it, and predict another CSV — in Node.
//
//   node examples/node-train.mjs TRAIN.csv LABEL[=POSITIVE] NEW.csv [OUT_PREFIX]
//   e.g. node examples/node-train.mjs tests/fixtures/e2e/clinic.csv outcome=yes tests/fixtures/e2e/clinic.csv
//
// writes OUT_PREFIX-model.json (the model file, docs/reference/MODEL_FORMAT.md) and
// OUT_PREFIX-predictions.csv (the file `dpmargin predict` writes). OUT_PREFIX defaults to "out".
// In your own project: `npm install dpmargin`; here the import resolves to this repository's dist/.
import { writeFile } from "node:fs/promises";
import dp, { csvFile, evaluate } from "dpmargin";

const [train, labelArg, input, prefix = "out"] = process.argv.slice(2);
if (!train || !labelArg || !input) {
  console.error("usage: node examples/node-train.mjs TRAIN.csv LABEL[=POSITIVE] NEW.csv [OUT_PREFIX]");
  process.exit(2);
}
const m = await dp.load();
// The label column and its positive class (a 0/1 label: 1); (ε, δ) is the privacy budget.
const [label, positive] = labelArg.split("=");
const csv = positive === undefined ? { label } : { label, positive };
const { model, report } = await m.trainCsv(csvFile(train), csv, { epsilon: 1, delta: 1e-5 });
console.log(`trained on ${report.plan.n} rows: margin γ = ${report.selectedMargin}, (ε, δ) = (${report.plan.epsilon}, ${report.plan.delta})`);
await writeFile(`${prefix}-model.json`, JSON.stringify(model.toJSON(), null, 2) + "\n");

// Reload the model from its file (as another program would), then score the new rows by name.
const again = m.modelFromJSON(model.toJSON());
const p = await again.predictCsv(csvFile(input));
await writeFile(`${prefix}-predictions.csv`, dp.predictionsCsv(p, again.label));
console.log(`wrote ${prefix}-model.json and ${prefix}-predictions.csv (${p.scores.length} rows)`);
if (p.truth) {  // NEW.csv has the label: yardsticks on your own rows (local, not private)
  const e = evaluate(p.scores, p.truth, { predicted: p.labels });
  console.log(`accuracy ${e.accuracy.toFixed(4)}, ROC AUC ${e.rocAuc?.toFixed(4)} (local, not private)`);
}
