// Every CSV in tests/fixtures/csv/ (see manifest.json) through the package API — read from a
// file path, a Blob and a stream of 3-byte pieces, which must agree — and through the CLI.
// Errors: the same DpMarginError code everywhere, the row/column named, CLI exit 2 with one
// line on stderr and nothing on stdout, and the same module instance still trains afterwards.
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { load, csvFile, readCsv, DpMarginError } from "dpmargin";
import { repoRoot } from "./helpers.js";
import { separable } from "./synthetic.js";

const dir = new URL("../fixtures/csv/", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("manifest.json", dir), "utf8"));
const entries = Object.entries(manifest);
const pathOf = (file) => fileURLToPath(new URL(file, dir));
const TRAIN = { epsilon: 1, delta: 1e-5, seed: 1, maxIterations: 5 };
const small = separable(40, 3, 0.1, 0, 5);

/** A re-readable byte source that hands out `size`-byte pieces (chunk-boundary stress). */
function pieces(bytes, size) {
  return {
    async *open() {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    },
  };
}

function cliArgs(file, options) {
  const args = ["train", pathOf(file), "--epsilon", "1", "--delta", "1e-5", "--seed", "1", "--max-iterations", "5", "--json"];
  if (options.label !== undefined) args.push("--label", options.label);
  if (options.positive !== undefined) args.push("--positive", options.positive);
  if (options.features) args.push("--features", options.features.join(","));
  if (options.ignore) args.push("--ignore", options.ignore.join(","));
  if (options.missing?.impute !== undefined) args.push("--impute", String(options.missing.impute));
  if (options.maxBytes !== undefined) args.push("--max-bytes", String(options.maxBytes));
  return args;
}

function runCli(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${repoRoot}dist/cli.js`, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => { stderr += d; });
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

const FLAG = { positive: "--positive", features: "--features", ignore: "--ignore", missing: "--impute" };

let dp;
const cli = new Map();
beforeAll(async () => {
  dp = await load();
  // All CLI runs up front, three at a time: each is a fresh process.
  const queue = [...entries];
  await Promise.all([0, 1, 2].map(async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [file, { options }] = next;
      cli.set(file, await runCli(cliArgs(file, options)));
    }
  }));
}, 240_000);

test("the corpus has at least 40 fixtures and covers the reader's error codes", () => {
  expect(entries.length).toBeGreaterThanOrEqual(40);
  const codes = new Set(entries.map(([, e]) => e.expected.code).filter(Boolean));
  for (const code of ["CSV_PARSE", "RAGGED_ROW", "NON_NUMERIC", "NON_FINITE", "MISSING_VALUE",
    "LABEL_NOT_FOUND", "ONE_CLASS", "BAD_PARAMETER", "OUT_OF_MEMORY"]) {
    expect(codes).toContain(code);
  }
});

describe.each(entries)("%s", (file, { options, expected }) => {
  const bytes = readFileSync(pathOf(file));

  test("package API: file, Blob and 3-byte pieces agree", async () => {
    const results = [];
    for (const source of [csvFile(pathOf(file)), new Blob([bytes]), pieces(bytes, 3)]) {
      results.push(await outcome(readCsv(source, options)));
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
    expect(table.delimiter).toBe(expected.delimiter);
    if (expected.featureNames) expect(table.featureNames).toEqual(expected.featureNames);
    if (expected.positive) expect(table.label.positive).toBe(expected.positive);
    if (expected.imputed !== undefined) expect(table.imputed).toBe(expected.imputed);
    expect(report.plan.n).toBe(expected.rows);
    expect(report.plan.d).toBe(expected.columns + 1);
    expect(model.features).toEqual(table.featureNames);
    expect(model.label).toEqual(table.label);
  });

  test("CLI", () => {
    const r = cli.get(file);
    if (expected.code) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(expected.code);
      if (expected.line !== undefined) expect(r.stderr).toContain(`line ${expected.line}`);
      if (FLAG[expected.parameter]) expect(r.stderr).toContain(FLAG[expected.parameter]);
      return;
    }
    expect(r.stderr).toMatch(/^dpmargin: warning: not private: seeded/);  // --seed says so
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.n).toBe(expected.rows);
    expect(report.d).toBe(expected.columns + 1);
    expect(report.delimiter).toBe(expected.delimiter);
    if (expected.positive) expect(report.label.positive).toBe(expected.positive);
    expect(report.trainAccuracy).toBeGreaterThanOrEqual(0);
  });
});
