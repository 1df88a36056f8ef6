// A user's day with the `dpmargin` command (issue 17): progress, help, predictions people can
// join, yardsticks next to accuracy, and the rough edges.
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jest } from "@jest/globals";
import { runClis, repoRoot } from "./helpers.js";
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
    expect(e).toMatch(/train\.csv: reading .*100% \| [\d.]+ KiB of [\d.]+ KiB \| 2400 rows \| ETA/);
    // A plain numeric table of known size: the scan keeps its numbers, no second read.
    expect(e).not.toMatch(/reading again/);
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

  // A real terminal: util-linux `script` runs the CLI on a pseudo-terminal, so stderr is a TTY
  // and the bars appear without --progress (and --quiet still hides them).
  const onTerminal = (args) => spawnSync("script", ["-qfec",
    [process.execPath, join(repoRoot, "dist/cli.js"), ...args].map((a) => `'${a}'`).join(" "), "/dev/null"],
  { encoding: "utf8", timeout: 60_000 });
  const hasScript = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;
  (hasScript ? test : test.skip)("on a pseudo-terminal the bars appear by themselves; --quiet hides them", () => {
    const tty = onTerminal(["train", trainCsv, ...budget, "--seed", "1"]);
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/train\.csv: reading/);
    expect(tty.stdout).toMatch(/run \d+ of \d+ planned/);
    const hushed = onTerminal(["train", trainCsv, ...budget, "--seed", "1", "--quiet"]);
    expect(hushed.status).toBe(0);
    expect(hushed.stdout).not.toMatch(/reading|planned/);
  });

  test("--quiet hides it, and a pipe without --progress shows none", () => {
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toMatch(/training|reading/);
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toMatch(/training|reading/);
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
    // Ranges and their maps are declared through the API only.
    for (const o of dp.options.filter((o) => o.scope !== "plan" && o.type !== "ranges" && o.name !== "columnMaps")) {
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

describe("predictions people can join", () => {
  const model = join(dir, "model.json");
  const data = join(dir, "join.csv");
  const lines = readFileSync(testCsv, "utf8").trim().split("\n");
  // An id column with formulas and a quoted comma, and a blank line (skipped: not a data row).
  const ids = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tTAB", "plain, with comma", "-1.5"];
  writeFileSync(data, [`id,${lines[0]}`, ...lines.slice(1, 8).map((l, i) => `${/[",]/.test(ids[i]) ? `"${ids[i].replace(/"/g, '""')}"` : ids[i]},${l}`)
    .flatMap((l, i) => (i === 3 ? ["", l] : [l]))].join("\n") + "\n");
  let plain, keep, all, toFile, again, forced, piped;
  beforeAll(async () => {
    const [trained] = await runClis([["train", trainCsv, ...budget, "--seed", "5", "--out", model, "--quiet"]]);
    expect(trained.code).toBe(0);
    [plain, keep, all] = await runClis([
      ["predict", model, data], ["predict", model, data, "--keep", "id,x1"], ["predict", model, data, "--keep-all"],
    ]);
    const out = join(dir, "predictions.csv");
    [toFile] = await runClis([["predict", model, data, "--out", out]]);
    [again] = await runClis([["predict", model, data, "--out", out]]);
    [forced] = await runClis([["predict", model, data, "--out", out, "--force"]]);
    // A long output into a reader that stops after two lines.
    piped = spawnSync("bash", ["-c", `node ${repoRoot}dist/cli.js predict ${model} ${trainCsv} --keep-all | head -2; echo "status=\${PIPESTATUS[0]}" >&2`],
      { encoding: "utf8" });
  });

  test("a 1-based row column, and the kept columns of the input (formulas neutralized)", () => {
    expect(plain.code).toBe(0);
    const rows = plain.stdout.trim().split("\n");
    expect(rows[0]).toBe("row,score,label=1");
    expect(rows.slice(1).map((r) => r.split(",")[0])).toEqual(["1", "2", "3", "4", "5", "6", "7"]);
    const k = keep.stdout.trim().split("\n");
    expect(k[0]).toBe("row,score,label=1,id,x1");
    const cells = k.slice(1).map((r) => r.slice(r.indexOf(",", r.indexOf(",") + 1) + 1));
    expect(cells.map((c) => c.replace(/^[01],/, "").replace(/,[^,]*$/, ""))).toEqual([
      "\"'=HYPERLINK(\"\"http://x\"\")\"", "'+1+1", "'-2+3", "'@SUM(A1)", "'\tTAB", "\"plain, with comma\"", "-1.5",
    ]);
    expect(k[4].split(",").at(-1)).toBe(lines[4].split(",")[1]);  // x1 of data row 4 (after the blank line)
    expect(all.stdout.split("\n")[0]).toBe(`row,score,label=1,id,${lines[0].replace("label", "label (input)")}`.replace(",label (input)", ",label"));
  });

  test("with the label in the file: accuracy, balanced accuracy and the majority rate on stderr", () => {
    // The yardsticks of training (cli/metrics.ts yardsticks), in the order the label calls for.
    expect(plain.stderr).toMatch(/on .*join\.csv \(7 rows with the label "label"; local, not private\): (accuracy \d+\.\d\d%[^;]*, balanced accuracy \d+\.\d\d%(, F1 \d\.\d{4} \(positive "1"\))?; majority class "[^"]+" \d+\.\d\d%(; ROC AUC [01]\.\d{4})?|balanced accuracy \d+\.\d\d%(, ROC AUC [01]\.\d{4})?; accuracy \d+\.\d\d%[^;]*; majority class "[^"]+" \d+\.\d\d% \(imbalanced)/);
  });

  test("--out refuses an existing file unless --force, and says what it wrote", () => {
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe("");
    expect(toFile.stderr).toMatch(/wrote 7 predictions to .*predictions\.csv/);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/BAD_PARAMETER \(--out\): ".*predictions\.csv" exists: choose another name, or add --force/);
    expect(forced.code).toBe(0);
  });

  test("--threshold T: positive when score ≥ T, a threshold column, the yardsticks of that decision", async () => {
    const rows = plain.stdout.trim().split("\n").slice(1).map((r) => r.split(","));
    const scores = rows.map((r) => Number(r[1]));
    const T = [...scores].sort((a, b) => a - b)[3];
    const [moved, bad, none] = await runClis([
      ["predict", model, data, "--threshold", String(T)], ["predict", model, data, "--threshold", "x"],
      ["predict", model, data, "--threshold", "-1e400"],
    ]);
    expect(moved.code).toBe(0);
    expect(moved.stdout).toBe(["row,score,label=1,threshold", ...rows.map((r, i) => `${r[0]},${r[1]},${scores[i] >= T ? 1 : 0},${T}`)].join("\n") + "\n");
    expect(moved.stderr).toMatch(/accuracy \d+\.\d\d%, balanced accuracy/);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/BAD_PARAMETER \(--threshold\): --threshold must be a number, but is "x"/);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--threshold must be a finite score/);
  });

  test("predict … | head: no crash, exit 0", () => {
    expect(piped.stdout.split("\n")).toHaveLength(3);
    expect(piped.stderr).toContain("status=0");
    expect(piped.stderr).not.toMatch(/EPIPE|Error/);
  });
});

