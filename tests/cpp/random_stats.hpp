// Statistical test helpers with stated false-failure rates (STYLE: "statistical tests state
// their false-failure rate"). Every critical value is computed from α; where an approximation
// is used, its direction is stated (all err towards a smaller real α).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <vector>

namespace dpmargin::testing {

// Total false-failure rate of each statistical TEST; a test with m checks gives each α/m.
inline constexpr double kAlpha = 1e-6;

// z with P(Z > z) = p for Z ~ N(0,1), p ∈ (0, ½], by bisection on erfc (exact to ~1e-15).
inline double normalUpperQuantile(double p) {
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return hi;
}

// Two-sided normal threshold for a statistic with skewness `skew` (first-order Cornish–Fisher
// widening (z² − 1)/6·|skew|, in units of the statistic's standard deviation).
inline double twoSidedZ(double alpha, double skew = 0.0) {
  const double z = normalUpperQuantile(alpha / 2.0);
  return z + (z * z - 1.0) / 6.0 * std::fabs(skew);
}

// Wilson–Hilferty χ²_df quantiles. The upper one is conservative at α ≤ 1e-6: its real tail
// probability is below α for every df from 1 to 100 (1.6e-7 at df = 1, 9.3e-7 at df = 100,
// checked against the exact regularised gamma function).
inline double chiSquareUpperCritical(double df, double alpha) {
  const double z = normalUpperQuantile(alpha);
  const double c = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - c + z * std::sqrt(c), 3);
}
inline double chiSquareLowerCritical(double df, double alpha) {
  const double z = normalUpperQuantile(alpha);
  const double c = 2.0 / (9.0 * df);
  return df * std::pow(std::max(0.0, 1.0 - c - z * std::sqrt(c)), 3);
}

// Dvoretzky–Kiefer–Wolfowitz with Massart's constant: P(sup|F_N − F| > ε) ≤ 2e^(−2Nε²) for
// every N, so ε = √(−ln(α/2)/(2N)) is a rigorous level-α Kolmogorov–Smirnov critical value.
inline double ksCritical(std::size_t n, double alpha) {
  return std::sqrt(-std::log(alpha / 2.0) / (2.0 * static_cast<double>(n)));
}

// sup_x |F_N(x) − F(x)| for a sample (sorted in place) and a continuous cdf.
inline double ksStatistic(std::vector<double>& sample, const std::function<double(double)>& cdf) {
  std::sort(sample.begin(), sample.end());
  const double n = static_cast<double>(sample.size());
  double d = 0.0;
  for (std::size_t i = 0; i < sample.size(); ++i) {
    const double f = cdf(sample[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

// Hoeffding: for N independent variables in [0, 1], P(|mean − E| ≥ t) ≤ 2e^(−2Nt²), so
// t = √(ln(2/α)/(2N)) is a rigorous level-α half-width for a proportion.
inline double hoeffdingHalfWidth(std::size_t n, double alpha) {
  return std::sqrt(std::log(2.0 / alpha) / (2.0 * static_cast<double>(n)));
}

// Pearson's χ² over bins whose expected counts are all ≥ 5: bins below that are merged into
// their left neighbour (the first into the second) so the χ² approximation holds.
struct ChiSquare {
  double statistic;
  int degreesOfFreedom;
};
inline ChiSquare chiSquare(std::vector<double> observed, std::vector<double> expected) {
  for (std::size_t i = expected.size(); i-- > 1;) {
    if (expected[i] < 5.0) {
      expected[i - 1] += expected[i];
      observed[i - 1] += observed[i];
      expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(i));
      observed.erase(observed.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  while (expected.size() > 1 && expected[0] < 5.0) {
    expected[1] += expected[0];
    observed[1] += observed[0];
    expected.erase(expected.begin());
    observed.erase(observed.begin());
  }
  double x2 = 0.0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    x2 += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
  }
  return {x2, static_cast<int>(expected.size()) - 1};
}

}  // namespace dpmargin::testing
