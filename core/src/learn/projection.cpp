#include "dpmargin/learn/projection.hpp"

#include <cmath>
#include <new>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"

namespace dpmargin::learn {

RowMatrixXf drawJlMatrix(random::Generator& generator, std::size_t k, std::size_t d) {
  RowMatrixXf phi(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(d));
  random::fillRademacher(generator, phi.data(), k * d,
                         static_cast<float>(1.0 / std::sqrt(static_cast<double>(k))));
  return phi;
}

void projectRows(const DataView& data, const RowMatrixXf& phi, std::vector<float>& out) {
  const auto n = static_cast<Eigen::Index>(data.n);
  const auto k = phi.rows();
  try {
    out.resize(data.n * static_cast<std::size_t>(k));
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kOutOfMemory, "",
                "out of memory for the projected data (" + std::to_string(data.n) + " x " +
                    std::to_string(k) + " floats)");
  }
  Eigen::Map<const RowMatrixXf> x(data.x, n, static_cast<Eigen::Index>(data.width));
  Eigen::Map<RowMatrixXf> z(out.data(), n, k);
  z.noalias() = x * phi.transpose();
}

void clipFactors(const float* z, std::size_t stride, std::size_t n, std::size_t k, double R,
                 std::vector<float>& out) {
  const double target = R * (1.0 - std::ldexp(1.0, -20));
  out.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = z + i * stride;
    double sq = 0;
    for (std::size_t j = 0; j < k; ++j) sq += double(row[j]) * double(row[j]);
    const double norm = std::sqrt(sq);
    out[i] = norm > target ? static_cast<float>(target / norm) : 1.0f;
  }
}

}  // namespace dpmargin::learn
