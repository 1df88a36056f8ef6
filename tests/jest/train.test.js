// Training through the package in Node: progress, cancellation, seeded reproducibility (also
// against the native build), the model and its file.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { load, csvFile, DpMarginError } from "dpmargin";
import { separable, toCsv } from "./synthetic.js";
import { repoRoot } from "./helpers.js";

import { jest } from "@jest/globals";

// Trainings of a few seconds each: the default 5 s timed out on a loaded 2-core machine.
jest.setTimeout(30_000);

let dp;
beforeAll(async () => {
  dp = await load();
});

const table = separable(1200, 20, 0.1, 12, 1);

test("M* trains a useful classifier and reports what it released", async () => {
  // Unseeded (production noise). At n = 4000 the accuracy of 20 runs ranged 0.968–0.990, so
  // the 0.9 floor below fails only if learning is broken (at n = 1200 it spans 0.84–0.93).
  const big = separable(4000, 20, 0.1, 40, 1);
  const { model, report } = await dp.train(big, { epsilon: 1, delta: 1e-5, selector: "iter" });
  expect(report.seeded).toBe(false);
  expect(report.warning).toBeUndefined();
  expect(report.plan.selector).toBe("iter");
  expect(report.plan.calibration).toBe("tight");
  expect(report.plan.neighbouring).toBe("replace-one");
  expect(report.candidates.length).toBe(report.plan.candidates.length);
  expect(report.candidates.map((c) => c.gamma)).toContain(report.selectedMargin);
  for (const c of report.candidates) {
    expect(Number.isFinite(c.noisyScore)).toBe(true);
    expect(c.T).toBeGreaterThan(0);
    expect(c.sigma).toBeGreaterThan(0);
  }
  expect(report.plan.d).toBe(21);  // 20 features + intercept
  const { labels } = model.predict(big.features);
  let correct = 0;
  labels.forEach((l, i) => { correct += l === big.labels[i] ? 1 : 0; });
  expect(correct / labels.length).toBeGreaterThan(0.9);
  expect(model.seeded).toBe(false);
});

test("the default (auto) on a large table chooses privately among three margins and reports the scores", async () => {
  // n = 20,000 at ε = 2 (μ_class ≈ 0.48 after the ranges' share): score sd ≈ 21 ≤ 0.125% of n.
  const big = separable(20000, 10, 0.1, 200, 3);
  const { model, report } = await dp.train(big, { epsilon: 2, delta: 1e-5 });
  expect(report.plan.selector).toBe("auto");
  expect(report.plan.selects).toBe(true);
  expect(report.plan.candidates.map((c) => c.gamma / report.plan.margin)).toEqual([1 / 3, 1, 3].map((x) => expect.closeTo(x, 12)));
  expect(report.candidates).toHaveLength(3);
  for (const c of report.candidates) expect(Number.isFinite(c.noisyScore)).toBe(true);
  const best = report.candidates.reduce((a, c) => (c.noisyScore < a.noisyScore ? c : a));
  expect(report.selectedMargin).toBe(best.gamma);
  const { labels } = model.predict(big.features);
  let correct = 0;
  labels.forEach((l, i) => { correct += l === big.labels[i] ? 1 : 0; });
  expect(correct / labels.length).toBeGreaterThan(0.9);
});

test("the default (auto) trains one unprojected run at the public margin and reports it", async () => {
  const big = separable(4000, 20, 0.1, 40, 1);
  const { model, report } = await dp.train(big, { epsilon: 1, delta: 1e-5 });
  expect(report.plan.selector).toBe("auto");
  expect(report.plan.candidates).toHaveLength(1);
  expect(report.selectedMargin).toBe(report.plan.margin);
  expect(report.candidates).toHaveLength(1);
  expect(report.candidates[0].projected).toBe(false);
  const { labels } = model.predict(big.features);
  let correct = 0;
  labels.forEach((l, i) => { correct += l === big.labels[i] ? 1 : 0; });
  expect(correct / labels.length).toBeGreaterThan(0.9);
});

