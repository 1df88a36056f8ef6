// Issue 29 item 2: the `dpmargin` command never hangs and never garbles. Every error that
// train, predict, profile and schema can raise — each error code of the core
// (core/include/dpmargin/error.hpp) a command can reach, and the command line's own usage
// errors — is driven here on a pseudo-terminal (bars drawn because stderr is a terminal) and into
// a pipe with --progress. Each must exit with its code within a second of saying why, with the
// error on a line of its own (column 0, after the last bar), and nothing drawn after it.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { cli, repoRoot } from "./helpers.js";
import { firstAt, hasScript, run, screen } from "./terminal.js";
import { mulberry32 } from "./synthetic.js";

jest.setTimeout(600_000);

const dir = mkdtempSync(join(tmpdir(), "dpmargin-exit-"));
const file = (name, text) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// A small table on x0..x3 with a 0/1 label, and a model of it.
const rand = mulberry32(29);
const rows = (n, noise = 0) => Array.from({ length: n }, () => {
  const x = Array.from({ length: 4 }, () => (rand() * 2 - 1).toFixed(4));
  return [...x, Number(x[0]) + Number(x[1]) + noise * (rand() - 0.5) > 0 ? 1 : 0].join(",");
});
const HEADER = "x0,x1,x2,x3,label";
const train = file("train.csv", [HEADER, ...rows(300)].join("\n") + "\n");
const model = join(dir, "model.json");
// A table the margin profile and training take long on (for Ctrl-C): 40,000 noisy rows.
const big = file("big.csv", [HEADER, ...rows(40_000, 3)].join("\n") + "\n");

const f = {
  malformed: file("malformed.csv", `${HEADER}\n1,2,3,4,1\n1,"2"x,3,4,0\n`),
  empty: file("empty.csv", ""),
  ragged: file("ragged.csv", `${HEADER}\n1,2,3,4,1\n1,2,3,0\n`),
  text: file("text.csv", `${HEADER}\n1,2,3,4,1\n1,abc,3,4,0\n`),
  inf: file("inf.csv", `${HEADER}\n1,2,3,4,1\n1,inf,3,4,0\n`),
  missing: file("missing.csv", `${HEADER}\n1,2,3,4,1\n1,,3,4,0\n0.5,1,2,3,1\n`),
  missingLabel: file("missing_label.csv", `${HEADER}\n1,2,3,4,1\n1,2,3,4,\n`),
  oneClass: file("one_class.csv", `${HEADER}\n1,2,3,4,1\n2,3,4,5,1\n3,4,5,6,1\n`),
  rareText: file("rare_text.csv", `x0,x1,x2,x3,species\n1,2,3,4,cat\n2,3,4,5,dog\n3,4,5,6,cat\n`),
  minusOne: file("minus_one.csv", `${HEADER}\n1,2,3,4,1\n2,3,4,5,-1\n`),
  single: file("single.csv", `${HEADER}\n1,2,3,4,1\n`),
  noX2: file("no_x2.csv", "x0,x1,x3,label\n1,2,4,1\n"),
  noLabel: file("no_label.csv", "x0,x1,x2,x3\n1,2,3,4\n"),
  exists: file("exists.json", "{}\n"),
  notModel: file("not_model.json", '{"format": "x"}\n'),
  notLedger: file("not_ledger.json", "[1, 2]\n"),
  numericX1: file("numeric_x1.json", JSON.stringify({ columns: [{ name: "x1", kind: "numeric" }] })),
};
const budget = ["--epsilon", "1", "--delta", "1e-5"];
const T = (...args) => ["train", train, ...budget, ...args];
const Tf = (path, ...args) => ["train", path, ...budget, ...args];
const P = (data, ...args) => ["predict", model, data, ...args];
const R = (data, ...args) => ["profile", data, ...args];
const S = (data, ...args) => ["schema", data, ...args];

