// The report of a run: what the core released (the plan, the selection record, the column
// ranges), in the public names of types.ts — nothing is recomputed or restated here.
import type { CoreTrainResult, CoreTrainStart } from "../wasm/dpmargin_core.mjs";
import type { CandidateReport, LocalRunInfo, TrainReport } from "../types.js";
import { LIBRARY_VERSION } from "../version.js";

export const SEEDED_WARNING = "not private: seeded (deterministic noise; for tests and demos only)";

export const LOCAL_NOTE = "not private: what the run did on this machine; never publish it (K and the time are not covered by the guarantee)";

/** The local-only record of a run (never released). */
export function buildLocal(result: CoreTrainResult, elapsedMs: number): LocalRunInfo {
  return { private: false, note: LOCAL_NOTE, runs: result.runs.length, elapsedMs };
}

export function buildReport(start: CoreTrainStart, result: CoreTrainResult): TrainReport {
  const { plan, output } = start;
  // Iter releases every candidate's noisy score; PrivTune only the selected run (SPEC §2.7).
  const released = plan.selector === "privtune" ? [result.runs[result.selectedRun]] : result.runs;
  const candidates: CandidateReport[] = released.map((run) => {
    const c = plan.candidates[run.candidate];
    return { gamma: c.gamma, k: c.k, projected: c.projected, T: c.T, capped: c.capped, sigma: c.sigma, noisyScore: run.noisyScore };
  });
  return {
    plan,
    output,
    selectedMargin: plan.candidates[result.selectedCandidate].gamma,
    selectedCandidate: result.selectedCandidate,
    candidates,
    columnRanges: result.columnRanges.length ? result.columnRanges : null,
    rangesPrivate: result.rangesPrivate,
    seeded: result.seeded,
    ...(result.seeded ? { warning: SEEDED_WARNING } : {}),
    library: LIBRARY_VERSION,
  };
}
