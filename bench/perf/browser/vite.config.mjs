// Builds the bench page (bench/perf/browser) against the built package (dist/) into
// build-perf-web/, as the web app is built: the worker is an ES module worker and the wasm file
// is emitted next to the glue. run.sh builds it; chromium_run.mjs serves it.
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here("."),
  base: "./",
  logLevel: "warn",
  resolve: {
    alias: {
      "dpmargin-chunked": here("../../../dist/train/chunked.js"),
      "dpmargin-table": here("../../../dist/csv/table.js"),
      dpmargin: here("../../../dist/index.js"),
    },
  },
  worker: { format: "es" },
  build: { outDir: here("../../../build-perf-web"), emptyOutDir: true, target: "es2022", minify: false },
});
