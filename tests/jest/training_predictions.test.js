// The model's predictions on its own training rows, from the rows the module holds after training
// (trainCsv's `trainingPredictions`; issue 18: the CLI no longer reads the training file a second
// time for its train accuracy). They must be exactly what `model.predictCsv` computes from the
// same file: the same scores (bit for bit), labels, truth and accuracy, on every kind of table —
// numeric, text labels, categorical and missing cells, multiclass (3 and 50 classes, a class
// discovery drops), missing labels, a row split, declared ranges and maps, no intercept, clip.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile } from "dpmargin";
import { cli } from "./helpers.js";
import { mulberry32, separable, toCsv } from "./synthetic.js";

const fixture = (path) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));
const sample = fileURLToPath(new URL("../../web/public/samples/breast-cancer.csv", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "dpmargin-trainpred-"));
const write = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const BUDGET = { epsilon: 1, delta: 1e-5, seed: 1 };

// A binary table with text labels, some of them neither "yes" nor "no": "not yes" in training
// and in predictCsv's truth (a missing label is refused by training: no row is ever dropped).
function messyBinary() {
  const rand = mulberry32(7);
  const lines = ["a,b,colour,y"];
  for (let i = 0; i < 400; i++) {
    const a = (rand() * 4 - 2).toFixed(3);
    const b = rand() < 0.1 ? "" : (rand() * 100).toFixed(1);
    const colour = ["red", "green", "blue", ""][Math.floor(rand() * 4)];
    const y = i % 37 === 0 ? "maybe" : i % 53 === 0 ? "unknown" : Number(a) + (colour === "red" ? 1 : 0) > 0.3 ? "yes" : "no";
    lines.push(`${a},${b},${colour},${y}`);
  }
  return lines.join("\n") + "\n";
}

// Three common classes and one of 3 rows: discovery under the budget leaves the rare one out,
// so its rows are "no class" (negative in every problem; truth −1).
function rareClass() {
  const rand = mulberry32(11);
  const lines = ["u,v,kind"];
  for (let i = 0; i < 600; i++) {
    const k = i % 200 === 0 ? 3 : i % 3;
    const u = (k === 0 ? 1 : k === 1 ? -1 : 0) + rand() - 0.5;
    const v = (k === 2 ? 1 : k === 3 ? -1 : 0) + rand() - 0.5;
    lines.push(`${u.toFixed(4)},${v.toFixed(4)},${["p", "q", "r", "s"][k]}`);
  }
  return lines.join("\n") + "\n";
}

const numeric = write("numeric.csv", toCsv(separable(1500, 10, 0.05, 30, 3)));
const cases = [
  ["numeric 0/1 label", numeric, { label: "label" }, {}],
  ["numeric, public ranges, no intercept, clip", numeric, { label: "label" },
    { rangeShare: 0, columnRanges: Array(10).fill([-1, 1]), intercept: false, rowNormalization: "clip" }],
  ["numeric, declared signed-log and symmetric maps", numeric, { label: "label" },
    { rangeShare: 0, columnRanges: Array(10).fill([-1, 1]), columnMaps: Array.from({ length: 10 }, (_, j) => (j % 2 ? "signed-log" : "symmetric")) }],
  ["breast-cancer sample (text labels)", sample, { label: "diagnosis", positive: "malignant" }, {}],
  ["categorical + missing cells (churn)", fixture("csv_engine/churn_categorical.csv"), { label: "churn", positive: "Yes" }, {}],
  ["labels outside the two classes, missing cells", write("messy.csv", messyBinary()), { label: "y", positive: "yes" }, {}],
  ["multiclass, categorical feature (3 classes)", fixture("csv_engine/multiclass_3.csv"),
    { label: "species", classes: ["Adelie", "Chinstrap", "Gentoo"] }, {}],
  ["multiclass, 50 classes", fixture("csv_engine/multiclass_50.csv"),
    { label: "class", classes: Array.from({ length: 50 }, (_, k) => `c${String(k).padStart(2, "0")}`) }, {}],
  ["multiclass, a class discovery drops", write("rare.csv", rareClass()), { label: "kind" }, {}],
  ["a row split (the app's held-out test)", numeric, { label: "label", rows: Array.from({ length: 1500 }, (_, i) => i).filter((i) => i % 5 !== 0) }, {}],
];

let dp;
beforeAll(async () => {
  dp = await load();
});

const accuracy = (labels, truth) => {
  let correct = 0;
  for (let i = 0; i < truth.length; i++) correct += labels[i] === truth[i] ? 1 : 0;
  return correct / truth.length;
};

