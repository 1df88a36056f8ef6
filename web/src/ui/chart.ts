// The chart of the released selection record: the noisy score of every margin candidate γ on a
// log-scaled γ axis, the selected γ marked, and a ±1 noise-sd band (the score noise is public).
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { TrainReport } from "dpmargin";

let chart: uPlot | null = null;
let observer: ResizeObserver | null = null;

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

export function destroyChart(): void {
  observer?.disconnect();
  observer = null;
  chart?.destroy();
  chart = null;
}

/** Draw the scores of `report` into `target`; returns false when there is nothing to draw. */
export function drawScoreChart(target: HTMLElement, report: TrainReport): boolean {
  destroyChart();
  target.replaceChildren();
  const candidates = [...report.candidates].filter((c) => Number.isFinite(c.noisyScore)).sort((a, b) => a.gamma - b.gamma);
  if (candidates.length === 0) return false;
  const xs = candidates.map((c) => c.gamma);
  const ys = candidates.map((c) => c.noisyScore);
  const sd = report.plan.scoreSd;
  const selected = candidates.map((c) => (c.gamma === report.selectedMargin ? c.noisyScore : null));
  const text = cssVar("--text", "#222");
  const accent = cssVar("--accent", "#2563eb");
  const mark = cssVar("--selected", "#dc2626");
  const grid = cssVar("--grid", "#8884");
  const width = Math.max(260, target.clientWidth || 600);
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  chart = new uPlot({
    width,
    height: Math.round(Math.min(320, Math.max(200, width * 0.55))),
    scales: { x: { time: false, distr: 3 } },
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: "γ", value: (_u, v) => (v == null ? "—" : Number(v.toPrecision(4)).toString()) },
      { label: "+1 sd", stroke: "transparent", points: { show: false } },
      { label: "−1 sd", stroke: "transparent", points: { show: false } },
      { label: "noisy score", stroke: accent, width: 2, points: { show: true, size: 7, fill: accent } },
      {
        label: "selected", stroke: mark, width: 0, points: { show: true, size: 14, fill: mark, stroke: mark },
        paths: () => null,
      },
    ],
    bands: [{ series: [1, 2], fill: `${accent}22` }],
    axes: [
      { ...axis, label: "margin γ (log scale)", values: (_u, splits) => splits.map((v) => (v == null ? "" : Number(v.toPrecision(3)).toString())) },
      { ...axis, label: "noisy score", size: 56 },
    ],
  }, [xs, ys.map((y) => y + sd), ys.map((y) => y - sd), ys, selected], target);
  observer = new ResizeObserver(() => {
    const w = Math.max(260, target.clientWidth);
    if (chart && Math.abs(w - chart.width) > 4) chart.setSize({ width: w, height: Math.round(Math.min(320, Math.max(200, w * 0.55))) });
  });
  observer.observe(target);
  return true;
}

// The ROC curve of the evaluated rows (local, not private): true-positive rate against
// false-positive rate, with the chance diagonal.
let rocChart: uPlot | null = null;
let rocObserver: ResizeObserver | null = null;

export function destroyRocChart(): void {
  rocObserver?.disconnect();
  rocObserver = null;
  rocChart?.destroy();
  rocChart = null;
}

/** Draw `roc` into `target`; returns false when there is no curve (one class only). */
export function drawRocChart(target: HTMLElement, roc: { fpr: number[]; tpr: number[] } | null): boolean {
  destroyRocChart();
  target.replaceChildren();
  if (!roc || roc.fpr.length < 2) return false;
  const text = cssVar("--text", "#222");
  const accent = cssVar("--accent", "#2563eb");
  const grid = cssVar("--grid", "#8884");
  const size = () => Math.max(220, Math.min(360, target.clientWidth || 320));
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  // uPlot wants ascending x: the curve's points are in increasing FPR already (steps share an x).
  const xs = roc.fpr;
  const diagonal = xs.map((x) => x);
  const w = size();
  rocChart = new uPlot({
    width: w,
    height: w,
    scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: "false-positive rate" },
      { label: "chance", stroke: grid, width: 1, dash: [4, 4], points: { show: false } },
      { label: "true-positive rate", stroke: accent, width: 2, points: { show: false } },
    ],
    axes: [
      { ...axis, label: "false-positive rate" },
      { ...axis, label: "true-positive rate", size: 48 },
    ],
  }, [xs, diagonal, roc.tpr], target);
  rocObserver = new ResizeObserver(() => {
    const s = size();
    if (rocChart && Math.abs(s - rocChart.width) > 4) rocChart.setSize({ width: s, height: s });
  });
  rocObserver.observe(target);
  return true;
}
