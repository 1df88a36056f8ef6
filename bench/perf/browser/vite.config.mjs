// Builds the bench page (bench/perf/browser) against the built package (dist/) into
// build-perf-web/, as the web app is built: the worker is an ES module worker and the wasm file
// is emitted next to the glue. run.sh builds it; chromium_run.mjs serves it.
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
// PERF_DIST / PERF_OUT: build the page against another build of the package, elsewhere (the
// margin-profile benchmark's "before": profile_bench.mjs --before).
const dist = process.env.PERF_DIST ?? here("../../../dist");

export default defineConfig({
  root: here("."),
  base: "./",
  logLevel: "warn",
  resolve: {
    alias: {
      "dpmargin-chunked": `${dist}/train/chunked.js`,
      "dpmargin-table": `${dist}/csv/table.js`,
      dpmargin: `${dist}/index.js`,
    },
  },
  worker: { format: "es" },
  build: { outDir: process.env.PERF_OUT ?? here("../../../build-perf-web"), emptyOutDir: true, target: "es2022", minify: false },
});
