// The full web app, built by Vite and served from a sub-path by a plain logging static server,
// in headless Chromium: upload → pick columns → train in the worker (compared with the CLI,
// exactly, on a seeded run) → results, downloads, predict; cancel; typed errors inline; the
// shipped sample trained privately; 360 px layout; offline; and no request leaves the origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveStatic, launchChromium, recordRequests, screenshot, screenshotElement, repoRoot } from "./support.js";

const fixtures = join(repoRoot, "tests/fixtures/e2e");
const clinic = join(fixtures, "clinic.csv");
const cli = join(repoRoot, "dist/cli.js");
const scratch = mkdtempSync(join(tmpdir(), "dpmargin-e2e-"));

let server;
let browser;
let context;
let page;
let requests;
const consoleErrors = [];

before(async () => {
  server = await serveStatic(join(repoRoot, "web/dist"), "/apps/dpmargin/");
  browser = await launchChromium();
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  requests = recordRequests(context);
  page = await context.newPage();
  page.on("console", (msg) => { if (msg.type() === "error") consoleErrors.push(msg.text()); });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  await page.goto(server.url);
  await page.waitForSelector("body[data-engine=ready]");
});

after(async () => {
  await browser?.close();
  await server?.close();
});

// ---------- helpers ----------

function runCli(...args) {
  return execFileSync(process.execPath, [cli, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

async function upload(file) {
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  await page.setInputFiles("#file-input", file);
  await page.waitForSelector("body[data-data-state=loaded], body[data-data-state=error]");
  return page.evaluate(() => document.body.dataset.dataState);
}

async function openAdvanced() {
  await page.evaluate(() => { document.getElementById("advanced").open = true; });
}

async function setField(selector, value) {
  await page.fill(selector, String(value));
  await page.dispatchEvent(selector, "change");
}

/** Click Train (confirming the ledger's retrain warning when it shows) and wait until the run
 *  ends; returns the final state ("declined" when `confirm` is false and the warning showed). */
async function train({ confirm = true } = {}) {
  await page.evaluate(() => { document.body.dataset.trainState = "clicked"; });
  await page.click("#train-button");
  await page.waitForFunction(() => document.body.dataset.trainState !== "clicked"
    || !document.getElementById("retrain-warning").hidden, null, { timeout: 30_000 });
  if (await page.isVisible("#retrain-warning")) {
    if (!confirm) {
      await page.click("#retrain-cancel");
      return "declined";
    }
    await page.click("#retrain-confirm");
  }
  await page.waitForFunction(() => !["running", "clicked"].includes(document.body.dataset.trainState), null, { timeout: 120_000 });
  return page.evaluate(() => document.body.dataset.trainState);
}

/** Declare one class against the rest, typed (the app never offers the file's values). */
async function declarePositive(value) {
  await page.selectOption("#class-mode", "positive");
  await page.fill("#positive-class", value);
}

/** Wait for the core's preview of the run (dp.previewCsv) that follows the last change. */
async function previewed() {
  await page.waitForFunction(() => document.body.dataset.previewState === "ready" || document.body.dataset.previewState === "error");
}

/** The column table's row of a column. */
const columnRow = (name) => `#column-table tr[data-column="${name}"]`;

async function downloadText(selector) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), "utf8") };
}

const dataValue = (key) => page.getAttribute(`#result-summary dd[data-key="${key}"]`, "data-value");

// ---------- tests ----------

