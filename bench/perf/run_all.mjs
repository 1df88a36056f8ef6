// The performance suite behind bench/perf/run.sh (which builds first). Runs every configuration
// in its own process (native, Node) or its own browser (Chromium), then writes
// bench/results/perf.json (every run, raw) and docs/BENCHMARKS.md (summary tables).
//   node bench/perf/run_all.mjs [--quick] [--seeds N] [--envs native,node,chromium,chromium2]
//                               [--tables a,b,…] [--no-10x] [--progress-reps N] [--note TEXT]
//   node bench/perf/run_all.mjs --render   (summaries + BENCHMARKS.md again from perf.json's raw runs)
// Tables: syn-<n>x<d> (synthetic.mjs) and real tables by name. Seeded runs (benchmarks, NOT
// private releases). See bench/perf/README.md for what every number means.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "../../dist/node.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
process.chdir(repo);
const dataDir = process.env.DPMARGIN_BENCH_DATA ?? join(repo, "bench/.data");

// ---- arguments ----
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const value = (name, fallback) => {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return fallback;
  return argv[i].includes("=") ? argv[i].slice(name.length + 1) : argv[i + 1];
};
const quick = flag("--quick");
const seeds = Array.from({ length: Number(value("--seeds", "1")) }, (_, i) => i + 1);
const envs = value("--envs", "native,node,chromium,chromium2").split(",");
const tenX = !quick && !flag("--no-10x");
const progressReps = Number(value("--progress-reps", quick ? "2" : "3"));
const note = value("--note", null);  // printed at the top of BENCHMARKS.md (e.g. "trial run, busy machine")
const EPSILON = 1, DELTA = 1e-5;
let T = (await load()).defaults.maxIterations;  // the core's default, read through the package

const SYNTHETIC = [];
for (const n of [1000, 10000, 50000]) {
  for (const d of [50, 784]) {
    if (quick && n === 50000 && d === 784) continue;
    SYNTHETIC.push({ kind: "synthetic", name: `syn-${n}x${d}`, n, d });
  }
}
const REAL = ["mpls_stops", "fashion_mnist"].map((name) => ({ kind: "real", name }));
let tables = [...SYNTHETIC, ...REAL];
const only = value("--tables", null);
if (only) tables = tables.filter((t) => only.split(",").includes(t.name));
// The chunking/progress overhead is measured on one mid-sized table (~100+ chunks at 40 ms).
const PROGRESS_TABLE = { kind: "synthetic", name: "syn-10000x50", n: 10000, d: 50 };

const log = (...a) => console.error(`[perf ${new Date().toISOString().slice(11, 19)}]`, ...a);
const started = Date.now();

