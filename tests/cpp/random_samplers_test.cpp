// Distribution tests of the samplers (SPEC §4) in the fast tier: fixed seeds, and each TEST's
// false-failure rate under a fresh seed is at most α = 1e-6 (testing::kAlpha), split evenly
// (Bonferroni) across its m checks; thresholds are computed from α in random_stats.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "dpmargin/random/generator.hpp"
#include "dpmargin/random/samplers.hpp"
#include "random_stats.hpp"

namespace dpmargin::random {
namespace {

using namespace dpmargin::testing;

struct Moments {
  double mean, variance;
};
template <class T>
Moments moments(const std::vector<T>& x) {
  double sum = 0.0;
  for (T v : x) sum += static_cast<double>(v);
  const double mean = sum / static_cast<double>(x.size());
  double ss = 0.0;
  for (T v : x) ss += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  return {mean, ss / static_cast<double>(x.size() - 1)};
}

// ---- uniform, index, signs ----

// α = 1e-6 (one DKW–Massart KS check against U(0,1)); plus exact checks of the conversion.
TEST(UniformTest, Open01ExactFormAndKolmogorovSmirnov) {
  Generator g = Generator::seeded(101), h = Generator::seeded(101);
  const std::uint64_t w = h.nextU64();
  EXPECT_EQ(uniformOpen01(g), (static_cast<double>(w >> 11) + 0.5) * 0x1p-53);
  std::vector<double> u(1000000);
  for (double& x : u) {
    x = uniformOpen01(g);
    ASSERT_GT(x, 0.0);
    ASSERT_LT(x, 1.0);
  }
  EXPECT_LE(ksStatistic(u, [](double x) { return x; }), ksCritical(u.size(), kAlpha));
}

// α = 1e-6: one χ² check (Wilson–Hilferty, conservative) over n = 7 cells, 700k draws.
TEST(UniformTest, IndexChiSquare) {
  Generator g = Generator::seeded(102);
  const std::uint64_t n = 7;
  const std::size_t draws = 700000;
  std::vector<double> observed(n, 0.0), expected(n, static_cast<double>(draws) / n);
  for (std::size_t i = 0; i < draws; ++i) {
    const std::uint64_t k = uniformIndex(g, n);
    ASSERT_LT(k, n);
    observed[k] += 1.0;
  }
  const ChiSquare x2 = chiSquare(observed, expected);
  EXPECT_EQ(x2.degreesOfFreedom, 6);
  EXPECT_LE(x2.statistic, chiSquareUpperCritical(6, kAlpha));
}

TEST(UniformTest, IndexEdgeCases) {
  Generator g = Generator::seeded(103);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(uniformIndex(g, 1), 0u);
  const std::uint64_t huge = (std::uint64_t{1} << 63) + 1;  // rejects ~half of the words
  for (int i = 0; i < 1000; ++i) EXPECT_LT(uniformIndex(g, huge), huge);
  for (int i = 0; i < 1000; ++i) uniformIndex(g, ~std::uint64_t{0});  // n = 2⁶⁴ − 1 runs
}

// α = 1e-6: one Hoeffding check on the share of +1 over 10⁶ draws.
TEST(RademacherTest, Balanced) {
  Generator g = Generator::seeded(104);
  const std::size_t draws = 1000000;
  std::size_t plus = 0;
  for (std::size_t i = 0; i < draws; ++i) {
    const int s = rademacher(g);
    ASSERT_TRUE(s == 1 || s == -1);
    plus += s == 1;
  }
  EXPECT_LE(std::fabs(static_cast<double>(plus) / draws - 0.5), hoeffdingHalfWidth(draws, kAlpha));
}

// α = 1e-6: one Hoeffding check; every value must be exactly ±scale.
TEST(RademacherTest, FillValuesExactAndBalanced) {
  Generator g = Generator::seeded(105);
  const float scale = 1.0f / std::sqrt(300.0f);
  const std::size_t count = 1000037;  // not a multiple of 64 or of the 1024-entry block
  std::vector<float> out(count, 0.0f);
  fillRademacher(g, out.data(), count, scale);
  std::size_t plus = 0;
  for (float v : out) {
    ASSERT_TRUE(v == scale || v == -scale) << v;
    plus += v > 0.0f;
  }
  EXPECT_LE(std::fabs(static_cast<double>(plus) / count - 0.5), hoeffdingHalfWidth(count, kAlpha));
}

// Pins the bit mapping (entry 64i + j = bit j of word i, 1 → +scale), so a seeded Φ is the same
// on every platform and in every version.
TEST(RademacherTest, FillUsesEveryBitOfEachWord) {
  Generator g = Generator::seeded(106), h = Generator::seeded(106);
  std::vector<float> out(130);
  fillRademacher(g, out.data(), out.size(), 0.5f);
  const std::uint64_t words[3] = {h.nextU64(), h.nextU64(), h.nextU64()};
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_EQ(out[i], ((words[i / 64] >> (i % 64)) & 1u) ? 0.5f : -0.5f) << i;
  }
  EXPECT_EQ(g.nextU64(), h.nextU64());  // exactly ⌈130/64⌉ = 3 words were used
}

// ---- Gaussian ----

// α = 1e-6 over three checks (α/3 each): mean (exactly normal), variance (χ²_{N−1}, Wilson–
// Hilferty both tails, accurate at this df) and DKW–Massart KS against N(0, sd²); N = 250k.
TEST(GaussianTest, MeanVarianceKolmogorovSmirnov) {
  Generator g = Generator::seeded(201);
  const double sd = 2.5;
  const std::size_t n = 250000;
  const double a = kAlpha / 3.0;
  std::vector<double> x(n);
  for (double& v : x) v = gaussian(g, sd);
  const Moments m = moments(x);
  EXPECT_LE(std::fabs(m.mean), twoSidedZ(a) * sd / std::sqrt(static_cast<double>(n)));
  const double df = static_cast<double>(n - 1);
  const double scaled = m.variance * df / (sd * sd);
  EXPECT_GE(scaled, chiSquareLowerCritical(df, a / 2.0));
  EXPECT_LE(scaled, chiSquareUpperCritical(df, a / 2.0));
  const double d = ksStatistic(x, [&](double v) { return 0.5 * std::erfc(-v / (sd * std::sqrt(2.0))); });
  EXPECT_LE(d, ksCritical(n, a));
}

// addGaussian adds to what is there (never overwrites), and draws the same values as
// successive gaussian() calls on the same stream. Deterministic.
TEST(GaussianTest, AddGaussianAddsTheSameDraws) {
  Generator g = Generator::seeded(202), h = Generator::seeded(202);
  const double sd = 0.75;
  std::vector<double> out(1000);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = 100.0 + static_cast<double>(i);
  addGaussian(g, sd, out.data(), out.size());  // 1000 = 15 blocks of 64 + 40
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_DOUBLE_EQ(out[i], 100.0 + static_cast<double>(i) + gaussian(h, sd)) << i;
  }
  EXPECT_EQ(g.nextU64(), h.nextU64());  // both used exactly 4 words per value
}