describe("trainingPredictions equal predictCsv on the training file", () => {
  test.each(cases)("%s", async (_, file, csv, options) => {
    const trained = await dp.trainCsv(csvFile(file), csv, { ...BUDGET, ...options, trainingPredictions: true });
    const { model, table, trainingPredictions: fit } = trained;
    expect(fit).toBeTruthy();
    const multiclass = model.classes !== null;
    const again = await model.predictCsv(csvFile(file), {
      label: table.label.column, ...(multiclass ? {} : { positive: table.label.positive }),
      ...(csv.rows ? { rows: csv.rows } : {}),
    });
    expect(fit.labels.length).toBe(table.rows);
    expect(again.table.rows).toBe(table.rows);  // one per row (it was n × K for a multiclass model)
    expect(fit.scores).toEqual(again.scores);  // bit for bit: the same prepared rows, the same weights
    expect(fit.labels).toEqual(again.labels);
    expect(fit.truth).toEqual(again.truth);
    if (multiclass) expect(fit.predicted).toEqual(again.predicted);
    expect(accuracy(fit.labels, fit.truth)).toBe(accuracy(again.labels, again.truth));
    // Local, not released: nothing of it in the model file or the report.
    expect(JSON.stringify(model.toJSON())).not.toContain("trainingPredictions");
    expect(trained.report).not.toHaveProperty("trainingPredictions");
  });
});

test("the rare class of the discovery case is really left out (its rows' truth is −1)", async () => {
  const { trainingPredictions: fit, model } = await dp.trainCsv(csvFile(join(dir, "rare.csv")), { label: "kind" },
    { ...BUDGET, trainingPredictions: true });
  expect(model.classes).not.toContain("s");
  expect(Array.from(fit.truth).filter((t) => t === -1)).toHaveLength(3);
});

describe("with the rows in two shard workers, the shards score them before they stop", () => {
  test.each([cases[0], cases[4], cases[6], cases[8]])("%s", async (_, file, csv, options) => {
    const { model, table, trainingPredictions: fit } = await dp.trainCsv(csvFile(file), csv,
      { ...BUDGET, ...options, workers: 2, trainingPredictions: true });
    const multiclass = model.classes !== null;
    const again = await model.predictCsv(csvFile(file), {
      label: table.label.column, ...(multiclass ? {} : { positive: table.label.positive }),
    });
    expect(fit.scores).toEqual(again.scores);
    expect(fit.labels).toEqual(again.labels);
    expect(fit.truth).toEqual(again.truth);
  });
});

test("without the option there is none; a bad value is refused", async () => {
  const plain = await dp.trainCsv(csvFile(numeric), { label: "label" }, { ...BUDGET, maxIterations: 5 });
  expect(plain.trainingPredictions).toBeUndefined();
  await expect(dp.trainCsv(csvFile(numeric), { label: "label" }, { ...BUDGET, trainingPredictions: "yes" }))
    .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "trainingPredictions" });
});

test("train() from arrays: the same predictions as model.predict on the rows", async () => {
  const data = separable(800, 6, 0.05, 10, 4);
  const { model, trainingPredictions: fit } = await dp.train(data, { ...BUDGET, trainingPredictions: true });
  const again = model.predict(data.features);
  expect(fit.scores).toEqual(again.scores);
  expect(fit.labels).toEqual(again.labels);
  expect(fit.truth).toEqual(Int8Array.from(data.labels));
});

test("the CLI's trainAccuracy is the written model's accuracy on the training file", async () => {
  for (const [file, flags] of [
    [numeric, ["--label", "label"]],
    [fixture("csv_engine/churn_categorical.csv"), ["--label", "churn", "--positive", "Yes"]],
    [fixture("csv_engine/multiclass_3.csv"), ["--label", "species", "--classes", "Adelie,Chinstrap,Gentoo"]],
  ]) {
    const out = join(dir, `model-${Math.random().toString(36).slice(2)}.json`);
    const r = cli("train", file, ...flags, "--epsilon", "1", "--delta", "1e-5", "--seed", "2", "--out", out, "--json");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    const model = dp.modelFromJSON(readFileSync(out, "utf8"));
    const p = await model.predictCsv(csvFile(file), { label: report.label.column });
    expect(report.local.trainAccuracy).toBe(accuracy(p.labels, p.truth));
  }
}, 120_000);  // three CLI processes: a limit against hangs, not a speed claim

// The CLI's label warnings read the label column's counts from the training read's own scan
// (table.labelSummary) instead of scanning the file again with summarizeCsv: the same counts.
describe("table.labelSummary is summarizeCsv's summary of the label column", () => {
  const ages = write("ages.csv", ["x,age", ...Array.from({ length: 300 }, (_, i) => `${(i % 17) / 17},${20 + (i % 60)}`)].join("\n") + "\n");
  test.each([
    ["numeric 0/1 label", numeric, { label: "label" }],
    ["breast-cancer sample (text labels)", sample, { label: "diagnosis", positive: "malignant" }],
    ["churn (text label, missing cells)", fixture("csv_engine/churn_categorical.csv"), { label: "churn", positive: "Yes" }],
    ["a numeric label of 60 values, one against the rest", ages, { label: "age", positive: "30" }],
  ])("%s", async (_, file, csv) => {
    const { table } = await dp.trainCsv(csvFile(file), csv, { ...BUDGET, maxIterations: 2 });
    const summary = await dp.summarizeCsv(csvFile(file), { previewRows: 0, maxValues: 0 });
    expect(table.labelSummary).toEqual(summary.columns.find((c) => c.name === csv.label));
    expect(table.labelSummary.values).toEqual([]);
  });
});
