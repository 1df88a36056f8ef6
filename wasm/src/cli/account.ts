// `dpmargin account`: the plan of a run from n and d only (no data), as text or JSON.
import { epsilonMeaning, deltaWarning, type Plan, type DpMargin } from "../node.js";
import { COMMAND_FLAGS, flagsOf } from "./help.js";
import { optionFlags, parse, runOptions } from "./flags.js";
import { adviceLine, formatNumber } from "./summary.js";

function printPlan(plan: Plan): void {
  const lines: string[] = [];
  lines.push(`dpmargin plan — ${plan.selector} selection, ${plan.calibration} calibration, ${plan.score} score`);
  lines.push(`  (ε, δ) = (${plan.epsilon}, ${plan.delta}), replace-one neighbours, n = ${plan.n}, d = ${plan.d}, b = ${plan.normBound}`);
  lines.push(`  μ total = ${formatNumber(plan.mu, 10)}   μ per run = ${formatNumber(plan.muRun, 10)}   score noise sd = ${formatNumber(plan.scoreSd)}`);
  if (plan.multiclass === "joint") {
    lines.push(`  ${plan.classes} classes: one joint model on ${plan.classes} × k weights (${plan.multiclassLoss === "softmax" ? "softmax" : "multiclass hinge"}), the whole training budget; Delta = 2√2·R/c`);
  } else if (plan.multiclass === "one-vs-rest") {
    lines.push(`  ${plan.classes} classes: one-vs-rest, ${plan.classes} binary problems at μ per class = ${formatNumber(plan.muClass!, 10)}`);
  }
  lines.push(`  ${epsilonMeaning(plan.epsilon)}`);
  lines.push(`  ${adviceLine(plan)}`);
  lines.push(`  ε spent (recomputed from μ) = ${formatNumber(plan.epsilonSpent, 10)}   JL failure β = ${formatNumber(plan.jlFailure)}`);
  if (plan.selector === "privtune") {
    lines.push(`  E[K] = ${plan.expectedRuns}   TNB η = ${plan.tnbEta}, r = ${formatNumber(plan.tnbR!)}   P(a candidate is never tried) = ${formatNumber(plan.probabilityMiss!)}`);
  }
  const header = ["gamma", "c", "Delta", "k_jl", "projected", "k", "T", "sigma", "eta"];
  const rows = plan.candidates.map((c) => [
    formatNumber(c.gamma), formatNumber(c.c), formatNumber(c.sensitivity), String(c.kJl),
    c.projected ? "yes" : "no", String(c.k), `${c.T}${c.capped ? "*" : ""}`,
    formatNumber(c.sigma), formatNumber(c.stepSize),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => "  " + r.map((x, i) => x.padStart(widths[i])).join("  ");
  lines.push("", fmt(header), ...rows.map(fmt));
  if (plan.pruned.length > 0) {
    lines.push(`  pruned ${plan.pruned.length} of ${plan.gridSize} margins (noise floor 2Δ√k/(nμ_run) > ${plan.pruneRatio}): γ ≤ ${formatNumber(plan.pruned[plan.pruned.length - 1])}`);
  }
  if (plan.candidates.some((c) => c.capped)) {
    lines.push(`  * capped at --max-iterations ${plan.maxIterations} (T changes utility and time, never privacy)`);
  }
  process.stdout.write(lines.join("\n") + "\n");
}

export async function accountCommand(dp: DpMargin, argv: string[]): Promise<void> {
  const { flags, options } = optionFlags(dp, "plan");
  const { values: v } = parse(argv, { ...flags, ...flagsOf(COMMAND_FLAGS.account) }, 0);
  const plan = dp.account(runOptions(v, options, ["epsilon", "delta", "n", "d"]) as unknown as Parameters<DpMargin["account"]>[0]);
  const delta = deltaWarning(plan.delta, plan.n);
  if (delta) process.stderr.write(`dpmargin: warning: ${delta}\n`);
  if (v.json) process.stdout.write(JSON.stringify(plan, null, 2) + "\n");
  else printPlan(plan);
}
