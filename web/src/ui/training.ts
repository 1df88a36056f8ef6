// Step 4: train in the worker with a progress bar per margin candidate (per run for PrivTune),
// overall progress, elapsed time and a Cancel button (the package's AbortSignal, in the worker).
import type { LedgerFile, Plan, TrainProgress } from "dpmargin";
import type { Reply, TrainOutcome, TrainRequest, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $, clearError, el, fmt, seconds, showError } from "./dom.ts";
import { FIELD_OF, showSettingsError } from "./settings.ts";

export type TrainState = "idle" | "running" | "done" | "cancelled" | "error";

export interface TrainingView {
  running(): boolean;
}

export function setupTraining(client: WorkerClient, hooks: {
  request: () => TrainRequest | WorkerError;
  /** Why training cannot start ("" when it can: data loaded, label and columns chosen). */
  blocker: () => string;
  /** Before a run (the ledger's warning): false cancels it. */
  confirm?: (request: TrainRequest) => Promise<boolean>;
  onStart: (request: TrainRequest) => void;
  onDone: (outcome: TrainOutcome) => void;
  beforeTrain?: () => Promise<void>;
  /** The package recorded the run in the file's ledger (before its first noise). */
  onLedger?: (ledger: LedgerFile) => void;
  /** How a started run ended (after onDone for "done"). */
  onEnd?: (state: "done" | "cancelled" | "error") => void;
}): TrainingView & { sync(): void } {
  const trainButton = $<HTMLButtonElement>("train-button");
  const cancelButton = $<HTMLButtonElement>("cancel-button");
  const status = $("train-status");
  const errorBox = $("train-error");
  const runsList = $("progress-runs");
  const overall = $<HTMLProgressElement>("progress-overall");
  let activeId: number | null = null;
  let plan: Plan | null = null;
  let started = 0;
  let clock: ReturnType<typeof setInterval> | undefined;

  const setState = (state: TrainState) => { document.body.dataset.trainState = state; };
  setState("idle");

  const sync = () => {
    const running = activeId !== null;
    const blocker = hooks.blocker();
    trainButton.disabled = running || blocker !== "";
    trainButton.title = blocker;
    cancelButton.disabled = !running;
    $("train-blocker").textContent = running ? "" : blocker;
    if (!running && document.body.dataset.trainState === "idle") {
      status.textContent = blocker || "Ready to train.";
    }
  };

  const row = (i: number, gamma: number, T: number, label: string) => {
    let li = runsList.querySelector<HTMLLIElement>(`li[data-run="${i}"]`);
    if (!li) {
      const id = `progress-run-${i}`;
      li = el("li", { "data-run": String(i) },
        el("label", { for: id, class: "gamma" }, `${label} γ = ${fmt(gamma, 4)}`),
        el("progress", { id, max: String(T), value: "0" }),
        el("span", { class: "iters" }, `0 / ${T}`));
      runsList.append(li);
    }
    return li;
  };
  const setRow = (li: HTMLLIElement, iteration: number, T: number) => {
    const bar = li.querySelector("progress")!;
    bar.max = T;
    bar.value = iteration;
    li.querySelector(".iters")!.textContent = `${iteration} / ${T}`;
    li.classList.toggle("done", iteration >= T);
  };

  const onStarted = (p: Plan) => {
    plan = p;
    problem = 0;
    runsList.replaceChildren();
    if (p.selector !== "privtune") {
      p.candidates.forEach((c, i) => row(i, c.gamma, c.T, p.selects ? `#${i + 1}` : p.selector));
    }
  };

  // One bar per margin candidate of the plan (PrivTune: per run, its count unknown in advance).
  // `run` counts the base runs completed, so the last event has run = runs: no bar for it.
  // One-vs-rest: the bars are those of the current class's problem.
  let problem = 0;
  const onProgress = (p: TrainProgress) => {
    overall.value = p.fraction;
    const privtune = plan?.selector === "privtune";
    if (p.problems > 1 && p.problem !== problem) {
      problem = p.problem;
      for (const li of runsList.querySelectorAll<HTMLLIElement>("li")) setRow(li, 0, Number(li.querySelector("progress")!.max));
    }
    const index = privtune ? p.run : p.candidate;
    if (p.run < p.runs || privtune) {
      for (const li of runsList.querySelectorAll<HTMLLIElement>("li")) {
        const i = Number(li.dataset.run);
        const max = Number(li.querySelector("progress")!.max);
        if (privtune ? i < p.run : i < p.candidate) setRow(li, max, max);
      }
      if (p.run < p.runs) setRow(row(index, p.gamma, p.iterations, privtune ? `run ${p.run + 1}:` : `#${index + 1}`), p.iteration, p.iterations);
    }
    const cls = p.problems > 1 ? `class ${p.problem + 1} of ${p.problems}, ` : "";
    const done = Math.min(p.run + 1, p.runs);
    status.textContent = `Training: ${cls}${privtune ? "run" : "candidate"} ${done} of ${p.runs}` +
      ` (γ = ${fmt(p.gamma, 4)}), iteration ${p.iteration} of ${p.iterations} — ${Math.floor(p.fraction * 100)}%`;
  };

  const finish = (state: TrainState) => {
    clearInterval(clock);
    activeId = null;
    setState(state);
    sync();
  };

  trainButton.addEventListener("click", async () => {
    if (activeId !== null) return;
    clearError(errorBox);
    const request = hooks.request();
    if ("code" in request) {
      if (request.parameter && FIELD_OF[request.parameter]) showSettingsError(request, true);
      else showError(errorBox, request);
      setState("error");
      return;
    }
    if (hooks.confirm) {
      trainButton.disabled = true;
      const go = await hooks.confirm(request);
      if (!go) {
        status.textContent = "Not trained: nothing more was spent.";
        sync();
        return;
      }
    }
    hooks.onStart(request);
    setState("running");
    runsList.replaceChildren();
    overall.value = 0;
    $("progress").hidden = false;
    status.textContent = "Preparing the data…";
    started = performance.now();
    $("elapsed").textContent = "0.0 s";
    clock = setInterval(() => { $("elapsed").textContent = seconds(performance.now() - started); }, 100);
    activeId = -1;
    sync();
    let charged = false;
    try {
      await hooks.beforeTrain?.();
      const call = client.call<TrainOutcome>({ type: "train", request }, (reply: Reply) => {
        if (reply.type === "started") onStarted(reply.plan);
        else if (reply.type === "progress") onProgress(reply.progress);
        else if (reply.type === "ledger") {
          charged = true;
          hooks.onLedger?.(reply.ledger);
        }
      });
      activeId = call.id;
      sync();
      const outcome = await call.done;
      overall.value = 1;
      for (const li of runsList.querySelectorAll<HTMLLIElement>("li")) {
        const max = Number(li.querySelector("progress")!.max);
        setRow(li, max, max);
      }
      const elapsed = performance.now() - started;
      $("elapsed").textContent = seconds(elapsed);
      // "selected" only when the plan selects (auto's single run selects nothing).
      status.textContent = `Done in ${seconds(elapsed)}: ${outcome.local.runs} base run${outcome.local.runs === 1 ? "" : "s"} (local, not private), ` +
        `${outcome.report.plan.selects ? "selected γ" : "margin γ"} = ${fmt(outcome.report.selectedMargin, 4)}${outcome.report.seeded ? " — seeded, NOT private" : ""}.`;
      finish("done");
      hooks.onDone(outcome);
      hooks.onEnd?.("done");
    } catch (e) {
      const error = e as WorkerError;
      const elapsed = seconds(performance.now() - started);
      if (error.code === "CANCELLED") {
        status.textContent = `Cancelled after ${elapsed}. Nothing was released; you can train again.` +
          (charged ? " The run had started drawing noise, so the file's ledger counts it." : "");
        finish("cancelled");
        hooks.onEnd?.("cancelled");
      } else {
        status.textContent = `Training stopped after ${elapsed}.`;
        if (error.parameter && FIELD_OF[error.parameter]) showSettingsError(error, true);
        showError(errorBox, error);
        finish("error");
        hooks.onEnd?.("error");
      }
    }
  });

  cancelButton.addEventListener("click", () => {
    if (activeId === null || activeId < 0) return;
    status.textContent = "Cancelling…";
    cancelButton.disabled = true;
    void client.request({ type: "cancel", target: activeId });
  });

  sync();
  return { running: () => activeId !== null, sync };
}
