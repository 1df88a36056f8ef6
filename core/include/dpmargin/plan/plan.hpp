// The data-free plan of a training run (SPEC §2.2–2.7): everything the mechanism will do that
// depends only on public quantities (ε, δ, n, d, b and the options), so it can be shown — and
// checked against the paper — before any data is read.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dpmargin/accounting/discovery.hpp"

namespace dpmargin::plan {

// Iter: paper Algo 2 (M*); PrivTune: Algo 3 (M′); Fixed: one JL-GD run at a given margin with
// the whole budget (the paper's Table 1 baselines, which assume a known margin); Auto: unprojected
// noisy GD at a public margin γ₀ computed from (n, b, μ) alone — one run with the whole budget,
// or, when the table is large enough for a cheap choice (autoSelects), an Iter over the three
// public margins {γ₀/f, γ₀, f·γ₀} whose runs share autoSelectRunShare of μ² (docs/design/ACCURACY.md,
// "The default").
enum class Selector { kIter, kPrivTune, kFixed, kAuto };

// Selectors over the paper's margin grid Γ (iter, privtune): the ones noise-floor pruning is for.
inline bool searchesGrid(Selector s) noexcept { return s == Selector::kIter || s == Selector::kPrivTune; }
// Auto's selection: three candidates (γ₀/f, γ₀, f·γ₀).
inline constexpr std::uint64_t kAutoSelectCandidates = 3;
enum class Calibration { kTight, kPaper };          // SPEC §2.9
enum class ScoreKind { kEmpirical, kPopulation };  // SPEC §2.5
// Data-independent pruning of hopeless margins (SPEC §2.9 item 5; docs/reference/PRIVACY.md).
enum class Pruning { kNone, kNoiseFloor };
// A label of K ≥ 3 classes (docs/reference/MULTICLASS.md): one joint noisy GD on the K × k weight matrix
// (one mechanism at μ_train; a row's gradient touches the K rows of W with Frobenius norm
// ≤ √2·R/c, so Δ = 2√2·R/c), or K binary one-vs-rest problems at μ_train/√K each.
enum class Multiclass { kJoint, kOneVsRest };
// The joint learner's loss on the scores s = Wz: the multiclass hinge at scale c
// (Crammer–Singer, max(0, 1 − (s_y − max_{j≠y} s_j)/c)) or the multinomial logistic loss of
// s/c (softmax cross-entropy). Both have per-row gradients of Frobenius norm ≤ √2·‖z‖/c.
enum class JointLoss { kHinge, kSoftmax };

// Public names used by the JS API and the CLI ("iter", "tight", "empirical", …).
const char* toString(Selector selector) noexcept;
const char* toString(Calibration calibration) noexcept;
const char* toString(ScoreKind score) noexcept;
const char* toString(Pruning pruning) noexcept;
const char* toString(Multiclass multiclass) noexcept;
const char* toString(JointLoss loss) noexcept;
// Parse a public name; throws BAD_PARAMETER naming `parameter` on an unknown value.
Selector parseSelector(const std::string& value, const char* parameter = "selector");
Calibration parseCalibration(const std::string& value, const char* parameter = "calibration");
ScoreKind parseScoreKind(const std::string& value, const char* parameter = "score");
Pruning parsePruning(const std::string& value, const char* parameter = "pruning");
Multiclass parseMulticlass(const std::string& value, const char* parameter = "multiclass");
JointLoss parseJointLoss(const std::string& value, const char* parameter = "multiclassLoss");

// PrivTune: the TNB's η. η = 1 (geometric K) is the paper's and Papernot–Steinke's main case.
inline constexpr double kPrivTuneEta = 1.0;
// Tight T: the T at which the paper's utility bound is within 5% of its floor (SPEC §2.4 item 6).
inline constexpr double kTightIterationTolerance = 0.05;
// A multiclass label trains one binary problem per class (one-vs-rest), for 3 to 50 classes.
inline constexpr std::uint64_t kMaxClasses = 50;

// The number of binary problems a label of `classes` classes trains: 1 for a binary label
// (classes = 2: the positive class against the rest), K for K = 3…50 classes (class k against
// the rest, for each k). BAD_PARAMETER naming "classes" otherwise.
std::uint64_t oneVsRestProblems(std::uint64_t classes);

// A resolved request (run::resolve fills every field from the caller's options and the
// defaults; docs/ARCHITECTURE.md). Member initialisers are neutral values for tests that build
// one by hand, not defaults: callers go through run::resolve.
struct PlanRequest {
  double epsilon = 0;
  double delta = 0;
  std::uint64_t n = 0;
  std::uint64_t d = 0;
  double normBound = 1.0;  // b: public bound on ‖x‖₂
  Selector selector = Selector::kIter;
  Calibration calibration = Calibration::kTight;
  ScoreKind score = ScoreKind::kEmpirical;
  double expectedRuns = 10.0;  // E[K] of PrivTune (ignored by Iter)
  double jlFailure = 1e-6;     // β, total JL failure probability (run::resolve: 1/n², the paper's)
  std::uint64_t maxIterations = 200;
  double margin = 0.0;         // γ of Selector::kFixed (required there, must be 0 otherwise)
  // Selector::kAuto's rule (public numbers only; run::resolve sets them, docs/design/ACCURACY.md).
  // Runs without projection (k = d) at μ_run, with the margin γ₀ = min(b, b·max(1,
  // √(autoMuKnee/μ_run))/√n) and T = min(T_bound(5%), max(autoMinIterations,
  // ⌈autoIterationsPerMu·μ_run⌉), maxIterations). One run at γ₀ with μ_run = μ_class, unless
  // the selection among {γ₀/f, γ₀, f·γ₀} (f = autoSelectFactor; runs share autoSelectRunShare of
  // μ_class², their error counts the rest, selectionSplit) has a score-noise sd of at most
  // autoSelectNoise·n errors: then that selection (0: never select). Calibration "tight" only.
  double autoMuKnee = 0.25;
  std::uint64_t autoMinIterations = 200;
  double autoIterationsPerMu = 800.0;
  double autoSelectNoise = 0.0;
  double autoSelectRunShare = 0.97;
  double autoSelectFactor = 3.0;
  // Share s ∈ [0, 1) of the GDP budget spent on private column ranges (0: none). The parts
  // compose exactly in GDP: μ_ranges = √s·μ, μ_train = √(1−s)·μ, μ² = μ_ranges² + μ_train².
  // Iter and fixed only (PrivTune's accounting is not GDP).
  double rangeShare = 0.0;
  // Private category discovery over m = discoveryColumns columns (0: none) with the share
  // discoveryShare ∈ (0, 1) of μ²: μ_discovery = √s·μ (accounting/discovery.hpp). It reserves
  // kDiscoveryDeltaShare·δ for its thresholds, so μ comes from (ε, 0.9·δ). GDP selectors only.
  std::uint64_t discoveryColumns = 0;
  double discoveryShare = 0.0;
  // Whether the run may discover categories or classes at all, known before any cell is read
  // (a CSV run whose kinds or label classes are decided privately): μ then comes from
  // (ε, 0.9·δ) whether or not it does discover, so the budget never depends on a noisy decision.
  bool discoveryPossible = false;
  // The private schema decisions of a CSV run (data/schema.hpp, docs/reference/PRIVACY_SCHEMA.md "The schema"):
  // a Gaussian release of schemaCoordinates cell counts, each moved by at most 1 by a replaced
  // row, so σ_schema = √schemaCoordinates/μ_schema (0: none). GDP selectors: μ_schema² =
  // schemaShare·μ². PrivTune (not GDP): the schema runs at (s·ε, s·δ), PrivTune at the rest
  // (basic composition).
  std::uint64_t schemaCoordinates = 0;
  double schemaShare = 0.0;
  // The last of the discoveryColumns is the label (its classes discovered): it gets a noisy
  // histogram of its own with kLabelDiscoveryShare of μ_discovery² (the other columns the rest,
  // jointly), instead of a 1/m part of one joint histogram — docs/reference/PRIVACY_SCHEMA.md, "Category
  // discovery". Alone (discoveryColumns = 1) it has all of μ_discovery either way.
  bool discoveryLabel = false;
  // Utility-only knobs (public, data-independent; none changes privacy): D in the step size
  // η = D/√(T(n²Δ² + kσ²)), and the multiplier of the calibration's hinge scale c (tight
  // unprojected c = γ, else γ/3).
  double stepScale = 1.0;
  double hingeScale = 1.0;
  Pruning pruning = Pruning::kNone;
  double pruneRatio = 100.0;
  // Binary problems trained on the same rows (1: a binary label; K = 3…50: one-vs-rest over K
  // classes, oneVsRestProblems). One row changes every problem (replace-one), so the K runs
  // compose exactly in GDP: μ_train² = K·μ_class², and each problem's candidates, scores and
  // noise are planned with μ_class = μ_train/√K. Iter and fixed only (GDP accounting).
  std::uint64_t classes = 1;
  // The joint multiclass learner (Multiclass::kJoint): K = jointClasses ≥ 3 classes trained by
  // ONE noisy GD on a K × k weight matrix (0: none — a binary label or one-vs-rest). `classes`
  // is then 1 (one mechanism at μ_train). Every candidate's sensitivity is √2 × the binary
  // hinge's, Δ = 2√2·R/c (docs/reference/LEARNERS.md, "The joint multiclass learner"), and its noise has
  // k·K coordinates (the step size, T's tight bound and the noise-floor ratio use k·K).
  std::uint64_t jointClasses = 0;
  JointLoss jointLoss = JointLoss::kSoftmax;
};

// Share of μ_discovery² given to the label's own histogram when other columns are discovered too
// (the label's σ = √2/(√s·μ_discovery) against √(2m)/μ_discovery in one joint histogram of m
// columns). With run::kClassDiscoveryShare = 0.3 of μ² for discovery, the other columns keep the
// 0.1 of μ² they have without a discovered label (docs/reference/MULTICLASS.md, "Class lists at small n").
inline constexpr double kLabelDiscoveryShare = 2.0 / 3.0;

// The joint learner's factor on the binary hinge's replace-one sensitivity 2R/c: a row's
// gradient is ±z/c in two rows of W (hinge) or (p − e_y)zᵀ/c with ‖p − e_y‖ ≤ √2 (softmax).
// The double nearest √2 is above it (0x1.6a09e667f3bcdp+0 = 1.41421356237309514…).
inline constexpr double kJointSensitivityFactor = 1.4142135623730951;

bool operator==(const PlanRequest& a, const PlanRequest& b) noexcept;
inline bool operator!=(const PlanRequest& a, const PlanRequest& b) noexcept { return !(a == b); }

struct CandidatePlan {
  double gamma = 0;          // margin γ ∈ Γ
  std::uint64_t kJl = 0;     // k_γ from the JL bound
  bool projected = false;    // false when k_γ ≥ d (Φ = I)
  std::uint64_t k = 0;       // dimension trained in: k_γ if projected, else d
  double c = 0;              // hinge scale
  double clipRadius = 0;     // R
  double sensitivity = 0;    // Δ = 2R/c (replace-one, exact arithmetic); joint: 2√2·R/c
  std::uint64_t T = 0;                    // noisy-GD iterations actually run
  std::uint64_t TUncapped = 0;            // T by the calibration rule before maxIterations
  bool capped = false;                    // maxIterations bound
  double sigma = 0;          // per-step noise sd Δ(1 + κ)√T/μ_run, from the integer T
  double stepSize = 0;       // η = D/√(T(n²Δ² + kσ²)) with D = the plan's stepScale
  double noiseFloorRatio = 0;  // 2Δ√k/(n μ_run): the pruning criterion (D = 1)
  double scorePenalty = 0;   // population-score penalty (0 for the empirical score)
};

struct Plan {
  PlanRequest request;
  double beta = 0;              // JL failure probability actually used
  double mu = 0;                // μ of the whole run (GDP)
  double muRanges = 0;          // μ of the private column ranges (0 when none)
  double muDiscovery = 0;       // μ of category discovery (0 when none)
  double muSchema = 0;          // μ of the private schema decisions (0 when none)
  double schemaSigma = 0;       // the sd of their noisy counts, √schemaCoordinates/μ_schema
  // μ of training + selection: √(μ² − μ_schema² − μ_ranges² − μ_discovery²)
  double muTrain = 0;
  // μ of each binary problem's training + selection: μ_train/√classes (= μ_train for a binary
  // label). Every candidate and score quantity below is planned from it.
  double muClass = 0;
  double muRun = 0;             // μ of each base run
  double scoreSd = 0;           // sd of the Gaussian noise on each count score (Δ_U = 1)
  // Whether the runs are scored and the argmin of the noisy scores released (iter, privtune;
  // auto when autoSelects); false: one run, no score (fixed, auto on a small table).
  bool selects = false;
  double autoMargin = 0;        // auto: its public centre margin γ₀ (0 otherwise)
  double epsilonSpent = 0;      // ε recomputed from muTotal by the same accounting (≤ ε)
  // κ: the computed (floating-point) gradient sums move by at most Δ(1 + κ) when a row is
  // replaced (accounting::floatSumSlack), so σ is calibrated to Δ(1 + κ).
  double floatSlack = 0;
  // Discovery (request.discoveryColumns > 0): σ and τ of its noisy counts, its δ_τ, and the δ
  // left to the GDP part (δ − (1 + e^ε)·δ_τ); deltaGdp = δ without discovery.
  accounting::DiscoveryCalibration discovery;
  // The label's own histogram (request.discoveryLabel): μ, σ = √2/μ, δ_τ/m and τ. A class with c
  // training rows is found with probability Φ((c − τ)/σ): half at c = τ, 97.7% at c = τ + 2σ
  // (classFoundAt, the plan's statement). `discovery` then holds the other columns' (0 columns:
  // none).
  accounting::DiscoveryCalibration labelDiscovery;
  double deltaGdp = 0;
  // PrivTune only:
  double tnbR = 0;              // r of TNB_{η, r}
  double tnbEta = 0;
  double probabilityMiss = 0;   // P(a given candidate is never tried)
  std::size_t gridSize = 0;     // |Γ| before pruning
  std::vector<double> pruned;   // margins of Γ dropped by pruning (ascending); public
  std::vector<CandidatePlan> candidates;
};

// Throws dpmargin::Error(BAD_PARAMETER) naming the parameter on any invalid field.
void validateRequest(const PlanRequest& request);
Plan makePlan(const PlanRequest& request);  // validates first
// Only the budget of a plan (μ and its split, ε spent, discovery's σ and τ, δ_GDP), without the
// candidates: what is needed before the table's width is known (category discovery happens
// before the encoding is fixed). Equal to makePlan's fields for the same request.
Plan makeBudget(const PlanRequest& request);
// Selector::kAuto's margin γ₀ and its T before the cap and the tight bound, for a run of budget
// μ_run (PlanRequest's auto fields): public functions of (n, b, μ_run) only.
double autoMargin(const PlanRequest& request, double muRun);
std::uint64_t autoIterations(const PlanRequest& request, double muRun);
// Whether auto selects among three margins for a problem of budget μ_class: the score-noise sd
// of that selection, √(m/(1 − autoSelectRunShare))/μ_class errors, is at most autoSelectNoise·n
// (a public function of n, μ_class and the rule's constants).
bool autoSelects(const PlanRequest& request, double muClass);
// autoSelects's test as numbers, for the plan's advice: the score-noise sd (in errors) a choice
// among the three margins would have at μ_class, the largest it may have (autoSelectNoise·n),
// and the n·μ_class from which it is small enough (0 when auto never selects).
struct AutoSelection {
  double scoreSd = 0;
  double limit = 0;
  double nMuFrom = 0;
  bool selects = false;
};
AutoSelection autoSelection(const PlanRequest& request, double muClass);
// The default share of the private schema decisions (run::resolve): enough that a column of
// numbers is told from a column of text at kSchemaKindZ noise sds (σ ≤ n/(2·kSchemaKindZ·√1.25)),
// within [kSchemaShareMin, kSchemaShareMax] of μ² — a function of n, the coordinates and μ.
inline constexpr double kSchemaKindZ = 5.0;
inline constexpr double kSchemaShareMin = 0.01;
inline constexpr double kSchemaShareMax = 0.10;
double defaultSchemaShare(const PlanRequest& request);

// Plain-language advice on a plan (docs/reference/LEARNERS.md, "What the plan tells you"): a function of
// the plan only — public numbers, no data. The criterion is each candidate's noiseFloorRatio
// 2Δ√k/(n·μ_run), the ratio of the gradient noise floor to the signal (the pruning rule's).
enum class Verdict { kGood, kMarginal, kTooLittleData };
const char* toString(Verdict verdict) noexcept;  // "good", "marginal", "too little data"

struct Advice {
  // good: the best candidate's ratio ≤ 1; marginal: ≤ request.pruneRatio; too little data above.
  Verdict verdict = Verdict::kTooLittleData;
  double noiseFloorRatio = 0;        // the best (smallest) ratio among the plan's candidates
  std::vector<double> usableMargins; // candidates' margins with ratio ≤ 1 (ascending)
  // The smallest n (the other settings unchanged) and the smallest ε (at the same δ and n) at
  // which the re-planned best ratio is ≤ 1, found by bisection with makePlan; 0 when none is
  // found up to kAdviceMaxN rows / kAdviceMaxEpsilon.
  std::uint64_t nForGood = 0;
  double epsilonForGood = 0;
  std::string text;                  // one or two plain sentences
  // What the selector does at this n and ε, in one or two plain sentences: auto's one run at γ₀
  // and why no choice was needed (or its choice among three margins and why it pays), Iter's
  // and PrivTune's selection, the fixed margin (autoSelection's numbers for auto).
  std::string selection;
};
inline constexpr std::uint64_t kAdviceMaxN = 1'000'000'000'000ULL;
inline constexpr double kAdviceMaxEpsilon = 1000.0;

// The best (smallest) noiseFloorRatio among a plan's candidates (+∞ when it has none).
double bestNoiseFloorRatio(const Plan& plan);
Advice advise(const Plan& plan);

template <class Writer>
void describeAdvice(const Advice& a, Writer& v) {
  v.text("verdict", toString(a.verdict));
  v.number("noiseFloorRatio", a.noiseFloorRatio);
  v.numbers("usableMargins", a.usableMargins);
  if (a.nForGood > 0) v.count("nForGood", a.nForGood);
  if (a.epsilonForGood > 0) v.number("epsilonForGood", a.epsilonForGood);
  v.text("text", a.text.c_str());
  v.text("selection", a.selection.c_str());
}

// The public fields of a plan, under the names the JS API, the CLI's JSON and the reports use
// (one name per concept across the boundary). `v` is a field writer: v.number(name, double),
// v.count(name, uint64), v.boolean(name, bool), v.text(name, string), v.numbers(name,
// vector<double>), v.list(name, size, fn(index, writer)), v.object(name, fn(writer)) — the bindings write JS objects with
// it, native tools JSON.
template <class Writer>
void describeCandidate(const CandidatePlan& c, Writer& v) {
  v.number("gamma", c.gamma);
  v.count("kJl", c.kJl);
  v.boolean("projected", c.projected);
  v.count("k", c.k);
  v.number("c", c.c);
  v.number("clipRadius", c.clipRadius);
  v.number("sensitivity", c.sensitivity);
  v.count("T", c.T);
  v.count("TUncapped", c.TUncapped);
  v.boolean("capped", c.capped);
  v.number("sigma", c.sigma);
  v.number("stepSize", c.stepSize);
  v.number("scorePenalty", c.scorePenalty);
  v.number("noiseFloorRatio", c.noiseFloorRatio);
}

template <class Writer>
void describePlan(const Plan& p, Writer& v) {
  const PlanRequest& r = p.request;
  v.number("epsilon", r.epsilon);
  v.number("delta", r.delta);
  v.count("n", r.n);
  v.count("d", r.d);
  v.number("normBound", r.normBound);
  v.text("selector", toString(r.selector));
  v.text("calibration", toString(r.calibration));
  v.text("score", toString(r.score));
  v.count("maxIterations", r.maxIterations);
  v.number("jlFailure", p.beta);
  v.number("mu", p.mu);
  v.number("muRanges", p.muRanges);
  v.number("muTrain", p.muTrain);
  if (r.classes > 1) {  // one-vs-rest only, so a binary plan reads exactly as before
    v.count("classes", r.classes);
    v.text("multiclass", toString(Multiclass::kOneVsRest));
    v.number("muClass", p.muClass);
  }
  if (r.jointClasses > 0) {  // the joint learner: one mechanism on K × k weights
    v.count("classes", r.jointClasses);
    v.text("multiclass", toString(Multiclass::kJoint));
    v.text("multiclassLoss", toString(r.jointLoss));
  }
  v.number("rangeShare", r.rangeShare);
  v.number("muDiscovery", p.muDiscovery);
  v.count("discoveryColumns", r.discoveryColumns);
  v.number("discoveryShare", r.discoveryShare);
  if (r.discoveryColumns > 0 && p.discovery.columns > 0) {
    v.number("discoverySigma", p.discovery.sigma);
    v.number("discoveryThreshold", p.discovery.threshold);
    v.number("discoveryDeltaThreshold", p.discovery.deltaThreshold);
  }
  if (r.schemaCoordinates > 0) {
    v.count("schemaCoordinates", r.schemaCoordinates);
    v.number("schemaShare", r.schemaShare);
    v.number("muSchema", p.muSchema);
    v.number("schemaSigma", p.schemaSigma);
  }
  if (r.discoveryLabel) {
    // The label's classes: found with probability ½ at classThreshold training rows, 97.7% at
    // classFoundAt = τ + 2σ (public numbers: the plan's statement of which classes it will see).
    v.number("classDiscoveryMu", p.labelDiscovery.mu);
    v.number("classDiscoverySigma", p.labelDiscovery.sigma);
    v.number("classThreshold", p.labelDiscovery.threshold);
    v.number("classFoundAt", std::ceil(p.labelDiscovery.threshold + 2.0 * p.labelDiscovery.sigma));
  }
  v.number("deltaGdp", p.deltaGdp);
  v.number("muRun", p.muRun);
  v.number("scoreSd", p.scoreSd);
  v.number("epsilonSpent", p.epsilonSpent);
  v.number("floatSlack", p.floatSlack);
  v.text("neighbouring", "replace-one");
  v.boolean("selects", p.selects);
  if (r.selector == Selector::kAuto) {
    // What auto resolved to: its centre margin γ₀ (the candidates say T, k and, when it
    // selects, the three margins).
    v.number("margin", p.autoMargin);
  }
  if (r.selector == Selector::kPrivTune) {
    v.number("expectedRuns", r.expectedRuns);
    v.number("tnbEta", p.tnbEta);
    v.number("tnbR", p.tnbR);
    v.number("probabilityMiss", p.probabilityMiss);
  }
  v.number("stepScale", r.stepScale);
  v.number("hingeScale", r.hingeScale);
  v.text("pruning", toString(r.pruning));
  v.number("pruneRatio", r.pruneRatio);
  v.count("gridSize", p.gridSize);
  v.numbers("pruned", p.pruned);
  v.list("candidates", p.candidates.size(),
         [&](std::size_t i, Writer& w) { describeCandidate(p.candidates[i], w); });
  const Advice advice = advise(p);
  v.object("advice", [&](Writer& w) { describeAdvice(advice, w); });
}

}  // namespace dpmargin::plan
