// The joint multiclass learner (docs/reference/MULTICLASS.md, docs/reference/LEARNERS.md "The joint multiclass
// learner"): one noisy GD on the K × k weight matrix at μ_train with Δ = 2√2·R/c. The plan's
// numbers, the sensitivity of the production kernel (replacing one row moves the summed gradient
// by at most Δ, a construction reaches it, and without clipping it fails), the noise scale of the
// production trainer (which a √2 or a K mistake would miss by far), learning, shards, the error
// count, and every rejected parameter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <random>
#include <vector>

#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/multiclass_kernel.hpp"
#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"
#include "expect_error.hpp"

namespace dpmargin::learn {
namespace {

using dpmargin::testing::expectBadParameter;

constexpr double kSqrt2 = 1.4142135623730951;

struct Toy {
  std::vector<float> x;
  std::vector<std::int32_t> codes;
  std::size_t n = 0, d = 0;
};
// K clusters around K orthonormal directions (as multiclass_test.cpp's): separable classes.
Toy makeClusters(std::size_t n, std::size_t d, std::size_t classes, double spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Toy t;
  t.n = n;
  t.d = d;
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::int32_t>(i % classes);
    t.codes.push_back(k);
    for (std::size_t j = 0; j < d; ++j) {
      t.x.push_back(static_cast<float>((j == std::size_t(k) ? 1.0 : 0.0) + spread * normal(rng)));
    }
  }
  return t;
}
Dataset toDataset(const Toy& t, bool labelled = true) {
  Dataset data(t.n, t.d, labelled);
  for (std::size_t i = 0; i < t.n; ++i) {
    for (std::size_t j = 0; j < t.d; ++j) data.rowMajor()[i * data.stride() + j] = t.x[i * t.d + j];
  }
  return data;
}

run::Options jointOptions(double epsilon = 1.0) {
  run::Options o;
  o.epsilon = epsilon;
  o.delta = 1e-5;
  o.seed = 5;
  return o;
}

// Drives a run with its rows copied into `shards` owning shards (as the workers hold them).
OneVsRestResult runSharded(Dataset& data, const std::int32_t* codes, std::size_t classes,
                           const TrainSettings& s, std::uint64_t seed, std::size_t shards) {
  OneVsRest t(data, codes, classes, s, random::Generator::seeded(seed));
  const DataView rows = t.data();
  const std::vector<std::size_t> bounds = shardBounds(rows.n, shards);
  std::vector<std::unique_ptr<Shard>> parts;
  for (std::size_t i = 0; i < shards; ++i) {
    auto shard = std::make_unique<Shard>(bounds[i + 1] - bounds[i], rows.width);
    std::copy(rows.x + bounds[i] * rows.width, rows.x + bounds[i + 1] * rows.width, shard->rowMajor());
    std::copy(rows.y + bounds[i], rows.y + bounds[i + 1], shard->labels());
    parts.push_back(std::move(shard));
  }
  t.detachRows();
  Eigen::MatrixXd partial;
  std::vector<std::vector<double>> partials;
  std::vector<std::uint64_t> part;
  for (;;) {
    const ShardRequest& r = t.request();
    if (r.kind == ShardRequest::Kind::kDone) break;
    switch (r.kind) {
      case ShardRequest::Kind::kSetup:
        for (auto& p : parts) p->setup(*r.setup);
        t.answerSetup();
        break;
      case ShardRequest::Kind::kGradients:
        partials.clear();
        for (auto& p : parts) {
          p->gradients(*r.weights, partial);
          partials.emplace_back(partial.data(), partial.data() + partial.size());
        }
        t.answerGradientPartials(partials);
        break;
      case ShardRequest::Kind::kErrors:
        partials.clear();
        part.resize(static_cast<std::size_t>(r.candidates->cols()) / classes);
        for (auto& p : parts) {
          p->countErrors(*r.candidates, part.data());
          partials.emplace_back(part.begin(), part.end());
        }
        t.answerErrorPartials(partials);
        break;
      default:
        ADD_FAILURE() << "unexpected request";
        return t.result();
    }
  }
  return t.result();
}

// The summed gradient of the production kernel (through a Shard, as training computes it) for
// rows x (n × k row-major), class codes y, weights W (k × K column-major), clip radius R.
Eigen::MatrixXd summedGradient(const std::vector<float>& x, const std::vector<std::int8_t>& y, std::size_t k,
                               std::size_t K, const Eigen::MatrixXf& w, double R, double c, plan::JointLoss loss) {
  DataView view;
  view.x = x.data();
  view.y = y.data();
  view.n = y.size();
  view.width = k;
  Shard shard(view);
  StepSetup s;
  s.k = k;
  s.clipRadius = R;
  s.c = Eigen::VectorXd::Constant(1, c);
  s.classes = K;
  s.loss = loss;
  shard.setup(s);
  Eigen::MatrixXd out;
  shard.gradients(w, out);
  return out;
}

}  // namespace

