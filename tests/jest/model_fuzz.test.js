// Fuzzing of model-file loading (Model.fromJSON, validated in TypeScript, out of libFuzzer's
// reach). Structured mutations of valid model files — fields deleted or replaced by wrong types,
// NaN/Infinity spelled as strings, huge and subnormal numbers, huge arrays, deep nesting,
// prototype-pollution keys ("__proto__", "constructor", "prototype"), truncated/corrupted JSON
// text — and the one property (docs/reference/FUZZING.md): fromJSON either returns a model whose
// predict() works (finite scores, labels ±1) or throws DpMarginError("BAD_MODEL"); nothing
// else, and Object.prototype is never polluted.
//
// The iteration count, seed and huge-array length come from DPMARGIN_MODEL_FUZZ_ITERATIONS
// (default 2000, the fast tier), DPMARGIN_MODEL_FUZZ_SEED (default 1) and
// DPMARGIN_MODEL_FUZZ_HUGE (default 2^14); a failure prints the seed, iteration and mutated file.
import { load, DpMarginError, Model } from "dpmargin";
import { mulberry32, separable } from "./synthetic.js";

const ITERATIONS = Number(process.env.DPMARGIN_MODEL_FUZZ_ITERATIONS ?? 2000);
const SEED = Number(process.env.DPMARGIN_MODEL_FUZZ_SEED ?? 1);

let dp;
const bases = [];  // valid model files (different shapes)
beforeAll(async () => {
  dp = await load();
  const table = separable(64, 3, 0.1, 0, 7);
  const runs = [
    { epsilon: 1, delta: 1e-5, seed: 1, maxIterations: 5 },
    { epsilon: 1, delta: 1e-5, seed: 2, maxIterations: 5, intercept: false,
      columnRanges: [[-1, 1], [-1, 1], [-1, 1]] },
    { epsilon: 2, delta: 1e-6, seed: 3, maxIterations: 5, selector: "fixed", margin: 0.5,
      rowNormalization: "clip", normBound: 2 },
  ];
  for (const options of runs) {
    const { model } = await dp.train(table, options);
    bases.push(model.toJSON());
  }
  bases[0].label = { column: "y", positive: "yes" };
}, 60_000);

// ---- the mutator ----

// Length of the "huge" arrays (features/weights, wrong-typed values); the long run raises it.
const HUGE_ARRAY = Number(process.env.DPMARGIN_MODEL_FUZZ_HUGE ?? (1 << 14));
const POLLUTION_KEYS = ["__proto__", "constructor", "prototype"];

function makeMutator(rand) {
  const int = (n) => Math.floor(rand() * n);
  const pick = (xs) => xs[int(xs.length)];
  const wildNumber = () => pick([
    Number.NaN, Infinity, -Infinity, 0, -0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
    -1.7976931348623157e308, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, -1, 1, 0.5, 1e-300,
    rand() * 10 - 5, int(1000),
  ]);
  const wildValue = (depth = 0) => {
    switch (int(depth > 2 ? 9 : 12)) {
      case 0: return wildNumber();
      case 1: return pick(["NaN", "Infinity", "-Infinity", "1e999", "-0", "", "0x10", " 1", "null"]);
      case 2: return pick([true, false]);
      case 3: return null;
      case 4: return undefined;
      case 5: return [];
      case 6: return {};
      case 7: return "x".repeat(int(64));
      case 8: return Array.from({ length: int(8) }, wildNumber);
      case 9: return Array.from({ length: int(4) }, () => wildValue(depth + 1));
      case 10: return Object.fromEntries(Array.from({ length: int(4) }, (_, i) => [`k${i}`, wildValue(depth + 1)]));
      default: return pick([new Array(HUGE_ARRAY).fill(0.5), new Array(HUGE_ARRAY).fill("a")]);
    }
  };
  // Every (container, key) path of a JSON value.
  const paths = (value, out = [], prefix = []) => {
    if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        out.push([...prefix, key]);
        if (out.length < 400) paths(value[key], out, [...prefix, key]);
      }
    }
    return out;
  };
  const parentOf = (root, path) => path.slice(0, -1).reduce((o, k) => o[k], root);

  const mutations = [
    (m) => { const p = pick(paths(m)); delete parentOf(m, p)[p.at(-1)]; },             // delete
    (m) => { const p = pick(paths(m)); parentOf(m, p)[p.at(-1)] = wildValue(); },      // replace
    (m) => { const p = pick(paths(m)); const o = parentOf(m, p); const v = o[p.at(-1)];
      if (typeof v === "number") o[p.at(-1)] = wildNumber(); },                         // bad number
    (m) => {                                                                             // pollution
      const containers = [m, ...paths(m).map((p) => parentOf(m, p)[p.at(-1)])]
        .filter((v) => v !== null && typeof v === "object" && !Array.isArray(v));
      const target = pick(containers);
      Object.defineProperty(target, pick(POLLUTION_KEYS), {
        value: pick([{ polluted: true }, { toString: 1, valueOf: "x" }, null, 7, "x"]),
        enumerable: true, configurable: true, writable: true,
      });
    },
    (m) => {                                                         // consistent resize (deeper)
      const n = pick([0, 1, 2, 4, 1000, HUGE_ARRAY]);
      m.features = Array.from({ length: n }, (_, i) => `f${i}`);
      m.weights = Array.from({ length: n }, () => (rand() < 0.95 ? rand() - 0.5 : wildNumber()));
      if (m.preprocessing && typeof m.preprocessing === "object" && Array.isArray(m.preprocessing.columnRanges)) {
        m.preprocessing.columnRanges = Array.from({ length: n }, () => [-1, 1]);
      }
    },
    (m) => {                                                                     // column ranges
      if (!m.preprocessing || typeof m.preprocessing !== "object") return;
      const d = Array.isArray(m.features) ? m.features.length : 3;
      m.preprocessing.columnRanges = Array.from({ length: d }, () => pick([
        [0, 1], [1, 0], [1, 1], [-1e308, 1e308], [-1.7976931348623157e308, 1.7976931348623157e308],
        [5e-324, 1e-323], [Number.NaN, 1], ["0", "1"], [0], [0, 1, 2], null, {},
      ]));
    },
    (m) => { m.intercept = pick([wildNumber(), null, "1", undefined]); },               // intercept
    (m) => {                                                                      // preprocessing
      if (!m.preprocessing || typeof m.preprocessing !== "object") return;
      const key = pick(["intercept", "rowNormalization", "normBound", "rangesPrivate"]);
      m.preprocessing[key] = pick([wildNumber(), wildValue(), "clip", "unit-norm", "UNIT-NORM", true]);
    },
    (m) => {                                                                             // deep nesting
      let deep = {};
      for (let i = 0; i < 2000; i++) deep = { a: deep };
      m[pick(["selection", "privacy", "label", "extra"])] = deep;
    },
  ];

  // Text-level corruption of the serialized file (parse errors, odd escapes).
  const corruptText = (text) => {
    switch (int(5)) {
      case 0: return text.slice(0, int(text.length));
      case 1: { const i = int(text.length); return text.slice(0, i) + pick(["\u0000", "\"", "}", "\\", "\ud800", "NaN", ",", "1e999"]) + text.slice(i); }
      case 2: return text.replace(/"weights":\s*\[/, '"weights":[NaN,');
      case 3: return `\ufeff${text}`;
      default: return text.replace(/-?\d+\.\d+/, pick(["1e999", "-1e999", "1e-400", "0.1e1"]));
    }
  };

  return { int, pick, mutations, corruptText };
}

