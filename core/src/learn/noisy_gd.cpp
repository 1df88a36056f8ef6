#include "dpmargin/learn/noisy_gd.hpp"

#include <algorithm>

#include "dpmargin/error.hpp"
#include "dpmargin/learn/kernels.hpp"
#include "dpmargin/random/samplers.hpp"

namespace dpmargin::learn {

// Rows per float partial sum before it is added to the double total (kernels::kRowsPerBlock):
// short enough that float rounding of the partial sums stays ~1e-5 relative, long enough to
// amortise the conversion.

void hingeGradientSum(const ClippedRows& rows, double c, const Eigen::VectorXf& w,
                      Eigen::VectorXf& scratch, Eigen::VectorXd& out) {
  // Active iff the hinge is positive: y⟨w, s z⟩ < c. The subgradient is −(y s / c) z.
  // The kernel writes k entries into each buffer: size them (no allocation when they fit).
  const auto k = static_cast<Eigen::Index>(rows.k);
  if (w.size() != k) throwBadParameter("w", "of length k", double(w.size()));
  if (scratch.size() != k) scratch.resize(k);
  if (out.size() != k) out.resize(k);
  kernels::hingeGradients(rows, &c, w.data(), rows.k, 1, scratch.data(), out.data());
}

void noisyStep(const NoisyGdParams* params, std::size_t m, Eigen::Ref<Eigen::MatrixXd> gradient,
               Eigen::Ref<Eigen::MatrixXd> w, random::Generator& generator) {
  for (std::size_t j = 0; j < m; ++j) {
    const auto col = static_cast<Eigen::Index>(j);
    random::addGaussian(generator, params[j].sigma, gradient.col(col).data(),
                        static_cast<std::size_t>(gradient.rows()));
    w.col(col).noalias() -= params[j].stepSize * gradient.col(col);
  }
}

NoisyGd::NoisyGd(const ClippedRows& rows, const NoisyGdParams& params)
    : rows_(rows), params_(params) {
  if (params.iterations < 1) throwBadParameter("iterations", "at least 1", 0.0);
  requirePositive("c", params.c);
  requireNonNegative("sigma", params.sigma);
  requireNonNegative("stepSize", params.stepSize);
  const auto k = static_cast<Eigen::Index>(rows.k);
  w_ = Eigen::VectorXd::Zero(k);
  sum_ = Eigen::VectorXd::Zero(k);
  gradient_ = Eigen::VectorXd::Zero(k);
  wFloat_ = Eigen::VectorXf::Zero(k);
  scratch_ = Eigen::VectorXf::Zero(k);
}

std::uint64_t NoisyGd::advance(std::uint64_t budget, random::Generator& generator) {
  const std::uint64_t steps = std::min(budget, params_.iterations - t_);
  for (std::uint64_t s = 0; s < steps; ++s) {
    sum_ += w_;  // w̄ averages w₀ … w_{T−1}
    wFloat_ = w_.cast<float>();
    hingeGradientSum(rows_, params_.c, wFloat_, scratch_, gradient_);
    noisyStep(&params_, 1, gradient_, w_, generator);
    ++t_;
  }
  return steps;
}

Eigen::VectorXd NoisyGd::output() const {
  if (!done()) throw Error(ErrorCode::kInternal, "", "noisy GD output requested before T steps");
  if (params_.output == OutputIterate::kLast) return w_;
  return sum_ / static_cast<double>(params_.iterations);
}

}  // namespace dpmargin::learn
