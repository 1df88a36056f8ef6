// Messages between the coordinating thread (train.ts) and a shard worker (shard_service.ts).
// Every request gets exactly one reply, in order. Only sums over the shard's rows come back
// (and, after training when asked, the released model's predictions of them); noise, randomness
// and selection never leave the coordinator (docs/reference/SHARDING.md).

/** How a shard worker finds the WebAssembly binary: the bytes, or a URL, or its default. */
export interface ShardInit { type: "init"; wasmBinary?: ArrayBuffer; wasmUrl?: string }

export type ShardMessage =
  | ShardInit
  /** Prepared rows (row-major float32, labels ±1 — a joint multiclass run's: class codes, −1 for
   *  a row of none); the buffers are transferred, not copied. */
  | { type: "load"; rows: number; width: number; x: Float32Array; y: Int8Array }
  /** One-vs-rest between two problems: the next problem's ±1 labels of the shard's rows (the
   *  rows stay; docs/reference/MULTICLASS.md). */
  | { type: "labels"; y: Int8Array }
  /** `classes`: 0, or K of a joint multiclass step (K weight columns per candidate; the rows'
   *  labels are class codes), with its `loss`. */
  | { type: "setup"; k: number; clipRadius: number; phi: Float32Array | null; c: Float64Array; classes: number; loss: string }
  | { type: "gradients"; weights: Float32Array }
  | { type: "errors"; m: number; weights: Float64Array }
  /** After training, only when the caller asked for the training predictions (local, not
   *  private): the released model's scores of the shard's rows (`problems` stacked weight
   *  vectors, as learn::predict takes them). */
  | { type: "predict"; weights: Float64Array; problems: number };

export type ShardReply =
  | { type: "ok" }
  /** Σ over the shard's rows of the hinge gradients, k × m column-major. */
  | { type: "gradients"; sum: Float64Array }
  /** #{i : y_i⟨w_j, x_i⟩ ≤ 0} over the shard's rows, per candidate j (joint multiclass: the rows
   *  whose class does not score strictly highest). */
  | { type: "errors"; counts: Float64Array }
  /** learn::predict over the shard's rows: rows × problems scores (row-major), a label per row. */
  | { type: "predictions"; scores: Float64Array; labels: Int32Array }
  | { type: "error"; code: string; message: string; parameter?: string };

/** A running shard worker, whatever the platform (Web Worker or worker_threads). */
export interface ShardPort {
  post(message: ShardMessage, transfer?: Transferable[]): void;
  /** Set by the caller: every reply, and a fatal failure (the worker died or could not start). */
  onReply: (reply: ShardReply) => void;
  onFailure: (message: string) => void;
  terminate(): void;
}

/** Starts one shard worker. */
export type ShardSpawner = () => ShardPort;