// [command, name, argv, error line (after "dpmargin: "), exit code]. `code` is the error code
// the case raises ("usage": the command line's own errors), for the coverage check below.
const CASES = [
  ["train", "usage", ["train", train, ...budget, "--foo"], /^unknown option --foo/, 2],
  ["train", "usage", ["train", ...budget], /^expected 1 file argument/, 2],
  ["train", "BAD_PARAMETER", T("--epsilon", "abc"), /^BAD_PARAMETER \(--epsilon\)/, 2],
  ["train", "BAD_PARAMETER", Tf(f.single), /^BAD_PARAMETER: rows must be at least 2/, 2],
  ["train", "BAD_PARAMETER", T("--features", "x0,nope"), /^BAD_PARAMETER \(--features\)/, 2],
  ["train", "BAD_PARAMETER", T("--out", f.exists), /^BAD_PARAMETER \(--out\)/, 2],
  ["train", "BAD_PARAMETER", T("--ledger", f.notLedger), /^BAD_PARAMETER \(--ledger\)/, 2],
  ["train", "BAD_PARAMETER", T("--test", join(dir, "absent.csv")), /^BAD_PARAMETER \(--test\)/, 2],
  ["train", "BAD_PARAMETER", T("--test", f.noX2), /^BAD_PARAMETER \(--test\)/, 2],
  ["train", "CSV_PARSE", Tf(f.malformed), /^CSV_PARSE: malformed/, 2],
  ["train", "CSV_PARSE", Tf(f.empty), /^CSV_PARSE: the file is empty/, 2],
  ["train", "RAGGED_ROW", Tf(f.ragged), /^RAGGED_ROW: line 3/, 2],
  ["train", "RAGGED_ROW", T("--test", f.ragged), /^RAGGED_ROW \(--test\)/, 2],
  // Tiny files: the column kinds and classes are declared (--schema, --classes), so that no
  // private decision on their few cells can change the path.
  ["train", "NON_NUMERIC", Tf(f.text, "--schema", f.numericX1, "--classes", "0,1"), /^NON_NUMERIC: .*line 3, column "x1"/, 2],
  ["train", "NON_FINITE", Tf(f.inf, "--schema", f.numericX1, "--classes", "0,1"), /^NON_FINITE: .*line 3/, 2],
  ["train", "MISSING_VALUE", Tf(f.missing, "--schema", f.numericX1, "--missing", "error", "--classes", "0,1"), /^MISSING_VALUE: .*line 3/, 2],
  ["train", "LABEL_NOT_FOUND", T("--label", "nope"), /^LABEL_NOT_FOUND \(--label\)/, 2],
  ["train", "LABEL_NOT_FOUND", T("--test", f.noLabel), /^LABEL_NOT_FOUND \(--test\)/, 2],
  ["train", "ONE_CLASS", Tf(f.oneClass, "--classes", "0,1"), /^ONE_CLASS( \(--classes\))?: all 3 rows are positive/, 2],
  ["train", "ONE_CLASS", Tf(f.rareText, "--label", "species", "--discover-classes"), /^ONE_CLASS \(--classes\): private class discovery/, 2],
  ["train", "BAD_LABEL", Tf(f.minusOne, "--classes", "0,1"), /^BAD_LABEL \(--classes\)/, 2],
  ["train", "OUT_OF_MEMORY", T("--max-bytes", "100"), /^OUT_OF_MEMORY \(--max-bytes\)/, 2],
  ["train", "BUDGET_EXCEEDED", T("--ledger", join(dir, "capped-ledger.json"), "--ledger-cap", "0.5,1e-5"), /^BUDGET_EXCEEDED/, 2],

  ["predict", "usage", ["predict", model], /^expected 2 file arguments/, 2],
  ["predict", "BAD_MODEL", ["predict", f.notModel, train], /^BAD_MODEL: invalid model file/, 2],
  ["predict", "BAD_PARAMETER", ["predict", join(dir, "absent.json"), train], /^BAD_PARAMETER: cannot read MODEL\.json/, 2],
  ["predict", "BAD_PARAMETER", P(f.noX2), /^BAD_PARAMETER: .*"x2"/, 2],
  ["predict", "BAD_PARAMETER", P(train, "--keep", "nope"), /^BAD_PARAMETER \(--keep\)/, 2],
  ["predict", "BAD_PARAMETER", P(train, "--out", f.exists), /^BAD_PARAMETER \(--out\)/, 2],
  ["predict", "CSV_PARSE", P(f.malformed), /^CSV_PARSE: malformed/, 2],
  ["predict", "RAGGED_ROW", P(f.ragged), /^RAGGED_ROW: line 3/, 2],
  ["predict", "NON_NUMERIC", P(f.text), /^NON_NUMERIC: .*line 3, column "x1"/, 2],
  ["predict", "NON_FINITE", P(f.inf), /^NON_FINITE: .*line 3/, 2],
  ["predict", "MISSING_VALUE", P(f.missingLabel), /^MISSING_VALUE: missing label at line 3/, 2],
  ["predict", "LABEL_NOT_FOUND", P(train, "--label", "nope", "--positive", "1"), /^LABEL_NOT_FOUND \(--label\)/, 2],
  ["predict", "OUT_OF_MEMORY", P(train, "--max-bytes", "100"), /^OUT_OF_MEMORY \(--max-bytes\)/, 2],

  ["profile", "usage", R(train, "--bogus"), /^unknown option --bogus/, 2],
  ["profile", "BAD_PARAMETER", R(train, "--max-removed", "7"), /^BAD_PARAMETER \(--max-removed\)/, 2],
  ["profile", "BAD_PARAMETER", R(train, "--features", "nope"), /^BAD_PARAMETER \(--features\)/, 2],
  ["profile", "CSV_PARSE", R(f.malformed), /^CSV_PARSE: malformed/, 2],
  ["profile", "RAGGED_ROW", R(f.ragged), /^RAGGED_ROW: line 3/, 2],
  ["profile", "NON_NUMERIC", R(f.text, "--schema", f.numericX1), /^NON_NUMERIC: .*column "x1"/, 2],
  ["profile", "NON_FINITE", R(f.inf, "--schema", f.numericX1, "--classes", "0,1"), /^NON_FINITE: .*line 3/, 2],
  ["profile", "MISSING_VALUE", R(f.missing, "--missing", "error"), /^MISSING_VALUE: .*line 3/, 2],
  ["profile", "LABEL_NOT_FOUND", R(train, "--label", "nope"), /^LABEL_NOT_FOUND \(--label\)/, 2],
  ["profile", "ONE_CLASS", R(f.oneClass), /^ONE_CLASS/, 2],
  ["profile", "BAD_LABEL", R(f.minusOne, "--classes", "0,1"), /^BAD_LABEL/, 2],
  ["profile", "OUT_OF_MEMORY", R(train, "--max-bytes", "100"), /^OUT_OF_MEMORY \(--max-bytes\)/, 2],

  ["schema", "usage", ["schema", train, train], /^too many file arguments|^expected 1 file argument/, 2],
  ["schema", "BAD_PARAMETER", S(train, "--features", "nope"), /^BAD_PARAMETER \(--features\)/, 2],
  ["schema", "BAD_PARAMETER", S(join(dir, "absent.csv")), /^BAD_PARAMETER/, 2],
  ["schema", "CSV_PARSE", S(f.empty), /^CSV_PARSE: the file is empty/, 2],
  ["schema", "RAGGED_ROW", S(f.ragged), /^RAGGED_ROW: line 3/, 2],
  ["schema", "LABEL_NOT_FOUND", S(train, "--label", "nope"), /^LABEL_NOT_FOUND \(--label\)/, 2],
];

