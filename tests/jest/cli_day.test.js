// A user's day with the `dpmargin` command (issue 17): progress, help, predictions people can
// join, yardsticks next to accuracy, and the rough edges.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { runClis } from "./helpers.js";
import { separable, toCsv } from "./synthetic.js";

jest.setTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), "dpmargin-day-"));
const trainCsv = join(dir, "train.csv");
const testCsv = join(dir, "test.csv");
const all = separable(3000, 6, 0.1, 30, 17);
const slice = (from, to) => ({
  features: all.features.subarray(from * 6, to * 6), labels: all.labels.subarray(from, to), columns: 6,
});
writeFileSync(trainCsv, toCsv(slice(0, 2400)));
writeFileSync(testCsv, toCsv(slice(2400, 3000)));
const budget = ["--label", "label", "--epsilon", "1", "--delta", "1e-5"];

describe("progress on stderr", () => {
  let forced, quiet, piped, profile, privtune;
  beforeAll(async () => {
    [forced, quiet, piped, profile, privtune] = await runClis([
      ["train", trainCsv, ...budget, "--test", testCsv, "--seed", "1", "--progress"],
      ["train", trainCsv, ...budget, "--seed", "1", "--progress", "--quiet"],
      ["train", trainCsv, ...budget, "--seed", "1"],
      ["profile", trainCsv, "--label", "label", "--progress", "--max-removed", "0.02"],
      ["train", trainCsv, ...budget, "--seed", "1", "--selector", "privtune", "--max-iterations", "5", "--progress", "--json"],
    ]);
  });

  test("--progress draws every phase into a pipe: reading bytes, training runs, predicting rows", () => {
    expect(forced.code).toBe(0);
    const e = forced.stderr;
    expect(e).toMatch(/train\.csv: checking .*100% \| [\d.]+ KiB of [\d.]+ KiB \| 2400 rows \| ETA/);
    expect(e).toMatch(/train\.csv: loading .*100%/);
    // Training counts the runs the plan made (Iter: one per candidate), not a fixed grid.
    const runs = [...e.matchAll(/run (\d+) of (\d+) planned/g)];
    expect(runs.length).toBeGreaterThan(0);
    const last = runs[runs.length - 1];
    expect(last[1]).toBe(last[2]);
    expect(e).toMatch(/predicting .*test\.csv .*600 rows/);
    // stdout is the report only.
    expect(forced.stdout).not.toMatch(/\[=+/);
  });

  test("PrivTune: the runs planned are its drawn K (the local run count)", () => {
    expect(privtune.code).toBe(0);
    const K = JSON.parse(privtune.stdout).local.runs;
    expect(privtune.stderr).toContain(`run ${K} of ${K} planned`);
  });

  test("the profile shows its grid points", () => {
    expect(profile.code).toBe(0);
    expect(profile.stderr).toMatch(/profiling .*point \d+ of \d+/);
  });

  test("--quiet hides it, and a pipe without --progress shows none", () => {
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/training|checking/);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toMatch(/training|checking/);
  });
});
