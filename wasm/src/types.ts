// The package's public data types: options, the plan, progress, the report. Names are the
// core's (core/include/dpmargin/plan/plan.hpp describePlan, run/run.hpp optionSpecs): one name
// per concept across the boundary. Every default is the core's; `dp.options` lists them.

/** Which private selection runs over the margin grid (SPEC §2.6), or "auto" (the default with
 *  calibration "tight"): one run at a public margin γ₀ with the whole budget, no selection — or,
 *  on a table large enough for the choice to pay, a cheap private choice among γ₀/3, γ₀ and 3γ₀
 *  whose scores take a small share of μ² (the rule and its numbers: docs/design/ACCURACY.md, "The
 *  selection"; docs/reference/PRIVACY.md). */
export type Selector = "iter" | "privtune" | "fixed" | "auto";
/** "tight" (default): exact GDP accounting, same (ε, δ) guarantee with less noise (SPEC §2.9);
 *  "paper": the paper's constants exactly. */
export type Calibration = "tight" | "paper";
/** Candidate score: training errors, or errors plus the public VC penalty (SPEC §2.5). */
export type ScoreKind = "empirical" | "population";
/** Data-independent pruning of hopeless margins (SPEC §2.9 item 5, docs/reference/PRIVACY.md): "auto" is
 *  "noise-floor" with calibration "tight" and "none" with "paper". */
export type Pruning = "auto" | "none" | "noise-floor";
/** The released noisy-GD iterate. */
export type OutputIterate = "last" | "average";
/** How rows are brought inside the public norm bound b (SPEC §3). */
export type RowNormalization = "unit-norm" | "clip";

/** The options of a run that change what is computed (the core's option table). Every one is
 *  optional except the budget; unset means the core's default (`dp.options` lists them). */
export interface MethodOptions {
  /** Target ε > 0 (replace-one neighbours). */
  epsilon: number;
  /** Target δ ∈ (0, 1); keep it well below 1/n. */
  delta: number;
  /** Private selection (default "auto" with calibration "tight", "iter" (M*) with "paper"). */
  selector?: Selector;
  calibration?: Calibration;
  score?: ScoreKind;
  /** E[K] of PrivTune's geometric number of runs (> 1, default 10). Ignored by "iter". */
  expectedRuns?: number;
  /** Total failure probability β of the JL projections (default 1/n², the paper's). */
  jlFailure?: number;
  /** Cap on noisy-GD iterations per candidate (default 600 with selector "auto", which runs
   *  max(200, ⌈800·μ_run⌉) up to it, μ_run its runs' budget; else 200). T changes utility and time, never privacy. */
  maxIterations?: number;
  /** Margin γ of the fixed-margin learner (selector "fixed" only, required there). */
  margin?: number;
  /** Share s ∈ [0, 1) of the GDP budget for private column ranges (0: none): μ_ranges = √s·μ,
   *  μ_train = √(1−s)·μ. Default 0.1 with "iter", "fixed" and "auto" unless column ranges are
   *  declared; 0 with "privtune" (its accounting is not GDP). */
  rangeShare?: number;
  /** D in the step size η = D/√(T(n²Δ² + kσ²)) (utility only). */
  stepScale?: number;
  /** Multiplier of the calibration's hinge scale c (utility only). */
  hingeScale?: number;
  /** Pruning of margins whose noise floor makes them hopeless (default "auto"). */
  pruning?: Pruning;
  /** Noise-floor pruning keeps γ only if 2Δ√k/(n·μ_run) ≤ pruneRatio (default 100). */
  pruneRatio?: number;
  /** A label of 3 or more classes: "joint" (default) trains ONE noisy-GD model on the K × d
   *  weight matrix with the whole budget (sensitivity 2√2·R/c); "one-vs-rest" trains K binary
   *  problems at μ_train/√K each (docs/reference/MULTICLASS.md). Ignored for a binary label. */
  multiclass?: "joint" | "one-vs-rest";
  /** The joint model's loss: "hinge" (default; the multiclass hinge of Crammer–Singer) or
   *  "softmax" (multinomial logistic). */
  multiclassLoss?: "hinge" | "softmax";
  /** Public bound b on ‖x‖₂ after preprocessing (default 1). */
  normBound?: number;
}

