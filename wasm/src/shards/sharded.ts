// Training with the prepared rows split over worker threads (docs/reference/SHARDING.md). The calling
// thread keeps the coordinator — the core Trainer with the plan, the generator, the iterates,
// the noise and the selection — and the shard workers only return sums over their rows: the
// partial hinge-gradient sums at the current weights, and error counts. The coordinator adds
// the partial sums and adds the Gaussian noise once, so the mechanism and its accounting are
// those of a one-thread run. No SharedArrayBuffer: rows are transferred once, weights and
// sums are small messages per iteration.
import type { CoreDataset, CoreModule, CoreTrainer } from "../wasm/dpmargin_core.mjs";
import { DpMarginError, type DpMarginErrorCode } from "../errors.js";
import { unwrap } from "../module/status.js";
import { TARGET_CHUNK_MS, cancelled, now } from "../train/chunked.js";
import type { ShardInit, ShardMessage, ShardPort, ShardReply, ShardSpawner } from "./protocol.js";

/** How this module starts shard workers and tells them where the wasm is. */
export interface ShardHost {
  spawn: ShardSpawner;
  init: ShardInit;
}

/** Largest accepted `workers` option. */
export const MAX_WORKERS = 8;

export class ShardClient {
  readonly #port: ShardPort;
  #pending: { resolve: (reply: ShardReply) => void; reject: (error: DpMarginError) => void }[] = [];
  #failure: DpMarginError | null = null;

  constructor(port: ShardPort) {
    this.#port = port;
    port.onReply = (reply) => {
      const waiting = this.#pending.shift();
      if (!waiting) return;
      if (reply.type === "error") {
        waiting.reject(new DpMarginError(reply.code as DpMarginErrorCode, reply.message, reply.parameter));
      } else {
        waiting.resolve(reply);
      }
    };
    port.onFailure = (message) => {
      this.#failure = new DpMarginError("INTERNAL", `a training worker stopped: ${message}`);
      for (const waiting of this.#pending.splice(0)) waiting.reject(this.#failure);
    };
  }

  call<T extends ShardReply>(message: ShardMessage, transfer: Transferable[] = []): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ resolve: resolve as (reply: ShardReply) => void, reject });
      try {
        this.#port.post(message, transfer);
      } catch (error) {
        this.#pending.pop();
        reject(new DpMarginError("INTERNAL", `cannot message a training worker: ${(error as Error)?.message ?? error}`));
      }
    });
  }

  terminate(): void {
    this.#port.terminate();
  }
}

/**
 * Shard workers started ahead of training (`startShards`): spawned and sent `init` at once, so
 * that their start and module instantiation overlap the caller's CSV read and preprocessing.
 * Owned by the caller until handed to `trainOnShards`, which terminates them; `terminate()` is
 * for a caller that fails before (idempotent).
 */
export class ShardPool {
  readonly clients: ShardClient[];
  /** Resolves when every worker has instantiated the module; rejects with its error. */
  readonly ready: Promise<unknown>;
  #terminated = false;

  constructor(clients: ShardClient[], ready: Promise<unknown>) {
    this.clients = clients;
    this.ready = ready;
    ready.catch(() => {});  // reported by trainOnShards, or never needed
  }