// Ctrl-C while the bars run: CANCELLED, exit 130 (the shell's convention for SIGINT).
const INTERRUPTS = [
  ["train", "CANCELLED", ["train", big, ...budget, "--selector", "iter", "--max-iterations", "1000000"], /training \[/],
  ["profile", "CANCELLED", ["profile", big], /profiling \[/],
];

// Codes a command cannot raise, and why (every other code of the core must have a case).
const UNREACHABLE = {
  all: {
    INTERNAL: "a failure of the library itself, never caused by input (exit 1; the same exit path)",
    WASM_LOAD: "the module failed to load (exit 1; the same exit path)",
  },
  train: { BAD_MODEL: "train reads no model file" },
  predict: {
    ONE_CLASS: "predicting needs no two classes", BAD_LABEL: "a label outside the model's classes is scored as an error, not refused",
    BUDGET_EXCEEDED: "predicting spends no budget",
    CANCELLED: "raised only by Ctrl-C; predicting a file takes less time than a key press (the exit path is train's and profile's)",
  },
  profile: { BAD_MODEL: "profile reads no model file", BUDGET_EXCEEDED: "the profile spends no budget (not private)" },
  schema: {
    BAD_MODEL: "schema reads no model file", BUDGET_EXCEEDED: "schema spends no budget",
    NON_NUMERIC: "the schema reads cells' kinds, it does not convert them", NON_FINITE: "idem",
    MISSING_VALUE: "idem", ONE_CLASS: "the schema needs no two classes", BAD_LABEL: "idem",
    OUT_OF_MEMORY: "the schema allocates no table",
    CANCELLED: "raised only by Ctrl-C; the schema of a file takes less time than a key press (the exit path is train's and profile's)",
  },
};

// The core's error codes (ErrorCode's names, kBadParameter → BAD_PARAMETER).
const CORE_CODES = [...readFileSync(join(repoRoot, "core/include/dpmargin/error.hpp"), "utf8")
  .match(/enum class ErrorCode \{([^}]*)\}/)[1].matchAll(/\bk([A-Z][A-Za-z]*)/g)]
  .map((m) => m[1].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase());

test("every error code of the core is a case of every command that can raise it", () => {
  expect(CORE_CODES).toContain("BUDGET_EXCEEDED");
  expect(CORE_CODES.length).toBeGreaterThanOrEqual(14);
  for (const command of ["train", "predict", "profile", "schema"]) {
    const covered = new Set([...CASES, ...INTERRUPTS].filter((c) => c[0] === command).map((c) => c[1]));
    expect(covered.has("usage")).toBe(true);
    for (const code of CORE_CODES) {
      const why = UNREACHABLE.all[code] ?? UNREACHABLE[command][code];
      if (!why) expect(`${command}: ${covered.has(code) ? code : `no case for ${code}`}`).toBe(`${command}: ${code}`);
    }
  }
});

beforeAll(() => {
  // x1 declared numeric: a text or non-finite cell in a file to score is then refused.
  const r = cli("train", train, ...budget, "--seed", "1", "--schema", f.numericX1, "--out", model, "--quiet");
  if (r.code !== 0) throw new Error(r.stderr);
});

// The error line of a run: the first line on screen that starts with "dpmargin: " and is not a
// warning or a note. Returns its row, and the rows drawn.
function errorLine(lines) {
  const row = lines.findIndex((l) => /dpmargin: (?!warning|ledger|plan )/.test(l));
  return row;
}

function expectClean(result, line, exit, how) {
  const where = `${how}: ${JSON.stringify(result.output.slice(-600))}`;
  expect(`${where} → exit ${result.status}`).toBe(`${where} → exit ${exit}`);
  const lines = how === "terminal" ? screen(result.output) : result.output.split("\n");
  const row = errorLine(lines);
  expect(row >= 0 ? "error line found" : where).toBe("error line found");
  const text = lines[row];
  // The error starts its line (column 0), says what it should, and is the last thing drawn.
  expect(text.startsWith("dpmargin: ") ? "column 0" : `${JSON.stringify(text)} in ${where}`).toBe("column 0");
  expect(text.slice("dpmargin: ".length)).toMatch(line);
  const after = lines.slice(row + 1).filter((l) => l.trim() !== "");
  expect(after).toEqual([]);
  // Every bar drawn before it was finished: none is left on the error's line or below.
  const said = firstAt(result, /dpmargin: (?!warning|ledger|plan )/);
  const latency = result.elapsedMs - said;
  expect(latency < 1000 ? "exited within a second" : `${latency.toFixed(0)} ms after the error: ${where}`)
    .toBe("exited within a second");
  return { row, lines };
}

const bars = /\[[=-]{24}\]|profiling|training \[|predicting |: reading/;

describe.each([["terminal"], ["pipe"]])("on a %s", (how) => {
  const terminal = how === "terminal";
  if (terminal && !hasScript) {
    test("util-linux script is installed (Debian: bsdutils, essential)", () => expect(hasScript).toBe(true));
    return;
  }
  const results = new Map();
  beforeAll(async () => {
    // Two at a time (the machine's two cores are shared).
    const queue = [...CASES.keys()];
    await Promise.all([0, 1].map(async () => {
      while (queue.length > 0) {
        const i = queue.shift();
        const args = terminal ? CASES[i][2] : [...CASES[i][2], "--progress"];
        results.set(i, await run(args, { terminal }));
      }
    }));
  });

  test.each(CASES.map((c, i) => [c[0], c[1], c[2].slice(2).join(" ").replaceAll(dir, "…"), i]))(
    "%s %s (%s)", (_command, _code, _args, i) => {
      const [, , , line, exit] = CASES[i];
      const result = results.get(i);
      const { row, lines } = expectClean(result, line, exit, how);
      // Where a bar was drawn, it is above the error, its line finished.
      const barRows = lines.map((l, j) => (bars.test(l) ? j : -1)).filter((j) => j >= 0);
      for (const j of barRows) expect(j).toBeLessThan(row);
    });

  test.each(INTERRUPTS.map((c) => [c[0], c[1]]))("%s: Ctrl-C while the bars run is %s, exit 130", async (command) => {
    const [, , args, during] = INTERRUPTS.find((c) => c[0] === command);
    const result = await run(terminal ? args : [...args, "--progress"], { terminal, interrupt: (out) => during.test(out) });
    const { row, lines } = expectClean(result, /^CANCELLED: /, 130, how);
    expect(lines.slice(0, row).some((l) => during.test(l))).toBe(true);
  });
});
