// Headless Chromium side of bench/perf (run.sh): for each configuration, a FRESH browser (so
// the renderer's peak RSS belongs to it), the bench page (build-perf-web/, built from
// bench/perf/browser by run.sh) served on 127.0.0.1 with the data under /data/, and training
// in ONE module worker (optionally with { workers: 2 } in the train options).
//   node bench/perf/chromium_run.mjs '[{"table":{"kind":"synthetic","n":1000,"d":50},"seed":1}]'
// Prints a JSON array (one object per configuration).
// Modes besides training: "e2e" (the train and test CSVs put into the page's file inputs with
// setInputFiles, as a user picks them; then File → model → test accuracy with the package
// defaults, timed on the page, the worker start and wasm instantiation included; browserSeconds
// = from the launch of the browser to the accuracy; cpuSeconds = the CPU time of all of the
// browser's processes during the page-timed part) and "csvParse" (one File through the CSV
// reader, see worker.mjs) and "profile" (the margin profile, not private: profile_bench.mjs).
// Memory: wasmMemoryBytes = the worker's WebAssembly memory after training (it never shrinks,
// so this is its peak); rendererPeakRssTrainKb = VmHWM
// of the page's renderer process (Linux /proc; the renderer with the largest peak among our
// descendants: Chromium keeps spare ones) read right after training, before the test table is
// loaded; rendererRssReadyKb = its VmRSS once the worker has instantiated the module.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { readFileSync, readdirSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { chromium } from "playwright-core";

const repo = fileURLToPath(new URL("../../", import.meta.url));
// PERF_SITE: another build of the bench page (e.g. against the package before a change).
const site = process.env.PERF_SITE ?? join(repo, "build-perf-web");
const dataDir = process.env.DPMARGIN_BENCH_DATA ?? join(repo, "bench/.data");
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".wasm": "application/wasm", ".json": "application/json", ".csv": "text/csv" };

async function serve() {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
      const [root, rel] = path.startsWith("/data/") ? [dataDir, path.slice(6)] : [site, path.slice(1) || "index.html"];
      const file = join(root, normalize(rel).replace(/^(\.\.[/\\])+/, ""));
      if (!(await stat(file)).isFile()) throw new Error("not a file");
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(await readFile(file));
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

// Our descendants' pids (the browser and all its children).
function descendants() {
  const parent = new Map();
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch { /* gone */ }
  }
  const mine = (pid) => { for (let p = pid, i = 0; p > 1 && i < 50; p = parent.get(p) ?? 0, i++) if (p === process.pid) return true; return false; };
  return [...parent.keys()].filter((pid) => pid !== process.pid && mine(pid));
}
// CPU seconds (user + system) of all the browser's live processes (clock ticks of 1/100 s).
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
function browserCpuSeconds() {
  let ticks = 0;
  for (const pid of descendants()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]);  // utime, stime (fields 14 and 15)
    } catch { /* gone */ }
  }
  return ticks / CLK_TCK;
}

// Renderer processes among our descendants (Chromium's --type=renderer).
function renderers() {
  return descendants().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer");
    } catch { return false; /* gone */ }
  });
}
function procKb(pid, field) {
  try {
    const m = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) : 0;
  } catch { return 0; }
}
// Chromium keeps a spare renderer or two: the page's renderer is the one with the largest peak.
function pageRenderer() {
  let best = null;
  for (const pid of renderers()) {
    const hwm = procKb(pid, "VmHWM");
    if (!best || hwm > best.hwm) best = { pid, hwm, rss: procKb(pid, "VmRSS") };
  }
  return best ?? { pid: null, hwm: null, rss: null };
}

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
let chromiumVersion = null;
try { chromiumVersion = execFileSync(executablePath, ["--version"], { encoding: "utf8" }).trim(); } catch { /* reported as null */ }

// The modes after window.bench.ready() (the worker started and the module instantiated first).
async function trainingModes(page, cfg, out) {
  const ready = await page.evaluate(() => window.bench.ready());
  const before = pageRenderer();
  Object.assign(out, ready, { rendererRssReadyKb: before.rss });
  if (ready.error) throw new Error(ready.error);
  if (cfg.mode === "csvParse") {
    await page.setInputFiles("#file-a", cfg.path);
    const cpu0 = browserCpuSeconds();
    const r = await page.evaluate((c) => window.bench.csvParse(c), cfg);
    Object.assign(out, r, { cpuSeconds: browserCpuSeconds() - cpu0, rendererPeakRssKb: pageRenderer().hwm });
  } else if (cfg.mode === "profile") {
    const cpu0 = browserCpuSeconds();
    Object.assign(out, await page.evaluate((c) => window.bench.profile(c), cfg));
    out.cpuSeconds = browserCpuSeconds() - cpu0;
  } else if (cfg.mode === "progress") {
    Object.assign(out, await page.evaluate((c) => window.bench.progress(c), cfg));
  } else {
    const trained = await page.evaluate((c) => window.bench.train(c), cfg);
    const after = pageRenderer();
    Object.assign(out, trained, { rendererPeakRssTrainKb: after.hwm, renderers: renderers().length,
      rendererSamePid: after.pid === before.pid });
    if (!trained.error) Object.assign(out, await page.evaluate(() => window.bench.test()));
  }
}

const configs = JSON.parse(process.argv[2]);
const server = await serve();
const results = [];
try {
  for (const cfg of configs) {
    const launched = performance.now();
    const browser = await chromium.launch({
      executablePath, headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
    });
    const out = { env: cfg.workers === 2 ? "chromium-2workers" : "chromium", chromium: chromiumVersion, browserVersion: browser.version(),
      workers: cfg.workers ?? null, seed: cfg.seed ?? 1, table: cfg.table };
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(server.url);
      await page.waitForFunction(() => document.body.dataset.ready === "1");
      if (cfg.mode === "e2e") {
        await page.setInputFiles("#file-a", cfg.train);
        await page.setInputFiles("#file-b", cfg.test);
        const cpu0 = browserCpuSeconds();
        const r = await page.evaluate((c) => window.bench.e2e(c), cfg);
        const cpuSeconds = browserCpuSeconds() - cpu0;
        const browserSeconds = (performance.now() - launched) / 1000;
        Object.assign(out, r, { cpuSeconds, browserSeconds, rendererPeakRssKb: pageRenderer().hwm });
      } else {
        await trainingModes(page, cfg, out);
      }
      if (errors.length) out.pageErrors = errors;
    } catch (error) {
      out.error = String(error?.message ?? error);
    } finally {
      await browser.close();
    }
    results.push(out);
    process.stderr.write(`chromium ${JSON.stringify(cfg.table ?? cfg.path)} ${cfg.mode ?? "train"} workers=${cfg.workers ?? 1}: ${out.error ?? `${out.trainSeconds ?? out.pageSeconds ?? out.parseSeconds ?? out.profileSeconds ?? ""}s`}\n`);
  }
} finally {
  await server.close();
}
console.log(JSON.stringify(results));
