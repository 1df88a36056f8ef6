// The learners (SPEC §2.3–2.7): sensitivity of the summed hinge gradient, JL distortion, the
// noise scale of one noisy-GD step, learning with outliers, selection, reproducibility.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/learn/projection.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "synthetic.hpp"

namespace dpmargin::learn {
namespace {

using testing::makeSeparable;
using testing::toDataset;

// Replace-one: for random rows (norms up to 3R, so clipping is active), labels and weights,
// swapping one row for an arbitrary other changes the noiseless summed subgradient by at most
// Δ = 2R/c. Without clipping the same experiment must exceed Δ (the test can fail).
TEST(Sensitivity, ReplacingOneRowMovesTheSummedGradientByAtMostDelta) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::size_t n = 64, k = 12;
  const double R = 1.5, c = 0.05, delta = 2 * R / c;
  double worstClipped = 0, worstUnclipped = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<float> z(n * k), z2;
    for (auto& v : z) v = static_cast<float>(normal(rng) * (0.3 + 2.0 * unit(rng)));
    std::vector<std::int8_t> y(n), y2;
    for (auto& v : y) v = unit(rng) < 0.5 ? 1 : -1;
    Eigen::VectorXf w(static_cast<Eigen::Index>(k));
    for (Eigen::Index j = 0; j < w.size(); ++j) w[j] = static_cast<float>(normal(rng) * 0.05);
    const std::size_t victim = static_cast<std::size_t>(unit(rng) * n);
    z2 = z;
    y2 = y;
    for (std::size_t j = 0; j < k; ++j) z2[victim * k + j] = static_cast<float>(normal(rng) * 3.0);
    y2[victim] = static_cast<std::int8_t>(-y[victim]);
    for (bool clip : {true, false}) {
      std::vector<float> s1, s2;
      if (clip) {
        clipFactors(z.data(), k, n, k, R, s1);
        clipFactors(z2.data(), k, n, k, R, s2);
      } else {
        s1.assign(n, 1.0f);
        s2.assign(n, 1.0f);
      }
      Eigen::VectorXf scratch(static_cast<Eigen::Index>(k));
      Eigen::VectorXd g1(static_cast<Eigen::Index>(k)), g2(static_cast<Eigen::Index>(k));
      hingeGradientSum({z.data(), k, s1.data(), y.data(), n, k}, c, w, scratch, g1);
      hingeGradientSum({z2.data(), k, s2.data(), y2.data(), n, k}, c, w, scratch, g2);
      double& worst = clip ? worstClipped : worstUnclipped;
      worst = std::max(worst, (g1 - g2).norm());
    }
  }
  EXPECT_LE(worstClipped, delta * (1 + 1e-5));
  EXPECT_GT(worstClipped, 0.5 * delta);  // the bound is nearly attained, so it is the right one
  EXPECT_GT(worstUnclipped, delta);      // without clipping the bound fails
}

// Φ with k = k_γ entries ±1/√k keeps ‖Φx‖² within (1 ± e)‖x‖², e = γ/(3b), for the 3n + 1
// vectors of the analysis (here random unit vectors and their pairwise differences with a
// reference), as Achlioptas' bound promises with probability ≥ 1 − β.
TEST(Projection, JlPreservesNormsWithinTheSpecDistortion) {
  const std::uint64_t n = 40;
  const double gamma = 1.0, b = 1.0, beta = 1.0 / (n * n);
  const std::uint64_t grid = 7;
  const std::size_t k = accounting::jlDimension(gamma, n, grid, beta, b);
  const std::size_t d = 3000;
  ASSERT_LT(k, d);
  const double e = accounting::jlDistortion(gamma, b);
  auto g = random::Generator::seeded(11);
  const RowMatrixXf phi = drawJlMatrix(g, k, d);
  EXPECT_FLOAT_EQ(std::abs(phi(0, 0)), static_cast<float>(1 / std::sqrt(double(k))));
  std::mt19937_64 rng(3);
  std::normal_distribution<float> normal;
  double worst = 0;
  for (std::uint64_t i = 0; i < 3 * n + 1; ++i) {
    Eigen::VectorXf x(static_cast<Eigen::Index>(d));
    for (Eigen::Index j = 0; j < x.size(); ++j) x[j] = normal(rng);
    x.normalize();
    const double ratio = double((phi * x).squaredNorm());
    worst = std::max(worst, std::abs(ratio - 1.0));
  }
  EXPECT_LE(worst, e);
  EXPECT_GT(worst, e / 20);  // distortion of the expected order: Φ is not accidentally orthogonal
}

