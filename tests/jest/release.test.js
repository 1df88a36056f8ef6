// What a run releases is exactly what its accounting covers (SPEC §2.7, docs/reference/PRIVACY.md): the
// model, the selected margin and the selection record. PrivTune's number of runs K is not
// covered by its theorem (given K = k the output is the best of k runs), so it — and anything
// that reveals it — never enters the report, the model file or the CLI's report; run time
// depends on the data, so elapsed time leaves every released record. Both may be shown
// locally, in `result.local`, labelled not private.
import { load } from "dpmargin";
import { separable } from "./synthetic.js";
import { cli } from "./helpers.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toCsv } from "./synthetic.js";

let dp;
beforeAll(async () => {
  dp = await load();
});

const table = separable(400, 6, 0.1, 4, 3);

/** Every key anywhere inside a JSON value. */
function keys(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => keys(v, out));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keys(v, out);
    }
  }
  return out;
}

test.each(["iter", "privtune", "fixed", "auto"])("%s: no run count K and no elapsed time in the report or the model file", async (selector) => {
  const options = { epsilon: 1, delta: 1e-5, seed: 2, maxIterations: 20, selector,
    ...(selector === "privtune" ? { expectedRuns: 4 } : {}), ...(selector === "fixed" ? { margin: 0.1 } : {}) };
  const { model, report, local } = await dp.train(table, options);
  const released = [...keys(report), ...keys(model.toJSON())];
  expect(released).not.toContain("elapsedMs");
  expect(released).not.toContain("runs");
  // Locally, labelled not private.
  expect(local.private).toBe(false);
  expect(local.runs).toBeGreaterThanOrEqual(1);
  expect(local.elapsedMs).toBeGreaterThanOrEqual(0);
  if (selector === "privtune") expect(report.candidates).toHaveLength(1);
});

test("the CLI's released report of a PrivTune run carries no K; the local part is labelled", () => {
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-release-"));
  const csv = join(dir, "t.csv");
  writeFileSync(csv, toCsv(table));
  const out = join(dir, "model.json");
  const r = cli("train", csv, "--label", "label", "--epsilon", "1", "--delta", "1e-5", "--selector", "privtune",
    "--expected-runs", "4", "--max-iterations", "20", "--json", "--out", out);
  expect(r.code).toBe(0);
  const json = JSON.parse(r.stdout);
  expect([...keys(json.report)]).not.toContain("runs");
  expect([...keys(json.report)]).not.toContain("elapsedMs");
  expect([...keys(JSON.parse(readFileSync(out, "utf8")))]).not.toContain("runs");
  expect(json.local.private).toBe(false);
  expect(json.local.runs).toBeGreaterThanOrEqual(1);
  expect(r.stdout).not.toMatch(/base run/);
});
