// Gaussian differential privacy (Dong, Roth, Su 2022), SPEC §2.1.
#include "dpmargin/accounting/gdp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"
#include "math/double_double.hpp"
#include "math/solve.hpp"
#include "math/special.hpp"

namespace dpmargin::accounting {
namespace {

using math::DD;

double standardNormalDensity(double x) { return math::kInvSqrt2Pi * std::exp(-0.5 * x * x); }

// ln δ(ε; μ) and δ(ε; μ) for validated ε ≥ 0, μ > 0. With c = ε/μ, x₁ = c − μ/2, x₂ = c + μ/2:
//   δ = Φ(−x₁) − e^ε Φ(−x₂)   (Dong–Roth–Su 2022, Cor. 2.13),
// and e^ε Φ(−x₂) = ½ e^(−x₁²/2) erfcx(x₂/√2) since x₂² − x₁² = 2ε (no overflow of e^ε).
// Three forms, each free of cancellation where it is used:
//  x₁ ≤ 0, δ > ½:  1 − δ = Φ(x₁) + e^ε Φ(−x₂), a sum of positive terms (ln δ = log1p(−(1−δ))
//    stays accurate as δ → 1).
//  x₁ ≤ 0, δ ≤ ½:  δ = P(x₁ < Z < x₂) − (e^ε − 1) Φ(−x₂). [x₁, x₂] straddles 0, so for μ > ½
//    the erfc difference is ≥ 0.1; for smaller μ the interval probability is integrated by
//    Gauss–Legendre around the exact centre c (no difference of nearly equal erfc values), and
//    expm1 keeps (e^ε − 1) exact for small ε.
//  x₁ > 0:  δ = ½ e^(−x₁²/2) [erfcx(z₁) − erfcx(z₂)], zᵢ = xᵢ/√2; the bracket is integrated as
//    ∫ −erfcx′ when z₂ − z₁ = μ/√2 is short relative to z₁ (the difference would cancel).
//    x₁²/2 is formed in double-double: for x₁ ≈ 1000 its rounding alone would cost 1e-10.
struct DeltaParts {
  bool smallRegime;    // x₁ > 0: δ = ½ exp(−halfSquare)·bracket
  double delta;        // δ when x₁ ≤ 0
  double complement;   // 1 − δ when x₁ ≤ 0 and δ > ½, else NaN
  DD halfSquare;       // x₁²/2
  double bracket;      // erfcx(z₁) − erfcx(z₂)
};

DD halfSquareOf(DD x) {
  // |x| ≳ 1.3e154 (μ near DBL_MAX): x² overflows and its error term would be ∞ − ∞ = NaN.
  if (!std::isfinite(x.hi * x.hi)) return {std::numeric_limits<double>::infinity(), 0.0};
  DD square = math::twoProduct(x.hi, x.hi);
  square.lo += 2.0 * x.hi * x.lo;
  return math::quickTwoSum(0.5 * square.hi, 0.5 * square.lo);
}

// e^(−(hi + lo)) = e^(−hi)·(1 − lo) to first order; |lo| ≤ ulp(hi).
double expNeg(DD a) { return std::exp(-a.hi) * (1.0 - a.lo); }

DeltaParts deltaParts(double epsilon, double mu) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DeltaParts parts{false, 0.0, nan, {0.0, 0.0}, 0.0};
  DD c = math::ddDiv(epsilon, mu);
  // ddDiv forms q·μ, which overflows for ε near DBL_MAX (its ∞ read as "δ < e^(−10²⁹⁹)", and
  // gdpMu returned a μ with δ ≈ 1); the plain quotient is exact enough at that scale.
  if (!std::isfinite(c.hi + c.lo) && std::isfinite(epsilon / mu)) c = {epsilon / mu, 0.0};
  // δ < e^(−10²⁹⁹): report ln δ = −∞. Only while μ < c, i.e. x₁ > c/2: a huge μ (gdpMu's
  // search at ε near DBL_MAX) has δ near 1 however large c is.
  if (!std::isfinite(c.hi) || (c.hi > 1e150 && mu < c.hi)) {
    parts.smallRegime = true;
    parts.halfSquare = {std::numeric_limits<double>::infinity(), 0.0};
    parts.bracket = 1.0;
    return parts;
  }
  const DD x1 = math::ddAdd(c, DD{-0.5 * mu, 0.0});
  const double lower = x1.hi + x1.lo;
  const double upper = c.hi + 0.5 * mu;
  if (x1.hi <= 0.0) {
    const double z2 = upper * math::kInvSqrt2;
    const double tailUpper = 0.5 * std::erfc(z2);                               // Φ(−x₂)
    const double weighted = 0.5 * expNeg(halfSquareOf(x1)) * math::erfcx(z2);  // e^ε Φ(−x₂)
    const double complement = 0.5 * std::erfc(-lower * math::kInvSqrt2) + weighted;
    if (complement < 0.5) {
      parts.complement = complement;
      parts.delta = 1.0 - complement;
      return parts;
    }
    const double interval =
        mu > 0.5 ? 0.5 * std::erfc(lower * math::kInvSqrt2) - tailUpper
                 : math::gaussLegendre10(standardNormalDensity, c.hi, 0.5 * mu);
    const double excess = epsilon < 1.0 ? std::expm1(epsilon) * tailUpper : weighted - tailUpper;
    parts.delta = interval - excess;
    return parts;
  }
  parts.smallRegime = true;
  parts.halfSquare = halfSquareOf(x1);
  const double z1 = lower * math::kInvSqrt2;
  const double halfWidth = 0.5 * mu * math::kInvSqrt2;
  if (halfWidth > 0.125 * std::max(1.0, z1)) {
    parts.bracket = math::erfcx(z1) - math::erfcx(upper * math::kInvSqrt2);
  } else {
    parts.bracket = math::gaussLegendre10(math::erfcxNegDerivative, z1 + halfWidth, halfWidth);
  }
  return parts;
}

double logDeltaUnchecked(double epsilon, double mu) {
  const DeltaParts p = deltaParts(epsilon, mu);
  if (!p.smallRegime) {
    return std::isnan(p.complement) ? std::log(p.delta) : std::log1p(-p.complement);
  }
  return (std::log(p.bracket) - math::kLn2) - p.halfSquare.hi - p.halfSquare.lo;
}

double deltaUnchecked(double epsilon, double mu) {
  const DeltaParts p = deltaParts(epsilon, mu);
  if (!p.smallRegime) return p.delta;
  return 0.5 * expNeg(p.halfSquare) * p.bracket;
}

// s = sqrt(2 ln(1/δ)), the Gaussian tail quantile bound used by the paper's conversions.
double tailScale(double delta) { return std::sqrt(-2.0 * std::log(delta)); }

double lemmaEpsilon(double mu, double delta) {
  return mu * (0.5 * mu + tailScale(delta));
}

double lemmaInverseMu(double epsilon, double delta) {
  // Positive root of μ²/2 + sμ − ε = 0 in the form 2ε/(s + sqrt(s² + 2ε)) (no cancellation),
  // then stepped down until the Lemma's ε no longer exceeds the target in floating point.
  const double s = tailScale(delta);
  // 2ε overflows above DBL_MAX/2 (then NaN made gdpMu loop forever): there, the same root as
  // q/(s/q + hypot(s/q, 1)) with q = sqrt(2ε).
  const double q = std::sqrt(2.0) * std::sqrt(epsilon);
  double mu = epsilon < 0x1p1022 ? 2.0 * epsilon / (s + std::sqrt(s * s + 2.0 * epsilon))
                                 : q / (s / q + std::hypot(s / q, 1.0));
  while (mu > 0.0 && lemmaEpsilon(mu, delta) > epsilon) mu = std::nextafter(mu, 0.0);
  return mu;
}

}  // namespace

