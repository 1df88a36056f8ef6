// dp.previewCsv (run::previewCsv): the plan it shows before anything is spent is the run's own
// (issue 29 item 5: the app's preview said d = 82 and μ = 0.268051, the run d = 69 and
// μ = 0.266365). On every file of the two fixture corpora that trains, the preview's plan —
// d, μ and its split, the candidates, every field — equals trainCsv's report.plan whenever the
// run discovers nothing. Each decision of a column says how it is made; the exact figures are
// under `local`; nothing of the preview is a released field.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { load, csvFile } from "dpmargin";

// Why ε = 1e5: the run decides a column's kind, nullable and the label's class source on noisy
// cell counts; the preview shows the decisions of the exact counts (the local expectation). At
// ε = 1e5 the schema counts' noise sd is ~0.05 cells, so the run's private decisions are those of
// the exact counts and the two must agree exactly. Seeded runs: not private (a test).
const TRAIN = { epsilon: 1e5, delta: 1e-5, seed: 1, maxIterations: 5 };
// Errors a run meets while filling the table (a cell the declared schema refuses), after
// everything the preview resolves: the preview cannot foresee them without reading the cells.
const FILL_ERRORS = new Set(["NON_NUMERIC", "MISSING_VALUE", "BAD_LABEL", "NON_FINITE", "ONE_CLASS", "OUT_OF_MEMORY"]);

const corpora = ["csv", "csv_engine"].map((folder) => {
  const dir = new URL(`../fixtures/${folder}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL("manifest.json", dir), "utf8"));
  return Object.entries(manifest)
    .filter(([, entry]) => entry.expected?.code === undefined)
    .map(([key, entry]) => [`${folder}/${key}`, fileURLToPath(new URL(entry.file ?? key.replace(/#.*$/, ""), dir)), entry.options ?? {}]);
}).flat();

let dp;
beforeAll(async () => {
  dp = await load();
});

async function outcome(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

test("on the fixture corpus, the preview's plan is the run's whenever nothing is discovered", async () => {
  expect(corpora.length).toBeGreaterThanOrEqual(50);
  const compared = [], discovered = [];
  for (const [name, path, csv] of corpora) {
    const run = await outcome(dp.trainCsv(csvFile(path), csv, TRAIN));
    const preview = await dp.previewCsv(csvFile(path), csv, TRAIN);
    expect(preview.private).toBe(false);
    if (run.error) {
      // What the run refuses before filling, the preview reports with the same code.
      if (preview.planError || !FILL_ERRORS.has(run.error.code)) {
        expect([name, preview.planError?.code ?? preview.schemaError?.code]).toEqual([name, run.error.code]);
      }
      continue;
    }
    const plan = run.value.report.plan;
    if (plan.discoveryColumns > 0) {
      // Discovered levels and classes: d is an estimate, said so; μ's split is the run's.
      discovered.push(name);
      expect([name, preview.modelColumns.estimate]).toEqual([name, true]);
      expect([name, preview.plan.mu, preview.plan.discoveryColumns]).toEqual([name, plan.mu, plan.discoveryColumns]);
      continue;
    }
    compared.push(name);
    expect([name, preview.planError]).toEqual([name, null]);
    expect([name, preview.plan.d, preview.plan.mu]).toEqual([name, plan.d, plan.mu]);
    expect([name, preview.plan.candidates]).toEqual([name, plan.candidates]);
    expect([name, preview.plan]).toEqual([name, plan]);
    expect([name, preview.modelColumns.width, preview.modelColumns.estimate]).toEqual([name, run.value.table.featureNames.length, false]);
    expect(preview.modelColumns.featureNames).toEqual(run.value.table.featureNames);
  }
  // Most of the corpus compares exactly; the rest discovers (text labels, text columns).
  expect(compared.length).toBeGreaterThanOrEqual(35);
  expect(discovered.length).toBeGreaterThanOrEqual(2);
}, 300_000);

test("the same on a split (csv.rows) and with the budget's options changed", async () => {
  const path = fileURLToPath(new URL("../fixtures/e2e/clinic.csv", import.meta.url));
  const rows = Array.from({ length: 150 }, (_, i) => 2 * i);
  const csv = { label: "outcome", positive: "yes", rows };
  const options = { ...TRAIN, selector: "iter", rangeShare: 0.2, schemaShare: 0.04, calibration: "tight" };
  const { report } = await dp.trainCsv(csvFile(path), csv, options);
  const preview = await dp.previewCsv(csvFile(path), csv, options);
  expect(preview.rows).toBe(150);
  expect(preview.fileRows).toBe(300);
  expect(report.plan.discoveryColumns).toBe(0);
  expect(preview.plan).toEqual(report.plan);
});

test("each decision says how it is made; exact figures only under local", async () => {
  const path = fileURLToPath(new URL("../fixtures/csv_engine/churn_categorical.csv", import.meta.url));
  const schema = { format: "dpmargin-schema", version: 1, columns: [{ name: "tenure", kind: "numeric" }] };
  const p = await dp.previewCsv(csvFile(path), { label: "churn", schema }, { epsilon: 1, delta: 1e-5 });
  const column = (name) => p.columns.find((c) => c.name === name);
  expect(p.label).toEqual({ column: "churn", reason: "named", decision: "declared" });
  expect(column("tenure")).toMatchObject({ kind: "numeric", kindDecision: "declared" });
  expect(column("contract")).toMatchObject({ kind: "categorical", kindDecision: "private", expectedLocally: true });
  expect(column("contract").local.values.length).toBeGreaterThan(0);
  expect(p.classes).toMatchObject({ decision: "private", classes: null, positive: null });
  expect(p.classes.rule).toMatch(/one joint model \(multiclass hinge\) under the one \(ε, δ\)/);
  expect(p.local.note).toMatch(/local, not private/);
  // Counts live under `local` only: the decided part of a column holds names and rules.
  for (const c of p.columns) {
    const { local, ...decided } = c;
    expect(local).toHaveProperty("numbers");
    expect(JSON.stringify(decided)).not.toMatch(/"(numbers|text|missing|values|distinct)":\s*\d/);
  }
  // No run options: no plan, categories undecided ("auto"), nothing thrown.
  const bare = await dp.previewCsv(csvFile(path), { label: "churn" });
  expect(bare.plan).toBeNull();
  expect(bare.planError).toBeNull();
  expect(bare.columns.find((c) => c.name === "contract").categories).toBe("auto");
  // An option the run refuses: reported, the columns still shown.
  const bad = await dp.previewCsv(csvFile(path), { label: "churn" }, { epsilon: -1, delta: 1e-5 });
  expect(bad.planError).toMatchObject({ code: "BAD_PARAMETER", parameter: "epsilon" });
  expect(bad.columns.find((c) => c.name === "tenure").kind).toBe("numeric");
});
