// The margin grid Γ, SPEC §2.2 (paper Algo 5, line "Γ = {b·2ʲ/n}").
#include "dpmargin/accounting/grid.hpp"

#include <cmath>
#include <limits>

#include "dpmargin/error.hpp"

namespace dpmargin::accounting {

std::vector<double> marginGrid(std::uint64_t n, double b) {
  if (n < 2) throwBadParameter("n", "at least 2", static_cast<double>(n));
  requirePositive("b", b);
  int floorLog2 = 0;
  while (floorLog2 < 63 && (n >> (floorLog2 + 1)) != 0) ++floorLog2;  // n >> 64 is UB
  std::vector<double> grid;
  grid.reserve(static_cast<std::size_t>(floorLog2) + 2);
  // b·2ʲ/n as ldexp(b/n, j): one rounding (the division), the scaling by 2ʲ is exact.
  const double base = b / static_cast<double>(n);
  // A subnormal b/n has lost its precision (or is 0): the grid would repeat 0 or b·2ʲ/n badly.
  if (!(base >= std::numeric_limits<double>::min())) {
    throwBadParameter("b", "at least n * 2^-1022 (b/n must be a normal double)", b);
  }
  for (int j = 0; j <= floorLog2; ++j) grid.push_back(std::ldexp(base, j));
  // The top point b, unless n is a power of 2 and b·2^⌊log₂n⌋/n is already b.
  if (grid.back() != b) grid.push_back(b);
  return grid;
}

}  // namespace dpmargin::accounting