/** Per-row preprocessing: public constants only, so it costs no privacy. */
export interface PreprocessingOptions {
  /** Append the constant feature 1 before the row operation (default true). */
  intercept?: boolean;
  /** "unit-norm" (default): x ← b·x/‖x‖; "clip": x ← x·min(1, b/‖x‖). */
  rowNormalization?: RowNormalization;
  /** Public norm bound b (default 1). */
  normBound?: number;
  /**
   * Public per-column ranges [lo, hi], one per feature column: x ← clamp((x − lo)/(hi − lo), 0, 1)
   * before everything else. Only declare ranges that are public (known without looking at the
   * data); otherwise `rangeShare` estimates them privately.
   */
  columnRanges?: [number, number][];
  /** The per-value map of each declared range (default "min-max" for all): "symmetric" keeps a
   *  centred column centred (x/hi, lo = −hi); "signed-log" compresses heavy tails. */
  columnMaps?: ColumnMap[];
}

/** Options of {@link DpMargin.account}: everything is public — no data is needed. */
export interface AccountOptions extends MethodOptions {
  /** Number of training rows (public), n ≥ 2. */
  n: number;
  /** Model dimension, the intercept included, d ≥ 1. */
  d: number;
  /** Classes of the label (default 2: binary). 3 to 50: one joint model at μ_train (default),
   *  or with `multiclass: "one-vs-rest"` one binary problem per class, each with
   *  μ_class = μ_train/√classes (docs/reference/MULTICLASS.md). */
  classes?: number;
}

