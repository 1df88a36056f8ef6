// The held-out split for evaluation. It picks rows by position only (never by value), from a
// seeded generator so that a split can be reproduced and reported. It is not part of the
// private mechanism: the noise of training comes from the engine's CSPRNG.

/** SplitMix32-style generator (Vigna's splitmix constants on 32 bits): a fast, seedable
 *  shuffle source. Not cryptographic — it only decides which rows are held out. */
export function splitGenerator(seed: number): () => number {
  let state = (seed >>> 0) ^ 0x9e3779b9;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** Uniform integer in [0, bound) without modulo bias (Lemire's method, 32-bit). */
function below(next: () => number, bound: number): number {
  for (;;) {
    const x = next();
    const m = BigInt(x) * BigInt(bound);
    const low = Number(m & 0xffffffffn);
    if (low >= (0x100000000 - bound) % bound) return Number(m >> 32n);
  }
}

/**
 * Split rows 0..n−1: round(n·testFraction) rows, chosen by a seeded Fisher–Yates shuffle, are
 * held out. Both lists come back in file order, so with testFraction = 0 the training rows are
 * the whole file, exactly as the CLI reads it.
 */
export function splitRows(n: number, testFraction: number, seed: number): { train: Int32Array; test: Int32Array } {
  if (!(testFraction >= 0 && testFraction < 1)) throw new RangeError(`testFraction must be in [0, 1), but is ${testFraction}`);
  const testCount = Math.round(n * testFraction);
  if (testCount === 0) return { train: Int32Array.from({ length: n }, (_, i) => i), test: new Int32Array(0) };
  const order = Int32Array.from({ length: n }, (_, i) => i);
  const next = splitGenerator(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = below(next, i + 1);
    const t = order[i]; order[i] = order[j]; order[j] = t;
  }
  const test = order.slice(0, testCount).sort();
  const train = order.slice(testCount).sort();
  return { train, test };
}
