// Starts shard workers in Node (worker_threads).
import { Worker } from "node:worker_threads";
import type { ShardPort, ShardReply } from "./protocol.js";

export function spawnNodeShard(): ShardPort {
  const worker = new Worker(new URL("./shard_node.js", import.meta.url));
  let ended = false;
  const port: ShardPort = {
    post: (message, transfer = []) => worker.postMessage(message, transfer as ArrayBuffer[]),
    onReply: () => {},
    onFailure: () => {},
    terminate: () => {
      ended = true;
      void worker.terminate();
    },
  };
  worker.on("message", (reply: ShardReply) => port.onReply(reply));
  worker.on("error", (error: Error) => port.onFailure(error.message));
  worker.on("exit", (code) => {
    if (!ended) port.onFailure(`the worker exited (code ${code})`);
  });
  return port;
}
