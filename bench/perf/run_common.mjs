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
