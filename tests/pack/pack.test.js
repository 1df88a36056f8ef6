// The installed artifact (docs/reference/HARDENING.md): `npm pack`, install the tarball into an empty
// folder (offline), then use it the way users do — import it from Node and train, run its bin,
// type-check against its .d.ts, and build a minimal Vite app against it that trains in
// headless Chromium with same-origin requests only.
//
// Offline install: the runtime dependencies (package.json "dependencies": cli-progress, and what
// it depends on, transitively) are copied from the repository's node_modules into the empty
// folder first, so
// `npm install --offline <tarball>` needs no registry and no npm cache.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { launchChromium, repoRoot, serveStatic } from "../e2e/support.js";

const repoPackage = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8"));
let work;      // temp folder: the tarball and app/
let app;       // the empty project the tarball is installed into
let packed;    // npm pack --json record: { filename, files: [{ path }] }

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 180_000, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

before(() => {
  work = mkdtempSync(join(tmpdir(), "dpmargin-pack-"));
  const out = run("npm", ["pack", "--json", "--pack-destination", work], { cwd: repoRoot });
  packed = JSON.parse(out.slice(out.indexOf("[")))[0];
  app = join(work, "app");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "dpmargin-pack-smoke", private: true, type: "module" }));
  const pending = Object.keys(repoPackage.dependencies ?? {});
  const copied = new Set();
  while (pending.length > 0) {
    const dependency = pending.pop();
    if (copied.has(dependency)) continue;
    copied.add(dependency);
    const from = join(repoRoot, "node_modules", dependency);
    cpSync(from, join(app, "node_modules", dependency), { recursive: true });
    pending.push(...Object.keys(JSON.parse(readFileSync(join(from, "package.json"), "utf8")).dependencies ?? {}));
  }
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error",
    join(work, packed.filename)], { cwd: app });
});

after(() => {
  if (work && !process.env.DPMARGIN_KEEP_PACK) rmSync(work, { recursive: true, force: true });
});

test("the tarball ships what exports, bin and types need, and nothing else", () => {
  const files = new Set(packed.files.map((f) => f.path));
  const targets = [];
  const collect = (v) => (typeof v === "string" ? targets.push(v) : Object.values(v).forEach(collect));
  collect(repoPackage.exports);
  collect(repoPackage.bin);
  targets.push(repoPackage.types);
  for (const target of targets) assert.ok(files.has(posix.normalize(target)), `missing ${target}`);
  // Every relative import of every shipped .js/.d.ts resolves inside the tarball (.js → .d.ts,
  // .mjs → .d.mts for the declarations).
  const installed = join(app, "node_modules", "dpmargin");
  for (const file of files) {
    if (!/\.(m?js|d\.ts|d\.mts)$/.test(file)) continue;
    const text = readFileSync(join(installed, file), "utf8");
    const declaration = /\.d\.m?ts$/.test(file);
    for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      let target = posix.normalize(posix.join(posix.dirname(file), spec));
      if (declaration) target = target.replace(/\.mjs$/, ".d.mts").replace(/\.js$/, ".d.ts");
      assert.ok(files.has(target), `${file} imports ${spec}, not in the tarball`);
    }
  }
  for (const file of files) {
    assert.match(file, /^(dist\/|README\.md$|package\.json$|LICENSE)/, `unexpected file ${file}`);
  }
  assert.ok(files.has("dist/wasm/dpmargin_core.wasm"));
});

test("imports from Node and trains on a tiny table", () => {
  writeFileSync(join(app, "smoke.mjs"), `
    import { load, DpMarginError } from "dpmargin";
    const dp = await load();
    const features = Float32Array.from({ length: 60 * 3 }, (_, i) => Math.sin(i * 1.7));
    const labels = Array.from({ length: 60 }, (_, i) => (features[i * 3] + features[i * 3 + 1] > 0 ? 1 : 0));
    const { model, report } = await dp.train({ features, columns: 3, labels },
      { epsilon: 1, delta: 1e-5, seed: 7, maxIterations: 50 });
    const { scores } = model.predict(features);
    let bad;
    try { dp.account({ epsilon: 0, delta: 1e-5, n: 10, d: 2 }); } catch (e) { bad = e instanceof DpMarginError && e.code; }
    console.log(JSON.stringify({ mu: report.plan.mu, seeded: report.seeded, scores: scores.length,
      finite: Array.from(scores).every(Number.isFinite), bad, version: dp.version }));
  `);
  const result = JSON.parse(run(process.execPath, ["smoke.mjs"], { cwd: app }).trim());
  assert.equal(result.seeded, true);
  assert.equal(result.scores, 60);
  assert.equal(result.finite, true);
  assert.equal(result.bad, "BAD_PARAMETER");
  assert.equal(result.version, repoPackage.version);
  assert.ok(result.mu > 0);
});

