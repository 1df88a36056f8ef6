// The margin profile (SPEC §2.8; paper appendix, "Removal-Margin experiment"): fit a linear
// SVM, measure the normalized margin, remove the points with the smallest normalized margin,
// refit (warm start), and record (fraction removed, margin) — how far the data is from being
// separable with a large margin. It answers "would this data suit a large-margin learner?".
//
// NOT DIFFERENTIALLY PRIVATE. It reads every row of the data; it runs on the user's own
// machine, is never part of a released model, and every output says `private: false`.
//
// A resumable state machine so a caller (a Web Worker) can run it in chunks, with progress and
// cancellation between chunks:
//     MarginProfiler profiler(data, options);
//     while (!profiler.advance(budget)) report(profiler.progress());   // stop = cancel
//     const ProfileResult& r = profiler.result();
//
// Algorithm. Let n be the number of rows with ‖x‖ > 0 (zero rows are skipped throughout) and
// f₀ < f₁ < … the grid of removal fractions; the target count at fₖ is rₖ = ⌊fₖ·n⌋. From the
// current fit, the rₖ − r₍ₖ₋₁₎ points to remove are taken in at most `maxRefitsPerStep`
// batches of equal size (rounded up): each batch is the rows with the smallest normalized
// margin (before clamping; ties by row index) under the current w, followed by a warm-started
// refit. While a further batch is allowed in the step, a batch is cut to the rows the current
// fit leaves at margin ≤ 0 (when there are any): removing just those leaves the rest separated
// by the current w, so the first separable count is not overshot. Every fit is recorded; those at a grid target are flagged. Fits use the soft-margin
// SVM with C = options.C until a fit separates the remaining rows (margin > 0); that fit is
// then continued as the hard-margin SVM (its α is feasible for it) before it is recorded, and
// so is every later fit (removing rows keeps the data separable), when hardMarginWhenSeparable.
// The recorded margin is Margin(w; S) of the fitted w: a lower bound on the best margin of the
// remaining rows, within a relative gapTolerance/2 of it once the hard-margin fits are in use.
// Caveat: at a hard-margin optimum the support vectors tie at the minimum margin, so which of
// them a batch removes is decided by the solver's tolerance; the curve's first positive point
// is stable, but its later course varies with the tolerance (docs/reference/MARGIN_PROFILE.md).
// Cost: one fit per batch, so at most (maxRefitsPerStep + 1) × (grid size − 1) + 1 fits (13
// on the default grid for data that stays non-separable). Rows are read in sparse form when
// few entries are nonzero (linear_svm.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "dpmargin/profile/data_view.hpp"
#include "dpmargin/profile/linear_svm.hpp"

