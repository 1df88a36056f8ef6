// Seeded runs pinned bit for bit (tests/fixtures/seeded/): recorded before the architecture
// refactor of issue 13 across selectors, calibrations, private/declared/no ranges, projected
// candidates, one and two workers. A refactor must not change one released number; a deliberate
// change of the mechanism re-records them (record.mjs) in its own commit, saying why.
import { readFileSync } from "node:fs";
import { load } from "dpmargin";
import { CONFIGS, PLANS } from "../fixtures/seeded/configs.mjs";
import { essentials } from "../fixtures/seeded/essentials.mjs";
import { runConfig } from "../fixtures/seeded/run.mjs";

let dp;
beforeAll(async () => {
  dp = await load();
});

const recorded = (name) =>
  JSON.parse(readFileSync(new URL(`../fixtures/seeded/${name}.json`, import.meta.url), "utf8")).essentials;

test.each(Object.keys(CONFIGS))("seeded run %s equals its recorded fixture exactly", async (name) => {
  const { model, report } = await runConfig(dp, CONFIGS[name]);
  // JSON text: shortest round-trip decimals, so equal text means equal doubles.
  expect(JSON.stringify(essentials(model, report), null, 1)).toBe(JSON.stringify(recorded(name), null, 1));
});

const plans = JSON.parse(readFileSync(new URL("../fixtures/seeded/plans.json", import.meta.url), "utf8"));

test.each(Object.keys(PLANS))("data-free plan %s equals its recorded fixture exactly", (name) => {
  expect(JSON.stringify(dp.account(PLANS[name]), null, 1)).toBe(JSON.stringify(plans[name], null, 1));
});
