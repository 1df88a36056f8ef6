// Every CSV in tests/fixtures/csv/ (see manifest.json and its README) through the package API —
// read from a file path, a Blob and a stream of 3-byte pieces, which must agree — and through
// the CLI. Errors: the same DpMarginError code everywhere, the line/column named, CLI exit 2 with
// one line on stderr (naming the flag of a bad option) and nothing on stdout, and the same module
// instance still trains afterwards.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile, DpMarginError } from "dpmargin";
import { runCli } from "./helpers.js";
import { separable } from "./synthetic.js";

const dir = new URL("../fixtures/csv/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("manifest.json", dir), "utf8"));
const readme = readFileSync(new URL("README.md", dir), "utf8");
const entries = Object.entries(manifest);
const fileOf = (key, entry) => entry.file ?? key;
const pathOf = (file) => fileURLToPath(new URL(file, dir));
// The corpus tests parsing, typed errors and the table's shape on files of a few rows, where any
// private schema decision at a usable ε is noise (docs/reference/PRIVACY_SCHEMA.md, "The schema"): at ε = 1e5
// the schema counts' noise sd is ~0.05 cells, so the decisions are those of the exact counts.
// Seeded: not private. (tests/cpp/csv_fixtures_test.cpp runs the same corpus natively.)
const TRAIN = { epsilon: 1e5, delta: 1e-5, seed: 1, maxIterations: 5 };
const small = separable(40, 3, 0.1, 0, 5);
const scratch = mkdtempSync(join(tmpdir(), "dpmargin-fixtures-"));
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A re-readable byte source that hands out `size`-byte pieces (chunk-boundary stress). */
function pieces(bytes, size) {
  return {
    async *open() {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    },
  };
}

/** The manifest's options as CLI flags (a schema goes through a file, { impute } as --impute). */
function cliArgs(key, file, options) {
  // The model goes to the scratch folder (without --out it would be written next to the fixture).
  const args = ["train", pathOf(file), "--epsilon", String(TRAIN.epsilon), "--delta", "1e-5", "--seed", "1", "--max-iterations", "5", "--json",
    "--out", join(scratch, `${key.replace(/[^\w.-]/g, "_")}.model.json`)];
  for (const [name, value] of Object.entries(options)) {
    if (name === "missing" && typeof value === "object") {
      args.push("--impute", String(value.impute));
    } else if (name === "schema") {
      const schemaFile = join(scratch, `${key.replace(/[^\w.-]/g, "_")}.schema.json`);
      writeFileSync(schemaFile, JSON.stringify(value));
      args.push("--schema", schemaFile);
    } else {
      args.push(`--${kebab(name)}`, Array.isArray(value) ? value.join(",") : String(value));
    }
  }
  return args;
}

/** The flag a parameter of the API is named by on the command line. */
const flagOf = (parameter) => (/^(schema|columns)[.[]/.test(parameter) ? "--schema" : `--${kebab(parameter)}`);

async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

let dp;
const cli = new Map();
beforeAll(async () => {
  dp = await load();
  // All CLI runs up front, three at a time: each is a fresh process.
  const queue = [...entries];
  await Promise.all([0, 1, 2].map(async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, entry] = next;
      cli.set(key, await runCli(cliArgs(key, fileOf(key, entry), entry.options)));
    }
  }));
}, 300_000);

test("the corpus has at least 40 fixtures and covers the reader's error codes", () => {
  expect(entries.length).toBeGreaterThanOrEqual(40);
  const codes = new Set(entries.map(([, e]) => e.expected.code).filter(Boolean));
  for (const code of ["CSV_PARSE", "RAGGED_ROW", "NON_NUMERIC", "NON_FINITE", "MISSING_VALUE",
    "LABEL_NOT_FOUND", "ONE_CLASS", "BAD_LABEL", "BAD_PARAMETER", "OUT_OF_MEMORY"]) {
    expect(codes).toContain(code);
  }
});