test("progress events arrive in order and end at fraction 1", async () => {
  const events = [];
  await dp.train(table, { epsilon: 1, delta: 1e-5, onProgress: (p) => events.push(p) });
  expect(events.length).toBeGreaterThan(1);
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1], b = events[i];
    expect(b.run >= a.run).toBe(true);
    if (b.run === a.run) expect(b.iteration).toBeGreaterThanOrEqual(a.iteration);
    expect(b.fraction).toBeGreaterThanOrEqual(a.fraction);
    expect(b.elapsedMs).toBeGreaterThanOrEqual(a.elapsedMs);
  }
  const last = events.at(-1);
  expect(last.fraction).toBe(1);
  expect(last.run).toBe(last.runs);
  expect(last.iteration).toBe(last.iterations);
  // All candidates are unprojected with equal T here: they advance as one batch.
  expect(events[0].batch).toBe(last.runs);
});

test("an AbortSignal stops training with CANCELLED, and the module trains again", async () => {
  const controller = new AbortController();
  let seen = 0;
  const big = separable(4000, 50, 0.1, 0, 2);
  const promise = dp.train(big, {
    epsilon: 1, delta: 1e-5,
    onProgress: () => { if (++seen === 2) controller.abort(); },
    signal: controller.signal,
  });
  await expect(promise).rejects.toMatchObject({ code: "CANCELLED" });
  await expect(promise).rejects.toBeInstanceOf(DpMarginError);
  const { report } = await dp.train(table, { epsilon: 1, delta: 1e-5, seed: 3 });
  expect(report.candidates.length).toBeGreaterThan(0);
  // Already aborted before starting.
  await expect(dp.train(table, { epsilon: 1, delta: 1e-5, signal: AbortSignal.abort() }))
    .rejects.toMatchObject({ code: "CANCELLED" });
});

test("a seed makes the run deterministic and marks it not private", async () => {
  const a = await dp.train(table, { epsilon: 1, delta: 1e-5, seed: 42 });
  const b = await dp.train(table, { epsilon: 1, delta: 1e-5, seed: 42 });
  const c = await dp.train(table, { epsilon: 1, delta: 1e-5, seed: 43 });
  expect(a.report.seeded).toBe(true);
  expect(a.report.warning).toMatch(/not private/);
  expect(a.model.seeded).toBe(true);
  expect(a.model.toJSON().privacy.seeded).toBe(true);
  expect(Array.from(a.model.weights)).toEqual(Array.from(b.model.weights));
  expect(a.report.candidates.map((x) => x.noisyScore)).toEqual(b.report.candidates.map((x) => x.noisyScore));
  expect(Array.from(a.model.weights)).not.toEqual(Array.from(c.model.weights));
});

const nativeTool = join(repoRoot, "build/tests/cpp/native_train");
test("the same seed gives the same γ and weights natively and in wasm (1e-5 relative)", async () => {
  // npm test builds the native tool first; a missing tool is a failure, not a skip.
  expect(existsSync(nativeTool)).toBe(true);
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-"));
  const csv = join(dir, "train.csv");
  writeFileSync(csv, toCsv(table));
  // Both resolve the run with the core's defaults (private column ranges included).
  const native = spawnSync(nativeTool, [csv, "7", "1", "1e-5"], { encoding: "utf8" });
  expect(native.status).toBe(0);
  const expected = JSON.parse(native.stdout);
  // The same file through the CLI's reader path: streamed straight into wasm memory.
  const { model, report } = await dp.trainCsv(csvFile(csv), { label: "label" }, { epsilon: 1, delta: 1e-5, seed: 7 });
  expect(report.selectedMargin).toBe(expected.gamma);
  const w = [...model.weights, model.intercept];
  expect(w).toHaveLength(expected.weights.length);
  const scale = Math.max(...expected.weights.map(Math.abs));
  w.forEach((v, j) => expect(Math.abs(v - expected.weights[j])).toBeLessThanOrEqual(1e-5 * scale));
});

