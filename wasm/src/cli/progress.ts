// Progress bars on stderr for the long commands (train, predict, profile, schema), drawn with
// npm's cli-progress: shown when stderr is a terminal, forced by --progress (also into a pipe
// or a file: one line per update, every second), hidden by --quiet. One phase at a time —
// reading bytes (bytes of the total, with an ETA), training (runs of the runs planned),
// predicting rows, profiling — each a bar of its own; stdout is never touched.
import cliProgress from "cli-progress";
import type { CsvProgress, ProfileProgress, TrainProgress } from "../node.js";

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let x = n / 1024;
  let u = 0;
  while (x >= 1024 && u < units.length - 1) {
    x /= 1024;
    u++;
  }
  return `${x.toFixed(x < 10 ? 2 : 1)} ${units[u]}`;
}

// The ETA: "?" while it is unknown (no rate yet), else seconds, minutes or hours.
function formatSeconds(t: number): string {
  if (!Number.isFinite(t) || t < 0) return "?";
  if (t < 60) return `${Math.round(t)}s`;
  if (t < 3600) return `${Math.floor(t / 60)}m${String(Math.round(t % 60)).padStart(2, "0")}s`;
  return `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, "0")}m`;
}

// A plain numeric table of known size is read once (the scan keeps its numbers); other tables
// are read again to fill the table (docs/reference/CSV.md).
const PASS_NAMES: Record<CsvProgress["pass"], string> = {
  scan: "reading", count: "counting categories", fill: "reading again",
};

// Every bar on the screen, so that an exit path can stop them all before it says anything: a bar
// left running redraws itself over the error and its timer keeps the process alive.
const live = new Set<Progress>();

/** The progress display of one command. `enabled` false: every method does nothing. */
export class Progress {
  readonly enabled: boolean;
  readonly #stream: NodeJS.WriteStream;
  #bar: cliProgress.SingleBar | null = null;
  #key = "";

  constructor(enabled: boolean, stream: NodeJS.WriteStream = process.stderr) {
    this.enabled = enabled;
    this.#stream = stream;
  }

  /** --progress forces it, --quiet hides it, else a terminal on stderr shows it. */
  static fromFlags(values: Record<string, unknown>, stream: NodeJS.WriteStream = process.stderr): Progress {
    const enabled = values.quiet ? false : values.progress ? true : stream.isTTY === true;
    return new Progress(enabled, stream);
  }

  // Starts a new bar when the phase changes (the previous one is finished first).
  #phase(key: string, format: string, total: number, payload: Record<string, unknown>): cliProgress.SingleBar {
    if (this.#bar && this.#key === key) return this.#bar;
    this.done();
    const bar = new cliProgress.SingleBar({
      stream: this.#stream, format, noTTYOutput: true, notTTYSchedule: 1000, fps: 8,
      barsize: 24, hideCursor: false, clearOnComplete: false, etaBuffer: 20, autopadding: false,
      formatTime: (t) => formatSeconds(t),
      formatValue: (v, _o, type) => (type === "value" || type === "total" ? String(Math.floor(v)) : String(v)),
    });
    bar.start(total, 0, payload);
    this.#bar = bar;
    this.#key = key;
    live.add(this);
    return bar;
  }

  /** A CSV reading pass: bytes of the file's size (with an ETA), rows so far. */
  reading(what: string, p: CsvProgress): void {
    if (!this.enabled) return;
    const total = p.totalBytes ?? 0;
    const format = total > 0
      ? `${what}: ${PASS_NAMES[p.pass]} [{bar}] {percentage}% | {bytes} of {size} | {rows} rows | ETA {eta_formatted}`
      : `${what}: ${PASS_NAMES[p.pass]} | {bytes} | {rows} rows`;
    const payload = { bytes: formatBytes(p.bytes), size: formatBytes(total), rows: p.rows };
    const bar = this.#phase(`read:${what}:${p.pass}`, format, Math.max(total, 1), payload);
    bar.update(total > 0 ? Math.min(p.bytes, total) : 0, payload);
  }

  /** Training: runs done of the runs planned (candidates of Iter, K of PrivTune, 1 fixed; times
   *  the classes of a one-vs-rest label), the bar by iterations. */
  training(p: TrainProgress): void {
    if (!this.enabled) return;
    const runs = p.runs * p.problems;
    const done = Math.min(runs, p.problem * p.runs + p.run);
    const classes = p.problems > 1 ? ` | class ${Math.min(p.problem + 1, p.problems)} of ${p.problems}` : "";
    const payload = { done, runs, gamma: p.gamma.toPrecision(3), classes };
    const bar = this.#phase("train", "training [{bar}] {percentage}% | run {done} of {runs} planned | γ = {gamma}{classes} | ETA {eta_formatted}",
      1000, payload);
    bar.update(Math.round(1000 * p.fraction), payload);
  }

  /** Scoring a CSV (one streaming pass): bytes of the file, rows scored so far. */
  predicting(what: string, p: CsvProgress): void {
    if (!this.enabled) return;
    const total = p.totalBytes ?? 0;
    const payload = { bytes: formatBytes(p.bytes), size: formatBytes(total), rows: p.rows };
    const bar = this.#phase(`predict:${what}`, `predicting ${what} [{bar}] {percentage}% | {rows} rows | {bytes} of {size} | ETA {eta_formatted}`,
      Math.max(total, 1), payload);
    bar.update(Math.min(p.bytes, Math.max(total, 1)), payload);
  }

  /** The margin profile: grid points done, rows removed, fits. */
  profiling(p: ProfileProgress): void {
    if (!this.enabled) return;
    const payload = { points: p.gridDone, grid: p.gridSize, removed: p.removed, fits: p.fits };
    const bar = this.#phase("profile", "profiling [{bar}] {percentage}% | point {points} of {grid} | {removed} rows removed | {fits} fits | ETA {eta_formatted}",
      1000, payload);
    bar.update(Math.round(1000 * p.fraction), payload);
  }

  /** A line on the progress stream between bars (the current bar is finished first). */
  note(line: string): void {
    this.done();
    this.#stream.write(line.endsWith("\n") ? line : line + "\n");
  }

  /** Finish the current bar (its last state stays on its own line). */
  done(): void {
    live.delete(this);
    if (!this.#bar) return;
    const bar = this.#bar;
    this.#bar = null;
    this.#key = "";
    bar.stop();
  }

  /** Finish every bar of the process, so that the next line starts at column 0 and no timer is
   *  left running: called on every exit path before the error (or the result) is printed. */
  static stopAll(): void {
    for (const progress of [...live]) progress.done();
  }
}
