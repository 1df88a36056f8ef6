// Issue 29 item 3: nothing is spent before everything that can be checked has been checked, and a
// run that has started keeps what it paid for. Checked through the files a user has: the
// --ledger file (a refused run leaves it byte for byte as it was, or never creates it; a run that
// fails after starting is recorded in it) and the model file (written even when the run fails
// afterwards; without --out, next to TRAIN.csv, never over an existing file).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { runClis } from "./helpers.js";
import { mulberry32 } from "./synthetic.js";

jest.setTimeout(300_000);

const root = mkdtempSync(join(tmpdir(), "dpmargin-spend-"));
const rand = mulberry32(3);
const row = (label = null) => {
  const x = Array.from({ length: 4 }, () => (rand() * 2 - 1).toFixed(3));
  return [...x, label ?? (Number(x[0]) > 0 ? 1 : 0)].join(",");
};
const TRAIN = ["id,x0,x1,x2,x3,label", ...Array.from({ length: 400 }, (_, i) => `${i},${row()}`)].join("\n") + "\n";
const budget = ["--epsilon", "1", "--delta", "1e-5"];

// One folder per case: TRAIN.csv, a ledger holding one earlier run, and whatever the case adds.
let caseNo = 0;
function folder(extra = {}) {
  const dir = join(root, `case${++caseNo}`);
  mkdirSync(dir);
  writeFileSync(join(dir, "train.csv"), TRAIN);
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text);
  return dir;
}
const EARLIER = JSON.stringify({ format: "dpmargin-ledger", version: 1, cap: null,
  runs: [{ epsilon: 1, delta: 1e-5, gdp: true, mu: 0.268, deltaGdp: 1e-5, selector: "auto" }] }, null, 2) + "\n";
const features = (cols) => [cols.join(","), ...Array.from({ length: 50 }, () => cols.map(() => (rand() * 2 - 1).toFixed(3)).join(","))].join("\n") + "\n";

// [name, files, args (in the folder), expected stderr]
const REFUSED = [
  ["--test lacks a feature column", { "test.csv": features(["x0", "x1", "x3", "label"]) },
    ["--test", "test.csv"], /^dpmargin: BAD_PARAMETER \(--test\): --test .*test\.csv lacks a column .*column "x2" is not in the header .* \(nothing was spent\)$/],
  ["--test lacks the label", { "test.csv": features(["x0", "x1", "x2", "x3", "Label"]) },
    ["--test", "test.csv"], /^dpmargin: LABEL_NOT_FOUND \(--test\): .*the label column "label" is not in the header .*did you mean "Label"\? \(nothing was spent\)$/],
  ["--test does not exist", {}, ["--test", "absent.csv"], /^dpmargin: BAD_PARAMETER \(--test\): --test .*absent\.csv: cannot read/],
  ["--test is empty", { "test.csv": "" }, ["--test", "test.csv"], /^dpmargin: CSV_PARSE \(--test\)/],
  ["--out exists", { "model.json": "{}" }, ["--out", "model.json"], /^dpmargin: BAD_PARAMETER \(--out\): "[^"]*model\.json" exists/],
  ["--out in a folder that does not exist", {}, ["--out", "nowhere/model.json"], /^dpmargin: BAD_PARAMETER \(--out\): cannot write .*ENOENT/],
  ["--ledger in a folder that does not exist", {}, ["--ledger", "nowhere/ledger.json"], /^dpmargin: BAD_PARAMETER \(--ledger\): cannot write the ledger/],
  ["--ledger is not a ledger", { "other.json": "[]\n" }, ["--ledger", "other.json"], /^dpmargin: BAD_PARAMETER \(--ledger\)/],
  ["--ledger-cap is malformed", {}, ["--ledger", "new-ledger.json", "--ledger-cap", "3"], /^dpmargin: BAD_PARAMETER \(--ledger-cap\)/],
  ["the run would pass the ledger's cap", { "capped.json": EARLIER.replace('"cap": null', '"cap": {"epsilon": 1.2, "delta": 1e-4}') },
    ["--ledger", "capped.json"], /^dpmargin: BUDGET_EXCEEDED/],
  ["--label is not in the header", {}, ["--label", "labl"], /^dpmargin: LABEL_NOT_FOUND \(--label\).*did you mean "label"\?$/],
  ["--features names a missing column", {}, ["--features", "x0,x9"], /^dpmargin: BAD_PARAMETER \(--features\)/],
  ["--schema is not JSON", { "schema.json": "{" }, ["--schema", "schema.json"], /^dpmargin: BAD_PARAMETER \(--schema\)/],
  ["--schema declares an unknown kind", { "schema.json": '{"columns": [{"name": "x0", "kind": "text"}]}' }, ["--schema", "schema.json"], /^dpmargin: BAD_PARAMETER \(--schema\)/],
  ["--epsilon is out of range", {}, ["--epsilon", "0"], /^dpmargin: BAD_PARAMETER \(--epsilon\)/],
];

