/** Which private selection runs over the margin grid (SPEC §2.6). */
export type Selector = "iter" | "privtune" | "fixed";
/** "tight" (default): exact GDP accounting, same (ε, δ) guarantee with less noise (SPEC §2.9);
 *  "paper": the paper's constants exactly. */
export type Calibration = "tight" | "paper";
/** Candidate score: training errors, or errors plus the public VC penalty (SPEC §2.5). */
export type ScoreKind = "empirical" | "population";
/** Data-independent pruning of hopeless margins (SPEC §2.9 item 5, docs/PRIVACY.md): "auto" is
 *  "noise-floor" with calibration "tight" and "none" with "paper". */
export type Pruning = "auto" | "none" | "noise-floor";

/** Options of {@link DpMargin.account}: everything is public — no data is needed. */
export interface AccountOptions {
  /** Target ε > 0. */
  epsilon: number;
  /** Target δ ∈ (0, 1); keep it well below 1/n. */
  delta: number;
  /** Number of training rows (public), n ≥ 2. */
  n: number;
  /** Number of features after preprocessing, d ≥ 1. */
  d: number;
  /** Public bound b on ‖x‖₂ (default 1: rows are unit-normalised). */
  normBound?: number;
  selector?: Selector;
  calibration?: Calibration;
  score?: ScoreKind;
  /** E[K] of PrivTune's geometric number of runs (> 1, default 10). Ignored by "iter". */
  expectedRuns?: number;
  /** Total failure probability β of the JL projections (default 1/n², the paper's). */
  jlFailure?: number;
  /** Cap on noisy-GD iterations per candidate (default 1000). T changes utility and time,
   *  never privacy. */
  maxIterations?: number;
  /** Margin γ of the fixed-margin learner (selector "fixed" only). */
  margin?: number;
  /** Share s ∈ (0, 1) of the GDP budget for private column ranges (0: none): μ_ranges = √s·μ,
   *  μ_train = √(1−s)·μ. Iter and fixed selectors only; their default is 0.1 unless column
   *  ranges are declared (PrivTune: 0). */
  rangeShare?: number;
  /** D in the step size η = D/√(T(n²Δ² + kσ²)) (default: the calibration's, see docs/ACCURACY.md;
   *  the paper's is 1). Utility only, never privacy. */
  stepScale?: number;
  /** Multiplier of the calibration's hinge scale c (default 1: c = γ when Φ = I in tight mode,
   *  γ/3 otherwise). Utility only, never privacy. */
  hingeScale?: number;
  /** Pruning of margins whose noise floor makes them hopeless (default "auto"). */
  pruning?: Pruning;
  /** Noise-floor pruning keeps γ only if 2Δ√k/(n·μ_run) ≤ pruneRatio (default in docs/ACCURACY.md). */
  pruneRatio?: number;
}

/** What one margin candidate will do. */
export interface CandidatePlan {
  /** Margin γ from the grid Γ. */
  gamma: number;
  /** JL dimension k_γ from the Achlioptas bound. */
  kJl: number;
  /** Whether the data is projected (false when k_γ ≥ d: Φ = I). */
  projected: boolean;
  /** Dimension trained in (k_γ if projected, else d). */
  k: number;
  /** Hinge scale c. */
  c: number;
  /** Clip radius R. */
  clipRadius: number;
  /** Replace-one sensitivity Δ = 2R/c of the summed gradient. */
  sensitivity: number;
  /** Noisy-GD iterations run. */
  T: number;
  /** Iterations the calibration rule asked for before the cap. */
  TUncapped: number;
  /** Whether maxIterations bound. */
  capped: boolean;
  /** Gradient noise sd per step. */
  sigma: number;
  /** Step size η. */
  stepSize: number;
  /** Public population-score penalty (0 for the empirical score). */
  scorePenalty: number;
  /** The pruning criterion 2Δ√k/(n·μ_run): the floor of the paper's utility bound over n. */
  noiseFloorRatio: number;
}

/** The data-free plan of a training run (SPEC §2). */
export interface Plan {
  epsilon: number;
  delta: number;
  n: number;
  d: number;
  normBound: number;
  selector: Selector;
  calibration: Calibration;
  score: ScoreKind;
  maxIterations: number;
  jlFailure: number;
  /** μ of the whole run (μ-GDP). */
  mu: number;
  /** μ of the private column ranges (0 when none) and of training: μ² = μ_ranges² + μ_train². */
  muRanges: number;
  muTrain: number;
  rangeShare: number;
  /** μ of each base noisy-GD run. */
  muRun: number;
  /** sd of the Gaussian noise added to each candidate's error count. */
  scoreSd: number;
  /** ε recomputed from `mu` by the same accounting (≤ epsilon). */
  epsilonSpent: number;
  neighbouring: "replace-one";
  /** PrivTune only. */
  expectedRuns?: number;
  tnbEta?: number;
  tnbR?: number;
  probabilityMiss?: number;
  /** D of the step-size rule, and the multiplier of the hinge scale, actually used. */
  stepScale: number;
  hingeScale: number;
  /** Pruning actually applied ("none" or "noise-floor"), its ratio, |Γ| before pruning, and the
   *  margins pruned (public: computed from n, d, b, ε, δ and the options only). */
  pruning: Exclude<Pruning, "auto">;
  pruneRatio: number;
  gridSize: number;
  pruned: number[];
  candidates: CandidatePlan[];
}
