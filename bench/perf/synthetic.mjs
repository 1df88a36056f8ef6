// Deterministic synthetic tables for bench/perf, bit-identical to bench/perf/synthetic.hpp (C++):
// only 32-bit integer ops, exact conversions and IEEE double +, *, /, sqrt (no transcendental
// functions), summed in the same order, then rounded once to float32.
//
//   separator w: d values uniform in [-1, 1) from stream 0, scaled to unit norm;
//   row:         x uniform in [-1, 1)^d; y = sign(w·x) (0 counts as +); then x += y·m·w with
//                m = 0.1·sqrt(d/3) (a margin of ~0.1 after unit-norm rows); then the label
//                is flipped with probability 0.05 (one more uniform draw per row).
//   streams:     train rows = stream 1, test rows = stream 2 (same separator).
// The true separator's accuracy ("oracle") is the share of rows that were not flipped.

export const FLIP_RATE = 0.05;
export const MARGIN_FACTOR = 0.1;

// splitmix32 → xoshiro128** state; all arithmetic mod 2^32.
function splitmix32(state) {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function rng(seed, stream) {
  const sm = splitmix32((Math.imul(seed >>> 0, 0x9e3779b1) + Math.imul(stream >>> 0, 0x85ebca77)) >>> 0);
  let s0 = sm(), s1 = sm(), s2 = sm(), s3 = sm();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const next = () => {
    const r = Math.imul(((Math.imul(s1, 5) << 7) | (Math.imul(s1, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = (s1 << 9) >>> 0;
    s2 = (s2 ^ s0) >>> 0;
    s3 = (s3 ^ s1) >>> 0;
    s1 = (s1 ^ s2) >>> 0;
    s0 = (s0 ^ s3) >>> 0;
    s2 = (s2 ^ t) >>> 0;
    s3 = ((s3 << 11) | (s3 >>> 21)) >>> 0;
    return r;
  };
  // Uniform in [-1, 1): 24 random bits, exact in float32 and double.
  const sym = () => (next() >>> 8) * (2 / 16777216) - 1;
  const unit = () => (next() >>> 8) / 16777216;
  return { next, sym, unit };
}

export function separator(d, seed) {
  const g = rng(seed, 0);
  const w = new Float64Array(d);
  let ss = 0;
  for (let j = 0; j < d; j++) { w[j] = g.sym(); ss += w[j] * w[j]; }
  const norm = Math.sqrt(ss);
  for (let j = 0; j < d; j++) w[j] = w[j] / norm;
  return w;
}

/** n rows × d features (Float32Array, row-major), labels 0/1 (Uint8Array), oracle accuracy. */
export function generate(n, d, seed, stream) {
  const w = separator(d, seed);
  const g = rng(seed, stream);
  const m = MARGIN_FACTOR * Math.sqrt(d / 3);
  const features = new Float32Array(n * d);
  const labels = new Uint8Array(n);
  const x = new Float64Array(d);
  let clean = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) { x[j] = g.sym(); s += w[j] * x[j]; }
    const y = s >= 0 ? 1 : -1;
    const ym = y * m;
    const row = i * d;
    for (let j = 0; j < d; j++) features[row + j] = x[j] + ym * w[j];
    const flip = g.unit() < FLIP_RATE;
    if (!flip) clean++;
    labels[i] = (flip ? -y : y) > 0 ? 1 : 0;
  }
  return { features, labels, columns: d, oracleAccuracy: clean / n };
}

/** FNV-1a over the float32 bytes and labels: a cheap check that two environments agree. */
export function checksum({ features, labels }) {
  let h = 0x811c9dc5;
  const bytes = new Uint8Array(features.buffer, features.byteOffset, features.byteLength);
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  for (let i = 0; i < labels.length; i++) h = Math.imul(h ^ labels[i], 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}
