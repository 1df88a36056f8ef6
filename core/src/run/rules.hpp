// The run's defaults and the rules that depend on other options, shared by the option table
// (options.cpp: what --help and dp.options show) and the resolver (resolve.cpp). Internal.
#pragma once

#include <cstdint>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::run::detail {

// ---- The defaults, each chosen by measurement or by the paper ----
// The measurements behind each are in docs/design/ACCURACY.md ("The other defaults") and the table of
// docs/reference/LEARNERS.md ("Choices and defaults"); the numbers live there, not here.
// Iterations cap: T changes utility and time, never privacy (σ scales with √T); 200 is level
// with larger T at a fraction of the time.
inline constexpr std::uint64_t kMaxIterations = 200;
// Selector "auto" (the default with calibration tight; docs/design/ACCURACY.md, "The
// default"): unprojected runs at the public margin γ₀ = b·max(1, √(kAutoMuKnee/μ_run))/√n, for
// T = max(kAutoMinIterations, ⌈kAutoIterationsPerMu·μ_run⌉) iterations up to kAutoMaxIterations:
// one run with the whole training budget (μ_run = μ_class), or on a large table the selection
// below — instead of Iter, which pays for its choice among ~10 margins with μ/√(2m) per run
// (docs/design/ACCURACY.md, "The default").
inline constexpr double kAutoMuKnee = 0.25;
inline constexpr std::uint64_t kAutoMinIterations = 200;
inline constexpr double kAutoIterationsPerMu = 800.0;
inline constexpr std::uint64_t kAutoMaxIterations = 600;
// Auto's selection: among {γ₀/f, γ₀, f·γ₀} (f = kAutoSelectFactor), the runs sharing
// kAutoSelectRunShare of μ², when the score-noise sd is at most kAutoSelectNoise·n — the middle
// of the plateau where selecting pays (docs/design/ACCURACY.md, "The default").
inline constexpr double kAutoSelectNoise = 0.00125;
inline constexpr double kAutoSelectRunShare = 0.97;
inline constexpr double kAutoSelectFactor = 3.0;
// Noise-floor pruning ratio (docs/design/ACCURACY.md, "The other defaults").
inline constexpr double kPruneRatio = 100.0;
// A label of 3 or more classes: the joint learner (one noisy GD on the K × k weight matrix at
// μ_train) with the multiclass hinge (Crammer–Singer), measured against softmax and one-vs-rest
// (docs/reference/MULTICLASS.md; measured in docs/design/MULTICLASS_MEASURED.md).
inline constexpr plan::Multiclass kMulticlass = plan::Multiclass::kJoint;
inline constexpr plan::JointLoss kMulticlassLoss = plan::JointLoss::kHinge;
// PrivTune's E[K].
inline constexpr double kExpectedRuns = 10.0;
// Share of the GDP budget spent on private column ranges with "iter", "fixed" and "auto" when no
// ranges are declared, rather than unit-norm rows alone (docs/design/ACCURACY.md, "The other defaults").
inline constexpr double kRangeShare = 0.1;
// D of the step size in tight calibration: the paper's D = 1, which no other D beat once the
// iterate was chosen (docs/design/ACCURACY.md, "The other defaults").
inline constexpr double kTightStepScale = 1.0;
inline constexpr double kNormBound = 1.0;

// The rules (defaults that depend on other options).
inline learn::OutputIterate defaultOutput(plan::Calibration c) {
  // Tight: the last iterate, measured better than the average, with pruning too (docs/design/ACCURACY.md,
  // "The other defaults"); paper: the paper's averaged iterate.
  return c == plan::Calibration::kPaper ? learn::OutputIterate::kAverage
                                        : learn::OutputIterate::kLast;
}
inline plan::Selector defaultSelector(plan::Calibration c) {
  // "paper" reproduces the paper (M*, Iter); tight: auto (no or a cheap selection).
  return c == plan::Calibration::kPaper ? plan::Selector::kIter : plan::Selector::kAuto;
}
inline std::uint64_t defaultMaxIterations(plan::Selector s) {
  return s == plan::Selector::kAuto ? kAutoMaxIterations : kMaxIterations;
}
inline plan::Pruning defaultPruning(plan::Calibration c, plan::Selector s) {
  // "paper" reproduces the paper (the whole grid); a fixed margin has nothing to prune.
  return c == plan::Calibration::kTight && plan::searchesGrid(s) ? plan::Pruning::kNoiseFloor
                                                                  : plan::Pruning::kNone;
}
inline double defaultRangeShare(plan::Selector s, bool rangesDeclared) {
  // PrivTune's accounting is not GDP, so it cannot compose with the ranges' Gaussian mechanism.
  return rangesDeclared || s == plan::Selector::kPrivTune ? 0.0 : kRangeShare;
}

[[noreturn]] inline void required(const char* name, const char* what = "a number") {
  throw Error(ErrorCode::kBadParameter, name,
              std::string(name) + " must be " + what + " (it is required), but is unset");
}

inline std::string show(double v) { return formatValue(v); }

// The label's classes into the request (resolve.cpp): a binary label one problem; K ≥ 3 the
// joint learner (jointClasses = K, one mechanism) or K one-vs-rest problems.
void setClasses(const Options& o, std::uint64_t classes, plan::PlanRequest& r);

// The budget and method part of a run's request (resolve.cpp): every default applied.
plan::PlanRequest resolveCommon(const Options& o, std::uint64_t n, std::uint64_t d,
                                bool rangesDeclared);

}  // namespace dpmargin::run::detail
