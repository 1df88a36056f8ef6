// Multiclass labels trained one-vs-rest (multiclass: "one-vs-rest") under one (ε, δ)
// (docs/reference/MULTICLASS.md), through the public API, the CSV reader, worker shards and the command
// line: the report and the plan's exact split, model file version 3 (multiclass and binary) and
// versions 1 and 2 compatibility (the joint learner, the default: joint_multiclass.test.js), and
// every new bad option → BAD_PARAMETER naming it (the module keeps working after each).
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, multiclassPredictionsCsv } from "dpmargin";
import { cli } from "./helpers.js";
import { CONFIGS, sampleText } from "../fixtures/seeded/configs.mjs";
import { runConfig } from "../fixtures/seeded/run.mjs";

let dp;
beforeAll(async () => {
  dp = await load();
});

// K clusters around K coordinate directions (x = e_k + spread·N(0, I)): class k against the rest
// is separable with a clear margin. A small deterministic generator (test data, not noise).
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

const train = clusters(3000, 8, 3, 0.3, 1);
const heldOut = clusters(3000, 8, 3, 0.3, 2);
const budget = { epsilon: 1, delta: 1e-5 };
const ovr = { ...budget, multiclass: "one-vs-rest" };

describe("train() with classes", () => {
  let result;
  const progress = [];
  let planned;
  beforeAll(async () => {
    result = await dp.train(train, { ...ovr, seed: 3, selector: "iter", onPlan: (p) => { planned = p; }, onProgress: (p) => progress.push(p) });
  });

  test("trains one binary problem per class under the one budget", () => {
    const { report } = result;
    const plan = report.plan;
    expect(plan.classes).toBe(3);
    expect(plan.multiclass).toBe("one-vs-rest");
    // Exact GDP composition of the K problems: √K·μ_class = μ_train, μ² = μ_ranges² + μ_train².
    expect(Math.abs(Math.sqrt(3) * plan.muClass - plan.muTrain)).toBeLessThanOrEqual(1e-12 * plan.muTrain);
    expect(plan.muRanges ** 2 + plan.muTrain ** 2).toBeCloseTo(plan.mu ** 2, 14);
    expect(plan.muRun).toBeCloseTo(plan.muClass / Math.sqrt(2 * plan.candidates.length), 14);
    expect(plan.epsilonSpent).toBeLessThanOrEqual(1);
    expect(dp.accounting.gdpDelta(plan.epsilon, plan.mu)).toBeLessThanOrEqual(plan.delta);
    expect(planned).toEqual(plan);
    expect(report.classes).toEqual(train.classes);
    expect(report.perClass).toHaveLength(3);
    report.perClass.forEach((c, k) => {
      expect(c.class).toBe(train.classes[k]);
      expect(c.index).toBe(k);
      expect(c.selectedMargin).toBe(plan.candidates[c.selectedCandidate].gamma);
      expect(c.candidates).toHaveLength(plan.candidates.length);  // Iter: every noisy score
    });
    // The top-level selection is the first class's (documented).
    expect(report.selectedMargin).toBe(report.perClass[0].selectedMargin);
    expect(report.seeded).toBe(true);
    expect(result.local.runs).toBe(3 * plan.candidates.length);
  });

  test("progress walks through the problems", () => {
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.every((p) => p.problems === 3)).toBe(true);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i].problem).toBeGreaterThanOrEqual(progress[i - 1].problem);
      expect(progress[i].fraction).toBeGreaterThanOrEqual(progress[i - 1].fraction);
    }
    expect(progress.at(-1).problem).toBe(2);
    expect(progress.at(-1).fraction).toBe(1);
  });

  test("predicts the class with the largest score, accurately", () => {
    const p = result.model.predict(heldOut.features);
    expect(p.scores).toHaveLength(3 * 3000);
    expect(p.labels).toBeInstanceOf(Int32Array);
    expect(p.classes).toEqual(train.classes);
    for (let i = 0; i < 50; i++) {
      const row = Array.from(p.scores.subarray(3 * i, 3 * i + 3));
      expect(p.labels[i]).toBe(row.indexOf(Math.max(...row)));
      expect(p.predicted[i]).toBe(train.classes[p.labels[i]]);
    }
    const acc = accuracy(p.labels, heldOut.labels);
    expect(acc).toBeGreaterThan(0.9);
    console.log(`one-vs-rest, 3 classes, n = 3000, d = 8, ε = 1 (seeded): held-out accuracy ${acc}`);
  });

  test("model file version 3 round trip (and the same file as version 2)", () => {
    const { model } = result;
    const file = model.toJSON();
    expect(file.version).toBe(3);
    expect(file.multiclass).toBe("one-vs-rest");
    expect(file.label).toEqual({ column: null, classes: train.classes });
    expect(file.weights).toHaveLength(3);
    file.weights.forEach((w) => expect(w).toHaveLength(8));
    expect(file.intercept).toHaveLength(3);
    expect(file.privacy.classes).toBe(3);
    expect(file.privacy.muClass).toBe(result.report.plan.muClass);
    expect(file.selection.map((s) => s.class)).toEqual(train.classes);
    expect(file.selection.map((s) => s.gamma)).toEqual(result.report.perClass.map((c) => c.selectedMargin));
    const loaded = dp.modelFromJSON(JSON.stringify(file));
    expect(loaded.classes).toEqual(train.classes);
    expect(loaded.gammas).toEqual(file.selection.map((s) => s.gamma));
    expect(Number.isNaN(loaded.gamma)).toBe(true);
    expect(loaded.intercept).toBeNull();
    expect(Array.from(loaded.intercepts)).toEqual(file.intercept);
    expect(Array.from(loaded.weights)).toEqual(file.weights.flat());
    const a = model.predict(heldOut.features), b = loaded.predict(heldOut.features);
    expect(Array.from(b.scores)).toEqual(Array.from(a.scores));
    expect(b.predicted).toEqual(a.predicted);
    expect(loaded.toJSON()).toEqual(file);
    // Version 2 (one-vs-rest, before `multiclass`) is read and predicts the same.
    const { multiclass, ...rest } = file;
    expect(multiclass).toBe("one-vs-rest");
    const v2 = dp.modelFromJSON({ ...rest, version: 2 });
    expect(Array.from(v2.predict(heldOut.features).scores)).toEqual(Array.from(a.scores));
    expect(() => dp.modelFromJSON({ ...file, version: 2 })).toThrow(expect.objectContaining({ code: "BAD_MODEL", message: expect.stringContaining("version 3") }));
    // Multiclass files are validated as carefully as binary ones.
    const bad = (change, what) => expect(() => dp.modelFromJSON({ ...structuredClone(file), ...change(structuredClone(file)) }))
      .toThrow(expect.objectContaining({ code: "BAD_MODEL", message: expect.stringContaining(what) }));
    bad((f) => ({ weights: f.weights.slice(0, 2) }), "weights");
    bad((f) => ({ weights: [f.weights[0], f.weights[1], [1, 2]] }), "weights[2]");
    bad((f) => ({ weights: [f.weights[0], f.weights[1], f.weights[2].map(() => Number.NaN)] }), "weights[2][0]");
    bad((f) => ({ intercept: f.intercept.slice(1) }), "intercept");
    bad((f) => ({ label: { ...f.label, classes: ["a", "a", "b"] } }), "distinct");
    bad((f) => ({ label: { ...f.label, positive: "a" } }), "label.positive");
    bad((f) => ({ privacy: { ...f.privacy, classes: 4 } }), "privacy");
    bad((f) => ({ selection: f.selection.slice(1) }), "selection");
    bad((f) => ({ weights: [f.weights[0], f.weights[1], f.weights[2].map(() => 1e308)] }), "too large");
  });

  test("predictions CSV: the class and a score per class", () => {
    const p = result.model.predict(heldOut.features.subarray(0, 8 * 4));
    const text = multiclassPredictionsCsv(p, "species");
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe("row,species,score:class 0,score:class 1,score:class 2");
    expect(lines).toHaveLength(5);
    expect(lines[1].split(",")[0]).toBe("1");
    expect(lines[1].split(",")[1]).toBe(p.predicted[0]);
    expect(Number(lines[1].split(",")[3])).toBe(p.scores[1]);
    expect(multiclassPredictionsCsv(p, "species", { rowIds: false }).split("\n")[0]).toBe("species,score:class 0,score:class 1,score:class 2");
  });
});

