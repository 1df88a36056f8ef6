import "./style.css";
import type { Plan, AccountOptions } from "dpmargin";

type Reply = { id: number; ok: true; value: Plan } |
  { id: number; ok: false; error: { code: string; message: string; parameter?: string } };

const worker = new Worker(new URL("./core.worker.ts", import.meta.url), { type: "module" });
let nextId = 1;
const pending = new Map<number, (reply: Reply) => void>();
worker.onmessage = (event: MessageEvent<Reply>) => {
  pending.get(event.data.id)?.(event.data);
  pending.delete(event.data.id);
};
function call(method: "account", arg: AccountOptions): Promise<Reply> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    worker.postMessage({ id, method, args: [arg] });
  });
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>("plan-form");
const output = $<HTMLDivElement>("plan-output");
const errorBox = $<HTMLParagraphElement>("plan-error");

// Text inputs, parsed here: an empty or non-numeric field becomes NaN, which the core rejects
// by name — one source of validation messages for the API, the CLI and the page.
const num = (id: string) => {
  const text = $<HTMLInputElement>(id).value.trim();
  return text === "" ? Number.NaN : Number(text);
};

function fmt(x: number, digits = 6): string {
  if (x === 0) return "0";
  const a = Math.abs(x);
  return a >= 1e6 || a < 1e-3 ? x.toExponential(digits - 1) : x.toPrecision(digits);
}

function cell(tag: "td" | "th", text: string, attrs: Record<string, string> = {}): HTMLElement {
  const el = document.createElement(tag);
  el.textContent = text;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

function renderPlan(plan: Plan): void {
  output.replaceChildren();
  const summary = document.createElement("dl");
  summary.className = "summary";
  const items: [string, string, string][] = [
    ["μ total (GDP)", fmt(plan.mu, 10), "mu"],
    ["μ per base run", fmt(plan.muRun, 10), "mu-run"],
    ["score noise sd", fmt(plan.scoreSd), "score-sd"],
    ["ε spent (recomputed)", fmt(plan.epsilonSpent, 10), "epsilon-spent"],
    ["margin candidates", String(plan.candidates.length), "candidates"],
    ["neighbouring", plan.neighbouring, "neighbouring"],
  ];
  if (plan.selector === "privtune") {
    items.push(["P(candidate never tried)", fmt(plan.probabilityMiss ?? 0), "p-miss"]);
  }
  for (const [term, value, key] of items) {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    dd.dataset.key = key;
    summary.append(dt, dd);
  }
  const table = document.createElement("table");
  table.id = "plan-table";
  const caption = document.createElement("caption");
  caption.textContent = `Per margin candidate (${plan.selector}, ${plan.calibration} calibration)`;
  const head = document.createElement("tr");
  for (const h of ["γ", "c", "Δ", "k_γ (JL)", "projected", "k", "T", "σ", "step η"]) {
    head.append(cell("th", h, { scope: "col" }));
  }
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  for (const c of plan.candidates) {
    const tr = document.createElement("tr");
    tr.append(
      cell("td", fmt(c.gamma)), cell("td", fmt(c.c)), cell("td", fmt(c.sensitivity)),
      cell("td", String(c.kJl)), cell("td", c.projected ? "yes" : "no"), cell("td", String(c.k)),
      cell("td", `${c.T}${c.capped ? "*" : ""}`), cell("td", fmt(c.sigma)), cell("td", fmt(c.stepSize)),
    );
    tbody.append(tr);
  }
  table.append(caption, thead, tbody);
  const scroll = document.createElement("div");
  scroll.className = "table-scroll";
  scroll.append(table);
  output.append(summary, scroll);
  if (plan.candidates.some((c) => c.capped)) {
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = `* capped at ${plan.maxIterations} iterations: T changes utility and time, never privacy.`;
    output.append(note);
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = $<HTMLButtonElement>("compute");
  button.disabled = true;
  errorBox.hidden = true;
  try {
    const reply = await call("account", {
      epsilon: num("epsilon"),
      delta: num("delta"),
      n: num("n"),
      d: num("d"),
      selector: $<HTMLSelectElement>("selector").value as Plan["selector"],
      calibration: $<HTMLSelectElement>("calibration").value as Plan["calibration"],
      expectedRuns: num("expectedRuns"),
    });
    if (reply.ok) {
      renderPlan(reply.value);
    } else {
      output.replaceChildren();
      errorBox.textContent = reply.error.message;
      errorBox.dataset.code = reply.error.code;
      errorBox.hidden = false;
      if (reply.error.parameter) $<HTMLInputElement>(reply.error.parameter)?.focus();
    }
  } finally {
    button.disabled = false;
    document.body.dataset.ready = "true";
  }
});

document.body.dataset.loaded = "true";
