// Step 4: train in the worker with a progress bar per margin candidate (per run for PrivTune),
// overall progress, elapsed time and a Cancel button (the package's AbortSignal, in the worker).
import type { Plan, TrainProgress } from "dpmargin";
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
  /** Training can start (data loaded, columns chosen). */
  ready: () => boolean;
  onStart: () => void;
  onDone: (outcome: TrainOutcome) => void;
  beforeTrain?: () => Promise<void>;
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
    trainButton.disabled = running || !hooks.ready();
    cancelButton.disabled = !running;
    if (!running && !hooks.ready() && document.body.dataset.trainState === "idle") {
      status.textContent = "Load a CSV file and choose at least one feature column to train.";
    } else if (!running && document.body.dataset.trainState === "idle") {
      status.textContent = "Ready to train.";
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
    runsList.replaceChildren();
    if (p.selector !== "privtune") {
      p.candidates.forEach((c, i) => row(i, c.gamma, c.T, p.selector === "fixed" || p.selector === "auto" ? p.selector : `#${i + 1}`));
    }
  };

  const onProgress = (p: TrainProgress) => {
    overall.value = p.fraction;
    const label = plan?.selector === "privtune" ? `run ${p.run + 1} of ${p.runs}:` : `#${p.run + 1}`;
    for (let i = 0; i < p.run; i++) {
      const li = runsList.querySelector<HTMLLIElement>(`li[data-run="${i}"]`);
      if (li) setRow(li, Number(li.querySelector("progress")!.max), Number(li.querySelector("progress")!.max));
    }
    setRow(row(p.run, p.gamma, p.iterations, label), p.iteration, p.iterations);
    status.textContent = `Training: ${plan?.selector === "privtune" ? "run" : "candidate"} ${p.run + 1} of ${p.runs}` +
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
    hooks.onStart();
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
    try {
      await hooks.beforeTrain?.();
      const call = client.call<TrainOutcome>({ type: "train", request }, (reply: Reply) => {
        if (reply.type === "started") onStarted(reply.plan);
        else if (reply.type === "progress") onProgress(reply.progress);
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
      status.textContent = `Done in ${seconds(elapsed)}: ${outcome.local.runs} base run${outcome.local.runs === 1 ? "" : "s"} (local, not private), ` +
        `selected γ = ${fmt(outcome.report.selectedMargin, 4)}${outcome.report.seeded ? " — seeded, NOT private" : ""}.`;
      finish("done");
      hooks.onDone(outcome);
    } catch (e) {
      const error = e as WorkerError;
      const elapsed = seconds(performance.now() - started);
      if (error.code === "CANCELLED") {
        status.textContent = `Cancelled after ${elapsed}. Nothing was released; you can train again.`;
        finish("cancelled");
      } else {
        status.textContent = `Training stopped after ${elapsed}.`;
        if (error.parameter && FIELD_OF[error.parameter]) showSettingsError(error, true);
        showError(errorBox, error);
        finish("error");
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
