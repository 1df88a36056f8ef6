// The JL projection Φ_γ and the clipping of projected rows (SPEC §2.3, §2.4 step 1).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

using RowMatrixXf = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Φ ∈ ℝ^{k×d} with i.i.d. entries ±1/√k (Achlioptas 2003), from the injected generator.
RowMatrixXf drawJlMatrix(random::Generator& generator, std::size_t k, std::size_t d);

// out (n × k, row-major) = X Φᵀ, i.e. z_i = Φ x_i. Resizes `out` (allocation outside any loop).
void projectRows(const DataView& data, const RowMatrixXf& phi, std::vector<float>& out);

// s_i = min(1, R'/‖z_i‖), R' = R·(1 − 2⁻²⁰): the norm is taken in double and the slack absorbs
// float rounding of s_i·z_i, so every row the learner sees has norm ≤ R (the sensitivity
// Δ = 2R/c then holds exactly). Zero rows get s_i = 1.
void clipFactors(const float* z, std::size_t stride, std::size_t n, std::size_t k, double R,
                 std::vector<float>& out);

}  // namespace dpmargin::learn
