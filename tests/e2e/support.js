// Shared end-to-end helpers: a static server that logs every request (it also sees script
// loads of nested workers, which Playwright does not report), and a headless Chromium launcher.
import { createServer } from "node:http";
import { readFile, stat, mkdir } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { securityHeaders } from "../../web/security.mjs";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const artifactsDir = join(repoRoot, "test-results");

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json",
  ".svg": "image/svg+xml", ".png": "image/png", ".csv": "text/csv",
};

/**
 * Serve `dir` under `prefix` (e.g. "/some/sub/path/") on 127.0.0.1, logging every request.
 * Every response carries the app's security headers (web/security.mjs: the strict
 * Content-Security-Policy that `npm start` sends), unless `headers: false` (pages that are not
 * the app, e.g. examples/static with its inline import map).
 */
export async function serveStatic(dir, prefix = "/", { headers = true } = {}) {
  const extra = headers ? securityHeaders() : {};
  const log = [];
  const server = createServer(async (req, res) => {
    log.push({ method: req.method, url: req.url, host: req.headers.host });
    try {
      const url = new URL(req.url, "http://localhost");
      if (!url.pathname.startsWith(prefix)) throw new Error("outside prefix");
      let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || "index.html";
      rel = normalize(rel).replace(/^(\.\.[/\\])+/, "");
      let file = join(dir, rel);
      if ((await stat(file)).isDirectory()) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { ...extra, "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, url: origin + prefix, log, close: () => new Promise((r) => server.close(r)) };
}

export async function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-dev-shm-usage"],
  });
}

/** Record every request the page (and its workers, where Playwright sees them) makes. */
export function recordRequests(context) {
  const requests = [];
  context.on("request", (request) => requests.push(request.url()));
  return requests;
}

export async function screenshot(page, name) {
  await mkdir(artifactsDir, { recursive: true });
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
}

/** Screenshot of one element (e.g. a section of the page), for docs. */
export async function screenshotElement(page, selector, name) {
  await mkdir(artifactsDir, { recursive: true });
  await page.locator(selector).screenshot({ path: join(artifactsDir, `${name}.png`) });
}
