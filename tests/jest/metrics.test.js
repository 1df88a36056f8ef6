// The package's yardsticks (evaluate, rocAuc, rocCurve): hand-computed values, and the CLI's
// output of them (train --test, --json, predict on a labelled file). Local, not private.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { evaluate, rocAuc, rocCurve, ROC_POINTS } from "dpmargin";
import { runClis } from "./helpers.js";
import { separable, toCsv } from "./synthetic.js";

jest.setTimeout(120_000);

const pos = (truth) => (i) => truth[i] > 0;

describe("ROC AUC by hand", () => {
  test("perfect = 1, reversed = 0, all tied = 0.5", () => {
    const truth = [1, 1, -1, -1];
    expect(rocAuc([4, 3, 2, 1], pos(truth))).toBe(1);
    expect(rocAuc([1, 2, 3, 4], pos(truth))).toBe(0);
    expect(rocAuc([0, 0, 0, 0], pos(truth))).toBe(0.5);
    expect(evaluate([4, 3, 2, 1], truth).rocAuc).toBe(1);
  });

  test("a worked example with a tie: 4 of 6 (positive, negative) pairs ordered, one tied → 4.5/6", () => {
    // positives score 0.9, 0.4, 0.2; negatives 0.4, 0.1. Pairs (p, n): (0.9, 0.4) ✓ (0.9, 0.1) ✓
    // (0.4, 0.4) tie ½ (0.4, 0.1) ✓ (0.2, 0.4) ✗ (0.2, 0.1) ✓ → 4.5 / 6 = 0.75.
    const scores = [0.9, 0.4, 0.2, 0.4, 0.1];
    const truth = [1, 1, 1, -1, -1];
    expect(rocAuc(scores, pos(truth))).toBeCloseTo(0.75, 12);
    const c = rocCurve(scores, pos(truth));
    // Distinct thresholds in decreasing order: +∞, 0.9, 0.4 (a positive and a negative), 0.2, 0.1.
    expect(c.thresholds).toEqual([Infinity, 0.9, 0.4, 0.2, 0.1]);
    expect(c.tpr).toEqual([0, 1 / 3, 2 / 3, 1, 1]);
    expect(c.fpr).toEqual([0, 0, 0.5, 0.5, 1]);
    // The trapezoids under the curve give the same area as the ranks.
    let area = 0;
    for (let i = 1; i < c.fpr.length; i++) area += (c.fpr[i] - c.fpr[i - 1]) * (c.tpr[i] + c.tpr[i - 1]) / 2;
    expect(area).toBeCloseTo(0.75, 12);
  });

  test("random scores with many ties, independent of the labels: the AUC is near 0.5", () => {
    let a = 11;
    const rand = () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648);
    const n = 20000;
    const scores = Array.from({ length: n }, () => Math.floor(rand() * 5)); // 5 values: heavy ties
    const truth = Array.from({ length: n }, () => (rand() < 0.3 ? 1 : -1));
    expect(Math.abs(rocAuc(scores, pos(truth)) - 0.5)).toBeLessThan(0.02);
    const c = rocCurve(scores, pos(truth));
    expect(c.fpr.length).toBe(6); // +∞ and the 5 distinct values
  });

  test("one class only: no AUC, no curve", () => {
    expect(rocAuc([1, 2], () => true)).toBeNull();
    const e = evaluate([1, 2], [1, 1]);
    expect(e.rocAuc).toBeNull();
    expect(e.roc).toBeNull();
  });

  test("a long curve is thinned to at most 200 points, keeping both ends", () => {
    const n = 5000;
    const scores = Array.from({ length: n }, (_, i) => Math.sin(i) * 1000 + i);
    const truth = scores.map((_, i) => (i % 3 === 0 ? 1 : -1));
    const c = rocCurve(scores, pos(truth));
    expect(c.fpr.length).toBeLessThanOrEqual(ROC_POINTS);
    expect(c.fpr.length).toBeGreaterThan(150);
    expect([c.fpr[0], c.tpr[0]]).toEqual([0, 0]);
    expect([c.fpr.at(-1), c.tpr.at(-1)]).toEqual([1, 1]);
    for (let i = 1; i < c.fpr.length; i++) {
      expect(c.fpr[i]).toBeGreaterThanOrEqual(c.fpr[i - 1]);
      expect(c.tpr[i]).toBeGreaterThanOrEqual(c.tpr[i - 1]);
    }
  });
});

