// The privacy ledger through the package: train() records each run before its first iteration,
// the total is the core's composition, a cap refuses a run beyond it (BUDGET_EXCEEDED, nothing
// recorded, the module keeps working), and the ledger file round-trips.
import { load, DpMarginError, PrivacyLedger } from "dpmargin";
import { separable } from "./synthetic.js";

let dp;
beforeAll(async () => {
  dp = await load();
});

const data = separable(400, 5, 0.1, 0, 3);
const budget = { epsilon: 1, delta: 1e-5, maxIterations: 20 };

test("runs are recorded with their plan's budget; GDP runs compose exactly", async () => {
  const ledger = dp.ledger();
  expect(ledger.total).toMatchObject({ epsilon: 0, delta: 0, runs: 0 });
  const first = await dp.train(data, { ...budget, ledger });
  expect(ledger.runs).toHaveLength(1);
  expect(ledger.runs[0]).toMatchObject({ epsilon: 1, delta: 1e-5, gdp: true, mu: first.report.plan.mu });
  expect(ledger.total.epsilon).toBeCloseTo(1, 9);
  await dp.train(data, { ...budget, ledger });
  const t = ledger.total;
  expect(t.runs).toBe(2);
  expect(t.delta).toBe(2e-5);
  expect(t.mu).toBeCloseTo(Math.SQRT2 * first.report.plan.mu, 14);
  expect(t.epsilon).toBe(dp.accounting.gdpEpsilon(t.mu, 2e-5));
  expect(t.epsilon).toBeLessThan(2);
  expect(t.basicEpsilon).toBe(2);
  // PrivTune is not GDP: it adds by basic composition.
  await dp.train(data, { ...budget, selector: "privtune", ledger });
  expect(ledger.runs[2].gdp).toBe(false);
  expect(ledger.total.epsilon).toBeCloseTo(t.epsilon + 1, 9);
});

test("a cap refuses the run that would pass it, before any iteration, and records nothing", async () => {
  const ledger = dp.ledger({ cap: { epsilon: 1.3, delta: 1e-4 } });  // two runs at ε = 1 compose to ≈ 1.46
  await dp.train(data, { ...budget, ledger });
  const preview = () => ledger.preview(dp.planFor(budget, { rows: 400, features: 5 }));
  expect(preview).toThrow(expect.objectContaining({ code: "BUDGET_EXCEEDED", parameter: "cap.epsilon" }));
  let progressed = false;
  const refused = await dp.train(data, { ...budget, ledger, onProgress: () => { progressed = true; } })
    .then(() => null, (e) => e);
  expect(refused).toBeInstanceOf(DpMarginError);
  expect(refused.code).toBe("BUDGET_EXCEEDED");
  expect(refused.message).toMatch(/not started/);
  expect(progressed).toBe(false);
  expect(ledger.runs).toHaveLength(1);
  // A smaller run still fits; the module keeps working.
  await dp.train(data, { ...budget, epsilon: 0.2, ledger });
  expect(ledger.runs).toHaveLength(2);
  expect(ledger.total.epsilon).toBeLessThanOrEqual(1.3);
});

test("the ledger file round-trips and is checked", async () => {
  const ledger = dp.ledger({ cap: { epsilon: 4, delta: 1e-4 } });
  await dp.train(data, { ...budget, ledger });
  const file = JSON.parse(JSON.stringify(ledger));
  expect(file).toMatchObject({ format: "dpmargin-ledger", version: 1, cap: { epsilon: 4, delta: 1e-4 } });
  const again = dp.ledgerFromJSON(JSON.stringify(file));
  expect(again).toBeInstanceOf(PrivacyLedger);
  expect(again.total).toEqual(ledger.total);
  expect(() => dp.ledgerFromJSON("{")).toThrow(expect.objectContaining({ code: "BAD_PARAMETER", parameter: "ledger" }));
  expect(() => dp.ledgerFromJSON({ ...file, runs: [{ ...file.runs[0], epsilon: -1 }] }))
    .toThrow(expect.objectContaining({ code: "BAD_PARAMETER", parameter: "entries[0].epsilon" }));
  expect(() => dp.ledger({ cap: { epsilon: 0, delta: 1e-5 } }))
    .toThrow(expect.objectContaining({ code: "BAD_PARAMETER", parameter: "cap.epsilon" }));
  await expect(dp.train(data, { ...budget, ledger: {} }))
    .rejects.toMatchObject({ code: "BAD_PARAMETER", parameter: "ledger" });
  again.clear();
  expect(again.total.runs).toBe(0);
});
