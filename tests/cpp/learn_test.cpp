// The learners (SPEC §2.3–2.7): sensitivity of the summed hinge gradient, JL distortion, the
// noise scale of one noisy-GD step, learning with outliers, selection, reproducibility.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/learn/projection.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
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
  EXPECT_LE(worstClipped, delta * (1 + accounting::floatSumSlack(n)));  // what σ is calibrated to
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

// One step of the production noisy GD (the Trainer, selector "fixed", T = 1) on rows that
// contribute no gradient (x = 0): w₁ = −η ξ with ξ ~ N(0, σ² I), σ and η from the plan. With
// k = 20,000 coordinates (an unprojected margin) the sample variance of ξ is σ²(1 ± z·√(2/k));
// z = 4.89 gives a two-sided false-failure rate α = 1e-6.
TEST(NoisyGdStatistics, OneStepNoiseSdEqualsThePlansSigma) {
  const std::size_t n = 3, k = 20000;
  Dataset data(n, k);
  data.labels()[0] = 1, data.labels()[1] = -1, data.labels()[2] = 1;
  run::Options o;
  o.epsilon = 1, o.delta = 1e-5, o.selector = plan::Selector::kFixed, o.margin = 0.01;
  o.maxIterations = 1, o.output = OutputIterate::kLast, o.intercept = false, o.seed = 2024;
  const TrainSettings settings = run::resolve(o, n, k);
  Trainer trainer(data, settings, run::makeGenerator(settings));
  while (!trainer.advance(5)) {
  }
  const plan::CandidatePlan& c = trainer.plan().candidates.at(0);
  ASSERT_FALSE(c.projected);
  ASSERT_EQ(c.T, 1u);
  const auto& w = trainer.result().weights;
  const Eigen::VectorXd noise = Eigen::Map<const Eigen::VectorXd>(w.data(), Eigen::Index(k)) / -c.stepSize;
  const double mean = noise.mean();
  const double variance = (noise.array() - mean).square().sum() / double(k - 1);
  EXPECT_NEAR(variance / (c.sigma * c.sigma), 1.0, 4.89 * std::sqrt(2.0 / k));
  EXPECT_NEAR(mean, 0.0, 4.89 * c.sigma / std::sqrt(double(k)));
}

