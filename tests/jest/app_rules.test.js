// The app asks the package and displays the answer (issue 32 item 1, issue 30 item 4): no
// privacy arithmetic and no copy of a package rule in web/src. A copy that comes back fails here.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./helpers.js";

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

const files = sources(join(repoRoot, "web/src")).map((path) => ({ path: relative(repoRoot, path), text: readFileSync(path, "utf8") }));

// hash.ts is SHA-256 (its 2 ** 32 splits the bit length into two words): no privacy arithmetic.
const NOT_PRIVACY = new Set(["web/src/hash.ts"]);

test("web/src does no privacy arithmetic: no exp, log, square roots or powers", () => {
  const offenders = files.filter((f) => !NOT_PRIVACY.has(f.path) && /Math\.(sqrt|exp|expm1|log|log1p|log2|log10|pow|hypot)\b|[\w)\]]\s*\*\*\s*[\w(]/.test(f.text))
    .map((f) => f.path);
  expect(offenders).toEqual([]);
});

test("the ledger is the package's: the app composes no budget and keeps no copy of the composition", () => {
  for (const f of files) {
    // The old app rule: Σε, Σδ and √Σμ² summed in web/src/ledger.ts totals().
    expect(`${f.path}: ${/function totals\(|mu2\s*\+=|epsilon\s*\+=\s*e\.epsilon/.test(f.text)}`).toBe(`${f.path}: false`);
  }
  const ledger = files.find((f) => f.path === "web/src/ledger.ts").text;
  expect(ledger).toMatch(/LedgerFile/);
  const worker = files.find((f) => f.path === "web/src/core.worker.ts").text;
  expect(worker).toMatch(/dp\.ledgerFromJSON\(/);
});

test("the app's texts on the positive class, the majority flag and what ran come from the package", () => {
  for (const f of files) {
    expect(`${f.path}: ${/the second of the two declared classes|at or under the majority-class rate:|fixed-margin learner selects nothing|is not small next to 1\/n|odds within a factor/.test(f.text)}`)
      .toBe(`${f.path}: false`);
  }
  const results = files.find((f) => f.path === "web/src/ui/results.ts").text;
  expect(results).toMatch(/advice\.selection/);
  expect(results).toMatch(/positiveRuleText/);
  const settings = files.find((f) => f.path === "web/src/ui/settings.ts").text;
  expect(settings).toMatch(/epsilonMeaning\(/);
  expect(settings).toMatch(/deltaWarning\(/);
});

test("the page takes the package's texts from dpmargin/explain: only the worker loads the engine", () => {
  for (const f of files) {
    if (f.path === "web/src/core.worker.ts") continue;
    // A value import of "dpmargin" would put the engine's glue into the page's bundle.
    const values = [...f.text.matchAll(/import\s+(?!type\b)[^;]*?from\s+"dpmargin"|export\s+\{[^}]*\}\s+from\s+"dpmargin"/g)].map((m) => m[0]);
    expect(`${f.path}: ${values.join(" | ")}`).toBe(`${f.path}: `);
  }
});
