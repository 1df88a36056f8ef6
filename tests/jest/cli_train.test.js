// `dpmargin train` and `dpmargin predict` on CSV files.
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, csvFile } from "dpmargin";
import { cli, runClis } from "./helpers.js";
import { separable, toCsv } from "./synthetic.js";

const dir = mkdtempSync(join(tmpdir(), "dpmargin-cli-"));
const trainCsv = join(dir, "train.csv");
const testCsv = join(dir, "test.csv");
const all = separable(2000, 10, 0.1, 20, 11);
const slice = (from, to) => ({
  features: all.features.subarray(from * 10, to * 10), labels: all.labels.subarray(from, to), columns: 10,
});
writeFileSync(trainCsv, toCsv(slice(0, 1500)));
writeFileSync(testCsv, toCsv(slice(1500, 2000)));

test("a plan with too little data is said on stderr before training; --quiet hides it", () => {
  // 10 rows × 50 columns at ε = 0.05: the core's advice says "too little data" (its golden case).
  const small = join(dir, "small.csv");
  const header = [...Array(50).keys()].map((j) => `x${j}`).join(",") + ",label\n";
  const rows = [...Array(10).keys()].map((i) => [...Array(50).keys()].map((j) => ((i * 7 + j * 3) % 11) / 10).join(",") + `,${i % 2}\n`);
  writeFileSync(small, header + rows.join(""));
  // 10 rows: the positive class is declared (a private class decision would be noise here).
  const base = ["train", small, "--label", "label", "--positive", "1", "--epsilon", "0.05", "--delta", "1e-6", "--max-iterations", "20"];
  const r = cli(...base);
  expect(r.code).toBe(0);
  const said = r.stderr.split("\n").filter((l) => l.startsWith("dpmargin: plan verdict: "));
  expect(said).toHaveLength(1);
  expect(said[0]).toMatch(/^dpmargin: plan verdict: too little data — /);
  expect(r.stdout).toContain(said[0].replace("dpmargin: ", ""));  // the summary repeats it
  expect(cli(...base, "--quiet").stderr).not.toContain("plan verdict");
});

test("train --json prints the report of SPEC §5.2", () => {
  // The rows are unit vectors around the origin already: min–max ranges would only shift them
  // (private ranges are the default for raw-unit tables; docs/design/ACCURACY.md).
  const r = cli("train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--test", testCsv,
    "--no-private-ranges", "--json");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  for (const key of ["selectedMargin", "epsilon", "delta", "mu", "calibration", "selector", "score", "n", "d",
    "candidates", "seeded"]) {
    expect(report).toHaveProperty(key);
  }
  // The accuracies on the user's rows and the time are local, never in the released part
  // (docs/reference/PRIVACY.md): under `local` only.
  for (const key of ["testAccuracy", "trainAccuracy", "elapsedMs"]) expect(report.local).toHaveProperty(key);
  expect(report.testAccuracy).toBeUndefined();
  expect(report.local.elapsedMs).toBeGreaterThan(0);
  expect(report.report.elapsedMs).toBeUndefined();
  expect(report.seeded).toBe(false);
  expect(report.n).toBe(1500);
  expect(report.label).toEqual({ column: "label", positive: "1", classes: ["0", "1"], classSource: "binary01", positiveRule: "binary01" });
  expect(report.schema.columns.map((c) => c.kind)).toEqual([...Array(10).fill("numeric"), "label"]);
  for (const c of report.candidates) {
    for (const key of ["gamma", "k", "T", "sigma", "projected", "noisyScore"]) expect(c).toHaveProperty(key);
  }
  expect(report.local.trainAccuracy).toBeGreaterThan(0.8);
  expect(report.local.testAccuracy).toBeGreaterThan(0.5);
  expect(report.report.rangesPrivate).toBe(false);
  expect(report.report.plan.muRanges).toBe(0);
});