// Names and text values written by a describe*() visitor.
struct Names {
  std::vector<std::string> names;
  std::vector<std::string> texts;
  void number(const char* k, double) { names.push_back(k); }
  void count(const char* k, std::uint64_t) { names.push_back(k); }
  void boolean(const char* k, bool) { names.push_back(k); }
  void text(const char* k, const char* v) { names.push_back(k), texts.push_back(std::string(k) + "=" + v); }
  void numbers(const char* k, const std::vector<double>&) { names.push_back(k); }
  template <class F>
  void list(const char* k, std::size_t, F&&) { names.push_back(k); }
  template <class F>
  void object(const char* k, F&&) { names.push_back(k); }
  bool has(const std::string& t) const { return std::find(texts.begin(), texts.end(), t) != texts.end(); }
  bool named(const std::string& k) const { return std::find(names.begin(), names.end(), k) != names.end(); }
};

// ---- The plan ----

TEST(JointPlan, OneMechanismAtMuTrainWithSensitivityTwoSqrtTwoROverC) {
  for (std::size_t K : {3u, 10u, 50u}) {
    run::Options o = jointOptions();
    o.selector = plan::Selector::kFixed;
    o.margin = 0.05;
    const TrainSettings s = run::resolve(o, 1000, 19, K);
    EXPECT_EQ(s.plan.classes, 1u);
    EXPECT_EQ(s.plan.jointClasses, K);
    EXPECT_EQ(s.plan.jointLoss, plan::JointLoss::kHinge);  // the default (measured)
    const plan::Plan p = plan::makePlan(s.plan);
    EXPECT_EQ(p.muClass, p.muTrain);  // one mechanism: the whole training budget
    EXPECT_EQ(p.muRun, p.muTrain);
    const plan::CandidatePlan& c = p.candidates.at(0);
    ASSERT_FALSE(c.projected);
    EXPECT_EQ(c.clipRadius, 1.0);
    EXPECT_EQ(c.c, 0.05);
    // Δ = 2√2·R/c exactly (the double above √2), σ = Δ(1 + κ)√T/μ_run.
    EXPECT_NEAR(c.sensitivity, 2.0 * std::sqrt(2.0) * 1.0 / 0.05, 1e-12 * c.sensitivity);
    EXPECT_GE(c.sensitivity, 2.0 * std::sqrt(2.0) / 0.05);
    EXPECT_NEAR(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun, 1e-12 * c.sigma);
    // The step size and the floor ratio see k·K noise coordinates.
    const double kK = double(c.k * K);
    EXPECT_NEAR(c.stepSize, 1.0 / std::sqrt(double(c.T) * (1000.0 * 1000.0 * c.sensitivity * c.sensitivity +
                                                          kK * c.sigma * c.sigma)),
                1e-12 * c.stepSize);
    EXPECT_NEAR(c.noiseFloorRatio, 2.0 * c.sensitivity * std::sqrt(kK) / (p.muRun * 1000.0), 1e-12);
    // Against one-vs-rest at the same budget: σ_joint/σ_ovr = √2·μ_class/μ_train = √(2/K).
    run::Options ovr = o;
    ovr.multiclass = plan::Multiclass::kOneVsRest;
    const plan::Plan q = plan::makePlan(run::resolve(ovr, 1000, 19, K).plan);
    EXPECT_EQ(q.request.jointClasses, 0u);
    EXPECT_EQ(q.request.classes, K);
    EXPECT_NEAR(c.sigma / q.candidates.at(0).sigma, std::sqrt(2.0 / double(K)), 1e-12);
  }
}

