// examples/static: the package's browser build from a plain static server, no bundler (an import
// map names dist/index.js; load({ locateFile }) finds the .wasm). Serves the repository root.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launchChromium, repoRoot, serveStatic } from "./support.js";

let server, browser;

before(async () => {
  server = await serveStatic(repoRoot, "/", { headers: false });  // an inline import map: not the app
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("examples/static/index.html trains on its embedded table with dist/index.js", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("console", (msg) => { if (msg.type() === "error") errors.push(msg.text()); });
  await page.goto(`${server.url}examples/static/index.html`);
  await page.waitForSelector("body[data-state]", { timeout: 60_000 });
  const status = await page.textContent("#status");
  assert.equal(await page.getAttribute("body", "data-state"), "trained", `${status} ${errors.join("; ")}`);
  const output = await page.textContent("#output");
  assert.match(output, /rows: 200, features: x, y/);
  assert.match(output, /selected margin γ = [\d.e-]+/);
  assert.match(output, /ROC AUC [01]\.\d{3} \(local, not private\)/);
  assert.ok(Number(await page.getAttribute("body", "data-accuracy")) > 0.6, output);
  // Only the repository's own files were requested, the wasm among them.
  assert.ok(server.log.some((r) => /dist\/wasm\/dpmargin_core\.wasm$/.test(r.url)), "the wasm was not fetched");
  assert.ok(server.log.some((r) => /dist\/index\.js$/.test(r.url)));
  assert.deepEqual(errors, [], JSON.stringify(server.log.map((r) => r.url)));
  await page.close();
});
