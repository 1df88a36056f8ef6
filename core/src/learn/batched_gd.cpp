#include "dpmargin/learn/batched_gd.hpp"

#include <algorithm>

#include "dpmargin/error.hpp"
#include "dpmargin/learn/kernels.hpp"
#include "dpmargin/random/samplers.hpp"

namespace dpmargin::learn {

namespace {
constexpr auto kRowsPerBlock = static_cast<Eigen::Index>(kernels::kRowsPerBlock);
}  // namespace

BatchedNoisyGd::BatchedNoisyGd(const ClippedRows& rows, const std::vector<NoisyGdParams>& params)
    : rows_(rows), params_(params) {
  if (params.empty()) throwBadParameter("candidates", "at least 1", 0.0);
  iterations_ = params.front().iterations;
  if (iterations_ < 1) throwBadParameter("iterations", "at least 1", 0.0);
  const auto m = static_cast<Eigen::Index>(params.size());
  const auto k = static_cast<Eigen::Index>(rows.k);
  c_.resize(m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const NoisyGdParams& p = params[static_cast<std::size_t>(j)];
    if (p.iterations != iterations_ || p.output != params.front().output) {
      throwBadParameter("iterations", "equal for every batched candidate", double(p.iterations));
    }
    requirePositive("c", p.c);
    requireNonNegative("sigma", p.sigma);
    requireNonNegative("stepSize", p.stepSize);
    c_[j] = p.c;
  }
  w_ = Eigen::MatrixXd::Zero(k, m);
  sum_ = Eigen::MatrixXd::Zero(k, m);
  gradient_ = Eigen::MatrixXd::Zero(k, m);
  wFloat_ = Eigen::MatrixXf::Zero(k, m);
  margins_.resize(kRowsPerBlock, m);
  coefficients_.resize(kRowsPerBlock, m);
  blockGradient_.resize(k, m);
}

void BatchedNoisyGd::gradients(const ClippedRows& rows, const Eigen::VectorXd& c,
                               const Eigen::MatrixXf& w, Eigen::MatrixXf& margins,
                               Eigen::MatrixXf& coefficients, Eigen::MatrixXf& blockGradient,
                               Eigen::MatrixXd& out) {
  // The fused kernel (kernels.hpp) needs only the k × m float block sums; margins and
  // coefficients stay in registers.
  (void)margins;
  (void)coefficients;
  // The kernel writes k × m entries into each buffer: size them (no allocation when they fit).
  if (w.rows() != static_cast<Eigen::Index>(rows.k)) throwBadParameter("w", "with k rows", double(w.rows()));
  if (blockGradient.rows() != w.rows() || blockGradient.cols() != w.cols()) blockGradient.resize(w.rows(), w.cols());
  if (out.rows() != w.rows() || out.cols() != w.cols()) out.resize(w.rows(), w.cols());
  kernels::hingeGradients(rows, c.data(), w.data(), static_cast<std::size_t>(w.rows()),
                          static_cast<std::size_t>(w.cols()), blockGradient.data(), out.data());
}

std::uint64_t BatchedNoisyGd::advance(std::uint64_t budget, random::Generator& generator) {
  const std::uint64_t steps = std::min(budget, iterations_ - t_);
  for (std::uint64_t s = 0; s < steps; ++s) {
    sum_ += w_;
    wFloat_ = w_.cast<float>();
    gradients(rows_, c_, wFloat_, margins_, coefficients_, blockGradient_, gradient_);
    noisyStep(params_.data(), params_.size(), gradient_, w_, generator);
    ++t_;
  }
  return steps;
}

Eigen::VectorXd BatchedNoisyGd::output(std::size_t j) const {
  if (!done()) throw Error(ErrorCode::kInternal, "", "batched noisy GD output before T steps");
  const auto col = static_cast<Eigen::Index>(j);
  if (params_.front().output == OutputIterate::kLast) return w_.col(col);
  return sum_.col(col) / static_cast<double>(iterations_);
}

}  // namespace dpmargin::learn
