// The page's side of the worker protocol (protocol.ts): promises for results, callbacks for
// events, and a fresh worker when the old one can no longer be trusted (a wasm abort).
import type { Reply, Request, WorkerError } from "./protocol.ts";

type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: WorkerError) => void;
  onEvent?: (reply: Reply) => void;
};

/** Distributes over the union: a Request without its id. */
type Body<T> = T extends unknown ? Omit<T, "id"> : never;

export class WorkerClient {
  #worker!: Worker;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  /** Called after a worker was replaced (state in the old one, e.g. the loaded table, is gone). */
  onRestart: () => void = () => {};

  constructor() {
    this.#start();
  }

  #start(): void {
    this.#worker = new Worker(new URL("./core.worker.ts", import.meta.url), { type: "module" });
    this.#worker.onmessage = (event: MessageEvent<Reply>) => this.#receive(event.data);
    this.#worker.onerror = (event) => {
      event.preventDefault();
      this.#restart({ code: "INTERNAL", message: `the engine stopped: ${event.message || "worker error"}` });
    };
  }

  #restart(error: WorkerError): void {
    this.#worker.terminate();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#start();
    for (const p of pending) p.reject(error);
    this.onRestart();
  }

  #receive(reply: Reply): void {
    const p = this.#pending.get(reply.id);
    if (!p) return;
    if (reply.type === "result") {
      this.#pending.delete(reply.id);
      p.resolve(reply.value);
    } else if (reply.type === "error") {
      this.#pending.delete(reply.id);
      p.reject(reply.error);
      if (reply.error.fatal) this.#restart({ code: "INTERNAL", message: "the engine was restarted" });
    } else {
      p.onEvent?.(reply);
    }
  }

  /** Send a request; resolves with its result, rejects with a WorkerError. */
  call<T>(body: Body<Request>, onEvent?: (reply: Reply) => void): { id: number; done: Promise<T> } {
    const id = this.#nextId++;
    const done = new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onEvent });
      this.#worker.postMessage({ ...body, id } as Request);
    });
    return { id, done };
  }

  request<T>(body: Body<Request>): Promise<T> {
    return this.call<T>(body).done;
  }
}
