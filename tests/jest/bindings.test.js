// The bindings only bind, and every entry point is guarded (wasm/bindings/guard.hpp): the test
// enumerates what the module really exports — every Embind function and every method of every
// Embind class — checks that each was registered through the guard, and makes a core error
// happen inside each one (an armed test fault), which must come back as a typed status and,
// through the package's unwrap, as a DpMarginError. A new entry registered with plain Embind
// fails here.
import { load, DpMarginError } from "dpmargin";
import { unwrap } from "../../dist/module/status.js";

// Loaded at collection time: the list of entries parameterises the tests.
const dp = await load();
const core = dp.core;

/** Every Embind entry the module exports: "name" for functions, "Class.method" for methods. */
function exportedEntries() {
  const out = [];
  for (const [name, value] of Object.entries(core)) {
    if (typeof value !== "function") continue;
    if (typeof value.argCount === "number") {
      out.push({ name, call: (args) => value(...args), argCount: value.argCount });
      continue;
    }
    const proto = value.prototype;
    if (!proto) continue;
    for (const method of Object.getOwnPropertyNames(proto)) {
      const fn = proto[method];
      if (method === "constructor" || typeof fn !== "function" || typeof fn.argCount !== "number") continue;
      out.push({
        name: `${name}.${method}`,
        argCount: fn.argCount,
        call: (args) => {
          const object = new value();
          try {
            return object[method](...args);
          } finally {
            object.delete();
          }
        },
      });
    }
  }
  return out;
}

test("the module exports exactly the entries registered through the guard", () => {
  const exported = exportedEntries().map((e) => e.name).sort();
  const guarded = unwrap(core.guardedEntries()).slice().sort();
  expect(exported.length).toBeGreaterThan(40);
  expect(exported).toEqual(guarded);
  // The CSV readers and the CSV training start are among them (each then fault-tested below).
  for (const name of ["CsvRun.start", "CsvRun.startLocal", "CsvRun.feed", "CsvRun.takeDataset", "CsvRead.start",
    "CsvRead.labelCodes", "CsvScan.start", "CsvScan.finish", "Trainer.startRun"]) expect(exported).toContain(name);
});

test.each(exportedEntries().filter((e) => e.name !== "armFaultForTest").map((e) => [e.name, e]))(
  "%s: a core error inside it comes back as a typed status and a DpMarginError", (name, entry) => {
    core.armFaultForTest();
    // Wrong arguments on purpose: the guard runs before any conversion, and every argument is a
    // `val` that the core converts inside the guard.
    const status = entry.call(new Array(entry.argCount).fill(undefined));
    expect(status).toEqual({ ok: false, code: "BAD_PARAMETER", parameter: "fault", message: "fault injected by a test" });
    let caught;
    try {
      unwrap(status);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DpMarginError);
    expect(caught.code).toBe("BAD_PARAMETER");
    // Without the fault, undefined arguments are refused by name (or accepted), never thrown.
    const plain = entry.call(new Array(entry.argCount).fill(undefined));
    expect(typeof plain.ok).toBe("boolean");
    if (!plain.ok) expect(typeof plain.code).toBe("string");
  });

test("wrong argument types are typed errors naming the argument", () => {
  expect(core.gdpMu("1", 1e-5)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "epsilon" });
  expect(core.plan({ epsilon: 1, delta: 1e-5, n: 1000, d: 50, selector: {} }))
    .toMatchObject({ ok: false, parameter: "selector" });
  expect(core.plan(null)).toMatchObject({ ok: false, parameter: "options" });
  const trainer = new core.Trainer();
  expect(trainer.start({}, {})).toMatchObject({ ok: false, parameter: "dataset" });
  trainer.delete();
  // …and the module keeps working.
  expect(dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50 }).mu).toBeGreaterThan(0.26);
});

test("the CSV classes and Trainer.startRun: bad arguments are typed errors naming the argument", () => {
  const run = new core.CsvRun();
  const read = new core.CsvRead();
  const scan = new core.CsvScan();
  const trainer = new core.Trainer();
  const dataset = new core.Dataset();
  try {
    expect(run.pass()).toMatchObject({ ok: false, code: "INTERNAL" });  // used before start()
    expect(run.start({ label: 5 }, { epsilon: 1, delta: 1e-5 }, null)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "label" });
    expect(run.start({}, { epsilon: -1, delta: 1e-5 }, null)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "epsilon" });
    expect(run.start({}, { epsilon: 1, delta: 1e-5 }, "rows")).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "rows" });
    expect(run.startLocal({ bogus: 1 }, null)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "bogus" });
    expect(run.start({}, { epsilon: 1, delta: 1e-5, seed: 1 }, null).ok).toBe(true);
    expect(run.pass()).toEqual({ ok: true, value: "scan" });
    expect(run.buffer(-1)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "size" });
    expect(run.takeDataset({})).toMatchObject({ ok: false });  // not done: nothing to take
    const bytes = new TextEncoder().encode("a,label\n1,0\n2,1\n3,0\n4,1\n");
    run.buffer(bytes.length).value.set(bytes);
    expect(run.feed(bytes.length + 1)).toMatchObject({ ok: false, code: "INTERNAL" });  // beyond the buffer
    expect(run.feed(bytes.length).ok).toBe(true);
    expect(run.endPass().ok).toBe(true);
    expect(run.pass().value).toBe("fill");
    run.buffer(bytes.length).value.set(bytes);
    run.feed(bytes.length);
    expect(run.endPass().ok).toBe(true);
    expect(run.takeDataset({})).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "dataset" });
    expect(trainer.startRun({}, run)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "dataset" });
    expect(run.takeDataset(dataset).ok).toBe(true);
    expect(trainer.startRun(dataset, {})).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "csvRun" });
    const started = trainer.startRun(dataset, run);
    expect(started.ok).toBe(true);
    expect(started.value.plan.n).toBe(4);

    // A model's encoding that does not parse is a bad model file.
    expect(read.start({}, { bogus: 1 }, null, null)).toMatchObject({ ok: false, code: "BAD_MODEL" });
    const encoding = { blocks: [{ column: "a", kind: "numeric", missing: "error", nullable: false, fill: 0, indicator: false }], width: 1 };
    expect(read.start({}, encoding, "x", null)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "classes" });
    expect(read.start({ delimiter: ":" }, encoding, null, null)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "delimiter" });
    expect(read.start({}, encoding, ["1"], [2, 1])).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "rows" });
    expect(read.labelCodes()).toMatchObject({ ok: false, code: "INTERNAL" });

    expect(scan.start({}, 2000)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "previewRows" });
    expect(scan.start({ encoding: "utf-16" }, 0)).toMatchObject({ ok: false, code: "BAD_PARAMETER", parameter: "encoding" });
    expect(scan.finish(0)).toMatchObject({ ok: false, code: "INTERNAL" });
    expect(scan.start({}, 2).ok).toBe(true);
    expect(scan.header()).toEqual({ ok: true, value: null });
    expect(scan.finish(-1)).toMatchObject({ ok: false });  // an empty file: CSV_PARSE, or the bad count
  } finally {
    for (const object of [run, read, scan, trainer, dataset]) {
      object.release?.();
      object.delete();
    }
  }
  // …and the module keeps working.
  expect(dp.account({ epsilon: 1, delta: 1e-5, n: 1000, d: 50 }).mu).toBeGreaterThan(0.26);
});