test("two worker shards give the one-thread run (K = 3)", async () => {
  const one = await dp.train(train, { ...ovr, seed: 8 });
  const two = await dp.train(train, { ...ovr, seed: 8, workers: 2 });
  expect(two.report.perClass.map((c) => c.selectedCandidate)).toEqual(one.report.perClass.map((c) => c.selectedCandidate));
  // The default selector (auto) scores nothing: NaN on both sides.
  two.report.perClass.forEach((c, k) => c.candidates.forEach((x, j) =>
    (Number.isNaN(x.noisyScore) ? expect(one.report.perClass[k].candidates[j].noisyScore).toBeNaN()
      : expect(x.noisyScore).toBeCloseTo(one.report.perClass[k].candidates[j].noisyScore, 6))));
  const a = one.model.weights, b = two.model.weights;
  const scale = Math.max(...Array.from(a, Math.abs));
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(1e-5 * scale);
}, 60_000);

test("the fixed-margin learner trains every class; 50 classes are accepted", async () => {
  const f = await dp.train(train, { ...ovr, seed: 2, selector: "fixed", margin: 0.2 });
  expect(f.report.perClass.map((c) => c.selectedMargin)).toEqual([0.2, 0.2, 0.2]);
  expect(f.report.plan.muRun).toBe(f.report.plan.muClass);
  const fifty = clusters(500, 50, 50, 0.3, 4);
  const r = await dp.train(fifty, { ...ovr, seed: 2, maxIterations: 5 });
  expect(r.report.plan.classes).toBe(50);
  expect(r.model.toJSON().weights).toHaveLength(50);
});

