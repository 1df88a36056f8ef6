#include "dpmargin/profile/data_view.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"

namespace dpmargin::profile {

void validate(const DataView& data) {
  if (data.n == 0) throwBadParameter("n", "at least 1", 0.0);
  if (data.d == 0) throwBadParameter("d", "at least 1", 0.0);
  if (data.d > std::numeric_limits<std::size_t>::max() / data.n) {
    throwBadParameter("d", "such that n·d fits in memory", static_cast<double>(data.d));
  }
  if (data.x == nullptr) {
    throw Error(ErrorCode::kBadParameter, "x", "x must be a pointer to n·d features, but is null");
  }
  if (data.y == nullptr) {
    throw Error(ErrorCode::kBadParameter, "y", "y must be a pointer to n labels, but is null");
  }
  for (std::size_t i = 0; i < data.n; ++i) {
    if (data.y[i] != 1 && data.y[i] != -1) {
      throw Error(ErrorCode::kBadParameter, "y",
                  "y must be -1 or +1, but row " + std::to_string(i) + " is " +
                      std::to_string(static_cast<int>(data.y[i])));
    }
  }
  const std::size_t size = data.n * data.d;
  for (std::size_t k = 0; k < size; ++k) {
    if (!std::isfinite(data.x[k])) {
      throw Error(ErrorCode::kBadParameter, "x",
                  "x must be finite, but row " + std::to_string(k / data.d) + " column " +
                      std::to_string(k % data.d) + " is " + std::to_string(data.x[k]));
    }
  }
}

}  // namespace dpmargin::profile
