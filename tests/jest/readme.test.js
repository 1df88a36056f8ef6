// The README's snippets run as written (issue 29 item 10). Every fenced block after the marker
// comment "snippet: run as written by tests/jest/readme.test.js" is run in an empty folder that
// holds the sample CSV and a node_modules/dpmargin that is this built package (and its bin), as
// `npm install` of the tarball or the folder would leave it: shell blocks with bash -e (npx
// finds the local bin, offline), JavaScript blocks as ES modules.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { jest } from "@jest/globals";
import { repoRoot } from "./helpers.js";

jest.setTimeout(180_000);

const README = readFileSync(join(repoRoot, "README.md"), "utf8");
const MARKER = "<!-- snippet: run as written by tests/jest/readme.test.js -->";
const snippets = [...README.matchAll(new RegExp(`${MARKER}\\n\`\`\`(sh|js)\\n([\\s\\S]*?)\\n\`\`\`\\n`, "g"))]
  .map(([, lang, code]) => ({ lang, code }));

function project() {
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-readme-"));
  mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
  symlinkSync(repoRoot.replace(/\/$/, ""), join(dir, "node_modules", "dpmargin"), "dir");
  symlinkSync(join(repoRoot, "dist", "cli.js"), join(dir, "node_modules", ".bin", "dpmargin"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "my-project", private: true, type: "module" }));
  copyFileSync(join(repoRoot, "web/public/samples/breast-cancer.csv"), join(dir, "breast-cancer.csv"));
  return dir;
}

function run({ lang, code }, dir) {
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
    npm_config_offline: "true", npm_config_update_notifier: "false", npm_config_yes: "false" };
  if (lang === "sh") return spawnSync("bash", ["-e", "-c", code], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
  writeFileSync(join(dir, "snippet.mjs"), code);
  return spawnSync(process.execPath, ["snippet.mjs"], { cwd: dir, env, encoding: "utf8", timeout: 120_000 });
}

test("the README has three snippets marked to run, and is at most 150 lines", () => {
  expect(snippets.map((s) => s.lang)).toEqual(["sh", "js", "js"]);
  expect(README.trimEnd().split("\n").length).toBeLessThanOrEqual(150);
});

test("the command line: train writes model.json, predict writes predictions.csv", () => {
  const dir = project();
  const r = run(snippets[0], dir);
  expect(r.stderr).not.toMatch(/dpmargin: [A-Z_]+[ :]|internal error/);  // no error, only notes
  expect(r.status).toBe(0);
  expect(r.stderr).toContain("dpmargin: wrote 569 predictions to predictions.csv");
  expect(r.stdout).toContain('positive class "malignant" of "diagnosis"');
  expect(JSON.parse(readFileSync(join(dir, "model.json"), "utf8")).format).toBe("dpmargin-model");
  const lines = readFileSync(join(dir, "predictions.csv"), "utf8").trim().split("\n");
  expect(lines[0]).toBe("row,score,diagnosis=malignant");
  expect(lines).toHaveLength(570);
});

test("JavaScript: trainCsv, the model file, predictCsv and dp.evaluate", () => {
  const dir = project();
  const r = run(snippets[1], dir);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^malignant second-discovered (good|marginal|too little data)\n0\.\d+ 0\.\d+ 0\.627\d+\n$/);
  expect(existsSync(join(dir, "model.json"))).toBe(true);
});

test("JavaScript: the plan without data, and a typed error", () => {
  const r = run(snippets[2], project());
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/^0\.268051\d* (good|marginal|too little data) .+\nBAD_PARAMETER epsilon\n$/);
});
