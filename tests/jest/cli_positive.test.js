// Issue 29 items 4 and 9: the positive class is said aloud with the rule that chose it (the
// core's schema.positiveRule), --positive is suggested when the user named none, an imbalanced
// label's yardsticks lead with balanced accuracy and ROC AUC, accuracy at or under the majority
// rate is flagged — and `predict` shows the same yardsticks, with a --threshold for binary models.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { repoRoot, runClis } from "./helpers.js";
import { mulberry32 } from "./synthetic.js";

jest.setTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), "dpmargin-positive-"));
const sample = join(repoRoot, "web/public/samples/breast-cancer.csv");
const budget = ["--epsilon", "1", "--delta", "1e-5", "--seed", "4"];
const rand = mulberry32(9);
// 0/1 and yes/no labels on a separable table; an imbalanced one (9 in 10 rows "0") whose
// features say nothing.
const table = (n, label) => ["a,b,y", ...Array.from({ length: n }, () => {
  const a = rand() * 2 - 1;
  const b = rand() * 2 - 1;
  return `${a.toFixed(4)},${b.toFixed(4)},${label(a, b)}`;
})].join("\n") + "\n";
const write = (name, text) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const binary = write("binary.csv", table(600, (a) => (a > 0 ? 1 : 0)));
const yesNo = write("yes_no.csv", table(600, (a) => (a > 0 ? "yes" : "no")));
const imbalanced = write("imbalanced.csv", table(2000, () => (rand() < 0.9 ? 0 : 1)));
const species = write("species.csv", table(600, (a, b) => (a > 0.3 ? "c" : b > 0 ? "a" : "b")));
const out = (name) => ["--out", join(dir, `${name}.model.json`)];

let r;
beforeAll(async () => {
  const runs = {
    discovered: ["train", sample, "--label", "diagnosis", ...budget, ...out("discovered"), "--json"],
    discoveredText: ["train", sample, "--label", "diagnosis", ...budget, ...out("discoveredText")],
    named: ["train", sample, "--label", "diagnosis", "--positive", "benign", ...budget, ...out("named")],
    binary01: ["train", binary, "--label", "y", ...budget, ...out("binary01"), "--test", binary],
    declared: ["train", yesNo, "--label", "y", "--classes", "yes,no", ...budget, ...out("declared"), "--json"],
    multiclass: ["train", species, "--label", "y", "--classes", "a,b,c", ...budget, ...out("multiclass")],
    imbalanced: ["train", imbalanced, "--label", "y", ...budget, ...out("imbalanced"), "--test", imbalanced],
  };
  const names = Object.keys(runs);
  const results = await runClis(names.map((k) => runs[k]), 2);
  r = Object.fromEntries(names.map((k, i) => [k, results[i]]));
  for (const [k, x] of Object.entries(r)) if (x.code !== 0) throw new Error(`${k}: ${x.stderr}`);
});

test("discovered classes: the second in byte order, said with the rule and the flag to choose", () => {
  const json = JSON.parse(r.discovered.stdout);
  expect(json.label).toMatchObject({ column: "diagnosis", positive: "malignant", classSource: "discover", positiveRule: "second-discovered" });
  expect(json.schema.positiveRule).toBe("second-discovered");
  expect(r.discoveredText.stdout).toContain('\n  positive class "malignant" of "diagnosis": the second of the two classes discovered under the budget, in byte order; --positive "benign" makes "benign" the positive class\n');
});

test("--positive: named, no suggestion", () => {
  expect(r.named.stdout).toContain('\n  positive class "benign" of "diagnosis": named with --positive (or in --schema)\n');
});

test("a 0/1 label: 1, and how to make it 0", () => {
  expect(r.binary01.stdout).toContain('\n  positive class "1" of "y": 1 of a 0/1 label; --positive "0" makes "0" the positive class\n');
  // Balanced rows: accuracy leads, as before.
  expect(r.binary01.stdout).toMatch(/\n {4}accuracy \d+\.\d\d%, balanced accuracy \d+\.\d\d%, F1 0\.\d{4} \(positive "1"\); majority class "[01]" \d+\.\d\d%; ROC AUC/);
});

