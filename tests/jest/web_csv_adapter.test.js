// The web app's CSV adapter (web/src/csv-adapter.ts) and held-out split (web/src/split.ts), in
// Node: transpiled with the TypeScript compiler API into node_modules/.cache (where "papaparse"
// resolves), then imported. The app must read a file exactly as the CLI does (same float32
// table, same labels), name line and column in every error, and split reproducibly.
import ts from "typescript";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";

const root = fileURLToPath(new URL("../../", import.meta.url));
const out = join(root, "node_modules/.cache/dpmargin-web-test");

async function importTs(file) {
  const source = readFileSync(join(root, "web/src", file), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  mkdirSync(out, { recursive: true });
  const target = join(out, file.replace(/\.ts$/, ".mjs"));
  writeFileSync(target, outputText);
  return import(target);
}

const { parseCsv, buildTable, summarizeColumns, CsvError } = await importTs("csv-adapter.ts");
const { splitRows } = await importTs("split.ts");
const { readCsv } = await import("../../dist/csv.js");

function error(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("expected an error");
}

describe("parseCsv", () => {
  test("comma, semicolon and tab; CRLF; a BOM; quotes with commas and newlines; line numbers", () => {
    for (const sep of [",", ";", "\t"]) {
      const t = parseCsv(`\uFEFFa${sep}b${sep}y\r\n1${sep}2${sep}0\r\n3${sep}4${sep}1\r\n`);
      expect(t.header).toEqual(["a", "b", "y"]);
      expect(t.delimiter).toBe(sep);
      expect(t.rows).toEqual([["1", "2", "0"], ["3", "4", "1"]]);
      expect(Array.from(t.lines)).toEqual([2, 3]);
    }
    const t = parseCsv('"x, 1",note,y\n1,"two\nlines",0\n\n  \n2,"a ""q""",1\n');
    expect(t.header).toEqual(["x, 1", "note", "y"]);
    expect(t.rows[0][1]).toBe("two\nlines");
    expect(t.rows[1][1]).toBe('a "q"');
    expect(Array.from(t.lines)).toEqual([2, 6]);  // blank lines skipped, quoted newline counted
  });

  test.each([
    ["", "CSV_PARSE", /empty/],
    ["\n\n  \n", "CSV_PARSE", /empty/],
    ["a,b,y\n", "CSV_PARSE", /no data rows/],
    ["abc\n1\n", "CSV_PARSE", /single column/],
    ["a,a,y\n1,2,0\n", "CSV_PARSE", /duplicate column name "a"/],
    ["a,b,y\n1,2,0\n1,2\n", "RAGGED_ROW", /line 3 has 2 fields; the header has 3/],
    ['a,b,y\n1,"2,0\n', "CSV_PARSE", /Quoted field unterminated \(line 2\)/],
  ])("rejects %j with %s", (text, code, message) => {
    const e = error(() => parseCsv(text));
    expect(e).toBeInstanceOf(CsvError);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  });

  test("a ragged row names its line even after a multi-line quoted field", () => {
    const e = error(() => parseCsv('a,b,y\n1,"x\ny",0\n1,2\n'));
    expect(e.code).toBe("RAGGED_ROW");
    expect(e.line).toBe(4);
  });
});

describe("buildTable", () => {
  const table = parseCsv("a,label,b\n1.5,yes,2\n-3,no,1e-3\n0.1,yes,7\n");

  test("features in the chosen order, ±1 labels for the positive class, float32", () => {
    const t = buildTable(table, { features: ["b", "a"], label: "label", positive: "yes" });
    expect(t.columns).toBe(2);
    expect(Array.from(t.features)).toEqual([2, 1.5, Math.fround(1e-3), -3, 7, Math.fround(0.1)]);
    expect(Array.from(t.labels)).toEqual([1, -1, 1]);
    expect(t.label).toEqual({ column: "label", positive: "yes" });
  });

  test("a row subset is read in the order given", () => {
    const t = buildTable(table, { features: ["a"], label: "label", positive: "yes", rows: [2, 1] });
    expect(Array.from(t.features)).toEqual([Math.fround(0.1), -3]);
    expect(Array.from(t.labels)).toEqual([1, -1]);
    expect(t.rows).toBe(2);
  });

  test("0/1 labels default to positive \"1\"; other labels need a positive class", () => {
    const t = buildTable(parseCsv("x,y\n1,0\n2,1\n"), { features: ["x"], label: "y" });
    expect(t.label.positive).toBe("1");
    const e = error(() => buildTable(table, { features: ["a"], label: "label" }));
    expect(e.code).toBe("BAD_PARAMETER");
    expect(e.parameter).toBe("positive");
  });

  test.each([
    ["x,y\n1,0\nabc,1\n", "NON_NUMERIC", /non-numeric value "abc" at line 3, column "x"/, 3],
    ["x,y\n1,0\nNaN,1\n", "NON_FINITE", /non-finite value "NaN" at line 3, column "x"/, 3],
    ["x,y\n-inf,0\n2,1\n", "NON_FINITE", /"-inf" at line 2/, 2],
    ["x,y\n1e999,0\n2,1\n", "NON_FINITE", /"1e999"/, 2],
    ["x,y\n1e39,0\n2,1\n", "NON_FINITE", /beyond float32/, 2],
    ["x,y\n1,0\n ,1\n", "MISSING_VALUE", /missing value at line 3, column "x"/, 3],
    ["x,y\n1,0\n2,\n", "MISSING_VALUE", /missing label at line 3/, 3],
  ])("%j → %s", (text, code, message, line) => {
    const e = error(() => buildTable(parseCsv(text), { features: ["x"], label: "y" }));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.line).toBe(line);
  });

  test("unknown label column, one class, no features", () => {
    expect(error(() => buildTable(table, { features: ["a"], label: "nope", positive: "yes" })).code).toBe("LABEL_NOT_FOUND");
    expect(error(() => buildTable(table, { features: ["a"], label: "label", positive: "maybe" })).code).toBe("ONE_CLASS");
    expect(buildTable(table, { features: ["a"], label: "label", positive: "maybe", requireBothClasses: false }).rows).toBe(3);
    expect(error(() => buildTable(table, { features: [], label: "label", positive: "yes" })).code).toBe("CSV_PARSE");
  });

  test("reads the e2e fixture exactly as the CLI's reader does (same float32 table and labels)", async () => {
    const text = readFileSync(join(root, "tests/fixtures/e2e/clinic.csv"), "utf8");
    const parsed = parseCsv(text);
    const features = parsed.header.filter((h) => h !== "outcome");
    const app = buildTable(parsed, { features, label: "outcome", positive: "yes" });
    const cli = await readCsv(text, { label: "outcome", positive: "yes" });
    expect(app.featureNames).toEqual(cli.featureNames);
    expect(app.features).toEqual(cli.features);
    expect(app.labels).toEqual(cli.labels);
  });
});

