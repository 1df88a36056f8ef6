// Dual coordinate descent for the L1-loss linear SVM without bias: Hsieh et al. (ICML 2008),
// Algorithm 1 (the L1-SVM case: Ū = C, D̄ᵢᵢ = 0) with the shrinking of §3.2 as implemented in
// LIBLINEAR's solve_l2r_l1l2_svc (shrink αᵢ = 0 with G > M̄ and αᵢ = C with G < m̄, where M̄, m̄
// are the previous pass's projected-gradient extremes; un-shrink before the final test).
#include "dpmargin/profile/linear_svm.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dpmargin/error.hpp"
#include "profile/splitmix.hpp"

namespace dpmargin::profile {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Below this the projected-gradient tolerance is not lowered further (double rounding of G).
constexpr double kToleranceFloor = 1e-14;
constexpr std::uint64_t kFirstGapCheck = 16;  // passes before the first periodic gap check

}  // namespace

double LinearSvm::relativeGap(const Objectives& obj) {
  if (obj.primal == kInf) return kInf;  // hard margin, w not yet separating
  return obj.primal > 0.0 ? (obj.primal - obj.dual) / obj.primal : 0.0;
}

void validate(const SvmOptions& options) {
  if (!(options.C > 0.0)) throwBadParameter("C", "positive (or +infinity for hard margin)", options.C);
  requirePositive("tolerance", options.tolerance);
  requireNonNegative("gapTolerance", options.gapTolerance);
  if (options.maxIterations == 0) throwBadParameter("maxIterations", "at least 1", 0.0);
}

LinearSvm::LinearSvm(const DataView& data, const SvmOptions& options)
    : data_(data), options_(options) {
  validate(data_);
  validate(options_);
  const auto d = static_cast<Eigen::Index>(data_.d);
  scale_.assign(data_.n, 1.0);
  qii_.assign(data_.n, 0.0);
  alpha_.assign(data_.n, 0.0);
  active_.assign(data_.n, 0);
  order_.reserve(data_.n);
  for (std::size_t i = 0; i < data_.n; ++i) {
    const Eigen::Map<const Eigen::VectorXf> xi(data_.x + i * data_.d, d);
    const double norm2 = xi.cast<double>().squaredNorm();
    if (norm2 == 0.0) continue;  // a zero row cannot move w: it never enters
    if (options_.unitNormRows) scale_[i] = 1.0 / std::sqrt(norm2);
    qii_[i] = scale_[i] * scale_[i] * norm2;
    active_[i] = 1;
    order_.push_back(i);
  }
  // Sparse rows when few entries are nonzero (and the offsets fit 32 bits).
  std::size_t nonzeros = 0;
  if (options_.sparseRows) {
    for (std::size_t k = 0; k < data_.n * data_.d; ++k) nonzeros += data_.x[k] != 0.0f ? 1 : 0;
  }
  if (options_.sparseRows && static_cast<double>(nonzeros) <= kSparseShare * static_cast<double>(data_.n * data_.d) &&
      nonzeros < 0xFFFFFFFFu && data_.d < 0xFFFFFFFFu) {
    sparseStart_.reserve(data_.n + 1);
    sparseIndex_.reserve(nonzeros);
    sparseValue_.reserve(nonzeros);
    sparseStart_.push_back(0);
    for (std::size_t i = 0; i < data_.n; ++i) {
      const float* x = data_.x + i * data_.d;
      for (std::size_t j = 0; j < data_.d; ++j) {
        if (x[j] == 0.0f) continue;
        sparseIndex_.push_back(static_cast<std::uint32_t>(j));
        sparseValue_.push_back(x[j]);
      }
      sparseStart_.push_back(static_cast<std::uint32_t>(sparseIndex_.size()));
    }
  }
  w_ = Eigen::VectorXd::Zero(d);
  rng_ = options_.seed;
  restart();
}

