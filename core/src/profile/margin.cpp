#include "dpmargin/profile/margin.hpp"

#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "dpmargin/error.hpp"

namespace dpmargin::profile {

std::vector<double> normalizedMargins(const DataView& data, const std::vector<double>& w) {
  validate(data);
  if (w.size() != data.d) {
    throwBadParameter("w", "of length d = " + std::to_string(data.d),
                      static_cast<double>(w.size()));
  }
  const Eigen::Map<const Eigen::VectorXd> wv(w.data(), static_cast<Eigen::Index>(w.size()));
  if (!wv.allFinite()) {
    throw Error(ErrorCode::kBadParameter, "w", "w must be finite, but has a non-finite entry");
  }
  const double wNorm = wv.norm();
  std::vector<double> margins(data.n);
  const auto d = static_cast<Eigen::Index>(data.d);
  for (std::size_t i = 0; i < data.n; ++i) {
    const Eigen::Map<const Eigen::VectorXf> xi(data.x + i * data.d, d);
    const Eigen::VectorXd x = xi.cast<double>();
    const double xNorm = x.norm();
    if (xNorm == 0.0) {
      margins[i] = std::numeric_limits<double>::quiet_NaN();
    } else if (wNorm == 0.0) {
      margins[i] = 0.0;
    } else {
      margins[i] = data.y[i] * x.dot(wv) / (xNorm * wNorm);
    }
  }
  return margins;
}

double minimumNormalizedMargin(const DataView& data, const std::vector<double>& w) {
  double minimum = std::numeric_limits<double>::quiet_NaN();
  for (double m : normalizedMargins(data, w)) {
    if (!std::isnan(m) && !(m >= minimum)) minimum = m;
  }
  return minimum;
}

double margin(const DataView& data, const std::vector<double>& w) {
  const double minimum = minimumNormalizedMargin(data, w);
  return minimum > 0.0 ? minimum : 0.0;
}

}  // namespace dpmargin::profile
