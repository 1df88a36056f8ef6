// Linear SVM without a bias term (homogeneous halfspaces, as the paper's classifiers; append a
// constant feature for an intercept), solved by dual coordinate descent with shrinking —
// Hsieh, Chang, Lin, Keerthi, Sundararajan (ICML 2008), "A dual coordinate descent method for
// large-scale linear SVM", Algorithm 1 with the L1 (hinge) loss, as in LIBLINEAR.
// Used only by the margin profile (SPEC §2.8): NOT differentially private.
//
//   primal  P(w) = ½‖w‖² + C Σᵢ max(0, 1 − yᵢ⟨w, x̃ᵢ⟩)
//   dual    D(α) = Σᵢ αᵢ − ½‖Σᵢ αᵢ yᵢ x̃ᵢ‖²,  0 ≤ αᵢ ≤ C,   w = Σᵢ αᵢ yᵢ x̃ᵢ
// with x̃ᵢ = xᵢ, or xᵢ/‖xᵢ‖ when unitNormRows. C = +∞ is the hard-margin SVM
// (min ½‖w‖² s.t. yᵢ⟨w, x̃ᵢ⟩ ≥ 1); its primal value at an iterate w is that of the feasible point
// w/m, m = minᵢ yᵢ⟨w, x̃ᵢ⟩: P(w) = ½‖w‖²/m² (+∞ while m ≤ 0). So for unit-norm rows the
// normalized margin m/‖w‖ of the iterate is at least γ*·√(1 − gap/P): a relative gap ε bounds
// the relative margin error by about ε/2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "dpmargin/profile/data_view.hpp"

namespace dpmargin::profile {

// Seed of the coordinate-permutation PRNG (splitmix64) when none is given: the first 64 bits
// of the golden ratio. The order of coordinates affects only the path to the optimum.
inline constexpr std::uint64_t kDefaultSvmSeed = 0x9E3779B97F4A7C15ull;
inline constexpr double kHardMargin = std::numeric_limits<double>::infinity();

struct SvmOptions {
  double C = 1.0;  // upper bound on αᵢ; kHardMargin (+∞) for the hard-margin SVM
  // Stop when the spread of the projected gradient over the rows, max PG − min PG (LIBLINEAR's
  // test; in units of the functional margin 1), is at most this …
  double tolerance = 1e-3;
  // … and the relative duality gap (P − D)/P is at most this (0: projected gradient only).
  // When the gap is still too large, the projected-gradient tolerance is divided by 10 and
  // descent continues. The gap is also checked every max(16, T/8) passes, since the projected
  // gradient can stall on ill-conditioned problems while the gap is already small.
  double gapTolerance = 1e-6;
  std::uint64_t maxIterations = 10000;  // outer iterations (passes over the active rows)
  bool unitNormRows = false;            // fit on xᵢ/‖xᵢ‖
  bool shrinking = true;                // LIBLINEAR's shrinking of bound-constrained αᵢ
  // Read the rows in sparse form when at most kSparseShare of the entries are nonzero (false:
  // always dense). The same solver either way; only the order of additions differs.
  bool sparseRows = true;
  std::uint64_t seed = kDefaultSvmSeed;
};

// Throws BAD_PARAMETER naming the option: C not positive (NaN, ≤ 0; +∞ is allowed),
// tolerance not finite-positive, gapTolerance not finite-non-negative, maxIterations = 0.
void validate(const SvmOptions& options);

struct SvmReport {
  std::vector<double> w;
  double dualObjective = 0;    // D(α) (maximisation form; LIBLINEAR prints −D)
  double primalObjective = 0;  // P(w); +∞ in hard-margin mode while w does not separate
  double dualityGap = 0;       // P − D ≥ 0
  double relativeGap = 0;      // (P − D)/P
  std::uint64_t iterations = 0;  // outer iterations since the last (re)start
  std::uint64_t rowVisits = 0;   // rows read since the last (re)start: updates + gap passes
  bool converged = false;        // both tolerances met (false when maxIterations bound)
  std::size_t supportVectors = 0;  // αᵢ > 0
  std::size_t activeRows = 0;      // rows in the problem (excludes removed and zero rows)
};

// Rows are read in sparse form when at most this share of the entries is nonzero.
inline constexpr double kSparseShare = 0.25;

// A resumable solver over a subset of the rows. Rows with ‖xᵢ‖ = 0 never enter (they do not
// move w). Warm starts: removing rows keeps α of the others; changing C clips α into [0, C].
class LinearSvm {
 public:
  LinearSvm(const DataView& data, const SvmOptions& options);  // validates both