TEST(GaussianTest, ZeroSdAddsAndDrawsNothing) {
  Generator g = Generator::seeded(203), h = Generator::seeded(203);
  std::vector<double> out(10, 1.5);
  addGaussian(g, 0.0, out.data(), out.size());
  EXPECT_EQ(gaussian(g, 0.0), 0.0);
  for (double v : out) EXPECT_EQ(v, 1.5);
  EXPECT_EQ(g.nextU64(), h.nextU64());
}

// ---- Gamma ----

// Regularised lower incomplete gamma P(a, x) (series below a + 1, Lentz continued fraction
// above; Numerical Recipes §6.2), for the KS test.
double gammaP(double a, double x) {
  if (x <= 0.0) return 0.0;
  const double logPrefix = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1.0) {
    double term = 1.0 / a, sum = term;
    for (int n = 1; n < 10000 && std::fabs(term) > 1e-17 * sum; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * std::exp(logPrefix);
  }
  double b = x + 1.0 - a, c = 1e300, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (std::fabs(c) < 1e-300) c = 1e-300;
    d = 1.0 / d;
    h *= d * c;
    if (std::fabs(d * c - 1.0) < 1e-16) break;
  }
  return 1.0 - std::exp(logPrefix) * h;
}

// α = 1e-6 over 4 shapes × 3 checks (α/12 each), N = 200k per shape: KS (DKW–Massart) against
// the Gamma cdf; the mean, z widened by Cornish–Fisher for its skewness 2/√(shape·N); the
// variance, normal approximation with Var(s²) ≈ (μ₄ − σ⁴)/N, μ₄ = σ⁴(3 + 6/shape), and z + 0.5
// (the Cornish–Fisher widening for the skewness of s², ≤ 0.04 here, is ≤ 0.15).
TEST(GammaTest, KolmogorovSmirnovMeanVariance) {
  Generator g = Generator::seeded(301);
  const double scale = 2.0;
  const std::size_t n = 200000;
  const double a = kAlpha / 12.0;
  const double sqrtN = std::sqrt(static_cast<double>(n));
  for (double shape : {0.3, 1.0, 2.5, 30.0}) {
    SCOPED_TRACE("shape = " + std::to_string(shape));
    std::vector<double> x(n);
    for (double& v : x) v = gamma(g, shape, scale);
    const Moments m = moments(x);
    const double variance = shape * scale * scale;
    EXPECT_LE(std::fabs(m.mean - shape * scale),
              twoSidedZ(a, 2.0 / std::sqrt(shape) / sqrtN) * std::sqrt(variance) / sqrtN);
    const double sdOfS2 = variance * std::sqrt(2.0 + 6.0 / shape) / sqrtN;
    EXPECT_LE(std::fabs(m.variance - variance), (twoSidedZ(a) + 0.5) * sdOfS2);
    EXPECT_LE(ksStatistic(x, [&](double v) { return gammaP(shape, v / scale); }),
              ksCritical(n, a));
  }
}

