// Deterministic synthetic tables for tests (a tiny seeded PRNG: test data only).
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n unit rows in d dims, separable by a random w* with margin γ*, `flips` labels flipped. */
export function separable(n, d, margin, flips, seed) {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const w = Array.from({ length: d }, normal);
  const wn = Math.hypot(...w);
  const features = new Float32Array(n * d);
  const labels = new Int8Array(n);
  let i = 0;
  while (i < n) {
    const x = Array.from({ length: d }, normal);
    const xn = Math.hypot(...x);
    const dot = x.reduce((s, v, j) => s + v * w[j], 0) / (xn * wn);
    if (Math.abs(dot) < margin) continue;
    x.forEach((v, j) => { features[i * d + j] = v / xn; });
    labels[i] = dot > 0 ? 1 : -1;
    i++;
  }
  for (let f = 0; f < flips; f++) labels[Math.floor(rand() * n)] *= -1;
  return { features, labels, columns: d };
}

export function toCsv({ features, labels, columns }) {
  const header = [...Array.from({ length: columns }, (_, j) => `x${j}`), "label"].join(",");
  const lines = [header];
  for (let i = 0; i < labels.length; i++) {
    lines.push([...features.subarray(i * columns, (i + 1) * columns)].join(",") + "," + (labels[i] > 0 ? 1 : 0));
  }
  return lines.join("\n") + "\n";
}
