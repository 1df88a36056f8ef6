// examples/node-train.mjs: CSV → trainCsv → model file → predictCsv → predictions CSV, run as a
// user would (node, importing "dpmargin"), on the clinic fixture.
import { mkdtempSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { cli, repoRoot } from "./helpers.js";

jest.setTimeout(120_000);

test("node-train.mjs trains on a CSV, writes the model file and the predictions file", () => {
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-example-"));
  const data = join(repoRoot, "tests/fixtures/e2e/clinic.csv");
  const prefix = join(dir, "clinic");
  const run = spawnSync(process.execPath, [join(repoRoot, "examples/node-train.mjs"), data, "outcome=yes", data, prefix],
    { encoding: "utf8", cwd: dir, timeout: 60_000 });
  expect(run.stderr).not.toMatch(/Error/);
  expect(run.status).toBe(0);
  expect(run.stdout).toMatch(/trained on 300 rows: margin γ = [\d.e-]+, \(ε, δ\) = \(1, 0\.00001\)/);
  expect(run.stdout).toMatch(/accuracy 0\.\d{4}, ROC AUC [01]\.\d{4} \(local, not private\)/);

  const model = JSON.parse(readFileSync(`${prefix}-model.json`, "utf8"));
  expect(model.version).toBe(3);
  expect(model.label).toMatchObject({ column: "outcome", positive: "yes" });
  expect(model.seeded ?? model.privacy?.seeded).toBeFalsy();

  const lines = readFileSync(`${prefix}-predictions.csv`, "utf8").trimEnd().split("\n");
  expect(lines[0]).toBe("row,score,outcome=yes");
  expect(lines).toHaveLength(301);
  lines.slice(1).forEach((line, i) => {
    const [row, score, label] = line.split(",");
    expect(Number(row)).toBe(i + 1);
    expect(Number.isFinite(Number(score))).toBe(true);
    expect(label).toBe(Number(score) > 0 ? "1" : "0");
  });
  // The same file `dpmargin predict` writes with that model.
  const predicted = cli("predict", `${prefix}-model.json`, data);
  expect(predicted.code).toBe(0);
  expect(predicted.stdout).toBe(readFileSync(`${prefix}-predictions.csv`, "utf8"));
});

test("node-train.mjs without arguments prints its usage, exit 2", () => {
  const run = spawnSync(process.execPath, [join(repoRoot, "examples/node-train.mjs")], { encoding: "utf8" });
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/usage: node examples\/node-train\.mjs TRAIN\.csv LABEL\[=POSITIVE\] NEW\.csv/);
});