test("model file round trip: predictions equal in-process predictions", async () => {
  const { model } = await dp.train(table, { epsilon: 2, delta: 1e-5, seed: 5 });
  const json = JSON.stringify(model.toJSON());
  const loaded = dp.modelFromJSON(json);
  expect(Array.from(loaded.predict(table.features).scores)).toEqual(Array.from(model.predict(table.features).scores));
  const file = model.toJSON();
  expect(file.format).toBe("dpmargin-model");
  expect(file.version).toBe(3);  // version 2 (issue 14): encoding, schema and classes when read from a CSV; 3 (issue 31): multiclass joint or one-vs-rest
  expect(file.weights).toHaveLength(20);
  expect(typeof file.intercept).toBe("number");
  expect(() => dp.modelFromJSON({ ...file, version: 4 })).toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
  // A version 1 file (no encoding) still loads and predicts the same.
  const v1 = dp.modelFromJSON({ ...file, version: 1 });
  expect(Array.from(v1.predict(table.features).scores)).toEqual(Array.from(model.predict(table.features).scores));
  expect(() => dp.modelFromJSON({ ...file, version: 1, encoding: { blocks: [], width: 20 } }))
    .toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
  expect(() => dp.modelFromJSON({ ...file, weights: [1, 2] })).toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
  expect(() => dp.modelFromJSON({ ...file, weights: file.weights.map((_, i) => (i ? 0 : Number.NaN)) }))
    .toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
  // Rows as arrays work too.
  const rows = [Array.from(table.features.subarray(0, 20))];
  expect(model.predict(rows).scores[0]).toBeCloseTo(model.predict(table.features).scores[0], 10);
});

test("PrivTune and the fixed-margin learner train; PrivTune releases only the selected candidate", async () => {
  const p = await dp.train(table, { epsilon: 1, delta: 1e-5, selector: "privtune", expectedRuns: 5, seed: 1 });
  expect(p.report.candidates).toHaveLength(1);
  expect(p.local.runs).toBeGreaterThanOrEqual(1);  // K: local only, never released
  const f = await dp.train(table, { epsilon: 1, delta: 1e-5, selector: "fixed", margin: 0.1, seed: 1 });
  // The released iterate by default: the core's choice per calibration (docs/design/ACCURACY.md).
  expect(f.report.output).toBe("last");
  const paper = await dp.train(table, { epsilon: 1, delta: 1e-5, calibration: "paper", maxIterations: 5, seed: 1 });
  expect(paper.report.output).toBe("average");
  expect(f.report.selectedMargin).toBe(0.1);
  const plan = f.report.plan;
  expect(plan.muRun).toBe(plan.muTrain);  // the one run gets all of training's μ
  expect(plan.muTrain ** 2 + plan.muRanges ** 2).toBeCloseTo(plan.mu ** 2, 14);
});

