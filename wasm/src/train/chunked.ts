// Run a resumable core state machine in chunks: ~TARGET_CHUNK_MS of work per chunk, a progress
// callback and an AbortSignal check between chunks, and a cheap yield to the event loop so the
// page or worker stays responsive. Shared by training and the margin profile.
import { DpMarginError } from "../errors.js";

export const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

// Yield without setTimeout's ≥ 4 ms clamp: setImmediate in Node, a MessageChannel in browsers
// and workers.
export const yieldToEventLoop: () => Promise<void> =
  typeof setImmediate === "function"
    ? () => new Promise((resolve) => setImmediate(resolve))
    : (() => {
      const channel = new MessageChannel();
      const waiting: (() => void)[] = [];
      channel.port1.onmessage = () => waiting.shift()?.();
      return () => new Promise<void>((resolve) => {
        waiting.push(resolve);
        channel.port2.postMessage(null);
      });
    })();

/** Chunks aim at this wall time: short enough to cancel promptly, long enough that the
 *  per-chunk cost (progress callback, event-loop turn) stays well under 2% of the work. */
export const TARGET_CHUNK_MS = 40;

// Benchmark-only knob (bench/perf/ measures the cost of chunking + progress callbacks against
// as few chunks as possible). Not exported from the package entry points; import it from
// dist/chunked.js. Affects later runs of this module instance.
let targetChunkMs = TARGET_CHUNK_MS;
/** @internal Benchmarks only: chunk target in ms (Infinity: the budget grows ×4 per chunk, so a
 *  run takes only ~log4(iterations) chunks); a non-positive or NaN value restores the default. */
export function setTargetChunkMsForBenchmarks(ms: number): void {
  targetChunkMs = ms > 0 ? ms : TARGET_CHUNK_MS;
}

/** Largest budget of one chunk (far above any run's work; keeps it an exact integer). */
const MAX_BUDGET = 2 ** 30;

export function cancelled(what: string): DpMarginError {
  return new DpMarginError("CANCELLED", `${what} was cancelled (AbortSignal)`);
}

/**
 * Calls `advance(budget)` (returns true when done) until done, sizing `budget` adaptively to
 * ~TARGET_CHUNK_MS (at most ×4 per step); `afterChunk(done)` runs after every chunk.
 * @throws DpMarginError CANCELLED when `signal` aborts between chunks.
 */
export async function runChunked(advance: (budget: number) => boolean, afterChunk: (done: boolean) => void,
  signal: AbortSignal | undefined, what: string, initialBudget = 1): Promise<void> {
  let budget = initialBudget;
  for (;;) {
    if (signal?.aborted) throw cancelled(what);
    const t0 = now();
    const done = advance(budget);
    const spent = now() - t0;
    // Capped: a machine that returns early (a one-vs-rest run ends a chunk at each class) must
    // not grow the budget ×4 per chunk past the core's 2^53 limit.
    budget = Math.max(1, Math.min(budget * 4, MAX_BUDGET, Math.round(budget * targetChunkMs / Math.max(spent, 0.05))));
    afterChunk(done);
    if (done) return;
    await yieldToEventLoop();
  }
}