describe("binary models: version 3 written, versions 1 and 2 read", () => {
  test("a binary CSV model names its class: label.classes = [positive]", async () => {
    const { model, report } = await runConfig(dp, CONFIGS["iter-tight-ranges"]);
    const file = model.toJSON();
    expect(file.version).toBe(3);
    expect(file.label).toEqual({ column: "diagnosis", positive: "malignant", classes: ["malignant"] });
    expect(report.classes).toBeNull();
    expect(report.perClass).toBeNull();
    expect(report.plan.classes).toBeUndefined();  // a binary plan reads as before
    expect(model.classes).toBeNull();
    expect(model.gammas).toEqual([report.selectedMargin]);
    expect(() => dp.modelFromJSON({ ...file, label: { ...file.label, classes: ["benign"] } }))
      .toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
    expect(() => dp.modelFromJSON({ ...file, version: 1, label: { column: "diagnosis", positive: "malignant", classes: ["malignant"] } }))
      .toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
  });

  test("a version 1 file (tests/fixtures/model-v1.json, recorded by the library before version 2) loads and predicts exactly as the same model written as version 2", async () => {
    const fixture = JSON.parse(readFileSync(new URL("../fixtures/model-v1.json", import.meta.url), "utf8"));
    expect(fixture.version).toBe(1);
    const v1 = dp.modelFromJSON(fixture);
    const asV2 = { ...fixture, version: 2, label: { ...fixture.label, classes: [fixture.label.positive] } };
    const model = dp.modelFromJSON(asV2);
    const csv = { label: "diagnosis" };
    const [a, b] = [await v1.predictCsv(sampleText(), csv), await model.predictCsv(sampleText(), csv)];
    expect(Array.from(a.scores)).toEqual(Array.from(b.scores));
    expect(Array.from(a.labels)).toEqual(Array.from(b.labels));
    expect(Array.from(a.truth)).toEqual(Array.from(b.truth));
    expect(a.scores.length).toBe(569);
    expect(v1.toJSON()).toEqual(fixture);  // read as is, not rewritten
    expect(v1.label).toEqual({ column: "diagnosis", positive: "malignant" });
  });
});