test("the installed bin runs", () => {
  const out = run(join(app, "node_modules", ".bin", "dpmargin"),
    ["account", "--epsilon", "1", "--delta", "1e-5", "--n", "1000", "--d", "50", "--json"], { cwd: app });
  assert.match(String(JSON.parse(out).mu), /^0\.268051/);
});

test("the shipped types resolve (tsc --noEmit, NodeNext and Bundler resolution, no skipLibCheck)", () => {
  writeFileSync(join(app, "check.ts"), `
    import { load, DpMarginError, Model, type TrainOptions, type TrainResult, type Plan,
      type ModelFile } from "dpmargin";
    const dp = await load();
    const options: TrainOptions = { epsilon: 1, delta: 1e-5, seed: 1, selector: "iter" };
    const result: TrainResult = await dp.train({ features: new Float32Array(4), columns: 2, labels: [1, 0] }, options);
    const mu: number = result.report.plan.mu;
    const plan: Plan = dp.account({ epsilon: 1, delta: 1e-5, n: 100, d: 2 });
    const file: ModelFile = result.model.toJSON();
    const model: Model = dp.modelFromJSON(file);
    const error = new DpMarginError("BAD_PARAMETER", "x");
    // @ts-expect-error: an unknown error code does not type-check
    new DpMarginError("NO_SUCH_CODE", "x");
    console.log(mu, plan.mu, model.features, error.code);
  `);
  const tsc = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
  for (const [module, resolution] of [["NodeNext", "NodeNext"], ["ESNext", "Bundler"]]) {
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
      compilerOptions: { target: "ES2022", module, moduleResolution: resolution, strict: true, noEmit: true,
        skipLibCheck: false, types: [], lib: ["ES2022", "DOM"] },
      files: ["check.ts"],
    }));
    const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: app, encoding: "utf8" });
    assert.equal(result.status, 0, `tsc (${resolution}) failed:\n${result.stdout}${result.stderr}`);
  }
});

test("a Vite app built against the tarball trains in headless Chromium, same-origin only", async () => {
  const site = join(app, "site");
  mkdirSync(site, { recursive: true });
  writeFileSync(join(site, "index.html"), `<!doctype html><meta charset="utf-8"><title>dpmargin pack</title>
    <script type="module" src="./main.js"></script><body>training…</body>`);
  writeFileSync(join(site, "main.js"), `
    import { load } from "dpmargin";
    const plan = (await load()).account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50 });
    const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    worker.onmessage = ({ data }) => {
      document.body.dataset.result = JSON.stringify({ ...data, planMu: plan.mu });
      document.body.textContent = "done";
    };
    worker.onerror = (e) => { document.body.dataset.result = JSON.stringify({ error: String(e.message) }); };
  `);
  // No top-level await in the worker: Vite's default worker format (no config) is "iife".
  writeFileSync(join(site, "worker.js"), `
    import { load } from "dpmargin";
    (async () => {
      const dp = await load();
      const features = Float32Array.from({ length: 80 * 4 }, (_, i) => Math.cos(i * 0.9));
      const labels = Array.from({ length: 80 }, (_, i) => (features[i * 4] > 0 ? 1 : 0));
      const { model, report } = await dp.train({ features, columns: 4, labels },
        { epsilon: 1, delta: 1e-5, seed: 3, maxIterations: 50 });
      postMessage({ trained: true, selectedMargin: report.selectedMargin, seeded: report.seeded,
        predictions: model.predict(features).labels.length });
    })().catch((e) => postMessage({ error: String(e?.message ?? e) }));
  `);
  // The repository's Vite (no config file: what a user gets by default), root = the app.
  run(process.execPath, [join(repoRoot, "node_modules", "vite", "bin", "vite.js"), "build", "--base", "./",
    "--logLevel", "warn", "--outDir", join(app, "dist-site"), "--emptyOutDir"], { cwd: site });
  assert.ok(existsSync(join(app, "dist-site", "index.html")));

  const server = await serveStatic(join(app, "dist-site"), "/pack/");
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const requests = [];
    context.on("request", (r) => requests.push(r.url()));
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.result, null, { timeout: 60_000 });
    const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    assert.equal(result.error, undefined, `the page failed: ${result.error}`);
    assert.equal(result.trained, true);
    assert.equal(result.seeded, true);
    assert.equal(result.predictions, 80);
    assert.match(String(result.planMu), /^0\.268051/);
    assert.deepEqual(errors, []);
    // Every request the browser made (Playwright's view) and every one the server saw (which
    // includes nested worker scripts) is same-origin; the wasm came from this server.
    const foreign = requests.filter((u) => !u.startsWith(server.origin + "/") && !/^(data|blob):/.test(u));
    assert.deepEqual(foreign, []);
    assert.ok(server.log.every((r) => r.host === new URL(server.origin).host));
    assert.ok(server.log.some((r) => r.url.endsWith(".wasm")), "the wasm was not fetched from the page's server");
  } finally {
    await browser.close();
    await server.close();
  }
});
