// Gamma and Poisson samplers, used by the TNB sampler for η > 0 (SPEC §2.6). Their outputs
// are never released directly (only the number of PrivTune runs K they lead to), so they use
// plain Box–Muller normals rather than the hardened sum of gaussian.cpp.
#include <cmath>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "random/unit.hpp"

namespace dpmargin::random {
namespace {

constexpr double kHalfLn2Pi = 0.91893853320467274178;  // ½ ln 2π
constexpr double kMaxLambda = 0x1p52;  // above, doubles no longer hold every integer near λ

// Marsaglia & Tsang 2000, "A simple method for generating gamma variables" (ACM TOMS 26(3)),
// shape a ≥ 1: with d = a − ⅓, c = 1/√(9d), X ~ N(0,1), V = (1 + cX)³, accept dV when
// ln U < X²/2 + d − dV + d ln V (after the cheap squeeze U < 1 − 0.0331X⁴). Acceptance ≥ 0.95.
double gammaAtLeastOne(Generator& g, double shape) {
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  double spare = 0.0;
  bool haveSpare = false;
  for (;;) {
    double x;
    if (haveSpare) {
      x = spare;
      haveSpare = false;
    } else {
      // Two statements, not boxMuller(g.nextU64(), g.nextU64()): argument evaluation order is
      // unspecified (GCC and Clang differ), which made seeded streams differ natively and in wasm.
      const std::uint64_t w1 = g.nextU64();
      const std::uint64_t w2 = g.nextU64();
      const detail::NormalPair pair = detail::boxMuller(w1, w2);
      x = pair.first;
      spare = pair.second;
      haveSpare = true;
    }
    double v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = uniformOpen01(g);
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) return d * v;
  }
}

// ln k! for k ≥ 0: exact table below 10, else the Stirling series (A&S 6.1.41) with terms to
// x⁻⁹, error < 1e-14 for x = k + 1 ≥ 11.
double stirlingRemainder(double x) {
  const double y = 1.0 / (x * x);
  return (1.0 / 12.0 - y * (1.0 / 360.0 - y * (1.0 / 1260.0 - y * (1.0 / 1680.0 - y / 1188.0)))) /
         x;
}

// ln P(K = k) = k ln λ − λ − ln k! for K ~ Poisson(λ). For k ≥ 10 in the form
//   k·log1p((λ − k − 1)/(k + 1)) + (k + 1 − λ) − ½ ln(k + 1) − ½ ln 2π − S(k + 1),
// which avoids subtracting the large, nearly equal k ln λ and ln k! (exact rearrangement of
// Stirling's ln Γ(k+1) = (k+½) ln(k+1) − (k+1) + ½ ln 2π + S(k+1)).
double poissonLogPmf(double lambda, double k) {
  static constexpr double kLogFactorial[10] = {
      0.0,
      0.0,
      0.69314718055994530942,
      1.79175946922805500081,
      3.17805383034794561965,
      4.78749174278204599425,
      6.57925121201010099506,
      8.52516136106541430017,
      10.60460290274525022842,
      12.80182748008146961121};
  if (k < 10.0) return k * std::log(lambda) - lambda - kLogFactorial[static_cast<int>(k)];
  const double k1 = k + 1.0;
  return k * std::log1p((lambda - k1) / k1) + (k1 - lambda) - 0.5 * std::log(k1) - kHalfLn2Pi -
         stirlingRemainder(k1);
}

// Inversion by sequential search from k = 0 (Devroye 1986, §X.3.3), for λ < 10. The loop stops
// at k = 100 at the latest: P(K > 100) < 1e-60 for λ < 10, far below the 2⁻⁵³ resolution of U
// (the cap only guards against U above the rounded total mass).
std::uint64_t poissonInversion(Generator& g, double lambda) {
  const double u = uniformOpen01(g);
  double p = std::exp(-lambda);
  double cdf = p;
  std::uint64_t k = 0;
  while (u > cdf && k < 100) {
    ++k;
    p *= lambda / static_cast<double>(k);
    cdf += p;
  }
  return k;
}

// PTRS, Hörmann 1993, "The transformed rejection method for generating Poisson random
// variables" (Insurance: Mathematics and Economics 12(1)), for λ ≥ 10: a transformed-rejection
// hat with the paper's constants (the same as NumPy's random_poisson_ptrs).
std::uint64_t poissonPtrs(Generator& g, double lambda) {
  const double b = 0.931 + 2.53 * std::sqrt(lambda);
  const double a = -0.059 + 0.02483 * b;
  const double invAlpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vR = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = uniformOpen01(g) - 0.5;
    const double v = uniformOpen01(g);
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + lambda + 0.43);
    if (us >= 0.07 && v <= vR) return static_cast<std::uint64_t>(k);  // k ≥ 0 in this region
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invAlpha) - std::log(a / (us * us) + b) <=
        poissonLogPmf(lambda, k)) {
      return static_cast<std::uint64_t>(k);
    }
  }
}

}  // namespace

double gamma(Generator& g, double shape, double scale) {
  requirePositive("shape", shape);
  requirePositive("scale", scale);
  if (shape >= 1.0) return scale * gammaAtLeastOne(g, shape);
  // Marsaglia & Tsang §6: Gamma(a) = Gamma(a + 1)·U^(1/a) for a < 1 (U^(1/a) via exp/log).
  const double boost = std::exp(std::log(uniformOpen01(g)) / shape);
  return scale * gammaAtLeastOne(g, shape + 1.0) * boost;
}

std::uint64_t poisson(Generator& g, double lambda) {
  if (!(lambda >= 0.0 && lambda <= kMaxLambda)) {
    throwBadParameter("lambda", "finite, non-negative and at most 2^52", lambda);
  }
  if (lambda == 0.0) return 0;
  return lambda < 10.0 ? poissonInversion(g, lambda) : poissonPtrs(g, lambda);
}

}  // namespace dpmargin::random
