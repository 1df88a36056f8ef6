// The joint multiclass learner, the default for 3 or more classes (docs/reference/MULTICLASS.md): one
// noisy GD on the K × d weights through the public API, worker shards, the model file (version 3:
// one selection record), the command line and the standalone Python predictor — the same
// predictions everywhere.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "dpmargin";
import { cli } from "./helpers.js";

let dp;
beforeAll(async () => {
  dp = await load();
});

function clusters(n, d, K, spread, seed) {
  let s = seed >>> 0;
  const uniform = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
  const gauss = () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  const features = new Float32Array(n * d);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = i % K;
    labels[i] = k;
    for (let j = 0; j < d; j++) features[i * d + j] = (j === k ? 1 : 0) + spread * gauss();
  }
  return { features, columns: d, labels, classes: Array.from({ length: K }, (_, k) => `class ${k}`) };
}
const accuracy = (predicted, truth) => {
  let ok = 0;
  for (let i = 0; i < truth.length; i++) ok += predicted[i] === truth[i] ? 1 : 0;
  return ok / truth.length;
};
const budget = { epsilon: 1, delta: 1e-5 };
const train = clusters(3000, 8, 4, 0.3, 1);
const heldOut = clusters(2000, 8, 4, 0.3, 2);

describe("train() with 4 classes: one joint model", () => {
  let result;
  beforeAll(async () => {
    result = await dp.train(train, { ...budget, seed: 3 });
  });

  test("one mechanism at μ_train, sensitivity 2√2·R/c", () => {
    const { report } = result;
    const plan = report.plan;
    expect(plan.multiclass).toBe("joint");
    expect(plan.multiclassLoss).toBe("hinge");
    expect(plan.classes).toBe(4);
    expect(plan.muClass).toBeUndefined();  // nothing is split over the classes
    expect(plan.muRun).toBe(plan.muTrain);  // auto's single run: the whole training budget
    const c = plan.candidates[0];
    expect(c.sensitivity).toBeCloseTo(2 * Math.SQRT2 * c.clipRadius / c.c, 10);
    expect(report.classes).toEqual(train.classes);
    expect(report.perClass).toBeNull();
    expect(result.local.runs).toBe(1);
  });

  test("predicts accurately; model file version 3 with one selection record", () => {
    const p = result.model.predict(heldOut.features);
    expect(p.scores).toHaveLength(4 * 2000);
    expect(accuracy(p.labels, heldOut.labels)).toBeGreaterThan(0.9);
    const file = result.model.toJSON();
    expect(file.version).toBe(3);
    expect(file.multiclass).toBe("joint");
    expect(file.weights).toHaveLength(4);
    file.weights.forEach((w) => expect(w).toHaveLength(8));
    expect(file.intercept).toHaveLength(4);
    expect(file.privacy).toMatchObject({ classes: 4, multiclass: "joint" });
    expect(file.privacy.muClass).toBeUndefined();
    expect(file.selection).toMatchObject({ gamma: result.report.selectedMargin });
    const loaded = dp.modelFromJSON(JSON.stringify(file));
    expect(loaded.gamma).toBe(result.report.selectedMargin);
    expect(loaded.gammas).toEqual([1, 2, 3, 4].map(() => result.report.selectedMargin));
    expect(Array.from(loaded.predict(heldOut.features).scores)).toEqual(Array.from(p.scores));
    const bad = (change, what) => expect(() => dp.modelFromJSON({ ...structuredClone(file), ...change(structuredClone(file)) }))
      .toThrow(expect.objectContaining({ code: "BAD_MODEL", message: expect.stringContaining(what) }));
    bad(() => ({ multiclass: "both" }), "multiclass");
    bad((f) => ({ privacy: { ...f.privacy, multiclass: undefined } }), "privacy");
    bad(() => ({ selection: [] }), "selection");
    bad((f) => ({ weights: f.weights.slice(1) }), "weights");
  });
});

test("two worker shards give the one-thread run (joint, K = 4, Iter's scores too)", async () => {
  for (const selector of ["auto", "iter"]) {
    const options = { ...budget, seed: 8, selector, maxIterations: 60 };
    const one = await dp.train(train, options);
    const two = await dp.train(train, { ...options, workers: 2 });
    expect(two.report.selectedCandidate).toBe(one.report.selectedCandidate);
    two.report.candidates.forEach((x, j) => (Number.isNaN(x.noisyScore)
      ? expect(one.report.candidates[j].noisyScore).toBeNaN()
      : expect(x.noisyScore).toBeCloseTo(one.report.candidates[j].noisyScore, 6)));
    const a = one.model.weights, b = two.model.weights;
    const scale = Math.max(...Array.from(a, Math.abs));
    for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(1e-5 * scale);
  }
}, 120_000);

test("the CSV path, the command line and the Python predictor give the same predictions", async () => {
  const names = ["Adelie", "Chinstrap", "Gentoo"];
  const rows = (data) => {
    const lines = ["a,b,c,d,species"];
    for (let i = 0; i < data.labels.length; i++) {
      lines.push([...Array.from(data.features.subarray(i * 4, i * 4 + 4), (v) => v.toFixed(4)), names[data.labels[i]]].join(","));
    }
    return lines.join("\n") + "\n";
  };
  const csvTrain = rows(clusters(900, 4, 3, 0.3, 5));
  const csvTest = rows(clusters(400, 4, 3, 0.3, 6));
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-joint-"));
  const trainFile = join(dir, "train.csv"), testFile = join(dir, "test.csv"), modelFile = join(dir, "model.json");
  writeFileSync(trainFile, csvTrain);
  writeFileSync(testFile, csvTest);
  const t = cli("train", trainFile, "--label", "species", "--classes", names.join(","), "--epsilon", "1",
    "--delta", "1e-5", "--seed", "4", "--test", testFile, "--out", modelFile);
  expect(t.code).toBe(0);
  expect(t.stdout).toMatch(/one joint model over 3 classes \(multiclass hinge\)/);
  const model = dp.modelFromJSON(readFileSync(modelFile, "utf8"));
  expect(model.toJSON().multiclass).toBe("joint");
  const inPackage = await model.predictCsv(csvTest, { label: "species" });
  expect(accuracy(inPackage.labels, inPackage.truth)).toBeGreaterThan(0.85);
  const p = cli("predict", modelFile, testFile);
  expect(p.code).toBe(0);
  const cliLines = p.stdout.trim().split("\n");
  expect(cliLines[0]).toBe("row,species,score:Adelie,score:Chinstrap,score:Gentoo");
  expect(cliLines.slice(1).map((l) => l.split(",")[1])).toEqual(inPackage.predicted);
  if (existsSync("/usr/bin/python3")) {
    const py = execFileSync("/usr/bin/python3", ["examples/predict.py", modelFile, testFile], { encoding: "utf8" });
    const pyLines = py.trim().split("\n");
    expect(pyLines[0]).toBe(cliLines[0]);
    expect(pyLines.slice(1).map((l) => l.split(",")[1])).toEqual(inPackage.predicted);
    pyLines.slice(1).forEach((l, i) => l.split(",").slice(2).forEach((v, k) =>
      expect(Math.abs(Number(v) - inPackage.scores[i * 3 + k])).toBeLessThanOrEqual(1e-6)));
  }
  // One-vs-rest stays available from the command line.
  const o = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "10", "--class-count", "5", "--json");
  expect(JSON.parse(o.stdout)).toMatchObject({ classes: 5, multiclass: "joint" });
}, 60_000);
