// Issue 14's formats in the real app (headless Chromium, the Vite build): each file of
// tests/fixtures/csv_engine/ is uploaded; the app shows its column kinds, or the typed error
// with its fix, and stays usable (the clinic file loads and trains afterwards).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveStatic, launchChromium, repoRoot } from "./support.js";

const corpus = join(repoRoot, "tests/fixtures/csv_engine");
const clinic = join(repoRoot, "tests/fixtures/e2e/clinic.csv");

// file → column kinds shown in the preview's type row (by header name; "numeric, gaps": numeric
// and proposed nullable in the column table), or the error.
const CASES = [
  ["na_tokens.csv", { kinds: { x: "numeric, gaps", grade: "text", element: "text" } }],
  ["decimal_comma.csv", { kinds: { Preis: "numeric", Menge: "numeric, gaps", Kategorie: "text" }, summary: /semicolon-separated/ }],
  ["decimal_comma.tsv", { kinds: { Preis: "numeric", Kategorie: "text" }, summary: /tab-separated/ }],
  ["churn_categorical.csv", { kinds: { tenure: "numeric", contract: "text", payment_method: "text" } }],
  ["multiclass_3.csv", { kinds: { bill_length_mm: "numeric, gaps", island: "text" } }],
  ["multiclass_50.csv", { kinds: { f1: "numeric", f2: "numeric" } }],
  ["distinct_100k.csv", { kinds: { key: "ignore" }, rows: 100000 }],  // the core proposes "ignore": the name reads like an identifier
  ["workbook.xlsx", { code: "CSV_PARSE", message: /Excel workbook \(\.xlsx/ }],
  ["workbook.xls", { code: "CSV_PARSE", message: /legacy Excel workbook/ }],
  ["compressed.csv.gz", { code: "CSV_PARSE", message: /gzip/ }],
  ["utf16be_bom.csv", { code: "CSV_PARSE", message: /UTF-16/ }],
  ["latin1_cells.csv", { code: "CSV_PARSE", message: /Latin-1\/Windows-1252/ }],
];

let server;
let browser;
let page;
const consoleErrors = [];

before(async () => {
  server = await serveStatic(join(repoRoot, "web/dist"), "/apps/dpmargin/");
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  await page.goto(server.url);
  await page.waitForSelector("body[data-engine=ready]");
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function upload(file) {
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  await page.setInputFiles("#file-input", file);
  await page.waitForSelector("body[data-data-state=loaded], body[data-data-state=error]", { timeout: 60_000 });
  return page.evaluate(() => document.body.dataset.dataState);
}

for (const [file, expected] of CASES) {
  test(`${file}: ${expected.code ? `${expected.code} inline` : "column kinds"}, then the app still trains`, async () => {
    const state = await upload(join(corpus, file));
    if (expected.code) {
      assert.equal(state, "error");
      assert.equal(await page.getAttribute("#data-error", "data-code"), expected.code);
      assert.match(await page.textContent("#data-error"), expected.message);
      assert.equal(await page.isDisabled("#train-button"), true);
    } else {
      assert.equal(state, "loaded");
      const head = await page.$$eval("#preview-table thead tr:first-child th", (ths) => ths.slice(1).map((t) => t.textContent));
      const types = await page.$$eval("#preview-table tr.types td", (tds) => tds.map((t) => t.textContent));
      for (const [name, kind] of Object.entries(expected.kinds)) {
        const [use, gaps] = kind === "numeric, gaps" ? ["numeric", true] : kind === "text" ? ["categorical", false] : [kind, false];
        assert.equal(types[head.indexOf(name)], use, `${name} in ${file}`);
        if (gaps) {
          // Nullable is the run's private decision: the app shows the local expectation.
          assert.match(await page.textContent(`#column-table tr[data-column="${name}"] td.decision [data-field="nullable"]`),
            /expected: may be missing/, `${name} nullable`);
          assert.match(await page.textContent(`#column-table tr[data-column="${name}"] td.cells`), /missing/);
        }
      }
      if (expected.summary) assert.match(await page.textContent("#data-summary"), expected.summary);
      if (expected.rows) assert.equal(await page.getAttribute("#data-summary", "data-rows"), String(expected.rows));
    }
    // Still usable: a good file loads and trains.
    assert.equal(await upload(clinic), "loaded");
    await page.selectOption("#class-mode", "positive");
    await page.fill("#positive-class", "yes");
    await page.evaluate(() => { delete document.body.dataset.trainState; });
    await page.click("#train-button");
    // The same file again: the privacy ledger asks before spending more budget on it.
    await page.waitForFunction(() => document.body.dataset.trainState || !document.getElementById("retrain-warning").hidden);
    if (await page.isVisible("#retrain-warning")) await page.click("#retrain-confirm");
    await page.waitForFunction(() => document.body.dataset.trainState && document.body.dataset.trainState !== "running",
      null, { timeout: 120_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.trainState), "done");
  });
}

test("no page errors", () => {
  assert.deepEqual(consoleErrors, []);
});