// One noisy-GD step on rows that contribute no gradient (z = 0): w₁ = −η ξ with ξ ~ N(0, σ² I).
// With k = 20,000 coordinates the sample variance of ξ is σ²(1 ± z·√(2/k)); z = 4.89 gives a
// two-sided false-failure rate α = 1e-6.
TEST(NoisyGdStatistics, OneStepNoiseSdEqualsSigma) {
  const std::size_t n = 3, k = 20000;
  std::vector<float> z(n * k, 0.0f), s(n, 1.0f);
  std::vector<std::int8_t> y = {1, -1, 1};
  NoisyGdParams p;
  p.c = 0.1;
  p.sigma = 37.5;
  p.stepSize = 0.01;
  p.iterations = 1;
  p.output = OutputIterate::kLast;
  NoisyGd descent({z.data(), k, s.data(), y.data(), n, k}, p);
  auto g = random::Generator::seeded(2024);
  EXPECT_EQ(descent.advance(5, g), 1u);
  const Eigen::VectorXd noise = descent.output() / -p.stepSize;
  const double mean = noise.mean();
  const double variance = (noise.array() - mean).square().sum() / double(k - 1);
  EXPECT_NEAR(variance / (p.sigma * p.sigma), 1.0, 4.89 * std::sqrt(2.0 / k));
  EXPECT_NEAR(mean, 0.0, 4.89 * p.sigma / std::sqrt(double(k)));
}

TrainOptions mstar(double epsilon) {
  TrainOptions o;
  o.plan.epsilon = epsilon;
  o.plan.delta = 1e-5;
  return o;
}

// SPEC issue: n = 4000, d = 50, margin γ* = 0.1, 1% label-flipped outliers, ε = 1, δ = 1e-5.
TEST(Learning, MstarTightLearnsSeparableDataWithOutliers) {
  const auto synthetic = makeSeparable(4000, 50, 0.1, 40, 99);
  Dataset data = toDataset(synthetic);
  Trainer trainer(data, mstar(1.0), random::Generator::seeded(5));
  while (!trainer.advance(500)) {
  }
  const TrainResult& r = trainer.result();
  const double error = double(countErrors(data.view(), r.weights)) / 4000.0;
  const double gamma = r.plan.candidates[r.selectedCandidate].gamma;
  RecordProperty("train_error", std::to_string(error));
  RecordProperty("selected_gamma", std::to_string(gamma));
  EXPECT_LE(error, 0.01 + 0.03);
  EXPECT_GE(gamma, 0.1 / 4);
  EXPECT_EQ(r.runs.size(), r.plan.candidates.size());
  EXPECT_TRUE(r.seeded);
}

// With ε = 10⁶ the score noise is negligible, so Iter must pick the run with the fewest
// training errors (checked on the true counts, seen through the test-only observer).
TEST(Learning, HugeEpsilonSelectsTheFewestErrors) {
  const auto synthetic = makeSeparable(1500, 20, 0.05, 30, 4);
  Dataset data = toDataset(synthetic);
  Trainer trainer(data, mstar(1e6), random::Generator::seeded(8));
  std::vector<std::uint64_t> errors;
  trainer.setRunObserver([&](std::size_t, std::size_t, const std::vector<double>& w) {
    errors.push_back(countErrors(data.view(), w));
  });
  while (!trainer.advance(1000)) {
  }
  const TrainResult& r = trainer.result();
  ASSERT_EQ(errors.size(), r.runs.size());
  EXPECT_LT(r.plan.scoreSd, 0.05);
  const auto best = std::min_element(errors.begin(), errors.end()) - errors.begin();
  EXPECT_EQ(errors[r.selectedRun], errors[static_cast<std::size_t>(best)]);
  // The released noisy scores are the counts plus tiny noise.
  for (std::size_t i = 0; i < errors.size(); ++i) {
    EXPECT_NEAR(r.runs[i].noisyScore, double(errors[i]), 0.5);
  }
}

TEST(Learning, PrivTuneAndFixedMarginLearnersTrain) {
  const auto synthetic = makeSeparable(2000, 20, 0.1, 0, 12);
  Dataset data = toDataset(synthetic);
  TrainOptions o = mstar(2.0);
  o.plan.selector = plan::Selector::kPrivTune;
  o.plan.expectedRuns = 5;
  Trainer privtune(data, o, random::Generator::seeded(1));
  while (!privtune.advance(2000)) {
  }
  EXPECT_GE(privtune.result().runs.size(), 1u);
  EXPECT_LT(double(countErrors(data.view(), privtune.result().weights)) / 2000.0, 0.15);

  o.plan.selector = plan::Selector::kFixed;
  o.plan.margin = 0.1;
  Trainer fixed(data, o, random::Generator::seeded(1));
  while (!fixed.advance(2000)) {
  }
  EXPECT_EQ(fixed.result().runs.size(), 1u);
  EXPECT_TRUE(std::isnan(fixed.result().runs[0].noisyScore));
  EXPECT_DOUBLE_EQ(fixed.result().plan.muRun, fixed.result().plan.muTotal);
  EXPECT_LT(double(countErrors(data.view(), fixed.result().weights)) / 2000.0, 0.1);
}

