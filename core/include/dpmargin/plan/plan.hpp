// The data-free plan of a training run (SPEC §2.2–2.7): everything the mechanism will do that
// depends only on public quantities (ε, δ, n, d, b and the options), so it can be shown — and
// checked against the paper — before any data is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpmargin::plan {

// Iter: paper Algo 2 (M*); PrivTune: Algo 3 (M′); Fixed: one JL-GD run at a given margin with
// the whole budget (the paper's Table 1 baselines, which assume a known margin).
enum class Selector { kIter, kPrivTune, kFixed };
enum class Calibration { kTight, kPaper };          // SPEC §2.9
enum class ScoreKind { kEmpirical, kPopulation };  // SPEC §2.5
// Data-independent pruning of hopeless margins (SPEC §2.9 item 5; docs/PRIVACY.md): kAuto is
// kNoiseFloor in tight calibration and kNone in paper calibration.
enum class Pruning { kAuto, kNone, kNoiseFloor };
// Which noisy-GD iterate a run releases (SPEC §2.4 item 5) when the caller does not say:
// tight → the last iterate (docs/ACCURACY.md: +0.7 points mean over 10 tables at ε = 1, and
// +1.2 with pruning, against the average), paper → the paper's averaged iterate.
inline const char* defaultOutputName(Calibration calibration) noexcept {
  return calibration == Calibration::kPaper ? "average" : "last";
}

// Public names used by the JS API and the CLI ("iter", "tight", "empirical", …).
const char* toString(Selector selector) noexcept;
const char* toString(Calibration calibration) noexcept;
const char* toString(ScoreKind score) noexcept;
// Parse a public name; throws BAD_PARAMETER naming `parameter` on an unknown value.
Selector parseSelector(const std::string& value, const char* parameter = "selector");
Calibration parseCalibration(const std::string& value, const char* parameter = "calibration");
ScoreKind parseScoreKind(const std::string& value, const char* parameter = "score");
const char* toString(Pruning pruning) noexcept;
Pruning parsePruning(const std::string& value, const char* parameter = "pruning");

// Default cap on noisy-GD iterations. T never changes privacy (σ scales with √T), only utility
// and time. Chosen by measurement (docs/ACCURACY.md): over 10 public tables at ε = 1, T = 200
// is within 0.2 points (mean) of T = 400 and of the old cap 1000, at a fifth of the time.
inline constexpr std::uint64_t kDefaultMaxIterations = 200;
// PrivTune: the TNB's η. η = 1 (geometric K) is the paper's and Papernot–Steinke's main case.
inline constexpr double kPrivTuneEta = 1.0;
// Tight T: the T at which the paper's utility bound is within 5% of its floor (SPEC §2.4 item 6).
inline constexpr double kTightIterationTolerance = 0.05;
// Noise-floor pruning keeps a margin γ only if the floor of the paper's utility bound for its
// base run, 2DΔ√k/μ_run with D = 1, is at most `pruneRatio` × n (n = the summed hinge loss of
// w = 0), with μ_run from the budget split over the kept margins (makePlan). The default ratio
// is chosen by the accuracy benchmark (docs/ACCURACY.md).
inline constexpr double kDefaultPruneRatio = 100.0;
// Tight calibration's default D in η = D/√(T(n²Δ² + kσ²)) (paper: D = 1). A step-size rule
// touches utility only, never privacy; chosen by the accuracy benchmark (docs/ACCURACY.md).
inline constexpr double kTightStepScale = 1.0;

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
  double jlFailure = 0.0;      // β, total JL failure probability; 0 → 1/n² (paper's theorems)
  std::uint64_t maxIterations = kDefaultMaxIterations;
  double margin = 0.0;         // γ of Selector::kFixed (required there, must be 0 otherwise)
  // Share s ∈ (0, 1) of the GDP budget spent on private column ranges (0: none). The parts
  // compose exactly in GDP: μ_ranges = √s·μ, μ_train = √(1−s)·μ, μ² = μ_ranges² + μ_train².
  // Iter and fixed only (PrivTune's accounting is not GDP).
  double rangeShare = 0.0;
  // Utility-only knobs (public, data-independent; none changes privacy). 0 = the calibration's
  // default: stepScale D = kTightStepScale (tight) or 1 (paper); hingeScale multiplies the
  // calibration's hinge scale c (tight unprojected c = γ, else γ/3), default 1.
  double stepScale = 0.0;
  double hingeScale = 0.0;
  Pruning pruning = Pruning::kAuto;
  double pruneRatio = kDefaultPruneRatio;
};

// A request whose numbers arrive as doubles (from JS or a command line): n, d, maxIterations
// must be integral. Validates every field and names the offending one.
struct PlanInput {
  double epsilon = 0, delta = 0, n = 0, d = 0, normBound = 1.0;
  std::string selector = "iter", calibration = "tight", score = "empirical";
  double expectedRuns = 10.0, jlFailure = 0.0;
  double maxIterations = static_cast<double>(kDefaultMaxIterations);
  double margin = 0.0;
  double rangeShare = 0.0;
  double stepScale = 0.0, hingeScale = 0.0;
  std::string pruning = "auto";
  double pruneRatio = kDefaultPruneRatio;
};
PlanRequest toPlanRequest(const PlanInput& input);

struct CandidatePlan {
  double gamma = 0;          // margin γ ∈ Γ
  std::uint64_t kJl = 0;     // k_γ from the JL bound
  bool projected = false;    // false when k_γ ≥ d (Φ = I)
  std::uint64_t dim = 0;     // dimension trained in: k_γ if projected, else d
  double c = 0;              // hinge scale
  double clipRadius = 0;     // R
  double sensitivity = 0;    // Δ = 2R/c (replace-one)
  std::uint64_t iterations = 0;           // T actually run
  std::uint64_t iterationsUncapped = 0;   // T by the calibration rule before maxIterations
  bool capped = false;                    // maxIterations bound
  double sigma = 0;          // per-step gradient noise sd, from the integer T
  double stepSize = 0;       // η = D/√(T(n²Δ² + kσ²)) with D = the plan's stepScale
  double noiseFloorRatio = 0;  // 2Δ√k/(n μ_run): the pruning criterion (D = 1)
  double scorePenalty = 0;   // population-score penalty (0 for the empirical score)
};

struct Plan {
  PlanRequest request;
  double beta = 0;              // JL failure probability actually used
  double muTotal = 0;           // μ of the whole run (GDP)
  double muRanges = 0;          // μ of the private column ranges (0 when none)
  double muTrain = 0;           // μ of training + selection: √(μ_total² − μ_ranges²)
  double muRun = 0;             // μ of each base run
  double scoreSd = 0;           // sd of the Gaussian noise on each count score (Δ_U = 1)
  double epsilonSpent = 0;      // ε recomputed from muTotal by the same accounting (≤ ε)
  // PrivTune only:
  double tnbR = 0;              // r of TNB_{η, r}
  double tnbEta = 0;
  double probabilityMiss = 0;   // P(a given candidate is never tried)
  double stepScale = 1;         // D actually used
  double hingeScale = 1;        // multiplier of the calibration's c actually used
  Pruning pruning = Pruning::kNone;  // resolved (never kAuto)
  std::size_t gridSize = 0;     // |Γ| before pruning
  std::vector<double> pruned;   // margins of Γ dropped by pruning (ascending); public
  std::vector<CandidatePlan> candidates;
};

// Throws dpmargin::Error(BAD_PARAMETER) naming the parameter on any invalid field.
Plan makePlan(const PlanRequest& request);

}  // namespace dpmargin::plan
