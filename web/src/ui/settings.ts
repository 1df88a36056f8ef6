// Step 2 (privacy) and step 3 (evaluation split): the form → TrainOptions, the live budget
// preview — the plan of the core's preview of the run on the loaded table (dp.previewCsv: the
// same resolution as the run, its n, d and μ split) —, the δ ≥ 1/n warning and the seeded badge.
import type { CsvPreview, OptionInfo, Plan } from "dpmargin";
import { deltaWarning, epsilonMeaning } from "dpmargin/explain";
import type { WireTrainOptions, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, clearError, el, fmt, showError } from "./dom.ts";
import { adviceElement } from "./plan.ts";
import type { PreviewResult } from "./data/index.ts";

/** Which field holds each option, so an error naming a parameter can point at its field. */
export const FIELD_OF: Record<string, string> = {
  epsilon: "train-epsilon", delta: "train-delta", normBound: "norm-bound", rangeShare: "range-share",
  margin: "margin", maxIterations: "max-iterations", expectedRuns: "expected-runs", seed: "seed",
  selector: "train-selector", score: "score", calibration: "train-calibration", output: "output",
  intercept: "intercept", rowNormalization: "row-normalization", splitSeed: "split-seed",
  workers: "workers",
};

const text = (id: string) => $<HTMLInputElement>(id).value.trim();
// Empty or non-numeric text becomes NaN, which the engine rejects by name: one source of
// validation messages for the API, the CLI and the page.
const number = (id: string) => (text(id) === "" ? Number.NaN : Number(text(id)));
const choice = <T extends string>(id: string) => $<HTMLSelectElement>(id).value as T;

export function seedText(): string {
  return text("seed");
}

/** The training options as the form says. */
export function readOptions(): WireTrainOptions {
  // "": the core's rule (auto with calibration tight, iter with paper).
  const selector = choice<"" | "auto" | "iter" | "privtune" | "fixed">("train-selector");
  const privateRanges = $<HTMLInputElement>("private-ranges").checked && selector !== "privtune";
  const options: WireTrainOptions = {
    epsilon: number("train-epsilon"),
    delta: number("train-delta"),
    selector: selector || undefined,
    score: choice<NonNullable<WireTrainOptions["score"]>>("score"),
    calibration: choice<NonNullable<WireTrainOptions["calibration"]>>("train-calibration"),
    output: (choice<NonNullable<WireTrainOptions["output"]> | "">("output") || undefined),
    // Empty: the core's default (it depends on the selector).
    maxIterations: text("max-iterations") === "" ? undefined : number("max-iterations"),
    intercept: $<HTMLInputElement>("intercept").checked,
    rowNormalization: choice<NonNullable<WireTrainOptions["rowNormalization"]>>("row-normalization"),
    normBound: number("norm-bound"),
    // Threads holding the rows: the same mechanism and privacy either way (docs/reference/SHARDING.md).
    workers: Number(choice("workers")),
  };
  options.rangeShare = privateRanges ? number("range-share") : 0;  // 0: off (the API's default is on)
  if (selector === "fixed") options.margin = number("margin");
  if (selector === "privtune") options.expectedRuns = number("expected-runs");
  if (seedText() !== "") options.seed = Number(seedText());
  return options;
}

export function readSplit(): { testFraction: number; splitSeed: number } {
  const seed = text("split-seed");
  return { testFraction: Number(choice("test-fraction")), splitSeed: seed === "" ? Number.NaN : Number(seed) };
}

function markInvalid(parameter?: string): void {
  for (const id of Object.values(FIELD_OF)) $(id).removeAttribute("aria-invalid");
  const id = parameter ? FIELD_OF[parameter] : undefined;
  if (id) $(id).setAttribute("aria-invalid", "true");
}

/** Show an option error under the form and point at its field (opening "Advanced" if needed). */
export function showSettingsError(error: WorkerError, focus = false): void {
  showError($("settings-error"), error);
  markInvalid(error.parameter);
  const id = error.parameter ? FIELD_OF[error.parameter] : undefined;
  if (id && focus) {
    const field = $(id);
    const details = field.closest("details");
    if (details) details.open = true;
    field.focus();
  }
}

// The fields that show one of the core's options, and where: the Train tab's settings and the
// Plan tab. applyCoreDefaults fills them from the core's option table once the engine is up.
const DEFAULT_FIELDS: [option: string, id: string][] = [
  ["selector", "train-selector"], ["calibration", "train-calibration"], ["score", "score"],
  ["rowNormalization", "row-normalization"], ["normBound", "norm-bound"], ["intercept", "intercept"],
  ["maxIterations", "max-iterations"], ["expectedRuns", "expected-runs"], ["rangeShare", "range-share"],
  ["selector", "selector"], ["calibration", "calibration"], ["expectedRuns", "expectedRuns"],
];

/** Every field that shows an option of the core starts at the core's default. */
export function applyCoreDefaults(options: readonly OptionInfo[]): void {
  const byName = new Map(options.map((o) => [o.name, o]));
  for (const [name, id] of DEFAULT_FIELDS) {
    const value = byName.get(name)?.default;
    if (value === null || value === undefined) continue;
    const field = $<HTMLInputElement | HTMLSelectElement>(id);
    if (field instanceof HTMLInputElement && field.type === "checkbox") field.checked = value === true;
    else if (field.value === "" || field instanceof HTMLSelectElement) field.value = String(value);
  }
  // Rule-based defaults: the "default" choice says what the core will do.
  for (const option of document.querySelectorAll<HTMLOptionElement>("option[data-default]")) {
    const spec = byName.get(option.dataset.default!);
    if (spec) option.textContent = `default (${spec.defaultText})`;
  }
}