describe("evaluate", () => {
  test("binary: accuracy, balanced accuracy, precision, recall, F1, majority rate", () => {
    // truth + + + − − − − ; scores > 0 predict +: TP 2, FN 1, FP 1, TN 3.
    const scores = [2, 1, -1, 0.5, -2, -3, -4];
    const truth = [1, 1, 1, -1, -1, -1, -1];
    const e = evaluate(scores, truth);
    expect(e.rows).toBe(7);
    expect(e.accuracy).toBeCloseTo(5 / 7, 12);
    expect(e.balancedAccuracy).toBeCloseTo((2 / 3 + 3 / 4) / 2, 12);
    expect(e.precision).toBeCloseTo(2 / 3, 12);
    expect(e.recall).toBeCloseTo(2 / 3, 12);
    expect(e.f1).toBeCloseTo(2 / 3, 12);
    expect(e.majorityRate).toBeCloseTo(4 / 7, 12);
    expect(e.majorityClass).toBe(-1);
    // Pairs: positives 2, 1, −1 against negatives 0.5, −2, −3, −4: 4 + 4 + 3 = 11 of 12.
    expect(e.rocAuc).toBeCloseTo(11 / 12, 12);
    expect(e.private).toBe(false);
  });

  test("the caller's predicted labels win over the score sign", () => {
    const e = evaluate([1, -1], [1, -1], { predicted: [-1, 1] });
    expect(e.accuracy).toBe(0);
    expect(e.rocAuc).toBe(1);
  });

  test("multiclass: one-vs-rest AUC per class and their macro mean; macro F1", () => {
    // 3 classes, 4 rows; row-major scores.
    const scores = [
      3, 1, 0, // truth 0
      1, 3, 0, // truth 1
      0, 1, 3, // truth 2
      2, 0, 1, // truth 2 (predicted 0)
    ];
    const truth = [0, 1, 2, 2];
    const e = evaluate(scores, truth, { classes: 3 });
    expect(e.accuracy).toBe(0.75);
    // class 0: positive score 3 vs 1, 0, 2 → 1. class 1: 3 vs 1, 1, 0 → 1. class 2: {3, 1} vs {0, 0}: 1.
    expect(e.rocAucPerClass).toEqual([1, 1, 1]);
    expect(e.rocAuc).toBe(1);
    expect(e.roc).toBeNull();
    expect(e.rocPerClass).toHaveLength(3);
    // F1: class 0 2·1/(1+2) = 2/3, class 1 1, class 2 2·1/(2+1) = 2/3.
    expect(e.f1).toBeCloseTo((2 / 3 + 1 + 2 / 3) / 3, 12);
    expect(e.precision).toBeNull();
    expect(() => evaluate([1, 2], [0, 1], { classes: 3 })).toThrow(RangeError);
  });
});

describe("the CLI shows the AUC next to the other yardsticks", () => {
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-metrics-"));
  const train = join(dir, "train.csv");
  const testFile = join(dir, "test.csv");
  const model = join(dir, "model.json");
  const all = separable(3000, 6, 0.1, 30, 17);
  const slice = (from, to) => ({
    features: all.features.subarray(from * 6, to * 6), labels: all.labels.subarray(from, to), columns: 6,
  });
  writeFileSync(train, toCsv(slice(0, 2400)));
  writeFileSync(testFile, toCsv(slice(2400, 3000)));
  const budget = ["--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "3"];
  let text, json, predicted;
  beforeAll(async () => {
    [text, json] = await runClis([
      ["train", train, ...budget, "--test", testFile],
      ["train", train, ...budget, "--test", testFile, "--json", "--out", model],
    ]);
    [predicted] = await runClis([["predict", model, testFile]]);
  });

  test("train --test: text and --json", () => {
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/majority class "(1|not 1)" \d+\.\d\d%; ROC AUC [01]\.\d{4}\n/);
    const t = JSON.parse(json.stdout).local.test;
    expect(t.rocAuc).toBeGreaterThan(0.8);
    expect(t.rocAuc).toBeLessThanOrEqual(1);
    expect(t.precision).toBeGreaterThan(0);
    expect(t.recall).toBeGreaterThan(0);
    expect(t.roc.fpr.length).toBe(t.roc.tpr.length);
    expect(t.roc.fpr.length).toBeLessThanOrEqual(200);
    expect(t.roc.thresholds[0]).toBeNull(); // +∞ in JSON
    expect(t.note).toMatch(/not differentially private/);
  });

  test("predict on a labelled file", () => {
    expect(predicted.code).toBe(0);
    expect(predicted.stderr).toMatch(/local, not private\): accuracy \d+\.\d\d%, balanced accuracy \d+\.\d\d%, F1 \d\.\d{4} \(positive "1"\); majority class "[^"]+" \d+\.\d\d%; ROC AUC [01]\.\d{4}/);
  });
});