  terminate(): void {
    if (this.#terminated) return;
    this.#terminated = true;
    for (const s of this.clients) s.terminate();
  }
}

/** Spawns `count` shard workers and starts their module instantiation (see ShardPool). */
export function startShards(count: number, host: ShardHost): ShardPool {
  const clients: ShardClient[] = [];
  try {
    for (let i = 0; i < count; i++) clients.push(new ShardClient(host.spawn()));
  } catch (error) {
    for (const s of clients) s.terminate();
    throw new DpMarginError("INTERNAL", `cannot start ${count} training workers: ${(error as Error)?.message ?? error}`);
  }
  return new ShardPool(clients, Promise.all(clients.map((s) => s.call(host.init))));
}

/** learn::predict's output over every row, in row order (the shards' parts concatenated). */
export interface ShardPredictions {
  scores: Float64Array;
  labels: Int32Array;
}

/**
 * Drives `trainer` (started on `dataset`, rows prepared) with the workers of `pool` (from
 * `startShards`) until it is done. The prepared rows are copied out of wasm memory one shard at
 * a time and transferred (not copied again) to the workers; the dataset is released before the
 * first iteration.
 * `afterChunk(done)` runs every ~TARGET_CHUNK_MS and once at the end. With `predict` (called
 * once training is done: the released model's stacked weights), the shards then score their
 * rows with them and the predictions of every row come back, in row order — else null.
 * Workers are terminated on success, error and cancellation.
 * @throws DpMarginError CANCELLED when `signal` aborts; a shard's error code when one fails
 * (INTERNAL when a worker dies, WASM_LOAD when it cannot load the module).
 */
export async function trainOnShards(core: CoreModule, trainer: CoreTrainer, dataset: CoreDataset,
  pool: ShardPool, afterChunk: (done: boolean) => void,
  signal: AbortSignal | undefined,
  predict?: () => { weights: Float64Array; problems: number }): Promise<ShardPredictions | null> {
  let abort: (error: DpMarginError) => void = () => {};
  const aborted = new Promise<never>((_, reject) => { abort = reject; });
  aborted.catch(() => {});
  const onAbort = () => abort(cancelled("training"));
  signal?.addEventListener("abort", onAbort);
  const wait = <T>(work: Promise<T>): Promise<T> => Promise.race([work, aborted]);
  const shards = pool.clients;
  const count = shards.length;
  try {
    if (signal?.aborted) throw cancelled("training");
    await wait(pool.ready);
    // The trainer prepared the rows in place (width = features + intercept).
    const { rows: n, width } = unwrap(dataset.shape());
    const bounds = unwrap(core.shardBounds(n, count));
    // One shard at a time, so at most one shard's copy is in flight next to the wasm table.
    for (let i = 0; i < count; i++) {
      const x = unwrap(dataset.features()).slice(bounds[i] * width, bounds[i + 1] * width);
      const y = unwrap(dataset.labels()).slice(bounds[i], bounds[i + 1]);
      await wait(shards[i].call({ type: "load", rows: bounds[i + 1] - bounds[i], width, x, y }, [x.buffer, y.buffer]));
    }
    unwrap(trainer.detachRows());
    unwrap(dataset.release());  // the coordinator keeps no rows (wasm memory is reused, not returned)
    let last = now();
    for (;;) {
      if (signal?.aborted) throw cancelled("training");
      const request = unwrap(trainer.request());
      if (request.kind === "done") break;
      if (request.kind === "labels") {
        // One-vs-rest, the next class: each shard gets the new labels of its own rows.
        const { labels } = request;
        await wait(Promise.all(shards.map((s, i) =>
          s.call({ type: "labels", y: labels.slice(bounds[i], bounds[i + 1]) }))));
        unwrap(trainer.answerLabels());
      } else if (request.kind === "setup") {
        const { k, clipRadius, phi, c, classes, loss } = request;
        await wait(Promise.all(shards.map((s) => s.call({ type: "setup", k, clipRadius, phi, c, classes, loss }))));
        unwrap(trainer.answerSetup());
      } else if (request.kind === "gradients") {
        const replies = await wait(Promise.all(shards.map((s) =>
          s.call<Extract<ShardReply, { type: "gradients" }>>({ type: "gradients", weights: request.weights }))));
        unwrap(trainer.answerGradients(replies.map((r) => r.sum)));
      } else {
        const replies = await wait(Promise.all(shards.map((s) =>
          s.call<Extract<ShardReply, { type: "errors" }>>({ type: "errors", m: request.m, weights: request.weights }))));
        unwrap(trainer.answerErrors(replies.map((r) => r.counts)));
      }
      if (now() - last >= TARGET_CHUNK_MS) {
        afterChunk(false);
        last = now();
      }
    }
    afterChunk(true);
    if (!predict) return null;
    const { weights, problems } = predict();
    const parts = await wait(Promise.all(shards.map((s) =>
      s.call<Extract<ShardReply, { type: "predictions" }>>({ type: "predict", weights, problems }))));
    const out: ShardPredictions = { scores: new Float64Array(n * problems), labels: new Int32Array(n) };
    parts.forEach((p, i) => {
      out.scores.set(p.scores, bounds[i] * problems);
      out.labels.set(p.labels, bounds[i]);
    });
    return out;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    pool.terminate();
  }
}
