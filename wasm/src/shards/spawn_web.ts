// Starts shard workers in browsers and Web Workers: module workers from this package's own
// files (same origin under any bundler that understands `new URL(..., import.meta.url)`, e.g.
// Vite; no SharedArrayBuffer, so no cross-origin isolation is needed).
import type { ShardPort, ShardReply } from "./protocol.js";

export function spawnWebShard(): ShardPort {
  if (typeof Worker !== "function") {
    throw new Error("Web Workers are not available here");
  }
  const worker = new Worker(new URL("./shard.worker.js", import.meta.url), { type: "module" });
  const port: ShardPort = {
    post: (message, transfer = []) => worker.postMessage(message, transfer),
    onReply: () => {},
    onFailure: () => {},
    terminate: () => worker.terminate(),
  };
  worker.onmessage = (event: MessageEvent<ShardReply>) => port.onReply(event.data);
  worker.onerror = (event) => {
    event.preventDefault?.();
    port.onFailure(event.message || "the worker failed to start or crashed");
  };
  worker.onmessageerror = () => port.onFailure("a message from the worker could not be read");
  return port;
}
