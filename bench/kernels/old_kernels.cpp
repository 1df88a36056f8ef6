#include "old_kernels.hpp"

#include <algorithm>

namespace dpmargin::bench::old {

using learn::ClippedRows;

namespace {
constexpr Eigen::Index kRowsPerBlock = 128;
using RowMatrixXfMap = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>,
                                  0, Eigen::OuterStride<>>;
}  // namespace

void hingeGradientSum(const ClippedRows& rows, double c, const Eigen::VectorXf& w,
                      Eigen::VectorXf& scratch, Eigen::VectorXd& out) {
  using RowVec = Eigen::Map<const Eigen::VectorXf>;
  out.setZero();
  const float threshold = static_cast<float>(c);
  for (std::size_t begin = 0; begin < rows.n; begin += std::size_t(kRowsPerBlock)) {
    const std::size_t end = std::min(rows.n, begin + std::size_t(kRowsPerBlock));
    scratch.setZero();
    bool any = false;
    for (std::size_t i = begin; i < end; ++i) {
      const RowVec z(rows.z + i * rows.stride, static_cast<Eigen::Index>(rows.k));
      const float s = rows.scale[i];
      const float y = static_cast<float>(rows.y[i]);
      // Active iff the hinge is positive: y⟨w, s z⟩ < c. The subgradient is −(y s / c) z.
      if (y * s * w.dot(z) < threshold) {
        scratch.noalias() += (y * s) * z;
        any = true;
      }
    }
    if (any) out += scratch.cast<double>();
  }
  out *= -1.0 / c;
}

void batchedGradients(const ClippedRows& rows, const Eigen::VectorXd& c,
                      const Eigen::MatrixXf& w, Eigen::MatrixXf& margins,
                      Eigen::MatrixXf& coefficients, Eigen::MatrixXf& blockGradient,
                      Eigen::MatrixXd& out) {
  const auto k = static_cast<Eigen::Index>(rows.k);
  const Eigen::Index m = w.cols();
  const auto n = static_cast<Eigen::Index>(rows.n);
  out.setZero();
  for (Eigen::Index begin = 0; begin < n; begin += kRowsPerBlock) {
    const Eigen::Index b = std::min(kRowsPerBlock, n - begin);
    const RowMatrixXfMap z(rows.z + begin * static_cast<Eigen::Index>(rows.stride), b, k,
                           Eigen::OuterStride<>(static_cast<Eigen::Index>(rows.stride)));
    auto M = margins.topRows(b);
    auto A = coefficients.topRows(b);
    M.noalias() = z * w;  // ⟨w_j, z_i⟩ for every row of the block and every candidate
    bool any = false;
    for (Eigen::Index i = 0; i < b; ++i) {
      const float ys = static_cast<float>(rows.y[begin + i]) * rows.scale[begin + i];
      for (Eigen::Index j = 0; j < m; ++j) {
        // Active iff y⟨w_j, s z⟩ < c_j; the subgradient is −(y s / c_j) z.
        const bool active = ys * M(i, j) < static_cast<float>(c[j]);
        A(i, j) = active ? ys : 0.0f;
        any |= active;
      }
    }
    if (!any) continue;
    blockGradient.noalias() = z.transpose() * A;
    out += blockGradient.cast<double>();
  }
  for (Eigen::Index j = 0; j < m; ++j) out.col(j) *= -1.0 / c[j];
}

}  // namespace dpmargin::bench::old
