// Plain-language advice on a plan (the core's plan::advise) through the JS API and the CLI.
import { load } from "dpmargin";
import { cli } from "./helpers.js";

let dp;
beforeAll(async () => {
  dp = await load();
});

test("dp.account: the plan carries the advice (verdict, usable margins, n and ε for good, text)", () => {
  const plan = dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50 });
  const a = plan.advice;
  expect(["good", "marginal", "too little data"]).toContain(a.verdict);
  expect(a.verdict).not.toBe("good");
  expect(a.noiseFloorRatio).toBe(Math.min(...plan.candidates.map((c) => c.noiseFloorRatio)));
  expect(a.usableMargins).toEqual([]);
  expect(a.nForGood).toBeGreaterThan(1000);
  expect(a.epsilonForGood).toBeGreaterThan(1);
  expect(a.text).toMatch(/^With n = 1,000 rows at ε = 1 the noise is [\d.,]+× the signal: /);
  expect(a.text).toMatch(/would bring it to the signal's level\.$/);
  // Re-planned at the advised n, the ratio reaches 1 (the advice uses the plan only).
  const atN = dp.account({ epsilon: 1, delta: 1e-5, n: a.nForGood, d: 50 });
  expect(atN.advice.verdict).toBe("good");
  expect(atN.advice.noiseFloorRatio).toBeLessThanOrEqual(1);
  expect(atN.advice.usableMargins).toEqual(atN.candidates.map((c) => c.gamma));
});

test("more rows never worsen the verdict", () => {
  const rank = { good: 0, marginal: 1, "too little data": 2 };
  let previous = 2;
  for (const n of [30, 300, 3000, 30000, 300000, 3000000]) {
    const v = rank[dp.account({ epsilon: 1, delta: 1e-8, n, d: 20 }).advice.verdict];
    expect(v).toBeLessThanOrEqual(previous);
    previous = v;
  }
  expect(previous).toBe(0);
});

test("dpmargin account prints the verdict and the sentence; --json has the advice", () => {
  const text = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50");
  expect(text.code).toBe(0);
  expect(text.stdout).toMatch(/verdict: (marginal|too little data) — With n = 1,000 rows at ε = 1 the noise is/);
  const json = cli("account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50", "--json");
  expect(json.code).toBe(0);
  const plan = JSON.parse(json.stdout);
  expect(plan.advice.text).toMatch(/^With n = 1,000 rows/);
  expect(plan.advice.nForGood).toBeGreaterThan(1000);
});

test("dpmargin train prints the plan's verdict and sentence in its summary", async () => {
  const { mkdtempSync, writeFileSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { separable, toCsv } = await import("./synthetic.js");
  const file = join(mkdtempSync(join(tmpdir(), "dpmargin-advice-")), "train.csv");
  const data = separable(600, 5, 0.1, 20, 3);
  writeFileSync(file, toCsv({ features: data.features, labels: data.labels, columns: 5 }));
  const r = cli("train", file, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "1", "--max-iterations", "20");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/plan verdict: (good|marginal|too little data) — With n = 600 rows at ε = 1 the noise is/);
  const json = cli("train", file, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "1", "--max-iterations", "20", "--json");
  expect(JSON.parse(json.stdout).report.plan.advice.text).toMatch(/^With n = 600 rows/);
});