test("private column ranges are the default (share 0.1), --range-share 0 turns them off", () => {
  const base = ["train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "3", "--max-iterations", "20", "--json"];
  const on = JSON.parse(cli(...base).stdout);
  expect(on.report.rangesPrivate).toBe(true);
  expect(on.report.plan.muRanges).toBeCloseTo(Math.sqrt(0.1) * on.mu, 12);
  const off = JSON.parse(cli(...base, "--range-share", "0").stdout);
  expect(off.report.rangesPrivate).toBe(false);
  // Without ranges the budget is the schema release's (and discovery's, when any) and training's.
  const { muTrain, muSchema = 0, muDiscovery = 0 } = off.report.plan;
  expect(muTrain ** 2 + muSchema ** 2 + muDiscovery ** 2).toBeCloseTo(off.mu ** 2, 12);
  const privtune = JSON.parse(cli(...base, "--selector", "privtune").stdout);
  expect(privtune.report.rangesPrivate).toBe(false);  // PrivTune's accounting covers no ranges
});

test("--seed makes the run deterministic and warns that it is not private", () => {
  const args = ["train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "4", "--json"];
  const a = cli(...args), b = cli(...args);
  expect(a.code).toBe(0);
  expect(a.stderr).toMatch(/not private: seeded/);
  const ra = JSON.parse(a.stdout), rb = JSON.parse(b.stdout);
  expect(ra.seeded).toBe(true);
  expect(ra.selectedMargin).toBe(rb.selectedMargin);
  expect(ra.candidates).toEqual(rb.candidates);
});

test("predict with the saved model matches the API, row for row", async () => {
  const model = join(dir, "model.json");
  const preds = join(dir, "pred.csv");
  let r = cli("train", trainCsv, "--label", "label", "--epsilon", "2", "--delta", "1e-5", "--seed", "8", "--out", model);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/selected margin/);
  r = cli("predict", model, testCsv, "--out", preds);
  expect(r.code).toBe(0);
  const lines = readFileSync(preds, "utf8").trim().split("\n");
  expect(lines[0]).toBe("row,score,label=1");
  const dp = await load();
  const m = dp.modelFromJSON(readFileSync(model, "utf8"));
  // A binary model's label is its column and positive class; the class list is the schema's.
  expect(m.label).toEqual({ column: "label", positive: "1" });
  expect(m.schema.classes).toEqual(["0", "1"]);
  const table = await dp.readCsv(csvFile(testCsv), { label: "label", features: m.features });
  const api = m.predict(table.features);
  expect(lines).toHaveLength(api.scores.length + 1);
  lines.slice(1).forEach((line, i) => {
    const [row, score, label] = line.split(",");
    expect(Number(row)).toBe(i + 1);
    expect(Number(score)).toBe(api.scores[i]);
    expect(Number(label)).toBe(api.labels[i] > 0 ? 1 : 0);
  });
  // stdout when no --out
  r = cli("predict", model, testCsv);
  expect(r.stdout.trim().split("\n")).toHaveLength(api.scores.length + 1);
}, 60_000);

test("predict: a missing cell gets the model's public fill; a version 1 model needs --impute", () => {
  const model = join(dir, "model-impute.json");
  let r = cli("train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "2",
    "--max-iterations", "5", "--out", model);
  expect(r.code).toBe(0);
  const holes = join(dir, "holes.csv");
  const zeros = join(dir, "zeros.csv");
  const header = readFileSync(testCsv, "utf8").split("\n")[0];
  writeFileSync(holes, `${header}\n${Array(10).fill("0.1").join(",")},1\n,${Array(9).fill("0.2").join(",")},0\n`);
  writeFileSync(zeros, `${header}\n${Array(10).fill("0.1").join(",")},1\n0,${Array(9).fill("0.2").join(",")},0\n`);
  // Version 2: the model's encoding says how a missing cell is read (the public fill, 0).
  r = cli("predict", model, holes);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(cli("predict", model, zeros).stdout);
  // Version 1 (no encoding): refused, unless --impute gives the public constant.
  const file = JSON.parse(readFileSync(model, "utf8"));
  delete file.encoding;
  delete file.schema;
  delete file.label.classes;  // version 1 has none
  const v1 = join(dir, "model-v1.json");
  writeFileSync(v1, JSON.stringify({ ...file, version: 1 }));
  r = cli("predict", v1, holes);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/MISSING_VALUE.*line 3, column "x0"/);
  r = cli("predict", v1, holes, "--impute", "0");
  expect(r.stderr).toMatch(/^dpmargin: warning: the model is not private/);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(cli("predict", v1, zeros).stdout);
  r = cli("predict", v1, holes, "--impute", "nan");
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("(--impute)");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
});

