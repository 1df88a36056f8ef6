#include "math/special.hpp"

#include <cmath>
#include <limits>

#include "math/double_double.hpp"

namespace dpmargin::math {
namespace {

// Below this, erfc(z) is a normal double and e^(z²)·erfc(z) is accurate; above it the
// asymptotic series converges to full precision within ~15 terms (ratio (2n+1)/(2z²) ≤ 0.15).
constexpr double kAsymptoticFrom = 10.0;

// Σ_{n≥start} (−1)ⁿ (2n−1)!!/(2z²)ⁿ, the asymptotic series of √π·z·erfcx(z) (Abramowitz &
// Stegun 7.1.23); for z ≥ 10 its terms decrease until n ≈ z² ≥ 100, far past double precision.
double asymptoticTail(double z, int start) {
  const double x = 1.0 / (2.0 * z * z);
  double term = 1.0;
  for (int n = 1; n <= start; ++n) term *= -(2.0 * n - 1.0) * x;
  double sum = 0.0;
  for (int n = start + 1; n < 200; ++n) {
    sum += term;
    const double next = term * (-(2.0 * n - 1.0) * x);
    if (std::fabs(next) <= 1e-18 * std::fabs(sum)) return sum + next;
    term = next;
  }
  return sum;
}

// e^(z²) with z² carried in double-double, so the rounding of z² is not amplified by exp.
double expSquare(double z) {
  const DD s = twoProduct(z, z);
  return std::exp(s.hi) * (1.0 + s.lo);
}

}  // namespace

double erfcx(double z) {
  if (std::isnan(z)) return z;
  if (z < 0.0) {
    if (z < -26.7) return std::numeric_limits<double>::infinity();
    return 2.0 * expSquare(z) - erfcx(-z);  // erfc(−z) = 2 − erfc(z)
  }
  if (z < kAsymptoticFrom) return expSquare(z) * std::erfc(z);
  if (std::isinf(z)) return 0.0;
  return kInvSqrtPi / z * asymptoticTail(z, 0);
}

double erfcxNegDerivative(double z) {
  if (z < kAsymptoticFrom) return 2.0 * kInvSqrtPi - 2.0 * z * erfcx(z);
  if (std::isinf(z)) return 0.0;
  // 2/√π − 2z·erfcx(z) = −(2/√π)·Σ_{n≥1} (−1)ⁿ (2n−1)!!/(2z²)ⁿ.
  return -2.0 * kInvSqrtPi * asymptoticTail(z, 1);
}

}  // namespace dpmargin::math
