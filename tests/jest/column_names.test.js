// A column name the file does not hold (issue 29 item 10): the error lists every column of the
// header — never cutting off the one the user meant, which in the breast-cancer sample is the
// 31st and last — and suggests the names it resembles. The message is the core's
// (data/names.hpp); the CLI's own column-name errors (--keep, --test, predict's --label) use it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { repoRoot, runClis } from "./helpers.js";

jest.setTimeout(120_000);

const sample = join(repoRoot, "web/public/samples/breast-cancer.csv");
const dir = mkdtempSync(join(tmpdir(), "dpmargin-names-"));
const small = join(dir, "small.csv");
// 300 rows: enough for the private schema's decisions on the cells (a 0/1 label, numbers).
writeFileSync(small, ["x0,x1,label", ...Array.from({ length: 300 }, (_, i) => `${(i % 7) / 7},${(i % 5) / 5},${i % 2}`)].join("\n") + "\n");
const renamed = join(dir, "renamed.csv");
writeFileSync(renamed, "x0,X1,Label\n1,2,1\n2,1,0\n");
const relabelled = join(dir, "relabelled.csv");
writeFileSync(relabelled, "x0,x1,Label\n1,2,1\n2,1,0\n");
const model = join(dir, "model.json");
const budget = ["--epsilon", "1", "--delta", "1e-5"];
const lastColumns = '"worst symmetry", "worst fractal dimension", "diagnosis")';

let runs;
beforeAll(async () => {
  const [trained] = await runClis([["train", small, ...budget, "--seed", "1", "--out", model, "--quiet"]]);
  expect(trained.code).toBe(0);
  runs = await runClis([
    ["train", sample, ...budget, "--label", "Diagnosis"],
    ["train", sample, ...budget],
    ["profile", sample, "--label", "diagnosys"],
    ["schema", sample, "--label", "diagnosis", "--ignore", "mean area,worst_area"],
    ["predict", model, relabelled, "--label", "lable", "--positive", "1"],
    ["predict", model, small, "--keep", "X0"],
    ["predict", model, renamed],
  ]);
});

const line = (r) => {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  return lines[0];
};

test("LABEL_NOT_FOUND lists all 31 columns of the sample and suggests the label", () => {
  const e = line(runs[0]);
  expect(e).toMatch(/^dpmargin: LABEL_NOT_FOUND \(--label\): label column "Diagnosis" is not in the header \("mean radius", /);
  expect(e).toContain(`${lastColumns}; did you mean "diagnosis"?`);
  expect(e).not.toContain("…");
});

test("no label named and none proposed: every column listed, the last one included", () => {
  const e = line(runs[1]);
  expect(e).toMatch(/^dpmargin: LABEL_NOT_FOUND \(--label\): name the label column/);
  expect(e).toMatch(/"worst fractal dimension", "diagnosis"$/);
});

test("profile and schema: the same message for --label, and for --ignore and --features", () => {
  expect(line(runs[2])).toContain(`${lastColumns}; did you mean "diagnosis"?`);
  expect(line(runs[3])).toMatch(/^dpmargin: BAD_PARAMETER \(--ignore\): ignore must be columns of the header .*, but names "worst_area"; did you mean "worst area"\?$/);
});

test("predict: --label, --keep and a model column missing from the file say what they could mean", () => {
  expect(line(runs[4])).toBe('dpmargin: LABEL_NOT_FOUND (--label): label column "lable" is not in the header ("x0", "x1", "Label"); did you mean "Label"?');
  expect(line(runs[5])).toMatch(/^dpmargin: BAD_PARAMETER \(--keep\): .*"X0" is not in the header \("x0", "x1", "label"\); did you mean "x0"\?$/);
  expect(line(runs[6])).toBe('dpmargin: BAD_PARAMETER: features must be in the header: the model\'s column "x1" is not (the header: "x0", "X1", "Label"); did you mean "X1"?');
});

test("dp.findColumn: the index, or the core's error", async () => {
  const { load, DpMarginError } = await import("dpmargin");
  const dp = await load();
  expect(dp.findColumn(["a", "Target"], "Target")).toBe(1);
  let error;
  try {
    dp.findColumn(["a", "Target"], "target", "label", "label column");
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DpMarginError);
  expect(error.code).toBe("LABEL_NOT_FOUND");
  expect(error.message).toBe('label column "target" is not in the header ("a", "Target"); did you mean "Target"?');
  expect(() => dp.findColumn(["a"], "b")).toThrow(/column names "b" is not in the header \("a"\)$/);
});

test("dp.csvHeader: the header alone, the label and the columns a model may read (the core's public rule)", async () => {
  const { load, csvFile } = await import("dpmargin");
  const dp = await load();
  // A bad row far down the file is not read: only the header (and the dialect sample).
  const rows = Array.from({ length: 5000 }, (_, i) => `${i},${i % 7},a,1`);
  const text = ["Customer ID,age,plan,target", ...rows, "1,2"].join("\n") + "\n";
  expect(await dp.csvHeader(text)).toEqual({ columns: ["Customer ID", "age", "plan", "target"], label: "target", features: ["age", "plan"] });
  expect(await dp.csvHeader(text, { ignore: ["plan"] })).toEqual(expect.objectContaining({ features: ["age"] }));
  expect(await dp.csvHeader(text, { features: ["Customer ID"] })).toEqual(expect.objectContaining({ features: ["Customer ID"] }));
  expect((await dp.csvHeader(csvFile(sample))).label).toBeNull();  // no header name says which
  await expect(dp.csvHeader(text, { label: "Target" })).rejects.toMatchObject({ code: "LABEL_NOT_FOUND" });
  await expect(dp.csvHeader("")).rejects.toMatchObject({ code: "CSV_PARSE" });
});
