#include "dpmargin/learn/noisy_gd.hpp"

#include <algorithm>
#include <vector>

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
  std::vector<double> compensation(rows.k);  // convenience entry (tests): may allocate
  kernels::hingeGradients(rows, &c, w.data(), rows.k, 1, scratch.data(), compensation.data(), out.data());
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

}  // namespace dpmargin::learn
