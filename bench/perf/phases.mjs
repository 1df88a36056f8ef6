// Where the time of one trainCsv goes, in Node (docs/design/NARROW_STORAGE.md): load(), the CSV
// read up to the plan (onPlan), the noisy-GD iterations (first to last onProgress), the rest of
// trainCsv, and predictCsv on the test file. Package defaults with ε = 1, δ = 1e-5, seed 1. One
// JSON line per run, times in ms. Process start is not included (time `node -e ''` for it).
// Usage: node bench/perf/phases.mjs [table=fashion_mnist] [label=label] [runs=3]
// (tables: DPMARGIN_BENCH_DATA or bench/.data, TABLE_{train,test}.csv as bench/datasets/prepare.sh writes them)
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);
const repo = join(here, "../../..");
const [table = "fashion_mnist", label = "label", runs = "3"] = process.argv.slice(2).filter((a) => a !== "--one");

if (process.argv.includes("--one")) {
  const { load, csvFile } = await import(join(repo, "dist/node.js"));
  const data = process.env.DPMARGIN_BENCH_DATA ?? join(repo, "bench/.data");
  const t0 = performance.now();
  const dp = await load();
  const t1 = performance.now();
  let plan = 0, first = 0, last = 0, iterations = 0;
  const r = await dp.trainCsv(csvFile(join(data, `${table}_train.csv`)), { label }, {
    epsilon: 1, delta: 1e-5, seed: 1,
    onPlan: () => { plan = performance.now(); },
    onProgress: (p) => { first ||= performance.now(); last = performance.now(); iterations = p.iteration; },
  });
  const t2 = performance.now();
  await r.model.predictCsv(csvFile(join(data, `${table}_test.csv`)));
  const t3 = performance.now();
  const ms = (x) => Math.round(x);
  console.log(JSON.stringify({
    table, n: r.report.plan.n, d: r.report.plan.d, iterations,
    load: ms(t1 - t0), readToPlan: ms(plan - t1), planToFirstIteration: ms(first - plan),
    iterating: ms(last - first), afterLastIteration: ms(t2 - last), trainCsv: ms(t2 - t1), predictTest: ms(t3 - t2),
  }));
} else {
  // Each run in a fresh process: a module's memory never shrinks, and V8 tiers code up per process.
  for (let i = 0; i < Number(runs); ++i) {
    const p = spawnSync(process.execPath, [here, "--one", table, label], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    process.stdout.write(p.stdout);
  }
}
