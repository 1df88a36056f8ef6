// The margin profile's speed (docs/design/MARGIN_PROFILE_MEASURED.md, "Speed"): native, Node (wasm) and
// headless Chromium (the package in a module worker, as the app runs it), each configuration in a
// fresh process / browser, repeated, interleaved (rep 1: every env and table, then rep 2, …) so
// that all see the same machine load; medians. NOT private: the profile is a local diagnostic.
//   node bench/perf/profile_bench.mjs [--reps 3] [--tables mpls_stops,syn-26000x100]
//        [--envs native,node,chromium] [--before DIR] [--out bench/results/profile_perf.json]
// (mpls26k: the first 26,000 rows of mpls_stops' train split, made by profile.sh.)
// --before DIR: also time an older checkout DIR (its build-bench/bench/profile_native, its dist/
// for Node, and PERF_SITE=/tmp/perf-web-before for Chromium, the bench page built against it:
// see profile.sh). Tables: syn-N x D (the generator of synthetic.hpp/.mjs; dense) or a prepared
// real table of bench/.data (its train split). Each profile is run with ε = 1, δ = 1e-5 (the
// advice's budget: nothing is spent) and the package's default profile options.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
const reps = Number(opt("reps", "3"));
const tables = opt("tables", "mpls26k,syn-26000x100").split(",");
const envs = opt("envs", "native,node,chromium").split(",");
const before = opt("before", null);
const outPath = opt("out", join(repo, "bench/results/profile_perf.json"));
const dataDir = process.env.DPMARGIN_BENCH_DATA ?? join(repo, "bench/.data");

const table = (name) => {
  const m = /^syn-(\d+)x(\d+)$/.exec(name);
  return m ? { kind: "synthetic", n: Number(m[1]), d: Number(m[2]) } : { kind: "real", name };
};
const nativeBin = (root) => [join(root, "build-bench/bench/profile_native"), join(root, "build/bench/profile_native")]
  .find((p) => existsSync(p));

function runNative(root, t) {
  const bin = nativeBin(root);
  if (!bin) return { error: `no profile_native under ${root} (build-bench/ or build/)` };
  const arg = t.kind === "synthetic" ? `synthetic=${t.n},${t.d}` : `train=${join(dataDir, `${t.name}_train.csv`)}`;
  const r = JSON.parse(execFileSync(bin, [arg, "eps=1", "delta=1e-5"], { encoding: "utf8", maxBuffer: 1 << 26 }));
  return { n: r.n, fits: r.fits, separable: r.separable, firstSeparableRemoved: r.firstSeparableRemoved,
    lastMargin: r.grid.at(-1).margin, lastMinimumMargin: r.grid.at(-1).minimumMargin, verdict: r.verdict ?? null,
    profileSeconds: r.profileSeconds, cpuSeconds: r.cpuSeconds, rowVisits: r.rowVisits };
}
function runNode(root, t) {
  const cfg = { table: t, ...(root !== repo ? { dist: join(root, "dist") } : {}) };
  return JSON.parse(execFileSync(process.execPath, [join(repo, "bench/perf/profile_node.mjs"), JSON.stringify(cfg)],
    { encoding: "utf8", maxBuffer: 1 << 26 }));
}
function runChromium(root, t) {
  const env = { ...process.env, ...(root !== repo ? { PERF_SITE: process.env.PERF_SITE_BEFORE ?? "/tmp/perf-web-before" } : {}) };
  const out = execFileSync(process.execPath, [join(repo, "bench/perf/chromium_run.mjs"), JSON.stringify([{ mode: "profile", table: t }])],
    { encoding: "utf8", env, maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "ignore"] });
  return JSON.parse(out)[0];
}
const RUN = { native: runNative, node: runNode, chromium: runChromium };

const versions = [["after", repo], ...(before ? [["before", before]] : [])];
const runs = [];
for (let rep = 1; rep <= reps; rep++) {
  for (const name of tables) {
    for (const env of envs) {
      for (const [version, root] of versions) {
        const load = loadavg()[0];
        let r;
        try {
          r = RUN[env](root, table(name));
        } catch (error) {
          r = { error: String(error?.message ?? error).slice(0, 300) };
        }
        runs.push({ ...r, rep, table: name, env, version, load1: load });
        process.stderr.write(`[profile] rep ${rep} ${name} ${env} ${version}: ${r.error ?? `${r.profileSeconds?.toFixed(2)} s, ${r.fits} fits, ${r.verdict ?? (r.separable ? "separable" : "not separable")}`}\n`);
      }
    }
  }
}

const median = (xs) => { const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null; };
const summary = [];
for (const name of tables) for (const env of envs) for (const [version] of versions) {
  const rs = runs.filter((r) => r.table === name && r.env === env && r.version === version && !r.error);
  if (!rs.length) continue;
  summary.push({ table: name, env, version, runs: rs.length, n: rs[0].n, fits: rs[0].fits,
    medianSeconds: median(rs.map((r) => r.profileSeconds)), medianCpuSeconds: median(rs.map((r) => r.cpuSeconds)),
    seconds: rs.map((r) => r.profileSeconds), verdict: rs[0].verdict, separable: rs[0].separable,
    firstSeparableRemoved: rs[0].firstSeparableRemoved, lastMinimumMargin: rs[0].lastMinimumMargin });
}
mkdirSync(dirname(outPath), { recursive: true });
writeFileSync(outPath, JSON.stringify({ date: new Date().toISOString(), reps, tables, envs, before, runs, summary }, null, 1) + "\n");
const f = (x) => (x === null || x === undefined ? "–" : x.toFixed(2));
console.log("| table | env | version | n | fits | median s (wall) | median CPU s | runs (s) | result |");
console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
for (const s of summary) {
  console.log(`| ${s.table} | ${s.env} | ${s.version} | ${s.n} | ${s.fits} | ${f(s.medianSeconds)} | ${f(s.medianCpuSeconds)} | ${s.seconds.map(f).join(", ")} | ${s.verdict ?? (s.separable ? `separable after ${s.firstSeparableRemoved}` : "not separable")} |`);
}
