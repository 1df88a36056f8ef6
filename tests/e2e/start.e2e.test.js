// The README's first command, as a user runs it: `npm start` (scripts/app.sh: install what is
// missing, build, serve with `vite preview`), then in headless Chromium against that server and
// its headers — the sample → train → predict, and the margin profile. Every file the server
// sends carries the strict Content-Security-Policy (web/security.mjs); a module glue that
// evaluated strings could not start under it, which no other server of the tests would show.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { launchChromium, recordRequests, screenshot, repoRoot } from "./support.js";
import { securityHeaders } from "../../web/security.mjs";

let app;
let origin;
let output = "";
let browser;
let page;
let requests;
const consoleErrors = [];

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

before(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  // `npm start` is `bash scripts/app.sh` (package.json); its own process group, so that the
  // server it execs is stopped with it.
  app = spawn("bash", ["scripts/app.sh"], { cwd: repoRoot, env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"], detached: true });
  app.stdout.on("data", (d) => { output += d; });
  app.stderr.on("data", (d) => { output += d; });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not serve within 10 min:\n${output}`)), 600_000);
    const poll = setInterval(async () => {
      try {
        if ((await fetch(origin + "/")).ok) { clearInterval(poll); clearTimeout(timer); resolve(); }
      } catch { /* not yet */ }
    }, 500);
    app.on("exit", (code) => { clearInterval(poll); clearTimeout(timer); reject(new Error(`npm start exited (${code}):\n${output}`)); });
  });
  browser = await launchChromium();
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  requests = recordRequests(context);
  page = await context.newPage();
  page.on("console", (msg) => { if (msg.type() === "error") consoleErrors.push(msg.text()); });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
});

after(async () => {
  await browser?.close();
  if (app && app.exitCode === null) {
    try { process.kill(-app.pid, "SIGTERM"); } catch { /* gone */ }
  }
});

test("npm start serves the app with its security headers on every file", async () => {
  const html = await (await fetch(origin + "/")).text();
  const expected = securityHeaders();
  const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(assets.length > 0, html);
  for (const path of ["/", ...assets.map((a) => `/${a}`)]) {
    const response = await fetch(origin + path);
    assert.equal(response.status, 200, path);
    for (const [name, value] of Object.entries(expected)) {
      assert.equal(response.headers.get(name), value, `${path}: ${name}`);
    }
  }
});

test("npm start: the engine starts, the sample trains privately, the model predicts", async () => {
  await page.goto(origin + "/");
  await page.waitForSelector("body[data-engine=ready], body[data-engine=failed]", { timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.engine), "ready",
    await page.textContent("#engine-status"));
  // One worker by default, as the package: two were slower in Chromium on the benchmark's real
  // tables and hold 2–3× the memory (docs/reference/SHARDING.md, "Default").
  assert.equal(await page.inputValue("#workers"), "1");
  await page.click('button[data-sample="breast-cancer"]');
  await page.waitForSelector("body[data-data-state=loaded]");
  await page.evaluate(() => { document.body.dataset.trainState = "clicked"; });
  await page.click("#train-button");
  await page.waitForFunction(() => !["running", "clicked"].includes(document.body.dataset.trainState), null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.trainState), "done",
    await page.textContent("#train-error").catch(() => ""));
  assert.equal(await page.getAttribute("#results", "data-seeded"), "false");
  await screenshot(page, "start-results");

  await page.click("#use-in-predict");
  await page.setInputFiles("#predict-file", `${repoRoot}web/public/samples/breast-cancer.csv`);
  await page.waitForSelector("body[data-predict-state=done], body[data-predict-state=error]");
  assert.equal(await page.evaluate(() => document.body.dataset.predictState), "done");
  const accuracy = Number(await page.getAttribute('[data-key="predict-accuracy"]', "data-value"));
  assert.ok(accuracy > 0.6 && accuracy <= 1, `accuracy ${accuracy}`);
  await screenshot(page, "start-predict");
});

test("npm start: the margin profile runs in the served app", async () => {
  await page.click("#tab-profile");
  await page.click("#profile-run");
  await page.waitForFunction(() => document.body.dataset.profile, null, { timeout: 120_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.profile), "done",
    await page.textContent("#profile-error").catch(() => ""));
  assert.ok(await page.$("#profile-chart canvas"), "the curve is drawn");
});

test("npm start: nothing left the origin, and the console stayed clean", () => {
  const foreign = requests.filter((u) => !u.startsWith(origin + "/") && !/^(data|blob):/.test(u));
  assert.deepEqual(foreign, []);
  assert.deepEqual(consoleErrors, []);
});
