// K ~ TNB_{η,r} on {1, 2, …} for PrivTune (SPEC §2.6; Papernot & Steinke 2022). The pmf, cdf and
// quantile live in accounting/tnb.cpp and are reused here, not duplicated.
#include <cmath>

#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/random/samplers.hpp"
#include "math/special.hpp"

namespace dpmargin::random {
namespace {

constexpr double kCap = static_cast<double>(kMaxTnbSample);

std::uint64_t saturate(double k) {
  return k < kCap ? static_cast<std::uint64_t>(k) : kMaxTnbSample;
}

// η = 1, geometric with success probability r: P(K > k) = (1−r)ᵏ, and
// P(1 + ⌊ln U / ln(1−r)⌋ > k) = P(ln U ≤ k·ln(1−r)) = P(U ≤ (1−r)ᵏ) = (1−r)ᵏ.
std::uint64_t geometric(Generator& g, double r) {
  return saturate(1.0 + std::floor(std::log(uniformOpen01(g)) / std::log1p(-r)));
}

// η = 0, the logarithmic law P(K = k) = pᵏ/(k ln(1/(1−p))) with p = 1 − r: Kemp 1981,
// "Efficient generation of logarithmically distributed pseudo-random variables" (Applied
// Statistics 30(3)), algorithm LK. K is geometric given q = 1 − (1−p)^U = 1 − r^U:
// P(K > k | q) = qᵏ⁻¹·q, i.e. K = 1 + ⌊ln V / ln q⌋; since q < p, V ≥ p already means K = 1 (no
// second uniform), and V > q, V > q² give K = 1, 2 without logarithms.
std::uint64_t logarithmic(Generator& g, double r) {
  const double p = 1.0 - r;
  const double logR = std::log(r);
  const double v = uniformOpen01(g);
  if (v >= p) return 1;
  const double t = uniformOpen01(g) * logR;  // ln(1 − q) = U ln r
  const double q = -std::expm1(t);
  if (v > q) return 1;
  if (v > q * q) return 2;
  // ln q = ln(1 − eᵗ), via expm1 near t = 0 and log1p otherwise (Mächler 2012, "log1mexp").
  const double logQ = t > -math::kLn2 ? std::log(-std::expm1(t)) : std::log1p(-std::exp(t));
  return saturate(1.0 + std::floor(std::log(v) / logQ));
}

// Inversion: the smallest k with cdf(k) ≥ U (exact up to the 2⁻⁵³ granularity of U), by the
// accounting's quantile, which walks the pmf recurrence pmf(k+1) = pmf(k)·(1−r)(k+η)/(k+1) with
// a compensated sum, re-anchors it from logs every 64 terms, and stops once the remaining mass is
// below 1e-17 of the sum (so a U above the rounded total cannot run forever). Expected cost
// E[K] steps — small next to the K base runs the caller then performs.
std::uint64_t inversion(Generator& g, const accounting::Tnb& tnb) {
  const std::uint64_t k = accounting::tnbQuantile(tnb, uniformOpen01(g));
  return k < kMaxTnbSample ? k : kMaxTnbSample;
}

// η > 0: NB(η, r) as a Gamma–Poisson mixture, Λ ~ Gamma(η, θ = (1−r)/r), K ~ Poisson(Λ):
// P(K = k) = Γ(k+η)/(Γ(η) k!)·(θ/(1+θ))ᵏ(1+θ)^(−η) = Γ(k+η)/(Γ(η) k!)·(1−r)ᵏ r^η, and rejecting
// K = 0 (probability r^η) truncates it to TNB_{η,r}. Expected rounds 1/(1 − r^η).
std::uint64_t gammaPoisson(Generator& g, double eta, double r) {
  const double theta = (1.0 - r) / r;
  for (;;) {
    const double lambda = gamma(g, eta, theta);
    if (!(lambda <= 0x1p52)) return kMaxTnbSample;  // K ≈ Λ ≥ 2⁵² (only for r ≲ 1e-15)
    const std::uint64_t k = poisson(g, lambda);
    if (k > 0) return saturate(static_cast<double>(k));
  }
}

// Below this acceptance probability 1 − r^η (tiny η > 0) the rejection loop would take more
// than 64 rounds on average; inversion is used instead, whose cost is E[K] steps.
constexpr double kMinAcceptance = 1.0 / 64.0;

}  // namespace

std::uint64_t sampleTnb(Generator& g, const accounting::Tnb& tnb) {
  accounting::validateTnb(tnb);
  if (tnb.eta == 1.0) return geometric(g, tnb.r);
  if (tnb.eta == 0.0) return logarithmic(g, tnb.r);
  if (tnb.eta > 0.0 && -std::expm1(tnb.eta * std::log(tnb.r)) >= kMinAcceptance) {
    return gammaPoisson(g, tnb.eta, tnb.r);
  }
  return inversion(g, tnb);  // −1 < η < 0, or η > 0 tiny
}

}  // namespace dpmargin::random
