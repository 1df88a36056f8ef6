#include <cmath>
#include <string>

#include "dpmargin/error.hpp"

namespace dpmargin {

// Largest integer a double carries exactly; counts above it are rejected, not rounded.
static constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

std::uint64_t requireCount(const char* name, double value, double minimum) {
  requireFinite(name, value);
  if (value != std::floor(value)) throwBadParameter(name, "an integer", value);
  if (value < minimum || value > kMaxExactInteger) {
    throwBadParameter(
        name, "an integer in [" + std::to_string(static_cast<long long>(minimum)) + ", 2^53]",
        value);
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace dpmargin
