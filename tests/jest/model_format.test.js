// docs/reference/MODEL_FORMAT.md is precise enough to apply a model without dpmargin: examples/predict.py
// (Python 3, standard library only) must give the package's scores to 1e-6 and its classes.
import { existsSync, mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { load, csvFile } from "dpmargin";
import { repoRoot } from "./helpers.js";
import { mulberry32 } from "./synthetic.js";

jest.setTimeout(120_000);
const PYTHON = "/usr/bin/python3";
const havePython = existsSync(PYTHON);
const maybe = havePython ? test : test.skip;
if (!havePython) console.warn(`model_format.test.js: ${PYTHON} not found — the examples/predict.py checks are skipped`);

const dir = mkdtempSync(join(tmpdir(), "dpmargin-format-"));
const rand = mulberry32(23);
// Numeric columns (one with missing cells), a discovered categorical, a hashed one, text labels.
const colors = ["red", "green", "blue"];
const rows = ["age,amount,color,city,outcome,species"];
for (let i = 0; i < 1200; i++) {
  const age = 20 + 50 * rand(), amount = 1000 * rand() ** 2;
  const color = colors[Math.floor(rand() * 3)];
  const city = `c${Math.floor(rand() * 30)}`;
  const y = age / 70 + amount / 1000 + (color === "red" ? 0.5 : 0) + 0.3 * rand() > 1.2;
  const species = y ? (rand() < 0.5 ? "=x" : "b") : "c";
  rows.push(`${rand() < 0.05 ? "" : age.toFixed(2)},${amount.toFixed(1)},${rand() < 0.05 ? "NA" : color},${city},${y ? "yes" : "no"},${species}`);
}
const data = join(dir, "data.csv");
writeFileSync(data, rows.join("\n") + "\n");

function python(model, csv) {
  const r = spawnSync(PYTHON, [join(repoRoot, "examples/predict.py"), model, csv], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`predict.py failed: ${r.stderr}`);
  return r.stdout.trim().split("\n").map((line) => line.split(","));
}

describe("examples/predict.py applies a model as dpmargin does", () => {
  let dp;
  beforeAll(async () => { dp = await load(); });

  const cases = [
    ["binary, discovered categories, unit-norm", { label: "outcome", positive: "yes", ignore: ["species"], categories: "discover" }, {}],
    ["binary, hashed categories, clip, b = 2, no intercept", { label: "outcome", positive: "yes", ignore: ["species"], categories: "hash" },
      { rowNormalization: "clip", normBound: 2, intercept: false }],
    ["multiclass (3 classes, one named like a formula)", { label: "species", classes: ["=x", "b", "c"], ignore: ["outcome"] }, { rangeShare: 0 }],
  ];
  maybe.each(cases)("%s", async (_name, csv, options) => {
    const { model } = await dp.trainCsv(csvFile(data), csv, { epsilon: 4, delta: 1e-6, seed: 9, maxIterations: 30, ...options });
    const file = join(dir, `model-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(model.toJSON()));
    const p = await model.predictCsv(csvFile(data));
    const out = python(file, data);
    const multiclass = model.classes !== null;
    const K = multiclass ? model.classes.length : 1;
    expect(out[0]).toEqual(multiclass ? ["row", "species", "score:=x", "score:b", "score:c"] : ["row", "score", "outcome=yes"]);
    expect(out).toHaveLength(1201);
    let worst = 0;
    for (let i = 0; i < 1200; i++) {
      const line = out[i + 1];
      expect(line[0]).toBe(String(i + 1));
      for (let k = 0; k < K; k++) {
        const py = Number(line[multiclass ? 2 + k : 1]);
        worst = Math.max(worst, Math.abs(py - p.scores[i * K + k]));
      }
      if (multiclass) expect(line[1]).toBe(p.predicted[i] === "=x" ? "'=x" : p.predicted[i]);
      else expect(Number(line[2])).toBe(p.labels[i] > 0 ? 1 : 0);
    }
    expect(worst).toBeLessThan(1e-6);
  });

  maybe("preprocessing.columnMaps: min-max (the default), symmetric, signed-log", async () => {
    const { model } = await dp.trainCsv(csvFile(data), { label: "outcome", positive: "yes", features: ["age", "amount"], missing: "constant" },
      { epsilon: 4, delta: 1e-6, seed: 9, maxIterations: 5, rangeShare: 0, intercept: false, rowNormalization: "clip", normBound: 100 });
    const file = model.toJSON();
    const plain = join(dir, "plain.json");
    writeFileSync(plain, JSON.stringify({ ...file, preprocessing: { ...file.preprocessing, columnRanges: [[20, 70], [0, 1000]] } }));
    const mapped = join(dir, "mapped.json");
    writeFileSync(mapped, JSON.stringify({ ...file, preprocessing: { ...file.preprocessing,
      columnRanges: [[-50, 50], [-Math.log1p(1000), Math.log1p(1000)]], columnMaps: ["symmetric", "signed-log"] } }));
    const defaults = join(dir, "defaults.json");
    writeFileSync(defaults, JSON.stringify({ ...file, preprocessing: { ...file.preprocessing,
      columnRanges: [[20, 70], [0, 1000]], columnMaps: ["min-max", "min-max"] } }));
    const small = join(dir, "small.csv");
    writeFileSync(small, "age,amount,outcome\n45,250,yes\n-80,-20,no\n");
    const [w0, w1] = file.weights;
    const f32 = (x) => Math.fround(x);
    // min-max with clamping; symmetric x/hi clamped to [-1, 1]; signed-log sign(x)·log1p(|x|)/hi.
    const expectScores = (out, rowsX) => rowsX.forEach(([a, b], i) => expect(Number(out[i + 1][1])).toBeCloseTo(w0 * f32(a) + w1 * f32(b), 6));
    expectScores(python(plain, small), [[(45 - 20) / 50, 250 / 1000], [0, 0]]);
    expect(python(defaults, small)).toEqual(python(plain, small));
    const hi = Math.log1p(1000);
    expectScores(python(mapped, small), [[45 / 50, Math.log1p(250) / hi], [-1, -Math.log1p(20) / hi]]);
    // The plain ranges agree with the package too.
    const p = dp.modelFromJSON(readFileSync(plain, "utf8")).predict([[45, 250], [-80, -20]]);
    const out = python(plain, small);
    expect(Number(out[1][1])).toBeCloseTo(p.scores[0], 6);
    expect(Number(out[2][1])).toBeCloseTo(p.scores[1], 6);
  });
});
