// Every rejected parameter of every public accounting function (SPEC §2.1–2.7) throws
// dpmargin::Error with code BAD_PARAMETER, parameter() naming it, and a Google-DP-style
// message "<name> must be <requirement>, but is <value>". Valid boundary values are accepted.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/accounting/scores.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin::accounting {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Values each kind of domain must reject.
const std::vector<double> kNotPositive = {kNaN, kInf, -kInf, 0.0, -0.0, -1.0, -1e-300};
const std::vector<double> kNotNonNegative = {kNaN, kInf, -kInf, -1.0, -1e-300};
const std::vector<double> kNotOpenUnit = {kNaN, kInf, -kInf, 0.0, 1.0, -0.5, 1.5};
const std::vector<double> kNotFiniteAboveOne = {kNaN, kInf, -kInf, 1.0, 0.5, -2.0};

using testing::expectBadParameter;
using testing::expectRejects;

// ---- error.hpp ----

TEST(ErrorTest, CodeNames) {
  EXPECT_STREQ(errorCodeName(ErrorCode::kBadParameter), "BAD_PARAMETER");
  EXPECT_STREQ(errorCodeName(ErrorCode::kOutOfMemory), "OUT_OF_MEMORY");
  EXPECT_STREQ(errorCodeName(ErrorCode::kCancelled), "CANCELLED");
  EXPECT_STREQ(errorCodeName(ErrorCode::kInternal), "INTERNAL");
}

