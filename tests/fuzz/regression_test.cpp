// Regression tests for what the libFuzzer harnesses found (docs/reference/FUZZING.md). Each crash input
// is also replayed from tests/fuzz/corpus/<harness>/regress-* by the short fuzzing run; these
// tests state the fixed behaviour in plain numbers. Built into dpmargin_tests
// (tests/cpp/CMakeLists.txt), so they run natively and under the sanitizers.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/accounting/scores.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/plan/plan.hpp"

namespace dpmargin {
namespace {

using namespace accounting;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint64_t kMaxU64 = std::numeric_limits<std::uint64_t>::max();

void expectBadParameter(const std::function<void()>& call, const std::string& parameter) {
  try {
    call();
    ADD_FAILURE() << "no error; expected BAD_PARAMETER naming " << parameter;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadParameter) << e.what();
    EXPECT_EQ(e.parameter(), parameter) << e.what();
  }
}

plan::PlanRequest request(double epsilon, double delta, plan::Selector selector,
                          plan::Calibration calibration) {
  plan::PlanRequest r;
  r.epsilon = epsilon;
  r.delta = delta;
  r.n = 16776704;
  r.d = 6912;
  r.selector = selector;
  r.calibration = calibration;
  r.score = plan::ScoreKind::kPopulation;
  return r;
}

// ---- gdp.cpp ----

// gdpMu(ε ≥ DBL_MAX/2) looped forever (2ε overflowed to a NaN μ that passed the δ test), and
// for ε ≳ 1e300 δ(ε; μ) was taken as 0 whenever ε/μ > 1e150, even for a μ so large that δ ≈ 1.
TEST(FuzzRegression, GdpMuAtHugeEpsilon) {
  for (double eps : {DBL_MAX, 1e308, 0x1.b244843069f87p+1020, 1e200}) {
    const double mu = gdpMu(eps, 0.5);
    EXPECT_NEAR(mu / (std::sqrt(2.0) * std::sqrt(eps)), 1.0, 1e-6) << eps;  // μ ≈ √(2ε)
    EXPECT_LE(gdpLogDelta(eps, mu), std::log(0.5));
  }
  EXPECT_GT(gdpLogDelta(1e200, 1e160), -1.0);  // δ ≈ 1, not "< e^-1e300"
}

// gdpEpsilon's search stopped at 1e300 (INTERNAL "no bracket"); beyond DBL_MAX it is +∞.
TEST(FuzzRegression, GdpEpsilonAtHugeMu) {
  const double mu = gdpMu(0x1.b244843069f87p+1020, 0.5);
  const double eps = gdpEpsilon(mu, 0.5);
  EXPECT_TRUE(std::isfinite(eps));
  EXPECT_GT(eps, 1e300);
  EXPECT_EQ(gdpEpsilon(1e300, 4.4441204843420127e-320), kInf);
}

// x₁² overflowed in halfSquareOf: ∞ − ∞ = NaN for μ near DBL_MAX.
TEST(FuzzRegression, GdpLogDeltaAtHugeMu) {
  EXPECT_EQ(gdpLogDelta(2.0, DBL_MAX), 0.0);  // δ = 1
  EXPECT_EQ(gdpDelta(2.0, DBL_MAX), 1.0);
}

// The tight plan reported ε spent = 1.006·ε at ε = 5.4e-14 (ln δ flat to within its rounding).
TEST(FuzzRegression, TightEpsilonSpentNeverAboveEpsilon) {
  const auto r = request(0x1.eaf3fb4745cd6p-45, 0.5, plan::Selector::kIter, plan::Calibration::kTight);
  EXPECT_LE(plan::makePlan(r).epsilonSpent, r.epsilon);
}

// ---- selection.cpp ----

// ps22Mu capped its search at μ = 1e150: INTERNAL for ε above ~1e300.
TEST(FuzzRegression, Ps22MuAtHugeEpsilon) {
  const double eps = 0x1.d633ebe51f636p+1022;
  const double mu = ps22Mu(eps, 1.0, 0.1, 0.5);
  EXPECT_LE(ps22Epsilon(mu, 1.0, 0.1, 0.5), eps);
  EXPECT_NO_THROW(plan::makePlan(request(eps, 0.5, plan::Selector::kPrivTune, plan::Calibration::kTight)));
}

// privtunePaperMuInverseLemma returned NaN for ε > DBL_MAX/6; the plan then kept a μ whose
// Lemma ε is +∞ and reported ε spent = +∞.
TEST(FuzzRegression, PrivTunePaperAtHugeEpsilon) {
  const double eps = 0x1.1c01496bbed57p+1023;
  const double mu = privtunePaperMuInverseLemma(eps, 0.1, 0.5);
  ASSERT_TRUE(std::isfinite(mu));
  EXPECT_LE(privtunePaperEpsilon(mu, 0.1, 0.5), eps);
  const auto p = plan::makePlan(request(eps, 0.5, plan::Selector::kPrivTune, plan::Calibration::kPaper));
  EXPECT_LE(p.epsilonSpent, eps);
}

// ---- grid.cpp, scores.cpp, ngd.cpp ----

TEST(FuzzRegression, MarginGridEdges) {
  // b/n subnormal: the grid held zeros (not ascending).
  expectBadParameter([] { marginGrid(std::uint64_t{1} << 53, 2e-323); }, "b");
  // n ≥ 2⁶³: n >> 64 was undefined behaviour.
  const auto grid = marginGrid(kMaxU64, 1.0);
  EXPECT_EQ(grid.size(), 65u);
  for (std::size_t i = 1; i < grid.size(); ++i) EXPECT_GT(grid[i], grid[i - 1]);
}

TEST(FuzzRegression, PopulationPenaltyAtSubnormalBeta) {  // 4/β overflowed: +∞ penalty
  EXPECT_TRUE(std::isfinite(populationPenalty(3, 2, 4.9406564584124654e-324)));
}

TEST(FuzzRegression, UtilityBoundNeverNaN) {  // 2DΔ underflowed to 0 times an ∞ hypot
  const double v = ngdUtilityBound(14468034538476929024ull, 4.9406564584124654e-324, kMaxU64,
                                   4.9406564584124654e-324, kMaxU64, 1.9639020117520414e-307);
  EXPECT_FALSE(std::isnan(v));
}

// ---- tnb.cpp ----

TEST(FuzzRegression, TnbSurvivalAtTheEndOfTheRange) {  // k + 1 wrapped to 0: sf = 1.02
  const double sf = tnbSf({0.0, 0.37499916407407496}, kMaxU64);
  EXPECT_GE(sf, 0.0);
  EXPECT_LE(sf, 1.0);
}

TEST(FuzzRegression, TnbEtaIsBounded) {  // η = DBL_MAX gave a NaN log-pmf
  expectBadParameter([] { validateTnb({DBL_MAX, 0.5}); }, "eta");
  EXPECT_TRUE(std::isfinite(tnbLogPmf({0x1p53, 0.5}, 65590)));
}

// For η > 1 the pmf rises to its mode; an underflowed pmf(k+1) before the mode ended the sums:
// sf = cdf = 0 and quantile = 1. Here pmf(1) underflows and the mode is near 1100.
TEST(FuzzRegression, TnbSumsCrossUnderflowBeforeTheMode) {
  const Tnb t{1100.0, 0.5};
  EXPECT_EQ(tnbPmf(t, 1), 0.0);
  EXPECT_NEAR(tnbSf(t, 35), 1.0, 1e-12);
  EXPECT_NEAR(tnbCdf(t, 35), 0.0, 1e-12);
  const std::uint64_t median = tnbQuantile(t, 0.5);
  EXPECT_GT(median, 1000u);
  EXPECT_LT(median, 1200u);
}

// A subnormal η made η·ln r lose its digits: the pmf summed to 1.02. Tiny |η| is evaluated as
// the logarithmic law (η → 0).
TEST(FuzzRegression, TnbSubnormalEtaIsTheLogarithmicLaw) {
  const Tnb tiny{4.9406564584124654e-324, 1e-4}, log{0.0, 1e-4};
  EXPECT_NEAR(tnbCdf(tiny, 129487) + tnbSf(tiny, 129487), 1.0, 1e-9);
  EXPECT_NEAR(tnbPmf(tiny, 1000) / tnbPmf(log, 1000), 1.0, 1e-12);
  EXPECT_NEAR(tnbMean(tiny) / tnbMean(log), 1.0, 1e-12);
}

TEST(FuzzRegression, TnbMeanNearEtaMinusOne) {  // r^η overflowed: E[K] = 0
  const double mean = tnbMean({-0.99999999999999978, 1.2598673968951787e-321});
  EXPECT_GE(mean, 1.0);
  EXPECT_LT(mean, 1.01);
}

TEST(FuzzRegression, TnbSurvivalIsAProbability) {  // rounding of the summed pmf: 1 + 3e-12
  EXPECT_LE(tnbSf({61185.0, 0.1530625}, 327697), 1.0);
}

TEST(FuzzRegression, TnbMissProbabilityIsAProbability) {  // PGF(1 − 1/m) = 1 + 2^-52 (long run)
  EXPECT_LE(tnbProbabilityMiss({2.5710689774692366, 0.59607845303905904}, 11024698195558176920ull), 1.0);
}

// η = 1: the closed-form inverses. r for a miss probability rounded above β; an r that
// underflows is an error; an E[K] whose r would be subnormal is an error.
TEST(FuzzRegression, TnbInversesWithEtaOne) {
  const double beta = 1.3449746190494518e-284;
  const double r = tnbRForMissProbability(1.0, 984216, beta);
  EXPECT_LE(tnbProbabilityMiss({1.0, r}, 984216), beta);
  expectBadParameter([] { tnbRForMissProbability(1.0, 1048560, 4.9406564584124654e-324); }, "beta");
  expectBadParameter([] { tnbRForMean(1.0, DBL_MAX); }, "mean");
  EXPECT_EQ(tnbRForMean(1.0, 1e300), 1e-300);
}

// η = 1 quantile near q = 1: the cdf is flat in doubles over ~1e10 consecutive k, and the
// one-step walk from the closed-form guess ran for hours.
TEST(FuzzRegression, TnbQuantileEtaOneNearOne) {
  const Tnb t{1.0, 1e-10};
  const double q = 0.99999999999999989;
  const std::uint64_t k = tnbQuantile(t, q);
  EXPECT_GE(tnbCdf(t, k), q);
  EXPECT_LT(tnbCdf(t, k - 1), q);
}

// ---- plan.cpp, dataset.cpp: parameters that made training produce ±∞ ----

// The noise sd overflowed (paper calibration: μ = ε/(2√(2 ln(1/δ))) → 0 with ε; the tight μ
// stays ≈ 2.5δ as ε → 0).
TEST(FuzzRegression, TinyEpsilonIsRejectedByName) {
  plan::PlanRequest r = request(DBL_MIN, 1e-5, plan::Selector::kIter, plan::Calibration::kPaper);
  r.n = 2;
  r.d = 2;
  expectBadParameter([&] { plan::makePlan(r); }, "epsilon");
}

// ε = DBL_MAX with hinge scale 1.8e224: Δ = 2R/c ~ 1e-221 and μ ~ 1e154 made every σ underflow
// to 0 (a run without noise); now refused by name. At hinge scale 1 the same ε plans.
TEST(FuzzRegression, NoiseSdNeverUnderflowsToZero) {
  plan::PlanRequest r = request(DBL_MAX, 0.5, plan::Selector::kAuto, plan::Calibration::kTight);
  r.n = 6648123;
  r.d = 64936;
  r.maxIterations = 600;
  r.stepScale = 3.490196079390087;
  r.hingeScale = 1.8128498583200694e224;
  for (double noise : {0.0, 0.00125}) {  // auto's single run and its selection
    r.autoSelectNoise = noise;
    expectBadParameter([&] { plan::makePlan(r); }, "epsilon");
  }
  r.hingeScale = 1.0;
  const plan::Plan p = plan::makePlan(r);
  for (const plan::CandidatePlan& c : p.candidates) EXPECT_GT(c.sigma, 0.0);
}

TEST(FuzzRegression, FixedMarginFarBelowTheGrid) {  // Δ and 1/c overflowed
  plan::PlanRequest r = request(1.0, 1e-5, plan::Selector::kFixed, plan::Calibration::kTight);
  r.margin = 1e-20;
  expectBadParameter([&] { plan::makePlan(r); }, "margin");
  r.margin = 0x1p-53;
  EXPECT_NO_THROW(plan::makePlan(r));
}

TEST(FuzzRegression, NormBoundKeepsFloatRowsFinite) {  // b = 1e308: infinite rows, NaN scores
  for (double b : {1e308, 1e31, 1e-31, 1e-320}) {
    learn::Preprocessing p;
    p.normBound = b;
    expectBadParameter([&] { learn::validatePreprocessing(p); }, "normBound");
  }
  learn::Preprocessing p;
  p.normBound = 1e30;
  EXPECT_NO_THROW(learn::validatePreprocessing(p));
  p.normBound = 1e-30;
  EXPECT_NO_THROW(learn::validatePreprocessing(p));
}

}  // namespace
}  // namespace dpmargin