export interface SettingsView {
  /** Show the plan of the core's latest preview of the run (null: no data loaded). */
  setPreview(result: PreviewResult): void;
  refresh(): void;
}

export function setupSettings(client: WorkerClient, onChange: () => void): SettingsView {
  void client;  // the plan comes with the data step's preview (dp.previewCsv in the worker)
  // Workers: 1 by default, as in the package (index.html); 2 is an option. On the benchmark
  // machine two workers were slower in Chromium and hold 2–3× the memory
  // (docs/reference/SHARDING.md, "Default").

  const presets = [...document.querySelectorAll<HTMLButtonElement>("button.preset")];
  const syncPresets = () => {
    const eps = text("train-epsilon");
    for (const b of presets) b.setAttribute("aria-pressed", String(Number(b.dataset.epsilon) === Number(eps) && eps !== ""));
    const e = number("train-epsilon");
    // The package's sentence (explain.ts), the one the CLI prints.
    $("epsilon-factor").textContent = Number.isFinite(e) && e > 0 ? epsilonMeaning(e) : "Enter ε > 0.";
  };
  for (const b of presets) {
    b.addEventListener("click", () => {
      $<HTMLInputElement>("train-epsilon").value = b.dataset.epsilon!;
      update();
    });
  }

  const syncVisibility = () => {
    const selector = choice("train-selector");
    $("margin-field").hidden = selector !== "fixed";
    $("expected-runs-field").hidden = selector !== "privtune";
    const ranges = $<HTMLInputElement>("private-ranges");
    ranges.disabled = selector === "privtune";
    $<HTMLInputElement>("range-share").disabled = !ranges.checked || ranges.disabled;
    $("ranges-note").dataset.privtune = String(selector === "privtune");
    const seeded = seedText() !== "";
    $("seed-warning").hidden = !seeded;
    $("train-seeded").hidden = !seeded;
    $("seed").classList.toggle("seeded", seeded);
  };

  const show = (result: PreviewResult) => {
    const box = $("budget-preview");
    const warning = $("delta-warning");
    if (result === null) {
      box.replaceChildren(el("p", { class: "note" }, "Load data to see how the budget is split (or use “Plan without data”)."));
      warning.hidden = true;
      clearError($("settings-error"));
      markInvalid();
      return;
    }
    if ("error" in result) {
      box.replaceChildren(el("p", { class: "note" }, "No plan: the core could not preview the run (see the data step)."));
      return;
    }
    const { preview } = result;
    // δ against the training rows the run will read (the core's n, after the held-out split);
    // the package's rule and sentence (explain.ts deltaWarning), the CLI's.
    const text = deltaWarning(readOptions().delta as number, preview.rows);
    warning.hidden = text === null;
    warning.textContent = text ?? "";
    if (preview.plan) {
      clearError($("settings-error"));
      markInvalid();
      renderBudget(box, preview.plan, preview);
    } else if (preview.planError && FIELD_OF[preview.planError.parameter]) {
      box.replaceChildren();
      showSettingsError(preview.planError);
    } else {
      clearError($("settings-error"));
      markInvalid();
      box.replaceChildren(el("p", { class: "note", "data-key": "plan-error" },
        preview.planError ? `The run would stop: ${preview.planError.message}` : "No plan yet."));
    }
  };

  const update = () => {
    syncPresets();
    syncVisibility();
    onChange();
  };
  for (const id of ["settings-form", "eval-section"]) {
    $(id).addEventListener("input", update);
    $(id).addEventListener("change", update);
  }
  $("settings-form").addEventListener("submit", (event) => event.preventDefault());
  show(null);
  update();
  return {
    setPreview: show,
    refresh: update,
  };
}

function renderBudget(box: HTMLElement, plan: Plan, preview: CsvPreview): void {
  const maxT = Math.max(...plan.candidates.map((c) => c.T));
  const capped = plan.candidates.some((c) => c.capped);
  const estimate = preview.modelColumns?.estimate ?? false;
  const items: [string, string, string][] = [
    ["μ total", fmt(plan.mu), "mu"],
    ...(plan.muSchema ? [["μ schema (decided privately)", fmt(plan.muSchema), "mu-schema"] as [string, string, string]] : []),
    ...(plan.muDiscovery ? [["μ discovery", fmt(plan.muDiscovery), "mu-discovery"] as [string, string, string]] : []),
    ...(plan.muRanges > 0 ? [["μ ranges", fmt(plan.muRanges), "mu-ranges"] as [string, string, string]] : []),
    ["μ training", fmt(plan.muTrain), "mu-train"],
    ["margin candidates", String(plan.candidates.length), "candidates"],
    ["μ per run", fmt(plan.muRun), "mu-run"],
    ...(plan.selects ? [["score noise sd", fmt(plan.scoreSd), "score-sd"] as [string, string, string]] : []),
    ["iterations per run ≤", `${maxT}${capped ? " (capped)" : ""}`, "max-t"],
  ];
  box.replaceChildren(
    el("p", { class: "budget-title", "data-n": String(plan.n), "data-d": String(plan.d), "data-mu": String(plan.mu), "data-estimate": String(estimate) },
      `Budget for n = ${plan.n} training rows, d = ${plan.d} model columns${estimate ? " (an estimate: discovered levels counted from your file — local)" : ""}, `,
      "the plan the core would make for this file and these settings:"),
    el("dl", { class: "budget-list" }, ...items.flatMap(([k, v, key]) => [el("dt", {}, k), el("dd", { "data-key": key }, v)])),
    adviceElement(plan),
  );
}