test("the clinic fixture: column table, schema export, and a seeded run equal to the CLI's with that schema", async () => {
  assert.equal(await upload(clinic), "loaded");
  assert.equal(await page.textContent("#chosen-file"), "clinic.csv", "the picker shows the chosen file");
  assert.match(await page.textContent("#data-summary"), /300 rows × 5 columns, comma-separated/);
  const head = await page.$$eval("#preview-table thead tr:first-child th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(head, ["line", "age", "dose, mg", "outcome", "score", "marker"]);
  const types = await page.$$eval("#preview-table tr.types td", (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(types, ["numeric", "numeric", "label", "numeric", "numeric"]);
  assert.equal(await page.inputValue("#label-column"), "outcome", "the label column is proposed by its header name");
  assert.match(await page.textContent("#label-note"), /header name/);
  // A text label: its classes are the run's (private discovery, the core's positive rule) unless
  // the user declares them; a declared positive class is typed — the file's values are never
  // offered — and until it is typed Train is disabled.
  assert.equal(await page.inputValue("#class-mode"), "", "the run decides the classes");
  assert.match(await page.textContent("#class-rule"), /Decided in the run on noisy counts/);
  assert.equal(await page.isDisabled("#train-button"), false);
  await page.selectOption("#class-mode", "positive");
  assert.equal(await page.evaluate(() => document.getElementById("positive-class").tagName), "INPUT");
  assert.equal(await page.inputValue("#positive-class"), "", "no positive class is guessed from the values");
  assert.equal(await page.isDisabled("#train-button"), true);
  assert.match(await page.textContent("#train-blocker"), /positive class/);
  await page.fill("#positive-class", "yes");
  assert.equal(await page.isDisabled("#train-button"), false);
  // The class balance is shown locally, with the majority-class rate, labelled as the user's own view.
  assert.match(await page.textContent("#class-balance"), /your own view — local, not released/);
  const majority = Number(await page.getAttribute("#majority-rate", "data-value"));
  assert.ok(majority >= 0.5 && majority < 1, `majority rate ${majority}`);
  // Every kind is the run's decision (private: the kind shown is the local expectation), nothing
  // is declared; the decisions and the model's width come from the core's preview.
  const kinds = await page.$$eval('#column-table select[data-field="kind"]', (xs) => xs.map((x) => `${x.closest("tr").dataset.column}:${x.value}`));
  assert.deepEqual(kinds, ["age:", "dose, mg:", "score:", "marker:"]);
  const decided = await page.$$eval("#column-table td.decision", (tds) => tds.map((t) => `${t.closest("tr").dataset.column}:${t.querySelector(".type").textContent}:${t.dataset.kindDecision}`));
  assert.deepEqual(decided, ["age:numeric:private", "dose, mg:numeric:private", "outcome:label:public", "score:numeric:private", "marker:numeric:private"]);
  assert.match(await page.textContent(`${columnRow("age")} td.decision`), /expected: numeric \(numbers\) local, not private/);
  assert.match(await page.textContent("#feature-count"), /4 of 4 columns used as features → 4 model columns/);

  // The schema as the core's JSON format: exported here, read by the CLI below (--schema).
  const schemaFile = await downloadText("#schema-export");
  assert.equal(schemaFile.name, "clinic-schema.json");
  const schema = JSON.parse(schemaFile.text);
  assert.equal(schema.format, "dpmargin-schema");
  assert.equal(schema.label, undefined, "proposed by its header name (a public rule): not a declaration");
  assert.equal(schema.classSource, "positive");
  assert.equal(schema.positive, "yes");
  assert.deepEqual(schema.columns, [], "only what the user declared");
  writeFileSync(join(scratch, "app-schema.json"), schemaFile.text);

  await page.selectOption("#test-fraction", "0");     // train on every row, as the CLI does
  await page.click('button.preset[data-epsilon="2"]');
  assert.equal(await page.inputValue("#train-epsilon"), "2");
  await openAdvanced();
  await setField("#seed", 7);
  // The CLI trains in one thread; two workers sum the same partial gradients in another order
  // (equal up to rounding: the Workers test below). Compare like with like.
  await page.selectOption("#workers", "1");
  assert.equal(await page.isVisible("#train-seeded"), true, "the seed field turns on the badge");
  await page.waitForSelector('#budget-preview dd[data-key="mu"]');
  // The plan's plain-language advice under the budget: a verdict badge and the core's sentence
  // (the preview follows the fields after a short debounce).
  await page.waitForFunction(() => /at ε = 2 /.test(document.querySelector('#budget-preview [data-key="advice"]')?.textContent ?? ""));
  assert.match(await page.textContent('#budget-preview [data-key="advice"]'), /With n = [\d,]+ rows at ε = 2 the noise is [\d.,]+× the signal/);
  assert.match(await page.textContent("#budget-preview .badge-verdict"), /^(good|marginal|too little data)$/);
  await previewed();
  const previewPlan = await page.$eval("#budget-preview .budget-title", (p) => ({ ...p.dataset }));
  assert.equal(await train(), "done");

  const expected = JSON.parse(runCli("train", clinic, "--schema", join(scratch, "app-schema.json"),
    "--epsilon", "2", "--delta", "1e-5", "--seed", "7", "--private-ranges", "--json", "--out", join(scratch, "cli-model.json")));
  assert.equal(expected.seeded, true);
  assert.equal(Number(await dataValue("gamma")), expected.selectedMargin);
  // The plan shown before the run is the run's (issue 29 item 5): n, d and μ, from the core.
  assert.deepEqual([Number(previewPlan.n), Number(previewPlan.d), Number(previewPlan.mu), previewPlan.estimate],
    [expected.report.plan.n, expected.report.plan.d, expected.report.plan.mu, "false"]);
  assert.equal(Number(await dataValue("train-accuracy")), expected.trainAccuracy);
  assert.equal(await dataValue("test-accuracy"), "");

  // Every released number, and the model file itself, are the CLI's.
  const report = await downloadText("#download-report-json");
  assert.match(report.name, /^privacy-report-SEEDED-not-private\.json$/);
  const r = JSON.parse(report.text);
  assert.equal(r.seeded, true);
  assert.equal(r.notPrivate, "seeded — not private");
  assert.deepEqual(r.released.candidates, expected.candidates);
  assert.equal(r.privacy.mu, expected.mu);
  assert.equal(r.privacy.muRanges, expected.report.plan.muRanges);
  const model = await downloadText("#download-model");
  assert.match(model.name, /SEEDED-not-private\.json$/);
  writeFileSync(join(scratch, "app-model.json"), model.text);
  assert.deepEqual(JSON.parse(model.text), JSON.parse(readFileSync(join(scratch, "cli-model.json"), "utf8")));
  const markdown = await downloadText("#download-report-md");
  assert.match(markdown.text, /SEEDED — NOT PRIVATE/);
  assert.match(markdown.text, /\| μ total \(Gaussian DP\) \| /);
  // The privacy report holds what may be published only: no file name, no accuracy, no confusion.
  for (const text of [report.text, markdown.text]) {
    assert.doesNotMatch(text, /clinic/i, "the privacy report names the data file");
    assert.doesNotMatch(text, /accuracy|confusion|truePositive|elapsed/i, "the privacy report holds evaluation numbers");
  }
  assert.equal(r.public.schema.label, "outcome");
  assert.equal(r.public.positive, "yes");
  // The run summary holds them, labelled local and not for publication.
  const summary = await downloadText("#download-summary");
  assert.match(summary.name, /^clinic-run-summary-LOCAL-not-for-publication\.md$/);
  assert.match(summary.text, /LOCAL, NOT FOR PUBLICATION/);
  assert.match(summary.text, /clinic\.csv/);
  assert.match(summary.text, /accuracy: \d/);
  assert.match(summary.text, /majority-class rate/);

  // Seeded: red badge on the results, the ledger and the downloads.
  const badges = await page.$$eval("#results [data-seeded]", (xs) => xs.filter((x) => !x.hidden).length);
  assert.equal(badges, 3);
  assert.match(await page.textContent('#ledger tr[data-key="seeded"]'), /seeded — not private/);
  // The default selector (auto) makes one run: no noisy scores to chart.
  assert.equal(await page.isVisible("#score-chart canvas"), false);
  await screenshot(page, "app-results-seeded");
});

test("Predict: the trained model on a CSV gives exactly `dpmargin predict`'s file; a bad model file is rejected inline", async () => {
  await page.click("#use-in-predict");
  assert.equal(await page.getAttribute("#tab-predict", "aria-selected"), "true");
  assert.match(await page.textContent("#model-summary"), /outcome = yes/);
  await page.setInputFiles("#predict-file", clinic);
  await page.waitForSelector("body[data-predict-state=done]");
  assert.equal(Number(await page.getAttribute('[data-key="predict-accuracy"]', "data-value")),
    Number(await dataValue("train-accuracy")));
  const predictions = await downloadText("#download-predictions");
  assert.match(predictions.name, /^clinic-predictions-SEEDED-not-private\.csv$/);
  assert.equal(predictions.text, runCli("predict", join(scratch, "app-model.json"), clinic));
  assert.equal(await page.isVisible("[data-model-seeded]"), true);
  await screenshot(page, "app-predict");

  writeFileSync(join(scratch, "bad-model.json"), JSON.stringify({ format: "dpmargin-model", version: 9 }));
  await page.setInputFiles("#model-file", join(scratch, "bad-model.json"));
  await page.waitForSelector("body[data-model-state=error]");
  assert.equal(await page.getAttribute("#model-error", "data-code"), "BAD_MODEL");
  assert.match(await page.textContent("#model-error"), /unsupported version 9/);
  await page.setInputFiles("#model-file", join(scratch, "cli-model.json"));
  await page.waitForSelector("body[data-model-state=loaded]");
  assert.equal(await page.isVisible("#model-error"), false);
  await page.click("#tab-train");
});

/** Drop a file on a drop zone, as a drag from the desktop would. */
async function drop(selector, name, text) {
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  const dataTransfer = await page.evaluateHandle(([n, t]) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], n, { type: "text/csv" }));
    return dt;
  }, [name, text]);
  await page.dispatchEvent(selector, "drop", { dataTransfer });
}

