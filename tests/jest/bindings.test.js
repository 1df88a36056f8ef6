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
