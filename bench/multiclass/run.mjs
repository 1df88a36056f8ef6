// The multiclass benchmark (docs/design/MULTICLASS_MEASURED.md): every table of make_tables.py, every ε, every
// seed, side by side in one run —
//   joint     dpmargin's default for 3+ classes (one joint model, multiclass hinge)
//   softmax   the joint model with multiclassLoss "softmax"
//   ovr       multiclass "one-vs-rest" (K binary problems at μ_train/√K)
//   opacus    the fair Opacus DP-SGD softmax peer (/work/shared/peers/dp_peer.py --peer opacus-logreg:
//             run at ε/2 and δ/(1 + e^{ε/2}) add/remove, which implies (ε, δ) replace-one)
// dpmargin trains through the package (dist/node.js, wasm) with the classes declared and default
// options but the arm's, δ = 1e-5, seeded (a benchmark, not private releases); test accuracy of
// the argmax on the held-out split. The non-private multinomial logistic regression (the
// ceiling) and the majority rate come from tables.json.
//
//   bash bench/multiclass/prepare.sh                      # once: the tables
//   node bench/multiclass/run.mjs [--seeds 5] [--eps 0.5,1,2,8] [--tables a,b] [--arms joint,…]
//        [--peer-lanes 2] [--reverse] [--summarise-only]
//
// Rows go to bench/results/multiclass-joint.csv (one per run; rows already there for the same
// product, table, arm, ε and seed are skipped, so a run resumes); then the table of mean ± sd
// is written to docs/results/multiclass.md (discussed in docs/design/MULTICLASS_MEASURED.md).
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile } from "../../dist/node.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const dir = arg("dir", join(repo, "bench/.data/multiclass"));
const seeds = Number(arg("seeds", "5"));
const epsilons = arg("eps", "0.5,1,2,8").split(",").map(Number);
const arms = arg("arms", "joint,softmax,ovr,opacus").split(",");
const peer = arg("peer", "/work/shared/peers/dp_peer.py");
const out = join(repo, "bench/results/multiclass-joint.csv");
const doc = join(repo, "docs/results/multiclass.md");
const COMMAND = "node bench/multiclass/run.mjs";
const HEADER = "product,table,arm,epsilon,seed,test_accuracy,seconds\n";
const product = arg("product", "mc-joint-1");

const tables = JSON.parse(readFileSync(join(dir, "tables.json"), "utf8"));
const only = arg("tables", null);
const chosen = only ? tables.filter((t) => only.split(",").includes(t.name)) : tables;
if (!existsSync(out)) writeFileSync(out, HEADER);
const done = new Set(readFileSync(out, "utf8").trim().split("\n").slice(1)
  .map((l) => l.split(",").slice(0, 5).join(",")));

const OPTIONS = {
  joint: {},
  softmax: { multiclassLoss: "softmax" },
  ovr: { multiclass: "one-vs-rest" },
};

const dp = await load();

async function runDp(t, arm, epsilon, seed) {
  const t0 = performance.now();
  const { model } = await dp.trainCsv(csvFile(join(dir, t.train)), { label: t.label, classes: t.classes },
    { epsilon, delta: 1e-5, seed, ...OPTIONS[arm] });
  const p = await model.predictCsv(csvFile(join(dir, t.test)), { label: t.label });
  let ok = 0;
  for (let i = 0; i < p.labels.length; i++) ok += p.labels[i] === p.truth[i] ? 1 : 0;
  return { accuracy: ok / p.labels.length, seconds: (performance.now() - t0) / 1000 };
}

function runPeer(t, epsilon, seed) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn("nice", ["-n", "10", "/usr/bin/python3", peer, join(dir, t.train), join(dir, t.test), "--label", t.label,
      "--epsilon", String(epsilon), "--peer", "opacus-logreg", "--seed", String(seed), "--json"]);
    let stdout = "", stderr = "";
    child.stdout.on("data", (b) => { stdout += b; });
    child.stderr.on("data", (b) => { stderr += b; });
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`dp_peer failed (${code}): ${stderr.slice(-400)}`));
      resolve({ accuracy: JSON.parse(stdout.trim().split("\n").at(-1)).accuracy, seconds: (performance.now() - t0) / 1000 });
    });
  });
}

