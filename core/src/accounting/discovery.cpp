#include "dpmargin/accounting/discovery.hpp"

#include <cmath>

#include "dpmargin/error.hpp"
#include "math/special.hpp"

namespace dpmargin::accounting {

double upperNormalTail(double z) {
  // Φ̄(z) = ½ erfc(z/√2) = ½ erfcx(z/√2)·e^(−z²/2) for z ≥ 0 (no underflow before e^(−z²/2)).
  if (z < 0) return 1.0 - upperNormalTail(-z);
  const double x = z * math::kInvSqrt2;
  return 0.5 * math::erfcx(x) * std::exp(-x * x);
}

double upperNormalQuantile(double p) {
  if (!(p > 0.0 && p <= 0.5)) throwBadParameter("p", "in (0, 0.5]", p);
  // Bisection on ln Φ̄, which is decreasing and smooth: 200 halvings of [0, 40] reach the
  // spacing of doubles. Returns the upper end, so Φ̄(z) ≤ p.
  const double target = std::log(p);
  double lo = 0.0, hi = 40.0;
  auto logTail = [](double z) {
    const double x = z * math::kInvSqrt2;
    return std::log(0.5 * math::erfcx(x)) - x * x;
  };
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (logTail(mid) > target ? lo : hi) = mid;
  }
  return hi;
}

DiscoveryCalibration calibrateDiscovery(double mu, std::size_t columns, double deltaThreshold) {
  requirePositive("muDiscovery", mu);
  if (columns == 0) throwBadParameter("discoveryColumns", ">= 1", 0.0);
  if (!(deltaThreshold > 0.0 && deltaThreshold <= 0.5)) {
    throwBadParameter("deltaThreshold", "in (0, 0.5]", deltaThreshold);
  }
  DiscoveryCalibration c;
  c.columns = columns;
  c.mu = mu;
  c.sigma = std::sqrt(2.0 * double(columns)) / mu;
  c.deltaThreshold = deltaThreshold;
  c.threshold = 1.0 + c.sigma * upperNormalQuantile(deltaThreshold / double(columns));
  return c;
}

double discoveryDeltaThreshold(double delta) { return kDiscoveryDeltaShare * delta; }

double discoveryEpsilonCharge(double deltaThreshold) {
  // ln(1/(1 − δ_τ)), rounded up so that the GDP part's ε plus it never exceeds the target.
  return std::nextafter(-std::log1p(-deltaThreshold), HUGE_VAL);
}

}  // namespace dpmargin::accounting