// ---- the property ----

function rowsFor(model, rand) {
  const d = model.features.length;
  const n = 1 + Math.floor(rand() * 4);
  return Float32Array.from({ length: n * d }, () => rand() * 4 - 2);
}

function checkOne(input, rand) {
  let model;
  try {
    model = typeof input === "string" || rand() < 0.5 ? dp.modelFromJSON(input) : Model.fromJSON(input, dp);
  } catch (error) {
    if (!(error instanceof DpMarginError)) throw new Error(`fromJSON threw a non-DpMarginError: ${error?.stack ?? error}`);
    if (error.code !== "BAD_MODEL") throw new Error(`fromJSON threw ${error.code}, not BAD_MODEL: ${error.message}`);
    return "rejected";
  }
  if (!(model instanceof Model)) throw new Error("fromJSON returned something that is not a Model");
  const rows = rowsFor(model, rand);
  const { scores, labels } = model.predict(rows);
  const n = rows.length / model.features.length;
  if (scores.length !== n || labels.length !== n) throw new Error("predict returned the wrong number of rows");
  scores.forEach((s, i) => {
    if (!Number.isFinite(s)) throw new Error(`predict returned a non-finite score ${s}`);
    if (labels[i] !== (s > 0 ? 1 : -1)) throw new Error("label does not match the score's sign");
  });
  const again = dp.modelFromJSON(JSON.stringify(model.toJSON()));  // the file round-trips
  if (again.features.length !== model.features.length) throw new Error("toJSON round trip changed the model");
  return "accepted";
}

test(`model-file fuzzing: ${ITERATIONS} structured mutations (seed ${SEED})`, () => {
  const rand = mulberry32(SEED);
  const { int, pick, mutations, corruptText } = makeMutator(rand);
  const counts = { accepted: 0, rejected: 0 };
  for (let it = 0; it < ITERATIONS; it++) {
    const file = structuredClone(pick(bases));
    const steps = 1 + int(3);
    for (let s = 0; s < steps; s++) pick(mutations)(file);
    let input = file;
    const asText = rand() < 0.4;
    if (asText) {
      input = JSON.stringify(file);
      if (rand() < 0.5) input = corruptText(input);
    }
    try {
      counts[checkOne(input, rand)]++;
    } catch (error) {
      const shown = typeof input === "string" ? input : JSON.stringify(input, (k, v) =>
        (Array.isArray(v) && v.length > 20 ? `[array of ${v.length}]`
          : typeof v === "number" && !Number.isFinite(v) ? `<${v}>` : Object.is(v, -0) ? "<-0>" : v));
      throw new Error(`iteration ${it} (seed ${SEED}): ${error.message}\ninput: ${String(shown).slice(0, 2000)}`);
    }
    if (Object.prototype.polluted !== undefined || {}.polluted !== undefined) {
      throw new Error(`iteration ${it} (seed ${SEED}): Object.prototype was polluted`);
    }
  }
  // Both outcomes must occur, or the mutator is not exercising the validator.
  expect(counts.rejected).toBeGreaterThan(ITERATIONS / 10);
  expect(counts.accepted).toBeGreaterThan(0);
  console.log(`model-file fuzzing: ${ITERATIONS} iterations, ${counts.accepted} accepted, ${counts.rejected} rejected (seed ${SEED})`);
}, Math.max(600_000, ITERATIONS * 20));

test("the unmutated bases load and predict", () => {
  const rand = mulberry32(99);
  for (const file of bases) {
    expect(checkOne(structuredClone(file), rand)).toBe("accepted");
    expect(checkOne(JSON.stringify(file), rand)).toBe("accepted");
  }
});
