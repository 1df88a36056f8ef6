// The largest float32 table one Node process trains (docs/design/NARROW_STORAGE.md, "Memory
// ceiling"): dp.train on synthetic rows of d columns at growing sizes, up to and past the
// table limit (maxBytes: rows × (columns + 1) × 4 bytes ≤ 2^31 − 4 by default and at most).
// Each size in its own process (a module's memory never shrinks), 10 iterations (the ceiling is
// memory, not time). One JSON line per size: ok or the error code and message, the module's
// memory after training and the process's peak RSS.
// Usage: node bench/perf/ceiling.mjs [d=100] [cells=2^27,2^28,…]
// (a Chromium tab: bench/perf/chromium_run.mjs with {"table":{"kind":"synthetic","n":N,"d":D},
// "maxIterations":10}; bench/perf/README.md)
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);
if (process.argv[2] === "--one") {
  const [d, n] = [Number(process.argv[3]), Number(process.argv[4])];
  const { load } = await import("../../dist/node.js");
  const dp = await load();
  const features = new Float32Array(n * d);
  const labels = new Uint8Array(n);
  let s = 12345;
  for (let i = 0; i < n; ++i) {
    let dot = 0;
    for (let j = 0; j < d; ++j) {
      s = (s * 1103515245 + 12345) >>> 0;
      const v = (s >>> 8) / 16777216 - 0.5;
      features[i * d + j] = v;
      if (j < 8) dot += v;
    }
    labels[i] = dot > 0 ? 1 : 0;
  }
  const t0 = performance.now();
  let result;
  try {
    const r = await dp.train({ features, columns: d, labels },
      { epsilon: 1, delta: 1e-5, seed: 1, maxIterations: 10 });
    result = { status: "ok", selectedMargin: r.report.selectedMargin };
  } catch (e) {
    result = { status: "error", code: e.code, message: String(e.message).slice(0, 400) };
  }
  console.log(JSON.stringify({ ...result, seconds: (performance.now() - t0) / 1e3, wasmMemoryBytes: dp.memoryBytes }));
  process.exit(0);
}

const d = Number(process.argv[2] ?? 100);
const cellsList = (process.argv[3] ?? "2^27,2^28,2^28.5,2^29-2^20,2^29+2^20")
  .split(",").map(cellCount);
// "2^29-2^20" → 2^29 − 2^20: terms a^b or numbers joined by + and −.
function cellCount(text) {
  return text.match(/[+-]?[^+-]+/g).reduce((sum, term) => {
    const sign = term.startsWith("-") ? -1 : 1;
    const [base, power] = term.replace(/^[+-]/, "").split("^").map(Number);
    return sum + sign * (power === undefined ? base : base ** power);
  }, 0);
}
for (const cells of cellsList) {
  const n = Math.floor(cells / (d + 1));
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, "--max-old-space-size=8192", here, "--one", String(d), String(n)],
    { encoding: "utf8", maxBuffer: 1 << 24 });
  const line = r.stdout.trim().split("\n").pop();
  const rssKb = Number(r.stderr.trim().split("\n").pop());
  let out;
  try { out = JSON.parse(line); } catch { out = { status: "crashed", exit: r.status, stderr: r.stderr.slice(-400) }; }
  console.log(JSON.stringify({ env: "node", d, n, tableBytes: n * (d + 1) * 4, ...out, peakRssBytes: rssKb * 1024 }));
}