// ---- machine ----
function sh(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return r.status === 0 ? (r.stdout || r.stderr).trim() : null;
}
const realMeta = (() => {
  try { return JSON.parse(readFileSync(join(dataDir, "datasets.json"), "utf8")).datasets; } catch { return []; }
})();
const meta = {
  date: new Date().toISOString(),
  note, quick, seeds, envs, epsilon: EPSILON, delta: DELTA, defaultMaxIterations: T, tenX,
  machine: {
    cpu: cpus()[0]?.model ?? null, logicalCores: cpus().length, nproc: Number(sh("nproc", [])),
    memoryGiB: +(totalmem() / 2 ** 30).toFixed(1), kernel: sh("uname", ["-sr"]),
    loadAverageAtStart: sh("cat", ["/proc/loadavg"]),
  },
  versions: {
    node: process.version, chromium: sh(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", ["--version"]),
    emscripten: sh("emcc", ["--version"])?.split("\n")[0] ?? null, gxx: sh("g++", ["--version"])?.split("\n")[0] ?? null,
    python3: sh("/usr/bin/python3", ["--version"]),
    dpmargin: JSON.parse(readFileSync("package.json", "utf8")).version,
    git: sh("git", ["describe", "--always", "--dirty"]),
  },
  commands: [`bash bench/perf/run.sh${quick ? " --quick" : ""}`, `node bench/perf/run_all.mjs ${argv.join(" ")}`.trim()],
};

// ---- runners (one process / one browser per configuration) ----
const dataBytes = (r) => r.n * r.d * 4;

function runNative(table, seed, maxIterations) {
  const args = table.kind === "synthetic"
    ? [`synthetic=${table.n},${table.d}`]
    : [`train=${join(dataDir, `${table.name}_train.csv`)}`, `test=${join(dataDir, `${table.name}_test.csv`)}`];
  // Every other option is the core's default, as in the package (run::resolve).
  args.push(`seed=${seed}`, `maxIterations=${maxIterations}`, `eps=${EPSILON}`, `delta=${DELTA}`);
  const p = spawnSync("/usr/bin/time", ["-f", "TIME %M %e", "build-bench/bench/perf_native", ...args], { encoding: "utf8" });
  const timeLine = p.stderr.trim().split("\n").find((l) => l.startsWith("TIME "));
  if (p.status !== 0) return { status: "error", error: p.stderr.trim().slice(-500) };
  const r = JSON.parse(p.stdout.trim().split("\n").at(-1));
  const [, maxKb, wall] = timeLine.split(" ");
  return { status: "ok", ...r, processPeakRssKb: Number(maxKb), processWallSeconds: Number(wall) };
}

function runNode(cfg) {
  const p = spawnSync("node", ["bench/perf/node_run.mjs", JSON.stringify(cfg)], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (p.status !== 0) return { status: "error", error: p.stderr.trim().slice(-500) };
  const r = JSON.parse(p.stdout.trim().split("\n").at(-1));
  return r.error ? { status: unavailable(r) ? "not available" : "error", ...r } : { status: "ok", ...r };
}

function runChromium(cfg) {
  const p = spawnSync("node", ["bench/perf/chromium_run.mjs", JSON.stringify([cfg])], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (p.status !== 0) return { status: "error", error: p.stderr.trim().slice(-500) };
  const r = JSON.parse(p.stdout.trim().split("\n").at(-1))[0];
  return r.error ? { status: unavailable(r) ? "not available" : "error", ...r } : { status: "ok", ...r };
}

// The installed package rejects an option it does not know (e.g. `workers` before it exists).
const unavailable = (r) => r.errorCode === "BAD_PARAMETER" && /\bworkers\b/.test(r.error ?? "");

function ceiling(table) {
  const candidates = [process.env.DPMARGIN_CEILING_SCRIPT, "bench/ceiling/linearsvc.py"].filter(Boolean);
  const script = candidates.find((c) => existsSync(c));
  if (!script) return { status: "not available", reason: "bench/ceiling/linearsvc.py is not in this checkout" };
  const train = join(dataDir, `${table.name}_train.csv`), test = join(dataDir, `${table.name}_test.csv`);
  // Cached (it does not depend on dpmargin): keyed by the script's and both tables' SHA-256.
  const key = [script, train, test].map((f) => createHash("sha256").update(readFileSync(f)).digest("hex")).join(":");
  const cacheFile = "build-bench/perf-ceiling-cache.json";
  let cache = {};
  try { cache = JSON.parse(readFileSync(cacheFile, "utf8")); } catch { /* none yet */ }
  if (cache[key]) return { ...cache[key], cached: true };
  const p = spawnSync("/usr/bin/python3", [script, "--train", train, "--test", test, "--name", table.name],
    { encoding: "utf8", maxBuffer: 1 << 26 });
  if (p.status !== 0) return { status: "error", script, error: p.stderr.trim().slice(-500) };
  try {
    const r = { status: "ok", script, ...JSON.parse(p.stdout.trim().split("\n").at(-1)) };
    cache[key] = r;
    writeFileSync(cacheFile, JSON.stringify(cache, null, 1));
    return r;
  } catch (e) {
    return { status: "error", script, error: `unparsable output: ${p.stdout.slice(-300)}` };
  }
}

// --render: recompute the summaries and BENCHMARKS.md from the raw runs in bench/results/perf.json
// (e.g. after a change of presentation), without running anything.
const renderOnly = flag("--render");
let runs = [], progress = [], ceilings = {};
let twoWorkers = envs.includes("chromium2") ? "unknown" : "skipped";
if (renderOnly) {
  const old = JSON.parse(readFileSync("bench/results/perf.json", "utf8"));
  ({ runs, progress, ceilings } = old);
  Object.assign(meta, old.meta, { rendered: new Date().toISOString() });
  twoWorkers = old.meta.twoWorkers;
  T = old.meta.defaultMaxIterations;
  tables = tables.filter((t) => runs.some((r) => r.table === t.name));
} else {
// ---- the runs ----

const record = (table, env, maxIterations, seed, r) => {
  const row = { ...r, tableConfig: r.table, table: table.name, kind: table.kind, env, maxIterations, seed };
  if (row.status === "ok" && row.n && row.d) row.dataBytes = dataBytes(row);
  runs.push(row);
  const acc = row.testAccuracy !== undefined ? ` acc=${row.testAccuracy.toFixed(4)}` : "";
  log(`${table.name} ${env} T=${maxIterations} seed=${seed}: ${row.status}` +
    (row.status === "ok" && row.trainSeconds !== undefined ? ` train=${row.trainSeconds.toFixed(2)}s${acc}` : "") +
    (row.status !== "ok" ? ` ${(row.error ?? "").slice(0, 160)}` : ""));
};


for (const table of tables) {
  const cfgTable = table.kind === "synthetic" ? { kind: "synthetic", n: table.n, d: table.d } : { kind: "real", name: table.name };
  for (const seed of seeds) {
    const cfg = { table: cfgTable, seed, maxIterations: T, epsilon: EPSILON, delta: DELTA };
    if (envs.includes("native")) record(table, "native", T, seed, runNative(table, seed, T));
    if (envs.includes("node")) record(table, "node", T, seed, runNode(cfg));
    if (envs.includes("chromium")) record(table, "chromium", T, seed, runChromium(cfg));
    if (envs.includes("chromium2")) {
      if (twoWorkers === "not available") {
        record(table, "chromium-2workers", T, seed, { status: "not available", error: "the installed package rejects { workers: 2 } (first run)" });
      } else {
        const r = runChromium({ ...cfg, workers: 2 });
        if (r.status === "not available") twoWorkers = "not available";
        else if (r.status === "ok") twoWorkers = "available";
        record(table, "chromium-2workers", T, seed, r);
      }
    }
  }
}

// 10× the default iterations: real tables, natively (the accuracy question; the wasm builds run
// the same core and seeded runs select the same way).
if (tenX && envs.includes("native")) {
  for (const table of tables.filter((t) => t.kind === "real")) {
    for (const seed of seeds) record(table, "native", 10 * T, seed, runNative(table, seed, 10 * T));
  }
}

// Chunking + progress-callback overhead, Node and Chromium (one worker).

const summarizeProgress = (env, r) => {
  if (r.status !== "ok") return { env, status: r.status, error: r.error };
  const stat = (k, f, field) => f(r.runs[k].map((x) => x[field]));
  const over = (f, field, mode = "progress") => {
    if (!r.runs[mode]) return null;
    const a = stat(mode, f, field), b = stat("fewChunks", f, field);
    return Number.isFinite(a) && Number.isFinite(b) ? 100 * (a - b) / b : null;
  };
  const min = (xs) => (xs.every(Number.isFinite) ? Math.min(...xs) : NaN);
  return {
    env, status: "ok", table: PROGRESS_TABLE.name, reps: r.reps,
    medianProgressSeconds: stat("progress", median, "trainSeconds"), medianFewChunksSeconds: stat("fewChunks", median, "trainSeconds"),
    overheadPercent: over(median, "trainSeconds"), overheadPercentMin: over(min, "trainSeconds"),
    overheadPercentCpu: over(median, "cpuSeconds"),  // Node only (process CPU time of the call)
    // Default chunking without a callback (mode C): the chunking's share of the overhead.
    medianChunksOnlySeconds: r.runs.chunksOnly ? stat("chunksOnly", median, "trainSeconds") : null,
    chunkingOnlyOverheadPercent: over(median, "trainSeconds", "chunksOnly"),
    progressCalls: r.runs.progress[0]?.progressCalls ?? null,
    sameSelection: new Set(Object.values(r.runs).flat().map((x) => x.selectedMargin)).size === 1,
    testAccuracy: r.testAccuracy, runs: r.runs,
  };
};
if (!only || only.split(",").includes(PROGRESS_TABLE.name)) {
  const cfg = { table: { kind: "synthetic", n: PROGRESS_TABLE.n, d: PROGRESS_TABLE.d }, seed: 1, maxIterations: T,
    epsilon: EPSILON, delta: DELTA, mode: "progress", reps: progressReps, modes: ["progress", "fewChunks", "chunksOnly"] };
  if (envs.includes("node")) progress.push(summarizeProgress("node", runNode(cfg)));
  if (envs.includes("chromium")) progress.push(summarizeProgress("chromium", runChromium(cfg)));
  for (const p of progress) log(`progress overhead ${p.env}: ${p.status === "ok" ? `${p.overheadPercent.toFixed(2)}%` : p.error}`);
}

// Non-private ceiling (LinearSVC) for the real tables.

for (const table of tables.filter((t) => t.kind === "real")) {
  ceilings[table.name] = ceiling(table);
  log(`ceiling ${table.name}: ${ceilings[table.name].status} ${ceilings[table.name].test_accuracy ?? ceilings[table.name].reason ?? ""}`);
}

}  // !renderOnly

// ---- summary ----
function median(xs) {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

// Peak memory per environment: the peak, the pre-data baseline it grew from, and the wasm memory.
function memory(r) {
  switch (r.env) {
    case "native": return { peakKb: r.peakRssTrainKb, baselineKb: r.rssStartKb, what: "process RSS peak (getrusage) after training",
      // The training's own peak over the RSS with the raw table loaded (VmHWM reset before it).
      libraryKb: r.vmHwmTrainKb > 0 ? r.vmHwmTrainKb - r.vmRssBeforeTrainKb : r.peakRssTrainKb - r.rssBeforeTrainKb };
    case "node": return { peakKb: r.peakRssTrainKb, baselineKb: r.rssLoadedKb, dataKb: r.rssDataKb, wasmBytes: r.wasmMemoryBytes, what: "process maxRSS after training" };
    default: return { peakKb: r.rendererPeakRssTrainKb, baselineKb: r.rendererRssReadyKb, wasmBytes: r.wasmMemoryBytes, what: "renderer VmHWM after training" };
  }
}

const summary = [];
const ENV_ORDER = ["native", "node", "chromium", "chromium-2workers"];
for (const table of tables) {
  for (const maxIterations of [T, 10 * T]) {
    for (const env of ENV_ORDER) {
      const rs = runs.filter((r) => r.table === table.name && r.env === env && r.maxIterations === maxIterations);
      if (!rs.length) continue;
      const ok = rs.filter((r) => r.status === "ok");
      if (!ok.length) {
        summary.push({ table: table.name, kind: table.kind, env, maxIterations, status: rs[0].status, error: rs[0].error });
        continue;
      }
      const mem = ok.map(memory);
      const db = ok[0].dataBytes;
      const peakKb = median(mem.map((m) => m.peakKb));
      const growthKb = median(mem.map((m) => m.peakKb - m.baselineKb));
      const wasmBytes = median(mem.map((m) => m.wasmBytes ?? NaN));
      // The library's own footprint: native — RSS growth once the caller's raw table exists;
      // wasm — the WebAssembly memory (everything the package allocates lives there).
      const libraryBytes = env === "native" ? median(mem.map((m) => m.libraryKb)) * 1024 : wasmBytes;
      summary.push({
        table: table.name, kind: table.kind, env, maxIterations, status: "ok", seeds: ok.map((r) => r.seed),
        n: ok[0].n, d: ok[0].d, dataBytes: db,
        trainSeconds: median(ok.map((r) => r.trainSeconds)), totalSeconds: median(ok.map((r) => r.loadSeconds + r.trainSeconds)),
        loadSeconds: median(ok.map((r) => r.loadSeconds)),
        testAccuracy: mean(ok.map((r) => r.testAccuracy)), testAccuracies: ok.map((r) => r.testAccuracy),
        selectedMargins: ok.map((r) => r.selectedMargin), candidates: ok[0].candidates,
        oracleTestAccuracy: ok[0].oracleTest >= 0 ? ok[0].oracleTest : null, checksum: ok[0].checksum ?? null,
        peakMemoryBytes: peakKb * 1024, memoryBaselineBytes: median(mem.map((m) => m.baselineKb)) * 1024,
        peakMemoryMeasure: mem[0].what, growthOverData: (growthKb * 1024) / db,
        wasmMemoryBytes: Number.isFinite(wasmBytes) ? wasmBytes : null,
        wasmMemoryOverData: Number.isFinite(wasmBytes) ? wasmBytes / db : null,
        libraryBytes, libraryOverData: libraryBytes / db,
        processPeakRssBytes: env === "native" ? median(ok.map((r) => r.processPeakRssKb)) * 1024 : null,
      });
    }
  }
}
// wasm/native time ratios from this run.
const ratios = [];
for (const table of tables) {
  const get = (env) => summary.find((s) => s.table === table.name && s.env === env && s.maxIterations === T && s.status === "ok");
  const native = get("native");
  if (!native) continue;
  const row = { table: table.name, nativeTrainSeconds: native.trainSeconds };
  for (const env of ["node", "chromium", "chromium-2workers"]) {
    const s = get(env);
    row[env] = s ? s.trainSeconds / native.trainSeconds : null;
  }
  ratios.push(row);
}
// Default vs 10× iterations (native).
const iterations = [];
for (const table of tables.filter((t) => t.kind === "real")) {
  const a = summary.find((s) => s.table === table.name && s.env === "native" && s.maxIterations === T && s.status === "ok");
  const b = summary.find((s) => s.table === table.name && s.env === "native" && s.maxIterations === 10 * T && s.status === "ok");
  if (!a || !b) continue;
  const diffPoints = 100 * (b.testAccuracy - a.testAccuracy);
  iterations.push({ table: table.name, defaultT: T, tenT: 10 * T, accDefault: a.testAccuracy, accTen: b.testAccuracy,
    secondsDefault: a.trainSeconds, secondsTen: b.trainSeconds, tenMinusDefaultPoints: diffPoints, withinOnePoint: diffPoints <= 1 });
}

if (!renderOnly) {
  meta.suiteWallSeconds = (Date.now() - started) / 1000;
  meta.loadAverageAtEnd = sh("cat", ["/proc/loadavg"]);
}
meta.twoWorkers = twoWorkers;
meta.realTables = Object.fromEntries(realMeta.filter((m) => tables.some((t) => t.name === m.name))
  .map((m) => [m.name, { rows_train: m.rows_train, rows_test: m.rows_test, columns: m.columns, sha256_train: m.sha256_train }]));
const out = { meta, summary, ratios, iterations, progress, ceilings, runs };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/perf.json", `${JSON.stringify(out, null, 1)}\n`);
writeFileSync("docs/BENCHMARKS.md", markdown(out));
log(`wrote bench/results/perf.json and docs/BENCHMARKS.md in ${meta.suiteWallSeconds.toFixed(0)} s`);

// ---- Markdown ----
function markdown({ meta, summary, ratios, iterations, progress, ceilings }) {
  const f = (x, digits = 2) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits));
  const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}`);
  const mb = (b) => (b === null || b === undefined || !Number.isFinite(b) ? "–" : (b / 2 ** 20).toFixed(1));
  const shape = (s) => (s.n ? `${s.n} × ${s.d}` : "");
  const L = [];
  L.push("# Performance benchmarks", "");
  L.push(`Generated by \`${meta.commands[0]}\` (bench/perf/, see [bench/perf/README.md](../bench/perf/README.md)) on ${meta.date}; ` +
    "every number below comes from that run (raw per-run data: [bench/results/perf.json](../bench/results/perf.json)). Do not edit by hand.", "");
  if (meta.note) L.push(`> **Note:** ${meta.note}`, "");
  if (meta.rendered) L.push(`(Tables re-rendered on ${meta.rendered} from the raw runs in perf.json by \`node bench/perf/run_all.mjs --render\`.)`, "");
  L.push(`Full M* training (iter selector, tight calibration, package defaults), ε = ${meta.epsilon}, δ = ${meta.delta}, ` +
    `maxIterations = ${meta.defaultMaxIterations} (the package default${meta.tenX ? `; also 10× = ${10 * meta.defaultMaxIterations} natively on the real tables` : ""}). ` +
    `Seeded runs (seed${meta.seeds.length > 1 ? "s" : ""} ${meta.seeds.join(", ")}): deterministic, **not private** — fine for timing. ` +
    `${meta.seeds.length > 1 ? "Times and memory are medians over the seeds, accuracy the mean." : "One seed per configuration."}` +
    `${meta.quick ? " **--quick**: without 50k × 784 and the 10× runs." : ""}`, "");
  L.push("## Machine", "");
  L.push("| | |", "|---|---|");
  L.push(`| CPU | ${meta.machine.cpu} (${meta.machine.logicalCores} logical cores, nproc ${meta.machine.nproc}), ${meta.machine.memoryGiB} GiB |`);
  L.push(`| Kernel | ${meta.machine.kernel} |`);
  L.push(`| Load average (start → end) | ${meta.machine.loadAverageAtStart} → ${meta.loadAverageAtEnd} |`);
  for (const [k, v] of Object.entries(meta.versions)) L.push(`| ${k} | ${v ?? "–"} |`);
  L.push(`| Suite wall time | ${(meta.suiteWallSeconds / 60).toFixed(1)} min |`, "");
  L.push("Commands:", "", "```", ...meta.commands, "```", "");

  L.push("## Training time, accuracy, selected margin", "");
  L.push("*train s*: wall time of training from a float32 table in memory to the model (copy into the core, validation, " +
    "preprocessing, M*); *total s*: including loading (CSV read, or generating the synthetic table). " +
    "Chromium times are measured inside the worker around the `train`/`trainCsv` call. Accuracy on the test split " +
    "(synthetic: 5000 fresh rows from the same distribution; the true separator scores *oracle*).", "");
  L.push("| table | n × d | env | T | train s | total s | test acc % | γ selected | oracle % |", "|---|---|---|---|---|---|---|---|---|");
  for (const s of summary.filter((x) => x.maxIterations === meta.defaultMaxIterations)) {
    if (s.status !== "ok") { L.push(`| ${s.table} | | ${s.env} | ${s.maxIterations} | ${s.status} | | | | |`); continue; }
    L.push(`| ${s.table} | ${shape(s)} | ${s.env} | ${s.maxIterations} | ${f(s.trainSeconds)} | ${f(s.totalSeconds)} | ` +
      `${pct(s.testAccuracy)} | ${s.selectedMargins.map((g) => g.toPrecision(3)).join(", ")} | ${s.oracleTestAccuracy ? pct(s.oracleTestAccuracy) : "–"} |`);
  }
  L.push("");
  if (meta.twoWorkers === "not available") {
    L.push("Two-worker mode: **not available** — the installed package rejects the `workers: 2` train option (BAD_PARAMETER).", "");
  }

  L.push("## wasm / native training-time ratio (same run)", "");
  L.push("| table | native train s | Node ÷ native | Chromium (1 worker) ÷ native | Chromium (2 workers) ÷ native |", "|---|---|---|---|---|");
  for (const r of ratios) L.push(`| ${r.table} | ${f(r.nativeTrainSeconds)} | ${f(r.node)} | ${f(r.chromium)} | ${f(r["chromium-2workers"])} |`);
  L.push("");

  L.push("## Peak memory", "");
  L.push("Data size = n × d × 4 bytes (float32). *peak MB*: native — the process's peak RSS (getrusage) right after training; " +
    "Node — `process.resourceUsage().maxRSS` right after training; Chromium — VmHWM (peak RSS) of the page's renderer process, " +
    "which hosts the worker, right after training (from /proc; `performance.measureUserAgentSpecificMemory` needs cross-origin isolation). " +
    "*growth ÷ data* = (peak − the pre-data baseline: native process start / Node after `load()` / renderer once the worker has loaded the module) ÷ data size. " +
    "*wasm MB*: the WebAssembly memory after training (it never shrinks, so it is its peak). " +
    "*library ÷ data*: the library's own footprint — native: the peak RSS of training alone (VmHWM reset just before it) − the RSS with the caller's raw table loaded; Node and Chromium: the wasm memory. " +
    "Target: library ÷ data ≤ 2.5×. Synthetic tables go through `train()` with a typed array the caller keeps, so *growth* includes that 1× copy (native: the raw table, likewise); " +
    "real tables go through `trainCsv` (streamed straight into wasm memory) in Node and Chromium. Small tables are dominated by fixed costs " +
    "(runtime, the initial 32 MiB wasm memory).", "");
  L.push("| table | data MB | env | peak MB | growth ÷ data | wasm MB | library ÷ data | ≤ 2.5× |", "|---|---|---|---|---|---|---|---|");
  for (const s of summary.filter((x) => x.maxIterations === meta.defaultMaxIterations && x.status === "ok")) {
    L.push(`| ${s.table} | ${mb(s.dataBytes)} | ${s.env} | ${mb(s.peakMemoryBytes)} | ${f(s.growthOverData)} | ${mb(s.wasmMemoryBytes)} | ` +
      `${f(s.libraryOverData)} | ${s.libraryOverData <= 2.5 ? "yes" : "no"} |`);
  }
  L.push("");

  if (iterations.length) {
    L.push("## maxIterations: default vs 10× (native)", "");
    L.push("Target: accuracy at the default within 1 point of 10×.", "");
    L.push("| table | T | test acc % | train s | 10T | test acc % | train s | 10T − T (points) | within 1 point |", "|---|---|---|---|---|---|---|---|---|");
    for (const r of iterations) {
      L.push(`| ${r.table} | ${r.defaultT} | ${pct(r.accDefault)} | ${f(r.secondsDefault)} | ${r.tenT} | ${pct(r.accTen)} | ${f(r.secondsTen)} | ` +
        `${f(r.tenMinusDefaultPoints)} | ${r.withinOnePoint ? "yes" : "no"} |`);
    }
    L.push("");
  }

  L.push("## Non-private ceiling (LinearSVC)", "");
  L.push("`/usr/bin/python3 bench/ceiling/linearsvc.py --train A --test B --name X` on the real tables; no ceiling is computed for the synthetic " +
    "tables (their Bayes-optimal accuracy is known by construction: the *oracle* column above, ≈ 95% with 5% label flips).", "");
  L.push("| table | LinearSVC test acc % | M* test acc % (native, T default) | status |", "|---|---|---|---|");
  for (const [name, c] of Object.entries(ceilings)) {
    const mstar = summary.find((s) => s.table === name && s.env === "native" && s.maxIterations === meta.defaultMaxIterations && s.status === "ok");
    L.push(`| ${name} | ${c.status === "ok" ? pct(c.test_accuracy) : "–"} | ${mstar ? pct(mstar.testAccuracy) : "–"} | ${c.status}${c.reason ? `: ${c.reason}` : ""}${c.error ? `: ${c.error.slice(0, 120)}` : ""} |`);
  }
  L.push("");

  L.push("## Progress-reporting overhead", "");
  L.push(`The same seeded training on ${PROGRESS_TABLE.name}, alternately (A) with an \`onProgress\` callback and the default chunking ` +
    "(~40 ms chunks, wasm/src/chunked.ts) and (B) without a callback and as few chunks as possible (chunk target ∞ through the " +
    "benchmark-only `setTargetChunkMsForBenchmarks`: the budget grows ×4 per chunk), and (C) the default chunking without a callback " +
    "(the chunking's own share). One discarded warm-up run first (V8 tier-up), then the modes in alternating order. Overhead = (A − B) ÷ B, from the medians and from the minima over the repetitions (the minimum is the least disturbed " +
    "by other load), and in Node also from the process CPU time of the call. All modes select the same margin (seeded). Target: ≤ 2%.", "");
  L.push("| env | reps | A: progress s (median) | B: few chunks s (median) | overhead % (medians) | overhead % (minima) | overhead % (CPU time, medians) | C: chunking only, overhead % (medians) | callbacks in A | same selection |", "|---|---|---|---|---|---|---|---|---|---|");
  for (const p of progress) {
    if (p.status !== "ok") { L.push(`| ${p.env} | | | | ${p.status}: ${(p.error ?? "").slice(0, 100)} | | | | | |`); continue; }
    L.push(`| ${p.env} | ${p.reps} | ${f(p.medianProgressSeconds, 3)} | ${f(p.medianFewChunksSeconds, 3)} | ${f(p.overheadPercent)} | ` +
      `${f(p.overheadPercentMin)} | ${f(p.overheadPercentCpu)} | ${f(p.chunkingOnlyOverheadPercent)} | ${p.progressCalls} | ${p.sameSelection ? "yes" : "no"} |`);
  }
  L.push("");
  return `${L.join("\n")}\n`;
}