TEST(JointPlan, DescribesClassesAndLossAndBinaryPlansAreUnchanged) {
  run::Options o = jointOptions();
  o.seed.reset();
  o.n = 500, o.d = 5, o.classCount = 4;
  Names joint;
  plan::describePlan(run::account(o), joint);
  EXPECT_TRUE(joint.has("multiclass=joint"));
  EXPECT_TRUE(joint.has("multiclassLoss=hinge"));
  EXPECT_TRUE(joint.named("classes"));
  EXPECT_FALSE(joint.named("muClass"));
  o.multiclass = plan::Multiclass::kOneVsRest;
  Names ovr;
  plan::describePlan(run::account(o), ovr);
  EXPECT_TRUE(ovr.has("multiclass=one-vs-rest"));
  EXPECT_TRUE(ovr.named("muClass"));
  o.classCount = 2;  // binary: neither field, whatever multiclass says
  Names binary;
  plan::describePlan(run::account(o), binary);
  EXPECT_FALSE(binary.named("classes"));
  EXPECT_FALSE(binary.named("multiclass"));
  EXPECT_EQ(run::account(o).request.jointClasses, 0u);
}

TEST(JointPlan, RejectsEveryBadValueByName) {
  run::Options o;
  expectBadParameter([&] { run::setOption(o, "multiclass", run::Value::ofText("ovr")); }, "multiclass");
  expectBadParameter([&] { run::setOption(o, "multiclass", run::Value::ofNumber(1)); }, "multiclass");
  expectBadParameter([&] { run::setOption(o, "multiclassLoss", run::Value::ofText("logistic")); }, "multiclassLoss");
  // PrivTune's accounting is not GDP: refused with a joint label too, naming the selector.
  run::Options p = jointOptions();
  p.selector = plan::Selector::kPrivTune;
  expectBadParameter([&] { run::resolve(p, 100, 3, 3); }, "selector");
  // The request's own checks.
  plan::PlanRequest r;
  r.epsilon = 1, r.delta = 1e-5, r.n = 100, r.d = 3, r.jlFailure = 1e-4;
  for (std::uint64_t bad : {1u, 2u, 51u}) {
    r.jointClasses = bad;
    expectBadParameter([&] { plan::makePlan(r); }, "classes");
  }
  r.jointClasses = 3;
  r.classes = 3;  // joint is one mechanism: not also K one-vs-rest problems
  expectBadParameter([&] { plan::makePlan(r); }, "classes");
  // The shard's setup refuses a class count the kernel cannot take.
  std::vector<float> x(4, 0.5f);
  std::vector<std::int8_t> y = {0, 1};
  DataView v;
  v.x = x.data(), v.y = y.data(), v.n = 2, v.width = 2;
  Shard shard(v);
  StepSetup s;
  s.k = 2, s.clipRadius = 1, s.c = Eigen::VectorXd::Constant(1, 0.1), s.classes = 2;
  expectBadParameter([&] { shard.setup(s); }, "classes");
}

// ---- Sensitivity of the production kernel ----

