// The full web app, built by Vite and served from a sub-path by a plain logging static server,
// in headless Chromium: upload → pick columns → train in the worker (compared with the CLI,
// exactly, on a seeded run) → results, downloads, predict; cancel; typed errors inline; the
// shipped sample trained privately; 360 px layout; offline; and no request leaves the origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
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

/** Click Train and wait until the run ends; returns the final state. */
async function train() {
  await page.click("#train-button");
  await page.waitForFunction(() => document.body.dataset.trainState !== "running", null, { timeout: 120_000 });
  return page.evaluate(() => document.body.dataset.trainState);
}

async function downloadText(selector) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(selector)]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), "utf8") };
}

const dataValue = (key) => page.getAttribute(`#result-summary dd[data-key="${key}"]`, "data-value");

// ---------- tests ----------

test("the clinic fixture: preview, column pickers, and a seeded run equal to the CLI's", async () => {
  assert.equal(await upload(clinic), "loaded");
  assert.match(await page.textContent("#data-summary"), /300 rows × 5 columns, comma-separated/);
  const head = await page.$$eval("#preview-table thead tr:first-child th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(head, ["line", "age", "dose, mg", "outcome", "score", "marker"]);
  const types = await page.$$eval("#preview-table tr.types td", (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(types, ["numeric", "numeric", "label", "numeric", "numeric"]);
  assert.equal(await page.inputValue("#label-column"), "outcome", "the label column is guessed by name");
  await page.selectOption("#positive-class", "yes");
  const features = await page.$$eval('input[name="feature"]:checked', (xs) => xs.map((x) => x.value));
  assert.deepEqual(features, ["age", "dose, mg", "score", "marker"]);

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
  assert.equal(await train(), "done");

  const expected = JSON.parse(runCli("train", clinic, "--label", "outcome", "--positive", "yes",
    "--epsilon", "2", "--delta", "1e-5", "--seed", "7", "--private-ranges", "--json", "--out", join(scratch, "cli-model.json")));
  assert.equal(expected.seeded, true);
  assert.equal(Number(await dataValue("gamma")), expected.selectedMargin);
  assert.equal(Number(await dataValue("train-accuracy")), expected.trainAccuracy);
  assert.equal(await dataValue("test-accuracy"), "");

  // Every released number, and the model file itself, are the CLI's.
  const report = await downloadText("#download-report-json");
  assert.match(report.name, /^clinic-privacy-report-SEEDED-not-private\.json$/);
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

  // Seeded: red badge on the results, the ledger and the downloads.
  const badges = await page.$$eval("#results [data-seeded]", (xs) => xs.filter((x) => !x.hidden).length);
  assert.equal(badges, 3);
  assert.match(await page.textContent('#ledger tr[data-key="seeded"]'), /seeded — not private/);
  assert.equal(await page.isVisible("#score-chart canvas"), true);
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

  // A non-numeric cell: the column reads as text and is left out; ticking it names line and column.
  const text = readFileSync(clinic, "utf8").split("\r\n");
  text[5] = text[5].replace(/^[^,]+/, "n/a");
  assert.equal(await upload({ name: "typo.csv", mimeType: "text/csv", buffer: Buffer.from(text.join("\r\n")) }), "loaded");
  assert.match(await page.textContent("#feature-columns"), /age — text \(line 6: “n\/a”\)/);
  await page.check('input[name="feature"][value="age"]');
  assert.equal(await train(), "error");
  assert.equal(await page.getAttribute("#train-error", "data-code"), "NON_NUMERIC");
  assert.match(await page.textContent("#train-error"), /"n\/a" at line 6, column "age"/);
  await page.uncheck('input[name="feature"][value="age"]');
  assert.equal(await train(), "done");
  assert.equal(await page.isVisible("#train-error"), false);

  assert.equal(await upload(clinic), "loaded");
  assert.equal(await page.isVisible("#data-error"), false);
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
  assert.equal(await page.inputValue("#positive-class"), "1");
  await openAdvanced();
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
  assert.ok(runs >= 8, `one progress bar per candidate (${runs})`);
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
  assert.match(await page.textContent("#feature-count"), /30 of 30 selected/);
  assert.match(await page.textContent("#samples"), /CC BY 4\.0/);
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
  // |Γ| = 10 for n = 455, less the margins pruned by the public noise-floor rule (a few).
  const candidateRows = await page.$$eval("#candidates-table tbody tr", (trs) => trs.length);
  assert.ok(candidateRows >= 6 && candidateRows <= 10, `${candidateRows} candidates`);
  assert.equal(await page.isVisible("#score-chart canvas"), true);
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
    assert.equal(await train(), "done");
  } finally {
    await context.setOffline(false);
  }
});

test("margin profile tab: the non-private diagnostic on the loaded file equals `dpmargin profile`", async () => {
  await page.click("#tab-train");  // earlier tests may leave another tab open
  assert.equal(await upload(clinic), "loaded");
  await page.selectOption("#positive-class", "yes");
  await page.click("#tab-profile");
  assert.match(await page.textContent("#panel-profile"), /not private/i);
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
  assert.ok(await page.$("#profile-chart canvas"), "the curve is drawn");
  await screenshot(page, "app-margin-profile");
  await page.click("#tab-train");
});

test("Workers: 2 — a seeded run with the rows split over two nested shard workers equals the one-worker run", async () => {
  assert.equal(await upload(clinic), "loaded");
  await page.selectOption("#positive-class", "yes");
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
  assert.deepEqual(consoleErrors, []);
});
