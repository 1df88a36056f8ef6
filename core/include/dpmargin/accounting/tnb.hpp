// Truncated negative binomial TNB_{η,r} on {1, 2, …} (Papernot & Steinke 2022), SPEC §2.6.
// pmf(k) ∝ (1−r)ᵏ ∏_{l<k} (l+η)/(l+1);  η = 1: geometric, η = 0: logarithmic.
// Domain: −1 < η ≤ 2⁵³, r ∈ (0, 1).
#pragma once

#include <cstdint>

namespace dpmargin::accounting {

struct Tnb {
  double eta;
  double r;
};

void validateTnb(const Tnb& tnb);  // throws BAD_PARAMETER naming "eta" or "r"

double tnbLogPmf(const Tnb& tnb, std::uint64_t k);  // k ≥ 1
double tnbPmf(const Tnb& tnb, std::uint64_t k);
double tnbCdf(const Tnb& tnb, std::uint64_t k);
double tnbSf(const Tnb& tnb, std::uint64_t k);  // P(K > k), accurate in the far tail
// Smallest k with cdf(k) ≥ q, q ∈ (0, 1).
std::uint64_t tnbQuantile(const Tnb& tnb, double q);
// E[K] = η(1−r) / (r (1 − r^η));  η = 0: (1−r) / (r ln(1/r)).
double tnbMean(const Tnb& tnb);
// PGF E[s^K] = ((1 − (1−r)s)^(−η) − 1) / (r^(−η) − 1);  η = 0: ln(1 − (1−r)s) / ln r. s ∈ [0,1].
double tnbPgf(const Tnb& tnb, double s);
// P(a given candidate is never tried) when each of K draws is uniform over m candidates:
// PGF(1 − 1/m). m ≥ 1.
double tnbProbabilityMiss(const Tnb& tnb, std::uint64_t candidates);
// The r that gives E[K] = mean (mean > 1), found by a monotone root search (η = 1: r = 1/mean).
double tnbRForMean(double eta, double mean);
// Largest r with P(miss) ≤ β for m candidates. η = 1 closed form β / ((1−β)(m−1)); otherwise a
// monotone root search on the PGF. m ≥ 2, β ∈ (0, 1).
double tnbRForMissProbability(double eta, std::uint64_t candidates, double beta);

}  // namespace dpmargin::accounting