if (!args.includes("--summarise-only")) {
  const todo = [];
  // ε = 1 and 8 first (the acceptance cells), then the others; seed by seed across tables.
  const order = [...epsilons].sort((a, b) => (b === 1) - (a === 1) || (b === 8) - (a === 8));
  for (const epsilon of order) for (let seed = 1; seed <= seeds; seed++) for (const t of chosen) for (const arm of arms) {
    const key = [product, t.name, arm, epsilon, seed].join(",");
    if (!done.has(key)) todo.push({ t, arm, epsilon, seed, key });
  }
  if (args.includes("--reverse")) todo.reverse();  // a second instance starts from the other end
  console.log(`${todo.length} runs to do`);
  // Lanes: the package trains here while the peer runs in child processes.
  let finished = 0;
  const lane = async (jobsOfLane) => {
    for (const job of jobsOfLane) {
      try {
        const r = job.arm === "opacus" ? await runPeer(job.t, job.epsilon, job.seed) : await runDp(job.t, job.arm, job.epsilon, job.seed);
        appendFileSync(out, `${job.key},${r.accuracy.toFixed(4)},${r.seconds.toFixed(2)}\n`);
      } catch (error) {
        console.error(`${job.key}: ${error.message}`);
      }
      if (++finished % 20 === 0) console.log(`${finished} of ${todo.length}`);
    }
  };
  // The peer is the slow side (~1 min a run on a busy machine): `--peer-lanes` child processes.
  const peerLanes = Number(arg("peer-lanes", "2"));
  const peerJobs = todo.filter((j) => j.arm === "opacus");
  await Promise.all([lane(todo.filter((j) => j.arm !== "opacus")),
    ...Array.from({ length: peerLanes }, (_, k) => lane(peerJobs.filter((_, i) => i % peerLanes === k)))]);
}

// ---- the table ----
// One row per (table, arm, ε, seed): the first (two runs of this script may overlap).
const seen = new Set();
const rows = readFileSync(out, "utf8").trim().split("\n").slice(1).map((l) => l.split(","))
  .filter((r) => r[0] === product && !seen.has(r.slice(1, 5).join()) && seen.add(r.slice(1, 5).join()));
const stats = (xs) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1));
  return { m, sd, n: xs.length };
};
const cell = (table, arm, epsilon) => {
  const xs = rows.filter((r) => r[1] === table && r[2] === arm && Number(r[3]) === epsilon).map((r) => Number(r[5]));
  return xs.length ? stats(xs) : null;
};
// A cell with fewer runs than seeds says how many (a run cut short).
const pct = (s) => (s ? `${(100 * s.m).toFixed(1)} ± ${(100 * s.sd).toFixed(1)}${s.n < seeds ? ` (${s.n})` : ""}` : "—");
const lines = [
  `generated by \`${COMMAND}\` from bench/results/multiclass-joint.csv (product ${product}); do not edit`,
  "",
  `Test accuracy (%), mean ± sd over ${seeds} seeds; δ = 1e-5; classes declared; dpmargin's defaults but the arm's option;`,
  "Opacus: DP-SGD softmax (`dp_peer.py --peer opacus-logreg`, fair: run at ε/2 add/remove); ceiling: non-private",
  "multinomial logistic regression on standardised columns. Δ: joint − Opacus (points). A number in",
  "parentheses: the runs of that cell when fewer than the seeds.",
  "",
];
for (const epsilon of epsilons) {
  lines.push(`**ε = ${epsilon}**`, "", "| table | n train | K | joint (hinge, default) | joint softmax | one-vs-rest | Opacus softmax | Δ joint − Opacus | ceiling (LR) | majority |",
    "|---|---|---|---|---|---|---|---|---|---|");
  const deltas = [];
  for (const t of chosen) {
    const j = cell(t.name, "joint", epsilon), o = cell(t.name, "opacus", epsilon);
    const d = j && o ? 100 * (j.m - o.m) : null;
    if (d !== null) deltas.push(d);
    lines.push(`| ${t.name} | ${t.rows_train} | ${t.classes.length} | ${pct(j)} | ${pct(cell(t.name, "softmax", epsilon))} | ${pct(cell(t.name, "ovr", epsilon))} | ${pct(o)} | ${d === null ? "—" : (d >= 0 ? "+" : "") + d.toFixed(1)} | ${(100 * t.logreg_test).toFixed(1)} | ${(100 * t.majority_test).toFixed(1)} |`);
  }
  const mean = (arm) => {
    const ms = chosen.map((t) => cell(t.name, arm, epsilon)).filter(Boolean).map((s) => s.m);
    return ms.length === chosen.length ? (100 * ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(1) : "—";
  };
  const dm = deltas.length ? deltas.reduce((a, b) => a + b, 0) / deltas.length : null;
  lines.push(`| **mean** | | | ${mean("joint")} | ${mean("softmax")} | ${mean("ovr")} | ${mean("opacus")} | ${dm === null ? "—" : (dm >= 0 ? "+" : "") + dm.toFixed(1)} | ${(100 * chosen.reduce((a, t) => a + t.logreg_test, 0) / chosen.length).toFixed(1)} | |`, "");
}
writeFileSync(doc, `${lines.join("\n").trimEnd()}\n`);
console.log(`table written to docs/results/multiclass.md (${rows.length} rows)`);
