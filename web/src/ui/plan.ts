// "Plan without data": what a run would do, from public numbers only (n, d, ε, δ, options).
import type { AccountOptions, Plan } from "dpmargin";
import type { WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, el, fmt } from "./dom.ts";

// Text inputs, parsed here: an empty or non-numeric field becomes NaN, which the core rejects
// by name — one source of validation messages for the API, the CLI and the page.
const num = (id: string) => {
  const text = $<HTMLInputElement>(id).value.trim();
  return text === "" ? Number.NaN : Number(text);
};

// The core's plain-language advice (plan::advise): a coloured verdict badge and its sentence.
// Shared by this tab and the pre-training budget preview.
export function adviceElement(plan: Plan): HTMLElement {
  const { verdict, text } = plan.advice;
  const tone = verdict === "good" ? "good" : verdict === "marginal" ? "marginal" : "bad";
  return el("p", { class: "advice", "data-verdict": tone, "data-key": "advice" },
    el("span", { class: `badge-verdict verdict-${tone}` }, verdict), " ", text);
}

function renderPlan(output: HTMLElement, plan: Plan): void {
  const items: [string, string, string][] = [
    ["μ total (GDP)", fmt(plan.mu, 10), "mu"],
    ["μ per base run", fmt(plan.muRun, 10), "mu-run"],
    ["score noise sd", fmt(plan.scoreSd), "score-sd"],
    ["ε spent (recomputed)", fmt(plan.epsilonSpent, 10), "epsilon-spent"],
    ["margin candidates", plan.pruned.length
      ? `${plan.candidates.length} of ${plan.gridSize} (${plan.pruned.length} pruned)` : String(plan.candidates.length), "candidates"],
    ["neighbouring", plan.neighbouring, "neighbouring"],
  ];
  if (plan.selector === "privtune") items.push(["P(candidate never tried)", fmt(plan.probabilityMiss ?? 0), "p-miss"]);
  const summary = el("dl", { class: "summary" },
    ...items.flatMap(([term, value, key]) => [el("dt", {}, term), el("dd", { "data-key": key }, value)]));
  const head = ["γ", "c", "Δ", "k_γ (JL)", "projected", "k", "T", "σ", "step η"];
  const table = el("table", { id: "plan-table" },
    el("caption", {}, `Per margin candidate (${plan.selector}, ${plan.calibration} calibration)`),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {},
      // Pruned margins (public rule, docs/reference/PRIVACY.md): listed so the whole grid Γ is visible.
      ...plan.pruned.map((g) => el("tr", { class: "pruned" }, el("td", {}, fmt(g)),
        el("td", { colspan: "8" }, `pruned: noise floor 2Δ√k/(n·μ_run) > ${fmt(plan.pruneRatio)}`))),
      ...plan.candidates.map((c) => el("tr", {},
      ...[fmt(c.gamma), fmt(c.c), fmt(c.sensitivity), String(c.kJl), c.projected ? "yes" : "no", String(c.k),
        `${c.T}${c.capped ? "*" : ""}`, fmt(c.sigma), fmt(c.stepSize)].map((t) => el("td", {}, t))))));
  output.replaceChildren(adviceElement(plan), summary, el("div", { class: "table-scroll", tabindex: "0" }, table));
  if (plan.candidates.some((c) => c.capped)) {
    output.append(el("p", { class: "note" },
      `* capped at ${plan.maxIterations} iterations: T changes utility and time, never privacy.`));
  }
}

export function setupPlan(client: WorkerClient, engine: Promise<unknown>): void {
  const form = $<HTMLFormElement>("plan-form");
  const output = $("plan-output");
  const errorBox = $("plan-error");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $<HTMLButtonElement>("compute");
    button.disabled = true;
    errorBox.hidden = true;
    try {
      await engine;  // the fields start at the core's defaults
      const options: AccountOptions = {
        epsilon: num("epsilon"), delta: num("delta"), n: num("n"), d: num("d"),
        selector: ($<HTMLSelectElement>("selector").value || undefined) as Plan["selector"] | undefined,
        calibration: $<HTMLSelectElement>("calibration").value as Plan["calibration"],
        expectedRuns: num("expectedRuns"),
      };
      renderPlan(output, await client.request<Plan>({ type: "account", options }));
    } catch (e) {
      const error = e as WorkerError;
      output.replaceChildren();
      errorBox.textContent = error.message;
      errorBox.dataset.code = error.code;
      errorBox.hidden = false;
      if (error.parameter) document.getElementById(error.parameter)?.focus();
    } finally {
      button.disabled = false;
      document.body.dataset.ready = "true";
    }
  });
}
