// Issue 14's formats (tests/fixtures/csv_engine/, made by make_csv_engine.py): text columns, NA
// tokens, decimal commas, multiclass labels, workbooks, Latin-1, UTF-16, gzip, a column with 10^5
// distinct strings — each through the package API (summarizeCsv, trainCsv, predictCsv) and the
// CLI (schema, train, predict). An error is the right code with its fix, the CLI says it on one
// line (exit 2, nothing on stdout), and the module keeps working after each.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile, DpMarginError } from "dpmargin";
import { runClis } from "./helpers.js";
import { separable } from "./synthetic.js";

const pathOf = (file) => fileURLToPath(new URL(`../fixtures/csv_engine/${file}`, import.meta.url));
// Formats, not privacy: these files have a few rows, where any private schema decision at a
// usable ε is noise (docs/reference/PRIVACY_SCHEMA.md, "The schema"). At ε = 1e5 the decisions are those of the
// exact counts; a case may give its own ε (`epsilon` in its expectation). Seeded: not private.
const TRAIN = { epsilon: 1e5, delta: 1e-5, seed: 1, maxIterations: 5 };
const small = separable(40, 3, 0.1, 0, 5);
const scratch = mkdtempSync(join(tmpdir(), "dpmargin-formats-"));
const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// name, file, CSV options, expected: {kinds (summary: numeric|text|empty), schema kinds,
// delimiter, decimal, rows} or {code, message}
const CASES = [
  ["NA tokens", "na_tokens.csv", { label: "y" }, {
    rows: 9, delimiter: ",", decimal: ".", kinds: { x: "numeric", grade: "text", element: "text", y: "numeric" },
    schema: { x: "numeric", grade: "categorical", element: "categorical", y: "label" }, missing: { x: 7 },
    features: ["x", "x: missing"],
  }],
  ["decimal comma (;)", "decimal_comma.csv", { label: "y", classes: ["nein", "ja"] }, {
    rows: 5, delimiter: ";", decimal: "either", kinds: { Preis: "numeric", Menge: "numeric", Kategorie: "text", y: "text" },
    schema: { Preis: "numeric", Menge: "numeric", Kategorie: "categorical", y: "label" }, positive: "ja",
  }],
  ["decimal comma (tab)", "decimal_comma.tsv", { label: "y", classes: ["nein", "ja"] }, {
    rows: 5, delimiter: "\t", decimal: "either", kinds: { Preis: "numeric", Kategorie: "text" },
    schema: { Preis: "numeric", Kategorie: "categorical" },
  }],
  ["a text label too small to discover", "decimal_comma.csv", { label: "y", discoverClasses: true }, {
    code: "ONE_CLASS", message: "declare the classes", parameter: "classes", epsilon: 1,
  }],
  ["text columns and a text label", "churn_categorical.csv", { label: "churn", classes: ["No", "Yes"] }, {
    rows: 300, delimiter: ",", decimal: ".", kinds: { tenure: "numeric", contract: "text", payment_method: "text", churn: "text" },
    schema: { tenure: "numeric", contract: "categorical", payment_method: "categorical", internet: "categorical", churn: "label" },
    positive: "Yes",
  }],
  ["a key column with 10^5 distinct strings, ignored by default", "distinct_100k.csv", { label: "y" }, {
    code: "CSV_PARSE", message: '"key" (header name reads like an identifier); name the columns to use in features',
  }],
  ["a column with 10^5 distinct strings, chosen", "distinct_100k.csv", { label: "y", features: ["key"] }, {
    rows: 100000, delimiter: ",", decimal: ".", kinds: { key: "text", y: "numeric" }, schema: { key: "categorical" },
    distinctCapped: ["key"],
  }],
  ["Excel workbook (.xlsx)", "workbook.xlsx", {}, { code: "CSV_PARSE", message: "Excel workbook (.xlsx, a zip archive), not CSV: save it as 'CSV UTF-8" }],
  ["legacy Excel workbook (.xls)", "workbook.xls", {}, { code: "CSV_PARSE", message: "legacy Excel workbook (.xls)" }],
  ["gzip", "compressed.csv.gz", {}, { code: "CSV_PARSE", message: "gzip-compressed, not CSV text: decompress it first" }],
  ["UTF-16 with a byte order mark", "utf16be_bom.csv", {}, { code: "CSV_PARSE", message: "UTF-16 byte order mark); save it as UTF-8" }],
  ["UTF-16 without a byte order mark", "utf16le_nobom.csv", {}, { code: "CSV_PARSE", message: "UTF-16 text without a byte order mark (little" }],
  ["Latin-1 read as UTF-8", "latin1_cells.csv", { label: "y" }, {
    code: "CSV_PARSE", message: 'which is "ü" in Latin-1/Windows-1252', line: 2,
  }],
  ["Latin-1 with encoding latin1", "latin1_cells.csv", { label: "y", encoding: "latin1" }, {
    rows: 4, delimiter: ",", decimal: ".", kinds: { name: "text", city: "text", price: "numeric" },
    schema: { name: "categorical", city: "categorical", price: "numeric" },
  }],
  ["'|' delimited", "pipe.csv", { label: "y" }, {
    rows: 3, delimiter: "|", decimal: "either", kinds: { a: "numeric", note: "text" }, schema: { note: "categorical" },
  }],
];