test("train --features and --ignore choose the columns; the model keeps their names", () => {
  const model = join(dir, "model-features.json");
  const r = cli("train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "2",
    "--max-iterations", "5", "--features", "x3,x1", "--out", model, "--json");
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.features).toEqual(["x3", "x1"]);
  expect(report.d).toBe(3);
  expect(JSON.parse(readFileSync(model, "utf8")).features).toEqual(["x3", "x1"]);
  const ignored = cli("train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--seed", "2",
    "--max-iterations", "5", "--ignore", "x0, x9", "--json");
  expect(JSON.parse(ignored.stdout).features).toEqual(["x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8"]);
});

describe("bad input exits 2 with one line on stderr and nothing on stdout", () => {
  const bad = join(dir, "bad.csv");
  writeFileSync(bad, "a,b,label\n1,2,1\n3,x,0\n");
  const numericB = join(dir, "numeric-b.json");
  writeFileSync(numericB, JSON.stringify({ columns: [{ name: "b", kind: "numeric" }] }));
  const ragged = join(dir, "ragged.csv");
  writeFileSync(ragged, "a,b,label\n1,2,1\n3,0\n");
  const labels = join(dir, "labels.csv");
  writeFileSync(labels, "a,b,y\n1,2,cat\n3,1,dog\n");
  const unnamed = join(dir, "unnamed.csv");
  writeFileSync(unnamed, "a,b,c\n1,2,1\n3,1,0\n");
  const cases = [
    [["train", unnamed, "--epsilon", "1", "--delta", "1e-5"], /LABEL_NOT_FOUND \(--label\)/],
    [["train", trainCsv, "--label", "nope", "--epsilon", "1", "--delta", "1e-5"], /LABEL_NOT_FOUND/],
    [["train", bad, "--schema", numericB, "--no-discover-classes", "--epsilon", "1", "--delta", "1e-5"], /NON_NUMERIC.*line 3.*"b"/],
    [["train", ragged, "--label", "label", "--epsilon", "1", "--delta", "1e-5"], /RAGGED_ROW.*line 3/],
    [["train", labels, "--label", "y", "--epsilon", "1", "--delta", "1e-5"], /ONE_CLASS \(--classes\).*--positive/],
    [["train", trainCsv, "--label", "label", "--epsilon", "0", "--delta", "1e-5"], /--epsilon/],
    [["train", join(dir, "missing.csv"), "--label", "label", "--epsilon", "1", "--delta", "1e-5"], /cannot read/],
    [["predict", trainCsv, testCsv], /BAD_MODEL/],
    [["train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--features", "x1,nope"], /BAD_PARAMETER \(--features\).*"nope"/],
    [["train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--max-bytes", "1000"], /OUT_OF_MEMORY.*limit/],
  ];
  let results;
  beforeAll(async () => {
    results = await runClis(cases.map(([args]) => args));
  }, 120_000);
  test.each(cases.map((c, i) => [c[0], c[1], i]))("%j", (_args, pattern, i) => {
    const r = results[i];
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
  test("without the schema the text cell is read by the cells' rule (numeric, the text missing), and trains", async () => {
    // 2 rows: at ε = 1e5 the private decisions are those of the exact counts (seeded: not private).
    const [r] = await runClis([["train", bad, "--epsilon", "1e5", "--delta", "1e-5", "--seed", "1", "--json"]]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.schema.columns.find((c) => c.name === "b")).toMatchObject({ kind: "numeric", reason: "numbers", decision: "private" });
    expect(report.label.column).toBe("label");  // proposed by its header name
  });
});