// The tests' settings: the core's defaults (run::resolve) with budget ε, δ = 1e-5 and no
// private ranges (the synthetic data are prepared already), and Iter (M*) unless another
// selector is asked for (the default selector is "auto", tested on its own below).
TrainSettings mstar(double epsilon, run::Options o = {}) {
  o.epsilon = epsilon;
  if (!o.selector) o.selector = plan::Selector::kIter;
  if (!o.delta) o.delta = 1e-5;
  if (!o.rangeShare) o.rangeShare = 0.0;
  return run::resolve(o, 2, 1);  // the trainer takes n and d from the (prepared) data
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

// The default selector "auto" on the same data as M* above: one unprojected run at the public
// γ₀ = b·max(1, √(0.25/μ_train))/√n with the whole budget, nothing scored.
TEST(Learning, AutoLearnsSeparableDataWithOutliers) {
  const auto synthetic = makeSeparable(4000, 50, 0.1, 40, 99);
  Dataset data = toDataset(synthetic);
  run::Options o;
  o.epsilon = 1.0, o.delta = 1e-5, o.rangeShare = 0.0;
  const TrainSettings settings = run::resolve(o, 2, 1);
  ASSERT_EQ(settings.plan.selector, plan::Selector::kAuto);
  Trainer trainer(data, settings, random::Generator::seeded(5));
  while (!trainer.advance(500)) {
  }
  const TrainResult& r = trainer.result();
  ASSERT_EQ(r.plan.candidates.size(), 1u);
  const plan::CandidatePlan& c = r.plan.candidates[0];
  EXPECT_FALSE(c.projected);
  EXPECT_EQ(c.k, 50u);
  EXPECT_DOUBLE_EQ(c.gamma, 1.0 / std::sqrt(4000.0));  // μ_train = μ > 0.25 at ε = 1
  EXPECT_EQ(r.runs.size(), 1u);
  EXPECT_TRUE(std::isnan(r.runs[0].noisyScore));
  EXPECT_EQ(r.plan.muRun, r.plan.mu);
  const double error = double(countErrors(data.view(), r.weights)) / 4000.0;
  RecordProperty("train_error", std::to_string(error));
  EXPECT_LE(error, 0.01 + 0.02);
  // Seeded: bit-identical whatever the chunking.
  Trainer again(data, settings, random::Generator::seeded(5));
  while (!again.advance(7)) {
  }
  EXPECT_EQ(again.result().weights, r.weights);
}

// On a table large enough (n·μ_class ≥ 8,000) auto selects among {γ₀/3, γ₀, 3γ₀}: three
// unprojected runs trained in one batch, each scored, the argmin of the noisy scores released.
TEST(Learning, AutoSelectsAmongThreeMarginsOnALargeTable) {
  const auto synthetic = makeSeparable(20000, 20, 0.05, 200, 31);
  Dataset data = toDataset(synthetic);
  run::Options o;
  o.epsilon = 2.0, o.delta = 1e-5, o.rangeShare = 0.0;  // μ ≈ 0.50: n·μ ≈ 10,000
  const TrainSettings settings = run::resolve(o, 2, 1);
  Trainer trainer(data, settings, random::Generator::seeded(21));
  std::vector<std::uint64_t> errors;
  trainer.setRunObserver([&](std::size_t, std::size_t, const std::vector<double>& w) {
    errors.push_back(countErrors(data.view(), w));
  });
  while (!trainer.advance(500)) {
  }
  const TrainResult& r = trainer.result();
  ASSERT_TRUE(r.plan.selects);
  ASSERT_EQ(r.plan.candidates.size(), 3u);
  ASSERT_EQ(r.runs.size(), 3u);
  ASSERT_EQ(errors.size(), 3u);
  std::size_t best = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.runs[i].candidate, i);
    ASSERT_TRUE(std::isfinite(r.runs[i].noisyScore));
    // Score noise sd 10/μ ≈ 20 errors: 6 sd is a false-failure rate below 1e-8 per score.
    EXPECT_NEAR(r.runs[i].noisyScore, double(errors[i]), 6 * r.plan.scoreSd);
    if (r.runs[i].noisyScore < r.runs[best].noisyScore) best = i;
  }
  EXPECT_EQ(r.selectedRun, best);
  EXPECT_EQ(r.selectedCandidate, best);
  EXPECT_EQ(double(countErrors(data.view(), r.weights)), double(errors[best]));
  const double error = double(errors[best]) / 20000.0;
  RecordProperty("train_error", std::to_string(error));
  EXPECT_LE(error, 0.01 + 0.03);
  // Seeded: bit-identical whatever the chunking.
  Trainer again(data, settings, random::Generator::seeded(21));
  while (!again.advance(7)) {
  }
  EXPECT_EQ(again.result().weights, r.weights);
  EXPECT_EQ(again.result().runs[2].noisyScore, r.runs[2].noisyScore);
}