double composeGdp(const std::vector<double>& mus) {
  if (mus.empty()) throwBadParameter("mus.size", "at least 1", 0.0);
  double largest = 0.0;
  for (std::size_t i = 0; i < mus.size(); ++i) {
    requireNonNegative(("mus[" + std::to_string(i) + "]").c_str(), mus[i]);
    largest = std::max(largest, mus[i]);
  }
  if (largest == 0.0) return 0.0;
  // Scaled sum of squares (Dong–Roth–Su Cor. 3.3: μ-GDP composes to sqrt(Σμᵢ²)); the scaling
  // only avoids overflow/underflow of μᵢ².
  double sum = 0.0;
  for (double mu : mus) sum += (mu / largest) * (mu / largest);
  return largest * std::sqrt(sum);
}

double composeGdp(double mu, std::uint64_t count) {
  requireNonNegative("mu", mu);
  if (count < 1) throwBadParameter("count", "at least 1", 0.0);
  return std::sqrt(static_cast<double>(count)) * mu;
}

double gdpDelta(double epsilon, double mu) {
  requireNonNegative("epsilon", epsilon);
  requirePositive("mu", mu);
  return deltaUnchecked(epsilon, mu);
}

double gdpLogDelta(double epsilon, double mu) {
  requireNonNegative("epsilon", epsilon);
  requirePositive("mu", mu);
  return logDeltaUnchecked(epsilon, mu);
}

