// The plan tab of the app, built by Vite and served from a sub-path by a plain static server, in headless
// Chromium: enter ε/δ/n/d, read the plan computed by the wasm module in a Web Worker, and fail
// if any request leaves the page's own origin.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { serveStatic, launchChromium, recordRequests, screenshot, repoRoot } from "./support.js";

let server;
let browser;
let context;
let page;
let requests;
const consoleErrors = [];

before(async () => {
  server = await serveStatic(join(repoRoot, "web/dist"), "/some/sub/path/");
  browser = await launchChromium();
  context = await browser.newContext();
  requests = recordRequests(context);
  page = await context.newPage();
  page.on("console", (msg) => { if (msg.type() === "error") consoleErrors.push(msg.text()); });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  await page.goto(server.url);
  await page.waitForSelector("body[data-loaded=true]");
  await page.click("#tab-plan");  // the plan is a tab of the app
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function computePlan({ epsilon, delta, n, d, calibration = "tight", selector = "" }) {
  await page.selectOption("#selector", selector);  // "": the core's default (auto with tight)
  await page.fill("#epsilon", String(epsilon));
  await page.fill("#delta", String(delta));
  await page.fill("#n", String(n));
  await page.fill("#d", String(d));
  await page.selectOption("#calibration", calibration);
  await page.click("#compute");
  await page.waitForFunction(() => document.body.dataset.ready === "true");
  await page.evaluate(() => { delete document.body.dataset.ready; });
}

test("the default plan (auto): one run at the public margin, in the worker", async () => {
  await computePlan({ epsilon: 1, delta: "1e-5", n: 1000, d: 50 });
  assert.match(await page.textContent('dd[data-key="mu"]'), /^0\.268051/);
  const rows = await page.$$eval("#plan-table tbody tr", (trs) => trs.length);
  assert.equal(rows, 1);
});

test("the plan says in plain words whether n is large enough, with a coloured verdict", async () => {
  await computePlan({ epsilon: 1, delta: "1e-5", n: 1000, d: 50 });
  const advice = page.locator('#plan-output [data-key="advice"]');
  const badge = page.locator("#plan-output .badge-verdict");
  // Auto at n = 1000, d = 50: the noise is 3.5× the signal; about 13,000 rows would do.
  assert.match(await advice.textContent(), /With n = 1,000 rows at ε = 1 the noise is 3\.5× the signal: expect a noisy model/);
  assert.match(await advice.textContent(), /About 13,000 rows, or ε ≈ [\d.]+ at this n, would bring it to the signal's level/);
  assert.equal(await advice.getAttribute("data-verdict"), "marginal");
  assert.equal(await badge.textContent(), "marginal");
  await screenshot(page, "plan-advice");
  await computePlan({ epsilon: 0.05, delta: "1e-5", n: 10, d: 50 });
  assert.equal(await advice.getAttribute("data-verdict"), "bad");
  assert.equal(await badge.textContent(), "too little data");
  assert.match(await advice.textContent(), /expect little better than the majority class/);
  await computePlan({ epsilon: 1, delta: "1e-8", n: 1000000, d: 50 });
  assert.equal(await advice.getAttribute("data-verdict"), "good");
  assert.equal(await badge.textContent(), "good");
  assert.match(await advice.textContent(), /With n = 1,000,000 rows at ε = 1 .*enough for the model to learn/);
});

test("computes the tight Iter plan for ε=1, δ=1e-5, n=1000, d=50 in the worker", async () => {
  await computePlan({ epsilon: 1, delta: "1e-5", n: 1000, d: 50, selector: "iter" });
  const mu = await page.textContent('dd[data-key="mu"]');
  assert.match(mu, /^0\.268051/);
  const rows = await page.$$eval("#plan-table tbody tr", (trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.equal(rows.length, 11);              // the whole grid Γ, pruned margins included
  assert.equal(Number(rows[0][0]), 0.001);   // γ = b/n
  assert.equal(Number(rows[10][0]), 1);       // γ = b
  const pruned = rows.filter((r) => r.length === 2);
  assert.ok(pruned.length >= 1 && pruned.every((r) => /^pruned/.test(r[1])), "the smallest margins are pruned");
  assert.match(await page.textContent('dd[data-key="candidates"]'), new RegExp(`^${11 - pruned.length} of 11`));
  const kept = rows.filter((r) => r.length > 2);
  assert.ok(kept.every((r) => r[4] === "no"), "k_γ ≥ d for every γ: no projection");
  await screenshot(page, "plan-tight");
});

test("paper calibration reproduces μ = 0.104198…", async () => {
  await computePlan({ epsilon: 1, delta: "1e-5", n: 1000, d: 50, calibration: "paper" });
  assert.match(await page.textContent('dd[data-key="mu"]'), /^0\.104198/);
});

test("a bad parameter shows a named error inline; the page keeps working", async () => {
  await computePlan({ epsilon: -1, delta: "1e-5", n: 1000, d: 50 });
  const error = page.locator("#plan-error");
  assert.equal(await error.isVisible(), true);
  assert.match(await error.textContent(), /epsilon must be/);
  assert.equal(await error.getAttribute("data-code"), "BAD_PARAMETER");
  await screenshot(page, "plan-error");
  await computePlan({ epsilon: 2, delta: "1e-6", n: 100000, d: 784, selector: "iter" });
  assert.equal(await error.isVisible(), false);
  const rows = await page.$$eval("#plan-table tbody tr", (trs) => trs.length);
  assert.equal(rows, 18);
});

test("only same-origin requests, including the worker and the wasm (server log)", async () => {
  assert.ok(requests.length > 0);
  for (const url of requests) {
    assert.ok(url.startsWith(server.origin + "/") || url.startsWith("data:") || url.startsWith("blob:"),
      `request left the origin: ${url}`);
  }
  const served = server.log.map((r) => r.url);
  assert.ok(served.some((u) => /\.wasm$/.test(u)), `wasm not served: ${served.join(", ")}`);
  assert.ok(served.some((u) => /worker.*\.js$/.test(u)), `worker not served: ${served.join(", ")}`);
  assert.ok(server.log.every((r) => r.host === new URL(server.origin).host));
  const csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', "content");
  assert.match(csp, /connect-src 'self'(;|$)/);
  assert.deepEqual(consoleErrors, []);
});