// ---- Poisson ----

// α = 1e-6 over 6 values of λ × 3 checks (α/18 each), N = 200k per λ: χ² against the exact pmf
// (cells with expectation < 5 merged; Wilson–Hilferty, conservative), the mean (Cornish–Fisher
// for skewness 1/√(λN)) and the variance (Var(s²) ≈ (λ + 2λ²)/N, z + 0.5 as for Gamma). λ < 10
// uses inversion, λ ≥ 10 PTRS; 9.9 and 10 straddle the switch.
TEST(PoissonTest, ChiSquareMeanVariance) {
  Generator g = Generator::seeded(401);
  const std::size_t n = 200000;
  const double a = kAlpha / 18.0;
  const double sqrtN = std::sqrt(static_cast<double>(n));
  for (double lambda : {0.5, 3.0, 9.9, 10.0, 45.5, 1e4}) {
    SCOPED_TRACE("lambda = " + std::to_string(lambda));
    std::vector<std::uint64_t> x(n);
    for (auto& v : x) v = poisson(g, lambda);
    const Moments m = moments(x);
    EXPECT_LE(std::fabs(m.mean - lambda),
              twoSidedZ(a, 1.0 / std::sqrt(lambda * n)) * std::sqrt(lambda) / sqrtN);
    EXPECT_LE(std::fabs(m.variance - lambda),
              (twoSidedZ(a) + 0.5) * std::sqrt(lambda + 2.0 * lambda * lambda) / sqrtN);
    const std::uint64_t top = static_cast<std::uint64_t>(lambda + 12.0 * std::sqrt(lambda) + 30.0);
    std::vector<double> observed(top + 2, 0.0), expected(top + 2, 0.0);
    for (std::uint64_t v : x) observed[v <= top ? v : top + 1] += 1.0;
    double below = 0.0;
    for (std::uint64_t k = 0; k <= top; ++k) {
      const double p = std::exp(k * std::log(lambda) - lambda - std::lgamma(k + 1.0));
      expected[k] = n * p;
      below += p;
    }
    expected[top + 1] = n * std::max(0.0, 1.0 - below);
    const ChiSquare x2 = chiSquare(observed, expected);
    EXPECT_LE(x2.statistic, chiSquareUpperCritical(x2.degreesOfFreedom, a))
        << "df = " << x2.degreesOfFreedom;
  }
  for (int i = 0; i < 10; ++i) EXPECT_EQ(poisson(g, 0.0), 0u);
}

}  // namespace
}  // namespace dpmargin::random
