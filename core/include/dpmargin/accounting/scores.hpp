// Selection scores (SPEC §2.5).
#pragma once

#include <cstdint>

namespace dpmargin::accounting {

// Population-score penalty, corrected form of the paper's Eq. pen_cri:
// 2.5 (k ln(2n) + ln(4/β)). Public (data-independent), so the score's sensitivity stays 1.
// The paper prints ln(β/4), a typo; its proof uses a penalty twice as large.
double populationPenalty(std::uint64_t k, std::uint64_t n, double beta);

// errors + populationPenalty(k, n, β).
double populationScore(double errorCount, std::uint64_t k, std::uint64_t n, double beta);

}  // namespace dpmargin::accounting