// Multiclass labels (3 and 50 classes) read and resolve, but one-vs-rest training is not wired
// yet: TODO(issue 14.5) — turn these into training cases when it lands.
const MULTICLASS = [
  ["multiclass_3.csv", { label: "species", classes: ["Adelie", "Chinstrap", "Gentoo"] }, 3],
  ["multiclass_50.csv", { label: "class", classes: Array.from({ length: 50 }, (_, i) => `c${String(i).padStart(2, "0")}`) }, 50],
];

function flags(options) {
  const out = [];
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === "boolean") out.push(value ? `--${kebab(name)}` : `--no-${kebab(name)}`);
    else out.push(`--${kebab(name)}`, Array.isArray(value) ? value.join(",") : String(value));
  }
  return out;
}

let dp;
let cli;
beforeAll(async () => {
  dp = await load();
  // Every CLI run up front, three processes at a time.
  const runs = CASES.flatMap(([, file, options], i) => [
    { i, kind: "schema", args: ["schema", pathOf(file), ...flags(options)] },
    { i, kind: "train", args: ["train", pathOf(file), ...flags(options), "--epsilon", String(CASES[i][3].epsilon ?? TRAIN.epsilon), "--delta", "1e-5", "--seed", "1",
      "--max-iterations", "5", "--json", "--out", join(scratch, `model-${i}.json`)] },
  ]);
  const results = await runClis(runs.map((r) => r.args));
  cli = runs.map((r, k) => ({ ...r, result: results[k] }));
  // predict needs the model of its train run.
  const predicts = CASES.map(([, file, options], i) => (CASES[i][3].code ? null
    : ["predict", join(scratch, `model-${i}.json`), pathOf(file), ...flags(options.encoding ? { encoding: options.encoding } : {})]));
  const predicted = await runClis(predicts.filter(Boolean));
  let k = 0;
  predicts.forEach((args, i) => { if (args) cli.push({ i, kind: "predict", result: predicted[k++] }); });
}, 300_000);

const cliOf = (i, kind) => cli.find((r) => r.i === i && r.kind === kind).result;

