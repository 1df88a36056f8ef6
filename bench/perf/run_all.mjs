// The performance suite behind bench/perf/run.sh (which builds first). Runs every configuration
// in its own process (native, Node) or its own browser (Chromium), then writes
// bench/results/perf.json (every run, raw) and docs/results/benchmarks.md (summary tables).
//   node bench/perf/run_all.mjs [--quick] [--seeds N] [--envs native,node,chromium,chromium2]
//                               [--tables a,b,…] [--no-10x] [--progress-reps N] [--note TEXT]
//                               [--e2e cli,chromium,opacus|none] [--reps N]
//                               [--csv-parse node,chromium|none] [--csv-mb 100]
//   node bench/perf/run_all.mjs --render   (summaries + docs/results/benchmarks.md again from perf.json's raw runs)
// Tables: syn-<n>x<d> (synthetic.mjs) and real tables by name. Seeded runs (benchmarks, NOT
// private releases). See bench/perf/README.md for what every number means.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load } from "../../dist/node.js";
import { writeNumericCsv } from "./numeric_csv.mjs";

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
const note = value("--note", null);  // printed at the top of docs/results/benchmarks.md (e.g. "trial run, busy machine")
const EPSILON = 1, DELTA = 1e-5;
// End to end (CLI, headless Chromium) against the Opacus peer, and CSV parsing throughput.
const listOf = (name, fallback) => { const v = value(name, fallback); return v === "none" ? [] : v.split(","); };
const e2eEnvs = listOf("--e2e", "cli,chromium,opacus");
const reps = Number(value("--reps", "3"));
const csvEnvs = listOf("--csv-parse", "node,chromium");
const csvMb = Number(value("--csv-mb", "100"));
// The peer script (not part of this repository), as bench/accuracy/run.sh finds it.
const PEER = process.env.PEER ?? "../shared/peers/dp_peer.py";
const dpPackage = await load();
// The package's defaults, read from dist/ (never hard-coded). maxIterations is a constant
// default only for some selectors (with "auto", the default, it is a rule): when the package
// has no constant, no maxIterations is passed and the core resolves it; the value each run used
// comes back in its report.
let T = dpPackage.defaults.maxIterations ?? null;

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
  e2eEnvs, reps, csvEnvs, csvMb, packageDefaults: dpPackage.defaults,
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