describe("bad input → typed errors; the module keeps working", () => {
  const cases = [
    [{ epsilon: 0, delta: 1e-5 }, table, "BAD_PARAMETER", "epsilon"],
    [{ epsilon: 1, delta: 2 }, table, "BAD_PARAMETER", "delta"],
    [{ epsilon: 1, delta: 1e-5, seed: -1 }, table, "BAD_PARAMETER", "seed"],
    [{ epsilon: 1, delta: 1e-5, output: "median" }, table, "BAD_PARAMETER", "output"],
    [{ epsilon: 1, delta: 1e-5, selector: "fixed" }, table, "BAD_PARAMETER", "margin"],
    [{ epsilon: 1, delta: 1e-5, margin: 0.1 }, table, "BAD_PARAMETER", "margin"],
    [{ epsilon: 1, delta: 1e-5, rowNormalization: "l1" }, table, "BAD_PARAMETER", "rowNormalization"],
    [{ epsilon: 1, delta: 1e-5, bogus: 1 }, table, "BAD_PARAMETER", "bogus"],
    [{ epsilon: 1, delta: 1e-5 }, { ...table, columns: 7 }, "BAD_PARAMETER", "features"],
    [{ epsilon: 1, delta: 1e-5 }, { ...table, labels: table.labels.slice(1) }, "BAD_PARAMETER", "labels"],
    [{ epsilon: 1, delta: 1e-5 }, { ...table, labels: Int8Array.from(table.labels, () => 1) }, "ONE_CLASS", undefined],
    [{ epsilon: 1, delta: 1e-5 }, { ...table, labels: Int8Array.from(table.labels, (v, i) => (i === 5 ? 2 : v)) }, "BAD_LABEL", "labels"],
    [{ epsilon: 1, delta: 1e-5 }, { ...table, features: Float32Array.from(table.features, (v, i) => (i === 45 ? Number.NaN : v)) }, "NON_FINITE", undefined],
  ];
  test.each(cases)("%j", async (options, data, code, parameter) => {
    const promise = dp.train(data, options);
    await expect(promise).rejects.toBeInstanceOf(DpMarginError);
    await expect(promise).rejects.toMatchObject({ code, ...(parameter ? { parameter } : {}) });
    const { report } = await dp.train(table, { epsilon: 1, delta: 1e-5, seed: 9, maxIterations: 20 });
    expect(report.candidates.length).toBeGreaterThan(0);
  });

  test("NON_FINITE names the row and column", async () => {
    await expect(dp.train({ ...table, features: Float32Array.from(table.features, (v, i) => (i === 45 ? Infinity : v)) },
      { epsilon: 1, delta: 1e-5 })).rejects.toThrow(/row 2, column 5/);
  });
});