// Replacing one row (features and class) moves the summed K × k gradient by at most
// Δ = 2√2·R/c (Frobenius), for both losses, random weights, rows of norm up to 3R (clipped by
// the shard) and codes of other rows (−1) included — up to the float slack κ of the plan.
TEST(JointSensitivity, ReplacingOneRowMovesTheSummedGradientByAtMostDelta) {
  std::mt19937_64 rng(31);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit(0, 3);
  const double R = 1.0, c = 0.07;
  const double delta = 2 * kSqrt2 * R / c * (1 + accounting::floatSumSlack(300));
  for (plan::JointLoss loss : {plan::JointLoss::kHinge, plan::JointLoss::kSoftmax}) {
    double largest = 0;
    for (int trial = 0; trial < 200; ++trial) {
      const std::size_t n = 40 + trial % 7, k = 3 + trial % 5, K = 3 + trial % 6;
      std::vector<float> x(n * k);
      std::vector<std::int8_t> y(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double scale = unit(rng);
        for (std::size_t t = 0; t < k; ++t) x[i * k + t] = float(scale * normal(rng) / std::sqrt(double(k)));
        y[i] = std::int8_t(std::int64_t(rng() % (K + 1)) - 1);  // −1: a row of no class
      }
      Eigen::MatrixXf w(k, K);
      for (Eigen::Index e = 0; e < w.size(); ++e) w.data()[e] = float(0.05 * normal(rng));
      const Eigen::MatrixXd g = summedGradient(x, y, k, K, w, R, c, loss);
      std::vector<float> x2 = x;
      std::vector<std::int8_t> y2 = y;
      const std::size_t i = rng() % n;
      for (std::size_t t = 0; t < k; ++t) x2[i * k + t] = float(3 * normal(rng));
      y2[i] = std::int8_t(rng() % K);
      const double moved = (summedGradient(x2, y2, k, K, w, R, c, loss) - g).norm();
      largest = std::max(largest, moved);
      ASSERT_LE(moved, delta) << "trial " << trial;
    }
    std::cout << "[ measured ] " << plan::toString(loss) << ": largest move " << largest << " of Δ = " << delta << "\n";
  }
}

// The bound is reached: at W = 0 every row is active with l* = the first other class, and a row
// (z, y) against (−z, y) moves two rows of W by 2z/c each — 2√2·‖z‖/c in all, beyond the binary
// 2R/c (a σ without the √2 would under-noise this neighbour pair). And without clipping (a clip
// radius far above the rows' norms) the move exceeds Δ for the R the plan assumed.
TEST(JointSensitivity, AConstructionReachesTwoSqrtTwoROverCAndFailsWithoutClipping) {
  const std::size_t k = 4, K = 5, n = 3;
  const double R = 1.0, c = 0.1;
  std::vector<float> x = {3, 0, 0, 0, 0, 0.5f, 0, 0, 0, 0, 0.2f, 0};
  std::vector<std::int8_t> y = {0, 2, 4};
  std::vector<float> x2 = x;
  for (std::size_t t = 0; t < k; ++t) x2[t] = -x[t];
  const Eigen::MatrixXf zero = Eigen::MatrixXf::Zero(k, K);
  for (plan::JointLoss loss : {plan::JointLoss::kHinge, plan::JointLoss::kSoftmax}) {
    const double moved = (summedGradient(x2, y, k, K, zero, R, c, loss) - summedGradient(x, y, k, K, zero, R, c, loss)).norm();
    const double bound = 2 * kSqrt2 * R / c;
    if (loss == plan::JointLoss::kHinge) {
      EXPECT_GT(moved, bound * (1 - 1e-5));  // reached (the row is clipped to R(1 − 2⁻²⁰))
    } else {
      // softmax at W = 0: p = 1/K, ‖p − e_y‖ = √(1 − 1/K): 2·√(1 − 1/K)·R/c, still above 2R/c·0.89.
      EXPECT_NEAR(moved, 2 * std::sqrt(1 - 1.0 / K) * R / c, 1e-4 * moved);
    }
    EXPECT_LE(moved, bound * (1 + 1e-6));
    if (loss == plan::JointLoss::kHinge) {
      EXPECT_GT(moved, 2 * R / c * 1.4);  // the binary Δ fails
    }
    // Unclipped (R' = 100 ≫ 3): the row of norm 3 moves the sum by about 3× the bound for R = 1.
    const double unclipped =
        (summedGradient(x2, y, k, K, zero, 100.0, c, loss) - summedGradient(x, y, k, K, zero, 100.0, c, loss)).norm();
    EXPECT_GT(unclipped, bound * 1.5) << plan::toString(loss);
  }
  (void)n;
}