const files = (dir) => readdirSync(dir).sort();

describe("a refused run spends nothing: the ledger is unchanged and no model file appears", () => {
  const cases = REFUSED.map(([name, extra, args, expected]) => {
    const dir = folder({ "ledger.json": EARLIER, ...extra });
    const trainFile = args.find((a) => a.startsWith("TRAIN="))?.slice(6) ?? "train.csv";
    const argv = ["train", join(dir, trainFile), ...budget,
      ...args.filter((a) => !a.startsWith("TRAIN=")).map((a) => (/\.(csv|json)$/.test(a) ? join(dir, a) : a))];
    // A ledger in every case, so that any run that got as far as training would be recorded.
    if (!args.includes("--ledger")) argv.push("--ledger", join(dir, "ledger.json"));
    return { name, dir, argv, expected, before: files(dir) };
  });
  let results;
  beforeAll(async () => { results = await runClis(cases.map((c) => c.argv), 2); });

  test.each(cases.map((c, i) => [c.name, i]))("%s", (_name, i) => {
    const c = cases[i];
    const r = results[i];
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(c.expected);
    expect(readFileSync(join(c.dir, "ledger.json"), "utf8")).toBe(EARLIER);
    expect(files(c.dir)).toEqual(c.before);  // no model file, no new ledger, no temporary file
  });
});

describe("a run that has started keeps what it paid for", () => {
  // The test file's header is right, one of its rows is not (past what the header check reads).
  const bad = ["x0,x1,x2,x3,label", ...Array.from({ length: 3000 }, () => row()), "1,2,3"].join("\n") + "\n";
  let ragged, dir;
  beforeAll(async () => {
    dir = folder({ "ledger.json": EARLIER, "test.csv": bad });
    [ragged] = await runClis([["train", join(dir, "train.csv"), ...budget, "--test", join(dir, "test.csv"),
      "--ledger", join(dir, "ledger.json"), "--out", join(dir, "model.json")]]);
  });

  test("a bad row of the test file, found after training: exit 2, the model written, the run recorded", () => {
    expect(ragged.code).toBe(2);
    expect(ragged.stdout).toBe("");
    expect(ragged.stderr).toMatch(/^dpmargin: RAGGED_ROW \(--test\): --test .*test\.csv: line 3002 has 3 fields; the header has 5; the model is kept in .*model\.json and the run is recorded in .*ledger\.json$/m);
    const ledger = JSON.parse(readFileSync(join(dir, "ledger.json"), "utf8"));
    expect(ledger.runs).toHaveLength(2);
    expect(ledger.runs[1]).toMatchObject({ epsilon: 1, delta: 1e-5 });
    const model = JSON.parse(readFileSync(join(dir, "model.json"), "utf8"));
    expect(model.format).toBe("dpmargin-model");
  });
});