test("summarizeColumns: kinds, gaps and value counts", () => {
  const s = summarizeColumns(parseCsv("a,b,c,y\n1,x,,u\n2,3,nan,v\n3,4,5,u\n"));
  expect(s.map((c) => c.kind)).toEqual(["numeric", "text", "numeric", "text"]);
  expect(s[1].firstText).toEqual({ value: "x", line: 2 });
  expect(s[2]).toMatchObject({ missing: 1, nonFinite: 1 });
  expect(s[3].values).toEqual([{ value: "u", count: 2 }, { value: "v", count: 1 }]);
});

describe("splitRows", () => {
  test("no held-out rows: every row, in file order", () => {
    const { train, test } = splitRows(5, 0, 1);
    expect(Array.from(train)).toEqual([0, 1, 2, 3, 4]);
    expect(test).toHaveLength(0);
  });

  test("round(n·f) rows held out, disjoint, sorted, reproducible from the seed", () => {
    const a = splitRows(569, 0.2, 1);
    expect(a.test).toHaveLength(114);
    expect(a.train).toHaveLength(455);
    const all = new Set([...a.train, ...a.test]);
    expect(all.size).toBe(569);
    expect(Array.from(a.test)).toEqual(Array.from(a.test).sort((x, y) => x - y));
    expect(splitRows(569, 0.2, 1)).toEqual(a);
    expect(Array.from(splitRows(569, 0.2, 2).test)).not.toEqual(Array.from(a.test));
  });

  test("every row is equally likely to be held out (χ² over 2000 splits, α ≈ 1e-6)", () => {
    const n = 20, counts = new Array(n).fill(0), splits = 2000;
    for (let s = 0; s < splits; s++) for (const i of splitRows(n, 0.25, s).test) counts[i]++;
    const expected = splits * 5 / n;
    const chi2 = counts.reduce((a, c) => a + (c - expected) ** 2 / expected, 0);
    // χ²₁₉ upper 1e-6 quantile (scipy: 63.677). Conservative: counts from draws without
    // replacement vary less than multinomial ones, so false failures are rarer than 1e-6.
    expect(chi2).toBeLessThan(63.68);
  });
});
