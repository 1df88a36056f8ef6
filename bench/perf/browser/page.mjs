// The bench page: one module worker (worker.mjs) per page; the driver (chromium_run.mjs) calls
// window.bench.* through page.evaluate and reads the renderer's memory between the calls.
let worker = null;
let pending = null;

function call(message) {
  if (!worker) {
    worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
    worker.onmessage = (e) => { const p = pending; pending = null; p?.resolve(e.data); };
    worker.onerror = (e) => { const p = pending; pending = null; p?.resolve({ error: `worker error: ${e.message}` }); };
  }
  return new Promise((resolve) => {
    pending = { resolve };
    worker.postMessage(message);
  });
}

window.bench = {
  ready: () => call({ type: "ready" }),
  train: (cfg) => call({ type: "train", cfg }),
  test: () => call({ type: "test" }),
  progress: (cfg) => call({ type: "progress", cfg }),
};
document.body.dataset.ready = "1";
