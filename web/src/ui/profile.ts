// The Margin profile tab: the package's non-private removal–margin diagnostic on the loaded table,
// with progress, cancel and a chart of normalized margin against % of rows removed.
import uPlot from "uplot";
import type { MarginProfile, ProfileProgress, ProfileRequest, Reply, WorkerError } from "../protocol.ts";
import type { WorkerClient } from "../worker-client.ts";
import { $ } from "./dom.ts";

let chart: uPlot | null = null;

function draw(target: HTMLElement, p: MarginProfile): void {
  chart?.destroy();
  target.replaceChildren();
  const points = p.curve;
  const xs = points.map((c) => 100 * c.fraction);
  const css = (name: string, fallback: string) =>
    getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
  const text = css("--text", "#222"), accent = css("--accent", "#2563eb"), grid = css("--grid", "#8884");
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const width = Math.max(260, target.clientWidth || 600);
  chart = new uPlot({
    width, height: Math.round(Math.min(320, Math.max(200, width * 0.55))),
    scales: { x: { time: false } }, legend: { show: false }, cursor: { drag: { x: false, y: false } },
    series: [
      { label: "% removed" },
      { label: "normalized margin", stroke: accent, width: 2, points: { show: true, size: 6, fill: accent } },
      { label: "minimum before clamping", stroke: text, width: 1, dash: [4, 4], points: { show: false } },
    ],
    axes: [{ ...axis, label: "% of rows removed" }, { ...axis, label: "normalized margin", size: 64 }],
  }, [xs, points.map((c) => c.margin), points.map((c) => c.minimumMargin)], target);
}

// The core's advice (profile/advice.hpp), shown as it comes: what the curve means for the
// choice of learner. Local and not private, like the curve.
function showAdvice(p: MarginProfile): void {
  let box = document.getElementById("profile-advice");
  if (!box) {
    box = document.createElement("div");
    box.id = "profile-advice";
    box.className = "advice";
    box.setAttribute("role", "note");
    $("profile-summary").after(box);
  }
  const head = document.createElement("strong");
  head.textContent = `What this means (local, not private): ${p.advice.verdict}. `;
  const text = document.createElement("span");
  text.textContent = p.advice.text;
  box.replaceChildren(head, text);
  box.dataset.verdict = p.advice.verdict;
}

export function setupProfile(client: WorkerClient, current: () => Omit<ProfileRequest, "maxRemoved"> | null,
  blocker: () => string): { refresh(): void } {
  const run = $<HTMLButtonElement>("profile-run");
  const cancel = $<HTMLButtonElement>("profile-cancel");
  const status = $("profile-status");
  const bar = $<HTMLProgressElement>("profile-progress");
  const error = $("profile-error");
  const result = $("profile-result");
  let running: number | null = null;

  run.addEventListener("click", async () => {
    error.hidden = true;
    const selection = current();
    if (!selection) {
      status.textContent = `${blocker() || "Load a CSV and choose the label"} (on the Train tab)`;
      return;
    }
    const percent = Number($<HTMLInputElement>("profile-max").value.trim());
    const request: ProfileRequest = { ...selection, maxRemoved: percent / 100 };
    delete document.body.dataset.profile;
    run.disabled = true;
    cancel.hidden = false;
    bar.hidden = false;
    bar.value = 0;
    status.textContent = "Profiling… (not private; runs in the engine worker)";
    const started = performance.now();
    const call = client.call<MarginProfile>({ type: "profile", request }, (reply: Reply) => {
      if (reply.type !== "profile-progress") return;
      const p: ProfileProgress = reply.progress;
      bar.value = p.fraction;
      status.textContent = `Profiling… ${p.gridDone} of ${p.gridSize} points, ${p.removed} rows removed, ${p.fits} fits, ${(p.elapsedMs / 1000).toFixed(1)} s`;
    });
    running = call.id;
    try {
      const p = await call.done;
      const first = p.firstSeparableFraction === null
        ? `not linearly separable after removing up to ${percent}% of the rows`
        : p.firstSeparableRemoved === 0
          ? "already linearly separable: no row has to be removed"
          : `linearly separable after removing ${p.firstSeparableRemoved} of ${p.n} rows (${(100 * p.firstSeparableFraction).toFixed(3)}%)`;
      const last = p.curve.at(-1)!;
      $("profile-summary").textContent =
        `The data is ${first}. Normalized margin after removing ${(100 * last.fraction).toFixed(2)}%: ${last.margin.toPrecision(3)}. `
        + `${p.fits} SVM fits in ${((performance.now() - started) / 1000).toFixed(1)} s.`;
      showAdvice(p);
      result.hidden = false;
      result.dataset.separable = String(p.separable);
      result.dataset.firstSeparableRemoved = String(p.firstSeparableRemoved);
      result.dataset.lastMargin = String(last.margin);
      result.dataset.fits = String(p.fits);
      result.dataset.verdict = p.advice.verdict;
      draw($("profile-chart"), p);
      status.textContent = "Done. This diagnostic is not private and is not part of any download.";
      document.body.dataset.profile = "done";
    } catch (e) {
      const err = e as WorkerError;
      error.textContent = `${err.code}: ${err.message}`;
      error.hidden = false;
      status.textContent = err.code === "CANCELLED" ? "Cancelled." : "The profile failed.";
      document.body.dataset.profile = "error";
    } finally {
      running = null;
      run.disabled = false;
      cancel.hidden = true;
      bar.hidden = true;
    }
  });
  cancel.addEventListener("click", () => {
    if (running !== null) client.request({ type: "cancel", target: running }).catch(() => {});
  });
  return {
    // The status follows the Train tab's data: what is missing, or ready.
    refresh() {
      if (running !== null) return;
      const why = blocker();
      status.textContent = why ? `${why} (on the Train tab)` : "Ready: run the profile on the loaded table.";
      run.disabled = why !== "";
    },
  };
}
