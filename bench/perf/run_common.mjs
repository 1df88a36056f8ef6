// Shared by the Node runner (node_run.mjs) and the Chromium worker (browser/worker.mjs), so both
// environments train with the same options and score accuracy the same way.

/** The train() options of one configuration (seeded: a benchmark, not a private release).
 *  maxIterations is passed only when the configuration or a constant package default sets it:
 *  otherwise the core resolves it (with selector "auto" it is a rule, not a constant). */
export const trainOptions = (cfg, defaultMaxIterations, extra = {}) => {
  const maxIterations = cfg.maxIterations ?? defaultMaxIterations;
  return {
    epsilon: cfg.epsilon ?? 1, delta: cfg.delta ?? 1e-5, seed: cfg.seed ?? 1,
    ...(maxIterations !== undefined && maxIterations !== null ? { maxIterations } : {}),
    ...(cfg.workers !== undefined ? { workers: cfg.workers } : {}), ...extra,
  };
};

/** Fraction of predicted labels (±1 or 1/0) that agree in sign with the truth. */
export const accuracy = (labels, truth) => {
  let ok = 0;
  for (let i = 0; i < labels.length; i++) if ((labels[i] > 0) === (truth[i] > 0)) ok++;
  return ok / labels.length;
};

/** Times the CSV passes through a CSV onProgress callback: `onProgress` to pass in the CSV
 *  options; `seconds()` = per pass (scan, count, fill — as they came), from the end of the previous
 *  pass (or `t0`) to the pass's last progress event. */
export function passTimer(t0 = performance.now()) {
  const ends = {};
  return {
    onProgress: (p) => { ends[p.pass] = performance.now(); },
    lastEnd: () => Math.max(...Object.values(ends)),
    seconds: () => {
      let previous = t0;
      const out = {};
      for (const [pass, end] of Object.entries(ends).sort((a, b) => a[1] - b[1])) {
        out[pass] = (end - previous) / 1000;
        previous = end;
      }
      return out;
    },
  };
}