function runNative(table, seed, maxIterations /* null: the core's default */) {
  const args = table.kind === "synthetic"
    ? [`synthetic=${table.n},${table.d}`]
    : [`train=${join(dataDir, `${table.name}_train.csv`)}`, `test=${join(dataDir, `${table.name}_test.csv`)}`];
  // Every other option is the core's default, as in the package (run::resolve).
  args.push(`seed=${seed}`, `eps=${EPSILON}`, `delta=${DELTA}`);
  if (maxIterations !== null) args.push(`maxIterations=${maxIterations}`);
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

// A child process under /usr/bin/time: wall (also timed here, finer), user + system CPU seconds
// and the peak RSS of the process (the child's own; for the CLI and the peer that is the whole job).
function timed(cmd, args, options = {}) {
  const t0 = performance.now();
  const p = spawnSync("/usr/bin/time", ["-f", "TIME %e %U %S %M", cmd, ...args], { encoding: "utf8", maxBuffer: 1 << 26, ...options });
  const wallSeconds = (performance.now() - t0) / 1000;
  const line = (p.stderr ?? "").trim().split("\n").reverse().find((l) => l.startsWith("TIME "));
  if (!line) return { p, wallSeconds, error: (p.stderr ?? String(p.error)).trim().slice(-500) };
  const [, , user, sys, maxKb] = line.split(" ").map(Number);
  return { p, wallSeconds, cpuSeconds: user + sys, peakRssKb: maxKb };
}
const realFiles = (table) => ({ train: join(dataDir, `${table.name}_train.csv`), test: join(dataDir, `${table.name}_test.csv`) });

// End to end in the CLI: the whole `dpmargin train` process (Node start, wasm instantiation, both
// CSV passes, training, the train- and test-accuracy passes, writing the model file) with the
// package defaults: only ε and δ (required) and the label column are given — no seed.
function runCliE2E(table) {
  const { train, test } = realFiles(table);
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-perf-e2e-"));
  try {
    const model = join(dir, "model.json");
    const t = timed("node", ["dist/cli.js", "train", train, "--label", "label", "--test", test,
      "--epsilon", String(EPSILON), "--delta", String(DELTA), "--out", model, "--json", "--quiet"]);
    if (t.error || t.p.status !== 0) return { status: "error", error: t.error ?? t.p.stderr.trim().slice(-500) };
    const r = JSON.parse(t.p.stdout);
    return { status: "ok", wallSeconds: t.wallSeconds, cpuSeconds: t.cpuSeconds, peakRssKb: t.peakRssKb,
      trainSeconds: r.local.elapsedMs / 1000, testAccuracy: r.local.testAccuracy, n: r.n, d: r.d - 1,
      selector: r.selector, maxIterations: r.report.plan.maxIterations, selectedMargin: r.selectedMargin,
      seeded: r.seeded, modelBytes: statSync(model).size };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// End to end in headless Chromium: the bench page, the train and test CSVs as Files in its
// file inputs, then File → model → test accuracy in a module worker (chromium_run.mjs "e2e").
function runChromiumE2E(table) {
  const { train, test } = realFiles(table);
  const r = runChromium({ mode: "e2e", train, test, epsilon: EPSILON, delta: DELTA });
  if (r.status !== "ok") return r;
  return { ...r, wallSeconds: r.pageSeconds, trainSeconds: r.trainCsvSeconds, peakRssKb: r.rendererPeakRssKb };
}

// The Opacus peer (DP-SGD, hinge loss, its documented defaults), unchanged, as bench/accuracy
// runs it: ε/2 and δ/(1 + e^{ε/2}) add/remove (⇒ (ε, δ) replace-one: --neighbours replace-one),
// column min/max from the training split (--prep minmax_l2, favours the peer), seed = rep − 1;
// one thread (the script calls torch.set_num_threads(1); OMP/MKL/OpenBLAS pinned to 1 as well).
// wall = the whole Python process; trainSeconds = the peer's own "train_seconds" (make_private,
// the DP-SGD epochs and the test predictions; after imports, CSV reading and noise calibration).
function runPeer(table, seed) {
  if (!existsSync(PEER)) return { status: "not available", error: `no peer at ${PEER} (set PEER)` };
  const { train, test } = realFiles(table);
  const env = { ...process.env, OMP_NUM_THREADS: "1", MKL_NUM_THREADS: "1", OPENBLAS_NUM_THREADS: "1" };
  const t = timed("/usr/bin/python3", [PEER, train, test, "--label", "label", "--epsilon", String(EPSILON),
    "--delta", String(DELTA), "--neighbours", "replace-one", "--prep", "minmax_l2", "--seed", String(seed), "--json"], { env });
  if (t.error || t.p.status !== 0) return { status: "error", error: t.error ?? t.p.stderr.trim().slice(-500) };
  const r = JSON.parse(t.p.stdout.trim().split("\n").at(-1));
  return { status: "ok", wallSeconds: t.wallSeconds, cpuSeconds: t.cpuSeconds, peakRssKb: t.peakRssKb,
    trainSeconds: r.train_seconds, peerProcessSeconds: r.process_seconds, testAccuracy: r.accuracy, n: r.n, d: r.d,
    peer: r.peer, peerEpsilon: r.peer_epsilon, peerDelta: r.peer_delta, neighbours: r.neighbours, prep: r.prep,
    epochs: r.epochs, batch: r.batch, lr: r.lr, noiseMultiplier: r.noise_multiplier, seed, script: PEER };
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

// --render: recompute the summaries and docs/results/benchmarks.md from the raw runs in bench/results/perf.json
// (e.g. after a change of presentation), without running anything.
const renderOnly = flag("--render");
let runs = [], progress = [], ceilings = {}, e2e = [], csvParse = [], csvFileInfo = null;
let twoWorkers = envs.includes("chromium2") ? "unknown" : "skipped";
if (renderOnly) {
  const old = JSON.parse(readFileSync("bench/results/perf.json", "utf8"));
  ({ runs, progress, ceilings } = old);
  e2e = old.e2e?.runs ?? [];
  csvParse = old.csvParse?.runs ?? [];
  csvFileInfo = old.csvParse?.file ?? null;
  Object.assign(meta, old.meta, { rendered: new Date().toISOString() });
  twoWorkers = old.meta.twoWorkers;
  T = old.meta.defaultMaxIterations;
  tables = tables.filter((t) => runs.some((r) => r.table === t.name));
} else {
// ---- the runs ----

// What the package's defaults resolve to for each table's shape (dp.planFor with only ε and δ):
// the selector, calibration, iteration cap and the iterations each candidate runs.
meta.defaultPlans = {};
for (const table of tables) {
  const m = realMeta.find((x) => x.name === table.name);
  const shape = table.kind === "synthetic" ? { rows: table.n, features: table.d } : m ? { rows: m.rows_train, features: m.columns } : null;
  if (!shape) continue;
  try {
    const plan = dpPackage.planFor({ epsilon: EPSILON, delta: DELTA }, shape);
    meta.defaultPlans[table.name] = { selector: plan.selector, calibration: plan.calibration, maxIterations: plan.maxIterations,
      candidates: plan.candidates.length, iterationsRun: plan.candidates.map((c) => c.T) };
  } catch (error) {
    meta.defaultPlans[table.name] = { error: String(error?.message ?? error) };
  }
}

// iterations: "default" (the package's maxIterations) or "10x" (10 × the one the default resolved to).
const record = (table, env, iterations, seed, r) => {
  const row = { ...r, tableConfig: r.table, table: table.name, kind: table.kind, env, iterations,
    maxIterations: r.maxIterations ?? null, seed };
  if (row.status === "ok" && row.n && row.d) row.dataBytes = dataBytes(row);
  runs.push(row);
  const acc = Number.isFinite(row.testAccuracy) ? ` acc=${row.testAccuracy.toFixed(4)}` : "";
  log(`${table.name} ${env} ${iterations} T≤${row.maxIterations} seed=${seed}: ${row.status}` +
    (row.status === "ok" && Number.isFinite(row.trainSeconds) ? ` train=${row.trainSeconds.toFixed(2)}s${acc}` : "") +
    (row.status !== "ok" ? ` ${(row.error ?? "").slice(0, 160)}` : ""));
};


for (const table of tables) {
  const cfgTable = table.kind === "synthetic" ? { kind: "synthetic", n: table.n, d: table.d } : { kind: "real", name: table.name };
  for (const seed of seeds) {
    const cfg = { table: cfgTable, seed, ...(T !== null ? { maxIterations: T } : {}), epsilon: EPSILON, delta: DELTA };
    if (envs.includes("native")) record(table, "native", "default", seed, runNative(table, seed, T));
    if (envs.includes("node")) record(table, "node", "default", seed, runNode(cfg));
    if (envs.includes("chromium")) record(table, "chromium", "default", seed, runChromium(cfg));
    if (envs.includes("chromium2")) {
      if (twoWorkers === "not available") {
        record(table, "chromium-2workers", "default", seed, { status: "not available", error: "the installed package rejects { workers: 2 } (first run)" });
      } else {
        const r = runChromium({ ...cfg, workers: 2 });
        if (r.status === "not available") twoWorkers = "not available";
        else if (r.status === "ok") twoWorkers = "available";
        record(table, "chromium-2workers", "default", seed, r);
      }
    }
  }
}

// 10× the default iterations: real tables, natively (the accuracy question; the wasm builds run
// the same core and seeded runs select the same way).
// With a selector whose iterations are a rule (auto: max(200, ⌈800·μ⌉) up to the cap), 10 × the
// cap changes nothing unless the cap binds: the comparison only runs with a constant default.
if (tenX && T === null) meta.tenXSkipped = "the package's default maxIterations is not a constant (selector auto runs a rule up to the cap), so 10× the cap would not change the iterations run";
if (tenX && T !== null && envs.includes("native")) {
  for (const table of tables.filter((t) => t.kind === "real")) {
    // 10 × the cap the default resolved to (the native run reports it).
    const base = runs.find((r) => r.table === table.name && r.env === "native" && r.iterations === "default" && r.status === "ok");
    if (!base) continue;
    for (const seed of seeds) record(table, "native", "10x", seed, runNative(table, seed, 10 * base.maxIterations));
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
  const cfg = { table: { kind: "synthetic", n: PROGRESS_TABLE.n, d: PROGRESS_TABLE.d }, seed: 1, ...(T !== null ? { maxIterations: T } : {}),
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

// End to end against the Opacus peer, then CSV parsing throughput (both: `reps` repetitions,
// the environments interleaved within each repetition so that they see the same machine load).
if (e2eEnvs.length) {
  for (let rep = 1; rep <= reps; rep++) {
    for (const table of tables.filter((t) => t.kind === "real")) {
      const loadAverage1 = Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
      for (const env of e2eEnvs) {
        const r = env === "cli" ? runCliE2E(table) : env === "chromium" ? runChromiumE2E(table) : runPeer(table, rep - 1);
        const row = { ...r, table: table.name, env, rep, loadAverage1 };
        e2e.push(row);
        log(`e2e ${table.name} ${env} rep ${rep}: ${row.status}` + (row.status === "ok"
          ? ` ${row.wallSeconds.toFixed(2)} s wall, ${row.cpuSeconds?.toFixed(2)} s CPU${row.trainSeconds !== undefined ? `, training ${row.trainSeconds.toFixed(2)} s` : ""}, acc=${row.testAccuracy?.toFixed(4)}`
          : ` ${(row.error ?? "").slice(0, 200)}`));
      }
    }
  }
}
if (csvEnvs.length) {
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-perf-csv-"));
  try {
    const path = join(dir, "numeric.csv");
    const gen = await writeNumericCsv(path, csvMb * 1e6);
    csvFileInfo = { ...gen, bytes: statSync(path).size, mb: csvMb, columns: 51, generator: "bench/perf/numeric_csv.mjs (seed 1)" };
    log(`csv: ${csvFileInfo.bytes} bytes, ${gen.rows} rows in ${path}`);
    for (let rep = 1; rep <= reps; rep++) {
      for (const env of csvEnvs) {
        for (const reader of ["stream", "readCsv"]) {
          const cfg = { mode: "csvParse", path, reader };
          const r = env === "node" ? runNode(cfg) : runChromium(cfg);
          const row = { ...r, env, reader, rep, bytes: csvFileInfo.bytes };
          csvParse.push(row);
          log(`csv ${env} ${reader} rep ${rep}: ${row.status}` + (row.status === "ok"
            ? ` ${(row.bytes / 1e6 / row.parseSeconds).toFixed(0)} MB/s` : ` ${(row.error ?? "").slice(0, 200)}`));
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

}  // !renderOnly

// ---- summary ----
// Runs recorded before the "iterations" field: the default is the meta's constant maxIterations.
function iterationsOf(r) {
  return r.iterations ?? (r.maxIterations === meta.defaultMaxIterations ? "default" : "10x");
}
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
  for (const iterations of ["default", "10x"]) {
    for (const env of ENV_ORDER) {
      const rs = runs.filter((r) => r.table === table.name && r.env === env && iterationsOf(r) === iterations);
      if (!rs.length) continue;
      const ok = rs.filter((r) => r.status === "ok");
      if (!ok.length) {
        summary.push({ table: table.name, kind: table.kind, env, iterations, maxIterations: null, status: rs[0].status, error: rs[0].error });
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
        table: table.name, kind: table.kind, env, iterations, maxIterations: median(ok.map((r) => r.maxIterations)), status: "ok", seeds: ok.map((r) => r.seed),
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
  const get = (env) => summary.find((s) => s.table === table.name && s.env === env && s.iterations === "default" && s.status === "ok");
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
  const a = summary.find((s) => s.table === table.name && s.env === "native" && s.iterations === "default" && s.status === "ok");
  const b = summary.find((s) => s.table === table.name && s.env === "native" && s.iterations === "10x" && s.status === "ok");
  if (!a || !b) continue;
  const diffPoints = 100 * (b.testAccuracy - a.testAccuracy);
  iterations.push({ table: table.name, defaultT: a.maxIterations, tenT: b.maxIterations, accDefault: a.testAccuracy, accTen: b.testAccuracy,
    secondsDefault: a.trainSeconds, secondsTen: b.trainSeconds, tenMinusDefaultPoints: diffPoints, withinOnePoint: diffPoints <= 1 });
}

// End to end: medians per table × environment, then dpmargin ÷ Opacus from the medians.
const E2E_ORDER = ["cli", "chromium", "opacus"];
const e2eSummary = [];
for (const table of tables.filter((t) => t.kind === "real")) {
  for (const env of E2E_ORDER) {
    const rs = e2e.filter((r) => r.table === table.name && r.env === env);
    if (!rs.length) continue;
    const ok = rs.filter((r) => r.status === "ok");
    if (!ok.length) { e2eSummary.push({ table: table.name, env, status: rs[0].status, error: rs[0].error }); continue; }
    const med = (k) => median(ok.map((r) => r[k]));
    e2eSummary.push({
      table: table.name, env, status: "ok", reps: ok.length, n: ok[0].n, d: ok[0].d,
      wallSeconds: med("wallSeconds"), cpuSeconds: med("cpuSeconds"), trainSeconds: med("trainSeconds"),
      peakRssBytes: med("peakRssKb") * 1024, testAccuracy: mean(ok.map((r) => r.testAccuracy)),
      wallSecondsAll: ok.map((r) => r.wallSeconds), loadAverage1All: ok.map((r) => r.loadAverage1 ?? null),
      ...(env === "chromium" ? { browserSeconds: med("browserSeconds"), wasmLoadSeconds: med("wasmLoadSeconds"), testSeconds: med("testSeconds") } : {}),
      ...(env === "opacus" ? { peerProcessSeconds: med("peerProcessSeconds"), peerEpsilon: ok[0].peerEpsilon, peerDelta: ok[0].peerDelta, epochs: ok[0].epochs, batch: ok[0].batch } : { selector: ok[0].selector, maxIterations: ok[0].maxIterations, seeded: ok[0].seeded }),
    });
  }
}
const e2eRatios = [];
for (const table of tables.filter((t) => t.kind === "real")) {
  const get = (env) => e2eSummary.find((s) => s.table === table.name && s.env === env && s.status === "ok");
  const peer = get("opacus");
  if (!peer) continue;
  for (const env of ["cli", "chromium"]) {
    const s = get(env);
    if (!s) continue;
    const overFit = s.wallSeconds / peer.trainSeconds;
    e2eRatios.push({ table: table.name, env, wallSeconds: s.wallSeconds, peerWallSeconds: peer.wallSeconds, peerTrainSeconds: peer.trainSeconds,
      overPeerProcess: s.wallSeconds / peer.wallSeconds, overPeerTraining: overFit,
      cpuOverPeerCpu: s.cpuSeconds / peer.cpuSeconds, accuracyMinusPeerPoints: 100 * (s.testAccuracy - peer.testAccuracy),
      targetMet: overFit <= 0.5 });
  }
}
// CSV parsing: MB/s = 10^6 bytes ÷ median wall seconds of all the passes (one for a plain numeric table).
const csvSummary = [];
for (const env of ["node", "chromium"]) {
  for (const reader of ["stream", "readCsv"]) {
    const rs = csvParse.filter((r) => r.env === env && r.reader === reader);
    if (!rs.length) continue;
    const ok = rs.filter((r) => r.status === "ok");
    if (!ok.length) { csvSummary.push({ env, reader, status: rs[0].status, error: rs[0].error }); continue; }
    const bytes = ok[0].bytes;
    const sec = median(ok.map((r) => r.parseSeconds)), cpu = median(ok.map((r) => r.cpuSeconds));
    const pass = (name) => median(ok.map((r) => r.csvPassSeconds?.[name] ?? NaN));
    csvSummary.push({ env, reader, status: "ok", reps: ok.length, bytes, rows: ok[0].rows, parseSeconds: sec, cpuSeconds: cpu,
      mbPerSecond: bytes / 1e6 / sec, mbPerCpuSecond: bytes / 1e6 / cpu, mbPerSecondAll: ok.map((r) => bytes / 1e6 / r.parseSeconds),
      peakMemoryBytes: median(ok.map((r) => (env === "node" ? r.peakRssKb : r.rendererPeakRssKb))) * 1024,
      wasmMemoryBytes: median(ok.map((r) => r.wasmMemoryBytes)), targetMet: bytes / 1e6 / sec >= 100,
      scanSeconds: pass("scan"), fillSeconds: pass("fill") });
  }
}

// The CSV passes inside trainCsv on the real tables (Node and Chromium training runs).
const csvPasses = [];
for (const table of tables.filter((t) => t.kind === "real")) {
  const file = join(dataDir, `${table.name}_train.csv`);
  const bytes = existsSync(file) ? statSync(file).size : null;
  for (const env of ["node", "chromium"]) {
    const ok = runs.filter((r) => r.table === table.name && r.env === env && iterationsOf(r) === "default" && r.status === "ok" && r.csvPassSeconds);
    if (!ok.length) continue;
    const pass = (name) => median(ok.map((r) => r.csvPassSeconds[name] ?? NaN));
    csvPasses.push({ table: table.name, env, bytes, runs: ok.length, scanSeconds: pass("scan"), countSeconds: pass("count"), fillSeconds: pass("fill"),
      loadSeconds: median(ok.map((r) => r.loadSeconds)), trainSeconds: median(ok.map((r) => r.trainSeconds)) });
  }
}

if (!renderOnly) {
  meta.suiteWallSeconds = (Date.now() - started) / 1000;
  meta.loadAverageAtEnd = sh("cat", ["/proc/loadavg"]);
}
meta.twoWorkers = twoWorkers;
meta.realTables = Object.fromEntries(realMeta.filter((m) => tables.some((t) => t.name === m.name))
  .map((m) => [m.name, { rows_train: m.rows_train, rows_test: m.rows_test, columns: m.columns, sha256_train: m.sha256_train }]));
const out = { meta, summary, ratios, iterations, progress, ceilings,
  e2e: { summary: e2eSummary, ratios: e2eRatios, runs: e2e }, csvParse: { file: csvFileInfo, summary: csvSummary, passes: csvPasses, runs: csvParse }, runs };
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/perf.json", `${JSON.stringify(out, null, 1)}\n`);
writeFileSync("docs/results/benchmarks.md", markdown(out));
log(`wrote bench/results/perf.json and docs/results/benchmarks.md in ${meta.suiteWallSeconds.toFixed(0)} s`);

// ---- Markdown ----
function markdown({ meta, summary, ratios, iterations, progress, ceilings, e2e, csvParse }) {
  const f = (x, digits = 2) => (x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits));
  const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}`);
  const mb = (b) => (b === null || b === undefined || !Number.isFinite(b) ? "–" : (b / 2 ** 20).toFixed(1));
  const shape = (s) => (s.n ? `${s.n} × ${s.d}` : "");
  const L = [];
  L.push(`generated by \`${meta.commands[0]}\`; do not edit`, "");
  L.push("# Performance benchmarks", "");
  L.push(`Run on ${meta.date} (bench/perf/, see [bench/perf/README.md](../../bench/perf/README.md)); ` +
    "every number below comes from that run (raw per-run data: [bench/results/perf.json](../../bench/results/perf.json)).", "");
  if (meta.note) L.push(`> **Note:** ${meta.note}`, "");
  if (meta.rendered) L.push(`(Tables re-rendered on ${meta.rendered} from the raw runs in perf.json by \`node bench/perf/run_all.mjs --render\`.)`, "");
  const plans = Object.entries(meta.defaultPlans ?? {});
  const planText = plans.length
    ? `what they resolve to (\`dp.planFor\` with only ε and δ, read from dist/ — nothing is hard-coded): ` +
      [...new Set(plans.map(([, p]) => (p.error ? `error: ${p.error}` : `selector ${p.selector}, calibration ${p.calibration}, ${p.candidates} candidate${p.candidates === 1 ? "" : "s"}, maxIterations cap ${p.maxIterations}`)))].join("; ") +
      `; iterations run per table: ${plans.map(([t, p]) => `${t} ${p.iterationsRun?.join("/") ?? "–"}`).join(", ")}`
    : null;
  L.push(`Full training with the package defaults${planText ? ` (${planText})` : ""}, ε = ${meta.epsilon}, δ = ${meta.delta}` +
    `${meta.defaultMaxIterations !== null && meta.defaultMaxIterations !== undefined ? `, maxIterations = ${meta.defaultMaxIterations} (the package default)` : ", maxIterations not passed (the core resolves it)"}` +
    `${meta.tenX && !meta.tenXSkipped ? "; also 10× natively on the real tables" : ""}. ` +
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
  if (meta.tenXSkipped) L.push(`10× iterations: not run — ${meta.tenXSkipped}.`, "");

  if (e2e?.summary?.length) {
    const r2 = (x) => f(x, 2);
    L.push("## End to end against the Opacus peer", "");
    L.push("Tables: the census-sized one is **mpls_stops** (34910 × 121 after one-hot encoding: the shape of the Adult census table, ~32.5k × ~100 after one-hot; " +
      "cps1988, the Current Population Survey extract, has 22524 rows but 9 columns, so it would measure start-up more than the work) and the 784-wide one is **fashion_mnist** (12000 × 784).", "");
    L.push(`CSV files → trained model + test accuracy, ${meta.reps} repetitions per cell (medians; accuracy the mean), the environments interleaved within each repetition. ` +
      "**dpmargin** with the package defaults (only ε, δ and the label column given; unseeded, as a user runs it): " +
      "*CLI* = the whole `node dist/cli.js train TRAIN.csv --label label --test TEST.csv --epsilon 1 --delta 1e-5 --out MODEL --json --quiet` process " +
      "(Node start, wasm instantiation, the CSV pass(es), training, the train- and test-accuracy passes, the model file), wall and CPU from `/usr/bin/time`; " +
      "*Chromium* = the bench page in headless Chromium, the two CSVs put into its file inputs (`setInputFiles`, Files backed by the disk, as a user picks them), " +
      "timed on the page from handing the Files to a fresh module worker to the test accuracy (worker start, wasm instantiation, `trainCsv`, `predictCsv` on the test File); " +
      "CPU = all the browser's processes over that span. *in-library s*: dpmargin — the `trainCsv` call, CSV File → model (the CSV pass(es) + training; CLI: its `local.elapsedMs`); Opacus — its fit (below). " +
      `**Opacus** = \`${e2e.runs.find((r) => r.env === "opacus")?.script ?? "dp_peer.py"}\` (DP-SGD, hinge loss, its defaults: ` +
      `${e2e.summary.find((x) => x.env === "opacus" && x.status === "ok")?.epochs ?? "–"} epochs, lr 3, clip 1, expected batch min(512, n/4)) run as bench/accuracy runs it: ` +
      "at ε/2 and δ/(1 + e^{ε/2}) add/remove, which implies (ε, δ) replace-one as dpmargin's; column min/max from the training split (favours the peer); seeds 0, 1, 2; " +
      "one thread (`torch.set_num_threads(1)`, OMP/MKL/OpenBLAS = 1). Its *whole process* = Python start to the printed accuracy (`/usr/bin/time`); its *fit* = the script's own `train_seconds` " +
      "(`make_private`, the DP-SGD epochs and the test predictions; after imports, CSV reading, preprocessing and noise calibration). " +
      `Peak memory: the process's peak RSS (CLI, Python) / the renderer's VmHWM (Chromium). Load average at start ${meta.machine.loadAverageAtStart?.split(" ").slice(0, 3).join(" ")}, at end ${meta.loadAverageAtEnd?.split(" ").slice(0, 3).join(" ") ?? "–"} on ${meta.machine.nproc} cores: a shared machine, so read the CPU seconds next to the wall seconds.`, "");
    L.push("| table | n × d | env | end to end s (median) | CPU s | in-library s | peak MB | test acc % | end to end s per repetition (1-min load average at its start) | notes |", "|---|---|---|---|---|---|---|---|---|---|");
    for (const x of e2e.summary) {
      if (x.status !== "ok") { L.push(`| ${x.table} | | ${x.env} | ${x.status}: ${(x.error ?? "").slice(0, 120)} | | | | | | |`); continue; }
      const notes = x.env === "opacus" ? `whole Python process; in-library = the fit; run at ε = ${f(x.peerEpsilon, 3)}, δ = ${x.peerDelta?.toPrecision(3)} add/remove`
        : x.env === "chromium" ? `page-timed; wasm load ${f(x.wasmLoadSeconds)} s, test pass ${f(x.testSeconds)} s, browser launch → accuracy ${f(x.browserSeconds)} s; ${x.selector}, T ≤ ${x.maxIterations}`
        : `whole process; ${x.selector}, T ≤ ${x.maxIterations}${x.seeded ? ", seeded" : ""}`;
      L.push(`| ${x.table} | ${x.n} × ${x.d} | ${x.env} | ${r2(x.wallSeconds)} | ${r2(x.cpuSeconds)} | ${r2(x.trainSeconds)} | ${mb(x.peakRssBytes)} | ${pct(x.testAccuracy)} | ${x.wallSecondsAll.map((w, i) => `${r2(w)}${Number.isFinite(x.loadAverage1All?.[i]) ? ` (${x.loadAverage1All[i].toFixed(1)})` : ""}`).join(", ")} | ${notes} |`);
    }
    L.push("");
    L.push("Ratios dpmargin ÷ Opacus, from the medians above (target: end to end ≤ 0.5× one Opacus fit):", "");
    L.push("| table | dpmargin env | dpmargin end to end s | ÷ Opacus fit | ÷ Opacus whole process | CPU ÷ Opacus CPU | accuracy − Opacus (points) | ≤ 0.5× fit |", "|---|---|---|---|---|---|---|---|");
    for (const r of e2e.ratios) {
      L.push(`| ${r.table} | ${r.env} | ${r2(r.wallSeconds)} | ${r2(r.overPeerTraining)} | ${r2(r.overPeerProcess)} | ${r2(r.cpuOverPeerCpu)} | ${f(r.accuracyMinusPeerPoints, 1)} | ${r.targetMet ? "yes" : "no"} |`);
    }
    L.push("");
  }
  if (csvParse?.summary?.length) {
    const c = csvParse.file;
    L.push("## CSV parsing throughput", "");
    L.push(`A ${c ? `${(c.bytes / 1e6).toFixed(1)} MB numeric CSV (${c.rows} rows × ${c.columns} columns: 50 features with 6 decimals + a 0/1 label, generated deterministically by ${c.generator} into a temporary directory, deleted afterwards)` : "numeric CSV"} ` +
      `read through the package, ${meta.reps} repetitions, each in a fresh process / browser. *stream* = the streaming reader into wasm memory that \`trainCsv\` and the CLI run first ` +
      "(every pass it needs — the scan alone for a plain numeric table of known size, docs/reference/CSV.md; `readLocalTable` of dist/csv/table.js); *readCsv* = the public `dp.readCsv` (the same reader, then the table copied into JavaScript typed arrays). " +
      "Node: `csvFile(path)`; Chromium: a File from the page's file input (`setInputFiles`), read in a module worker. MB = 10⁶ bytes; MB/s from the median wall time, " +
      "MB per CPU second from the median CPU time (Node: the process; Chromium: all its processes). Peak memory: Node — the process's `maxRSS` (Node itself included); Chromium — the renderer's VmHWM. Target: ≥ 100 MB/s.", "");
    L.push("| env | reader | MB/s (median) | MB/s per repetition | MB per CPU s | wall s | scan pass MB/s | fill pass MB/s | peak MB | wasm MB | ≥ 100 MB/s |", "|---|---|---|---|---|---|---|---|---|---|---|");
    for (const x of csvParse.summary) {
      if (x.status !== "ok") { L.push(`| ${x.env} | ${x.reader} | ${x.status}: ${(x.error ?? "").slice(0, 120)} | | | | | | |`); continue; }
      L.push(`| ${x.env} | ${x.reader} | ${f(x.mbPerSecond, 0)} | ${x.mbPerSecondAll.map((v) => f(v, 0)).join(", ")} | ${f(x.mbPerCpuSecond, 0)} | ${f(x.parseSeconds)} | ` +
        `${f(x.bytes / 1e6 / x.scanSeconds, 0)} | ${f(x.bytes / 1e6 / x.fillSeconds, 0)} | ${mb(x.peakMemoryBytes)} | ${mb(x.wasmMemoryBytes)} | ${x.targetMet ? "yes" : "no"} |`);
    }
    L.push("");
  }
  if (csvParse?.passes?.length) {
    L.push("The CSV passes inside `trainCsv` on the real tables (the Node and Chromium training runs above, medians over the seeds): each pass timed from the end of the previous one to its last progress event " +
      "(Chromium: after the fetch of the Blob). *scan* reads the shape and the cell kinds (and keeps a plain numeric table's numbers: then no other pass follows, – below), *count* counts categories to discover (when there are), *fill* reads the file again to write the table into wasm memory.", "");
    L.push("| table | env | file MB | scan s | count s | fill s | scan MB/s | fill MB/s | load s (all passes) | train s |", "|---|---|---|---|---|---|---|---|---|---|");
    for (const x of csvParse.passes) {
      const rate = (sec) => (x.bytes && Number.isFinite(sec) ? f(x.bytes / 1e6 / sec, 0) : "–");
      L.push(`| ${x.table} | ${x.env} | ${x.bytes ? (x.bytes / 1e6).toFixed(1) : "–"} | ${f(x.scanSeconds)} | ${f(x.countSeconds)} | ${f(x.fillSeconds)} | ${rate(x.scanSeconds)} | ${rate(x.fillSeconds)} | ${f(x.loadSeconds)} | ${f(x.trainSeconds)} |`);
    }
    L.push("");
  }

  L.push("## Training time, accuracy, selected margin", "");
  L.push("*train s*: wall time of training from a float32 table in memory to the model (copy into the core, validation, " +
    "preprocessing, M*); *total s*: including loading (CSV read, or generating the synthetic table). " +
    "Chromium times are measured inside the worker around the `train`/`trainCsv` call. Accuracy on the test split " +
    "(synthetic: 5000 fresh rows from the same distribution; the true separator scores *oracle*).", "");
  L.push("| table | n × d | env | T (cap) | train s | total s | test acc % | γ selected | oracle % |", "|---|---|---|---|---|---|---|---|---|");
  for (const s of summary.filter((x) => x.iterations === "default")) {
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
  for (const s of summary.filter((x) => x.iterations === "default" && x.status === "ok")) {
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
  L.push("| table | LinearSVC test acc % | package defaults test acc % (native) | status |", "|---|---|---|---|");
  for (const [name, c] of Object.entries(ceilings)) {
    const mstar = summary.find((s) => s.table === name && s.env === "native" && s.iterations === "default" && s.status === "ok");
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
