// Multiclass accuracy benchmark (docs/MULTICLASS.md): one-vs-rest training through the package
// (wasm, Node) on the tables of make_tables.py, default options, δ = 1e-5, seeded runs (a
// benchmark, not private releases), test accuracy of the argmax.
//   /usr/bin/python3 bench/multiclass/make_tables.py      # once: the CSVs and tables.json
//   node bench/multiclass/run.mjs [DIR] [SEEDS=3] [EPSILONS=0.5,1,2]
// Appends one line per run to bench/results/multiclass.csv and prints mean ± sd per table and ε.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { load, csvFile } from "../../dist/node.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const dir = process.argv[2] ?? join(repo, "bench/.data/multiclass");
const seeds = Number(process.argv[3] ?? 3);
const epsilons = (process.argv[4] ?? "0.5,1,2").split(",").map(Number);
const out = join(repo, "bench/results/multiclass.csv");
if (!existsSync(out)) writeFileSync(out, "table,classes,rows_train,epsilon,seed,test_accuracy,seconds\n");

const dp = await load();
const tables = JSON.parse(readFileSync(join(dir, "tables.json"), "utf8"));
const summary = [];
for (const t of tables) {
  for (const epsilon of epsilons) {
    const accs = [];
    for (let seed = 1; seed <= seeds; seed++) {
      const t0 = performance.now();
      const { model } = await dp.trainCsv(csvFile(join(dir, t.train)), { label: "label", classes: t.classes },
        { epsilon, delta: 1e-5, seed });
      const p = await model.predictCsv(csvFile(join(dir, t.test)), { label: "label" });
      let ok = 0;
      for (let i = 0; i < p.labels.length; i++) ok += p.labels[i] === p.truth[i] ? 1 : 0;
      const acc = ok / p.labels.length;
      const seconds = (performance.now() - t0) / 1000;
      accs.push(acc);
      appendFileSync(out, `${t.name},${t.classes.length},${t.rows_train},${epsilon},${seed},${acc.toFixed(4)},${seconds.toFixed(1)}\n`);
    }
    const mean = accs.reduce((a, b) => a + b, 0) / accs.length;
    const sd = Math.sqrt(accs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, accs.length - 1));
    summary.push({ table: t.name, classes: t.classes.length, epsilon, mean, sd, logreg: t.logreg_test, majority: t.majority_test });
    console.log(`${t.name} (${t.classes.length} classes) ε = ${epsilon}: ${mean.toFixed(3)} ± ${sd.toFixed(3)} `
      + `(non-private logistic regression ${t.logreg_test.toFixed(3)}, majority ${t.majority_test.toFixed(3)})`);
  }
}
