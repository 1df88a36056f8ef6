// Memory limits of one WebAssembly instance (docs/reference/HARDENING.md): tables beyond the core's
// size limit are refused with OUT_OF_MEMORY before anything big is allocated; an allocation
// that passes the limit but not the 4 GB wasm32 ceiling ends in OUT_OF_MEMORY, never an
// abort, and the instance trains afterwards; and 100 trainings in a row keep the heap flat.
// heap(dp) (wasm/bindings/module.cpp, test instrumentation) reports the wasm memory size
// (`total`) and malloc's bytes in use (`inUse`).
import { load, DpMarginError } from "dpmargin";
import { separable } from "./synthetic.js";

/** The wasm memory size and malloc's bytes in use (test instrumentation of the bindings). */
const heap = (dp) => dp.core.heapBytes().value;

// core/include/dpmargin/learn/dataset.hpp: kMaxTableValues = 2^29 − 1 float32 values.
const MAX_TABLE_VALUES = 2 ** 29 - 1;

let dp;
beforeAll(async () => {
  dp = await load();
});

const small = separable(200, 5, 0.1, 2, 3);
const trainSmall = (seed = 1) => dp.train(small, { epsilon: 1, delta: 1e-5, seed, maxIterations: 20 });

async function expectOutOfMemory(promise) {
  const error = await promise.then(() => null, (e) => e);
  expect(error).toBeInstanceOf(DpMarginError);
  expect(error.code).toBe("OUT_OF_MEMORY");
  return error;
}

test("a table one value beyond the limit is refused with OUT_OF_MEMORY before any big allocation", async () => {
  const before = heap(dp);
  // 2^19 rows × (1023 features + intercept) = 2^29 values: one more than the limit. The
  // features are an array-like whose elements are never read: the size check comes first.
  const rows = 2 ** 19, columns = 1023;
  expect(rows * (columns + 1)).toBe(MAX_TABLE_VALUES + 1);
  const error = await expectOutOfMemory(dp.train(
    { features: { length: rows * columns }, columns, labels: { length: rows } },
    { epsilon: 1, delta: 1e-5 }));
  expect(error.message).toMatch(/524288 rows x 1024 columns/);
  expect(error.message).toMatch(/To train, use a sample of the rows or fewer columns/);  // what to do
  expect(heap(dp).total).toBe(before.total);  // nothing grew
  // Prediction data takes the same path (2^29 rows × 6 columns).
  const { model } = await trainSmall();
  expect(() => model.predict({ length: 2 ** 29 * 5 })).toThrow(expect.objectContaining({ code: "OUT_OF_MEMORY" }));
  expect(heap(dp).total).toBe(before.total);
  await trainSmall();
}, 60_000);

test("allocations that pass the limit but exceed what wasm32 can grow to end in OUT_OF_MEMORY, and the instance trains afterwards", async () => {
  // Just under the limit: (2^19 − 1) × 1024 values ≈ 2 GB, allocated the way data.ts does
  // (Dataset.allocate). Alone it may succeed (wasm32 grows to 4 GB); a second one cannot.
  const rows = 2 ** 19 - 1, columns = 1024;
  expect(rows * columns).toBeLessThanOrEqual(MAX_TABLE_VALUES);
  const held = [];
  const outcomes = [];
  try {
    for (let i = 0; i < 2; i++) {
      const dataset = new dp.core.Dataset();
      held.push(dataset);
      // columns − 1 features + room for the intercept: rows × columns floats.
      const status = dataset.allocate(rows, columns - 1, true);  // never throws
      outcomes.push(status.ok ? "ok" : status.code);
      if (status.ok) {
        const view = dataset.features().value;  // the view data.ts writes into
        expect(view.length).toBe(rows * columns);
        view[view.length - 1] = 1;
      }
    }
  } finally {
    for (const dataset of held) {
      dataset.release();
      dataset.delete();
    }
  }
  console.log(`~2 GB allocations: ${outcomes.join(", ")}; wasm memory ${heap(dp).total} bytes`);
  expect(outcomes.every((o) => o === "ok" || o === "OUT_OF_MEMORY")).toBe(true);
  expect(outcomes[1]).toBe("OUT_OF_MEMORY");  // two cannot fit below 4 GB
  expect(heap(dp).inUse).toBeLessThan(1 << 20);  // everything was freed
  const { report } = await trainSmall(2);
  expect(report.seeded).toBe(true);
  expect(report.candidates.length).toBeGreaterThan(0);
}, 120_000);

test("100 trainings in a row keep the heap flat", async () => {
  const fresh = await load();  // its own instance: the 2 GB test above grew the other one
  const wide = separable(64, 800, 0.05, 0, 5);  // the top margins project (k_γ < d = 801)
  const runs = [
    [small, { epsilon: 1, delta: 1e-5, maxIterations: 20 }],
    [small, { epsilon: 1, delta: 1e-5, maxIterations: 20, selector: "privtune", expectedRuns: 4 }],
    [small, { epsilon: 1, delta: 1e-5, maxIterations: 20, rangeShare: 0.2, score: "population", selector: "iter" }],
    [wide, { epsilon: 1, delta: 1e-5, maxIterations: 5, selector: "iter" }],  // Iter: projected margins
  ];
  let projected = 0;
  const cycle = async (i) => {
    const [data, options] = runs[i % runs.length];
    const { model, report } = await fresh.train(data, { ...options, seed: i });
    if (report.candidates.some((c) => c.projected)) projected++;
    const { scores } = model.predict(data.features);
    expect(scores.length).toBe(data.labels.length);
    fresh.modelFromJSON(JSON.stringify(model.toJSON())).predict(data.features.subarray(0, 10 * data.columns));
  };
  for (let i = 0; i < 8; i++) await cycle(i);  // warm-up
  const warm = heap(fresh);
  for (let i = 8; i < 108; i++) await cycle(i);
  const after = heap(fresh);
  expect(projected).toBeGreaterThan(0);
  const growth = { total: after.total - warm.total, inUse: after.inUse - warm.inUse };
  console.log(`heap after warm-up: ${JSON.stringify(warm)}; after 100 more trainings: ${JSON.stringify(after)}`);
  expect(growth.total).toBe(0);  // the wasm memory did not grow
  expect(Math.abs(growth.inUse)).toBeLessThanOrEqual(4096);  // no leak per training
}, 120_000);
