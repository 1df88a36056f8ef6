// Statistics of the empirical privacy audit: Clopper–Pearson bounds and the ε lower bound of a
// threshold test (Jagielski et al. 2020; Nasr et al. 2021 style auditing).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace dpmargin::audit {

// Regularised incomplete beta I_x(a, b) by Lentz's continued fraction (Numerical Recipes §6.4).
inline double incompleteBeta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double lnFront = std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                         b * std::log1p(-x);
  auto cf = [](double a, double b, double x) {
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (std::abs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m < 100000; ++m) {
      const double m2 = 2.0 * m;
      double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      d = 1 / (std::abs(d) < tiny ? tiny : d);
      c = 1 + aa / c;
      if (std::abs(c) < tiny) c = tiny;
      h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      d = 1 / (std::abs(d) < tiny ? tiny : d);
      c = 1 + aa / c;
      if (std::abs(c) < tiny) c = tiny;
      const double del = d * c;
      h *= del;
      if (std::abs(del - 1) < 1e-15) break;
    }
    return h;
  };
  if (x < (a + 1) / (a + b + 2)) return std::exp(lnFront) * cf(a, b, x) / a;
  return 1 - std::exp(lnFront) * cf(b, a, 1 - x) / b;
}

// One-sided Clopper–Pearson bounds for k successes in n trials at confidence 1 − alpha.
inline double clopperPearsonLower(double k, double n, double alpha) {
  if (k <= 0) return 0;
  double lo = 0, hi = k / n;  // find p with P(Bin(n, p) ≥ k) = alpha: I_p(k, n − k + 1) = alpha
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (incompleteBeta(k, n - k + 1, mid) < alpha ? lo : hi) = mid;
  }
  return lo;
}
inline double clopperPearsonUpper(double k, double n, double alpha) {
  if (k >= n) return 1;
  double lo = k / n, hi = 1;  // P(Bin(n, p) ≤ k) = alpha: 1 − I_p(k + 1, n − k) = alpha
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (1 - incompleteBeta(k + 1, n - k, mid) > alpha ? lo : hi) = mid;
  }
  return hi;
}

struct AuditResult {
  double epsilonLowerBound = -std::numeric_limits<double>::infinity();
  double threshold = 0;
  bool upperTail = true;  // the test says "D" when the statistic is above the threshold
  double tpr = 0, fpr = 0;  // on the evaluation samples
  double muLowerBound = 0;  // Φ⁻¹(TPR_lb) − Φ⁻¹(FPR_ub): the GDP view of the same test
};

