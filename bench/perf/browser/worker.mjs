// Bench worker: the package's API in ONE module worker (training runs here, not on the page).
// Timings are performance.now() around the train()/trainCsv() call inside this worker: no
// postMessage, worker start-up or wasm instantiation is included.
import { load } from "dpmargin";
import * as chunked from "dpmargin-chunked";
import { readLocalTable } from "dpmargin-table";
import { generate, checksum } from "../synthetic.mjs";
import { trainOptions, accuracy, passTimer } from "../run_common.mjs";

const now = () => performance.now();
let dp = null;
let last = null;  // { cfg, model }

const options = (cfg, extra = {}) => trainOptions(cfg, dp.defaults.maxIterations, extra);

async function trainOnce(cfg, extra = {}) {
  let calls = 0;
  const progress = extra.onProgress === true ? { onProgress: () => { calls++; } } : {};
  const opts = options(cfg, { ...extra, ...progress });
  const t = cfg.table;
  if (t.kind === "synthetic") {
    const t0 = now();
    const data = generate(t.n, t.d, cfg.dataSeed ?? 20261121, 1);
    const t1 = now();
    const result = await dp.train({ features: data.features, columns: data.columns, labels: data.labels }, opts);
    const t2 = now();
    return { result, data, loadSeconds: (t1 - t0) / 1000, trainSeconds: (t2 - t1) / 1000, totalSeconds: (t2 - t0) / 1000, progressCalls: calls };
  }
  // Real table: fetched from the local server as a Blob, then the package's streaming CSV path.
  // Load = fetch + both CSV passes (until the last CSV progress event); training = the rest.
  const t0 = now();
  const blob = await (await fetch(`/data/${t.name}_train.csv`)).blob();
  const passes = passTimer(now());
  const result = await dp.trainCsv(blob, { label: "label", onProgress: passes.onProgress }, opts);
  const t2 = now();
  const loaded = passes.lastEnd();
  return { result, loadSeconds: (loaded - t0) / 1000, trainSeconds: (t2 - loaded) / 1000, totalSeconds: (t2 - t0) / 1000,
    csvPassSeconds: passes.seconds(), progressCalls: calls };
}

async function testAccuracy(cfg, model) {
  const t = cfg.table;
  if (t.kind === "synthetic") {
    const nTest = cfg.nTest ?? 5000;
    const test = generate(nTest, t.d, cfg.dataSeed ?? 20261121, 2);
    return { testAccuracy: accuracy(model.predict(test.features).labels, test.labels), oracleTest: test.oracleAccuracy, nTest };
  }
  const blob = await (await fetch(`/data/${t.name}_test.csv`)).blob();
  const p = await model.predictCsv(blob, { label: "label" });
  return { testAccuracy: accuracy(p.labels, p.truth), nTest: p.labels.length };
}

const describe = (error) => ({ error: `${error?.code ?? ""} ${error?.message ?? error}`.trim(), errorCode: error?.code ?? null });

