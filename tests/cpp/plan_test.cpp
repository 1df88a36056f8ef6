// The data-free plan (SPEC §2.2–2.7): golden `mstar_plan` records and the tight-mode rules.
#include "dpmargin/plan/plan.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/error.hpp"
#include "reference.hpp"

namespace dpmargin::plan {
namespace {

using dpmargin::testing::num;
using dpmargin::testing::referenceVectors;

void expectRel(double actual, double expected, double tol, const std::string& what) {
  const double scale = std::max(std::abs(expected), 1e-300);
  EXPECT_LE(std::abs(actual - expected) / scale, tol)
      << what << ": expected " << expected << ", got " << actual;
}

// Every mstar_plan record: μ, μ_run, score sd and each candidate row. The records use the
// paper's constants (c = γ/3, R = 2b, T = ⌈n²μ_run²⌉); `exact_gdp` picks μ. Our "paper"
// calibration reproduces exact_gdp = false entirely; for exact_gdp = true we check what does
// not depend on the tight-only changes (μ, the grid, k_γ, projection).
TEST(PlanGolden, MstarPlanRecords) {
  int records = 0, values = 0;
  for (const auto& rec : referenceVectors().at("mstar_plan")) {
    PlanRequest r;
    r.epsilon = num(rec.at("eps"));
    r.delta = num(rec.at("delta"));
    r.n = rec.at("n").get<std::uint64_t>();
    r.d = rec.at("d").get<std::uint64_t>();
    r.normBound = num(rec.at("b"));
    r.jlFailure = num(rec.at("beta_jl_total"));
    r.calibration = rec.at("exact_gdp").get<bool>() ? Calibration::kTight : Calibration::kPaper;
    r.maxIterations = std::uint64_t{1} << 62;
    r.pruning = Pruning::kNone;  // the records list the whole grid
    const Plan p = makePlan(r);
    const std::string tag = "n=" + std::to_string(r.n) + " d=" + std::to_string(r.d);
    expectRel(p.mu, num(rec.at("mu_total")), 1e-10, tag + " mu_total");
    expectRel(p.muRun, num(rec.at("mu_run")), 1e-10, tag + " mu_run");
    // Reference scores are fractions (Δ_U = 1/n); ours are counts (Δ_U = 1).
    expectRel(p.scoreSd / static_cast<double>(r.n), num(rec.at("score_sd")), 1e-10, tag + " score_sd");
    values += 3;
    const auto& rows = rec.at("rows");
    ASSERT_EQ(p.candidates.size(), rows.size()) << tag;
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const auto& row = rows[j];
      const CandidatePlan& c = p.candidates[j];
      const std::string at = tag + " row " + std::to_string(j);
      expectRel(c.gamma, num(row.at("gamma")), 1e-12, at + " gamma");
      EXPECT_EQ(c.kJl, row.at("k_jl").get<std::uint64_t>()) << at;
      EXPECT_EQ(c.projected, !row.at("skip_projection").get<bool>()) << at;
      EXPECT_EQ(c.k, row.at("dim").get<std::uint64_t>()) << at;
      values += 4;
      if (r.calibration == Calibration::kPaper) {
        expectRel(c.c, num(row.at("c")), 1e-12, at + " c");
        expectRel(c.sensitivity, num(row.at("Delta")), 1e-12, at + " Delta");
        EXPECT_EQ(c.T, row.at("T").get<std::uint64_t>()) << at;
        // The record is the paper's σ for exact sums; ours covers the computed float sums too
        // (σ for Δ(1 + κ), float_sensitivity_test.cpp): the same formula times (1 + κ).
        expectRel(c.sigma / (1 + p.floatSlack), num(row.at("sigma")), 1e-10, at + " sigma");
        values += 4;
      }
    }
    ++records;
  }
  RecordProperty("records", records);
  RecordProperty("values", values);
  EXPECT_EQ(records, 4);
}

PlanRequest basic() {
  PlanRequest r;
  r.epsilon = 1;
  r.delta = 1e-5;
  r.n = 1000;
  r.d = 50;
  r.pruning = Pruning::kNone;  // the whole grid (pruning has its own tests below)
  return r;
}

TEST(Plan, TightUsesExactMuAndUndistortedHingeWhenNotProjected) {
  const Plan p = makePlan(basic());
  EXPECT_NEAR(p.mu, 0.26805112321129421922, 1e-12);
  EXPECT_LE(p.epsilonSpent, 1.0);
  EXPECT_EQ(p.candidates.size(), 11u);
  for (const auto& c : p.candidates) {
    EXPECT_FALSE(c.projected);
    EXPECT_EQ(c.c, c.gamma);
    EXPECT_EQ(c.clipRadius, 1.0);
    EXPECT_DOUBLE_EQ(c.sensitivity, 2.0 / c.gamma);
    // T_bound(5%) = ⌈n²μ_run²/(d·0.1025)⌉, μ_run = μ/√22.
    const double tBound = std::ceil(1e6 * p.muRun * p.muRun / (50 * (1.05 * 1.05 - 1)));
    EXPECT_EQ(c.TUncapped, static_cast<std::uint64_t>(tBound));
    EXPECT_DOUBLE_EQ(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun);
  }
}

TEST(Plan, ProjectedCandidatesKeepThePaperHinge) {
  PlanRequest r = basic();
  r.n = 100000;
  r.d = 100000;
  const Plan p = makePlan(r);
  bool sawProjected = false;
  for (const auto& c : p.candidates) {
    if (!c.projected) continue;
    sawProjected = true;
    EXPECT_LT(c.k, r.d);
    EXPECT_DOUBLE_EQ(c.c, c.gamma / 3.0);
    EXPECT_EQ(c.clipRadius, 2.0);
  }
  EXPECT_TRUE(sawProjected);
}

TEST(Plan, MaxIterationsCapsAndIsReported) {
  PlanRequest r = basic();
  r.maxIterations = 7;
  const Plan p = makePlan(r);
  for (const auto& c : p.candidates) {
    EXPECT_EQ(c.T, 7u);
    EXPECT_TRUE(c.capped);
    EXPECT_GT(c.TUncapped, 7u);
    EXPECT_DOUBLE_EQ(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(7.0) / p.muRun);
  }
}

TEST(Plan, DefaultJlFailureIsOneOverNSquared) {
  EXPECT_DOUBLE_EQ(makePlan(basic()).beta, 1e-6);
}

TEST(Plan, PrivTuneTightBeatsPaperAndSpendsAtMostEpsilon) {
  PlanRequest r = basic();
  r.selector = Selector::kPrivTune;
  r.expectedRuns = 10;
  const Plan tight = makePlan(r);
  r.calibration = Calibration::kPaper;
  const Plan paper = makePlan(r);
  EXPECT_NEAR(tight.tnbR, 0.1, 1e-15);
  EXPECT_GT(tight.mu, paper.mu);
  EXPECT_LE(tight.epsilonSpent, 1.0);
  EXPECT_LE(paper.epsilonSpent, 1.0 + 1e-12);
  EXPECT_DOUBLE_EQ(tight.muRun, tight.mu / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(tight.scoreSd, std::sqrt(2.0) / tight.mu);
  EXPECT_GT(tight.probabilityMiss, 0.0);
  EXPECT_LT(tight.probabilityMiss, 1.0);
}

TEST(Plan, PopulationScoreCarriesThePublicPenalty) {
  PlanRequest r = basic();
  r.score = ScoreKind::kPopulation;
  const Plan p = makePlan(r);
  for (const auto& c : p.candidates) EXPECT_GT(c.scorePenalty, 0.0);
  EXPECT_DOUBLE_EQ(p.scoreSd, makePlan(basic()).scoreSd);  // public penalty: same sensitivity
}

// Noise-floor pruning (SPEC §2.9 item 5; docs/reference/PRIVACY.md): a pure function of public numbers
// that keeps the largest suffix of Γ whose smallest margin passes under the budget split over
// the kept ones, and accounts exactly for what it keeps.
void expectPruningRule(const PlanRequest& r) {
  const Plan p = makePlan(r);
  const std::string tag = "n=" + std::to_string(r.n) + " d=" + std::to_string(r.d) +
                          " eps=" + std::to_string(r.epsilon) + " ratio=" + std::to_string(r.pruneRatio);
  ASSERT_FALSE(p.candidates.empty()) << tag;
  EXPECT_EQ(p.request.pruning, Pruning::kNoiseFloor) << tag;
  EXPECT_EQ(p.pruned.size() + p.candidates.size(), p.gridSize) << tag;
  // Kept ∪ pruned is the grid, pruned below kept, in order.
  PlanRequest whole = r;
  whole.pruning = Pruning::kNone;
  const Plan full = makePlan(whole);
  ASSERT_EQ(full.candidates.size(), p.gridSize) << tag;
  for (std::size_t j = 0; j < p.gridSize; ++j) {
    const double g = full.candidates[j].gamma;
    if (j < p.pruned.size()) {
      EXPECT_EQ(p.pruned[j], g) << tag;
    } else {
      EXPECT_EQ(p.candidates[j - p.pruned.size()].gamma, g) << tag;
    }
  }
  const std::size_t m = p.candidates.size();
  // Exact accounting over the kept candidates: m runs at μ_run and m scores at 1/sd compose to μ.
  EXPECT_NEAR(std::sqrt(double(m) * p.muRun * p.muRun + double(m) / (p.scoreSd * p.scoreSd)),
              p.muTrain, 1e-12 * p.muTrain) << tag;
  EXPECT_NEAR(p.muRun, p.muTrain / std::sqrt(2.0 * double(m)), 1e-15) << tag;
  // Every kept margin passes (unless only b is left).
  for (const auto& c : p.candidates) {
    if (m > 1) EXPECT_LE(c.noiseFloorRatio, r.pruneRatio) << tag << " gamma=" << c.gamma;
    EXPECT_NEAR(c.noiseFloorRatio,
                2.0 * c.sensitivity * std::sqrt(double(c.k)) / (double(r.n) * p.muRun),
                1e-12 * c.noiseFloorRatio) << tag;
  }
  // Maximal: with one more margin, some margin of the m + 1 largest fails under the m + 1 split
  // (Δ and k do not depend on the split, so they come from the unpruned plan).
  if (!p.pruned.empty()) {
    const double muRun = p.muTrain / std::sqrt(2.0 * double(m + 1));
    double worst = 0;
    for (std::size_t j = p.gridSize - (m + 1); j < p.gridSize; ++j) {
      const auto& c = full.candidates[j];
      worst = std::max(worst, 2.0 * c.sensitivity * std::sqrt(double(c.k)) / (double(r.n) * muRun));
    }
    EXPECT_GT(worst, r.pruneRatio) << tag;
  }
}

TEST(Pruning, KeepsTheLargestPassingSuffixAndAccountsForIt) {
  // d = 2000 and 20000: the largest margins are projected (k_γ < d), where Δ jumps 6×.
  for (std::uint64_t n : {100u, 500u, 1000u, 4096u, 30000u}) {
    for (std::uint64_t d : {9u, 120u, 785u, 2000u, 20000u}) {
      for (double eps : {0.5, 1.0, 8.0}) {
        for (double ratio : {0.5, 1.0, 10.0, 100.0}) {
          PlanRequest r = basic();
          r.n = n;
          r.d = d;
          r.epsilon = eps;
          r.pruning = Pruning::kNoiseFloor;
          r.pruneRatio = ratio;
          expectPruningRule(r);
        }
      }
    }
  }
}

TEST(Pruning, Extremes) {
  PlanRequest r = basic();
  r.pruning = Pruning::kNoiseFloor;
  r.pruneRatio = 1e300;  // nothing is hopeless
  EXPECT_TRUE(makePlan(r).pruned.empty());
  r.pruneRatio = 1e-300;  // everything is, but one margin (b) always stays
  const Plan one = makePlan(r);
  ASSERT_EQ(one.candidates.size(), 1u);
  EXPECT_EQ(one.candidates[0].gamma, r.normBound);
  EXPECT_NEAR(one.muRun, one.muTrain / std::sqrt(2.0), 1e-15);
  // The fixed-margin learner has nothing to prune.
  r.selector = Selector::kFixed;
  r.margin = 1e-3;
  EXPECT_EQ(makePlan(r).candidates.size(), 1u);
}

TEST(Pruning, PrivTuneDrawsFromTheKeptMarginsOnly) {
  PlanRequest r = basic();
  r.selector = Selector::kPrivTune;
  r.pruning = Pruning::kNoiseFloor;
  r.pruneRatio = 10;
  const Plan p = makePlan(r);
  ASSERT_FALSE(p.pruned.empty());
  // PrivTune's μ does not depend on |Θ|; P(miss) does, through the kept set's size.
  r.pruning = Pruning::kNone;
  const Plan whole = makePlan(r);
  EXPECT_EQ(p.mu, whole.mu);
  EXPECT_LT(p.probabilityMiss, whole.probabilityMiss);
}

TEST(Plan, StepAndHingeScalesAreUtilityOnly) {
  PlanRequest r = basic();
  const Plan base = makePlan(r);
  r.stepScale = 4;
  r.hingeScale = 2;
  const Plan p = makePlan(r);
  EXPECT_EQ(p.mu, base.mu);  // privacy unchanged
  EXPECT_EQ(p.muRun, base.muRun);
  ASSERT_EQ(p.candidates.size(), base.candidates.size());
  for (std::size_t j = 0; j < p.candidates.size(); ++j) {
    const auto& c = p.candidates[j];
    const auto& b = base.candidates[j];
    EXPECT_DOUBLE_EQ(c.c, 2 * b.c);
    EXPECT_DOUBLE_EQ(c.sensitivity, b.sensitivity / 2);  // Δ = 2R/c
    EXPECT_DOUBLE_EQ(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun);
    // η = D/√(T(n²Δ² + kσ²)) with D = 4 and the new Δ, σ.
    EXPECT_DOUBLE_EQ(c.stepSize, 4.0 / std::sqrt(double(c.T) *
                                                 (1e6 * c.sensitivity * c.sensitivity +
                                                  50.0 * c.sigma * c.sigma)));
  }
  EXPECT_GT(p.floatSlack, 9e-4);  // κ of the float sums (accounting::floatSumSlack)
  EXPECT_LT(p.floatSlack, 1e-3);
  // Paper calibration: c = γ/3.
  r = basic();
  r.calibration = Calibration::kPaper;
  const Plan paper = makePlan(r);
  EXPECT_DOUBLE_EQ(paper.candidates.front().c, paper.candidates.front().gamma / 3);
}

}  // namespace
}  // namespace dpmargin::plan