double gdpEpsilon(double mu, double delta) {
  requirePositive("mu", mu);
  requireOpenUnit("delta", delta);
  const double logTarget = std::log(delta);
  auto within = [&](double eps) { return logDeltaUnchecked(eps, mu) <= logTarget; };
  if (within(0.0)) return 0.0;
  // δ(ε; μ) decreases in ε. The Lemma's ε is a valid upper bracket; doubling guards rounding.
  // Searched up to DBL_MAX (a cap at 1e300 failed for μ near 1e154); beyond it the smallest ε
  // is not a double and +∞ is the honest bound (an overflowing Lemma ε used to bisect on
  // [0, ∞] and return +∞ for any μ above ~1.9e154).
  constexpr double kMax = std::numeric_limits<double>::max();
  double hi = std::min(std::max(lemmaEpsilon(mu, delta), std::numeric_limits<double>::min()), kMax);
  while (!within(hi)) {
    if (hi == kMax) return std::numeric_limits<double>::infinity();
    hi = std::min(2.0 * hi, kMax);
  }
  // Smallest ε that satisfies the constraint: the upper end of the final bracket.
  return math::bisectBoundary([&](double eps) { return !within(eps); }, 0.0, hi).second;
}

double gdpMu(double epsilon, double delta) {
  requirePositive("epsilon", epsilon);
  requireOpenUnit("delta", delta);
  const double logTarget = std::log(delta);
  auto within = [&](double mu) { return logDeltaUnchecked(epsilon, mu) <= logTarget; };
  // δ(ε; μ) increases in μ. The Lemma's μ is valid (conservative); doubling finds a failure.
  double lo = std::max(lemmaInverseMu(epsilon, delta), std::numeric_limits<double>::denorm_min());
  while (!within(lo)) {
    lo *= 0.5;
    if (!(lo > 0.0)) throw Error(ErrorCode::kInternal, "", "gdpMu: no bracket found");
  }
  double hi = 2.0 * lo;
  while (within(hi)) {
    if (hi > 1e300) throw Error(ErrorCode::kInternal, "", "gdpMu: no bracket found");
    lo = hi;
    hi *= 2.0;
  }
  // Rounded down: the lower end of the final bracket satisfies δ(ε; μ) ≤ δ.
  return math::bisectBoundary(within, lo, hi).first;
}

double paperEpsilonLemma(double mu, double delta) {
  requirePositive("mu", mu);
  requireOpenUnit("delta", delta);
  return lemmaEpsilon(mu, delta);
}

double paperMuMstar(double epsilon, double delta) {
  requirePositive("epsilon", epsilon);
  requireOpenUnit("delta", delta);
  return epsilon / (2.0 * tailScale(delta));
}

double paperEpsilonCorollary(double mu, double delta) {
  requirePositive("mu", mu);
  requireOpenUnit("delta", delta);
  return 2.0 * mu * tailScale(delta);
}

double paperMuInverseLemma(double epsilon, double delta) {
  requirePositive("epsilon", epsilon);
  requireOpenUnit("delta", delta);
  return lemmaInverseMu(epsilon, delta);
}

}  // namespace dpmargin::accounting
