// Shard worker entry for browsers (a module Web Worker started by shard_web.ts).
import { shardService } from "./service.js";

const scope = self as unknown as {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
};
const handle = shardService((reply, transfer) => scope.postMessage(reply, transfer ?? []));
scope.onmessage = (event) => void handle(event.data);