// ---- The noise scale of the production trainer ----

// All-zero rows add no gradient, so after one step W = −η·ξ with ξ ~ N(0, σ² I_{k·K}) and σ from
// Δ = 2√2·R/c at μ_run = μ_train. 20,000 coordinates: the sample variance is within 4.89 sd of σ²
// (two-sided α = 1e-6 per check; 4 checks: ≤ 4e-6 for the test). A σ without the √2 (variance
// ×0.5), or planned per class at μ_train/√K (×K), misses by more than 100 sd.
TEST(JointNoiseStatistics, NoiseSdIsSigmaFromTwoSqrtTwoAtMuTrain) {
  for (std::size_t K : {4u, 10u}) {
    const std::size_t n = 6, k = 20000 / K;
    Dataset data(n, k);
    const std::vector<std::int32_t> codes = {0, 1, 2, 3, 0, 1};
    run::Options o = jointOptions();
    o.selector = plan::Selector::kFixed, o.margin = 0.01, o.maxIterations = 1, o.intercept = false;
    o.rangeShare = 0.0, o.seed = 2026;
    const TrainSettings settings = run::resolve(o, n, k, K);
    OneVsRest t(data, codes.data(), K, settings, run::makeGenerator(settings));
    while (!t.advance(5)) {
    }
    const plan::Plan& p = t.plan();
    const plan::CandidatePlan& c = p.candidates.at(0);
    ASSERT_EQ(c.T, 1u);
    ASSERT_EQ(p.muRun, p.muTrain);
    const double expected = 2 * kSqrt2 * 1.0 / 0.01 * (1 + p.floatSlack) / p.muTrain;
    EXPECT_NEAR(c.sigma, expected, 1e-12 * expected);
    ASSERT_EQ(t.result().problems.size(), 1u);
    const auto& w = t.result().problems[0].weights;
    ASSERT_EQ(w.size(), k * K);
    const Eigen::VectorXd noise = Eigen::Map<const Eigen::VectorXd>(w.data(), Eigen::Index(k * K)) / -c.stepSize;
    const double N = double(k * K);
    const double mean = noise.mean();
    const double variance = (noise.array() - mean).square().sum() / (N - 1);
    EXPECT_NEAR(variance / (expected * expected), 1.0, 4.89 * std::sqrt(2.0 / N)) << "K = " << K;
    EXPECT_NEAR(mean, 0.0, 4.89 * expected / std::sqrt(N)) << "K = " << K;
  }
}

// ---- Learning, shards, errors ----

TEST(JointMulticlass, LearnsSeparableClassesSeeded) {
  for (plan::JointLoss loss : {plan::JointLoss::kHinge, plan::JointLoss::kSoftmax}) {
    const Toy train = makeClusters(3000, 8, 3, 0.3, 1), test = makeClusters(3000, 8, 3, 0.3, 2);
    Dataset data = toDataset(train);
    run::Options o = jointOptions();
    o.multiclassLoss = loss;
    const TrainSettings s = run::resolve(o, train.n, train.d, 3);
    OneVsRest t(data, train.codes.data(), 3, s, run::makeGenerator(s));
    EXPECT_TRUE(t.joint());
    while (!t.advance(50)) {
    }
    const OneVsRestResult& r = t.result();
    ASSERT_EQ(r.problems.size(), 1u);
    ASSERT_EQ(r.problems[0].weights.size(), 3 * data.width());
    Dataset held = toDataset(test, false);
    held.validate(false);
    held.prepare(data.preprocessing());
    const Predictions p = predict(held.view(), r.problems[0].weights, 3);
    std::size_t correct = 0;
    for (std::size_t i = 0; i < test.n; ++i) correct += p.labels[i] == test.codes[i];
    const double accuracy = double(correct) / double(test.n);
    EXPECT_GT(accuracy, 0.9) << plan::toString(loss);
    std::cout << "[ measured ] joint " << plan::toString(loss) << ", 3 classes, n = 3000, d = 8, eps = 1: "
              << accuracy << "\n";
  }
}

