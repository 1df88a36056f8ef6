// Selection scores, SPEC §2.5 (paper Eq. pen_cri, corrected).
#include "dpmargin/accounting/scores.hpp"

#include <cmath>

#include "dpmargin/error.hpp"

namespace dpmargin::accounting {

double populationPenalty(std::uint64_t k, std::uint64_t n, double beta) {
  if (k < 1) throwBadParameter("k", "at least 1", 0.0);
  if (n < 2) throwBadParameter("n", "at least 2", static_cast<double>(n));
  requireOpenUnit("beta", beta);
  // VC bound for homogeneous halfspaces in ℝᵏ (VC dimension k): 2.5(k ln(2n) + ln(4/β)).
  // The paper prints ln(β/4) (a typo, a constant shift); its proof uses twice this penalty.
  // ln 4 − ln β: 4/β overflows for a subnormal β (an infinite penalty made the noisy score +∞).
  return 2.5 * (static_cast<double>(k) * std::log(2.0 * static_cast<double>(n)) +
                (std::log(4.0) - std::log(beta)));
}

double populationScore(double errorCount, std::uint64_t k, std::uint64_t n, double beta) {
  requireNonNegative("errorCount", errorCount);
  return errorCount + populationPenalty(k, n, beta);
}

}  // namespace dpmargin::accounting
