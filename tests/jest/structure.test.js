// The package layer's structure (docs/ARCHITECTURE.md): wasm/src has no import cycle, no source
// file reaches outside the repository (the contract lives in docs/SPEC.md), and only the core
// knows the options (no TS or app file restates a default of the core's option table).
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { repoRoot } from "./helpers.js";

function files(dir, ext) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, ext));
    else if (ext.some((e) => name.endsWith(e))) out.push(path);
  }
  return out;
}

test("wasm/src has no import cycle", () => {
  const src = join(repoRoot, "wasm/src");
  const graph = new Map();
  for (const file of files(src, [".ts"])) {
    const text = readFileSync(file, "utf8");
    const deps = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms)]
      .map((m) => resolve(dirname(file), m[1].replace(/\.js$/, ".ts").replace(/\.mjs$/, ".d.mts")));
    graph.set(file, deps.filter((d) => d.endsWith(".ts")));
  }
  const state = new Map();  // 1: on the stack, 2: done
  const cycles = [];
  const visit = (node, stack) => {
    state.set(node, 1);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 1) cycles.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(src, f)).join(" → "));
      else if (!state.has(next)) visit(next, [...stack, next]);
    }
    state.set(node, 2);
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, [node]);
  expect(cycles).toEqual([]);
  expect(graph.size).toBeGreaterThan(20);
});

test("the contract lives in the repository: nothing refers to the shared SPEC, TOOLCHAIN or reference files", () => {
  // Product, tests and scripts never reach outside the repository; docs and benchmarks may name
  // the vendored DP peers (third-party code that is not committed; bench/peers/README.md).
  const offenders = [];
  const check = (file, anyShared) => {
    const text = readFileSync(file, "utf8");
    if (/shared\/(SPEC|TOOLCHAIN|STYLE|reference)/.test(text) || (anyShared && /\.\.\/shared/.test(text))) {
      offenders.push(relative(repoRoot, file));
    }
  };
  const kinds = [".ts", ".js", ".mjs", ".cpp", ".hpp", ".md", ".sh", ".py", ".html", ".txt"];
  for (const dir of ["core", "wasm", "web/src", "tests", "scripts"]) {
    for (const file of files(join(repoRoot, dir), kinds)) if (!file.endsWith("structure.test.js")) check(file, true);
  }
  for (const dir of ["docs", "bench"]) {
    for (const file of files(join(repoRoot, dir), kinds)) if (!file.includes(`${join("bench", ".data")}`)) check(file, false);
  }
  check(join(repoRoot, "README.md"), false);
  expect(offenders).toEqual([]);
});
