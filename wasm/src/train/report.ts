// The report of a run: what the core released (the plan, the selection record, the column
// ranges), in the public names of types.ts — nothing is recomputed or restated here.
import type { CoreProblemResult, CoreTrainResult, CoreTrainStart } from "../wasm/dpmargin_core.mjs";
import type { CandidateReport, ClassReport, LocalRunInfo, Plan, TrainReport } from "../types.js";
import { LIBRARY_VERSION } from "../version.js";
import { checkReleased } from "../release.js";

export const SEEDED_WARNING = "not private: seeded (deterministic noise; for tests and demos only)";

export const LOCAL_NOTE = "not private: what the run did on this machine; never publish it (K and the time are not covered by the guarantee)";

/** The local-only record of a run (never released). */
export function buildLocal(result: CoreTrainResult, elapsedMs: number): LocalRunInfo {
  return { private: false, note: LOCAL_NOTE, runs: result.problems.reduce((sum, p) => sum + p.runs.length, 0), elapsedMs };
}

// The released selection record of one binary problem. Iter releases every candidate's noisy
// score; PrivTune only the selected run (SPEC §2.7).
function released(plan: Plan, problem: CoreProblemResult): CandidateReport[] {
  const runs = plan.selector === "privtune" ? [problem.runs[problem.selectedRun]] : problem.runs;
  return runs.map((run) => {
    const c = plan.candidates[run.candidate];
    return { gamma: c.gamma, k: c.k, projected: c.projected, T: c.T, capped: c.capped, sigma: c.sigma, noisyScore: run.noisyScore };
  });
}

/** `classes`: the names of a multiclass label's classes (one-vs-rest: one problem each; joint:
 *  one problem whose weights score every class), else null. */
export function buildReport(start: CoreTrainStart, result: CoreTrainResult, classes: string[] | null): TrainReport {
  const { plan, output } = start;
  const first = result.problems[0];
  const perClass: ClassReport[] | null = classes && result.problems.length > 1
    ? result.problems.map((problem, index) => ({
      class: classes[index], index,
      selectedMargin: plan.candidates[problem.selectedCandidate].gamma,
      selectedCandidate: problem.selectedCandidate,
      candidates: released(plan, problem),
    }))
    : null;
  return checkReleased("report", {
    plan,
    output,
    selectedMargin: plan.candidates[first.selectedCandidate].gamma,
    selectedCandidate: first.selectedCandidate,
    candidates: released(plan, first),
    classes: classes && (perClass || plan.multiclass === "joint") ? classes : null,
    perClass,
    columnRanges: result.columnRanges.length ? result.columnRanges : null,
    columnScalings: result.columnScalings.length ? result.columnScalings : null,
    rangesPrivate: result.rangesPrivate,
    seeded: result.seeded,
    ...(result.seeded ? { warning: SEEDED_WARNING } : {}),
    library: LIBRARY_VERSION,
  });
}
