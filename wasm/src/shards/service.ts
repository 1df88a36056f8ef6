// The shard side of row sharding (docs/reference/SHARDING.md), independent of the messaging API: a shard
// worker entry (shard.worker.ts in browsers, shard_node.ts in Node) forwards messages here.
// It holds its rows in its own wasm instance and answers with sums over them, nothing else —
// and, after training and only when asked, the released model's predictions of its rows (the
// caller's local training predictions; the coordinator held these rows itself before).
import createDpMarginCore from "../wasm/dpmargin_core.mjs";
import type { CoreModule, CoreShard, Status } from "../wasm/dpmargin_core.mjs";
import type { ShardMessage, ShardReply } from "./protocol.js";

class ShardFailure extends Error {
  constructor(readonly code: string, message: string, readonly parameter?: string) {
    super(message);
  }
}

function unwrap<T>(status: Status<T>): T {
  if (status.ok) return status.value;
  throw new ShardFailure(status.code, status.message, status.parameter || undefined);
}

export function shardService(post: (reply: ShardReply, transfer?: Transferable[]) => void):
  (message: ShardMessage) => Promise<void> {
  let core: CoreModule | null = null;
  let shard: CoreShard | null = null;
  const need = () => {
    if (!shard) throw new ShardFailure("INTERNAL", "shard worker used before init");
    return shard;
  };
  // Messages are handled one at a time, in order (init is asynchronous).
  let queue: Promise<void> = Promise.resolve();
  const handle = async (message: ShardMessage): Promise<void> => {
    try {
      switch (message.type) {
        case "init": {
          try {
            core = await createDpMarginCore({
              ...(message.wasmBinary ? { wasmBinary: message.wasmBinary } : {}),
              ...(message.wasmUrl ? { locateFile: () => message.wasmUrl! } : {}),
            });
          } catch (error) {
            throw new ShardFailure("WASM_LOAD",
              `a training worker could not instantiate the WebAssembly module: ${(error as Error)?.message ?? error}`);
          }
          shard = new core.Shard();
          post({ type: "ok" });
          return;
        }
        case "load": {
          const s = need();
          unwrap(s.allocate(message.rows, message.width));
          // One copy into wasm memory; the transferred buffers are dropped afterwards.
          unwrap(s.features()).set(message.x);
          unwrap(s.labels()).set(message.y);
          post({ type: "ok" });
          return;
        }
        case "labels":
          unwrap(need().setLabels(message.y));
          post({ type: "ok" });
          return;
        case "setup":
          unwrap(need().setup(message.k, message.clipRadius, message.phi, message.c, message.classes, message.loss));
          post({ type: "ok" });
          return;
        case "gradients": {
          const sum = unwrap(need().gradients(message.weights)).slice();  // out of wasm memory
          post({ type: "gradients", sum }, [sum.buffer]);
          return;
        }
        case "errors": {
          const counts = unwrap(need().countErrors(message.weights, message.m));
          post({ type: "errors", counts }, [counts.buffer]);
          return;
        }
        case "predict": {
          const { scores, labels } = unwrap(need().predict(message.weights, message.problems));
          post({ type: "predictions", scores, labels }, [scores.buffer, labels.buffer]);
          return;
        }
        default:
          throw new ShardFailure("INTERNAL", `unknown shard message ${(message as { type: string }).type}`);
      }
    } catch (error) {
      if (error instanceof ShardFailure) {
        post({ type: "error", code: error.code, message: error.message, ...(error.parameter ? { parameter: error.parameter } : {}) });
      } else if (error instanceof RangeError) {
        post({ type: "error", code: "OUT_OF_MEMORY", message: `a training worker ran out of memory: ${error.message}` });
      } else {
        post({ type: "error", code: "INTERNAL", message: `a training worker failed: ${(error as Error)?.message ?? error}` });
      }
    }
  };
  return (message) => (queue = queue.then(() => handle(message)));
}