  // Runs outer iterations until converged or maxIterations, or until at least `rowBudget`
  // rows were read in this call (coordinate updates and duality-gap passes; an outer
  // iteration is never cut short).
  // Returns finished(). Throws BAD_PARAMETER if rowBudget = 0.
  bool run(std::uint64_t rowBudget = std::numeric_limits<std::uint64_t>::max());
  bool finished() const noexcept { return converged_ || iterations_ >= options_.maxIterations; }
  bool converged() const noexcept { return converged_; }

  // Removes rows from the problem (indices into the data; repeats and already removed rows are
  // ignored) and restarts descent from the current α of the remaining rows.
  void removeRows(const std::vector<std::size_t>& rows);
  // Changes C (kHardMargin allowed), clipping α, and optionally the gap tolerance (when
  // gapTolerance ≥ 0), and restarts descent.
  void setC(double C, double gapTolerance = -1.0);
  double C() const noexcept { return options_.C; }
  bool hardMargin() const noexcept { return !(options_.C < kHardMargin); }
  bool sparse() const noexcept { return !sparseStart_.empty(); }

  bool isActive(std::size_t row) const { return active_[row] != 0; }
  std::size_t activeRows() const noexcept { return order_.size(); }
  const Eigen::VectorXd& w() const noexcept { return w_; }
  const std::vector<double>& alpha() const noexcept { return alpha_; }
  // yᵢ⟨w, x̃ᵢ⟩ for one row (x̃ᵢ as fitted: unit-norm when unitNormRows).
  double functionalMargin(std::size_t row) const;
  std::uint64_t iterations() const noexcept { return iterations_; }
  std::uint64_t rowVisits() const noexcept { return rowVisits_; }  // since the last (re)start

  // Objectives and gap at the current α (recomputes w from α: O(n·d)).
  SvmReport report();

 private:
  struct Objectives {
    double primal, dual;
  };
  Objectives objectives();  // recomputes w_ from α first
  static double relativeGap(const Objectives& obj);
  void recomputeW();
  void restart();
  double rowDot(std::size_t row) const;  // ⟨w, xᵢ⟩ in double
  void axpyRow(double a, std::size_t row);  // w += a·xᵢ

  DataView data_;
  SvmOptions options_;
  // The rows' nonzeros (compressed sparse rows) when at most kSparseShare of the entries are
  // nonzero: a one-hot table then costs O(nonzeros) per row read instead of O(d), and its rows
  // fit in cache. Empty (dense reads) otherwise. Only the order of the additions differs.
  std::vector<std::uint32_t> sparseStart_;  // n + 1 offsets into sparseIndex_/sparseValue_
  std::vector<std::uint32_t> sparseIndex_;
  std::vector<float> sparseValue_;
  std::vector<double> scale_;      // 1 or 1/‖xᵢ‖
  std::vector<double> qii_;        // ‖x̃ᵢ‖²
  std::vector<double> alpha_;
  std::vector<std::uint8_t> active_;
  std::vector<std::size_t> order_;  // active rows; the first activeSize_ are not shrunk
  std::size_t activeSize_ = 0;
  Eigen::VectorXd w_;
  double pgMaxOld_ = 0, pgMinOld_ = 0, epsilon_ = 0;
  std::uint64_t iterations_ = 0, rowVisits_ = 0, rng_ = 0, nextGapCheck_ = 0,
                nextUnshrink_ = 0;
  bool converged_ = false;
};

// One-shot fit on all rows.
SvmReport fitLinearSvm(const DataView& data, const SvmOptions& options);

}  // namespace dpmargin::profile