// The two noise scales of auto's selection, statistically (the production Trainer, the plan's σ
// and score sd; selection forced on a tiny table through the plan's switch). Rows x = 0 add no
// gradient and T = 1, so each candidate's output is −η ξ with ξ ~ N(0, σ² I): over k = 20,000
// coordinates the sample variance of each of the 3 is σ²(1 ± z√(2/k)). Each released score is
// the candidate's error count (seen through the test-only observer) + N(0, sd²): over 3 × 2000
// runs the variance of (score − count)/sd is 1 ± z√(2/6000). z = 4.89: two-sided α = 1e-6 per
// check, 5e-6 for the test (union bound). σ from μ_class instead of μ_run (√(3/0.97) smaller)
// fails the first checks by ~70 sd; the score noise of Iter's even split (√(0.03/0.5) of this
// one) fails the last by ~80 sd.
TEST(NoisyGdStatistics, AutoSelectionNoiseScalesAreThePlans) {
  const std::size_t n = 3, k = 20000;
  Dataset data(n, k);
  data.labels()[0] = 1, data.labels()[1] = -1, data.labels()[2] = 1;
  run::Options o;
  o.epsilon = 1, o.delta = 1e-5, o.maxIterations = 1, o.intercept = false, o.rangeShare = 0.0;
  o.seed = 2026;
  TrainSettings settings = run::resolve(o, n, k);
  settings.plan.autoSelectNoise = 1e9;  // force the selection on 3 rows
  Trainer trainer(data, settings, run::makeGenerator(settings));
  std::vector<std::vector<double>> outputs;
  trainer.setRunObserver([&](std::size_t, std::size_t, const std::vector<double>& w) { outputs.push_back(w); });
  while (!trainer.advance(5)) {
  }
  const plan::Plan& p = trainer.plan();
  ASSERT_TRUE(p.selects);
  ASSERT_EQ(outputs.size(), 3u);
  EXPECT_NEAR(p.muRun, p.muClass * std::sqrt(0.97 / 3), 1e-15);
  for (std::size_t j = 0; j < 3; ++j) {
    const plan::CandidatePlan& c = p.candidates.at(j);
    ASSERT_FALSE(c.projected);
    ASSERT_EQ(c.T, 1u);
    const Eigen::VectorXd noise = Eigen::Map<const Eigen::VectorXd>(outputs[j].data(), Eigen::Index(k)) / -c.stepSize;
    const double mean = noise.mean();
    const double variance = (noise.array() - mean).square().sum() / double(k - 1);
    EXPECT_NEAR(variance / (c.sigma * c.sigma), 1.0, 4.89 * std::sqrt(2.0 / k)) << j;
  }
  // The score noise: a small table (k = 2), 2000 runs of 3 scores.
  Dataset small(n, 2);
  small.labels()[0] = 1, small.labels()[1] = -1, small.labels()[2] = 1;
  small.rowMajor()[0] = 1.0f;  // one informative row: the error counts vary from run to run
  double sum = 0, sumSquares = 0, sd = 0;
  std::size_t count = 0;
  for (std::uint64_t run = 0; run < 2000; ++run) {
    run::Options each = o;
    each.seed = 5000 + run;
    TrainSettings s = run::resolve(each, n, 2);
    s.plan.autoSelectNoise = 1e9;
    Trainer t(small, s, run::makeGenerator(s));
    std::vector<std::uint64_t> errors;
    t.setRunObserver([&](std::size_t, std::size_t, const std::vector<double>& w) {
      errors.push_back(countErrors(small.view(), w));
    });
    while (!t.advance(5)) {
    }
    sd = t.plan().scoreSd;
    for (std::size_t j = 0; j < errors.size(); ++j) {
      const double z = (t.result().runs[j].noisyScore - double(errors[j])) / sd;
      sum += z, sumSquares += z * z, ++count;
    }
  }
  ASSERT_EQ(count, 6000u);
  EXPECT_NEAR(sd, 10.0 / trainer.plan().muClass, 1e-9 * sd);
  const double mean = sum / double(count);
  EXPECT_NEAR(mean, 0.0, 4.89 / std::sqrt(double(count)));
  EXPECT_NEAR((sumSquares - double(count) * mean * mean) / double(count - 1), 1.0, 4.89 * std::sqrt(2.0 / double(count)));
}