// ⟨w, xᵢ⟩ with float xᵢ widened to double. A plain loop with four accumulators, because
// Eigen 3.4 does not vectorise the reduction xi.cast<double>().dot(w): measured 3.5× slower
// (637 vs 179 ns at d = 784, g++ 12 -O2), and this is the solver's inner loop.
double LinearSvm::rowDot(std::size_t row) const {
  const double* w = w_.data();
  if (sparse()) {
    const std::uint32_t end = sparseStart_[row + 1];
    double a0 = 0, a1 = 0;
    std::uint32_t k = sparseStart_[row];
    for (; k + 2 <= end; k += 2) {
      a0 += sparseValue_[k] * w[sparseIndex_[k]];
      a1 += sparseValue_[k + 1] * w[sparseIndex_[k + 1]];
    }
    if (k < end) a0 += sparseValue_[k] * w[sparseIndex_[k]];
    return a0 + a1;
  }
  const float* x = data_.x + row * data_.d;
  const std::size_t d = data_.d;
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  std::size_t j = 0;
  for (; j + 4 <= d; j += 4) {
    a0 += x[j] * w[j];
    a1 += x[j + 1] * w[j + 1];
    a2 += x[j + 2] * w[j + 2];
    a3 += x[j + 3] * w[j + 3];
  }
  for (; j < d; ++j) a0 += x[j] * w[j];
  return (a0 + a1) + (a2 + a3);
}

void LinearSvm::axpyRow(double a, std::size_t row) {
  if (sparse()) {
    double* w = w_.data();
    for (std::uint32_t k = sparseStart_[row], end = sparseStart_[row + 1]; k < end; ++k) {
      w[sparseIndex_[k]] += a * sparseValue_[k];
    }
    return;
  }
  const Eigen::Map<const Eigen::VectorXf> xi(data_.x + row * data_.d,
                                             static_cast<Eigen::Index>(data_.d));
  w_.noalias() += a * xi.cast<double>();
}

double LinearSvm::functionalMargin(std::size_t row) const {
  return data_.y[row] * scale_[row] * rowDot(row);
}

void LinearSvm::restart() {
  activeSize_ = order_.size();
  pgMaxOld_ = kInf;
  pgMinOld_ = -kInf;
  epsilon_ = options_.tolerance;
  nextGapCheck_ = kFirstGapCheck;
  nextUnshrink_ = kFirstGapCheck;
  iterations_ = 0;
  rowVisits_ = 0;
  converged_ = false;
}

void LinearSvm::recomputeW() {
  w_.setZero();
  for (std::size_t i : order_) {
    if (alpha_[i] > 0.0) axpyRow(alpha_[i] * data_.y[i] * scale_[i], i);
  }
}

LinearSvm::Objectives LinearSvm::objectives() {
  recomputeW();  // removes the drift of the incremental updates
  rowVisits_ += order_.size();  // the pass below reads every row once
  double sumAlpha = 0.0, hinge = 0.0, minMargin = kInf;
  for (std::size_t i : order_) {
    sumAlpha += alpha_[i];
    const double m = functionalMargin(i);
    hinge += std::max(0.0, 1.0 - m);
    minMargin = std::min(minMargin, m);
  }
  const double halfNorm2 = 0.5 * w_.squaredNorm();
  Objectives result{0.0, sumAlpha - halfNorm2};
  if (order_.empty()) return result;
  if (hardMargin()) {
    // Primal value of the feasible point w/m (SVM hard margin: yᵢ⟨w, x̃ᵢ⟩ ≥ 1).
    result.primal = minMargin > 0.0 ? halfNorm2 / (minMargin * minMargin) : kInf;
  } else {
    result.primal = halfNorm2 + options_.C * hinge;
  }
  return result;
}

