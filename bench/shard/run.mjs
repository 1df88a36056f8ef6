// One worker vs two shard workers (docs/reference/SHARDING.md): wall time of full M* (seeded, same seed),
// agreement of the two runs, peak RSS above the baseline, and the round-trip cost of one
// iteration's messages. Usage: node bench/shard/run.mjs [dataset …] (default: mpls_stops
// fashion_mnist), env ITERATIONS="200 1000", REPEATS=1.
import { readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { fileURLToPath } from "node:url";
import { load } from "../../dist/node.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const datasets = process.argv.slice(2).length ? process.argv.slice(2) : ["mpls_stops", "fashion_mnist"];
const iterations = (process.env.ITERATIONS ?? "200 1000").split(/\s+/).map(Number);
const repeats = Number(process.env.REPEATS ?? 1);

function readTable(name) {
  const text = readFileSync(`${root}bench/.data/${name}_train.csv`, "utf8");
  const lines = text.split("\n").filter((l) => l.length);
  const header = lines[0].split(",");
  const labelAt = header.indexOf("label");
  const columns = header.length - 1;
  const n = lines.length - 1;
  const features = new Float32Array(n * columns);
  const labels = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const cells = lines[i + 1].split(",");
    let c = 0;
    for (let j = 0; j < cells.length; j++) {
      if (j === labelAt) labels[i] = Number(cells[j]) > 0 ? 1 : 0;
      else features[i * columns + c++] = Number(cells[j]);
    }
  }
  return { features, columns, labels, n };
}

async function peakRss(work) {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakAboveBase: peak - base };
  } finally {
    clearInterval(timer);
  }
}

// Round trip of one iteration's messages: k×m float32 weights to 2 workers, k×m float64 back.
async function roundTrip(k, m, count = 2000) {
  const source = `
    const { parentPort } = require("node:worker_threads");
    parentPort.on("message", (w) => { const sum = new Float64Array(w.length); parentPort.postMessage(sum, [sum.buffer]); });`;
  const workers = [0, 1].map(() => new Worker(source, { eval: true }));
  const call = (w, x) => new Promise((resolve) => { w.once("message", resolve); w.postMessage(x); });
  const weights = new Float32Array(k * m);
  for (let i = 0; i < 100; i++) await Promise.all(workers.map((w) => call(w, weights)));
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await Promise.all(workers.map((w) => call(w, weights)));
  const perIteration = (performance.now() - t0) / count;
  await Promise.all(workers.map((w) => w.terminate()));
  return perIteration;
}

const dp = await load();
const rows = [];
for (const name of datasets) {
  const table = readTable(name);
  const floatBytes = table.n * (table.columns + 1) * 4;
  for (const maxIterations of iterations) {
    const options = { epsilon: 1, delta: 1e-5, seed: 11, maxIterations };
    const results = {};
    for (const workers of [1, 2]) {
      let best = Infinity, memory = 0, result, cpu = 0;
      for (let r = 0; r < repeats; r++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const { value, peakAboveBase } = await peakRss(() => dp.train(table, { ...options, workers }));
        best = Math.min(best, performance.now() - t0);
        const c1 = process.cpuUsage(c0);
        cpu = (c1.user + c1.system) / 1000;
        memory = Math.max(memory, peakAboveBase);
        result = value;
      }
      results[workers] = { ms: best, memory, result, cpu };
    }
    const a = results[1].result, b = results[2].result;
    const wa = a.model.toJSON().weights, wb = b.model.toJSON().weights;
    let diff = 0, scale = 0;
    for (let i = 0; i < wa.length; i++) { diff = Math.max(diff, Math.abs(wa[i] - wb[i])); scale = Math.max(scale, Math.abs(wa[i])); }
    const plan = a.report;
    const m = plan.candidates.filter((c) => !c.projected).length;
    const row = {
      dataset: name, n: table.n, d: plan.d, maxIterations, candidates: plan.candidates.length, batched: m,
      ms1: Math.round(results[1].ms), ms2: Math.round(results[2].ms),
      speedup: +(results[1].ms / results[2].ms).toFixed(2),
      cpuMs1: Math.round(results[1].cpu), cpuMs2: Math.round(results[2].cpu),
      load: +(await import("node:os")).loadavg()[0].toFixed(1),
      sameGamma: a.report.selectedMargin === b.report.selectedMargin,
      maxRelDiff: diff / scale,
      rssMB1: +(results[1].memory / 2 ** 20).toFixed(1), rssMB2: +(results[2].memory / 2 ** 20).toFixed(1),
      float32MB: +(floatBytes / 2 ** 20).toFixed(1),
      roundTripMs: +(await roundTrip(plan.d, Math.max(m, 1))).toFixed(3),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
}