TEST(JointMulticlass, ShardDrivenRunEqualsTheLocalRun) {
  const Toy toy = makeClusters(2600, 10, 4, 0.3, 5);
  run::Options o = jointOptions();
  o.selector = plan::Selector::kIter;  // selection too: the multiclass error counts over shards
  o.maxIterations = 60;
  const TrainSettings s = run::resolve(o, toy.n, toy.d, 4);
  Dataset a = toDataset(toy);
  OneVsRest local(a, toy.codes.data(), 4, s, random::Generator::seeded(9));
  while (!local.advance(37)) {
  }
  for (std::size_t shards : {1u, 2u}) {
    Dataset b = toDataset(toy);
    const OneVsRestResult sharded = runSharded(b, toy.codes.data(), 4, s, 9, shards);
    const TrainResult &l = local.result().problems.at(0), &h = sharded.problems.at(0);
    EXPECT_EQ(l.selectedCandidate, h.selectedCandidate);
    ASSERT_EQ(l.runs.size(), h.runs.size());
    for (std::size_t i = 0; i < l.runs.size(); ++i) EXPECT_NEAR(l.runs[i].noisyScore, h.runs[i].noisyScore, 1e-9);
    double scale = 0, diff = 0;
    for (std::size_t e = 0; e < l.weights.size(); ++e) {
      scale = std::max(scale, std::abs(l.weights[e]));
      diff = std::max(diff, std::abs(l.weights[e] - h.weights[e]));
    }
    if (shards == 1) {
      EXPECT_EQ(l.weights, h.weights);  // one shard: bit-identical
    }
    EXPECT_LT(diff / scale, 1e-9) << shards << " shards";
  }
}

TEST(JointMulticlass, ErrorsCountTheRowsWhoseClassIsNotStrictlyHighest) {
  // Rows: e0 (class 0), e1 (class 1), e2 (class 2), e0 (class 1), e1 (no class: −1).
  const std::vector<float> x = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0};
  const std::vector<std::int8_t> y = {0, 1, 2, 1, -1};
  DataView v;
  v.x = x.data(), v.y = y.data(), v.n = 5, v.width = 3;
  Shard shard(v);
  StepSetup s;
  s.k = 3, s.clipRadius = 1, s.c = Eigen::VectorXd::Constant(2, 0.1), s.classes = 3;
  shard.setup(s);
  Eigen::MatrixXd w = Eigen::MatrixXd::Zero(3, 6);  // candidate 0: zero (ties are errors)
  w.block(0, 3, 3, 3) = Eigen::MatrixXd::Identity(3, 3);  // candidate 1: class l scores x_l
  std::uint64_t errors[2] = {99, 99};
  shard.countErrors(w, errors);
  EXPECT_EQ(errors[0], 4u);  // every row of a class (the zero matrix scores n, as ≤ 0 does)
  EXPECT_EQ(errors[1], 1u);  // only row 3 (e0 labelled 1); the row of no class is not counted
}

TEST(JointMulticlass, OneVsRestStaysAvailableAndDiffers) {
  const Toy toy = makeClusters(900, 6, 3, 0.4, 8);
  run::Options o = jointOptions();
  o.multiclass = plan::Multiclass::kOneVsRest;
  const TrainSettings s = run::resolve(o, toy.n, toy.d, 3);
  Dataset data = toDataset(toy);
  OneVsRest t(data, toy.codes.data(), 3, s, run::makeGenerator(s));
  EXPECT_FALSE(t.joint());
  EXPECT_EQ(t.problems(), 3u);
}

}  // namespace dpmargin::learn
