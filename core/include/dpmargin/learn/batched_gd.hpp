// Noisy GD for several candidates at once (same rows, same clip radius, same T): one pass over
// the data per iteration serves every candidate — per block of rows, margins M = Z_b·W (one
// small GEMM) and gradients G += Z_bᵀ·A (another), instead of one matrix–vector pass per
// candidate. Each candidate's update, noise and output are exactly those of NoisyGd (SPEC §2.4);
// only the memory traffic is shared.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "dpmargin/learn/noisy_gd.hpp"

namespace dpmargin::learn {

class BatchedNoisyGd {
 public:
  // `params[j]` for candidate j; all must share `iterations` and `output`.
  BatchedNoisyGd(const ClippedRows& rows, const std::vector<NoisyGdParams>& params);

  std::uint64_t advance(std::uint64_t budget, random::Generator& generator);
  bool done() const noexcept { return t_ == iterations_; }
  std::uint64_t iteration() const noexcept { return t_; }
  std::size_t size() const noexcept { return params_.size(); }
  Eigen::VectorXd output(std::size_t j) const;

  // Σ_i ∇ℓ_{c_j}(w_j; s_i z_i, y_i) for every column j of W (exposed for tests).
  static void gradients(const ClippedRows& rows, const Eigen::VectorXd& c,
                        const Eigen::MatrixXf& w, Eigen::MatrixXf& margins,
                        Eigen::MatrixXf& coefficients, Eigen::MatrixXf& blockGradient,
                        Eigen::MatrixXd& out);

 private:
  ClippedRows rows_;
  std::vector<NoisyGdParams> params_;
  std::uint64_t iterations_ = 0, t_ = 0;
  Eigen::VectorXd c_;
  Eigen::MatrixXd w_, sum_, gradient_;
  Eigen::MatrixXf wFloat_, margins_, coefficients_, blockGradient_;
};

}  // namespace dpmargin::learn