TEST(ErrorTest, MessageFormat) {
  auto message = [](double v) {
    try {
      throwBadParameter("epsilon", "finite and positive", v);
    } catch (const Error& e) {
      EXPECT_EQ(e.parameter(), "epsilon");
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(message(-1.0), "epsilon must be finite and positive, but is -1");
  EXPECT_EQ(message(0.1), "epsilon must be finite and positive, but is 0.1");
  EXPECT_EQ(message(kNaN), "epsilon must be finite and positive, but is nan");
  EXPECT_EQ(message(kInf), "epsilon must be finite and positive, but is inf");
  EXPECT_EQ(message(-kInf), "epsilon must be finite and positive, but is -inf");
  EXPECT_EQ(message(1e-300), "epsilon must be finite and positive, but is 1e-300");
}

TEST(ErrorTest, RequireHelpers) {
  expectRejects({kNaN, kInf, -kInf}, "x", [](double v) { requireFinite("x", v); });
  expectRejects(kNotPositive, "x", [](double v) { requirePositive("x", v); });
  expectRejects(kNotNonNegative, "x", [](double v) { requireNonNegative("x", v); });
  expectRejects(kNotOpenUnit, "x", [](double v) { requireOpenUnit("x", v); });
  expectRejects({kNaN, kInf, -kInf, 1.999}, "x", [](double v) { requireAtLeast("x", v, 2.0); });
  EXPECT_NO_THROW(requireFinite("x", -1e308));
  EXPECT_NO_THROW(requirePositive("x", 5e-324));
  EXPECT_NO_THROW(requireNonNegative("x", 0.0));
  EXPECT_NO_THROW(requireOpenUnit("x", 0.999));
  EXPECT_NO_THROW(requireAtLeast("x", 2.0, 2.0));
}

// ---- gdp.hpp ----

TEST(GdpValidation, ComposeList) {
  expectBadParameter([] { composeGdp(std::vector<double>{}); }, "mus.size");
  expectRejects(kNotNonNegative, "mus[1]",
                [](double v) { composeGdp(std::vector<double>{0.1, v, 0.2}); });
  EXPECT_DOUBLE_EQ(composeGdp(std::vector<double>{0.0, 0.0}), 0.0);
}

TEST(GdpValidation, ComposeCount) {
  expectRejects(kNotNonNegative, "mu", [](double v) { composeGdp(v, 3); });
  expectBadParameter([] { composeGdp(0.1, 0); }, "count");
  EXPECT_DOUBLE_EQ(composeGdp(0.1, 1), 0.1);
}

TEST(GdpValidation, DeltaAndLogDelta) {
  for (auto f : {gdpDelta, gdpLogDelta}) {
    expectRejects(kNotNonNegative, "epsilon", [&](double v) { f(v, 0.5); });
    expectRejects(kNotPositive, "mu", [&](double v) { f(1.0, v); });
    EXPECT_NO_THROW(f(0.0, 0.5));
  }
}

TEST(GdpValidation, Epsilon) {
  expectRejects(kNotPositive, "mu", [](double v) { gdpEpsilon(v, 1e-5); });
  expectRejects(kNotOpenUnit, "delta", [](double v) { gdpEpsilon(0.5, v); });
}

TEST(GdpValidation, Mu) {
  expectRejects(kNotPositive, "epsilon", [](double v) { gdpMu(v, 1e-5); });
  expectRejects(kNotOpenUnit, "delta", [](double v) { gdpMu(1.0, v); });
}

TEST(GdpValidation, PaperConversions) {
  for (auto f : {paperEpsilonLemma, paperEpsilonCorollary}) {
    expectRejects(kNotPositive, "mu", [&](double v) { f(v, 1e-5); });
    expectRejects(kNotOpenUnit, "delta", [&](double v) { f(0.5, v); });
  }
  for (auto f : {paperMuMstar, paperMuInverseLemma}) {
    expectRejects(kNotPositive, "epsilon", [&](double v) { f(v, 1e-5); });
    expectRejects(kNotOpenUnit, "delta", [&](double v) { f(1.0, v); });
  }
}

// ---- grid.hpp ----

TEST(GridValidation, MarginGrid) {
  expectBadParameter([] { marginGrid(0, 1.0); }, "n");
  expectBadParameter([] { marginGrid(1, 1.0); }, "n");
  expectRejects(kNotPositive, "b", [](double v) { marginGrid(100, v); });
  EXPECT_EQ(marginGrid(2, 1.0).size(), 2u);
}

// ---- jl.hpp ----

TEST(JlValidation, Distortion) {
  expectRejects(kNotPositive, "gamma", [](double v) { jlDistortion(v, 1.0); });
  expectBadParameter([] { jlDistortion(1.5, 1.0); }, "gamma");
  expectRejects(kNotPositive, "b", [](double v) { jlDistortion(0.5, v); });
  EXPECT_NO_THROW(jlDistortion(1.0, 1.0));
}

TEST(JlValidation, Dimension) {
  expectRejects(kNotPositive, "gamma", [](double v) { jlDimension(v, 100, 8, 1e-3, 1.0); });
  expectBadParameter([] { jlDimension(2.0, 100, 8, 1e-3, 1.0); }, "gamma");
  expectBadParameter([] { jlDimension(0.1, 1, 8, 1e-3, 1.0); }, "n");
  expectBadParameter([] { jlDimension(0.1, 100, 0, 1e-3, 1.0); }, "gridSize");
  expectRejects(kNotOpenUnit, "beta", [](double v) { jlDimension(0.1, 100, 8, v, 1.0); });
  expectRejects(kNotPositive, "b", [](double v) { jlDimension(0.1, 100, 8, 1e-3, v); });
  EXPECT_EQ(jlDimension(1e-12, 100, 8, 1e-3, 1.0), std::numeric_limits<std::uint64_t>::max());
}

TEST(JlValidation, FailurePerVector) {
  expectBadParameter([] { jlFailurePerVector(0, 0.1); }, "k");
  expectRejects(kNotOpenUnit, "e", [](double v) { jlFailurePerVector(100, v); });
}

// ---- ngd.hpp ----

TEST(NgdValidation, HingeSensitivity) {
  expectRejects(kNotPositive, "clipRadius", [](double v) { hingeSensitivity(v, 0.1); });
  expectRejects(kNotPositive, "c", [](double v) { hingeSensitivity(1.0, v); });
}

TEST(NgdValidation, IterationsPaper) {
  expectBadParameter([] { ngdIterationsPaper(1, 0.1); }, "n");
  expectRejects(kNotPositive, "muRun", [](double v) { ngdIterationsPaper(100, v); });
  EXPECT_EQ(ngdIterationsPaper(2, 1e-300), 1u);  // T ≥ 1 always
}

TEST(NgdValidation, IterationsBound) {
  expectBadParameter([] { ngdIterationsBound(1, 0.1, 10, 0.05); }, "n");
  expectRejects(kNotPositive, "muRun", [](double v) { ngdIterationsBound(100, v, 10, 0.05); });
  expectBadParameter([] { ngdIterationsBound(100, 0.1, 0, 0.05); }, "k");
  expectRejects(kNotPositive, "tol", [](double v) { ngdIterationsBound(100, 0.1, 10, v); });
}

TEST(NgdValidation, Sigma) {
  expectRejects(kNotPositive, "sensitivity", [](double v) { ngdSigma(v, 10, 0.1); });
  expectBadParameter([] { ngdSigma(1.0, 0, 0.1); }, "T");
  expectRejects(kNotPositive, "muRun", [](double v) { ngdSigma(1.0, 10, v); });
}

TEST(NgdValidation, StepSize) {
  expectBadParameter([] { ngdStepSize(1, 1.0, 10, 1.0, 10, 1.0); }, "n");
  expectRejects(kNotPositive, "sensitivity",
                [](double v) { ngdStepSize(100, v, 10, 1.0, 10, 1.0); });
  expectBadParameter([] { ngdStepSize(100, 1.0, 0, 1.0, 10, 1.0); }, "k");
  expectRejects(kNotNonNegative, "sigma",
                [](double v) { ngdStepSize(100, 1.0, 10, v, 10, 1.0); });
  expectBadParameter([] { ngdStepSize(100, 1.0, 10, 1.0, 0, 1.0); }, "T");
  expectRejects(kNotPositive, "D", [](double v) { ngdStepSize(100, 1.0, 10, 1.0, 10, v); });
  EXPECT_NO_THROW(ngdStepSize(100, 1.0, 10, 0.0, 10));  // σ = 0 is a valid (non-private) input
}

TEST(NgdValidation, UtilityBound) {
  expectBadParameter([] { ngdUtilityBound(1, 1.0, 10, 0.1, 10, 1.0); }, "n");
  expectRejects(kNotPositive, "sensitivity",
                [](double v) { ngdUtilityBound(100, v, 10, 0.1, 10, 1.0); });
  expectBadParameter([] { ngdUtilityBound(100, 1.0, 0, 0.1, 10, 1.0); }, "k");
  expectRejects(kNotPositive, "muRun",
                [](double v) { ngdUtilityBound(100, 1.0, 10, v, 10, 1.0); });
  expectBadParameter([] { ngdUtilityBound(100, 1.0, 10, 0.1, 0, 1.0); }, "T");
  expectRejects(kNotPositive, "D", [](double v) { ngdUtilityBound(100, 1.0, 10, 0.1, 10, v); });
}

TEST(NgdValidation, UtilityFloor) {
  expectRejects(kNotPositive, "sensitivity", [](double v) { ngdUtilityFloor(v, 10, 0.1, 1.0); });
  expectBadParameter([] { ngdUtilityFloor(1.0, 0, 0.1, 1.0); }, "k");
  expectRejects(kNotPositive, "muRun", [](double v) { ngdUtilityFloor(1.0, 10, v, 1.0); });
  expectRejects(kNotPositive, "D", [](double v) { ngdUtilityFloor(1.0, 10, 0.1, v); });
}

// ---- scores.hpp ----

TEST(ScoresValidation, PopulationPenaltyAndScore) {
  expectBadParameter([] { populationPenalty(0, 100, 1e-3); }, "k");
  expectBadParameter([] { populationPenalty(10, 1, 1e-3); }, "n");
  expectRejects(kNotOpenUnit, "beta", [](double v) { populationPenalty(10, 100, v); });
  expectRejects(kNotNonNegative, "errorCount",
                [](double v) { populationScore(v, 10, 100, 1e-3); });
  expectBadParameter([] { populationScore(1.0, 0, 100, 1e-3); }, "k");
  expectBadParameter([] { populationScore(1.0, 10, 1, 1e-3); }, "n");
  expectRejects(kNotOpenUnit, "beta", [](double v) { populationScore(1.0, 10, 100, v); });
}

// ---- selection.hpp ----

TEST(SelectionValidation, SelectionSplit) {
  expectRejects(kNotPositive, "muTotal", [](double v) { selectionSplit(v, 3, 0.97, 1.0); });
  expectBadParameter([] { selectionSplit(1.0, 0, 0.97, 1.0); }, "candidates");
  expectRejects(kNotOpenUnit, "runShare", [](double v) { selectionSplit(1.0, 3, v, 1.0); });
  expectRejects(kNotPositive, "scoreSensitivity", [](double v) { selectionSplit(1.0, 3, 0.97, v); });
}

TEST(SelectionValidation, IterSplit) {
  expectRejects(kNotPositive, "muTotal", [](double v) { iterSplit(v, 10, 1.0); });
  expectBadParameter([] { iterSplit(1.0, 0, 1.0); }, "candidates");
  expectRejects(kNotPositive, "scoreSensitivity", [](double v) { iterSplit(1.0, 10, v); });
}

TEST(SelectionValidation, PrivtunePaper) {
  for (auto f : {privtunePaperEpsilon, privtunePaperEpsilonRelaxed}) {
    expectRejects(kNotPositive, "mu", [&](double v) { f(v, 0.1, 1e-5); });
    expectRejects(kNotOpenUnit, "r", [&](double v) { f(0.1, v, 1e-5); });
    expectRejects(kNotOpenUnit, "delta", [&](double v) { f(0.1, 0.1, v); });
  }
  for (auto f : {privtunePaperMu, privtunePaperMuInverseLemma}) {
    expectRejects(kNotPositive, "epsilon", [&](double v) { f(v, 0.1, 1e-5); });
    expectRejects(kNotOpenUnit, "r", [&](double v) { f(1.0, v, 1e-5); });
    expectRejects(kNotOpenUnit, "delta", [&](double v) { f(1.0, 0.1, v); });
  }
  // The Lemma's ε includes +δ: no μ > 0 reaches ε ≤ δ.
  expectBadParameter([] { privtunePaperMuInverseLemma(1e-3, 0.1, 1e-3); }, "epsilon");
}

TEST(SelectionValidation, Ps22Rdp) {
  expectRejects(kNotPositive, "mu", [](double v) { ps22Rdp(v, 1.0, 0.1, 2.0); });
  expectRejects({kNaN, kInf, -kInf, -1.0, -2.0}, "eta",
                [](double v) { ps22Rdp(0.1, v, 0.1, 2.0); });
  expectRejects(kNotOpenUnit, "gamma", [](double v) { ps22Rdp(0.1, 1.0, v, 2.0); });
  expectRejects(kNotFiniteAboveOne, "lambda", [](double v) { ps22Rdp(0.1, 1.0, 0.1, v); });
}

TEST(SelectionValidation, RdpToDp) {
  for (auto f : {rdpToDpCks, rdpToDpMironov}) {
    expectRejects(kNotNonNegative, "rdp", [&](double v) { f(v, 2.0, 1e-5); });
    expectRejects(kNotFiniteAboveOne, "lambda", [&](double v) { f(0.1, v, 1e-5); });
    expectRejects(kNotOpenUnit, "delta", [&](double v) { f(0.1, 2.0, v); });
  }
}

TEST(SelectionValidation, Ps22EpsilonAndMu) {
  expectRejects(kNotPositive, "mu", [](double v) { ps22Epsilon(v, 1.0, 0.1, 1e-5); });
  expectRejects({kNaN, kInf, -1.0}, "eta", [](double v) { ps22Epsilon(0.1, v, 0.1, 1e-5); });
  expectRejects(kNotOpenUnit, "gamma", [](double v) { ps22Epsilon(0.1, 1.0, v, 1e-5); });
  expectRejects(kNotOpenUnit, "delta", [](double v) { ps22Epsilon(0.1, 1.0, 0.1, v); });
  expectRejects(kNotPositive, "epsilon", [](double v) { ps22Mu(v, 1.0, 0.1, 1e-5); });
  expectRejects({kNaN, kInf, -1.0}, "eta", [](double v) { ps22Mu(1.0, v, 0.1, 1e-5); });
  expectRejects(kNotOpenUnit, "gamma", [](double v) { ps22Mu(1.0, 1.0, v, 1e-5); });
  expectRejects(kNotOpenUnit, "delta", [](double v) { ps22Mu(1.0, 1.0, 0.1, v); });
}

// ---- tnb.hpp ----

const std::vector<double> kBadEta = {kNaN, kInf, -kInf, -1.0, -1.5};

TEST(TnbValidation, Distribution) {
  expectRejects(kBadEta, "eta", [](double v) { validateTnb({v, 0.1}); });
  expectRejects(kNotOpenUnit, "r", [](double v) { validateTnb({1.0, v}); });
  EXPECT_NO_THROW(validateTnb({-0.999, 0.5}));
  // Every function validates the distribution first.
  const std::vector<std::function<void(const Tnb&)>> uses = {
      [](const Tnb& t) { tnbLogPmf(t, 1); },   [](const Tnb& t) { tnbPmf(t, 1); },
      [](const Tnb& t) { tnbCdf(t, 1); },      [](const Tnb& t) { tnbSf(t, 1); },
      [](const Tnb& t) { tnbQuantile(t, 0.5); }, [](const Tnb& t) { tnbMean(t); },
      [](const Tnb& t) { tnbPgf(t, 0.5); },    [](const Tnb& t) { tnbProbabilityMiss(t, 2); }};
  for (const auto& use : uses) {
    expectRejects(kBadEta, "eta", [&](double v) { use({v, 0.1}); });
    expectRejects(kNotOpenUnit, "r", [&](double v) { use({1.0, v}); });
  }
}

TEST(TnbValidation, Arguments) {
  const Tnb t{0.5, 0.1};
  expectBadParameter([&] { tnbLogPmf(t, 0); }, "k");
  expectBadParameter([&] { tnbPmf(t, 0); }, "k");
  expectBadParameter([&] { tnbCdf(t, 0); }, "k");
  expectBadParameter([&] { tnbSf(t, 0); }, "k");
  expectRejects(kNotOpenUnit, "q", [&](double v) { tnbQuantile(t, v); });
  expectRejects({kNaN, kInf, -kInf, -0.1, 1.1}, "s", [&](double v) { tnbPgf(t, v); });
  EXPECT_NO_THROW(tnbPgf(t, 0.0));
  EXPECT_NO_THROW(tnbPgf(t, 1.0));
  expectBadParameter([&] { tnbProbabilityMiss(t, 0); }, "candidates");
  EXPECT_DOUBLE_EQ(tnbProbabilityMiss(t, 1), 0.0);
}

TEST(TnbValidation, RForMean) {
  expectRejects(kBadEta, "eta", [](double v) { tnbRForMean(v, 10.0); });
  expectRejects({kNaN, kInf, -kInf, 1.0, 0.5, -3.0}, "mean",
                [](double v) { tnbRForMean(0.5, v); });
  // η close to −1 makes E[K] grow like r^(−1−η): 1e7 is out of reach for r ≥ 1e-300.
  expectBadParameter([] { tnbRForMean(-0.999, 1e7); }, "mean");
}

TEST(TnbValidation, RForMissProbability) {
  expectRejects(kBadEta, "eta", [](double v) { tnbRForMissProbability(v, 10, 0.01); });
  expectBadParameter([] { tnbRForMissProbability(1.0, 1, 0.01); }, "candidates");
  expectBadParameter([] { tnbRForMissProbability(1.0, 0, 0.01); }, "candidates");
  expectRejects(kNotOpenUnit, "beta", [](double v) { tnbRForMissProbability(1.0, 10, v); });
  // With K = 1 a candidate is missed with probability 1 − 1/m = 0.9 already.
  expectBadParameter([] { tnbRForMissProbability(0.5, 10, 0.9); }, "beta");
  expectBadParameter([] { tnbRForMissProbability(1.0, 10, 0.95); }, "beta");
  // η < 0: P(miss) ≥ 1 − m^η for every r, so smaller β cannot be reached.
  expectBadParameter([] { tnbRForMissProbability(-0.5, 10, 0.5); }, "beta");
}

}  // namespace
}  // namespace dpmargin::accounting
