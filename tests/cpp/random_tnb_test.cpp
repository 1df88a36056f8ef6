// Goodness of fit of sampleTnb (SPEC §2.6) against the `tnb` golden records (50-digit mpmath
// mean) and the accounting's pmf/cdf/sf. Fast tier: fixed seeds, records with r ≥ 0.01.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/random/generator.hpp"
#include "dpmargin/random/samplers.hpp"
#include "random_stats.hpp"
#include "reference.hpp"

namespace dpmargin::random {
namespace {

using accounting::Tnb;
using namespace dpmargin::testing;

// Variance and skewness of TNB_{η,r} by summing the pmf up to k = 80/r + 100, beyond which
// (1−r)ᵏ < e⁻⁸⁰ makes the rest negligible even weighted by k³.
struct Shape {
  double total, variance, skewness;
};
Shape shapeOf(const Tnb& t, double mean) {
  const std::uint64_t top = static_cast<std::uint64_t>(80.0 / t.r) + 100;
  double total = 0.0, m2 = 0.0, m3 = 0.0;
  for (std::uint64_t k = 1; k <= top; ++k) {
    const double p = accounting::tnbPmf(t, k);
    const double d = static_cast<double>(k) - mean;
    total += p;
    m2 += p * d * d;
    m3 += p * d * d * d;
  }
  return {total, m2, m3 / std::pow(m2, 1.5)};
}

// One distribution: χ² over the cells {1, 2, 3, 4–10, > 10} (expectations from tnbPmf, tnbCdf,
// tnbSf; cells below 5 expected merged) and the sample mean against `mean`, z widened by
// Cornish–Fisher for the mean's skewness γ/√N. Each check gets `alpha`.
void checkFit(Generator& g, const Tnb& t, double mean, double alpha, std::size_t draws) {
  std::vector<double> observed(5, 0.0);
  double sum = 0.0;
  for (std::size_t i = 0; i < draws; ++i) {
    const std::uint64_t k = sampleTnb(g, t);
    ASSERT_GE(k, 1u);
    observed[k <= 3 ? k - 1 : (k <= 10 ? 3 : 4)] += 1.0;
    sum += static_cast<double>(k);
  }
  const double n = static_cast<double>(draws);
  const std::vector<double> expected = {
      n * accounting::tnbPmf(t, 1), n * accounting::tnbPmf(t, 2), n * accounting::tnbPmf(t, 3),
      n * (accounting::tnbCdf(t, 10) - accounting::tnbCdf(t, 3)), n * accounting::tnbSf(t, 10)};
  const ChiSquare x2 = chiSquare(observed, expected);
  EXPECT_LE(x2.statistic, chiSquareUpperCritical(x2.degreesOfFreedom, alpha))
      << "df = " << x2.degreesOfFreedom;

  const Shape s = shapeOf(t, mean);
  ASSERT_NEAR(s.total, 1.0, 1e-12);
  const double se = std::sqrt(s.variance / n);
  EXPECT_LE(std::fabs(sum / n - mean), twoSidedZ(alpha, s.skewness / std::sqrt(n)) * se)
      << "sample mean " << sum / n << ", mean " << mean << ", se " << se;
}

// α = 1e-6 over 18 records × 2 checks (α/36 each): every golden (η, r) with r ≥ 0.01 — η ∈ {1
// (geometric), 0 (Kemp LK), 0.5, 2 (Gamma–Poisson), −0.5, −0.9 (inversion)} × r ∈ {0.5, 0.1,
// 0.01}. All have finite variance (geometric tails); the skewness is taken into account.
TEST(TnbSamplerTest, GoldenRecordsGoodnessOfFit) {
  std::vector<std::pair<Tnb, double>> cases;
  for (const auto& rec : referenceVectors().at("tnb")) {
    const Tnb t{num(rec.at("eta")), num(rec.at("r"))};
    if (t.r >= 0.01) cases.push_back({t, num(rec.at("mean"))});
  }
  ASSERT_EQ(cases.size(), 18u);
  Generator g = Generator::seeded(601);
  for (const auto& [t, mean] : cases) {
    SCOPED_TRACE("eta = " + std::to_string(t.eta) + ", r = " + std::to_string(t.r));
    checkFit(g, t, mean, kAlpha / 36.0, 200000);
  }
}

// α = 1e-6 over 3 cases × 2 checks: the paths the golden records do not reach — tiny η > 0
// (1 − r^η < 1/64, sent to inversion), η > 0 just above that switch (a long Gamma–Poisson
// rejection loop, ~29 rounds per draw, hence only 50k draws) and r near 1. The mean is the
// accounting's tnbMean.
TEST(TnbSamplerTest, SwitchesAndEdgesGoodnessOfFit) {
  const Tnb cases[] = {{1e-3, 0.5}, {0.05, 0.5}, {3.0, 0.95}};
  Generator g = Generator::seeded(602);
  for (const Tnb& t : cases) {
    SCOPED_TRACE("eta = " + std::to_string(t.eta) + ", r = " + std::to_string(t.r));
    checkFit(g, t, accounting::tnbMean(t), kAlpha / 6.0, 50000);
  }
}

// Deterministic: a seeded generator reproduces its TNB draws (PrivTune's K is part of a run).
TEST(TnbSamplerTest, SeededIsReproducible) {
  Generator a = Generator::seeded(603), b = Generator::seeded(603);
  for (double eta : {1.0, 0.0, 0.5, -0.5}) {
    for (int i = 0; i < 100; ++i) EXPECT_EQ(sampleTnb(a, {eta, 0.05}), sampleTnb(b, {eta, 0.05}));
  }
}

// Tiny r saturates at kMaxTnbSample instead of overflowing (η = 1: K ≈ 1e300).
TEST(TnbSamplerTest, SaturatesForAbsurdR) {
  Generator g = Generator::seeded(604);
  EXPECT_EQ(sampleTnb(g, {1.0, 1e-300}), kMaxTnbSample);
  EXPECT_EQ(sampleTnb(g, {2.0, 1e-300}), kMaxTnbSample);
}

}  // namespace
}  // namespace dpmargin::random
