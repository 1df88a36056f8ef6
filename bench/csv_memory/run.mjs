// Peak memory while loading a ~100 MB numeric CSV through the package in Node.
//   node bench/csv_memory/run.mjs [MB=100] [--write-doc]     (after a build; run.sh builds)
// Generates the CSV into a temporary directory (deleted afterwards), then loads it in a fresh
// Node process per path and reports the kernel's peak RSS of that process, the wasm memory,
// the float32 size of the table and the time. --write-doc replaces the results section of
// docs/reference/DATA_PIPELINE.md.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus as cpuList, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { FEATURES, writeNumericCsv } from "../perf/numeric_csv.mjs";  // the table, written once

const root = fileURLToPath(new URL("../../", import.meta.url));

const PATHS = {
  // The data pipeline alone: two streaming passes into a core Dataset (what trainCsv runs first).
  stream: "streaming reader → wasm (the core's CsvRun writes the table in place)",
  // The public call end to end, training made negligible (1 iteration per candidate).
  trainCsv: "dp.trainCsv(csvFile(path), …, { maxIterations: 1 }) end to end",
  // The same streaming reader, but into JS typed arrays first, then copied in (dp.train path).
  copy: "dp.readCsv → Float32Array → copy into wasm",
};

// ---- child: load the file one way, print one JSON line ----
async function child(mode, path) {
  const { load, csvFile } = await import(`${root}dist/node.js`);
  const { readLocalTable } = await import(`${root}dist/csv/table.js`);
  const { toCoreDataset } = await import(`${root}dist/train/data.js`);
  const dp = await load();
  const rssStart = process.memoryUsage().rss;
  const wasmStart = dp.memoryBytes;
  let heapPeak = 0;
  const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed); }, 10);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let rows;
  let width;
  if (mode === "stream" || mode === "copy") {
    let dataset;
    if (mode === "stream") {
      ({ dataset } = await readLocalTable(dp.core, csvFile(path), { label: "label" }));
    } else {
      const t = await dp.readCsv(csvFile(path), { label: "label" });
      dataset = toCoreDataset(dp.core, t.features, t.columns, t.labels, true);
    }
    ({ rows, stride: width } = dataset.shape().value);
    dataset.release();
    dataset.delete();
  } else {
    const { report } = await dp.trainCsv(csvFile(path), { label: "label" },
      { epsilon: 1, delta: 1e-7, maxIterations: 1, seed: 1 });
    rows = report.plan.n;
    width = report.plan.d;
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  process.stdout.write(JSON.stringify({
    mode, rows, width, ms, cpuMs: (cpu.user + cpu.system) / 1000,
    peakRss: process.resourceUsage().maxRSS * 1024,
    rssStart, wasmStart, wasm: dp.memoryBytes, heapPeak,
  }) + "\n");
}

const mb = (b) => (b / 2 ** 20).toFixed(0);

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === "--child") return child(args[1], args[2]);
  const size = Number(args.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 100);
  const dir = mkdtempSync(join(tmpdir(), "dpmargin-csv-memory-"));
  const path = join(dir, "data.csv");
  try {
    process.stderr.write(`generating ~${size} MB into ${path} …\n`);
    const { rows } = await writeNumericCsv(path, size * 1e6);
    const bytes = statSync(path).size;
    const results = [];
    const load = [loadavg()[0]];
    const cpus = cpuList().length;
    for (const mode of Object.keys(PATHS)) {
      process.stderr.write(`loading: ${PATHS[mode]} …\n`);
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", mode, path],
        { encoding: "utf8", cwd: root, maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
      results.push(JSON.parse(r.stdout.trim().split("\n").at(-1)));
    }
    load.push(loadavg()[0]);
    const table = results[0];
    const float32 = table.rows * table.width * 4;
    const lines = [
      `CSV: ${(bytes / 1e6).toFixed(1)} MB (${bytes} bytes), ${rows} rows × ${FEATURES} features + label; `
      + `float32 table with intercept: ${table.rows} × ${table.width} × 4 B = ${mb(float32)} MiB. `
      + `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; load average during the runs `
      + `${load.map((l) => l.toFixed(1)).join(" → ")} on ${cpus} CPUs (wall time depends on it; CPU time much less).`,
      "",
      "| path | peak RSS | RSS before loading | wasm memory after | JS heap peak (sampled) | CPU time | wall time |",
      "|---|---|---|---|---|---|---|",
      ...results.map((r) => `| ${PATHS[r.mode]} | **${mb(r.peakRss)} MiB** | ${mb(r.rssStart)} MiB | `
        + `${mb(r.wasm)} MiB (from ${mb(r.wasmStart)}) | ${mb(r.heapPeak)} MiB | ${(r.cpuMs / 1000).toFixed(2)} s | ${(r.ms / 1000).toFixed(2)} s |`),
    ];
    const markdown = lines.join("\n");
    process.stdout.write(markdown + "\n");
    if (args.includes("--write-doc")) {
      const doc = join(root, "docs/results/csv-memory.md");
      writeFileSync(doc, "generated by `bash bench/csv_memory/run.sh --write-doc`; do not edit\n\n" + markdown + "\n");
      process.stderr.write(`wrote the results into ${doc}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