describe("column ranges", () => {
  // Raw units: column 0 in the thousands, column 1 in [0, 1e-3]; the label depends on both.
  const n = 3000;
  const features = new Float32Array(n * 2);
  const labels = new Int8Array(n);
  const rand = (() => { let a = 7; return () => ((a = (a * 16807) % 2147483647) / 2147483647); })();
  for (let i = 0; i < n; i++) {
    const u = rand(), v = rand();
    features[2 * i] = 1000 + 4000 * u;
    features[2 * i + 1] = 1e-3 * v;
    labels[i] = u - v > 0 ? 1 : -1;
  }
  const raw = { features, labels, columns: 2 };

  test("account: μ² = μ_ranges² + μ_train² exactly", () => {
    const plan = dp.account({ epsilon: 1, delta: 1e-5, n, d: 3, rangeShare: 0.1 });
    expect(Math.hypot(plan.muRanges, plan.muTrain)).toBeCloseTo(plan.mu, 14);
    expect(plan.muRanges).toBeCloseTo(Math.sqrt(0.1) * plan.mu, 14);
    expect(() => dp.account({ epsilon: 1, delta: 1e-5, n, d: 3, rangeShare: 1 }))
      .toThrow(expect.objectContaining({ parameter: "rangeShare" }));
    expect(() => dp.account({ epsilon: 1, delta: 1e-5, n, d: 3, rangeShare: 0.1, selector: "privtune" }))
      .toThrow(expect.objectContaining({ parameter: "rangeShare" }));
  });

  test("private ranges are estimated, released in the model, and applied by predict", async () => {
    const { model, report } = await dp.train(raw, { epsilon: 2, delta: 1e-5, rangeShare: 0.2, seed: 1 });
    expect(report.rangesPrivate).toBe(true);
    expect(report.columnRanges).toHaveLength(2);
    const [[lo0, hi0], [lo1, hi1]] = report.columnRanges;
    expect(lo0).toBeGreaterThan(100);
    expect(hi0).toBeLessThan(2e4);
    expect(hi1).toBeLessThan(1e-2);
    expect(lo1).toBeLessThan(1e-4);
    const file = model.toJSON();
    expect(file.preprocessing.columnRanges).toEqual(report.columnRanges);
    expect(file.preprocessing.rangesPrivate).toBe(true);
    expect(file.privacy.muRanges).toBeCloseTo(report.plan.muRanges, 15);
    const loaded = dp.modelFromJSON(JSON.stringify(file));
    expect(Array.from(loaded.predict(features).scores)).toEqual(Array.from(model.predict(features).scores));
    const { labels: predicted } = model.predict(features);
    const accuracy = predicted.reduce((a, l, i) => a + (l === labels[i] ? 1 : 0), 0) / n;
    // Without scaling the tiny column is invisible after unit-norm rows; with ranges it is not.
    const unscaled = await dp.train(raw, { epsilon: 2, delta: 1e-5, seed: 1, rangeShare: 0 });
    const accUnscaled = unscaled.model.predict(features).labels.reduce((a, l, i) => a + (l === labels[i] ? 1 : 0), 0) / n;
    expect(accuracy).toBeGreaterThan(accUnscaled + 0.05);
  });

  test("every released map (min-max, symmetric, signed-log) reaches the model file and predict", async () => {
    // Column 0 centred (symmetric), column 1 one-sided (min-max), column 2 spread over 11
    // decades at n = 300: no bin clears 4σ, so the public signed-log fallback.
    const m = 300;
    const f = new Float64Array(3 * m);
    const y = new Int8Array(m);
    for (let i = 0; i < m; i++) {
      const a = (i % 2 ? 1 : -1) * (1 + 0.7 * (((i * 29) % 31) / 31));  // ±[1, 1.7): two bins
      f[3 * i] = a;
      f[3 * i + 1] = 5 + ((i * 37) % 100) / 10;
      f[3 * i + 2] = 10 ** (-3 + (11 * ((i * 53) % 97)) / 97);
      y[i] = a > 0 ? 1 : -1;
    }
    const data = { features: f, labels: y, columns: 3 };
    const { model, report } = await dp.train(data, { epsilon: 1, delta: 1e-5, seed: 4 });
    expect(report.columnScalings.map((c) => c.map)).toEqual(["symmetric", "min-max", "signed-log"]);
    expect(report.columnScalings.map((c) => c.path)).toEqual(["private", "private", "fallback"]);
    expect(report.columnScalings.map((c) => [c.lo, c.hi])).toEqual(report.columnRanges);
    const file = model.toJSON();
    expect(file.preprocessing.columnMaps).toEqual(["symmetric", "min-max", "signed-log"]);
    const loaded = dp.modelFromJSON(JSON.stringify(file));
    const scores = Array.from(model.predict(f).scores);
    expect(Array.from(loaded.predict(f).scores)).toEqual(scores);
    // The maps are applied: read as min-max, the same ranges give other scores.
    const { columnMaps, ...minMaxOnly } = file.preprocessing;
    const asMinMax = dp.modelFromJSON(JSON.stringify({ ...file, preprocessing: minMaxOnly }));
    expect(Array.from(asMinMax.predict(f).scores)).not.toEqual(scores);
    // A model file's maps are checked.
    for (const bad of [["min-max"], ["min-max", "min-max", "log"], "symmetric"]) {
      expect(() => dp.modelFromJSON(JSON.stringify({ ...file, preprocessing: { ...file.preprocessing, columnMaps: bad } })))
        .toThrow(expect.objectContaining({ code: "BAD_MODEL" }));
    }
    expect(columnMaps).toHaveLength(3);
  });

  test("a table on one scale at small n: unresolved columns take the table's span (path pooled)", async () => {
    // 1,500 rows × 64 pixel-like counts (half zeros, else 1..16) at ε = 0.5: no column's own
    // histogram supports more than its zero bin, the sum of them does (docs/design/SCALING.md, step 5).
    const m = 1500, d = 64;
    const f = new Float64Array(d * m);
    const y = new Int8Array(m);
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let j = 0; j < d; j++) {
        const h = (i * 2654435761 + j * 40503) >>> 0;
        const v = (h >>> 7) % 2 ? 0 : 1 + ((h >>> 11) % 16);
        f[d * i + j] = v;
        s += j < d / 2 ? v : -v;
      }
      y[i] = s > 0 ? 1 : -1;
    }
    const { model, report } = await dp.train({ features: f, labels: y, columns: d }, { epsilon: 0.5, delta: 1e-5, seed: 5 });
    const pooled = report.columnScalings.filter((c) => c.path === "pooled");
    expect(pooled.length).toBeGreaterThan(d / 2);
    for (const c of pooled) {
      expect(c).toMatchObject({ lo: 0, map: "min-max" });
      expect(c.hi).toBeGreaterThanOrEqual(10);
      expect(c.hi).toBeLessThan(17.8);
    }
    expect(report.columnScalings.map((c) => [c.lo, c.hi])).toEqual(report.columnRanges);
    // The span reaches the model file like any range: a loaded model predicts the same.
    const loaded = dp.modelFromJSON(JSON.stringify(model.toJSON()));
    expect(Array.from(loaded.predict(f.subarray(0, 10 * d)).scores)).toEqual(Array.from(model.predict(f.subarray(0, 10 * d)).scores));
  });

  test("declared ranges take a map per column, validated", async () => {
    const centred = { features: Float64Array.from([-2, 1, 2, -1, -1, 3, 1, -3]), labels: Int8Array.from([-1, 1, -1, 1]), columns: 2 };
    const { report, model } = await dp.train(centred, {
      epsilon: 1, delta: 1e-5, seed: 1, columnRanges: [[-2, 2], [-3, 3]], columnMaps: ["symmetric", "min-max"],
    });
    expect(report.columnScalings).toEqual([
      { lo: -2, hi: 2, map: "symmetric", path: "declared" },
      { lo: -3, hi: 3, map: "min-max", path: "declared" },
    ]);
    expect(model.toJSON().preprocessing.columnMaps).toEqual(["symmetric", "min-max"]);
    const base = { epsilon: 1, delta: 1e-5 };
    await expect(dp.train(centred, { ...base, columnMaps: ["symmetric", "min-max"] }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "columnMaps" });
    await expect(dp.train(centred, { ...base, columnRanges: [[-2, 2], [-3, 3]], columnMaps: ["symmetric"] }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "columnMaps" });
    await expect(dp.train(centred, { ...base, columnRanges: [[-2, 2], [-3, 3]], columnMaps: ["symmetric", "log"] }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "columnMaps[1]" });
    await expect(dp.train(centred, { ...base, columnRanges: [[-1, 2], [-3, 3]], columnMaps: ["symmetric", "min-max"] }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "columnRanges[0].lo" });
  });

  test("public ranges are applied as declared and validated", async () => {
    const { model, report } = await dp.train(raw, {
      epsilon: 2, delta: 1e-5, seed: 2, columnRanges: [[1000, 5000], [0, 1e-3]],
    });
    expect(report.rangesPrivate).toBe(false);
    expect(report.columnRanges).toEqual([[1000, 5000], [0, 1e-3]]);
    expect(model.toJSON().preprocessing.columnRanges).toEqual([[1000, 5000], [0, 1e-3]]);
    await expect(dp.train(raw, { epsilon: 1, delta: 1e-5, columnRanges: [[0, 1]] }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "columnRanges" });
    await expect(dp.train(raw, { epsilon: 1, delta: 1e-5, columnRanges: [[1, 1], [0, 1]] }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER" });
    await expect(dp.train(raw, { epsilon: 1, delta: 1e-5, columnRanges: [[0, 1], [0, 1]], rangeShare: 0.1 }))
      .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "rangeShare" });
  });
});
