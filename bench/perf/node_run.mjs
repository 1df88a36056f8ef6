// Node (wasm) side of bench/perf (run.sh): ONE configuration per process, so that
// process.resourceUsage().maxRSS belongs to it. Prints one JSON object.
//   node bench/perf/node_run.mjs '{"table":{"kind":"real","name":"mpls_stops"},"seed":1}'
//   node bench/perf/node_run.mjs '{"table":{"kind":"synthetic","n":10000,"d":50},"seed":1}'
//   … "mode":"progress","reps":3   → the chunking/progress overhead (see README.md)
//   node bench/perf/node_run.mjs '{"mode":"csvParse","path":"/tmp/….csv","reader":"stream"}'
//     → CSV parsing throughput: "stream" = the streaming reader into wasm memory that trainCsv
//       and the CLI run first (dist/csv/table.js readLocalTable), "readCsv" = the public
//       dp.readCsv into JavaScript typed arrays
// Options: epsilon/delta (1, 1e-5), maxIterations (default: the package's), workers (passed
// through when set), dataSeed, nTest. Seeded runs: benchmarks, not private releases.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile } from "../../dist/node.js";
import * as chunked from "../../dist/train/chunked.js";
import { readLocalTable } from "../../dist/csv/table.js";
import { generate, checksum } from "./synthetic.mjs";
import { trainOptions, accuracy, passTimer } from "./run_common.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const cfg = JSON.parse(process.argv[2]);
const dataDir = process.env.DPMARGIN_BENCH_DATA ?? join(repo, "bench/.data");
const dataSeed = cfg.dataSeed ?? 20261121;
const nTest = cfg.nTest ?? 5000;
const now = () => performance.now();
const maxRssKb = () => process.resourceUsage().maxRSS;

const t = cfg.table ?? {};
const rssStartKb = maxRssKb();
const dp = await load();
const rssLoadedKb = maxRssKb();
const options = (extra = {}) => trainOptions(cfg, dp.defaults.maxIterations, extra);
const out = {
  env: "node", node: process.version, library: dp.version, defaultMaxIterations: dp.defaults.maxIterations,
  maxIterations: options().maxIterations ?? null, seed: options().seed, workers: cfg.workers ?? null,
  rssStartKb, rssLoadedKb,
};

// Trains once; returns { result, loadSeconds, trainSeconds, totalSeconds, progressCalls }.
async function trainOnce(extra = {}) {
  let calls = 0;
  const progress = extra.onProgress === true ? { onProgress: () => { calls++; } } : {};
  const opts = options({ ...extra, ...progress });
  if (t.kind === "synthetic") {
    const t0 = now();
    const data = generate(t.n, t.d, dataSeed, 1);
    out.rssDataKb = maxRssKb();
    const t1 = now();
    const cpu = process.cpuUsage();
    const result = await dp.train({ features: data.features, columns: data.columns, labels: data.labels }, opts);
    const t2 = now();
    const c = process.cpuUsage(cpu);
    return { result, data, loadSeconds: (t1 - t0) / 1000, trainSeconds: (t2 - t1) / 1000, totalSeconds: (t2 - t0) / 1000,
      cpuSeconds: (c.user + c.system) / 1e6, progressCalls: calls };
  }
  // Real table: the package's streaming CSV path (the table exists once, in wasm memory). The
  // last CSV progress event (of the fill pass) marks the end of loading; training = the rest of trainCsv.
  out.rssDataKb = out.rssLoadedKb;  // the table exists only in wasm memory
  const t0 = now();
  const passes = passTimer(t0);
  const cpu = process.cpuUsage();
  const result = await dp.trainCsv(csvFile(join(dataDir, `${t.name}_train.csv`)), { label: "label", onProgress: passes.onProgress }, opts);
  const t2 = now();
  const c = process.cpuUsage(cpu);
  const loaded = passes.lastEnd();
  return { result, loadSeconds: (loaded - t0) / 1000, trainSeconds: (t2 - loaded) / 1000, totalSeconds: (t2 - t0) / 1000,
    csvPassSeconds: passes.seconds(), cpuSeconds: (c.user + c.system) / 1e6, progressCalls: calls };
}

async function testAccuracy(model) {
  if (t.kind === "synthetic") {
    const test = generate(nTest, t.d, dataSeed, 2);
    return { testAccuracy: accuracy(model.predict(test.features).labels, test.labels), oracleTest: test.oracleAccuracy, nTest };
  }
  const p = await model.predictCsv(csvFile(join(dataDir, `${t.name}_test.csv`)), { label: "label" });
  return { testAccuracy: accuracy(p.labels, p.truth), nTest: p.labels.length };
}