describe("yardsticks next to the test accuracy; labels that look wrong", () => {
  const noise = join(dir, "noise.csv");
  const many = join(dir, "many.csv");
  const numeric = join(dir, "numeric.csv");
  // Labels independent of the features, 80% ones: accuracy cannot beat the majority rate.
  const rand = (() => { let a = 7; return () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648); })();
  writeFileSync(noise, "a,b,label\n" + Array.from({ length: 1500 }, () => `${rand().toFixed(3)},${rand().toFixed(3)},${rand() < 0.8 ? 1 : 0}`).join("\n") + "\n");
  const classes = Array.from({ length: 25 }, (_, k) => `c${k}`);
  writeFileSync(many, "a,b,kind\n" + Array.from({ length: 600 }, (_, i) => `${rand().toFixed(3)},${rand().toFixed(3)},${classes[i % 25]}`).join("\n") + "\n");
  writeFileSync(numeric, "a,b,age\n" + Array.from({ length: 800 }, () => `${rand().toFixed(3)},${rand().toFixed(3)},${18 + Math.floor(rand() * 60)}`).join("\n") + "\n");
  // A text label with a class far too rare for discovery at ε = 1 (10 of 2000 rows; ~86 needed).
  const rare = join(dir, "rare.csv");
  writeFileSync(rare, "a,b,status\n" + Array.from({ length: 2000 }, (_, i) => `${rand().toFixed(3)},${rand().toFixed(3)},${i < 10 ? "rare" : i % 2 ? "ok" : "late"}`).join("\n") + "\n");
  // An identifier, a free-text column and a number: the summary says how each was read.
  const textual = join(dir, "textual.csv");
  writeFileSync(textual, "id,note,x,label\n" + Array.from({ length: 400 }, (_, i) => `${i},"n${i % 37} says",${rand().toFixed(3)},${i % 2}`).join("\n") + "\n");
  let good, goodJson, bad, wide, ages, outside, columns;
  beforeAll(async () => {
    [good, goodJson, bad, wide, ages, outside, columns] = await runClis([
      ["train", trainCsv, ...budget, "--test", testCsv, "--seed", "2"],
      ["train", trainCsv, ...budget, "--test", testCsv, "--seed", "2", "--json"],
      ["train", noise, ...budget, "--test", noise, "--seed", "2", "--json"],
      ["train", many, "--label", "kind", "--classes", classes.join(","), "--epsilon", "1", "--delta", "1e-5", "--seed", "2", "--max-iterations", "2", "--json"],
      ["train", numeric, "--label", "age", "--positive", "30", "--epsilon", "1", "--delta", "1e-5", "--seed", "2", "--max-iterations", "2", "--json"],
      ["train", rare, "--label", "status", "--epsilon", "1", "--delta", "1e-5", "--seed", "2", "--max-iterations", "2", "--json"],
      ["train", textual, "--epsilon", "1", "--delta", "1e-5", "--seed", "2", "--max-iterations", "2"],
    ]);
  });

  test("the summary says how the file's columns were read: numeric, text (and how), left out", () => {
    expect(columns.code).toBe(0);
    expect(columns.stdout).toMatch(/\n {2}columns: 1 numeric; 1 text \(hashed: note\); left out: id \(identifier\)\n/);
    expect(good.stdout).toMatch(/\n {2}columns: \d+ numeric\n/);
  });

  test("rows whose label is none of the discovered classes: how many, and how they were trained", () => {
    expect(outside.code).toBe(0);
    expect(JSON.parse(outside.stdout).label.classes).toEqual(["late", "ok"]);
    expect(outside.stderr).toMatch(/warning: 10 of 2000 training rows \(0\.50%\) have a label that is none of the classes discovered under the budget \("late", "ok"\): they were trained as negatives \(not "ok"\); declare the classes/);
    for (const r of [good, bad, wide, ages]) expect(r.stderr).not.toMatch(/none of the classes/);
  });

  test("--test reports accuracy, balanced accuracy, F1 and the majority rate, as not private", () => {
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/on .*test\.csv \(600 rows; computed on your own test file, not private outputs\):\n {4}accuracy \d+\.\d\d%, balanced accuracy \d+\.\d\d%, F1 0\.\d{4} \(positive "1"\); majority class "(1|not 1)" \d+\.\d\d%/);
    const t = JSON.parse(goodJson.stdout).local.test;
    expect(t.rows).toBe(600);
    expect(t.accuracy).toBe(JSON.parse(goodJson.stdout).local.testAccuracy);
    for (const key of ["balancedAccuracy", "f1", "majorityRate"]) expect(t[key]).toBeGreaterThan(0);
    expect(t.majorityRate).toBeGreaterThanOrEqual(0.5);
    expect(t.note).toMatch(/not differentially private/);
    expect(goodJson.stderr).not.toMatch(/no better than/);
  });

  test("accuracy within a point of the majority rate is flagged", () => {
    expect(bad.code).toBe(0);
    const t = JSON.parse(bad.stdout).local.test;
    expect(t.accuracy).toBeLessThanOrEqual(t.majorityRate + 0.01);
    expect(bad.stderr).toMatch(/warning: test accuracy \d+\.\d\d% is no better than always answering the majority class "1" \(\d+\.\d\d% of the test rows\)/);
  });

  test("more than 20 classes, or a numeric label with many values: did you mean another column?", () => {
    expect(wide.code).toBe(0);
    expect(wide.stderr).toMatch(/warning: the label "kind" has 25 classes; is it the column you meant to predict\? \(choose it with --label COL\)/);
    expect(ages.code).toBe(0);
    expect(ages.stderr).toMatch(/warning: the label "age" looks numeric with 60 distinct values, trained as "30" against the rest; is it the column you meant/);
    expect(goodJson.stderr).not.toMatch(/column you meant/);
  });
});