describe("category or class discovery: the ledger records the run before the first noise", () => {
  // A text label: its classes are discovered under the budget (the run's first noisy step).
  const text = (n, rare) => ["x0,x1,species", ...Array.from({ length: n }, (_, i) => {
    const a = rand() * 2 - 1;
    return `${a.toFixed(3)},${(rand() * 2 - 1).toFixed(3)},${i < rare ? "cat" : a > 0 ? "dog" : "cow"}`;
  })].join("\n") + "\n";
  let found, missed, refused, dir;
  beforeAll(async () => {
    dir = folder({ "ledger.json": EARLIER, "capped.json": EARLIER.replace('"cap": null', '"cap": {"epsilon": 1.2, "delta": 1e-4}'),
      "animals.csv": text(1500, 0), "rare.csv": text(3, 3) });
    [found, missed, refused] = await runClis([
      ["train", join(dir, "animals.csv"), ...budget, "--label", "species", "--ledger", join(dir, "ledger.json"), "--json", "--quiet"],
      // Three rows: discovery finds no class, after drawing its noise.
      ["train", join(dir, "rare.csv"), ...budget, "--label", "species", "--discover-classes", "--ledger", join(dir, "ledger.json")],
      ["train", join(dir, "animals.csv"), ...budget, "--label", "species", "--ledger", join(dir, "capped.json"), "--progress"],
    ], 1);
  });

  test("a run that discovers: one record, equal to its final plan's", () => {
    expect(found.code).toBe(0);
    const plan = JSON.parse(found.stdout).report.plan;
    expect(plan.discoveryColumns).toBe(1);
    const runs = JSON.parse(readFileSync(join(dir, "ledger.json"), "utf8")).runs;
    expect(runs[1]).toEqual({ epsilon: 1, delta: 1e-5, gdp: true, mu: plan.mu, deltaGdp: plan.deltaGdp, selector: plan.selector });
  });

  test("discovery that fails after its noise (ONE_CLASS) is recorded", () => {
    expect(missed.code).toBe(2);
    expect(missed.stderr).toMatch(/^dpmargin: ONE_CLASS \(--classes\): private class discovery found 0 class/m);
    expect(JSON.parse(readFileSync(join(dir, "ledger.json"), "utf8")).runs).toHaveLength(3);
  });

  test("beyond the cap: refused before discovery counts anything, the ledger unchanged", () => {
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/dpmargin: BUDGET_EXCEEDED/);
    expect(refused.stderr).toMatch(/animals\.csv: reading/);
    expect(refused.stderr).not.toMatch(/counting categories/);
    expect(readFileSync(join(dir, "capped.json"), "utf8")).toBe(EARLIER.replace('"cap": null', '"cap": {"epsilon": 1.2, "delta": 1e-4}'));
  });
});

describe("without --out the model is written next to TRAIN.csv, never over a file", () => {
  let first, second, json, dir;
  beforeAll(async () => {
    dir = folder({ "train.model.json": "mine\n" });
    const args = ["train", join(dir, "train.csv"), ...budget, "--seed", "1", "--quiet"];
    [first, second] = await runClis([args, [...args, "--json"]], 1);
    json = JSON.parse(second.stdout);
  });

  test("train.model.json exists: train.model-2.json, then -3; the summary and --json say which", () => {
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`model written to ${join(dir, "train.model-2.json")} (next to ${join(dir, "train.csv")}: name it with --out FILE)`);
    expect(readFileSync(join(dir, "train.model.json"), "utf8")).toBe("mine\n");
    expect(JSON.parse(readFileSync(join(dir, "train.model-2.json"), "utf8")).format).toBe("dpmargin-model");
    expect(second.code).toBe(0);
    expect(json.modelFile).toBe(join(dir, "train.model-3.json"));
    expect(existsSync(json.modelFile)).toBe(true);
  });
});
