// Noisy gradient descent on the c-hinge loss (paper Algo 4; SPEC §2.4).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>

#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

enum class OutputIterate { kAverage, kLast };

// Rows the descent reads: z (n × k, row stride `stride`), per-row clip factors s (‖s_i z_i‖ ≤ R)
// and labels ±1. The learner never sees a row except through s_i·z_i.
struct ClippedRows {
  const float* z = nullptr;
  std::size_t stride = 0;
  const float* scale = nullptr;
  const std::int8_t* y = nullptr;
  std::size_t n = 0;
  std::size_t k = 0;
};

// Σ_i ∇ℓ_c(w; s_i z_i, y_i) for ℓ_c(w; z, y) = max(0, 1 − y⟨w, z⟩/c): one fused pass over the
// rows (margin and subgradient per row), float products, double accumulation per block of rows.
// `scratch` must have k entries; `out` gets the sum. No allocation.
void hingeGradientSum(const ClippedRows& rows, double c, const Eigen::VectorXf& w,
                      Eigen::VectorXf& scratch, Eigen::VectorXd& out);

struct NoisyGdParams {
  double c = 0;           // hinge scale
  double sigma = 0;       // per-step noise sd (σ = Δ√T/μ_run, from the plan)
  double stepSize = 0;    // η
  std::uint64_t iterations = 0;  // T
  OutputIterate output = OutputIterate::kAverage;
};

// One noisy-GD update for m candidates in lockstep, given their exact gradient sums (k × m):
// column j gets N(0, σ_j² I_k) from `generator`, then w_j ← w_j − η_j g_j. The one place the
// mechanism's gradient noise is added — by NoisyGd, BatchedNoisyGd and the (sharded) Trainer.
void noisyStep(const NoisyGdParams* params, std::size_t m, Eigen::Ref<Eigen::MatrixXd> gradient,
               Eigen::Ref<Eigen::MatrixXd> w, random::Generator& generator);

// w₀ = 0; gₜ = Σ ∇ℓ_c(wₜ) + N(0, σ² I_k); wₜ₊₁ = wₜ − η gₜ. Output w̄ = (1/T) Σ_{t<T} wₜ or w_T.
// Resumable: advance() runs a bounded number of iterations, so callers can report progress and
// cancel between calls. Everything is allocated in the constructor.
class NoisyGd {
 public:
  NoisyGd(const ClippedRows& rows, const NoisyGdParams& params);

  // Runs up to `budget` iterations; returns the number run.
  std::uint64_t advance(std::uint64_t budget, random::Generator& generator);
  bool done() const noexcept { return t_ == params_.iterations; }
  std::uint64_t iteration() const noexcept { return t_; }
  // The released iterate (valid once done()).
  Eigen::VectorXd output() const;

 private:
  ClippedRows rows_;
  NoisyGdParams params_;
  std::uint64_t t_ = 0;
  Eigen::VectorXd w_, sum_, gradient_;
  Eigen::VectorXf wFloat_, scratch_;
};

}  // namespace dpmargin::learn