test("a malformed CSV shows its typed error inline; a correct file afterwards trains", async () => {
  await drop("#drop-zone", "ragged.csv", readFileSync(join(fixtures, "ragged.csv"), "utf8"));
  await page.waitForSelector("body[data-data-state=error]");
  assert.equal(await page.getAttribute("#data-error", "data-code"), "RAGGED_ROW");
  assert.match(await page.textContent("#data-error"), /line 4 has 4 fields; the header has 5/);
  assert.equal(await page.isVisible("#data-loaded"), false);
  assert.equal(await page.isDisabled("#train-button"), true);
  await screenshot(page, "app-error-ragged");

  assert.equal(await upload({ name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("\n\n") }), "error");
  assert.equal(await page.getAttribute("#data-error", "data-code"), "CSV_PARSE");

  // A missing cell ("n/a" is a missing token): the column table says so (local), and the column
  // is proposed nullable with a missing indicator; declaring "refuse" names line and column.
  const text = readFileSync(clinic, "utf8").split("\r\n");
  text[5] = text[5].replace(/^[^,]+/, "n/a");
  assert.equal(await upload({ name: "typo.csv", mimeType: "text/csv", buffer: Buffer.from(text.join("\r\n")) }), "loaded");
  assert.match(await page.textContent(`${columnRow("age")} td.cells`), /1 missing \(line 6\)/);
  // Nullable is the run's private decision; the app shows the local expectation, labelled.
  assert.match(await page.textContent(`${columnRow("age")} td.decision [data-field="nullable"]`),
    /nullable: decided in the run, privately expected: may be missing local, not private/);
  assert.equal(await page.inputValue(`${columnRow("age")} select[data-field="nullable"]`), "");
  assert.match(await page.$eval(`${columnRow("age")} select[data-field="missing"]`, (x) => x.selectedOptions[0].textContent), /default: indicator/);
  await declarePositive("yes");
  await page.selectOption(`${columnRow("age")} select[data-field="missing"]`, "error");
  assert.equal(await train(), "error");
  assert.equal(await page.getAttribute("#train-error", "data-code"), "MISSING_VALUE");
  assert.match(await page.textContent("#train-error"), /"n\/a" at line 6, column "age"/);
  await page.selectOption(`${columnRow("age")} select[data-field="missing"]`, "indicator");
  // One missing cell does not make the column nullable in a private run (a noisy count decides);
  // declared nullable, it gets its indicator column.
  await page.selectOption(`${columnRow("age")} select[data-field="nullable"]`, "true");
  await previewed();
  assert.match(await page.textContent(`${columnRow("age")} td.decision [data-field="nullable"]`), /may be missing, declared by you/);
  assert.equal(await train(), "done");
  assert.equal(await page.isVisible("#train-error"), false);
  assert.ok((await page.$$eval("#weights-table tbody tr", (trs) => trs.map((t) => t.textContent))).some((t) => /age: missing/.test(t)),
    "the missing indicator is a model column");

  assert.equal(await upload(clinic), "loaded");
  assert.equal(await page.isVisible("#data-error"), false);
  await declarePositive("yes");
  assert.equal(await train(), "done");
  assert.ok(Number(await dataValue("gamma")) > 0);
});

