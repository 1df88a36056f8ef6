// The full web app, built by Vite and served from a sub-path by a plain logging static server,
// in headless Chromium: upload → pick columns → train in the worker (compared with the CLI,
// exactly, on a seeded run) → results, downloads, predict; cancel; typed errors inline; the
// shipped sample trained privately; 360 px layout; offline; and no request leaves the origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveStatic, launchChromium, recordRequests, screenshot, screenshotElement, repoRoot } from "./support.js";
import { checkReleased, load, positiveRule, positiveRuleText } from "dpmargin";

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

// First, on the fresh page: the defaults train in the engine worker alone. No shard worker
// script is fetched (two workers were slower on the benchmark's real tables and hold 2–3× the
// memory: docs/reference/SHARDING.md, "Default").
test("a run with the default settings trains in one worker: no shard worker is started", async () => {
  await page.evaluate(() => { delete document.body.dataset.dataState; });
  await page.click('button[data-sample="breast-cancer"]');
  await page.waitForSelector("body[data-data-state=loaded]");
  const before = server.log.length;
  assert.equal(await train(), "done");
  const shardScripts = server.log.slice(before).filter((r) => /shard\.worker.*\.js$/.test(r.url));
  assert.deepEqual(shardScripts, [], "a default run started shard workers");
});

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
  assert.equal(Number(await dataValue("train-accuracy")), expected.local.trainAccuracy);
  assert.equal(await dataValue("test-accuracy"), "");

  // Every released number, and the model file itself, are the CLI's.
  const report = await downloadText("#download-report-json");
  assert.match(report.name, /^privacy-report-SEEDED-not-private\.json$/);
  const r = JSON.parse(report.text);
  assert.equal(r.seeded, true);
  assert.equal(r.notPrivate, "seeded — not private");
  assert.deepEqual(r.report.candidates, expected.candidates);
  assert.equal(r.report.plan.mu, expected.mu);
  assert.equal(r.report.plan.muRanges, expected.report.plan.muRanges);
  // The report is the released record and the app's fixed wording only: the run's report and
  // the model's header, each on the package's list of released fields (checkReleased throws on
  // a field that is not), no weights.
  assert.deepEqual(Object.keys(r).sort(), ["format", "model", "notPrivate", "note", "report", "seeded", "version"]);
  assert.equal(r.version, 3);
  checkReleased("report", r.report);
  checkReleased("model", r.model);
  assert.equal(r.model.weights, undefined);
  assert.deepEqual(r.report.plan, expected.report.plan);
  const model = await downloadText("#download-model");
  assert.match(model.name, /SEEDED-not-private\.json$/);
  writeFileSync(join(scratch, "app-model.json"), model.text);
  assert.deepEqual(JSON.parse(model.text), JSON.parse(readFileSync(join(scratch, "cli-model.json"), "utf8")));
  const markdown = await downloadText("#download-report-md");
  assert.match(markdown.text, /SEEDED — NOT PRIVATE/);
  assert.match(markdown.text, /\| μ total \(Gaussian DP; μ² = μ_schema² \+ μ_discovery² \+ μ_ranges² \+ μ_train²\) \| /);
  // Every part of μ, the schema's and discovery's included (plan.muSchema, plan.muDiscovery).
  assert.match(markdown.text, /\| μ_schema \(private schema decisions: column kinds, nullable, class source\) \| (0 \(no private schema decision\)|[\d.e-]+ \(\d+ noisy counts)/);
  assert.match(markdown.text, /\| μ_discovery \(categories and classes discovered\) \| (0 \(nothing discovered\)|[\d.e-]+) \|/);
  assert.ok(markdown.text.includes(`What ran: ${expected.report.plan.advice.selection}`));
  // The privacy report holds what may be published only: no file name, no accuracy, no confusion.
  for (const text of [report.text, markdown.text]) {
    assert.doesNotMatch(text, /clinic/i, "the privacy report names the data file");
    assert.doesNotMatch(text, /accuracy|confusion|truePositive|elapsed/i, "the privacy report holds evaluation numbers");
  }
  assert.equal(r.model.schema.label, "outcome");
  assert.equal(r.model.label.positive, "yes");
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
  // The default selector (auto) makes one run: no noisy scores to chart. The results say what
  // ran and why no choice was needed at this n and ε: the core's sentence (plan.advice.selection),
  // the one the CLI's plan carries — not a learner that did not run.
  assert.equal(await page.isVisible("#score-chart canvas"), false);
  const selection = await page.textContent('#result-summary dd[data-key="selection"]');
  assert.equal(selection, expected.report.plan.advice.selection);
  assert.match(selection, /^One run at the public margin γ₀ = [\d.]+, with the whole training budget: nothing is scored or selected\. A choice would not pay here: auto chooses among three margins only where .* at n = 300 rows and ε = 2 that noise would be [\d,.]+ errors/);
  assert.equal(await page.getAttribute('#result-summary dd[data-key="selection"]', "data-value"), "false");
  assert.equal(await page.textContent("#chart-heading"), "What ran");
  assert.equal(await page.textContent("#chart-note"), selection);
  assert.doesNotMatch(await page.textContent("#results"), /fixed-margin learner|there is no score to show/);
  assert.match(await page.textContent('#result-summary dd[data-key="gamma"]'), /auto's public margin γ₀: one run, nothing selected/);
  assert.match(await page.textContent("#candidates-summary"), /The run \(released record: one margin, no score\)/);
  // The headline is what the model does (accuracy, ROC AUC, balanced accuracy, majority rate),
  // not γ: the margin comes after them.
  const terms = await page.$$eval("#result-summary dt", (dts) => dts.map((d) => d.textContent));
  assert.match(terms[0], /^(train accuracy|balanced accuracy)/, terms.join(" | "));
  assert.match(terms[1], /^ROC AUC/, terms.join(" | "));
  assert.ok(terms.indexOf("margin γ") > terms.indexOf("majority-class rate (training, not private)"), terms.join(" | "));
  // The positive class, said aloud with the rule that chose it (read off the released schema by
  // the package's positiveRule, worded by its positiveRuleText; the app decides nothing).
  const positiveText = await page.textContent('#result-summary dd[data-key="positive"]');
  const rule = positiveRule(JSON.parse(model.text).schema);
  assert.equal(rule, "named");
  assert.equal(positiveText, `“yes” of “outcome” — ${positiveRuleText(rule)}`);
  assert.equal(await page.getAttribute('#result-summary dd[data-key="positive"]', "data-rule"), rule);
  assert.match(markdown.text, /positive class `yes` \(named by you/);
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
  // The same yardsticks as training (the package's evaluate), equal on the same rows.
  for (const key of ["majority-rate", "balanced-accuracy", "roc-auc", "f1"]) {
    assert.equal(await page.getAttribute(`#predict-metrics dd[data-key="predict-${key}"]`, "data-value"), await dataValue(key), key);
  }
  const predictions = await downloadText("#download-predictions");
  assert.match(predictions.name, /^clinic-predictions-SEEDED-not-private\.csv$/);
  assert.equal(predictions.text, runCli("predict", join(scratch, "app-model.json"), clinic));
  assert.equal(await page.isVisible("[data-model-seeded]"), true);
  await screenshot(page, "app-predict");

  // A decision threshold moved by the user: the predictions, the count, the yardsticks and the
  // download follow it (score ≥ T, a threshold column, as `dpmargin predict --threshold T`).
  assert.equal(await page.isVisible("#threshold-box"), true);
  const rows = predictions.text.trim().split("\n").slice(1).map((line) => line.split(","));
  const scores = rows.map((r) => Number(r[1]));
  const T = Number([...scores].sort((a, b) => a - b)[Math.floor(scores.length * 0.7)].toPrecision(6));
  const positivesBefore = Number(await page.textContent('[data-key="positives"]'));
  await page.evaluate(() => { document.body.dataset.predictState = "moved"; });
  await page.fill("#threshold", String(T));
  await page.dispatchEvent("#threshold", "change");
  await page.waitForSelector("body[data-predict-state=done]");
  assert.equal(await page.getAttribute("#predict-output", "data-threshold"), String(T));
  const called = scores.map((x) => x >= T);
  assert.equal(Number(await page.textContent('[data-key="positives"]')), called.filter(Boolean).length);
  assert.notEqual(called.filter(Boolean).length, positivesBefore, "the threshold changes the predictions");
  assert.match(await page.textContent("#predict-summary"), /predicted yes \(score ≥ [-\d.e+]+\)/);
  const moved = await downloadText("#download-predictions");
  assert.equal(moved.text, ["row,score,outcome=yes,threshold",
    ...rows.map((r, i) => `${r[0]},${r[1]},${called[i] ? 1 : 0},${T}`)].join("\n") + "\n");
  // The yardsticks are those of the moved decision: accuracy against the file's label column.
  const truth = readFileSync(clinic, "utf8").trim().split(/\r?\n/).slice(1).map((line) => line.split(",")[2] === "yes");
  assert.equal(truth.length, called.length);
  const correct = called.filter((c, i) => c === truth[i]).length;
  assert.equal(Number(await page.getAttribute('[data-key="predict-accuracy"]', "data-value")), correct / truth.length);
  // The CLI writes the same file with --threshold (issue 29 item 9).
  assert.equal(moved.text, runCli("predict", join(scratch, "app-model.json"), clinic, "--threshold", String(T)));
  await page.click("#threshold-reset");
  await page.waitForFunction(() => document.getElementById("predict-output").dataset.threshold === "");
  assert.equal((await downloadText("#download-predictions")).text, predictions.text);

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
  // The total now and with this run, by the package's composition (the CLI's --ledger rule).
  assert.match(await page.textContent("#retrain-text"),
    /1 run on this file in this browser: in total ε = 1, δ = 1e-5 .*spends ε = 2, δ = 1e-5 more: the total becomes about ε = [\d.]+, δ = 2e-5/s);
  await screenshot(page, "app-retrain-warning");
  await page.click("#retrain-cancel");
  assert.equal(await train(), "done");
  assert.equal(await page.getAttribute("#file-ledger", "data-runs"), "2");
  // Both runs are Gaussian DP: the package composes them exactly (μ = √(μ₁² + μ₂²)), below
  // the basic composition's Σε = 3.
  const total = { epsilon: Number(await page.getAttribute("#file-ledger", "data-epsilon")), delta: Number(await page.getAttribute("#file-ledger", "data-delta")) };
  assert.equal(total.delta, 2e-5);
  assert.ok(total.epsilon > 1 && total.epsilon < 3, `ε total ${total.epsilon}`);
  assert.equal(Number(await page.getAttribute("#file-ledger", "data-basic-epsilon")), 3);
  const ledgerText = await page.textContent("#file-ledger-total");
  assert.match(ledgerText, /^2 runs on this file in this browser: in total ε = [\d.]+, δ = 2e-5 \(the package's composition, as dpmargin train --ledger keeps it: 2 Gaussian-DP runs composed exactly, μ = [\d.]+; adding every run's ε would say 3\)/);
  // The ledger is keyed by the SHA-256 of the file's bytes, computed in the browser; what it
  // stores is the package's ledger file, which the package composes to the total shown.
  const sha = createHash("sha256").update(bytes).digest("hex");
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("dpmargin.ledger.v2")));
  assert.equal(stored[sha].ledger.format, "dpmargin-ledger");
  assert.deepEqual(stored[sha].ledger.runs.map((e) => e.epsilon), [1, 2]);
  assert.deepEqual(stored[sha].notes.map((n) => n.outcome), ["finished", "finished"]);
  const dp = await load();
  assert.equal(dp.ledgerFromJSON(stored[sha].ledger).total.epsilon, total.epsilon);
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
  // Multiclass: the macro AUC, no single ROC curve. The default is ONE joint model (issue 31):
  // the results per class, the confusion matrix and the macro metrics say so, never one-vs-rest.
  assert.ok(Number(await dataValue("roc-auc")) > 0.5);
  assert.match(await page.textContent('#result-summary dd[data-key="roc-auc"]'), /macro over the 3 classes, one joint model/);
  assert.match(await page.textContent('#result-summary dd[data-key="f1"]'), /macro over the classes, one joint model/);
  assert.match(await page.textContent("#per-class-table caption"), /one joint model/);
  assert.match(await page.textContent("#confusion-which"), /one joint model/);
  for (const where of ["#result-summary", "#per-class", "#confusion-which", "#weights-table caption", "#released-list", "#ledger"]) {
    assert.doesNotMatch(await page.textContent(where), /one-vs-rest/, where);
  }
  assert.equal(await page.isVisible("#roc-box"), false);
  assert.match(await page.textContent("#ledger"), /one joint model over 3 classes \(hinge loss\) at μ_train/);
  assert.match(await page.textContent('#result-summary dd[data-key="classes"]'), /3 \(one joint model\)/);
  assert.match(await page.textContent("#weights-table thead"), /weight: east.*weight: north.*weight: west/);
  const report = JSON.parse((await downloadText("#download-report-json")).text);
  assert.deepEqual(report.model.label.classes, ["east", "north", "west"]);
  assert.equal(report.report.perClass, null);  // the joint model: one selection record
  assert.equal(report.report.plan.multiclass, "joint");
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
  // The yardsticks of a multiclass model on a labelled file; no threshold (the largest score wins).
  assert.match(await page.textContent('#predict-metrics dd[data-key="predict-roc-auc"]'), /macro over the 3 classes, one joint model/);
  assert.equal(await page.isVisible("#threshold-box"), false);
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

test("auto on a large table chooses among three margins: the results show the three noisy scores and say why", async () => {
  await page.click("#tab-train");
  // 15,000 rows, 12,000 of them for training: at ε = 4, n·μ_train clears auto's 8,000 and the
  // plan selects (plan.selects) — the core's rule, stated in its sentence.
  let state = 31;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const rows = ["u,v,w,target"];
  for (let i = 0; i < 15000; i++) {
    const x = [next() * 2 - 1, next() * 2 - 1, next() * 2 - 1];
    rows.push([...x.map((v) => v.toFixed(4)), x[0] + 0.5 * x[1] + 0.3 * (next() - 0.5) > 0 ? 1 : 0].join(","));
  }
  assert.equal(await upload({ name: "large.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) }), "loaded");
  assert.equal(await page.inputValue("#label-column"), "target");
  await openAdvanced();
  await page.selectOption("#train-selector", "");
  await setField("#seed", "");
  await page.selectOption("#test-fraction", "0.2");
  await page.click('button.preset[data-epsilon="4"]');
  assert.equal(await train(), "done");
  const dd = '#result-summary dd[data-key="selection"]';
  assert.equal(await page.getAttribute(dd, "data-value"), "true");
  assert.match(await page.textContent(dd),
    /^A choice among three margins around the public γ₀ = [\d.]+ \([\d.]+, [\d.]+ and [\d.]+\): the one with the smallest noisy error count is released\. It pays here: .* at n = 12,000 rows and ε = 4 that noise is [\d,.]+ errors/);
  assert.equal(await page.textContent("#chart-heading"), "Noisy score of every margin γ");
  assert.equal(await page.isVisible("#score-chart canvas"), true, "the three noisy scores are charted");
  const candidates = await page.$$eval("#candidates-table tbody tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.equal(candidates.length, 3);
  assert.equal(candidates.filter((r) => r[6] === "selected").length, 1);
  for (const r of candidates) assert.match(r[5], /^-?[\d.]+(e[-+]\d+)?$/, `a noisy score: ${r.join(" | ")}`);
  assert.match(await page.textContent('#result-summary dd[data-key="gamma"]'), /selected among auto's three margins around γ₀/);
  const report = JSON.parse((await downloadText("#download-report-json")).text).report;
  assert.equal(report.plan.selects, true);
  assert.equal(report.candidates.filter((c) => typeof c.noisyScore === "number").length, 3);
  await screenshot(page, "app-auto-selects");
});

test("an imbalanced label: balanced accuracy and ROC AUC lead; an accuracy at the majority rate is flagged, in the results and in Predict", async () => {
  await page.click("#tab-train");
  // 2,000 rows, 5% "bad", features that say nothing: no model beats always answering "not bad".
  let state = 77;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const rows = ["p,q,r,outcome"];
  for (let i = 0; i < 2000; i++) rows.push(`${next().toFixed(4)},${next().toFixed(4)},${next().toFixed(4)},${i % 20 === 7 ? "bad" : "good"}`);
  const csvPath = join(scratch, "imbalanced.csv");
  writeFileSync(csvPath, rows.join("\n"));
  assert.equal(await upload(csvPath), "loaded");
  assert.equal(await page.inputValue("#label-column"), "outcome");
  await declarePositive("bad");
  await openAdvanced();
  await page.selectOption("#train-selector", "");
  await setField("#seed", 5);
  await page.selectOption("#test-fraction", "0");
  await page.click('button.preset[data-epsilon="1"]');
  assert.equal(await train(), "done");
  const terms = await page.$$eval("#result-summary dt", (dts) => dts.map((d) => d.textContent));
  assert.match(terms[0], /^balanced accuracy/, terms.join(" | "));
  assert.match(terms[1], /^ROC AUC/, terms.join(" | "));
  assert.equal(Number(await dataValue("majority-rate")), 0.95);
  assert.match(await page.textContent('#result-summary dd[data-key="majority-rate"]'), /always “not bad”\) — an imbalanced label: .*balanced accuracy and ROC AUC come first/);
  const accuracy = Number(await dataValue("train-accuracy"));
  assert.ok(accuracy <= 0.95, `accuracy ${accuracy} on features that say nothing`);
  assert.match(await page.textContent('#result-summary dd[data-key="train-accuracy"]'), /— at or under the majority-class rate: no better than always answering “not bad”/);
  assert.equal(await page.isVisible("#accuracy-warning"), true);

  await page.click("#use-in-predict");
  await page.setInputFiles("#predict-file", csvPath);
  await page.waitForSelector("body[data-predict-state=done]");
  const predictTerms = await page.$$eval("#predict-metrics dt", (dts) => dts.map((d) => d.textContent));
  assert.deepEqual(predictTerms.slice(0, 4), ["balanced accuracy (this file, not private)", "ROC AUC (this file, not private)",
    "accuracy (this file, not private)", "majority-class rate (this file, not private)"]);
  assert.equal(Number(await page.getAttribute('[data-key="predict-majority-rate"]', "data-value")), 0.95);
  assert.match(await page.textContent('[data-key="predict-accuracy"]'), /at or under the majority-class rate: no better than always answering “not bad”/);
  assert.equal(await page.isVisible("#predict-warning"), true);
  assert.match(await page.textContent("#predict-warning"), /not above the majority-class rate \+ 1 point \(95\.00%: always answering “not bad”\)/);
  // A threshold above every score: no row is called “bad”, and the page says so (“0 predicted
  // bad” must not pass silently), next to the majority flag.
  await page.evaluate(() => { document.body.dataset.predictState = "moved"; });
  await page.fill("#threshold", "1e9");
  await page.dispatchEvent("#threshold", "change");
  await page.waitForSelector("body[data-predict-state=done]");
  assert.equal(await page.textContent('[data-key="positives"]'), "0");
  assert.equal(await page.getAttribute("#predict-warning", "data-one-class"), "true");
  assert.match(await page.textContent("#predict-warning"), /^Warning: all 2000 rows are predicted “not bad”: on this file the model does not tell the classes apart/);
  assert.equal(Number(await page.getAttribute('[data-key="predict-accuracy"]', "data-value")), 0.95);
  await page.click("#threshold-reset");
  await page.waitForFunction(() => document.getElementById("predict-output").dataset.threshold === "");
  await screenshot(page, "app-predict-imbalanced");
  await page.click("#tab-train");
  await setField("#seed", "");
});

test("one ledger rule: the same runs give the app and `dpmargin train --ledger` the same ledger and total", async () => {
  await page.click("#tab-train");
  const bytes = unlabelledCsv(900000 + (Date.now() % 100000), 300);   // fresh bytes: a ledger of its own
  const csvPath = join(scratch, "ledger-runs.csv");
  writeFileSync(csvPath, bytes);
  const sha = createHash("sha256").update(bytes).digest("hex");
  assert.equal(await upload(csvPath), "loaded");
  await page.selectOption("#label-column", "flag");
  await page.selectOption("#test-fraction", "0");
  const schemaPath = join(scratch, "ledger-schema.json");
  writeFileSync(schemaPath, (await downloadText("#schema-export")).text);
  await openAdvanced();
  await page.selectOption("#workers", "1");
  const cliLedger = join(scratch, "cli-ledger.json");
  // Gaussian-DP runs (auto, iter) compose exactly; PrivTune's (ε, δ) adds: the core's rule.
  const runs = [
    { selector: "", epsilon: "1", flags: [] },
    { selector: "iter", epsilon: "0.5", flags: ["--selector", "iter"] },
    { selector: "privtune", epsilon: "2", flags: ["--selector", "privtune"] },
  ];
  let printed = "";
  for (const [i, run] of runs.entries()) {
    await page.selectOption("#train-selector", run.selector);
    await setField("#train-epsilon", run.epsilon);
    await setField("#seed", 11);
    assert.equal(await train(), "done");
    const r = spawnSync(process.execPath, [cli, "train", csvPath, "--schema", schemaPath, "--epsilon", run.epsilon, "--delta", "1e-5",
      "--seed", "11", ...run.flags, "--ledger", cliLedger, "--out", join(scratch, `ledger-model-${i}.json`)], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    printed = r.stderr;
  }
  const stored = await page.evaluate((key) => JSON.parse(localStorage.getItem("dpmargin.ledger.v2"))[key], sha);
  const fromCli = JSON.parse(readFileSync(cliLedger, "utf8"));
  const records = (file) => file.runs.map(({ note: _n, ...run }) => run);
  assert.deepEqual(records(stored.ledger), records(fromCli), "the app records each run as the CLI does");
  assert.equal(stored.ledger.runs.length, 3);
  const dp = await load();
  const total = dp.ledgerFromJSON(fromCli).total;
  assert.equal(total.gdpRuns, 2);
  assert.ok(total.epsilon < total.basicEpsilon);
  assert.equal(Number(await page.getAttribute("#file-ledger", "data-epsilon")), total.epsilon);
  assert.equal(Number(await page.getAttribute("#file-ledger", "data-delta")), total.delta);
  assert.equal(Number(await page.getAttribute("#file-ledger", "data-mu")), total.mu);
  // The CLI's own words on its ledger: the same total as the app's line.
  const cliTotal = /in total ε = ([\d.e+-]+), δ = ([\d.e+-]+)/.exec(printed);
  assert.ok(cliTotal, printed);
  assert.equal(Number(cliTotal[1]), Number(total.epsilon.toPrecision(6)));
  assert.match(await page.textContent("#file-ledger-total"), new RegExp(`^3 runs on this file in this browser: in total ε = ${Number(total.epsilon.toPrecision(6))}, δ = 3e-5 .*2 Gaussian-DP runs composed exactly, μ = [\\d.]+, 1 run added by basic composition`));
  // The app's ledger file is the package's: the CLI reads it (and adds to it).
  const downloaded = await downloadText("#ledger-download");
  assert.match(downloaded.name, /^ledger-runs-ledger-LOCAL\.json$/);
  assert.deepEqual(JSON.parse(downloaded.text), stored.ledger);
  const more = join(scratch, "app-ledger.json");
  writeFileSync(more, downloaded.text);
  const r = spawnSync(process.execPath, [cli, "train", csvPath, "--schema", schemaPath, "--epsilon", "1", "--delta", "1e-5", "--seed", "11",
    "--ledger", more, "--out", join(scratch, "ledger-model-more.json")], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(readFileSync(more, "utf8")).runs.length, 4);
  await setField("#seed", "");
  await page.selectOption("#train-selector", "iter");
  await setField("#train-epsilon", "1");
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