/** One option of the core's table (`dp.options`): what it is, its type and its default. */
export interface OptionInfo {
  name: string;
  type: "number" | "count" | "boolean" | "choice" | "ranges" | "text" | "texts" | "schema";
  /** Where it applies: training and plans, training only, data-free plans only, or reading a
   *  table (the CSV options). */
  scope: "both" | "train" | "plan" | "table";
  group: "budget" | "method" | "preprocessing" | "randomness" | "table" | "data";
  /** The allowed values of a "choice". */
  choices: string[];
  /** The default when it is a constant, else null (a rule, or required). */
  default: number | boolean | string | null;
  /** What an unset option means, in words. */
  defaultText: string;
  help: string;
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

/** The resolved plan of a run (SPEC §2): every setting and every number, from public
 *  quantities only. */
export interface Plan {
  epsilon: number;
  delta: number;
  n: number;
  /** Model dimension (the intercept included). */
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
  /** A label of 3 to 50 classes (absent for a binary label): its number of classes and how they
   *  train — "joint": one model on K × k weights at μ_train (every candidate's sensitivity is
   *  2√2·R/c, its noise has k·K coordinates), with `multiclassLoss`; "one-vs-rest": K binary
   *  problems, each at `muClass` = μ_train/√classes, and every candidate and score number below
   *  is that of one problem (docs/reference/MULTICLASS.md). */
  classes?: number;
  multiclass?: "joint" | "one-vs-rest";
  multiclassLoss?: "hinge" | "softmax";
  muClass?: number;
  rangeShare: number;
  /** Private category discovery (CSV runs; 0 when none): its μ, the number of columns (label
   *  included) it ran on and its share of the budget; σ and τ of its noisy counts and its δ_τ
   *  when it ran (docs/reference/PRIVACY_SCHEMA.md, "Category discovery"). */
  muDiscovery: number;
  discoveryColumns: number;
  discoveryShare: number;
  discoverySigma?: number;
  discoveryThreshold?: number;
  discoveryDeltaThreshold?: number;
  /** The label's classes discovered (an undeclared text label): their own noisy histogram's μ
   *  and σ, its threshold τ (a class with τ training rows is found half of the time) and
   *  classFoundAt = ⌈τ + 2σ⌉ (found with probability 97.7%): the plan's statement of which class
   *  sizes it will see (docs/reference/MULTICLASS.md, "Class lists at small n"). */
  classDiscoveryMu?: number;
  classDiscoverySigma?: number;
  classThreshold?: number;
  classFoundAt?: number;
  /** The private schema decisions of a CSV run (kinds, nullable, the label's class source, read
   *  off noisy cell counts; docs/reference/PRIVACY_SCHEMA.md, "The schema"): the number of noisy counts, the share
   *  of the budget, its μ and the counts' noise sd. Absent when the schema asks nothing. */
  schemaCoordinates?: number;
  schemaShare?: number;
  muSchema?: number;
  schemaSigma?: number;
  /** The δ the GDP part is read at: δ less discovery's δ_τ whenever the run may discover (δ
   *  otherwise); the GDP part's ε is then ε less ln(1/(1 − δ_τ)). */
  deltaGdp: number;
  /** μ of each base noisy-GD run. */
  muRun: number;
  /** sd of the Gaussian noise added to each candidate's error count (0 when nothing is scored). */
  scoreSd: number;
  /** Whether the runs are scored and the model of the smallest noisy score released: iter and
   *  privtune; auto on a large table (its choice among three margins); false for fixed and for
   *  auto's single run. */
  selects: boolean;
  /** ε recomputed from `mu` by the same accounting (≤ epsilon). */
  epsilonSpent: number;
  neighbouring: "replace-one";
  /** Selector "auto" only: the margin γ₀ it resolved to — its one candidate's γ, or the middle
   *  of its three {γ₀/3, γ₀, 3γ₀} when it selects (public: from n, b and μ_run alone). */
  margin?: number;
  /** PrivTune only. */
  expectedRuns?: number;
  tnbEta?: number;
  tnbR?: number;
  probabilityMiss?: number;
  /** D of the step-size rule, and the multiplier of the hinge scale. */
  stepScale: number;
  hingeScale: number;
  /** Pruning applied ("none" or "noise-floor"), its ratio, |Γ| before pruning, and the margins
   *  pruned (public: computed from n, d, b, ε, δ and the options only). */
  pruning: Exclude<Pruning, "auto">;
  pruneRatio: number;
  gridSize: number;
  pruned: number[];
  candidates: CandidatePlan[];
  /** Plain-language advice (the core's plan::advise, from the plan's public numbers only). */
  advice: PlanAdvice;
}

/** "good": the best candidate's noise floor ratio ≤ 1 (the noise at or below the signal);
 *  "marginal": ≤ pruneRatio; "too little data": above (docs/reference/LEARNERS.md). */
export type PlanVerdict = "good" | "marginal" | "too little data";

/** What a plan means in plain words (docs/reference/LEARNERS.md, "What the plan tells you"). */
export interface PlanAdvice {
  verdict: PlanVerdict;
  /** The best (smallest) noiseFloorRatio among the candidates: noise over signal. */
  noiseFloorRatio: number;
  /** Margins of the candidates whose ratio is ≤ 1. */
  usableMargins: number[];
  /** The smallest n (other settings unchanged) at which the ratio reaches 1; absent when none
   *  up to 10¹² rows. */
  nForGood?: number;
  /** The smallest ε (same n and δ) at which the ratio reaches 1; absent when none up to 1000. */
  epsilonForGood?: number;
  /** One or two plain sentences, e.g. "With n = 1,000 rows at ε = 1 the noise is 3.2× the
   *  signal: …". */
  text: string;
  /** What the selector does at this n and ε, and why (the core's rule, with its numbers): auto's
   *  one run at the public margin γ₀ and why a choice would not pay, or its choice among three
   *  margins; Iter's and PrivTune's selection; the fixed margin. */
  selection: string;
}

/** Training progress, emitted between chunks of iterations. */
export interface TrainProgress {
  /** Base runs completed so far. */
  run: number;
  /** Number of base runs: the grid size (iter), K (privtune) or 1 (fixed, auto). */
  runs: number;
  /** Base runs advancing together (unprojected candidates train in one batch). */
  batch: number;
  /** Index in `plan.candidates` of the margin being trained (the first of a batch), and its γ. */
  candidate: number;
  gamma: number;
  /** Noisy-GD iteration within the run, of `iterations`. */
  iteration: number;
  iterations: number;
  /** Overall fraction done in [0, 1] (by iterations; PrivTune's later runs are estimated). */
  fraction: number;
  elapsedMs: number;
  /** The binary problem being trained (0-based; one-vs-rest: class `problem` against the rest)
   *  and their number (1 for a binary label). `run`, `runs`, `iteration` are the problem's. */
  problem: number;
  problems: number;
}

/** One margin candidate in the released selection record (SPEC §2.7). */
export interface CandidateReport {
  gamma: number;
  k: number;
  projected: boolean;
  T: number;
  capped: boolean;
  sigma: number;
  /** Noisy score released by Iter (NaN for the fixed-margin learner and auto). */
  noisyScore: number;
}

/** One class of a multiclass (one-vs-rest) run: the selection record of its binary problem. */
export interface ClassReport {
  /** The class name (class `index` against the rest). */
  class: string;
  index: number;
  selectedMargin: number;
  /** Index of the selected margin in `plan.candidates`. */
  selectedCandidate: number;
  /** As TrainReport.candidates, for this class's problem. */
  candidates: CandidateReport[];
}

/** What a training run released, and how it was accounted (SPEC §2.7, §5.2). */
export interface TrainReport {
  /** The resolved plan: every setting (ε, δ, μ, selector, …) and every candidate's numbers. */
  plan: Plan;
  /** The released noisy-GD iterate. */
  output: OutputIterate;
  /** The selected margin (one-vs-rest: that of the first class; every class's is in
   *  `perClass`). */
  selectedMargin: number;
  /** Index of the selected margin in `plan.candidates`. */
  selectedCandidate: number;
  /** Iter: every candidate with its noisy score; PrivTune: the selected one only (its theorem
   *  covers the selected run with the number of runs K hidden: K is never released). */
  candidates: CandidateReport[];
  /** Multiclass: the class names, in code order (null for a binary label); one-vs-rest also
   *  every class's selection record in `perClass` (null otherwise: the joint model has one
   *  selection record, the fields above). */
  classes: string[] | null;
  perClass: ClassReport[] | null;
  /** Column ranges used for min–max scaling ([lo, hi] per feature), null when none; released
   *  with the model (private when `rangesPrivate`). */
  columnRanges: [number, number][] | null;
  /** The same columns' scalings with their per-value map and how each was chosen (declared by
   *  the user, private from the noisy histogram, the public signed-log fallback where the
   *  histogram supported no range, or the table's pooled span; docs/design/SCALING.md), null when none. */
  columnScalings: ColumnScaling[] | null;
  rangesPrivate: boolean;
  seeded: boolean;
  /** Present when seeded: outputs of a seeded run are not differentially private. */
  warning?: string;
  library: string;
}

/**
 * What a run did that is NOT released and NOT covered by its privacy guarantee: for the user's
 * own eyes only (never put it in a report, a model file or anything published). PrivTune's
 * number of runs K and the run time both depend on the data's run, and K is exactly what
 * PrivTune's theorem keeps hidden.
 */
export interface LocalRunInfo {
  private: false;
  note: string;
  /** Base runs made: the number of candidates (iter), K (privtune) or 1 (fixed, auto). */
  runs: number;
  elapsedMs: number;
}

/** The per-value map of a column scaling: min-max clamp((x − lo)/(hi − lo), 0, 1); symmetric
 *  clamp(x/hi, −1, 1) with lo = −hi; signed-log sign(x)·log1p(|x|)/hi with lo = −hi, unclamped. */
export type ColumnMap = "min-max" | "symmetric" | "signed-log";

/** One column's released scaling (docs/design/SCALING.md). */
export interface ColumnScaling {
  lo: number;
  hi: number;
  map: ColumnMap;
  /** declared: a public range the user gave; private: supported by the noisy histogram (covered
   *  by μ_ranges); fallback: no range was supported, the public signed-log transform; pooled: the
   *  column's own histogram supported nothing (or only 0) and the table is on one scale, so it
   *  takes the table's span from the sum of all columns' noisy histograms (covered by μ_ranges;
   *  docs/design/SCALING.md, "The rule", step 5). */
  path: "declared" | "private" | "fallback" | "pooled";
}