self.onmessage = async ({ data: msg }) => {
  try {
    if (!dp) {
      const t0 = now();
      dp = await load();
      self.loadSeconds = (now() - t0) / 1000;
    }
    if (msg.type === "e2e") {
      // End to end as a user of the app: the train and test Files (from <input type=file>) to a
      // model and its test accuracy, with the package defaults (only ε, δ given; no seed). The
      // worker was started by this message, so wasmLoadSeconds (instantiation) precedes it.
      const t0 = now();
      const { model, report } = await dp.trainCsv(msg.train, { label: "label" }, { epsilon: msg.cfg.epsilon ?? 1, delta: msg.cfg.delta ?? 1e-5 });
      const t1 = now();
      const p = await model.predictCsv(msg.test, { label: "label" });
      const testAccuracy = accuracy(p.labels, p.truth);
      const t2 = now();
      postMessage({
        n: report.plan.n, d: report.plan.d - 1, selector: report.plan.selector, maxIterations: report.plan.maxIterations,
        selectedMargin: report.selectedMargin, seeded: report.seeded, testAccuracy, nTest: p.labels.length,
        wasmLoadSeconds: self.loadSeconds, trainCsvSeconds: (t1 - t0) / 1000, testSeconds: (t2 - t1) / 1000,
        workerSeconds: (t2 - t0) / 1000, wasmMemoryBytes: dp.memoryBytes,
      });
    } else if (msg.type === "csvParse") {
      // Both passes of the CSV reader over one File: "stream" = into wasm memory (what trainCsv
      // runs first), "readCsv" = the public dp.readCsv into JavaScript typed arrays.
      const t0 = now();
      const passes = passTimer(t0);
      let rows, width;
      if (msg.cfg.reader === "readCsv") {
        const table = await dp.readCsv(msg.file, { label: "label", onProgress: passes.onProgress });
        rows = table.labels.length;
        width = table.columns;
      } else {
        const { dataset } = await readLocalTable(dp.core, msg.file, { label: "label", onProgress: passes.onProgress });
        ({ rows, stride: width } = dataset.shape().value);
        dataset.release();
        dataset.delete();
      }
      postMessage({ reader: msg.cfg.reader ?? "stream", rows, width, bytes: msg.file.size,
        parseSeconds: (now() - t0) / 1000, csvPassSeconds: passes.seconds(), wasmMemoryBytes: dp.memoryBytes });
    } else if (msg.type === "profile") {
      // The margin profile (not private), timed as profile_node.mjs: profileSeconds from the rows
      // in wasm memory (real tables: the end of the CSV passes) to the result.
      const t = msg.cfg.table;
      const options = { epsilon: msg.cfg.epsilon ?? 1, delta: msg.cfg.delta ?? 1e-5 };
      const t0 = now();
      let p, loaded = t0;
      if (t.kind === "synthetic") {
        const data = generate(t.n, t.d, msg.cfg.dataSeed ?? 20261121, 1);
        loaded = now();
        p = await dp.profileMargins({ features: data.features, columns: data.columns, labels: data.labels }, options);
      } else {
        const blob = await (await fetch(`/data/${t.name}_train.csv`)).blob();
        const passes = passTimer(now());
        p = await dp.profileCsv(blob, { label: "label", onProgress: passes.onProgress }, options);
        loaded = passes.lastEnd();
      }
      const t1 = now();
      postMessage({
        n: p.n, fits: p.fits, separable: p.separable, firstSeparableRemoved: p.firstSeparableRemoved,
        lastMargin: p.curve.at(-1).margin, lastMinimumMargin: p.curve.at(-1).minimumMargin,
        verdict: p.advice?.verdict ?? null, profileSeconds: (t1 - loaded) / 1000, totalSeconds: (t1 - t0) / 1000,
        wasmMemoryBytes: dp.memoryBytes,
      });
    } else if (msg.type === "ready") {
      postMessage({ library: dp.version, defaultMaxIterations: dp.defaults.maxIterations, wasmLoadSeconds: self.loadSeconds, wasmMemoryBytes: dp.memoryBytes });
    } else if (msg.type === "train") {
      const r = await trainOnce(msg.cfg);
      last = { cfg: msg.cfg, model: r.result.model };
      const rep = r.result.report;
      postMessage({
        n: rep.plan.n, d: rep.plan.d - 1, maxIterations: rep.plan.maxIterations, loadSeconds: r.loadSeconds, trainSeconds: r.trainSeconds,
        totalSeconds: r.totalSeconds, csvPassSeconds: r.csvPassSeconds ?? null, reportElapsedSeconds: r.result.local?.elapsedMs / 1000, selectedMargin: rep.selectedMargin,
        candidates: rep.candidates.length, wasmMemoryBytes: dp.memoryBytes,
        ...(r.data ? { oracleTrain: r.data.oracleAccuracy, checksum: checksum(r.data) } : {}),
      });
    } else if (msg.type === "test") {
      postMessage(await testAccuracy(last.cfg, last.model));
    } else if (msg.type === "progress") {
      // As node_run.mjs: A = default chunking + onProgress, B = fewest chunks, no callback.
      if (typeof chunked.setTargetChunkMsForBenchmarks !== "function") {
        postMessage({ error: "the installed package has no setTargetChunkMsForBenchmarks (dist/train/chunked.js)" });
        return;
      }
      const reps = msg.cfg.reps ?? 3;
      // Optional third mode "chunksOnly" (default chunking, no callback) separates the two costs.
      const modes = msg.cfg.modes ?? ["progress", "fewChunks"];
      const runs = Object.fromEntries(modes.map((m) => [m, []]));
      let model = null;
      // Warm-up (discarded): lets V8 tier the hot wasm functions up (Liftoff → TurboFan) first.
      await trainOnce(msg.cfg, { maxIterations: Math.max(10, Math.round(dp.planFor(options(msg.cfg), { rows: msg.cfg.table.n, features: msg.cfg.table.d }).maxIterations / 10)) });
      for (let i = 0; i < reps; i++) {
        for (const mode of i % 2 ? [...modes].reverse() : modes) {  // A B, B A, …
          chunked.setTargetChunkMsForBenchmarks(mode === "fewChunks" ? Infinity : 0);
          const r = await trainOnce(msg.cfg, mode === "progress" ? { onProgress: true } : {});
          runs[mode].push({ trainSeconds: r.trainSeconds, progressCalls: r.progressCalls, selectedMargin: r.result.report.selectedMargin });
          model = r.result.model;
        }
      }
      chunked.setTargetChunkMsForBenchmarks(0);
      postMessage({ reps, runs, ...(await testAccuracy(msg.cfg, model)) });
    }
  } catch (error) {
    postMessage(describe(error));
  }
};
