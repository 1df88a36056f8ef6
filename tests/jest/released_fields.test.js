// What a released record holds (issue 30 item 1; wasm/src/release.ts, docs/reference/PRIVACY.md): every
// field of the model file and of the report of many kinds of CSV runs is on the list of released
// fields; no string in them is a cell of the training file unless the budget released it (a
// discovered level or class) or it is public (a header name, a declared option); no reason or
// decision carries a count or an exact-data decision. And the check itself refuses what it must.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile, DpMarginError } from "dpmargin";
import { checkReleased, releasedPaths } from "../../dist/release.js";
import { cli } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "dpmargin-released-"));

const fixture = (p) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
const sample = fileURLToPath(new URL("../../web/public/samples/breast-cancer.csv", import.meta.url));
const BUDGET = { epsilon: 1, delta: 1e-5, seed: 3 };

let dp;
beforeAll(async () => { dp = await load(); });

/** Every cell text of a CSV (split naively: the fixtures here quote no delimiter). */
function cells(file) {
  const [header, ...rows] = readFileSync(file, "utf8").trim().split(/\r?\n/);
  const delimiter = [",", ";", "\t", "|"].find((d) => header.includes(d)) ?? ",";
  const names = header.split(delimiter).map((s) => s.replace(/^"|"$/g, "").trim());
  const values = new Set();
  for (const row of rows) for (const c of row.split(delimiter)) values.add(c.replace(/^"|"$/g, "").trim());
  return { names: new Set(names), values };
}

const RUNS = [
  ["numeric sample, defaults", sample, { label: "diagnosis" }, {}],
  ["numeric sample, iter and two workers", sample, { label: "diagnosis" }, { selector: "iter", workers: 2 }],
  ["numeric sample, PrivTune", sample, { label: "diagnosis", positive: "malignant" }, { selector: "privtune" }],
  ["text columns and NA, discovery", fixture("csv_engine/churn_categorical.csv"), { label: "churn", categories: "discover" }, { epsilon: 8 }],
  ["text columns hashed", fixture("csv_engine/churn_categorical.csv"), { label: "churn", categories: "hash" }, {}],
  ["NA tokens and a text label", fixture("csv_engine/na_tokens.csv"), { label: "y", classes: ["0", "1"] }, {}],
  ["multiclass, declared classes", fixture("csv_engine/multiclass_3.csv"), { label: "species", classes: ["Adelie", "Chinstrap", "Gentoo"] }, {}],
];

describe.each(RUNS)("%s", (_name, file, csv, options) => {
  test("every released field is listed, and no unreleased cell value is in it", async () => {
    const { model, report } = await dp.trainCsv(csvFile(file), csv, { ...BUDGET, ...options });
    const records = { model: model.toJSON(), report };
    for (const [kind, record] of Object.entries(records)) expect(checkReleased(kind, record)).toBe(record);
    // The strings a run may release that equal a cell: released by the budget or public.
    const schema = records.model.schema;
    const released = new Set([...(schema.classes ?? []), ...schema.columns.flatMap((c) => c.levels ?? [])]);
    const declared = new Set(Object.values(csv).flat().map(String));
    const { names, values } = cells(file);
    for (const [kind, record] of Object.entries(records)) {
      for (const [path, value] of releasedPaths(record)) {
        if (typeof value !== "string") continue;
        if (values.has(value) && !names.has(value) && !released.has(value) && !declared.has(value)) {
          // Short cell texts that are also public vocabulary ("0", "1", "NA" as a token name …).
          const publicWord = /^(0|1|NA|N\/A|n\/a|#N\/A|NaN|nan|-nan|-NaN|NULL|null|\?|)$/.test(value) ||
            path.endsWith("missingTokens[]") || path.startsWith("plan.advice");
          expect([kind, path, value, publicWord]).toEqual([kind, path, value, true]);
        }
        if (path.endsWith(".reason")) expect([path, value]).not.toEqual([path, expect.stringMatching(/\d/)]);
        if (path.endsWith("decision") || path.endsWith("classDecision")) expect(value).not.toBe("local");
      }
      // No field names a count of rows, cells or levels (n, the public row count, is the plan's).
      const countLike = releasedPaths(record).map(([p]) => p).filter((p) => /(^|\.)(count|counts|rows|imputed|missingCells|textCells|distinct|other)(\.|\[|$)/.test(p));
      expect(countLike).toEqual([]);
    }
  }, 60_000);
});

test("the check refuses an unlisted field, a count in a reason and a local decision", async () => {
  const { model, report } = await dp.trainCsv(csvFile(sample), { label: "diagnosis" }, BUDGET);
  const file = model.toJSON();
  const refused = (kind, record) => {
    try {
      checkReleased(kind, record);
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(DpMarginError);
      return error.code;
    }
  };
  expect(refused("model", { ...file, table: { rows: 569 } })).toBe("INTERNAL");
  expect(refused("report", { ...report, imputed: 3 })).toBe("INTERNAL");
  const withCount = structuredClone(file);
  withCount.schema.columns[0].reason = "numbers (1 text cells read as missing)";
  expect(refused("model", withCount)).toBe("INTERNAL");
  const local = structuredClone(file);
  local.schema.columns[0].decision = "local";
  expect(refused("model", local)).toBe("INTERNAL");
  expect(refused("model", file)).toBeNull();
});

// The CLI's `train --json`: everything outside `local` is released (it is what a user pastes
// into a publication), so it is the plan's public figures, the released report and schema, and
// header names — the accuracies on the user's rows and the time live under `local` only.
test("train --json keeps every exact figure under local", () => {
  const file = fixture("csv_engine/churn_categorical.csv");
  const r = cli("train", file, "--label", "churn", "--classes", "No,Yes", "--epsilon", "1", "--delta", "1e-5", "--test", file,
    "--out", join(tmp, "churn.model.json"), "--json");
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout);
  const TOP = new Set(["selectedMargin", "epsilon", "delta", "mu", "calibration", "selector", "score", "n", "d",
    "candidates", "seeded", "warning", "label", "features", "schema", "modelFile", "report", "local"]);
  expect(Object.keys(out).filter((k) => !TOP.has(k))).toEqual([]);
  expect(out.local.trainAccuracy).toBeGreaterThan(0);
  expect(out.local.testAccuracy).toBeGreaterThan(0);
  for (const k of ["trainAccuracy", "testAccuracy", "testRows", "test"]) expect(out[k]).toBeUndefined();
  expect(checkReleased("report", out.report)).toBe(out.report);
  expect(checkReleased("model", { schema: out.schema })).toEqual({ schema: out.schema });
  const { names } = cells(file);
  for (const f of out.features) expect(names.has(f.split(": ")[0])).toBe(true);
  const labelKeys = Object.keys(out.label).filter((k) => !["column", "positive", "classes", "classSource", "positiveRule"].includes(k));
  expect(labelKeys).toEqual([]);
}, 60_000);