test("cancel mid-training stops the run promptly, the page stays responsive, and a new training succeeds", async () => {
  // A table big enough for a long run: T per candidate grows with n²μ².
  let state = 12345;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const rows = ["a,b,c,d,e,f,g,h,y"];
  for (let i = 0; i < 6000; i++) {
    const x = Array.from({ length: 8 }, () => next() * 2 - 1);
    rows.push([...x.map((v) => v.toFixed(4)), x[0] + x[1] - x[2] > 0 ? 1 : 0].join(","));
  }
  assert.equal(await upload({ name: "long.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) }), "loaded");
  assert.equal(await page.inputValue("#label-column"), "y");
  assert.equal(await page.inputValue("#class-mode"), "", "the run decides the classes");
  await previewed();
  assert.equal(await page.getAttribute("#class-rule", "data-source"), "binary01", "expected locally: 0/1, positive 1 (the core's rule)");
  await openAdvanced();
  await page.selectOption("#train-selector", "iter");  // several candidates, one bar each
  await setField("#seed", "");
  await page.selectOption("#test-fraction", "0.2");
  await setField("#max-iterations", 200000);
  await page.click("#train-button");
  await page.waitForFunction(() => Number(document.querySelector("#progress-overall").value) > 0.002);
  assert.equal(await page.evaluate(() => document.body.dataset.trainState), "running");
  // Responsive while the worker computes: frames keep coming and typing works.
  const frameMs = await page.evaluate(async () => {
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) await new Promise((r) => requestAnimationFrame(r));
    return performance.now() - t0;
  });
  assert.ok(frameMs < 1000, `5 frames took ${frameMs} ms`);
  await page.fill("#split-seed", "2");
  assert.equal(await page.inputValue("#split-seed"), "2");
  const runs = await page.$$eval("#progress-runs li", (li) => li.length);
  const planned = await page.evaluate(() => document.querySelectorAll("#progress-runs li progress").length);
  assert.ok(runs >= 6, `one progress bar per candidate (${runs})`);
  assert.equal(runs, planned);
  await screenshot(page, "app-training");
  const clicked = Date.now();
  await page.click("#cancel-button");
  await page.waitForFunction(() => document.body.dataset.trainState === "cancelled", null, { timeout: 10_000 });
  const cancelMs = Date.now() - clicked;
  assert.ok(cancelMs < 3000, `cancel took ${cancelMs} ms`);
  assert.match(await page.textContent("#train-status"), /Cancelled after/);
  assert.equal(await page.isVisible("#train-error"), false);
  assert.equal(await page.isVisible("#results"), false);
  await screenshot(page, "app-cancelled");

  await setField("#max-iterations", 100);
  assert.equal(await train(), "done");
  assert.equal(await page.isVisible("#results"), true);
  assert.ok(Number(await dataValue("test-accuracy")) > 0.5);
});

test("the shipped sample (breast cancer) trains privately: no seed, secure noise, held-out accuracy", async () => {
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  await page.click('button[data-sample="breast-cancer"]');
  await page.waitForSelector("body[data-data-state=loaded]");
  assert.equal(await page.inputValue("#label-column"), "diagnosis");
  assert.equal(await page.inputValue("#positive-class"), "malignant");
  assert.match(await page.textContent("#feature-count"), /30 of 30 columns used as features/);
  assert.match(await page.textContent("#samples"), /CC BY 4\.0/);
  await openAdvanced();
  await page.selectOption("#train-selector", "");  // the default (the cancel test chose iter)
  await setField("#max-iterations", 1000);
  await page.selectOption("#test-fraction", "0.2");
  await page.click('button.preset[data-epsilon="4"]');
  assert.equal(await page.isVisible("#train-seeded"), false);
  assert.equal(await train(), "done");
  assert.equal(await page.getAttribute("#results", "data-seeded"), "false");
  assert.equal(await page.$$eval("#results [data-seeded]", (xs) => xs.filter((x) => !x.hidden).length), 0);
  assert.match(await page.textContent('#ledger tr[data-key="seeded"]'), /secure \(CSPRNG\)/);
  assert.match(await page.textContent('#result-summary dd[data-key="test-accuracy"]'), /on 114 held-out rows/);
  assert.match(await page.textContent('#result-summary dd[data-key="train-accuracy"]'), /on 455 rows/);
  const cells = await page.$$eval("#confusion td[data-key]", (tds) => tds.map((t) => Number(t.textContent)));
  assert.equal(cells.reduce((a, b) => a + b, 0), 114);
  // Every column's scaling path is said (issue 14.3): 30 columns, private ranges and/or the
  // public signed-log fallback, counts adding up.
  const released = await page.textContent("#released-list");
  const scalings = /30 column scalings \[lo, hi\] with their map: (.*)/.exec(released);
  assert.ok(scalings, released);
  const counted = [...scalings[1].matchAll(/(\d+) (ranges estimated privately|public signed-log|declared public)/g)];
  assert.equal(counted.reduce((a, m) => a + Number(m[1]), 0), 30, scalings[1]);
  // The default (auto): one run at the public margin, nothing selected, no scores.
  const candidateRows = await page.$$eval("#candidates-table tbody tr", (trs) => trs.length);
  assert.equal(candidateRows, 1, `${candidateRows} candidates`);
  // ROC AUC and the ROC curve of the held-out scores, next to the other yardsticks (not private).
  const auc = Number(await dataValue("roc-auc"));
  assert.ok(auc > 0.8 && auc <= 1, `ROC AUC ${auc}`);
  assert.match(await page.textContent('#result-summary dd[data-key="roc-auc"]'), /^[01]\.\d{4} \(from the scores/);
  assert.match(await page.textContent("#result-summary"), /ROC AUC \(held-out, not private\)/);
  assert.equal(await page.isVisible("#roc-chart canvas"), true, "the ROC chart is drawn");
  assert.match(await page.textContent("#roc-which"), /114 held-out rows, not private/);
  const summary = await downloadText("#download-summary");
  assert.match(summary.text, /- ROC AUC: [01]\.\d+/);
  await page.$eval("#data-section", (el) => el.scrollIntoView());
  await screenshot(page, "app-sample-results");
  await screenshotElement(page, "#results", "app-results-section");
});

test("settings: invalid ε is named inline, δ ≥ 1/n warns, PrivTune and the fixed margin also train", async () => {
  await setField("#train-epsilon", "-1");
  await page.waitForSelector("#settings-error:not([hidden])");
  assert.equal(await page.getAttribute("#settings-error", "data-code"), "BAD_PARAMETER");
  assert.match(await page.textContent("#settings-error"), /epsilon must be finite and positive, but is -1/);
  assert.equal(await page.getAttribute("#train-epsilon", "aria-invalid"), "true");
  assert.equal(await train(), "error");
  assert.equal(await page.getAttribute("#train-error", "data-code"), "BAD_PARAMETER");
  await page.click('button.preset[data-epsilon="1"]');
  await page.waitForSelector("#settings-error", { state: "hidden" });
  assert.match(await page.textContent("#epsilon-explain"), /e\^ε ≈ 2\.72/);

  await setField("#train-delta", "0.01");   // n = 455 training rows: 1/n ≈ 0.0022
  await page.waitForSelector("#delta-warning:not([hidden])");
  assert.match(await page.textContent("#delta-warning"), /n = 455 training rows/);
  await setField("#train-delta", "1e-5");
  await page.waitForSelector("#delta-warning", { state: "hidden" });

  await openAdvanced();
  await page.selectOption("#train-selector", "privtune");
  assert.equal(await page.isDisabled("#private-ranges"), true, "PrivTune's accounting covers no ranges");
  assert.equal(await page.isVisible("#expected-runs"), true);
  await setField("#seed", 3);
  assert.equal(await train(), "done");
  assert.equal(await page.$$eval("#candidates-table tbody tr", (trs) => trs.length), 1, "PrivTune releases the selected run only");
  // K stays hidden: no ledger row, no released item; shown locally as not private only.
  assert.equal(await page.$$eval('#ledger tr[data-key="runs"]', (trs) => trs.length), 0);
  assert.match(await page.textContent("#released-list"), /K hidden/);
  assert.match(await page.textContent('#result-summary dd[data-key="time"]'), /local only/);

  await page.selectOption("#train-selector", "fixed");
  assert.equal(await page.isVisible("#margin"), true);
  await setField("#margin", "0.1");
  assert.equal(await train(), "done");
  assert.equal(Number(await dataValue("gamma")), 0.1);
  assert.equal(await page.isVisible("#score-chart"), false, "no selection, no score chart");
  await page.selectOption("#train-selector", "iter");
  await setField("#seed", "");
});

test("readable at 360 px: no horizontal page scroll; tabs work from the keyboard; controls are labelled", async () => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow} px at 360 px`);
  await screenshot(page, "app-mobile-360");
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.focus("#tab-train");
  await page.keyboard.press("ArrowRight");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-predict");
  assert.equal(await page.isVisible("#panel-predict"), true);
  await page.keyboard.press("End");
  assert.equal(await page.evaluate(() => document.activeElement.id), "tab-profile");
  assert.match(await page.textContent("#panel-profile"), /not private/i);
  assert.equal(await page.isVisible("#profile-run"), true);
  await page.keyboard.press("Home");
  assert.equal(await page.isVisible("#panel-train"), true);

  const unlabelled = await page.evaluate(() => [...document.querySelectorAll("input, select, button, progress")]
    .filter((el) => !(el.labels?.length || el.getAttribute("aria-label") || el.textContent.trim()))
    .map((el) => el.id || el.outerHTML.slice(0, 80)));
  assert.deepEqual(unlabelled, []);
});

test("works offline once loaded: a file trains with the network off", async () => {
  await context.setOffline(true);
  try {
    assert.equal(await upload(clinic), "loaded");
    await declarePositive("yes");
    assert.equal(await train(), "done");
  } finally {
    await context.setOffline(false);
  }
});

test("margin profile tab: the non-private diagnostic on the loaded file equals `dpmargin profile`", async () => {
  await page.click("#tab-train");  // earlier tests may leave another tab open
  assert.equal(await upload(clinic), "loaded");
  await declarePositive("yes");
  await page.click("#tab-profile");
  assert.match(await page.textContent("#panel-profile"), /not private/i);
  assert.match(await page.textContent("#profile-status"), /^Ready/, "the status follows the loaded data");
  await page.fill("#profile-max", "5");
  await page.click("#profile-run");
  await page.waitForFunction(() => document.body.dataset.profile, null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.profile), "done");
  assert.equal(await page.isVisible(".badge-nonprivate"), true);
  const app = await page.$eval("#profile-result", (el) => ({ ...el.dataset }));
  const cliOut = JSON.parse(runCli("profile", clinic, "--label", "outcome", "--positive", "yes", "--json"));
  assert.equal(cliOut.private, false);
  assert.equal(app.separable, String(cliOut.separable));
  assert.equal(Number(app.firstSeparableRemoved), cliOut.firstSeparableRemoved);
  assert.equal(Number(app.lastMargin), cliOut.curve.at(-1).margin);
  assert.equal(Number(app.fits), cliOut.fits);
  // The core's advice, with the Train tab's ε and δ: the same as the CLI's.
  const eps = await page.inputValue("#train-epsilon"), delta = await page.inputValue("#train-delta");
  const cliAdvice = JSON.parse(runCli("profile", clinic, "--label", "outcome", "--positive", "yes", "--json",
    "--epsilon", eps, "--delta", delta)).advice;
  assert.equal(cliAdvice.private, false);
  assert.equal(app.verdict, cliAdvice.verdict);
  const advice = await page.textContent("#profile-advice");
  assert.match(advice, /local, not private/);
  assert.ok(advice.includes(cliAdvice.text), `${advice} vs ${cliAdvice.text}`);
  assert.ok(await page.$("#profile-chart canvas"), "the curve is drawn");
  assert.match(await page.textContent("#profile-legend"), /dashed: the smallest margin before clamping/);
  await screenshot(page, "app-margin-profile");
  await page.click("#tab-train");
});

test("Workers: 2 — a seeded run with the rows split over two nested shard workers equals the one-worker run", async () => {
  assert.equal(await upload(clinic), "loaded");
  await declarePositive("yes");
  await page.selectOption("#test-fraction", "0");
  await page.click('button.preset[data-epsilon="2"]');
  await openAdvanced();
  await setField("#seed", 7);
  // The CLI trains in one thread; two workers sum the same partial gradients in another order
  // (equal up to rounding: the Workers test below). Compare like with like.
  await page.selectOption("#workers", "1");
  const run = async (workers) => {
    await page.selectOption("#workers", String(workers));
    const before = server.log.length;
    assert.equal(await train(), "done");
    return {
      gamma: Number(await dataValue("gamma")),
      accuracy: Number(await dataValue("train-accuracy")),
      shardScripts: server.log.slice(before).filter((r) => /shard\.worker.*\.js$/.test(r.url)).length,
      seeded: await page.getAttribute("#results", "data-seeded"),
    };
  };
  const one = await run(1);
  const two = await run(2);
  assert.equal(two.gamma, one.gamma);
  assert.equal(two.accuracy, one.accuracy);
  assert.equal(two.seeded, "true", "a seeded two-worker run still says not private");
  // The shard worker script is fetched (or served from cache) from the app's own origin; the
  // same-origin test below checks every request, nested workers included.
  assert.ok(server.log.some((r) => /shard\.worker.*\.js$/.test(r.url)), "the shard worker was not loaded from the app's server");
  await page.selectOption("#workers", "1");
  await setField("#seed", "");
});

/** A small table whose header names no label: columns a, b, c and "flag" (0/1). */
function unlabelledCsv(seed, n = 400) {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const rows = ["a,b,c,flag"];
  for (let i = 0; i < n; i++) {
    const x = [next() * 2 - 1, next() * 2 - 1, next() * 2 - 1];
    rows.push([...x.map((v) => v.toFixed(4)), x[0] - x[1] > 0 ? 1 : 0].join(","));
  }
  return Buffer.from(rows.join("\n") + "\n");
}

test("no header names the label: Train stays disabled until the user picks it; the ledger sums two runs", async () => {
  await page.click("#tab-train");
  const bytes = unlabelledCsv(Date.now() % 100000);   // fresh bytes: a ledger of its own
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  await page.dispatchEvent("#drop-zone", "drop", {
    dataTransfer: await page.evaluateHandle((b64) => {
      const dt = new DataTransfer();
      dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "unlabelled.csv", { type: "text/csv" }));
      return dt;
    }, bytes.toString("base64")),
  });
  await page.waitForSelector("body[data-data-state=loaded]");
  assert.equal(await page.textContent("#chosen-file"), "unlabelled.csv");
  assert.equal(await page.inputValue("#label-column"), "", "no label is guessed from the values");
  assert.equal(await page.isDisabled("#train-button"), true);
  assert.match(await page.textContent("#train-blocker"), /Choose the label column/);
  assert.match(await page.textContent("#label-note"), /The header names do not single out the label/);
  assert.equal(await page.isVisible("#file-ledger"), true);
  assert.equal(await page.getAttribute("#file-ledger", "data-runs"), "0");
  await screenshot(page, "app-no-label");

  await page.selectOption("#label-column", "flag");
  assert.equal(await page.inputValue("#class-mode"), "", "the run decides the classes");
  await previewed();
  assert.match(await page.textContent("#class-rule"), /1 against the rest when the label's cells are 0, 1 or -1/);
  assert.equal(await page.isDisabled("#train-button"), false);
  await page.selectOption("#test-fraction", "0.2");
  await page.click('button.preset[data-epsilon="1"]');
  assert.equal(await train(), "done");
  // Yardsticks next to the accuracy (local, not private).
  for (const key of ["majority-rate", "balanced-accuracy", "f1"]) {
    const v = Number(await dataValue(key));
    assert.ok(v >= 0 && v <= 1, `${key} = ${v}`);
  }
  const accuracy = Number(await dataValue("test-accuracy"));
  const majority = Number(await dataValue("majority-rate"));
  assert.equal(await page.isVisible("#accuracy-warning"), accuracy <= majority + 0.01, "the warning shows exactly when accuracy ≤ majority + 1 point");
  assert.equal(await page.getAttribute("#file-ledger", "data-runs"), "1");

  // A second run on the same bytes warns with the running total first; declining spends nothing.
  await page.click('button.preset[data-epsilon="2"]');
  assert.equal(await train({ confirm: false }), "declined");
  assert.equal(await page.getAttribute("#file-ledger", "data-runs"), "1");
  await page.click("#train-button");
  await page.waitForSelector("#retrain-warning:not([hidden])");
  assert.match(await page.textContent("#retrain-text"), /Σε = 1\b.*spends ε = 2, δ = 1e-5 more.*Σε = 3, Σδ = 2e-5/s);
  await screenshot(page, "app-retrain-warning");
  await page.click("#retrain-cancel");
  assert.equal(await train(), "done");
  assert.equal(await page.getAttribute("#file-ledger", "data-runs"), "2");
  assert.equal(Number(await page.getAttribute("#file-ledger", "data-epsilon")), 3);
  assert.equal(Number(await page.getAttribute("#file-ledger", "data-delta")), 2e-5);
  // Both runs are GDP (iter, no discovery): μ composes as √(μ₁² + μ₂²).
  const mu = Number(await page.getAttribute("#file-ledger", "data-mu"));
  const ledgerText = await page.textContent("#file-ledger-total");
  assert.match(ledgerText, /2 runs: basic composition Σε = 3, Σδ = 2e-5/);
  assert.match(ledgerText, /Gaussian-DP composition/);
  assert.ok(mu > 0);
  // The ledger is keyed by the SHA-256 of the file's bytes, computed in the browser.
  const sha = createHash("sha256").update(bytes).digest("hex");
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("dpmargin.ledger.v1")));
  assert.equal(stored[sha].entries.length, 2);
  assert.deepEqual(stored[sha].entries.map((e) => e.epsilon), [1, 2]);
  await screenshot(page, "app-ledger");

  // Reset needs an explicit confirmation that explains it.
  await page.click("#ledger-reset");
  assert.match(await page.textContent("#ledger-reset-text"), /does not\s+undo them/);
  assert.equal(await page.isDisabled("#ledger-reset-confirm"), true);
  await page.check("#ledger-reset-understood");
  await page.click("#ledger-reset-confirm");
  await page.waitForFunction(() => document.getElementById("file-ledger").dataset.runs === "0");
  await page.click('button.preset[data-epsilon="1"]');
});

test("a multiclass label (declared classes): per-class accuracy, a K × K confusion matrix and the model's classes", async () => {
  let state = 99;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const rows = ["x1,x2,species"];
  const names = ["north", "east", "west"];
  for (let i = 0; i < 1500; i++) {
    const k = i % 3;
    const angle = (2 * Math.PI * k) / 3;
    rows.push([(Math.cos(angle) + 0.4 * (next() - 0.5)).toFixed(4), (Math.sin(angle) + 0.4 * (next() - 0.5)).toFixed(4), names[k]].join(","));
  }
  assert.equal(await upload({ name: "three.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) }), "loaded");
  assert.equal(await page.inputValue("#label-column"), "", "“species” is not a label header name");
  await page.selectOption("#label-column", "species");
  await page.selectOption("#class-mode", "declared");
  await page.fill("#declared-classes", "east, north, west");
  await page.dispatchEvent("#declared-classes", "change");
  await previewed();
  await page.waitForFunction(() => /3 or more classes: one joint model/.test(document.getElementById("class-rule").textContent));
  await page.selectOption("#test-fraction", "0.2");
  await page.click('button.preset[data-epsilon="4"]');
  assert.equal(await train(), "done");
  assert.equal(await page.getAttribute('#result-summary dd[data-key="classes"]', "data-value"), "east\nnorth\nwest");
  const header = await page.$$eval("#confusion thead th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(header, ["predicted east", "predicted north", "predicted west"]);
  const cells = await page.$$eval("#confusion td[data-key]", (tds) => tds.map((t) => Number(t.textContent)));
  assert.equal(cells.length, 9);
  assert.equal(cells.reduce((a, b) => a + b, 0), 300);
  assert.equal(await page.isVisible("#per-class-table"), true);
  assert.equal(await page.$$eval("#per-class-table tbody tr", (trs) => trs.length), 3);
  assert.equal(await page.isVisible("#label-outside-warning"), false, "declared classes: no row is outside them");
  // Multiclass: the macro one-vs-rest AUC, no single ROC curve.
  assert.ok(Number(await dataValue("roc-auc")) > 0.5);
  assert.match(await page.textContent('#result-summary dd[data-key="roc-auc"]'), /macro over the classes, one-vs-rest/);
  assert.equal(await page.isVisible("#roc-box"), false);
  assert.match(await page.textContent("#ledger"), /one joint model over 3 classes \(hinge loss\) at μ_train/);
  assert.match(await page.textContent('#result-summary dd[data-key="classes"]'), /3 \(one joint model\)/);
  assert.match(await page.textContent("#weights-table thead"), /weight: east.*weight: north.*weight: west/);
  const report = JSON.parse((await downloadText("#download-report-json")).text);
  assert.deepEqual(report.public.classes, ["east", "north", "west"]);
  assert.equal(report.released.perClass, undefined);  // the joint model: one selection record
  assert.equal(report.mechanism.multiclass, "joint");
  // The model file downloads (version 3, joint) and predicts the same classes in the package.
  const modelFile = JSON.parse((await downloadText("#download-model")).text);
  assert.equal(modelFile.version, 3);
  assert.equal(modelFile.multiclass, "joint");
  assert.deepEqual(modelFile.label.classes, ["east", "north", "west"]);
  // … and predicts in the app, through the CLI and in the standalone Python scorer, the same.
  const modelPath = join(scratch, "app-multiclass-model.json"), csvPath = join(scratch, "three.csv");
  writeFileSync(modelPath, JSON.stringify(modelFile));
  writeFileSync(csvPath, rows.join("\n"));
  await page.click("#use-in-predict");
  await page.setInputFiles("#predict-file", csvPath);
  await page.waitForSelector("body[data-predict-state=done]");
  const inApp = (await downloadText("#download-predictions")).text;
  const viaCli = runCli("predict", modelPath, csvPath);
  assert.equal(inApp, viaCli);
  const viaPython = execFileSync("/usr/bin/python3", [join(repoRoot, "examples/predict.py"), modelPath, csvPath], { encoding: "utf8" });
  const classOf = (text) => text.trim().split("\n").slice(1).map((line) => line.split(",")[1]);
  assert.deepEqual(classOf(viaPython), classOf(viaCli));
  assert.equal(classOf(viaCli).length, 1500);
  await page.click("#tab-train");
  await screenshot(page, "app-multiclass");
});

test("discovered classes: the rows whose label discovery missed are counted in a warning", async () => {
  // "rare" holds 10 of 2000 rows, far below what discovery finds at ε = 1 (~50 rows).
  const rows = ["x1,x2,outcome"];
  for (let i = 0; i < 2000; i++) rows.push(`${(i % 13) / 13},${(i % 7) / 7},${i < 10 ? "rare" : i % 2 ? "ok" : "late"}`);
  assert.equal(await upload({ name: "rare.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) }), "loaded");
  assert.equal(await page.inputValue("#label-column"), "outcome");
  await page.selectOption("#class-mode", "discover");
  await page.selectOption("#test-fraction", "0");
  await page.click('button.preset[data-epsilon="1"]');
  await setField("#seed", 4);
  assert.equal(await train(), "done");
  assert.equal(await page.isVisible("#label-outside-warning"), true);
  assert.equal(await page.getAttribute("#label-outside-warning", "data-rows"), "10");
  assert.match(await page.textContent("#label-outside-warning"),
    /10 of the 2000 training rows \(0\.50%\) have a label that is none of the classes discovered under the budget \(“late”, “ok”\); they were trained as negatives \(not “ok”\)/);
  await setField("#seed", "");
  await page.selectOption("#test-fraction", "0.2");
});

test("loading shows bytes and rows read and can be cancelled; long names do not overflow", async () => {
  const long = "a_very_long_feature_name_that_goes_on_and_on_and_on_and_on_and_on_and_on_and_on";
  const lines = [`${long},b,label`];
  let state = 5;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 2_700_000; i++) lines.push(`${next().toFixed(6)},${next().toFixed(6)},${i % 2}`);
  const big = Buffer.from(lines.join("\n"));
  assert.ok(big.length >= 50e6, `the file is ${big.length} bytes (issue 17: a ≥ 50 MB CSV)`);
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  // Playwright takes at most 50 MB as a buffer: the file goes through the disk.
  const bigPath = join(scratch, "big.csv");
  writeFileSync(bigPath, big);
  // Cancel from inside the page at the first progress report: the reader is fast enough (two
  // passes at ~100 MB/s) that a round trip from the test could arrive after the last byte.
  await page.evaluate(() => {
    const status = document.getElementById("load-status");
    const observer = new MutationObserver(() => {
      if (!(Number(status.dataset.bytes) > 0)) return;
      observer.disconnect();
      window.firstLoadStatus = status.textContent;
      document.getElementById("load-cancel").click();
    });
    observer.observe(status, { attributes: true, childList: true, subtree: true, characterData: true });
  });
  await page.setInputFiles("#file-input", bigPath);
  await page.waitForFunction(() => ["cancelled", "loaded"].includes(document.body.dataset.dataState), null, { timeout: 60_000 });
  assert.match(await page.evaluate(() => window.firstLoadStatus), /Reading big\.csv: .* of .*MB.*rows/);
  assert.equal(await page.evaluate(() => document.body.dataset.dataState), "cancelled");
  assert.match(await page.textContent("#load-status"), /cancelled/);
  assert.equal(await page.isVisible("#data-loaded"), false);

  // The same long header in a small file: the column table's cell is cut with an ellipsis and a title.
  assert.equal(await upload({ name: "long.csv", mimeType: "text/csv", buffer: Buffer.from(lines.slice(0, 200).join("\n")) }), "loaded");
  const cell = await page.$eval(`${columnRow(long)} th`, (th) => ({ title: th.title, over: th.scrollWidth > th.clientWidth, width: th.getBoundingClientRect().width }));
  assert.equal(cell.title, long);
  assert.ok(cell.width < 300, `the name cell is ${cell.width} px wide`);
});

test("only same-origin static files were requested (browser list and server log, incl. the nested worker)", async () => {
  assert.ok(requests.length > 0);
  for (const url of requests) {
    assert.ok(url.startsWith(server.origin + "/") || url.startsWith("data:") || url.startsWith("blob:"),
      `request left the origin: ${url}`);
  }
  const served = server.log.map((r) => r.url);
  for (const url of served) assert.ok(url.startsWith("/apps/dpmargin/"), `outside the app's path: ${url}`);
  assert.ok(server.log.every((r) => r.method === "GET"), "only GET requests: nothing is uploaded");
  assert.ok(served.some((u) => /\.wasm$/.test(u)), `wasm not served: ${served.join(", ")}`);
  assert.ok(served.some((u) => /worker.*\.js$/.test(u)), `worker not served: ${served.join(", ")}`);
  assert.ok(served.some((u) => /samples\/breast-cancer\.csv$/.test(u)), "sample not served");
  assert.ok(server.log.every((r) => r.host === new URL(server.origin).host));
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
  assert.match(csp, /worker-src 'self'(;|$)/);
  // The same policy as a header for static hosts that read _headers.
  const headersFile = join(repoRoot, "web/dist/_headers");
  assert.ok(existsSync(headersFile), "web/dist/_headers is missing");
  assert.ok(readFileSync(headersFile, "utf8").includes(`Content-Security-Policy: ${csp}`), "_headers and the meta differ");
  assert.deepEqual(consoleErrors, []);
});