try {
  if ((cfg.mode ?? "train") === "train") {
    const r = await trainOnce();
    const peakRssTrainKb = maxRssKb();
    const wasmMemoryBytes = dp.memoryBytes;
    Object.assign(out, {
      n: r.result.report.plan.n, d: r.result.report.plan.d - 1, loadSeconds: r.loadSeconds, trainSeconds: r.trainSeconds,
      totalSeconds: r.totalSeconds, csvPassSeconds: r.csvPassSeconds ?? null, cpuSeconds: r.cpuSeconds, reportElapsedSeconds: r.result.local?.elapsedMs / 1000,
      selectedMargin: r.result.report.selectedMargin, candidates: r.result.report.candidates.length,
      maxIterations: r.result.report.plan.maxIterations, selector: r.result.report.plan.selector,
      peakRssTrainKb, wasmMemoryBytes,
      ...(r.data ? { oracleTrain: r.data.oracleAccuracy, checksum: checksum(r.data) } : {}),
    });
    Object.assign(out, await testAccuracy(r.result.model), { peakRssEndKb: maxRssKb() });
  } else if (cfg.mode === "csvParse") {
    // Both passes of the CSV reader over one file; bytes ÷ wall seconds = throughput.
    const t0 = now();
    const passes = passTimer(t0);
    const cpu = process.cpuUsage();
    let rows, width;
    if (cfg.reader === "readCsv") {
      const table = await dp.readCsv(csvFile(cfg.path), { label: "label", onProgress: passes.onProgress });
      rows = table.labels.length;
      width = table.columns;
    } else {
      const { dataset } = await readLocalTable(dp.core, csvFile(cfg.path), { label: "label", onProgress: passes.onProgress });
      ({ rows, stride: width } = dataset.shape().value);
      dataset.release();
      dataset.delete();
    }
    const seconds = (now() - t0) / 1000;
    const c = process.cpuUsage(cpu);
    Object.assign(out, { mode: "csvParse", reader: cfg.reader ?? "stream", rows, width, parseSeconds: seconds, csvPassSeconds: passes.seconds(),
      cpuSeconds: (c.user + c.system) / 1e6, peakRssKb: maxRssKb(), wasmMemoryBytes: dp.memoryBytes });
  } else {
    // Progress overhead: A = default chunking (~40 ms) + an onProgress callback; B = as few
    // chunks as possible (target ∞, budget ×4 per chunk) and no callback. A warm-up run, then A B, B A, A B, …
    if (typeof chunked.setTargetChunkMsForBenchmarks !== "function") {
      out.error = "the installed package has no setTargetChunkMsForBenchmarks (dist/train/chunked.js)";
    } else {
      const reps = cfg.reps ?? 3;
      // Optional third mode "chunksOnly" (default chunking, no callback) separates the two costs.
      const modes = cfg.modes ?? ["progress", "fewChunks"];
      const runs = Object.fromEntries(modes.map((m) => [m, []]));
      let model = null;
      // Warm-up (discarded): lets V8 tier the hot wasm functions up (Liftoff → TurboFan) first.
      await trainOnce({ maxIterations: Math.max(10, Math.round(dp.planFor(options(), { rows: t.n, features: t.d }).maxIterations / 10)) });
      for (let i = 0; i < reps; i++) {
        for (const mode of i % 2 ? [...modes].reverse() : modes) {  // A B, B A, …
          chunked.setTargetChunkMsForBenchmarks(mode === "fewChunks" ? Infinity : 0);
          const r = await trainOnce(mode === "progress" ? { onProgress: true } : {});
          runs[mode].push({ trainSeconds: r.trainSeconds, cpuSeconds: r.cpuSeconds, progressCalls: r.progressCalls, selectedMargin: r.result.report.selectedMargin });
          model = r.result.model;
        }
      }
      chunked.setTargetChunkMsForBenchmarks(0);
      Object.assign(out, { n: t.n, d: t.d, reps, runs }, await testAccuracy(model));
    }
  }
} catch (error) {
  out.error = `${error?.code ?? ""} ${error?.message ?? error}`.trim();
  out.errorCode = error?.code ?? null;
}
console.log(JSON.stringify(out));
