// Private category discovery (accounting/discovery.hpp, data/encoding.hpp discoverLevels):
// the calibration, the threshold's δ, the noise scale (statistical, stated false-failure rate),
// and its composition in the plan.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "dpmargin/accounting/discovery.hpp"
#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/data/encoding.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/random/generator.hpp"
#include "expect_error.hpp"

namespace dpmargin {
namespace {

using accounting::calibrateDiscovery;
using accounting::upperNormalQuantile;
using accounting::upperNormalTail;

TEST(DiscoveryAccounting, UpperNormalQuantileMatchesReferenceValues) {
  // Φ̄⁻¹ by mpmath at 40 digits.
  EXPECT_NEAR(upperNormalQuantile(0.5), 0.0, 1e-12);
  EXPECT_NEAR(upperNormalQuantile(0.025), 1.959963984540054, 1e-12);
  EXPECT_NEAR(upperNormalQuantile(1e-6), 4.753424308822899, 1e-11);
  EXPECT_NEAR(upperNormalQuantile(1e-10), 6.361340902404056, 1e-11);
  EXPECT_NEAR(upperNormalQuantile(1e-300), 37.047096299361199, 1e-10);
  for (double p : {0.3, 1e-3, 1e-7, 1e-15, 1e-100}) {
    const double z = upperNormalQuantile(p);
    EXPECT_LE(upperNormalTail(z), p * (1 + 1e-13)) << p;  // rounded up: never a lower τ
    EXPECT_NEAR(upperNormalTail(z) / p, 1.0, 1e-10) << p;
  }
}

TEST(DiscoveryAccounting, CalibrationIsTheFormula) {
  for (std::size_t m : {1u, 3u, 17u}) {
    for (double mu : {0.05, 0.3, 2.0}) {
      const auto c = calibrateDiscovery(mu, m, 1e-7);
      EXPECT_DOUBLE_EQ(c.sigma, std::sqrt(2.0 * double(m)) / mu);
      EXPECT_DOUBLE_EQ(c.threshold, 1.0 + c.sigma * upperNormalQuantile(1e-7 / double(m)));
      // The threshold test: a value only one neighbour holds (count 1) is kept with
      // probability Φ̄((τ − 1)/σ) ≤ δ_τ/m, so any of the ≤ m such values with ≤ δ_τ.
      EXPECT_LE(upperNormalTail((c.threshold - 1.0) / c.sigma) * double(m), 1e-7 * (1 + 1e-12));
    }
  }
}

TEST(DiscoveryAccounting, RejectsBadParameters) {
  testing::expectBadParameter([] { calibrateDiscovery(0.0, 1, 1e-7); }, "muDiscovery");
  testing::expectBadParameter([] { calibrateDiscovery(0.1, 0, 1e-7); }, "discoveryColumns");
  testing::expectBadParameter([] { calibrateDiscovery(0.1, 1, 0.0); }, "deltaThreshold");
  testing::expectBadParameter([] { calibrateDiscovery(0.1, 1, 0.7); }, "deltaThreshold");
  testing::expectBadParameter([] { upperNormalQuantile(0.0); }, "p");
}

plan::PlanRequest request(std::uint64_t m, double share, double rangeShare = 0.1) {
  plan::PlanRequest r;
  r.epsilon = 1.0;
  r.delta = 1e-5;
  r.n = 5000;
  r.d = 20;
  r.jlFailure = 1.0 / (5000.0 * 5000.0);
  r.rangeShare = rangeShare;
  r.discoveryColumns = m;
  r.discoveryShare = share;
  r.pruning = plan::Pruning::kNoiseFloor;
  return r;
}

TEST(DiscoveryAccounting, ComposesExactlyInThePlan) {
  for (plan::Selector selector : {plan::Selector::kIter, plan::Selector::kFixed}) {
    plan::PlanRequest r = request(4, 0.1);
    r.selector = selector;
    if (selector == plan::Selector::kFixed) {
      r.margin = 0.1;
      r.pruning = plan::Pruning::kNone;
    }
    const plan::Plan p = plan::makePlan(r);
    // μ² = μ_discovery² + μ_ranges² + μ_train², and the thresholds' δ comes out of δ.
    EXPECT_NEAR(p.muDiscovery * p.muDiscovery + p.muRanges * p.muRanges + p.muTrain * p.muTrain,
                p.mu * p.mu, 1e-12);
    EXPECT_NEAR(p.muDiscovery, std::sqrt(0.1) * p.mu, 1e-15);
    // The thresholds take δ_τ = 0.1·δ out of δ and ln(1/(1 − δ_τ)) out of ε (accounting/
    // discovery.hpp): the GDP part is read at (ε − ln(1/(1 − δ_τ)), δ − δ_τ).
    EXPECT_EQ(p.discovery.deltaThreshold, accounting::kDiscoveryDeltaShare * r.delta);
    EXPECT_LE(p.deltaGdp + p.discovery.deltaThreshold, r.delta);
    const double epsilonCharge = accounting::discoveryEpsilonCharge(p.discovery.deltaThreshold);
    EXPECT_GE(epsilonCharge, p.discovery.deltaThreshold);
    EXPECT_LE(epsilonCharge, 1.000001 * p.discovery.deltaThreshold);
    const double epsilonGdp = r.epsilon - epsilonCharge;
    EXPECT_LE(accounting::gdpDelta(epsilonGdp, p.mu), p.deltaGdp * (1 + 1e-9));
    EXPECT_GT(accounting::gdpDelta(epsilonGdp, p.mu), 0.99 * p.deltaGdp);  // tight, not wasteful
    EXPECT_LE(p.epsilonSpent, r.epsilon);
    EXPECT_GT(p.epsilonSpent, 0.999999 * r.epsilon);
    EXPECT_EQ(p.discovery.columns, 4u);
    EXPECT_DOUBLE_EQ(p.discovery.sigma, std::sqrt(8.0) / p.muDiscovery);
    // makeBudget (before the width is known) gives the same calibration.
    plan::PlanRequest narrow = r;
    narrow.d = 1;
    const plan::Plan b = plan::makeBudget(narrow);
    EXPECT_EQ(b.discovery.sigma, p.discovery.sigma);
    EXPECT_EQ(b.discovery.threshold, p.discovery.threshold);
    EXPECT_EQ(b.muTrain, p.muTrain);
  }
  // Without discovery nothing changes: δ_GDP = δ.
  const plan::Plan none = plan::makePlan(request(0, 0.0));
  EXPECT_EQ(none.deltaGdp, 1e-5);
  EXPECT_EQ(none.muDiscovery, 0.0);
}

// The label's classes from a histogram of their own (request.discoveryLabel, docs/reference/PRIVACY_SCHEMA.md):
// two Gaussian mechanisms whose μ² add up to μ_discovery², each column's δ_τ/m as before.
TEST(DiscoveryAccounting, TheLabelHasItsOwnHistogramAndTheSameDelta) {
  for (std::uint64_t m : {1u, 4u}) {
    plan::PlanRequest r = request(m, 0.3);
    r.discoveryLabel = true;
    const plan::Plan p = plan::makePlan(r);
    EXPECT_NEAR(p.muDiscovery, std::sqrt(0.3) * p.mu, 1e-15);
    const double tau = accounting::discoveryDeltaThreshold(r.delta);
    const plan::PlanRequest joint = [&] { plan::PlanRequest j = r; j.discoveryLabel = false; return j; }();
    const plan::Plan q = plan::makePlan(joint);
    EXPECT_EQ(q.muTrain, p.muTrain);  // the same split of μ: only discovery's inside changes
    EXPECT_EQ(p.labelDiscovery.columns, 1u);
    if (m == 1) {
      EXPECT_EQ(p.labelDiscovery.mu, p.muDiscovery);  // alone: all of it (as the joint one-column one)
      EXPECT_EQ(p.labelDiscovery.sigma, q.discovery.sigma);
      EXPECT_EQ(p.labelDiscovery.threshold, q.discovery.threshold);
      EXPECT_EQ(p.discovery.columns, 0u);
      continue;
    }
    const double muLabel = p.labelDiscovery.mu, muOthers = p.discovery.mu;
    EXPECT_NEAR(muLabel * muLabel + muOthers * muOthers, p.muDiscovery * p.muDiscovery, 1e-12);
    EXPECT_NEAR(muLabel * muLabel, plan::kLabelDiscoveryShare * p.muDiscovery * p.muDiscovery, 1e-12);
    EXPECT_DOUBLE_EQ(p.labelDiscovery.sigma, std::sqrt(2.0) / muLabel);
    EXPECT_EQ(p.discovery.columns, m - 1);
    EXPECT_DOUBLE_EQ(p.discovery.sigma, std::sqrt(2.0 * double(m - 1)) / muOthers);
    // Per column δ_τ/m, m columns in all: δ_τ, the plan's reserve, as with one histogram.
    EXPECT_NEAR(p.labelDiscovery.deltaThreshold + p.discovery.deltaThreshold, tau, 1e-12 * tau);
    EXPECT_DOUBLE_EQ(p.labelDiscovery.threshold,
                     1 + p.labelDiscovery.sigma * upperNormalQuantile(tau / double(m)));
    EXPECT_DOUBLE_EQ(p.discovery.threshold, 1 + p.discovery.sigma * upperNormalQuantile(tau / double(m)));
    // The point of it: the label's σ is √(2/3 · m/1)… below the joint histogram's √(2m)/μ.
    EXPECT_LT(p.labelDiscovery.sigma, q.discovery.sigma);
  }
  plan::PlanRequest bad = request(0, 0.0);
  bad.discoveryLabel = true;
  EXPECT_THROW(plan::makePlan(bad), Error);
}

TEST(DiscoveryAccounting, PlanRejectsBadShares) {
  testing::expectBadParameter([] { plan::makePlan(request(2, 0.0)); }, "discoveryShare");
  testing::expectBadParameter([] { plan::makePlan(request(2, 1.0)); }, "discoveryShare");
  testing::expectBadParameter([] { plan::makePlan(request(2, 0.95, 0.1)); }, "discoveryShare");
  testing::expectBadParameter([] {
    plan::PlanRequest r = request(2, 0.1, 0.0);
    r.selector = plan::Selector::kPrivTune;
    plan::makePlan(r);
  }, "discoveryShare");
}

// The noise scale, statistically. Values whose counts sit k·σ above or below τ are kept with
// probability Φ̄((τ − count)/σ). With N = 20 000 values per offset the kept fraction has sd ≤
// 0.0036; the test allows 4.89 sd (two-sided α = 1e-6 per check, 5 checks: false-failure
// rate ≤ 5e-6). A halved σ moves the fraction at +1σ from 0.84 to 0.98 (39 sd): caught.
double keptFraction(double offsetSds, double noiseScale, std::uint64_t seed, double* expected) {
  auto c = calibrateDiscovery(0.1, 1, 1e-7);
  const std::uint64_t count = std::uint64_t(std::llround(c.threshold + offsetSds * c.sigma));
  *expected = upperNormalTail((c.threshold - double(count)) / c.sigma);
  const std::size_t n = 20000;
  data::DiscoveryCounts column;
  for (std::size_t i = 0; i < n; ++i) {
    column.values.push_back("v" + std::to_string(i));
    column.counts.push_back(count);
  }
  random::Generator g = random::Generator::seeded(seed);
  c.sigma *= noiseScale;  // the broken variant: discovery drawing less noise than calibrated
  const auto kept = data::discoverLevels({column}, {n}, c, g);
  return double(kept[0].size()) / double(n);
}

TEST(DiscoveryNoise, KeptFractionsMatchTheCalibratedSigma) {
  std::uint64_t seed = 1000;
  for (double offset : {-2.0, -1.0, 0.0, 1.0, 2.0}) {
    double expected = 0;
    const double fraction = keptFraction(offset, 1.0, seed++, &expected);
    const double sd = std::sqrt(expected * (1 - expected) / 20000.0);
    EXPECT_NEAR(fraction, expected, 4.89 * sd + 1e-12) << "offset " << offset << "σ";
  }
}

TEST(DiscoveryNoise, AHalvedSigmaIsCaught) {
  double expected = 0;
  const double fraction = keptFraction(1.0, 0.5, 77, &expected);
  const double sd = std::sqrt(expected * (1 - expected) / 20000.0);
  EXPECT_GT(std::fabs(fraction - expected), 4.89 * sd);
}

TEST(Discovery, KeepsTheLargestNoisyCountsUpToTheCapInByteOrder) {
  const auto c = calibrateDiscovery(10.0, 2, 1e-7);  // σ = 0.2: counts are nearly exact
  data::DiscoveryCounts a{{"zeta", "alpha", "mid", "rare"}, {500, 400, 300, 1}};
  data::DiscoveryCounts b{{"x", "y"}, {0, 900}};  // a value with count 0 is not a partition
  random::Generator g = random::Generator::seeded(3);
  const auto kept = data::discoverLevels({a, b}, {2, 5}, c, g);
  EXPECT_EQ(kept[0], (std::vector<std::string>{"alpha", "zeta"}));
  EXPECT_EQ(kept[1], (std::vector<std::string>{"y"}));
}

TEST(Discovery, RefusesAMismatchedCalibration) {
  const auto c = calibrateDiscovery(1.0, 2, 1e-7);
  random::Generator g = random::Generator::seeded(3);
  EXPECT_THROW(data::discoverLevels({data::DiscoveryCounts{}}, {1}, c, g), Error);
}

}  // namespace
}  // namespace dpmargin
