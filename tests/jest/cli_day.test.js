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

describe("--help and flag errors", () => {
  let top, trainHelp, predictHelp, unknown, missing, extra, noValue;
  beforeAll(async () => {
    [top, trainHelp, predictHelp, unknown, missing, extra, noValue] = await runClis([
      ["--help"], ["train", "--help"], ["predict", "-h"],
      ["train", trainCsv, ...budget, "--foo", "3"],
      ["train", trainCsv, "--label", "label", "--delta", "1e-5", "--epsilon"],
      ["profile", trainCsv, testCsv],
      ["account", "--json=yes"],
    ]);
  });

  test("dpmargin train --help lists every flag of train with its description and default, grouped", async () => {
    const { load } = await import("dpmargin");
    const dp = await load();
    expect(trainHelp.code).toBe(0);
    const text = trainHelp.stdout;
    for (const group of ["privacy budget:", "method:", "preprocessing:", "randomness:", "reading the CSV:", "train:"]) {
      expect(text).toContain(`\n${group}\n`);
    }
    const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    for (const o of dp.options.filter((o) => o.scope !== "plan" && o.type !== "ranges")) {
      const flag = o.type === "boolean" ? (o.scope === "table" ? `--[no-]${kebab(o.name)}` : `--no-${kebab(o.name)}`) : `--${kebab(o.name)} `;
      const at = text.indexOf(`\n  ${flag}`);
      expect(at).toBeGreaterThan(0);
      const entry = text.slice(at, text.indexOf("\n  --", at + 1));
      expect(entry).toContain(o.help);
      expect(entry).toContain(o.defaultText === "required" ? "(required)" : o.scope === "table" || o.type !== "boolean" ? `(default: ${o.defaultText})` : "(default: on)");
    }
    for (const flag of ["--test FILE", "--out FILE", "--json", "--progress", "--quiet"]) expect(text).toMatch(new RegExp(`\\n  ${flag}\\s+\\S.*\\(default: `));
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("dpmargin COMMAND --help");
    expect(top.stdout).toContain("--class-count");
    expect(predictHelp.code).toBe(0);
    expect(predictHelp.stdout).toContain("usage: dpmargin predict MODEL.json DATA.csv");
    expect(predictHelp.stdout).not.toContain("--epsilon");
  });

  test("an unknown flag, a missing value, a value to a switch: the CLI's words, exit 2", () => {
    for (const r of [unknown, missing, extra, noValue]) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(/positional argument|ERR_PARSE/);
    }
    expect(unknown.stderr).toBe("dpmargin: unknown option --foo (see dpmargin train --help)\n");
    expect(missing.stderr).toBe("dpmargin: option --epsilon needs a value (see dpmargin train --help)\n");
    expect(extra.stderr).toBe("dpmargin: expected 1 file argument, got 2 (see dpmargin profile --help)\n");
    expect(noValue.stderr).toBe("dpmargin: option --json takes no value (see dpmargin account --help)\n");
  });
});