TEST(Learning, ProjectedCandidatesTrainInTheOriginalSpace) {
  // d large enough that the larger margins are projected (k_γ < d).
  const auto synthetic = makeSeparable(400, 2500, 0.02, 0, 21);
  Dataset data = toDataset(synthetic);
  TrainOptions o = mstar(4.0);
  Trainer trainer(data, o, random::Generator::seeded(3));
  bool sawProjected = false;
  for (const auto& c : plan::makePlan([&] { auto p = o.plan; p.n = 400; p.d = 2500; return p; }()).candidates) {
    sawProjected |= c.projected;
  }
  ASSERT_TRUE(sawProjected);
  while (!trainer.advance(5000)) {
  }
  EXPECT_EQ(trainer.result().weights.size(), 2500u);
}

TEST(Reproducibility, SeededRunsAreBitIdentical) {
  const auto synthetic = makeSeparable(800, 30, 0.1, 8, 77);
  Dataset data = toDataset(synthetic);
  auto run = [&](std::uint64_t seed, std::uint64_t budget) {
    Trainer t(data, mstar(1.0), random::Generator::seeded(seed));
    while (!t.advance(budget)) {
    }
    return t.result();
  };
  const TrainResult a = run(42, 100), b = run(42, 7), c = run(43, 100);
  EXPECT_EQ(a.weights, b.weights);  // bit-identical, whatever the chunking
  EXPECT_EQ(a.selectedCandidate, b.selectedCandidate);
  for (std::size_t i = 0; i < a.runs.size(); ++i) EXPECT_EQ(a.runs[i].noisyScore, b.runs[i].noisyScore);
  EXPECT_NE(a.weights, c.weights);
}

TEST(TrainerValidation, RejectsBadOptionsAndData) {
  const auto synthetic = makeSeparable(100, 5, 0.1, 0, 1);
  Dataset data = toDataset(synthetic);
  TrainOptions o = mstar(1.0);
  o.plan.normBound = 2.0;  // must match the preprocessing's b
  EXPECT_THROW(Trainer(data, o, random::Generator::seeded(1)), Error);
  o = mstar(0.0);
  try {
    Trainer t(data, o, random::Generator::seeded(1));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.parameter(), "epsilon");
  }
  Trainer t(data, mstar(1.0), random::Generator::seeded(1));
  EXPECT_THROW(t.advance(0), Error);
  EXPECT_THROW((void)t.result(), Error);  // not done yet
}

TEST(DatasetValidation, TypedErrorsNameRowAndColumn) {
  Preprocessing p;
  Dataset nan(3, 2, p);
  nan.labels()[0] = 1, nan.labels()[1] = -1, nan.labels()[2] = 1;
  nan.rowMajor()[1 * nan.width() + 1] = std::nanf("");
  try {
    nan.prepare();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNonFinite);
    EXPECT_NE(std::string(e.what()).find("row 1, column 1"), std::string::npos) << e.what();
  }
  Dataset oneClass(3, 2, p);
  for (int i = 0; i < 3; ++i) oneClass.labels()[i] = 1;
  try {
    oneClass.prepare();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOneClass);
  }
  Dataset badLabel(2, 1, p);
  badLabel.labels()[0] = 1, badLabel.labels()[1] = 0;
  try {
    badLabel.prepare();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadLabel);
  }
  EXPECT_THROW(Dataset(0, 2, p), Error);
  try {
    Dataset huge(std::size_t{1} << 20, std::size_t{1} << 12, p);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfMemory);
    EXPECT_NE(std::string(e.what()).find("MB"), std::string::npos);
  }
}

TEST(DatasetPreprocessing, UnitNormWithInterceptAndClip) {
  Preprocessing p;  // intercept + unit norm, b = 1
  Dataset d(2, 2, p);
  float* x = d.rowMajor();
  x[0] = 3, x[1] = 0, x[3] = 0, x[4] = 0;  // second row all zero before the intercept
  d.labels()[0] = 1, d.labels()[1] = -1;
  d.prepare();
  EXPECT_NEAR(x[0], 3 / std::sqrt(10.0), 1e-6);
  EXPECT_NEAR(x[2], 1 / std::sqrt(10.0), 1e-6);
  EXPECT_NEAR(x[5], 1.0, 1e-6);  // intercept alone
  p.intercept = false;
  p.rows = RowNormalization::kClip;
  p.normBound = 2;
  Dataset e(2, 2, p);
  float* z = e.rowMajor();
  z[0] = 0.5, z[1] = 0, z[2] = 30, z[3] = 40;
  e.labels()[0] = 1, e.labels()[1] = -1;
  e.prepare();
  EXPECT_FLOAT_EQ(z[0], 0.5f);  // inside the ball: unchanged
  EXPECT_NEAR(std::hypot(z[2], z[3]), 2.0, 1e-5);
}

}  // namespace
}  // namespace dpmargin::learn

