import { readFileSync } from "node:fs";
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const vectors = JSON.parse(
  readFileSync(new URL("../reference/accounting-vectors.json", import.meta.url), "utf8"),
);

/** |actual − expected| ≤ tol·|expected| (absolute near 0). */
export function expectRelative(actual, expected, tol = 1e-10, what = "") {
  const e = Number(expected);
  const scale = Math.max(Math.abs(e), Number.MIN_VALUE);
  const rel = Math.abs(actual - e) / scale;
  if (!(rel <= tol)) {
    throw new Error(`${what}: expected ${expected}, got ${actual} (relative error ${rel})`);
  }
}

/** Run the package's bin the way npm would (node dist/cli.js …). */
export function cli(...args) {
  const result = spawnSync(process.execPath, [`${repoRoot}dist/cli.js`, ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The same, asynchronously: several CLI processes can run at once (Promise.all). A process still
 * running after `timeoutMs` is killed and reported as code "SIGKILL" — a hung CLI fails its test
 * instead of keeping Jest (and CI) waiting.
 */
export function runCli(args, timeoutMs = 60_000) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`${repoRoot}dist/cli.js`, ...args]);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => { stdout += d; });
    child.stderr.on("data", (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code, signal) => { clearTimeout(timer); resolve({ code: code ?? signal, stdout, stderr }); });
  });
}

/** Run every argument list, `parallel` processes at a time; results in the same order. */
export async function runClis(list, parallel = 3) {
  const out = new Array(list.length);
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await runCli(list[i]);
    }
  }));
  return out;
}