test("every change by design is recorded in the README, and names an entry of the manifest", () => {
  const listed = [...readme.matchAll(/^- `([^`]+)`:/gm)].map((m) => m[1]);
  expect(listed.length).toBeGreaterThan(0);
  for (const key of listed) expect(manifest).toHaveProperty([key]);
});

describe.each(entries)("%s", (key, entry) => {
  const { options, expected } = entry;
  const file = fileOf(key, entry);
  const bytes = readFileSync(pathOf(file));

  test("package API: file, Blob and 3-byte pieces agree (readCsv)", async () => {
    const results = [];
    for (const source of [csvFile(pathOf(file)), new Blob([bytes]), pieces(bytes, 3)]) {
      results.push(await outcome(dp.readCsv(source, options)));
    }
    const [first, ...others] = results;
    for (const other of others) {
      if (first.error) {
        expect(other.error?.code).toBe(first.error.code);
        expect(other.error?.message).toBe(first.error.message);
      } else {
        expect(other.error).toBeUndefined();
        expect(other.value).toEqual(first.value);
      }
    }
  });

  test("package API: trainCsv", async () => {
    const r = await outcome(dp.trainCsv(csvFile(pathOf(file)), options, TRAIN));
    if (expected.code) {
      expect(r.error).toBeInstanceOf(DpMarginError);
      expect(r.error.code).toBe(expected.code);
      if (expected.line !== undefined) expect(r.error.message).toContain(`line ${expected.line}`);
      if (expected.column !== undefined) expect(r.error.message).toContain(`column ${JSON.stringify(expected.column)}`);
      if (expected.message !== undefined) expect(r.error.message).toContain(expected.message);
      if (expected.parameter !== undefined) expect(r.error.parameter).toBe(expected.parameter);
      // The same instance keeps working.
      const again = await dp.train(small, TRAIN);
      expect(again.report.plan.n).toBe(40);
      return;
    }
    expect(r.error).toBeUndefined();
    const { table, report, model } = r.value;
    expect(table.rows).toBe(expected.rows);
    expect(table.featureNames).toHaveLength(expected.columns);
    expect(table.schema.csv.delimiter).toBe(expected.delimiter);
    if (expected.decimal) expect(table.schema.csv.decimal).toBe(expected.decimal);
    if (expected.featureNames) expect(table.featureNames).toEqual(expected.featureNames);
    if (expected.positive) expect(table.label.positive).toBe(expected.positive);
    if (expected.imputed !== undefined) expect(table.imputed).toBe(expected.imputed);
    if (expected.missing !== undefined) expect(table.missing).toBe(expected.missing);
    for (const [name, kind] of Object.entries(expected.kinds ?? {})) {
      expect([name, table.schema.columns.find((c) => c.name === name)?.kind]).toEqual([name, kind]);
    }
    expect(report.plan.n).toBe(expected.rows);
    expect(report.plan.d).toBe(expected.columns + 1);
    expect(model.features).toEqual(table.featureNames);
    // The model's label is the table's column and positive class (its classes: the schema's).
    expect(model.label).toEqual({ column: table.label.column, positive: table.label.positive });
    expect(model.schema.classes ?? []).toEqual(table.label.classes);  // none: a positive class against the rest
  });

  test("CLI", () => {
    const r = cli.get(key);
    if (expected.code) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(expected.code);
      if (expected.line !== undefined) expect(r.stderr).toContain(`line ${expected.line}`);
      if (expected.parameter !== undefined) expect(r.stderr).toContain(`(${flagOf(expected.parameter)})`);
      return;
    }
    // --seed says so (after the plan's verdict when it is "too little data": said before training).
    expect(r.stderr).toMatch(/^(dpmargin: plan verdict: too little data — [^\n]*\n)?dpmargin: warning: not private: seeded/);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.n).toBe(expected.rows);
    expect(report.d).toBe(expected.columns + 1);
    expect(report.schema.csv.delimiter).toBe(expected.delimiter);
    if (expected.featureNames) expect(report.features).toEqual(expected.featureNames);
    if (expected.positive) expect(report.label.positive).toBe(expected.positive);
    expect(report.local.trainAccuracy).toBeGreaterThanOrEqual(0);
  });
});
