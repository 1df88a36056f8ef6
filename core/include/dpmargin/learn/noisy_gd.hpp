// Noisy gradient descent on the c-hinge loss (paper Algo 4; SPEC §2.4): its parameters, the
// gradient sum and the noisy step. The loop itself is the Trainer's (trainer.hpp).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>

#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

enum class OutputIterate { kAverage, kLast };
inline const char* toString(OutputIterate o) noexcept { return o == OutputIterate::kLast ? "last" : "average"; }

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
// `scratch` is resized to k entries; `out` gets the sum. A convenience entry of the kernel
// (kernels.hpp) for tests and benchmarks; it allocates the kernel's compensation scratch.
void hingeGradientSum(const ClippedRows& rows, double c, const Eigen::VectorXf& w,
                      Eigen::VectorXf& scratch, Eigen::VectorXd& out);

struct NoisyGdParams {
  double c = 0;           // hinge scale
  double sigma = 0;       // per-step noise sd (σ = Δ√T/μ_run, from the plan)
  double stepSize = 0;    // η
  std::uint64_t iterations = 0;  // T
};

// One noisy-GD update for m candidates in lockstep, given their exact gradient sums (k × m):
// column j gets N(0, σ_j² I_k) from `generator`, then w_j ← w_j − η_j g_j. The one place the
// mechanism's gradient noise is added; the Trainer (trainer.hpp) runs noisy GD with it — the
// only noisy-GD loop there is (w₀ = 0; gₜ = Σ ∇ℓ_c(wₜ) + N(0, σ² I_k); wₜ₊₁ = wₜ − η gₜ).
void noisyStep(const NoisyGdParams* params, std::size_t m, Eigen::Ref<Eigen::MatrixXd> gradient,
               Eigen::Ref<Eigen::MatrixXd> w, random::Generator& generator);

}  // namespace dpmargin::learn
