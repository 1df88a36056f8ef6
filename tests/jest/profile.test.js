// The margin profile through the package and the CLI: a local, NOT private diagnostic.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "dpmargin";
import { separable, toCsv } from "./synthetic.js";
import { cli } from "./helpers.js";

let dp;
beforeAll(async () => {
  dp = await load();
});

// Separable with margin 0.1 once the 10 flipped rows are gone (n = 2000: 0.5%).
const table = separable(2000, 10, 0.1, 10, 4);

test("the curve is 0 before the outliers are removed, positive after, and says it is not private", async () => {
  const events = [];
  const p = await dp.profileMargins(table, { intercept: false, onProgress: (e) => events.push(e) });
  expect(p.private).toBe(false);
  expect(p.note).toMatch(/not private/);
  expect(p.n).toBe(2000);
  expect(p.separable).toBe(true);
  // The flips may coincide (a row flipped twice), so at most 10 removals are needed.
  expect(p.firstSeparableRemoved).toBeLessThanOrEqual(10);
  expect(p.firstSeparableRemoved).toBeGreaterThan(0);
  expect(p.firstSeparableFraction).toBeCloseTo(p.firstSeparableRemoved / 2000, 12);
  const grid = p.curve.filter((c) => c.onGrid);
  expect(grid[0].fraction).toBe(0);
  expect(grid[0].margin).toBe(0);
  expect(grid.at(-1).fraction).toBeCloseTo(0.05, 12);
  const last = p.curve.at(-1);
  expect(last.margin).toBeGreaterThan(0.09);  // the generator's margin 0.1 (unit rows, no intercept)
  expect(last.margin).toBeLessThan(0.3);
  expect(events.length).toBeGreaterThan(0);
  expect(events.at(-1).fraction).toBe(1);
});

test("the advice: rows in the way and the margin against γ₀, computed by the core, local", async () => {
  const p = await dp.profileMargins(table, { intercept: false, epsilon: 1, delta: 1e-5 });
  const a = p.advice;
  expect(a.private).toBe(false);
  expect(a.note).toMatch(/local, not private/);
  expect(a.separable).toBe(true);
  expect(a.rowsInTheWay).toBe(p.firstSeparableRemoved);
  expect(a.rowsInTheWayFraction).toBeCloseTo(p.firstSeparableFraction, 12);
  // γ₀ of the plan training would make for this table (auto, the default): one home for the rule.
  const plan = await dp.planFor({ epsilon: 1, delta: 1e-5, intercept: false }, { rows: 2000, features: 10 });
  expect(a.learner.gamma0).toBeCloseTo(plan.margin, 12);
  expect(a.learner.normalizedMargin).toBeCloseTo(plan.margin / plan.normBound, 12);
  // The generator's margin 0.1 is well above γ₀/b ≈ 1/√2000 ≈ 0.022.
  expect(a.verdict).toBe("large margin");
  expect(a.largeMarginRemoved).toBe(a.rowsInTheWay);
  expect(a.text).toMatch(/stand in the way of linear separability/);
  expect(a.text).toMatch(/can expect a large margin/);
  // Without a budget: separability only.
  const q = await dp.profileMargins(table, { intercept: false, maxRemoved: 0.01 });
  expect(q.advice.verdict).toBe("separable");
  expect(q.advice.learner).toBeUndefined();
  expect(q.advice.text).toMatch(/Give ε and δ/);
  // A bad budget fails before the profile runs.
  await expect(dp.profileMargins(table, { epsilon: -1, delta: 1e-5 })).rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "epsilon" });
});

test("cancel, options and errors; the module keeps working", async () => {
  const controller = new AbortController();
  const promise = dp.profileMargins(table, { signal: controller.signal, onProgress: () => controller.abort() });
  await expect(promise).rejects.toMatchObject({ code: "CANCELLED" });
  await expect(dp.profileMargins(table, { maxRemoved: 1.5 })).rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "maxRemoved" });
  await expect(dp.profileMargins(table, { C: -1 })).rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "C" });
  await expect(dp.profileMargins(table, { bogus: 1 })).rejects.toMatchObject({ code: "BAD_PARAMETER" });
  const p = await dp.profileMargins(table, { maxRemoved: 0.01 });
  expect(p.curve.filter((c) => c.onGrid).at(-1).fraction).toBeCloseTo(0.01, 12);
});

test("dpmargin profile prints the curve (and --json), labelled not private", () => {
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-profile-"));
  const csv = join(dir, "data.csv");
  writeFileSync(csv, toCsv(table));
  let r = cli("profile", csv, "--label", "label", "--no-intercept");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/NOT PRIVATE/);
  expect(r.stdout).toMatch(/separable after removing \d+ rows/);
  expect(r.stdout).toMatch(/advice \(local, not private\): separable — /);
  r = cli("profile", csv, "--label", "label", "--no-intercept", "--epsilon", "1");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/advice \(local, not private\): large margin — .*γ₀\/b = /);
  r = cli("profile", csv, "--label", "label", "--json", "--max-removed", "0.02");
  expect(r.code).toBe(0);
  const json = JSON.parse(r.stdout);
  expect(json.private).toBe(false);
  expect(json.rows).toBe(2000);
  expect(json.advice.private).toBe(false);
  expect(json.advice.verdict).toBe("separable");
  r = cli("profile", csv, "--label", "nope");
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/LABEL_NOT_FOUND/);
  r = cli("profile", csv, "--label", "label", "--max-removed", "2");
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--max-removed/);
});