TEST(Learning, PrivTuneAndFixedMarginLearnersTrain) {
  const auto synthetic = makeSeparable(2000, 20, 0.1, 0, 12);
  Dataset data = toDataset(synthetic);
  run::Options options;
  options.selector = plan::Selector::kPrivTune;
  options.expectedRuns = 5;
  Trainer privtune(data, mstar(2.0, options), random::Generator::seeded(1));
  while (!privtune.advance(2000)) {
  }
  EXPECT_GE(privtune.result().runs.size(), 1u);
  EXPECT_LT(double(countErrors(data.view(), privtune.result().weights)) / 2000.0, 0.15);

  options = {};
  options.selector = plan::Selector::kFixed;
  options.margin = 0.1;
  Trainer fixed(data, mstar(2.0, options), random::Generator::seeded(1));
  while (!fixed.advance(2000)) {
  }
  EXPECT_EQ(fixed.result().runs.size(), 1u);
  EXPECT_TRUE(std::isnan(fixed.result().runs[0].noisyScore));
  EXPECT_DOUBLE_EQ(fixed.result().plan.muRun, fixed.result().plan.mu);
  EXPECT_LT(double(countErrors(data.view(), fixed.result().weights)) / 2000.0, 0.1);
}

TEST(Learning, ProjectedCandidatesTrainInTheOriginalSpace) {
  // d large enough that the larger margins are projected (k_γ < d).
  const auto synthetic = makeSeparable(400, 2500, 0.02, 0, 21);
  Dataset data = toDataset(synthetic);
  Trainer trainer(data, mstar(4.0), random::Generator::seeded(3));
  bool sawProjected = false;
  for (const auto& c : trainer.plan().candidates) sawProjected |= c.projected;
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
  run::Options bound;
  bound.normBound = 2.0;  // must match the prepared data's b
  EXPECT_THROW(Trainer(data, mstar(1.0, bound), random::Generator::seeded(1)), Error);
  try {
    Trainer t(data, mstar(0.0), random::Generator::seeded(1));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.parameter(), "epsilon");
  }
  Trainer t(data, mstar(1.0), random::Generator::seeded(1));
  EXPECT_THROW(t.advance(0), Error);
  EXPECT_THROW((void)t.result(), Error);  // not done yet
}

TEST(DatasetValidation, TypedErrorsNameRowAndColumn) {
  Dataset nan(3, 2);
  nan.labels()[0] = 1, nan.labels()[1] = -1, nan.labels()[2] = 1;
  nan.rowMajor()[1 * nan.stride() + 1] = std::nanf("");
  try {
    nan.validate();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kNonFinite);
    EXPECT_NE(std::string(e.what()).find("row 1, column 1"), std::string::npos) << e.what();
  }
  Dataset oneClass(3, 2);
  for (int i = 0; i < 3; ++i) oneClass.labels()[i] = 1;
  try {
    oneClass.validate();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOneClass);
  }
  Dataset badLabel(2, 1);
  badLabel.labels()[0] = 1, badLabel.labels()[1] = 0;
  try {
    badLabel.validate();
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadLabel);
  }
  EXPECT_THROW(Dataset(0, 2), Error);
  Dataset unvalidated(2, 1);
  EXPECT_THROW(unvalidated.prepare(Preprocessing{}), Error);  // validate() first
  try {
    Dataset huge(std::size_t{1} << 20, std::size_t{1} << 12);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfMemory);
    EXPECT_NE(std::string(e.what()).find("MB"), std::string::npos);
  }
}

TEST(DatasetPreprocessing, UnitNormWithInterceptAndClip) {
  Preprocessing p;  // intercept + unit norm, b = 1
  Dataset d(2, 2);
  float* x = d.rowMajor();
  x[0] = 3, x[1] = 0, x[3] = 0, x[4] = 0;  // second row all zero before the intercept
  d.labels()[0] = 1, d.labels()[1] = -1;
  d.validate();
  d.prepare(p);
  EXPECT_EQ(d.width(), 3u);
  EXPECT_NEAR(x[0], 3 / std::sqrt(10.0), 1e-6);
  EXPECT_NEAR(x[2], 1 / std::sqrt(10.0), 1e-6);
  EXPECT_NEAR(x[5], 1.0, 1e-6);  // intercept alone
  p.intercept = false;
  p.rows = RowNormalization::kClip;
  p.normBound = 2;
  Dataset e(2, 2);
  float* z = e.rowMajor();  // stride 3 before prepare(): room for an intercept
  z[0] = 0.5, z[1] = 0, z[3] = 30, z[4] = 40;
  e.labels()[0] = 1, e.labels()[1] = -1;
  e.validate();
  e.prepare(p);
  ASSERT_EQ(e.width(), 2u);  // packed to width 2 without the intercept
  EXPECT_FLOAT_EQ(z[0], 0.5f);  // inside the ball: unchanged
  EXPECT_NEAR(std::hypot(z[2], z[3]), 2.0, 1e-5);
}

}  // namespace
}  // namespace dpmargin::learn

