// The deterministic numeric CSV of the parsing-throughput row of bench/perf (run_all.mjs): the
// same format as bench/csv_memory's table — 50 features uniform in [−1, 1) with 6 decimals and a
// 0/1 label (the sign of a fixed linear function), from a seeded mulberry32 stream — written
// into a path the caller chooses (a temporary directory: never committed).
import { createWriteStream } from "node:fs";

export const FEATURES = 50;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes ≥ targetBytes of CSV (whole blocks of 2000 rows) to path; resolves to { rows, bytes }. */
export async function writeNumericCsv(path, targetBytes, seed = 1) {
  const out = createWriteStream(path);
  const rand = mulberry32(seed);
  const w = Array.from({ length: FEATURES }, () => rand() * 2 - 1);
  const header = [...Array.from({ length: FEATURES }, (_, j) => `x${j}`), "label"].join(",") + "\n";
  out.write(header);
  let bytes = header.length;
  let rows = 0;
  while (bytes < targetBytes) {
    const lines = [];
    for (let i = 0; i < 2000; i++) {
      let dot = 0;
      const cells = new Array(FEATURES + 1);
      for (let j = 0; j < FEATURES; j++) {
        const v = rand() * 2 - 1;
        dot += v * w[j];
        cells[j] = v.toFixed(6);
      }
      cells[FEATURES] = dot > 0 ? "1" : "0";
      lines.push(cells.join(","));
    }
    const text = lines.join("\n") + "\n";
    bytes += text.length;
    rows += lines.length;
    if (!out.write(text)) await new Promise((resolve) => out.once("drain", resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  return { rows, bytes };
}