namespace dpmargin::learn {
namespace {

// The batched descent is the same mechanism: per candidate, its gradients equal the single
// descent's, and with σ = 0 its outputs match NoisyGd's (float reductions in another order).
TEST(BatchedNoisyGd, MatchesTheSingleDescentPerCandidate) {
  const auto s = testing::makeSeparable(700, 9, 0.05, 20, 3);
  Dataset data = testing::toDataset(s);
  const DataView v = data.view();
  std::vector<float> scale;
  clipFactors(v.x, v.width, v.n, v.width, 1.0, scale);
  const ClippedRows rows{v.x, v.width, scale.data(), v.y, v.n, v.width};
  std::vector<NoisyGdParams> params(3);
  const double cs[] = {0.01, 0.1, 1.0};
  for (int j = 0; j < 3; ++j) {
    params[j].c = cs[j];
    params[j].sigma = 0;
    params[j].stepSize = 1e-4 / cs[j];
    params[j].iterations = 40;
    params[j].output = j == 1 ? OutputIterate::kAverage : OutputIterate::kAverage;
  }
  BatchedNoisyGd batch(rows, params);
  auto g = random::Generator::seeded(1);
  while (!batch.done()) batch.advance(7, g);
  for (int j = 0; j < 3; ++j) {
    NoisyGd single(rows, params[j]);
    single.advance(40, g);
    const Eigen::VectorXd a = batch.output(std::size_t(j)), b = single.output();
    EXPECT_LE((a - b).norm(), 1e-4 * b.norm() + 1e-12) << "candidate " << j;
  }
  std::vector<NoisyGdParams> mixed = params;
  mixed[2].iterations = 41;
  EXPECT_THROW(BatchedNoisyGd(rows, mixed), Error);
}

TEST(BatchedNoisyGd, NoiseSdPerCandidateEqualsItsSigma) {
  // Zero rows: each column's one-step output is −η ξ_j with ξ_j ~ N(0, σ_j² I); α = 1e-6 per
  // candidate as in OneStepNoiseSdEqualsSigma.
  const std::size_t n = 2, k = 20000;
  std::vector<float> z(n * k, 0.0f), s(n, 1.0f);
  std::vector<std::int8_t> y = {1, -1};
  std::vector<NoisyGdParams> params(2);
  params[0].sigma = 3.0, params[1].sigma = 40.0;
  for (auto& p : params) p.c = 1, p.stepSize = 0.5, p.iterations = 1, p.output = OutputIterate::kLast;
  BatchedNoisyGd batch({z.data(), k, s.data(), y.data(), n, k}, params);
  auto g = random::Generator::seeded(77);
  batch.advance(1, g);
  for (std::size_t j = 0; j < 2; ++j) {
    const Eigen::VectorXd noise = batch.output(j) / -0.5;
    const double var = (noise.array() - noise.mean()).square().sum() / double(k - 1);
    EXPECT_NEAR(var / (params[j].sigma * params[j].sigma), 1.0, 4.89 * std::sqrt(2.0 / k));
  }
}

TEST(Trainer, BatchesUnprojectedCandidatesAndReportsWork) {
  const auto s = testing::makeSeparable(1000, 10, 0.1, 0, 8);
  Dataset data = testing::toDataset(s);
  TrainOptions o;
  o.plan.epsilon = 1;
  o.plan.delta = 1e-5;
  Trainer t(data, o, random::Generator::seeded(2));
  t.advance(1);
  const Progress p = t.progress();
  EXPECT_EQ(p.batch, t.plan().candidates.size());  // all unprojected, equal T: one batch
  EXPECT_EQ(p.run, 0u);
  EXPECT_DOUBLE_EQ(p.workDone, double(p.batch));
  while (!t.advance(100)) {
  }
  const Progress end = t.progress();
  EXPECT_TRUE(end.done);
  EXPECT_DOUBLE_EQ(end.workDone, end.workTotal);
  EXPECT_EQ(t.result().runs.size(), t.plan().candidates.size());
  for (std::size_t i = 0; i < t.result().runs.size(); ++i) EXPECT_EQ(t.result().runs[i].candidate, i);
}

}  // namespace
}  // namespace dpmargin::learn
