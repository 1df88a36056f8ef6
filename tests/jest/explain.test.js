// The texts the CLI and the app share (wasm/src/explain.ts), the yardsticks' rules
// (metrics.ts), and the core's sentence on what the selector does (plan.advice.selection).
import { fileURLToPath } from "node:url";
import {
  load, csvFile, formatNumber, positiveRule, positiveRuleText, oneClassWarning, majorityFlag, IMBALANCED_NOTE, deltaWarning, isImbalanced,
  noBetterThanMajority, IMBALANCED,
} from "dpmargin";

let dp;
beforeAll(async () => {
  dp = await load();
});

test("formatNumber: the one number format of the package's texts and the app", () => {
  expect(formatNumber(0)).toBe("0");
  expect(formatNumber(Number.NaN)).toBe("—");
  expect(formatNumber(0.5)).toBe("0.5");
  expect(formatNumber(1 / 3)).toBe("0.333333");
  expect(formatNumber(1e-5)).toBe("1e-5");
  expect(formatNumber(0.001)).toBe("0.001");
  expect(formatNumber(0.000999)).toBe("9.99e-4");
  expect(formatNumber(1234567)).toBe("1.23457e+6");
  expect(formatNumber(0.268051, 4)).toBe("0.2681");
  // deltaWarning writes its numbers with it.
  expect(deltaWarning(0.01, 455)).toMatch(/^δ = 0\.01 is not small next to 1\/n = 0\.0021978 \(n = 455 training rows\)/);
});

test("positiveRuleText names each rule of the core; nothing for an unknown or absent rule", () => {
  expect(positiveRuleText("named")).toMatch(/^named by you/);
  expect(positiveRuleText("binary01")).toMatch(/^1 of a 0\/1 label/);
  expect(positiveRuleText("second-declared")).toMatch(/^the second of the two declared classes/);
  expect(positiveRuleText("second-discovered")).toMatch(/^the second, in byte order, of the two classes discovered under the budget/);
  expect(positiveRuleText(undefined)).toBe("");
  expect(positiveRuleText("rarest")).toBe("");
  expect(majorityFlag("good")).toBe("at or under the majority-class rate: no better than always answering “good”");
  expect(IMBALANCED_NOTE).toMatch(/balanced accuracy and ROC AUC come first/);
  expect(oneClassWarning("not bad", 2000)).toMatch(/^Warning: all 2000 rows are predicted “not bad”: on this file the model does not tell the classes apart/);
});

test("positiveRule reads the rule off the released schema's public fields", () => {
  expect(positiveRule({ classSource: "positive", positive: "bad" })).toBe("named");
  expect(positiveRule({ classSource: "binary01", classes: ["0", "1"], positive: "1" })).toBe("binary01");
  expect(positiveRule({ classSource: "declared", classes: ["no", "yes"], positive: "yes" })).toBe("second-declared");
  expect(positiveRule({ classSource: "declared", classes: ["no", "yes"], positive: "no" })).toBe("named");
  expect(positiveRule({ classSource: "discover", classes: ["bad", "good"], positive: "good" })).toBe("second-discovered");
  // No binary label: no rule.
  expect(positiveRule({ classSource: "declared", classes: ["a", "b", "c"] })).toBeUndefined();
  expect(positiveRule({ classSource: "discover", classes: ["a", "b", "c"] })).toBeUndefined();
  expect(positiveRule(undefined)).toBeUndefined();
  expect(positiveRule(null)).toBeUndefined();
});

test("positiveRule on real runs: the rule the core applied, named in the model file's schema", async () => {
  const sample = fileURLToPath(new URL("../../web/public/samples/breast-cancer.csv", import.meta.url));
  const budget = { epsilon: 1, delta: 1e-5, seed: 3 };
  const named = await dp.trainCsv(csvFile(sample), { label: "diagnosis", positive: "malignant" }, budget);
  expect(positiveRule(named.model.toJSON().schema)).toBe("named");
  expect(named.model.toJSON().label.positive).toBe("malignant");
  const declared = await dp.trainCsv(csvFile(sample), { label: "diagnosis", classes: ["benign", "malignant"] }, budget);
  expect(positiveRule(declared.model.toJSON().schema)).toBe("second-declared");
  expect(declared.model.toJSON().label.positive).toBe("malignant");
});

test("the yardsticks' rules: imbalanced from 60% for the commonest class, no better than majority + 1 point", () => {
  expect(IMBALANCED).toBe(0.6);
  expect(isImbalanced({ majorityRate: 0.6 })).toBe(true);
  expect(isImbalanced({ majorityRate: 0.5999 })).toBe(false);
  expect(noBetterThanMajority({ accuracy: 0.9427, majorityRate: 0.9427 })).toBe(true);
  expect(noBetterThanMajority({ accuracy: 0.949, majorityRate: 0.94 })).toBe(true);
  expect(noBetterThanMajority({ accuracy: 0.951, majorityRate: 0.9409 })).toBe(false);
});

test("plan.advice.selection: auto's one run at γ₀ and why, or its choice among three margins, as plan.selects says", () => {
  let seen = { one: 0, three: 0 };
  for (const n of [200, 1000, 5000, 20000, 100000, 1000000]) {
    for (const epsilon of [0.5, 1, 4]) {
      const plan = dp.account({ epsilon, delta: 1e-5, n, d: 10 });
      const s = plan.advice.selection;
      if (plan.selects) {
        seen.three++;
        expect(s).toMatch(/^A choice among three margins around the public γ₀ = [\d.e-]+ \([\d.e-]+, [\d.e-]+ and [\d.e-]+\): the one with the smallest noisy error count is released\. It pays here: /);
        expect(plan.candidates).toHaveLength(3);
      } else {
        seen.one++;
        expect(s).toMatch(/^One run at the public margin γ₀ = [\d.e-]+, with the whole training budget: nothing is scored or selected\. A choice would not pay here: /);
        expect(plan.candidates).toHaveLength(1);
      }
      expect(s).toContain(`at n = ${n.toLocaleString("en-US")} rows and ε = ${epsilon}`);
      expect(s).toContain("at most 0.125% of the rows (n·μ_train ≥ 8,000)");
    }
  }
  expect(seen.one).toBeGreaterThan(0);
  expect(seen.three).toBeGreaterThan(0);
  // The threshold the sentence states is the plan's: n·μ_train on either side of 8,000.
  for (const n of [1000, 100000]) {
    const plan = dp.account({ epsilon: 1, delta: 1e-5, n, d: 10 });
    expect(plan.selects).toBe(n * plan.muTrain >= 8000);
  }
  expect(dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 10, selector: "iter" }).advice.selection).toMatch(/^Iter trains every one of the \d+ margins/);
  expect(dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 10, selector: "privtune" }).advice.selection).toMatch(/how many runs were made stays hidden/);
});