test("declared classes: the second of the list as given", () => {
  expect(JSON.parse(r.declared.stdout).label).toMatchObject({ positive: "no", positiveRule: "second-declared" });
});

test("a multiclass label has no positive class", () => {
  expect(r.multiclass.stdout).not.toContain("positive class");
});

test("an imbalanced label: balanced accuracy and AUC first, accuracy at the majority rate flagged", () => {
  const line = r.imbalanced.stdout.split("\n").find((l) => l.startsWith("    balanced accuracy"));
  expect(line).toMatch(/^ {4}balanced accuracy \d+\.\d\d%, ROC AUC [01]\.\d{4}; accuracy \d+\.\d\d%/);
  expect(line).toMatch(/; majority class "0" (8|9)\d\.\d\d% \(imbalanced: balanced accuracy and AUC first\)$/);
  const [, accuracy, majority] = /; accuracy (\d+\.\d\d)%.*majority class "0" (\d+\.\d\d)%/.exec(line);
  if (Number(accuracy) <= Number(majority)) {
    expect(line).toContain('(at or under the majority rate: no better than always answering "0")');
  } else {
    expect(line).not.toContain("at or under");
  }
  const json = JSON.parse(readFileSync(join(dir, "imbalanced.model.json"), "utf8"));
  expect(json.format).toBe("dpmargin-model");
});

describe("predict: the same yardsticks, and --threshold", () => {
  let plain, high, bad, notNumber, multi;
  const model = join(dir, "discovered.model.json");
  beforeAll(async () => {
    [plain, high, bad, notNumber, multi] = await runClis([
      ["predict", model, sample],
      ["predict", model, sample, "--threshold", "0.05", "--out", join(dir, "high.csv")],
      ["predict", model, sample, "--threshold", "Infinity"],
      ["predict", model, sample, "--threshold", "high"],
      ["predict", join(dir, "multiclass.model.json"), species, "--threshold", "0"],
    ], 2);
  });

  test("with the label in the file: balanced accuracy, AUC, accuracy, F1, the majority class by name", () => {
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/on .*breast-cancer\.csv \(569 rows with the label "diagnosis"; local, not private\): balanced accuracy \d+\.\d\d%, ROC AUC 0\.\d{4}; accuracy \d+\.\d\d%, F1 0\.\d{4} \(positive "malignant"\); majority class "benign" 62\.74% \(imbalanced/);
    expect(plain.stdout.split("\n")[0]).toBe("row,score,diagnosis=malignant");
  });

  test("--threshold T: positive when score ≥ T, a threshold column, the yardsticks of that decision", () => {
    expect(high.code).toBe(0);
    expect(high.stderr).toMatch(/local, not private; positive when score ≥ 0\.05\): balanced accuracy/);
    const lines = readFileSync(join(dir, "high.csv"), "utf8").trim().split("\n");
    expect(lines[0]).toBe("row,score,diagnosis=malignant,threshold");
    const rows = lines.slice(1).map((l) => l.split(","));
    expect(rows).toHaveLength(569);
    for (const [, score, label, t] of rows) {
      expect(t).toBe("0.05");
      expect(label).toBe(Number(score) >= 0.05 ? "1" : "0");
    }
    // Fewer positives than at the default decision (score > 0), so another accuracy.
    const positives = rows.filter((x) => x[2] === "1").length;
    const defaultPositives = plain.stdout.trim().split("\n").slice(1).filter((l) => l.endsWith(",1")).length;
    expect(positives).toBeLessThan(defaultPositives);
  });

  test("--threshold must be a finite number, for a binary model", () => {
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('dpmargin: BAD_PARAMETER (--threshold): --threshold must be a finite score, but is "Infinity"\n');
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toBe('dpmargin: BAD_PARAMETER (--threshold): --threshold must be a number, but is "high"\n');
    expect(multi.code).toBe(2);
    expect(multi.stderr).toMatch(/^dpmargin: BAD_PARAMETER \(--threshold\): --threshold applies to a binary model; .* is a multiclass model \(3 classes\)/);
  });
});
