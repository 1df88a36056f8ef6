// dpmargin from a plain static page: the import map in index.html resolves "dpmargin" to the
// package's browser build (dist/index.js); locateFile tells it where the .wasm is.
import { load, evaluate } from "dpmargin";

const status = document.getElementById("status");
const output = document.getElementById("output");

// A tiny embedded table: two numeric features; label 1 when x + y is large.
const rows = ["x,y,label"];
for (let i = 0; i < 200; i++) {
  const x = ((i * 37) % 100) / 100, y = ((i * 61) % 100) / 100;
  rows.push(`${x},${y},${x + y > 1 ? 1 : 0}`);
}
const csv = rows.join("\n") + "\n";

try {
  const dp = await load({ locateFile: (file) => new URL(`../../dist/wasm/${file}`, import.meta.url).href });
  // A CSV given as text; ε = 4 because the table is tiny (the seed only makes this demo repeatable:
  // a seeded run is NOT private — leave it out for real data).
  const { model, report } = await dp.trainCsv(csv, { label: "label" }, { epsilon: 4, delta: 1e-3, seed: 1 });
  const p = await model.predictCsv(csv);
  const e = evaluate(p.scores, p.truth, { predicted: p.labels });
  const file = model.toJSON();
  output.textContent = [
    `rows: ${report.plan.n}, features: ${file.features.join(", ")}`,
    `privacy: ε = ${report.plan.epsilon}, δ = ${report.plan.delta}${report.seeded ? " (seeded: not private)" : ""}`,
    `selected margin γ = ${report.selectedMargin}`,
    `weights: ${JSON.stringify(file.weights)}, intercept: ${file.intercept}`,
    `training accuracy ${(100 * e.accuracy).toFixed(1)}%, ROC AUC ${e.rocAuc.toFixed(3)} (local, not private)`,
  ].join("\n");
  status.textContent = "Trained.";
  document.body.dataset.state = "trained";
  document.body.dataset.accuracy = String(e.accuracy);
} catch (error) {
  status.textContent = `Error: ${error.code ?? ""} ${error.message}`;
  document.body.dataset.state = "error";
}