bool LinearSvm::run(std::uint64_t rowBudget) {
  if (rowBudget == 0) throwBadParameter("rowBudget", "at least 1", 0.0);
  const double upper = options_.C;  // +∞ in hard-margin mode: the αᵢ = C branch never fires
  std::uint64_t visits = 0;
  while (!finished() && visits < rowBudget) {
    if (order_.empty()) {
      converged_ = true;
      break;
    }
    double pgMax = -kInf, pgMin = kInf;
    detail::shuffle(order_, activeSize_, rng_);
    visits += activeSize_;
    rowVisits_ += activeSize_;
    for (std::size_t s = 0; s < activeSize_; ++s) {
      const std::size_t i = order_[s];
      const double yScale = data_.y[i] * scale_[i];
      const double g = yScale * rowDot(i) - 1.0;  // ∂D/∂αᵢ with the sign of minimisation
      const double a = alpha_[i];
      double pg = 0.0;
      if (a == 0.0) {
        if (g > pgMaxOld_) {  // shrink: at its lower bound and likely to stay there
          std::swap(order_[s--], order_[--activeSize_]);
          continue;
        }
        if (g < 0.0) pg = g;
      } else if (a == upper) {
        if (g < pgMinOld_) {  // shrink at the upper bound
          std::swap(order_[s--], order_[--activeSize_]);
          continue;
        }
        if (g > 0.0) pg = g;
      } else {
        pg = g;
      }
      pgMax = std::max(pgMax, pg);
      pgMin = std::min(pgMin, pg);
      if (std::fabs(pg) > 1e-12) {
        const double next = std::min(std::max(a - g / qii_[i], 0.0), upper);
        alpha_[i] = next;
        axpyRow((next - a) * yScale, i);
      }
    }
    ++iterations_;

    const bool pgMet = pgMax - pgMin <= epsilon_;
    if (options_.gapTolerance > 0.0 && !pgMet &&
        (iterations_ >= nextGapCheck_ || iterations_ >= options_.maxIterations)) {
      // On ill-conditioned duals (e.g. degenerate support sets, data rounded to float) the
      // projected gradient can stall above a small ε while the gap is already met, so the gap
      // is also checked every max(16, T/8) passes (one full pass each: ≲ 10% extra work).
      nextGapCheck_ = iterations_ + std::max(kFirstGapCheck, iterations_ / 8);
      if (relativeGap(objectives()) <= options_.gapTolerance) {
        converged_ = true;
        break;
      }
      if (iterations_ >= nextUnshrink_) {
        // Not there yet: un-shrink too, at passes 16, 32, 64, … Descent on a shrunk set can
        // plateau below the optimum (its ε test never passing) while shrunk coordinates would
        // still make progress; un-shrinking more often costs more than it gains (measured).
        nextUnshrink_ = 2 * iterations_;
        activeSize_ = order_.size();
        pgMaxOld_ = kInf;
        pgMinOld_ = -kInf;
        continue;
      }
    }
    if (pgMet) {
      if (activeSize_ == order_.size()) {
        const double relative = relativeGap(objectives());
        if (options_.gapTolerance == 0.0 || relative <= options_.gapTolerance) {
          converged_ = true;
          break;
        }
        epsilon_ = std::max(0.1 * epsilon_, kToleranceFloor);  // gap too large: tighten
      }
      activeSize_ = order_.size();  // un-shrink and test again on every row
      pgMaxOld_ = kInf;
      pgMinOld_ = -kInf;
      continue;
    }
    pgMaxOld_ = options_.shrinking && pgMax > 0.0 ? pgMax : kInf;
    pgMinOld_ = options_.shrinking && pgMin < 0.0 ? pgMin : -kInf;
  }
  return finished();
}

void LinearSvm::removeRows(const std::vector<std::size_t>& rows) {
  for (std::size_t row : rows) {
    if (row >= data_.n) {
      throwBadParameter("rows", "indices below n = " + std::to_string(data_.n),
                        static_cast<double>(row));
    }
  }
  for (std::size_t row : rows) {
    active_[row] = 0;
    alpha_[row] = 0.0;
  }
  order_.erase(std::remove_if(order_.begin(), order_.end(),
                              [this](std::size_t i) { return active_[i] == 0; }),
               order_.end());
  recomputeW();
  restart();
}

void LinearSvm::setC(double C, double gapTolerance) {
  SvmOptions next = options_;
  next.C = C;
  if (!(gapTolerance < 0.0)) next.gapTolerance = gapTolerance;  // NaN is validated, not skipped
  validate(next);
  options_ = next;
  for (double& a : alpha_) a = std::min(a, C);
  recomputeW();
  restart();
}

SvmReport LinearSvm::report() {
  const Objectives obj = objectives();
  SvmReport r;
  r.w.assign(w_.data(), w_.data() + w_.size());
  r.dualObjective = obj.dual;
  r.primalObjective = obj.primal;
  r.dualityGap = obj.primal - obj.dual;
  r.relativeGap = relativeGap(obj);
  r.iterations = iterations_;
  r.rowVisits = rowVisits_;
  r.converged = converged_;
  for (std::size_t i : order_) r.supportVectors += alpha_[i] > 0.0 ? 1 : 0;
  r.activeRows = order_.size();
  return r;
}

SvmReport fitLinearSvm(const DataView& data, const SvmOptions& options) {
  LinearSvm svm(data, options);
  svm.run();
  return svm.report();
}

}  // namespace dpmargin::profile
