// `npm start` serves the built app with vite preview (scripts/app.sh): the Content-Security-Policy
// must come as a response header on every file — the page, its worker and the wasm — since a
// worker takes its CSP from its own response, not from the page's <meta> (issue 16.7).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("vite preview (npm start) sends the CSP header on the page, the worker and the wasm", async () => {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const server = spawn(process.execPath, [`${root}node_modules/vite/bin/vite.js`, "preview", "--config",
    `${root}web/vite.config.ts`, "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
  { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("vite preview did not start in 30 s")), 30_000);
      server.stdout.on("data", (d) => { if (String(d).includes(String(port))) { clearTimeout(timer); resolve(); } });
      server.on("exit", (code) => reject(new Error(`vite preview exited (${code})`)));
    });
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(
      readFileSync(`${root}web/dist/index.html`, "utf8"))[1];
    const assets = readdirSync(`${root}web/dist/assets`);
    const worker = assets.find((f) => /worker.*\.js$/.test(f));
    const wasm = assets.find((f) => /\.wasm$/.test(f));
    assert.ok(worker && wasm, `assets: ${assets.join(", ")}`);
    for (const path of ["/", `/assets/${worker}`, `/assets/${wasm}`]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get("content-security-policy"), meta, `${path}: the header equals the page's meta`);
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", path);
    }
  } finally {
    server.kill();
  }
});