describe.each(CASES.map((c, i) => [c[0], ...c.slice(1), i]))("%s", (_name, file, options, expected, i) => {
  test("API: summarizeCsv, trainCsv, predictCsv", async () => {
    const source = csvFile(pathOf(file));
    if (expected.code) {
      for (const attempt of [dp.summarizeCsv(source, options), dp.trainCsv(source, options, { ...TRAIN, epsilon: expected.epsilon ?? TRAIN.epsilon })]) {
        const error = await attempt.then((s) => s.schemaError ?? null, (e) => e);
        if (error === null) continue;  // a summary resolves no training-only facts (classes)
        expect(error.code).toBe(expected.code);
        expect(error.message).toContain(expected.message);
        if (error instanceof DpMarginError && expected.line) expect(error.message).toContain(`line ${expected.line}`);
        if (error instanceof DpMarginError && expected.parameter) expect(error.parameter).toBe(expected.parameter);
      }
      expect((await dp.train(small, TRAIN)).report.plan.n).toBe(40);  // the module keeps working
      return;
    }
    const summary = await dp.summarizeCsv(source, options);
    expect(summary.rows).toBe(expected.rows);
    expect(summary.delimiter).toBe(expected.delimiter);
    expect(summary.decimal).toBe(expected.decimal);
    const byName = Object.fromEntries(summary.columns.map((c) => [c.name, c]));
    for (const [name, kind] of Object.entries(expected.kinds)) expect([name, byName[name].kind]).toEqual([name, kind]);
    for (const [name, count] of Object.entries(expected.missing ?? {})) expect([name, byName[name].missing]).toEqual([name, count]);
    for (const name of expected.distinctCapped ?? []) expect(byName[name].distinctCapped).toBe(true);
    const { table, model, report } = await dp.trainCsv(source, options, TRAIN);
    expect(table.rows).toBe(expected.rows);
    expect(report.plan.n).toBe(expected.rows);
    const kinds = Object.fromEntries(table.schema.columns.map((c) => [c.name, c.kind]));
    for (const [name, kind] of Object.entries(expected.schema)) expect([name, kinds[name]]).toEqual([name, kind]);
    for (const name of expected.features ?? []) expect(table.featureNames).toContain(name);
    if (expected.positive) expect(table.label.positive).toBe(expected.positive);
    // The model reads the same file back with its encoding (unknown categories → other).
    const predictions = await model.predictCsv(source, options.encoding ? { encoding: options.encoding } : {});
    expect(predictions.scores).toHaveLength(expected.rows);
    expect(predictions.truth).toHaveLength(expected.rows);
    // …and its schema repeats the run's table exactly.
    const again = await dp.trainCsv(source, { schema: table.schema }, TRAIN);
    expect(again.table.featureNames).toEqual(table.featureNames);
  }, 120_000);

  test("CLI: schema, train, predict", () => {
    for (const kind of ["schema", "train"]) {
      const r = cliOf(i, kind);
      if (expected.code) {
        if (kind === "schema" && r.code === 0) continue;  // the schema command resolves no classes
        expect([kind, r.code]).toEqual([kind, 2]);
        expect(r.stdout).toBe("");
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
        expect(r.stderr).toContain(expected.code);
        expect(r.stderr).toContain(expected.message);
        if (expected.parameter) expect(r.stderr).toContain(`(--${kebab(expected.parameter)})`);
        continue;
      }
      // The seeded warning, and δ = 1e-5 next to 1/n at n = 10⁵ (a warning the CLI owes the user).
      const stderr = r.stderr.replace(/^dpmargin: warning: not private: seeded.*\n/, "").replace(/^dpmargin: warning: δ = .*\n/m, "");
      expect([kind, r.code, stderr]).toEqual([kind, 0, ""]);
      const out = JSON.parse(r.stdout);
      const schema = kind === "schema" ? out : out.schema;
      const kinds = Object.fromEntries(schema.columns.map((c) => [c.name, c.kind]));
      for (const [name, k] of Object.entries(expected.schema)) expect([name, kinds[name]]).toEqual([name, k]);
      expect(schema.csv.delimiter).toBe(expected.delimiter);
      if (kind === "train") expect(out.n).toBe(expected.rows);
    }
    if (!expected.code) {
      const r = cliOf(i, "predict");
      expect(r.code).toBe(0);
      expect(r.stdout.trim().split("\n")).toHaveLength(expected.rows + 1);
    }
  });
});

describe("multiclass labels (3 and 50 classes)", () => {
  test.each(MULTICLASS)("%s: the classes resolve and train (one joint model by default); predictCsv scores every class", async (file, options, k) => {
    const summary = await dp.summarizeCsv(csvFile(pathOf(file)), options);
    expect(summary.schema.classes).toHaveLength(k);
    expect(summary.schema.classSource).toBe("declared");
    const { model, report } = await dp.trainCsv(csvFile(pathOf(file)), options, TRAIN);
    expect(report.classes).toEqual(summary.schema.classes);
    expect(model.classes).toEqual(summary.schema.classes);
    const p = await model.predictCsv(csvFile(pathOf(file)), { label: options.label });
    expect(p.scores.length).toBe(p.labels.length * k);
    for (const c of p.truth) expect(c).toBeGreaterThanOrEqual(0);
    expect((await dp.train(small, TRAIN)).report.plan.n).toBe(40);
  }, 60_000);
});