describe("a multiclass CSV (declared classes)", () => {
  const names = ["Adelie", "Chinstrap", "Gentoo"];
  const rows = (data) => {
    const lines = ["a,b,c,d,species"];
    for (let i = 0; i < data.labels.length; i++) {
      lines.push([...Array.from(data.features.subarray(i * 4, i * 4 + 4), (v) => v.toFixed(4)), names[data.labels[i]]].join(","));
    }
    return lines.join("\n") + "\n";
  };
  const csvTrain = rows(clusters(900, 4, 3, 0.3, 5));
  const csvTest = rows(clusters(600, 4, 3, 0.3, 6));

  test("trainCsv and predictCsv", async () => {
    const { model, report, table } = await dp.trainCsv(csvTrain, { label: "species", classes: names }, { ...ovr, seed: 1 });
    expect(table.label).toEqual({ column: "species", classes: names, positive: "", classSource: "declared" });
    expect(report.classes).toEqual(names);
    expect(model.toJSON().label).toEqual({ column: "species", classes: names });
    expect(model.toJSON().schema.classes).toEqual(names);
    const p = await model.predictCsv(csvTest, { label: "species" });
    expect(p.truth).toBeInstanceOf(Int32Array);
    expect(p.table.rows).toBe(600);  // one per row (K scores each)
    expect(accuracy(p.labels, p.truth)).toBeGreaterThan(0.85);
    // Without the label column the truth is null (with it, the model's own column is read).
    const withoutLabel = csvTest.split("\n").map((line) => line.split(",").slice(0, 4).join(",")).join("\n");
    const unlabelled = await model.predictCsv(withoutLabel);
    expect(unlabelled.truth).toBeNull();
    expect(Array.from(unlabelled.scores)).toEqual(Array.from(p.scores));
  });

  test("readCsv gives a table that train() trains exactly as trainCsv", async () => {
    const table = await dp.readCsv(csvTrain, { label: "species", classes: names });
    expect(table.classes).toEqual(names);
    expect(table.labels).toBeInstanceOf(Int32Array);
    const viaArrays = await dp.train(table, { ...budget, seed: 1 });
    // The table's schema declared (readCsv's, read off the exact cells locally): the CSV run asks
    // nothing of the cells, so it draws the same noise for the same mechanism.
    const viaCsv = await dp.trainCsv(csvTrain, { label: "species", schema: table.table.schema }, { ...budget, seed: 1 });
    expect(Array.from(viaArrays.model.weights)).toEqual(Array.from(viaCsv.model.weights));
  });

  test("a value outside the declared classes is refused at training, and is no class at prediction", async () => {
    const text = csvTrain.replace(/Gentoo\n/, "Macaroni\n");
    await expect(dp.trainCsv(text, { label: "species", classes: names }, { ...budget, seed: 1, maxIterations: 3 }))
      .rejects.toMatchObject({ code: "BAD_LABEL", parameter: "classes", message: expect.stringContaining("Macaroni") });
    const { model } = await dp.trainCsv(csvTrain, { label: "species", classes: names }, { ...budget, seed: 1, maxIterations: 3 });
    const p = await model.predictCsv(text, { label: "species" });
    expect(Array.from(p.truth).filter((c) => c === -1)).toHaveLength(1);
  });

  test("one class only → ONE_CLASS", async () => {
    const one = "a,b,species\n1,2,Adelie\n3,4,Adelie\n5,6,Adelie\n";
    await expect(dp.trainCsv(one, { label: "species", classes: names }, budget))
      .rejects.toMatchObject({ code: "ONE_CLASS" });
  });

  test("the command line: train --classes, predict writes the class and the scores", () => {
    const dir = mkdtempSync(join(tmpdir(), "dpmargin-mc-"));
    const trainFile = join(dir, "train.csv"), testFile = join(dir, "test.csv"), modelFile = join(dir, "model.json");
    writeFileSync(trainFile, csvTrain);
    writeFileSync(testFile, csvTest);
    const t = cli("train", trainFile, "--label", "species", "--classes", names.join(","), "--epsilon", "1",
      "--delta", "1e-5", "--seed", "4", "--test", testFile, "--out", modelFile, "--json", "--multiclass", "one-vs-rest");
    expect(t.code).toBe(0);
    const out = JSON.parse(t.stdout);
    expect(out.label).toMatchObject({ column: "species", classes: names, classSource: "declared" });
    expect(out.report.perClass).toHaveLength(3);
    expect(out.local.testAccuracy).toBeGreaterThan(0.85);
    expect(out.local.testRows).toBe(600);  // rows, not rows × classes
    expect(out.local.test.rows).toBe(600);
    const text = cli("train", trainFile, "--label", "species", "--classes", names.join(","), "--epsilon", "1", "--delta", "1e-5", "--multiclass", "one-vs-rest");
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/one-vs-rest over 3 classes/);
    const p = cli("predict", modelFile, testFile);
    expect(p.code).toBe(0);
    const lines = p.stdout.trim().split("\n");
    expect(lines[0]).toBe("row,species,score:Adelie,score:Chinstrap,score:Gentoo");
    expect(lines).toHaveLength(601);
    expect(names).toContain(lines[1].split(",")[1]);
    // The data-free plan of a multiclass run.
    const a = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "10", "--class-count", "5", "--json", "--multiclass", "one-vs-rest");
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).classes).toBe(5);
    const bad = cli("train", trainFile, "--label", "species", "--classes", "Adelie,Gentoo", "--epsilon", "1", "--delta", "1e-5");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/BAD_LABEL \(--classes\).*"Chinstrap" at line 3/);  // a label outside the declared classes
  }, 60_000);
});

