// Full M* (tight, default options) natively and in wasm (Node), in ONE run, on prepared real
// tables (bench/datasets/prepare.sh): wall and CPU time, test accuracy, and the ratio.
// Usage: node bench/perf/mstar_native_vs_wasm.mjs [dataset …]   (after a bench build)
// Seeded runs: a benchmark, not a private release.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { load, csvFile } from "../../dist/node.js";

const data = "bench/.data";
const datasets = process.argv.slice(2).length ? process.argv.slice(2) : ["mpls_stops", "fashion_mnist"];
const dp = await load();
const rows = [];
for (const name of datasets) {
  const train = join(data, `${name}_train.csv`), test = join(data, `${name}_test.csv`);
  const native = spawnSync("/usr/bin/time", ["-f", "%e %U %S", "build-bench/bench/experiment",
    `train=${train}`, `test=${test}`, "seeds=1", `tag=${name}`], { encoding: "utf8" });
  if (native.status !== 0) throw new Error(native.stderr);
  const [, , nAcc, , nGamma, nSeconds] = native.stdout.trim().split(",");
  const [, nUser, nSys] = native.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { model, report } = await dp.trainCsv(csvFile(train), { label: "label" }, { epsilon: 1, delta: 1e-5, seed: 1 });
  const trainSeconds = report.elapsedMs / 1000;
  const cpu = process.cpuUsage(cpu0);
  const wall = (performance.now() - t0) / 1000;
  const p = await model.predictCsv(csvFile(test), { label: "label" });
  const acc = p.labels.reduce((a, l, i) => a + (l === p.truth[i] ? 1 : 0), 0) / p.labels.length;
  rows.push({
    dataset: name, n: report.plan.n, d: report.plan.d,
    native: { trainSeconds: Number(nSeconds), processCpuSeconds: nUser + nSys, testAccuracy: Number(nAcc), gamma: Number(nGamma) },
    wasmNode: { trainSeconds, totalWallSeconds: wall, cpuSeconds: (cpu.user + cpu.system) / 1e6, testAccuracy: acc, gamma: report.selectedMargin },
    ratioTrainTime: trainSeconds / Number(nSeconds),
  });
}
console.log(JSON.stringify(rows, null, 2));