inline double inverseNormalCdf(double p) {
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (0.5 * std::erfc(-mid / std::sqrt(2.0)) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// `sample(neighbour)` runs the mechanism once on D (false) or D′ (true) and returns the
// statistic. The threshold (and its direction) is chosen on `selectN` samples per side; the
// bound is computed on `evalN` fresh samples per side: TPR lower and FPR upper one-sided
// Clopper–Pearson bounds at 97.5% each (joint 95% by the union bound), and
// ε ≥ ln((TPR_lb − δ) / FPR_ub).
// `objective`: the threshold maximises the ε bound (kEpsilon, the audit of an (ε, δ) claim) or
// the GDP bound μ_lb (kMu, the audit of a μ-GDP claim: every test of a μ-GDP mechanism has
// TPR ≤ Φ(Φ⁻¹(FPR) + μ), so μ_lb ≤ μ; central thresholds, far fewer runs than a tail at δ).
enum class Objective { kEpsilon, kMu };

inline AuditResult runAudit(const std::function<double(bool)>& sample, int selectN, int evalN,
                            double delta, Objective objective = Objective::kEpsilon,
                            bool gaussianTails = false) {
  auto draw = [&](bool neighbour, int count) {
    std::vector<double> v(static_cast<std::size_t>(count));
    for (auto& x : v) x = sample(neighbour);
    std::sort(v.begin(), v.end());
    return v;
  };
  auto fractionAbove = [](const std::vector<double>& sorted, double t) {
    return double(sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), t)) / double(sorted.size());
  };
  const std::vector<double> s0 = draw(false, selectN), s1 = draw(true, selectN);
  // The threshold maximises the bound the evaluation is expected to give: the rates less the
  // ~2-sd margins the Clopper–Pearson bounds of evalN runs take (a rate of 0 still costs
  // ~3.7/evalN).
  const double ne = double(evalN);
  auto predicted = [&](double tpr, double fpr) {
    const double lo = std::max(tpr - 2.0 * std::sqrt(tpr * (1 - tpr) / ne), 0.0);
    const double hi = std::min(fpr + 2.0 * std::sqrt(fpr * (1 - fpr) / ne) + 3.7 / ne, 1.0);
    return objective == Objective::kMu ? inverseNormalCdf(std::max(lo, 1e-300)) - inverseNormalCdf(hi)
                                       : std::log(std::max(lo - delta, 1e-300) / hi);
  };
  AuditResult best;
  double bestScore = -std::numeric_limits<double>::infinity();
  auto consider = [&](double t, bool upper, double tpr, double fpr) {
    const double score = predicted(tpr, fpr);
    if (score > bestScore) {
      bestScore = score;
      best.threshold = t;
      best.upperTail = upper;
    }
  };
  for (bool upper : {true, false}) {
    // Candidate thresholds: quantiles of the D′ samples in the tail the test rejects.
    for (double q = objective == Objective::kMu ? 0.6 : 0.2; q >= 10.0 / selectN; q *= 0.85) {
      const std::size_t idx = upper ? std::size_t((1 - q) * (selectN - 1)) : std::size_t(q * (selectN - 1));
      const double t = s1[idx];
      const double tpr = upper ? fractionAbove(s0, t) : 1 - fractionAbove(s0, t);
      const double fpr = upper ? fractionAbove(s1, t) : 1 - fractionAbove(s1, t);
      consider(t, upper, tpr, std::max(fpr, 1.0 / selectN));
    }
  }
  if (gaussianTails) {
    // A statistic that is close to Gaussian on both sides (a weight, a sum of noisy scores):
    // thresholds further out than the selection runs reach, at mean′ ± z·sd′ of D′, with the
    // rates of Gaussians fitted to each side. Any threshold chosen without the evaluation runs
    // keeps the bound valid; the fit only decides where to look.
    // Median and interquartile sd (IQR/1.349) of the sorted samples: robust to a stray tail.
    auto fit = [](const std::vector<double>& v) {
      auto at = [&](double q) { return v[std::size_t(q * double(v.size() - 1))]; };
      return std::array<double, 2>{at(0.5), (at(0.75) - at(0.25)) / 1.349};
    };
    const auto f0 = fit(s0), f1 = fit(s1);
    auto tail = [](double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); };
    for (bool upper : {true, false}) {
      for (double z = 1.0; z <= 5.0; z += 0.05) {
        const double t = upper ? f1[0] + z * f1[1] : f1[0] - z * f1[1];
        const double tpr = tail(upper ? (t - f0[0]) / f0[1] : (f0[0] - t) / f0[1]);
        consider(t, upper, tpr, tail(z));
      }
    }
  }
  const std::vector<double> e0 = draw(false, evalN), e1 = draw(true, evalN);
  const double above0 = fractionAbove(e0, best.threshold), above1 = fractionAbove(e1, best.threshold);
  best.tpr = best.upperTail ? above0 : 1 - above0;
  best.fpr = best.upperTail ? above1 : 1 - above1;
  const double tprLb = clopperPearsonLower(best.tpr * evalN, evalN, 0.025);
  const double fprUb = clopperPearsonUpper(best.fpr * evalN, evalN, 0.025);
  best.epsilonLowerBound = tprLb > delta ? std::log((tprLb - delta) / fprUb) : 0.0;
  best.muLowerBound = inverseNormalCdf(tprLb) - inverseNormalCdf(fprUb);
  return best;
}

}  // namespace dpmargin::audit