namespace dpmargin::profile {

// Default removal grid: 0 to 5%, finer near 0 where the paper's data turns separable
// (~0.1% for CIFAR-10 ViT features):
// 0, 0.05%, 0.1%, 0.2%, 0.3%, 0.5%, 0.75%, 1%, 1.5%, 2%, 3%, 4%, 5%.
std::vector<double> defaultRemovalFractions();
// The default grid below `maxRemoved` ∈ (0, 1), ending exactly at it (BAD_PARAMETER naming
// "maxRemoved" outside (0, 1)).
std::vector<double> removalFractionsUpTo(double maxRemoved);

struct ProfileOptions {
  std::vector<double> fractions = defaultRemovalFractions();  // strictly increasing, in [0, 1)
  std::size_t maxRefitsPerStep = 1;  // batches between consecutive grid targets (≥ 1)
  // Soft-margin C while the data is not separable. Rows are fitted at unit norm (the SVM then
  // maximises exactly the normalized margin), so C is on the scale of unit-norm rows. It
  // trades separation against convergence: a larger C needs more passes on the full data, and
  // at C = 1000 the soft fits already separate the rows where the hard-margin fit's αᵢ grow
  // large (measured on Fashion-MNIST: docs/MARGIN_PROFILE.md, "The profile").
  double C = 1000.0;
  bool hardMarginWhenSeparable = true;
  double tolerance = 1e-3;       // SvmOptions::tolerance of every fit
  double gapTolerance = 1e-3;    // SvmOptions::gapTolerance of hard-margin fits: margin ~0.05%
  // SvmOptions::gapTolerance of soft-margin fits, which only rank rows and test separation: a
  // loose tolerance reads far fewer rows for nearly the same curve of minimum margins
  // (docs/MARGIN_PROFILE.md, "Speed").
  double softGapTolerance = 0.1;
  std::uint64_t maxIterationsPerFit = 50000;  // SvmOptions::maxIterations of every fit
  std::uint64_t seed = kDefaultSvmSeed;      // coordinate order only (not a privacy mechanism)
};

// Throws BAD_PARAMETER naming the option ("fractions", "maxRefitsPerStep", "C", "tolerance",
// "gapTolerance", "softGapTolerance", "maxIterationsPerFit").
void validate(const ProfileOptions& options);

// The profile's public options as a caller gives them (unset: the default): the largest
// fraction of rows removed (default kDefaultMaxRemoved; the grid is removalFractionsUpTo it),
// the soft-margin C and the refits between grid points. Validated (BAD_PARAMETER by name).
inline constexpr double kDefaultMaxRemoved = 0.05;
ProfileOptions resolveProfileOptions(std::optional<double> maxRemoved, std::optional<double> C,
                                     std::optional<std::uint64_t> maxRefitsPerStep);

struct CurvePoint {
  double fraction = 0;         // removed / n
  std::size_t removed = 0;     // rows removed so far
  double margin = 0;           // Margin(w; S) on the remaining rows (clamped at 0)
  double minimumMargin = 0;    // the minimum before clamping (negative: not separated)
  int gridIndex = -1;          // index into options.fractions, or −1 for a fit between targets
  bool hardMargin = false;     // fitted with the hard-margin SVM
  bool converged = false;      // the fit met its tolerances (false: maxIterationsPerFit bound)
  std::uint64_t iterations = 0;  // solver outer iterations of this fit
  double relativeGap = 0;      // (P − D)/P of this fit
  std::uint64_t rowVisits = 0;  // rows read for this fit (solver, gap and margin passes)
};

struct ProfileResult {
  static constexpr bool kPrivate = false;  // every output must say `private: false`
  static constexpr const char* kPrivacyNote =
      "not private: the margin profile reads every row and is not differentially private";
  std::size_t n = 0;            // rows profiled (‖x‖ > 0)
  std::size_t zeroRows = 0;     // rows skipped because ‖x‖ = 0
  std::vector<CurvePoint> curve;  // every fit, in order; grid points have gridIndex ≥ 0
  // First fit (grid or not) with margin > 0: the fraction and count removed then (NaN and 0
  // when no fit separated the rows).
  double firstSeparableFraction = std::numeric_limits<double>::quiet_NaN();
  std::size_t firstSeparableRemoved = 0;
  bool separable = false;       // some fit had margin > 0
  std::uint64_t fits = 0, iterations = 0, rowVisits = 0;  // totals over all fits
  bool allConverged = true;
  std::vector<double> w;        // the last fit's w (on unit-norm rows)
  // Rows the last fit leaves at normalized margin ≤ 0: removing them too would leave the rest
  // separated by w, an upper bound on the rows in the way (profile/advice.hpp).
  std::size_t lastViolators = 0;
};

struct ProfileProgress {
  std::size_t gridDone = 0, gridSize = 0;  // grid targets recorded / total
  std::size_t removed = 0, n = 0;
  std::uint64_t fits = 0, iterations = 0, rowVisits = 0;
  double lastMargin = 0;        // margin of the last completed fit
  bool done = false;
};

class MarginProfiler {
 public:
  // Validates data and options. The data must outlive the profiler.
  MarginProfiler(const DataView& data, const ProfileOptions& options);
  ~MarginProfiler();
  MarginProfiler(const MarginProfiler&) = delete;
  MarginProfiler& operator=(const MarginProfiler&) = delete;

  // Does about `workBudget` units of work and returns done(). A unit is one row read (O(d)
  // flops): a coordinate update of the solver, or one row of a duality-gap or margin pass.
  // The solver finishes its current pass over the rows before returning, so a call may
  // overrun the budget by one pass (≤ n units). Throws BAD_PARAMETER ("workBudget") if 0.
  bool advance(std::uint64_t workBudget);
  bool done() const noexcept;
  ProfileProgress progress() const;
  // Valid at any time; complete once done().
  const ProfileResult& result() const noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The public fields of a profile result and progress (names as in the JS API and the CLI's JSON;
// the field writer of plan::describePlan). The curve lists every fit.
template <class Writer>
void describeProfile(const ProfileResult& r, Writer& v) {
  v.boolean("private", ProfileResult::kPrivate);
  v.text("note", ProfileResult::kPrivacyNote);
  v.count("n", r.n);
  v.count("zeroRows", r.zeroRows);
  v.boolean("separable", r.separable);
  v.number("firstSeparableFraction", r.firstSeparableFraction);
  v.count("firstSeparableRemoved", r.firstSeparableRemoved);
  v.count("fits", r.fits);
  v.boolean("allConverged", r.allConverged);
  v.count("lastViolators", r.lastViolators);
  v.list("curve", r.curve.size(), [&](std::size_t i, Writer& w) {
    const CurvePoint& c = r.curve[i];
    w.number("fraction", c.fraction);
    w.count("removed", c.removed);
    w.number("margin", c.margin);
    w.number("minimumMargin", c.minimumMargin);
    w.boolean("onGrid", c.gridIndex >= 0);
    w.boolean("hardMargin", c.hardMargin);
    w.boolean("converged", c.converged);
  });
}

template <class Writer>
void describeProfileProgress(const ProfileProgress& p, Writer& v) {
  v.count("gridDone", p.gridDone);
  v.count("gridSize", p.gridSize);
  v.count("removed", p.removed);
  v.count("n", p.n);
  v.count("fits", p.fits);
  v.number("lastMargin", p.lastMargin);
  v.boolean("done", p.done);
}

// Runs a profiler to completion.
ProfileResult profileMargins(const DataView& data, const ProfileOptions& options = {});

}  // namespace dpmargin::profile
