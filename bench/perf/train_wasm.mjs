// One seeded M* training in wasm/Node on a prepared table, for profiling
// (node --cpu-prof bench/perf/train_wasm.mjs mpls_stops 200) and for timing against the
// native experiment binary. Usage: node bench/perf/train_wasm.mjs DATASET [maxIterations] [dist]
// prints {dataset, maxIterations, trainSeconds, cpuSeconds}.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [name = "mpls_stops", maxIterationsArg = "", dist = "dist"] = process.argv.slice(2);
const { load, csvFile } = await import(pathToFileURL(resolve(dist, "node.js")).href);
const dp = await load();
const maxIterations = maxIterationsArg || String(dp.defaults.maxIterations);  // the core's default
const cpu0 = process.cpuUsage();
const { report } = await dp.trainCsv(csvFile(join("bench/.data", `${name}_train.csv`)),
  { label: "label" }, { epsilon: 1, delta: 1e-5, seed: 1, maxIterations: Number(maxIterations) });
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ dataset: name, maxIterations: Number(maxIterations),
  trainSeconds: report.elapsedMs / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6,
  selectedMargin: report.selectedMargin }));
