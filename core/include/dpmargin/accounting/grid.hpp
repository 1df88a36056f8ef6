// The margin grid Γ (SPEC §2.2): { b·2ʲ/n : j = 0..⌊log₂ n⌋ } ∪ { b }, deduplicated,
// ascending, |Γ| = ⌈log₂ n⌉ + 1. Data-independent. n ≥ 2, b > 0.
#pragma once

#include <cstdint>
#include <vector>

namespace dpmargin::accounting {

std::vector<double> marginGrid(std::uint64_t n, double b);

}  // namespace dpmargin::accounting
