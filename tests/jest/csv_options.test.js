// Every CSV option of the core's table (scope "table") and discoveryShare: a bad value is
// BAD_PARAMETER naming the option, through the API (trainCsv; the module keeps working) and
// through the CLI (exit 2, one line on stderr naming the flag, nothing on stdout).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, DpMarginError } from "dpmargin";
import { runClis } from "./helpers.js";

const TRAIN = { epsilon: 1, delta: 1e-5, seed: 1, maxIterations: 5 };
const text = "a,b,c,label\n" + Array.from({ length: 40 }, (_, i) => `${i},${i % 3},${["x", "y"][i % 2]},${i % 2}`).join("\n") + "\n";
const dir = mkdtempSync(join(tmpdir(), "dpmargin-options-"));
const file = join(dir, "t.csv");
writeFileSync(file, text);
const schemaFile = (name, value) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
};

// [option, bad API values (csv options besides label), bad CLI flags, expected API parameter]
const CASES = [
  ["label", [{ label: 5 }, { label: "" }], [["--label", ""]]],
  ["classes", [{ classes: "a" }, { classes: ["0"] }, { classes: ["0", "0"] }, { classes: Array.from({ length: 51 }, (_, i) => `c${i}`) }],
    [["--classes", "0"], ["--classes", "0,0"]]],
  ["positive", [{ positive: 3 }, { positive: "x", classes: ["0", "1"] }], [["--positive", "x", "--classes", "0,1"]]],
  ["discoverClasses", [{ discoverClasses: "yes" }, { discoverClasses: true, positive: "1" }, { discoverClasses: true, classes: ["0", "1"] }],
    [["--discover-classes", "--positive", "1"], ["--discover-classes", "--classes", "0,1"]]],
  ["features", [{ features: "a" }, { features: [] }, { features: ["zz"] }, { features: ["label"] }], [["--features", "zz"], ["--features", "a,a"]]],
  ["ignore", [{ ignore: [1] }, { ignore: ["zz"] }, { ignore: ["label"] }, { ignore: ["a", "b", "c"] }], [["--ignore", "zz"], ["--ignore", "label"]]],
  ["missing", [{ missing: "sometimes" }, { missing: "level" }, { missing: 0 }], [["--missing", "sometimes"], ["--missing", "level"]]],
  ["fill", [{ fill: "0" }, { fill: Number.POSITIVE_INFINITY }, { fill: Number.NaN }], [["--fill", "abc"], ["--fill", "inf"]]],
  ["categories", [{ categories: "declared" }, { categories: 1 }], [["--categories", "declared"], ["--categories", "one-hot"]]],
  ["maxLevels", [{ maxLevels: 0 }, { maxLevels: 1.5 }, { maxLevels: -1 }, { maxLevels: 1001 }], [["--max-levels", "0"], ["--max-levels", "x"]]],
  ["hashBuckets", [{ hashBuckets: 0 }, { hashBuckets: 1 }, { hashBuckets: 2.5 }, { hashBuckets: 1025 }], [["--hash-buckets", "1"], ["--hash-buckets", "2.5"]]],
  ["delimiter", [{ delimiter: ":" }, { delimiter: ",," }, { delimiter: 1 }], [["--delimiter", ":"]]],
  ["decimal", [{ decimal: ";" }, { decimal: "" }], [["--decimal", ";"]]],
  ["encoding", [{ encoding: "utf-16" }, { encoding: "UTF8" }], [["--encoding", "utf-16"]]],
  ["missingTokens", [{ missingTokens: "NA" }, { missingTokens: [" NA "] }, { missingTokens: [1] }, { missingTokens: ["NA", "NA"] }],
    [["--missing-tokens", "NA,NA"]]],
  ["schema", [{ schema: 5 }, { schema: { format: "x" } }, { schema: { columns: [{ name: "a", kind: "bogus" }] } },
    { schema: { columns: [{ name: "zz", kind: "numeric" }] } }],
    [["--schema", schemaFile("not-json.json", "{ not json")], ["--schema", schemaFile("bad-kind.json", { columns: [{ name: "a", kind: "bogus" }] })],
      ["--schema", join(dir, "absent.json")]]],
  ["maxBytes", [{ maxBytes: -1 }, { maxBytes: "1" }, { maxBytes: 0 }], [["--max-bytes", "-1"], ["--max-bytes", "lots"]]],
];

let dp;
beforeAll(async () => {
  dp = await load();
});

test("every CSV option of the core's table is covered here", () => {
  const table = dp.options.filter((o) => o.scope === "table").map((o) => o.name).sort();
  expect(CASES.map(([name]) => name).sort()).toEqual(table);
  expect(dp.options.find((o) => o.name === "discoveryShare")).toBeDefined();
});

describe.each(CASES)("%s", (name, apiValues, cliFlags) => {
  test.each(apiValues.map((v) => [JSON.stringify(v), v]))("API %s → BAD_PARAMETER naming it, then the module trains", async (_, value) => {
    const error = await dp.trainCsv(text, { label: "label", ...value }, TRAIN).then(() => null, (e) => e);
    expect(error).toBeInstanceOf(DpMarginError);
    expect(error.code).toBe("BAD_PARAMETER");
    // A schema's column is named as the core names it ("columns" / "columns.age.missing", which
    // the CLI maps to --schema); everything else by the option's own name.
    const named = name === "schema" ? /^(schema|columns)\b/ : new RegExp(`^${name}(\\.|$)`);
    expect(error.parameter).toMatch(named);
    expect(error.message).toContain(name === "schema" ? error.parameter.split(/[.[]/)[0] : name);
    const { report } = await dp.trainCsv(text, { label: "label" }, TRAIN);
    expect(report.plan.n).toBe(40);
  });

  test("CLI: exit 2, one line naming the flag, nothing on stdout", async () => {
    const flag = `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    const results = await runClis(cliFlags.map((flags) =>
      ["train", file, ...(flags.includes("--label") ? [] : ["--label", "label"]), "--epsilon", "1", "--delta", "1e-5", ...flags]));
    results.forEach((r, i) => {
      expect([cliFlags[i], r.code]).toEqual([cliFlags[i], 2]);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`BAD_PARAMETER (${flag})`);
    });
  }, 60_000);
});

describe("discoveryShare (a training option: the share of the budget for discovery)", () => {
  test.each([[1.5], [0], [-0.1], ["0.1"]])("API %j → BAD_PARAMETER", async (value) => {
    const csv = { label: "label", categories: "discover" };
    const error = await dp.trainCsv(text, csv, { ...TRAIN, discoveryShare: value }).then(() => null, (e) => e);
    expect(error).toBeInstanceOf(DpMarginError);
    expect(error.code).toBe("BAD_PARAMETER");
    expect(error.parameter).toBe("discoveryShare");
  });

  test("API: given with the CSV options instead → BAD_PARAMETER naming it", async () => {
    const error = await dp.trainCsv(text, { label: "label", discoveryShare: 0.2 }, TRAIN).then(() => null, (e) => e);
    expect(error.code).toBe("BAD_PARAMETER");
    expect(error.parameter).toBe("discoveryShare");
  });

  test("CLI", async () => {
    const results = await runClis([["1.5"], ["x"], ["0.95", "--range-share", "0.1"]].map(([v, ...rest]) =>
      ["train", file, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--discovery-share", v, ...rest]));
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain("BAD_PARAMETER (--discovery-share)");
    }
  }, 60_000);
});
