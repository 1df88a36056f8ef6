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
  profile: (cfg) => call({ type: "profile", cfg }),
  // The Files the driver put into the two inputs (setInputFiles: backed by the disk, as a user's).
  // e2e: timed on the page from the click-equivalent to the accuracy, the worker's start and the
  // wasm instantiation included (it must be the first call of the page).
  e2e: async (cfg) => {
    const [train, test] = ["file-a", "file-b"].map((id) => document.getElementById(id).files[0]);
    const t0 = performance.now();
    const r = await call({ type: "e2e", cfg, train, test });
    return { ...r, pageSeconds: (performance.now() - t0) / 1000 };
  },
  csvParse: (cfg) => call({ type: "csvParse", cfg, file: document.getElementById("file-a").files[0] }),
};
document.body.dataset.ready = "1";