describe("rough edges", () => {
  const noLabel = join(dir, "no-label.csv");
  writeFileSync(noLabel, readFileSync(testCsv, "utf8").replace(/^(.*),label\n/, "$1,outcome_x\n"));
  let bigDelta, bigEps, abc, testLabel, pct, frac, bare, pctJson, fracJson;
  beforeAll(async () => {
    [bigDelta, bigEps, abc, testLabel, pct, frac, bare] = await runClis([
      ["train", trainCsv, "--label", "label", "--epsilon", "1", "--delta", "0.001", "--seed", "1", "--max-iterations", "2"],
      ["account", "--epsilon", "50", "--delta", "1e-5", "--n", "1000", "--d", "5"],
      ["train", trainCsv, "--label", "label", "--epsilon", "abc", "--delta", "1e-5"],
      ["train", trainCsv, ...budget, "--seed", "1", "--max-iterations", "2", "--test", noLabel],
      ["profile", trainCsv, "--label", "label", "--max-removed", "2%", "--json"],
      ["profile", trainCsv, "--label", "label", "--max-removed", "0.02", "--json"],
      ["profile", trainCsv, "--label", "label", "--max-removed", "2"],
    ]);
    pctJson = JSON.parse(pct.stdout);
    fracJson = JSON.parse(frac.stdout);
  });

  test("δ ≥ 1/n warns with the app's text once n is known", () => {
    expect(bigDelta.code).toBe(0);
    expect(bigDelta.stderr).toContain("dpmargin: warning: δ = 0.001 is not small next to 1/n = 4.16667e-4 (n = 2400 training rows): "
      + "a mechanism that publishes one random row outright satisfies such a δ. Use δ well below 1/n, e.g. 1e-5 or less.");
  });

  test("the ε explanation: an odds factor up to ε = 10, no absurd number above", () => {
    expect(bigDelta.stdout).toContain("odds within a factor e^ε ≈ 2.72");
    expect(bigEps.code).toBe(0);
    expect(bigEps.stdout).toContain("With ε = 50 (above 10) the guarantee gives no meaningful protection");
    expect(bigEps.stdout).not.toMatch(/e\^ε ≈/);
  });

  test("a typo in a number names the flag; a --test file without the label names the file", () => {
    expect(abc.code).toBe(2);
    expect(abc.stderr).toBe("dpmargin: BAD_PARAMETER (--epsilon): --epsilon must be a number, but is \"abc\"\n");
    expect(testLabel.code).toBe(2);
    expect(testLabel.stdout).toBe("");
    expect(testLabel.stderr).toMatch(/^dpmargin: LABEL_NOT_FOUND \(--test\): --test .*no-label\.csv: the label column "label" is not in the header .* \(nothing was spent\)$/m);
  });

  test("profile --max-removed takes 2% and 0.02 alike (the app asks for a percentage); a bare 2 is refused", () => {
    expect(pct.code).toBe(0);
    expect(frac.code).toBe(0);
    expect(pctJson.curve).toEqual(expect.any(Array));
    expect(pctJson.maxRemoved ?? pctJson.curve.at(-1).fraction).toBeCloseTo(fracJson.maxRemoved ?? fracJson.curve.at(-1).fraction, 12);
    expect(pctJson.curve.length).toBe(fracJson.curve.length);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/--max-removed must be a fraction \(0\.05\) or a percentage \(5%\), but is "2": write "2%"/);
  });

  test("import dp from \"dpmargin\" works, in JavaScript and in the types", async () => {
    const { default: dp, load, csvFile } = await import("dpmargin");
    expect(dp.load).toBe(load);
    expect(dp.csvFile).toBe(csvFile);
    const m = await dp.load();
    expect(typeof m.version).toBe("string");
    const file = join(dir, "default-import.ts");
    writeFileSync(file, `import dp, { load } from "dpmargin";\nconst m: Promise<import("dpmargin").DpMargin> = dp.load();\nconst same: typeof load = dp.load;\nconst f = dp.csvFile("x.csv");\nvoid m; void same; void f;\n`);
    const tsconfig = join(dir, "tsconfig.json");
    writeFileSync(tsconfig, JSON.stringify({
      compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", strict: true, noEmit: true,
        skipLibCheck: true, types: [], typeRoots: [`${repoRoot}node_modules/@types`],
        paths: { dpmargin: [`${repoRoot}dist/node.d.ts`] } },
      files: [file],
    }));
    const r = spawnSync(process.execPath, [`${repoRoot}node_modules/typescript/bin/tsc`, "-p", tsconfig], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

test("the README's error examples are the CLI's current messages", async () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const examples = [...readme.matchAll(/^\$ npx dpmargin (.*)\n(dpmargin: .*)$/gm)];
  expect(examples.length).toBeGreaterThanOrEqual(2);
  const results = await runClis(examples.map(([, args]) => args.split(" ").map((a) => (a === "train.csv" ? trainCsv : a))));
  examples.forEach(([, , message], i) => {
    expect(results[i].code).toBe(2);
    expect(results[i].stderr).toBe(`${message}\n`);
  });
});
