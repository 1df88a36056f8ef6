// Node (wasm) side of the margin-profile benchmark (profile_bench.mjs): ONE margin profile per
// process, through the package's API, timed around the call. NOT private: a local diagnostic.
//   node bench/perf/profile_node.mjs '{"table":{"kind":"synthetic","n":26000,"d":100}}'
//   node bench/perf/profile_node.mjs '{"table":{"kind":"real","name":"mpls_stops"},"dist":"/tmp/dist-before"}'
// Options: epsilon/delta (1, 1e-5: the advice's budget; nothing is spent), dataSeed, and
// "dist" (another build of the package, e.g. the code before a change). Prints one JSON object:
// profileSeconds = the profile after the rows are in wasm memory (synthetic: the whole
// profileMargins call; real: profileCsv from the end of the CSV passes), cpuSeconds = process CPU
// over the whole call, totalSeconds = the whole call.
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generate } from "./synthetic.mjs";
import { passTimer } from "./run_common.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const cfg = JSON.parse(process.argv[2]);
const dist = resolve(cfg.dist ?? join(repo, "dist"));
const { load, csvFile } = await import(pathToFileURL(join(dist, "node.js")).href);
const dataDir = process.env.DPMARGIN_BENCH_DATA ?? join(repo, "bench/.data");
const now = () => performance.now();
const dp = await load();
const t = cfg.table;
const options = { epsilon: cfg.epsilon ?? 1, delta: cfg.delta ?? 1e-5 };
const out = { env: "node", node: process.version, library: dp.version, dist, table: t };
try {
  const cpu = process.cpuUsage();
  const t0 = now();
  let p, loaded = t0;
  if (t.kind === "synthetic") {
    const data = generate(t.n, t.d, cfg.dataSeed ?? 20261121, 1);
    loaded = now();
    p = await dp.profileMargins({ features: data.features, columns: data.columns, labels: data.labels }, options);
  } else {
    const passes = passTimer(t0);
    p = await dp.profileCsv(csvFile(join(dataDir, `${t.name}_train.csv`)), { label: "label", onProgress: passes.onProgress }, options);
    loaded = passes.lastEnd();
  }
  const t1 = now();
  const c = process.cpuUsage(cpu);
  Object.assign(out, {
    n: p.n, fits: p.fits, separable: p.separable, firstSeparableRemoved: p.firstSeparableRemoved,
    lastMargin: p.curve.at(-1).margin, lastMinimumMargin: p.curve.at(-1).minimumMargin,
    verdict: p.advice?.verdict ?? null, profileSeconds: (t1 - loaded) / 1000, totalSeconds: (t1 - t0) / 1000,
    cpuSeconds: (c.user + c.system) / 1e6,
  });
} catch (error) {
  out.error = `${error?.code ?? ""} ${error?.message ?? error}`.trim();
}
console.log(JSON.stringify(out));
