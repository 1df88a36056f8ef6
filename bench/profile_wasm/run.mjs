// Margin-profile time on Fashion-MNIST T-shirt/top vs Trouser (14,000 × 784), natively and in
// wasm (Node), in ONE run so the ratio is meaningful: the native driver
// (build-bench/bench/margin_profile_real --only 0) and the package's profileMargins on the same
// rows (pixels / 255, unit-norm rows, no intercept — what the driver fits). Prints JSON with
// wall and CPU seconds of both. Usage: node bench/profile_wasm/run.mjs   (after a bench build)
import { readFileSync, mkdtempSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load } from "../../dist/node.js";

const dir = "/usr/share/datasets/fashion-mnist";
function idx(images, labels) {
  const img = gunzipSync(readFileSync(join(dir, images)));
  const lab = gunzipSync(readFileSync(join(dir, labels)));
  return { count: img.readUInt32BE(4), pixels: img.subarray(16), labels: lab.subarray(8) };
}
const parts = [idx("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
  idx("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")];
const d = 784, positive = 0, negative = 1;  // T-shirt/top vs Trouser
const rows = [], labels = [];
for (const p of parts) {
  for (let i = 0; i < p.count; i++) {
    const l = p.labels[i];
    if (l !== positive && l !== negative) continue;
    const row = new Float32Array(d);
    for (let j = 0; j < d; j++) row[j] = p.pixels[i * d + j] / 255;
    rows.push(row);
    labels.push(l === positive ? 1 : -1);
  }
}
const features = new Float32Array(rows.length * d);
rows.forEach((r, i) => features.set(r, i * d));

const out = mkdtempSync(join(tmpdir(), "dpmargin-profile-"));
const native = spawnSync("/usr/bin/time", ["-f", "%e %U %S", "build-bench/bench/margin_profile_real", "--only", "0", "--out", out],
  { encoding: "utf8" });
if (native.status !== 0) throw new Error(`native driver failed: ${native.stderr}`);
const [nWall, nUser, nSys] = native.stderr.trim().split("\n").at(-1).split(" ").map(Number);

const dp = await load();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const p = await dp.profileMargins({ features, columns: d, labels }, { intercept: false });
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const wasmCpu = (cpu.user + cpu.system) / 1e6;
const result = {
  dataset: "Fashion-MNIST T-shirt/top vs Trouser", n: p.n, d,
  native: { wallSeconds: nWall, cpuSeconds: nUser + nSys },
  wasmNode: { wallSeconds: wall, cpuSeconds: wasmCpu, fits: p.fits, firstSeparableRemoved: p.firstSeparableRemoved },
  ratioCpu: wasmCpu / (nUser + nSys),
  ratioWall: wall / nWall,
  note: "not private (diagnostic); CPU time is the robust figure on a shared machine",
};
console.log(JSON.stringify(result, null, 2));