describe("every new bad option → BAD_PARAMETER naming it; the module keeps working", () => {
  const small = clusters(60, 4, 3, 0.3, 9);
  const cases = [
    ["classes", () => dp.train({ ...small, classes: ["a", "b"] }, budget)],
    ["classes", () => dp.train({ ...small, classes: "abc" }, budget)],
    ["classes", () => dp.train({ ...small, classes: ["a", "b", "b"] }, budget)],
    ["classes", () => dp.train({ ...small, classes: ["a", "b", 3] }, budget)],
    ["classes", () => dp.train({ ...clusters(60, 4, 51, 0.3, 9) }, budget)],
    ["selector", () => dp.train(small, { ...budget, selector: "privtune" })],
    ["selector", () => dp.train(small, { ...ovr, selector: "privtune" })],
    ["multiclass", () => dp.train(small, { ...budget, multiclass: "ovr" })],
    ["multiclassLoss", () => dp.train(small, { ...budget, multiclassLoss: "logistic" })],
    ["classes", () => dp.train(small, { ...budget, classes: 3 })],
    ["classCount", () => dp.account({ ...budget, n: 100, d: 5, classCount: 1 })],
    ["classCount", () => dp.account({ ...budget, n: 100, d: 5, classCount: 51 })],
    ["classCount", () => dp.account({ ...budget, n: 100, d: 5, classCount: 2.5 })],
    ["classCount", () => dp.account({ ...budget, n: 100, d: 5, classCount: "3" })],
    ["selector", () => dp.account({ ...budget, n: 100, d: 5, classCount: 3, selector: "privtune" })],
    ["classes", () => dp.planFor(budget, { rows: 100, features: 4, classes: 0 })],
    ["classes", () => dp.planFor(budget, { rows: 100, features: 4, classes: "x" })],
    ["classes", () => dp.trainCsv("a,y\n1,p\n2,q\n3,r\n", { label: "y", classes: ["p"] }, budget)],
    ["positive", () => dp.trainCsv("a,y\n1,p\n2,q\n3,r\n", { label: "y", classes: ["p", "q", "r"], positive: "p" }, budget)],
    ["classes", () => dp.readCsv("a,b\n1,p\n2,q\n3,r\n", { classes: ["p", "q", "r"] })],
  ];
  test.each(cases.map(([name, call], i) => [i, name, call]))("case %i names %s", async (_, name, call) => {
    let error;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "BAD_PARAMETER", parameter: name });
    expect(error.message).toContain(name);
    // Still usable afterwards.
    expect(dp.account({ ...budget, n: 100, d: 5, classCount: 3 }).classes).toBe(3);
  });

  test("labels outside 0…K−1 are BAD_LABEL naming the row", async () => {
    const bad = { ...small, labels: Int32Array.from(small.labels, (v, i) => (i === 7 ? 3 : v)) };
    await expect(dp.train(bad, budget)).rejects.toMatchObject({ code: "BAD_LABEL", message: expect.stringContaining("row 7") });
    const fraction = { ...small, labels: Array.from(small.labels, (v, i) => (i === 2 ? 0.5 : v)) };
    await expect(dp.train(fraction, budget)).rejects.toMatchObject({ code: "BAD_LABEL" });
  });

  test("the plan of a multiclass table before reading it", () => {
    const plan = dp.planFor(ovr, { rows: 1000, features: 9, classes: 4 });
    expect(plan.classes).toBe(4);
    expect(plan.muClass * 2).toBeCloseTo(plan.muTrain, 14);
    const joint = dp.planFor(budget, { rows: 1000, features: 9, classes: 4 });
    expect(joint).toMatchObject({ classes: 4, multiclass: "joint", muTrain: plan.muTrain });
    expect(dp.planFor(budget, { rows: 1000, features: 9 }).classes).toBeUndefined();
  });
});
