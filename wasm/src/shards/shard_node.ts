// Shard worker entry for Node (a worker_threads Worker started by shard_node_spawn.ts).
import { parentPort } from "node:worker_threads";
import { shardService } from "./service.js";
import type { ShardMessage } from "./protocol.js";

const port = parentPort!;
const handle = shardService((reply, transfer) => port.postMessage(reply, (transfer ?? []) as ArrayBuffer[]));
port.on("message", (message: ShardMessage) => void handle(message));