namespace dpmargin::learn {
namespace {

// A batch step is the same mechanism as one run per candidate: with negligible noise (ε huge)
// Iter's batched candidates (seen through the observer) equal separate fixed-margin runs at the
// same margins (same T, c, R; η up to the negligible σ term), up to float reductions and the
// negligible noise (a wrong c, η or R would differ by O(1)).
TEST(Trainer, BatchedCandidatesMatchSeparateRunsAtTheirMargins) {
  const auto s = testing::makeSeparable(700, 9, 0.05, 20, 3);
  Dataset data = testing::toDataset(s);
  run::Options o;
  o.pruning = plan::Pruning::kNone;
  o.maxIterations = 40;
  Trainer iter(data, mstar(1e12, o), random::Generator::seeded(1));
  std::vector<std::vector<double>> outputs;
  iter.setRunObserver([&](std::size_t, std::size_t, const std::vector<double>& w) { outputs.push_back(w); });
  iter.advance(1);
  ASSERT_GT(iter.progress().batch, 1u);  // unprojected candidates train as one batch
  while (!iter.advance(7)) {
  }
  ASSERT_EQ(outputs.size(), iter.plan().candidates.size());
  for (std::size_t j = 0; j < outputs.size(); j += 3) {
    run::Options f = o;
    f.selector = plan::Selector::kFixed;
    f.margin = iter.plan().candidates[j].gamma;
    Trainer single(data, mstar(1e12, f), random::Generator::seeded(2));
    while (!single.advance(40)) {
    }
    ASSERT_EQ(single.plan().candidates[0].T, iter.plan().candidates[j].T);
    const Eigen::Map<const Eigen::VectorXd> a(outputs[j].data(), Eigen::Index(outputs[j].size()));
    const Eigen::Map<const Eigen::VectorXd> b(single.result().weights.data(), a.size());
    EXPECT_LE((a - b).norm(), 1e-3 * b.norm()) << "candidate " << j;
  }
}

// The one place noise is added (noisyStep): each candidate of a batch gets N(0, σ_j² I) with its
// own σ_j. Zero gradients, so w_j = −η_j ξ_j; α = 1e-6 per candidate as above.
TEST(NoisyGdStatistics, NoiseSdPerCandidateEqualsItsSigma) {
  const Eigen::Index k = 20000;
  std::vector<NoisyGdParams> params(2);
  params[0].sigma = 3.0, params[1].sigma = 40.0;
  for (auto& p : params) p.c = 1, p.stepSize = 0.5, p.iterations = 1;
  Eigen::MatrixXd gradient = Eigen::MatrixXd::Zero(k, 2), w = Eigen::MatrixXd::Zero(k, 2);
  auto g = random::Generator::seeded(77);
  noisyStep(params.data(), params.size(), gradient, w, g);
  for (Eigen::Index j = 0; j < 2; ++j) {
    const Eigen::VectorXd noise = w.col(j) / -0.5;
    const double var = (noise.array() - noise.mean()).square().sum() / double(k - 1);
    const double sigma = params[std::size_t(j)].sigma;
    EXPECT_NEAR(var / (sigma * sigma), 1.0, 4.89 * std::sqrt(2.0 / double(k)));
  }
}

TEST(Trainer, BatchesUnprojectedCandidatesAndReportsWork) {
  const auto s = testing::makeSeparable(1000, 10, 0.1, 0, 8);
  Dataset data = testing::toDataset(s);
  Trainer t(data, mstar(1.0), random::Generator::seeded(2));
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
