// Multiclass labels trained one-vs-rest under one (ε, δ) (docs/reference/MULTICLASS.md): the plan's
// exact GDP split over the K problems, the one-vs-rest learner (labels per problem, ranges
// estimated once, shard-driven = local, a binary label bit-identical to the Trainer), the
// prediction by argmax, the options' checks and the noise scale per problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"
#include "expect_error.hpp"
#include "synthetic.hpp"

namespace dpmargin::learn {
namespace {

using dpmargin::testing::expectBadParameter;

// K clusters around K orthonormal directions u_k of ℝᵈ (x = u_k + s·N(0, I)): class k against
// the rest is linearly separable with a clear margin after unit-norm rows. Raw (unprepared).
struct Toy {
  std::vector<float> x;
  std::vector<std::int32_t> codes;
  std::size_t n = 0, d = 0;
};
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

TrainSettings settingsFor(std::size_t classes, double epsilon = 1.0, double rangeShare = 0.0,
                          plan::Selector selector = plan::Selector::kIter) {
  run::Options o;
  o.epsilon = epsilon;
  o.delta = 1e-5;
  o.multiclass = plan::Multiclass::kOneVsRest;  // this file: one-vs-rest (the joint learner: joint_multiclass_test.cpp)
  o.selector = selector;
  o.rangeShare = rangeShare;
  o.maxIterations = 80;
  if (selector == plan::Selector::kFixed) o.margin = 0.25;
  if (selector == plan::Selector::kPrivTune) o.expectedRuns = 3;
  return run::resolve(o, 2, 1, classes);  // n and d from the data
}

OneVsRestResult runLocal(Dataset& data, const std::int32_t* codes, std::size_t classes,
                         const TrainSettings& s, std::uint64_t seed) {
  OneVsRest t(data, codes, classes, s, random::Generator::seeded(seed));
  while (!t.advance(23)) {
  }
  return t.result();
}

// Drives a one-vs-rest run with its rows copied into `shards` owning shards, as the workers
// hold them; records the labels every kLabels request sends.
OneVsRestResult runSharded(Dataset& data, const std::int32_t* codes, std::size_t classes,
                           const TrainSettings& s, std::uint64_t seed, std::size_t shards,
                           std::vector<std::vector<std::int8_t>>* labelsSeen = nullptr) {
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
  if (labelsSeen) labelsSeen->emplace_back(rows.y, rows.y + rows.n);
  t.detachRows();
  Eigen::MatrixXd partial;
  std::vector<std::vector<double>> partials;
  std::vector<std::uint64_t> part;
  for (;;) {
    const ShardRequest& r = t.request();
    if (r.kind == ShardRequest::Kind::kDone) break;
    switch (r.kind) {
      case ShardRequest::Kind::kLabels:
        for (std::size_t i = 0; i < shards; ++i) parts[i]->setLabels(r.labels + bounds[i]);
        if (labelsSeen) labelsSeen->emplace_back(r.labels, r.labels + rows.n);
        t.answerLabels();
        break;
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
        part.resize(static_cast<std::size_t>(r.candidates->cols()));
        for (auto& p : parts) {
          p->countErrors(*r.candidates, part.data());
          partials.emplace_back(part.begin(), part.end());
        }
        t.answerErrorPartials(partials);
        break;
      case ShardRequest::Kind::kDone:
        break;
    }
  }
  return t.result();
}

double maxRelativeDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::abs(a[i]));
    diff = std::max(diff, std::abs(a[i] - b[i]));
  }
  return diff / scale;
}

std::vector<double> stacked(const OneVsRestResult& r) {
  std::vector<double> w;
  for (const TrainResult& p : r.problems) w.insert(w.end(), p.weights.begin(), p.weights.end());
  return w;
}

// Names written by a describe*() visitor.
struct NameWriter {
  std::vector<std::string> names;
  void number(const char* k, double) { names.push_back(k); }
  void count(const char* k, std::uint64_t) { names.push_back(k); }
  void boolean(const char* k, bool) { names.push_back(k); }
  void text(const char* k, const char*) { names.push_back(k); }
  void numbers(const char* k, const std::vector<double>&) { names.push_back(k); }
  void numberPairs(const char* k, const std::vector<std::array<double, 2>>&) { names.push_back(k); }
  template <class F>
  void list(const char* k, std::size_t, F&&) { names.push_back(k); }
  template <class F>
  void object(const char* k, F&&) { names.push_back(k); }
  bool has(const std::string& k) const { return std::find(names.begin(), names.end(), k) != names.end(); }
};

plan::PlanRequest request(std::uint64_t classes) {
  plan::PlanRequest r;
  r.epsilon = 1;
  r.delta = 1e-5;
  r.n = 5000;
  r.d = 40;
  r.jlFailure = 1.0 / (5000.0 * 5000.0);
  r.classes = classes;
  return r;
}

}  // namespace

// ---- The plan: μ_train² = K·μ_class², every candidate and score planned from μ_class ----

TEST(MulticlassPlan, SplitsTheTrainingBudgetExactlyInGdp) {
  for (std::uint64_t K : {3u, 4u, 10u, 50u}) {
    for (auto selector : {plan::Selector::kIter, plan::Selector::kFixed}) {
      for (auto calibration : {plan::Calibration::kTight, plan::Calibration::kPaper}) {
        for (double share : {0.0, 0.1}) {
          for (auto pruning : {plan::Pruning::kNone, plan::Pruning::kNoiseFloor}) {
            plan::PlanRequest r = request(K);
            r.selector = selector;
            r.calibration = calibration;
            r.rangeShare = share;
            r.pruning = selector == plan::Selector::kFixed ? plan::Pruning::kNone : pruning;
            if (selector == plan::Selector::kFixed) r.margin = 0.1;
            const plan::Plan p = plan::makePlan(r);
            SCOPED_TRACE("K=" + std::to_string(K) + " " + plan::toString(selector) + " " +
                         plan::toString(calibration) + " share=" + std::to_string(share));
            // √K·μ_class = μ_train, and μ² = μ_ranges² + μ_train².
            EXPECT_NEAR(std::sqrt(double(K)) * p.muClass, p.muTrain, 1e-12 * p.muTrain);
            EXPECT_NEAR(p.muRanges * p.muRanges + p.muTrain * p.muTrain, p.mu * p.mu, 1e-12 * p.mu * p.mu);
            // Each problem: m base runs at μ_run and m scores with sd scoreSd (sensitivity 1).
            const double m = double(p.candidates.size());
            const double perProblem = selector == plan::Selector::kFixed
                                          ? p.muRun * p.muRun
                                          : m * p.muRun * p.muRun + m / (p.scoreSd * p.scoreSd);
            EXPECT_NEAR(perProblem, p.muClass * p.muClass, 1e-12 * p.muClass * p.muClass);
            // The whole run, every mechanism of every problem composed: ≤ the request.
            const double composed = std::sqrt(p.muRanges * p.muRanges + double(K) * perProblem);
            EXPECT_NEAR(composed, p.mu, 1e-12 * p.mu);
            if (calibration == plan::Calibration::kTight) {
              EXPECT_LE(accounting::gdpDelta(r.epsilon, composed), r.delta * (1 + 1e-9));
            } else {
              EXPECT_LE(accounting::paperEpsilonCorollary(composed, r.delta), r.epsilon * (1 + 1e-12));
            }
            EXPECT_LE(p.epsilonSpent, r.epsilon);
            // σ = Δ(1 + κ)√T/μ_run, with μ_run from μ_class.
            for (const auto& c : p.candidates) {
              EXPECT_NEAR(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun,
                          1e-12 * c.sigma);
            }
          }
        }
      }
    }
  }
}

TEST(MulticlassPlan, AProblemOfKClassesIsPlannedAsABinaryRunWithMuClass) {
  // The same candidates as a binary plan whose training budget is μ_class: what "planned from
  // μ_class" means, checked against an independent route (the exact ε of μ_class).
  const plan::Plan multi = plan::makePlan(request(9));
  plan::PlanRequest binary = request(1);
  binary.epsilon = accounting::gdpEpsilon(multi.muClass, binary.delta);
  const plan::Plan one = plan::makePlan(binary);
  EXPECT_NEAR(one.muTrain, multi.muClass, 1e-9 * multi.muClass);
  ASSERT_EQ(one.candidates.size(), multi.candidates.size());
  EXPECT_NEAR(one.muRun, multi.muRun, 1e-9 * multi.muRun);
  EXPECT_NEAR(one.scoreSd, multi.scoreSd, 1e-9 * multi.scoreSd);
  for (std::size_t j = 0; j < one.candidates.size(); ++j) {
    EXPECT_EQ(one.candidates[j].gamma, multi.candidates[j].gamma);
    EXPECT_EQ(one.candidates[j].T, multi.candidates[j].T);
    EXPECT_NEAR(one.candidates[j].sigma, multi.candidates[j].sigma, 1e-9 * multi.candidates[j].sigma);
  }
  // 9 problems: 3× the noise of one problem with the whole budget (μ_class = μ_train/3).
  const plan::Plan whole = plan::makePlan(request(1));
  EXPECT_NEAR(multi.muClass, whole.muTrain / 3, 1e-15);
}

TEST(MulticlassPlan, BinaryPlansAreUnchangedAndDescribeNoClasses) {
  const plan::Plan p = plan::makePlan(request(1));
  EXPECT_EQ(p.muClass, p.muTrain);  // exactly: μ_train/√1
  NameWriter binary, multi;
  plan::describePlan(p, binary);
  plan::describePlan(plan::makePlan(request(3)), multi);
  EXPECT_FALSE(binary.has("classes"));
  EXPECT_FALSE(binary.has("muClass"));
  EXPECT_TRUE(multi.has("classes"));
  EXPECT_TRUE(multi.has("muClass"));
}

TEST(MulticlassPlan, RejectsBadClassesByName) {
  for (std::uint64_t K : {0u, 2u, 51u, 1000u}) {
    expectBadParameter([&] { plan::makePlan(request(K)); }, "classes");
  }
  plan::PlanRequest r = request(3);
  r.selector = plan::Selector::kPrivTune;
  expectBadParameter([&] { plan::makePlan(r); }, "selector");
  // The label's count: 2 → one problem, 3…50 → K; anything else is named.
  EXPECT_EQ(plan::oneVsRestProblems(2), 1u);
  EXPECT_EQ(plan::oneVsRestProblems(3), 3u);
  EXPECT_EQ(plan::oneVsRestProblems(50), 50u);
  for (std::uint64_t K : {0u, 1u, 51u}) expectBadParameter([&] { plan::oneVsRestProblems(K); }, "classes");
}

TEST(MulticlassPlan, TheRunLayerResolvesClassesFromTheDataAndAccountsForThem) {
  run::Options o;
  o.epsilon = 1, o.delta = 1e-5;
  o.multiclass = plan::Multiclass::kOneVsRest;
  EXPECT_EQ(run::resolve(o, 100, 4).plan.classes, 1u);
  EXPECT_EQ(run::resolve(o, 100, 4, 2).plan.classes, 1u);
  EXPECT_EQ(run::resolve(o, 100, 4, 7).plan.classes, 7u);
  for (std::uint64_t K : {0u, 1u, 51u}) expectBadParameter([&] { run::resolve(o, 100, 4, K); }, "classes");
  run::Options p = o;
  p.selector = plan::Selector::kPrivTune;
  expectBadParameter([&] { run::resolve(p, 100, 4, 3); }, "selector");
  EXPECT_EQ(run::resolve(p, 100, 4, 2).plan.classes, 1u);
  // A training option it is not: the data give it.
  run::Options t = o;
  t.classCount = 3;
  expectBadParameter([&] { run::resolve(t, 100, 4); }, "classCount");
  // Data-free plans take it as an option (the label's count; 2 by default).
  run::Options a = o;
  a.n = 1000, a.d = 20;
  EXPECT_EQ(run::account(a).request.classes, 1u);
  a.classCount = 5;
  const plan::Plan five = run::account(a);
  EXPECT_EQ(five.request.classes, 5u);
  EXPECT_NEAR(five.muClass * std::sqrt(5.0), five.muTrain, 1e-12 * five.muTrain);
  for (double bad : {0.0, 1.0, 51.0, 2.5, -3.0}) {
    expectBadParameter([&] {
      run::Options b = a;
      run::setOption(b, "classCount", run::Value::ofNumber(bad));
      run::account(b);
    }, "classCount");
  }
  EXPECT_EQ(run::planForTable(o, 300, 4, 4).request.classes, 4u);
}

// ---- The learner ----

TEST(OneVsRest, LearnsThreeSeparableClassesSeeded) {
  const Toy train = makeClusters(3000, 8, 3, 0.3, 1), test = makeClusters(3000, 8, 3, 0.3, 2);
  Dataset data = toDataset(train);
  const OneVsRestResult r = runLocal(data, train.codes.data(), 3, settingsFor(3, 1.0, 0.1), 7);
  ASSERT_EQ(r.problems.size(), 3u);
  EXPECT_EQ(r.classes, 3u);
  EXPECT_TRUE(r.rangesPrivate);
  EXPECT_TRUE(r.seeded);
  // Score held-out rows with the run's preprocessing and the argmax of the three classifiers.
  Dataset held = toDataset(test, false);
  held.validate(false);
  held.prepare(data.preprocessing());
  const Predictions p = predict(held.view(), stacked(r), 3);
  std::size_t correct = 0;
  for (std::size_t i = 0; i < test.n; ++i) correct += p.labels[i] == test.codes[i];
  const double accuracy = double(correct) / double(test.n);
  // The generating directions themselves (argmax_k x_k, not private): the toy's ceiling.
  std::size_t ideal = 0;
  for (std::size_t i = 0; i < test.n; ++i) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < 3; ++k) best = test.x[i * test.d + k] > test.x[i * test.d + best] ? k : best;
    ideal += std::int32_t(best) == test.codes[i];
  }
  const double ceiling = double(ideal) / double(test.n);
  EXPECT_GT(accuracy, 0.9) << accuracy;
  EXPECT_GT(accuracy, ceiling - 0.05) << accuracy << " vs " << ceiling;
  std::cout << "[ measured ] one-vs-rest, 3 classes, n = 3000, d = 8, eps = 1: held-out accuracy "
            << accuracy << " (generating directions: " << ceiling << ")\n";
}

TEST(OneVsRest, EachProblemHasItsLabelsAndOutOfRangeCodesAreNegativeEverywhere) {
  Toy toy = makeClusters(600, 6, 3, 0.3, 3);
  toy.codes[5] = -1;
  toy.codes[17] = 3;    // == K: outside 0…K−1
  toy.codes[40] = 1000;
  Dataset data = toDataset(toy);
  std::vector<std::vector<std::int8_t>> labels;
  (void)runSharded(data, toy.codes.data(), 3, settingsFor(3), 11, 2, &labels);
  ASSERT_EQ(labels.size(), 3u);  // the first problem's with the rows, then two switches
  for (std::size_t k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < toy.n; ++i) {
      const bool positive = toy.codes[i] == std::int32_t(k);
      EXPECT_EQ(labels[k][i], positive ? 1 : -1) << "problem " << k << " row " << i;
    }
    for (std::size_t i : {5u, 17u, 40u}) EXPECT_EQ(labels[k][i], -1);
  }
}

TEST(OneVsRest, PrivateRangesAreEstimatedOnceWithMuRanges) {
  const Toy toy = makeClusters(1500, 6, 4, 0.4, 4);
  Dataset multi = toDataset(toy);
  const TrainSettings s = settingsFor(4, 1.0, 0.2);
  OneVsRest t(multi, toy.codes.data(), 4, s, random::Generator::seeded(21));
  const plan::Plan& p = t.plan();
  ASSERT_GT(p.muRanges, 0.0);
  // Spent once: μ² = μ_ranges² + K·μ_class² (not K·μ_ranges²).
  EXPECT_NEAR(p.muRanges * p.muRanges + 4 * p.muClass * p.muClass, p.mu * p.mu, 1e-12 * p.mu * p.mu);
  while (!t.advance(50)) {
  }
  const OneVsRestResult& r = t.result();
  // The ranges are those a binary run draws first from the same stream with the same μ_ranges
  // (μ_ranges does not depend on K): estimated once, before any problem, and used by all.
  Dataset binary = toDataset(toy);
  for (std::size_t i = 0; i < toy.n; ++i) binary.labels()[i] = toy.codes[i] == 0 ? 1 : -1;
  TrainSettings bs = settingsFor(2, 1.0, 0.2);
  Trainer reference(binary, bs, random::Generator::seeded(21));
  EXPECT_EQ(reference.plan().muRanges, p.muRanges);
  ASSERT_EQ(r.ranges.size(), 6u);
  EXPECT_TRUE(r.rangesPrivate);
  for (std::size_t j = 0; j < 6; ++j) {
    EXPECT_EQ(r.ranges[j].lo, binary.preprocessing().ranges[j].lo);
    EXPECT_EQ(r.ranges[j].hi, binary.preprocessing().ranges[j].hi);
  }
  for (const TrainResult& problem : r.problems) {
    EXPECT_TRUE(problem.rangesPrivate);
    ASSERT_EQ(problem.ranges.size(), 6u);
    for (std::size_t j = 0; j < 6; ++j) EXPECT_EQ(problem.ranges[j].lo, r.ranges[j].lo);
  }
}

TEST(OneVsRest, ShardDrivenRunEqualsTheLocalRun) {
  const Toy toy = makeClusters(2600, 10, 3, 0.3, 5);
  for (std::size_t shards : {1u, 2u}) {
    Dataset a = toDataset(toy), b = toDataset(toy);
    const TrainSettings s = settingsFor(3, 1.0, 0.1);
    const OneVsRestResult local = runLocal(a, toy.codes.data(), 3, s, 9);
    const OneVsRestResult sharded = runSharded(b, toy.codes.data(), 3, s, 9, shards);
    ASSERT_EQ(local.problems.size(), sharded.problems.size());
    for (std::size_t k = 0; k < local.problems.size(); ++k) {
      const TrainResult &l = local.problems[k], &h = sharded.problems[k];
      EXPECT_EQ(l.selectedCandidate, h.selectedCandidate);
      ASSERT_EQ(l.runs.size(), h.runs.size());
      for (std::size_t i = 0; i < l.runs.size(); ++i) {
        if (shards == 1) {
          EXPECT_EQ(l.runs[i].noisyScore, h.runs[i].noisyScore);
        } else {
          EXPECT_NEAR(l.runs[i].noisyScore, h.runs[i].noisyScore, 1e-9);
        }
      }
      if (shards == 1) {
        EXPECT_EQ(l.weights, h.weights);  // one shard: bit-identical
      } else {
        EXPECT_LT(maxRelativeDifference(l.weights, h.weights), 1e-9);
      }
    }
    EXPECT_EQ(local.ranges.size(), sharded.ranges.size());
  }
}

TEST(OneVsRest, ABinaryLabelIsExactlyTheTrainersRun) {
  const auto synthetic = testing::makeSeparable(900, 20, 0.1, 9, 77);
  for (auto selector : {plan::Selector::kIter, plan::Selector::kPrivTune, plan::Selector::kFixed}) {
    const TrainSettings s = settingsFor(2, 1.0, selector == plan::Selector::kPrivTune ? 0.0 : 0.1, selector);
    auto raw = [&] {
      Dataset d(synthetic.n, synthetic.d);
      for (std::size_t i = 0; i < synthetic.n; ++i) {
        for (std::size_t j = 0; j < synthetic.d; ++j) d.rowMajor()[i * d.stride() + j] = synthetic.x[i * synthetic.d + j];
        d.labels()[i] = synthetic.y[i];
      }
      return d;
    };
    Dataset a = raw(), b = raw(), c = raw();
    Trainer trainer(a, s, random::Generator::seeded(42));
    while (!trainer.advance(17)) {
    }
    const TrainResult& expected = trainer.result();
    const OneVsRestResult viaLabels = runLocal(b, nullptr, 2, s, 42);
    // Codes with K = 2: code 1 is the positive class.
    std::vector<std::int32_t> codes(synthetic.n);
    for (std::size_t i = 0; i < synthetic.n; ++i) codes[i] = synthetic.y[i] > 0 ? 1 : 0;
    const OneVsRestResult viaCodes = runLocal(c, codes.data(), 2, s, 42);
    for (const OneVsRestResult* r : {&viaLabels, &viaCodes}) {
      ASSERT_EQ(r->problems.size(), 1u);
      const TrainResult& got = r->problems[0];
      EXPECT_EQ(got.weights, expected.weights) << plan::toString(selector);
      EXPECT_EQ(got.selectedCandidate, expected.selectedCandidate);
      ASSERT_EQ(got.runs.size(), expected.runs.size());
      for (std::size_t i = 0; i < got.runs.size(); ++i) {
        EXPECT_EQ(got.runs[i].candidate, expected.runs[i].candidate);
        if (selector != plan::Selector::kFixed) {
          EXPECT_EQ(got.runs[i].noisyScore, expected.runs[i].noisyScore);
        }
      }
      EXPECT_EQ(r->plan.muRun, expected.plan.muRun);
      EXPECT_EQ(r->plan.request.classes, 1u);
    }
  }
}

TEST(OneVsRest, ProgressCountsEveryProblem) {
  const Toy toy = makeClusters(400, 5, 3, 0.3, 6);
  Dataset data = toDataset(toy);
  OneVsRest t(data, toy.codes.data(), 3, settingsFor(3), random::Generator::seeded(2));
  const Progress start = t.progress();
  EXPECT_EQ(start.problem, 0u);
  EXPECT_EQ(start.problems, 3u);
  EXPECT_EQ(start.workDone, 0.0);
  double planned = 0;
  for (const auto& c : t.plan().candidates) planned += double(c.T);
  EXPECT_EQ(start.workTotal, 3 * planned);
  double last = 0;
  std::size_t problem = 0;
  while (!t.advance(7)) {
    const Progress p = t.progress();
    EXPECT_GE(p.workDone, last);
    EXPECT_GE(p.problem, problem);
    EXPECT_EQ(p.workTotal, 3 * planned);
    last = p.workDone;
    problem = p.problem;
  }
  const Progress end = t.progress();
  EXPECT_TRUE(end.done);
  EXPECT_EQ(end.problem, 2u);
  EXPECT_EQ(end.workDone, end.workTotal);
  EXPECT_EQ(problem, 2u);
}

TEST(OneVsRest, RejectsBadClassesCodesAndOrder) {
  const Toy toy = makeClusters(60, 4, 3, 0.3, 8);
  const TrainSettings s = settingsFor(3);
  for (std::size_t K : {0u, 1u, 51u}) {
    Dataset d = toDataset(toy);
    expectBadParameter([&] { OneVsRest(d, toy.codes.data(), K, s, random::Generator::seeded(1)); }, "classes");
  }
  {
    Dataset d = toDataset(toy);
    expectBadParameter([&] { OneVsRest(d, nullptr, 3, s, random::Generator::seeded(1)); }, "classes");
  }
  // One class only (or only codes outside the classes): ONE_CLASS, as a binary label.
  for (std::int32_t only : {0, 2, -1}) {
    Dataset d = toDataset(toy);
    const std::vector<std::int32_t> same(toy.n, only);
    try {
      OneVsRest(d, same.data(), 3, s, random::Generator::seeded(1));
      ADD_FAILURE() << "accepted one class";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kOneClass) << e.what();
    }
  }
  // A class with no row is fine (its problem trains on negatives only).
  {
    Dataset d = toDataset(toy);
    std::vector<std::int32_t> noTwo = toy.codes;
    for (auto& c : noTwo) c = c == 2 ? 1 : c;
    const OneVsRestResult r = runLocal(d, noTwo.data(), 3, s, 3);
    EXPECT_EQ(r.problems.size(), 3u);
  }
  // Non-finite values are still named.
  {
    Dataset d = toDataset(toy);
    d.rowMajor()[3 * d.stride() + 1] = NAN;
    try {
      OneVsRest(d, toy.codes.data(), 3, s, random::Generator::seeded(1));
      ADD_FAILURE() << "accepted NaN";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kNonFinite) << e.what();
    }
  }
  // Answers out of order are internal errors; a label switch must be answered first.
  Dataset d = toDataset(toy);
  OneVsRest t(d, toy.codes.data(), 3, s, random::Generator::seeded(1));
  EXPECT_THROW(t.answerLabels(), Error);
  EXPECT_THROW(t.result(), Error);
  t.detachRows();
  EXPECT_THROW(t.advance(1), Error);
}

// ---- Prediction: ⟨w_k, x⟩ per class, the class = argmax ----

TEST(OneVsRestPredict, ScoresPerClassAndArgmax) {
  const float x[] = {1, 0, 0, 1, 0.5f, 0.5f, 0, 0};
  const std::int8_t y[] = {1, 1, 1, 1};
  const DataView rows{x, 4, 2, y};
  // Three classes: w_0 = (1, 0), w_1 = (0, 1), w_2 = (0.4, 0.4).
  const std::vector<double> w = {1, 0, 0, 1, 0.4, 0.4};
  const Predictions p = predict(rows, w, 3);
  ASSERT_EQ(p.scores.size(), 12u);
  EXPECT_EQ(p.scores[0 * 3 + 0], 1.0);
  EXPECT_EQ(p.scores[1 * 3 + 1], 1.0);
  EXPECT_NEAR(p.scores[2 * 3 + 2], 0.4, 1e-7);
  EXPECT_EQ(p.labels, (std::vector<std::int32_t>{0, 1, 0, 0}));  // ties: the first class
  // One problem: exactly decisionScores, labels ±1.
  const std::vector<double> one = {1, -2};
  const Predictions b = predict(rows, one, 1);
  EXPECT_EQ(b.scores, decisionScores(rows, one));
  EXPECT_EQ(b.labels, (std::vector<std::int32_t>{1, -1, -1, -1}));
  expectBadParameter([&] { predict(rows, w, 2); }, "weights");
  expectBadParameter([&] { predict(rows, w, 0); }, "weights");
}

// ---- The noise scale of each problem's run ----

// One step of the production path (OneVsRest → Trainer, selector "fixed", T = 1) on rows that
// contribute no gradient (x = 0): problem k's weights are −η ξ_k with ξ_k ~ N(0, σ² I), σ from
// the plan with μ_run = μ_class = μ_train/√3. Per problem (k = 20,000 coordinates) the sample
// variance is σ²(1 ± z·√(2/k)) and the mean 0 ± z·σ/√k; z = 4.89 gives each of the 6 checks a
// two-sided false-failure rate of 1e-6 (≤ 6e-6 for the test, union bound). A run whose noise
// were planned from μ_train instead (√3 smaller σ) fails the variance checks by ~200 sd.
TEST(MulticlassNoiseStatistics, EachProblemsNoiseSdIsSigmaFromMuClass) {
  const std::size_t n = 6, k = 20000, K = 3;
  Dataset data(n, k);
  const std::vector<std::int32_t> codes = {0, 1, 2, 0, 1, 2};
  run::Options o;
  o.epsilon = 1, o.delta = 1e-5, o.selector = plan::Selector::kFixed, o.margin = 0.01;
  o.multiclass = plan::Multiclass::kOneVsRest;
  o.maxIterations = 1, o.output = OutputIterate::kLast, o.intercept = false, o.seed = 2025;
  o.rangeShare = 0.0;
  const TrainSettings settings = run::resolve(o, n, k, K);
  OneVsRest t(data, codes.data(), K, settings, run::makeGenerator(settings));
  while (!t.advance(5)) {
  }
  const plan::Plan& p = t.plan();
  const plan::CandidatePlan& c = p.candidates.at(0);
  ASSERT_FALSE(c.projected);
  ASSERT_EQ(c.T, 1u);
  EXPECT_NEAR(p.muRun, p.muTrain / std::sqrt(3.0), 1e-15);
  EXPECT_NEAR(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun, 1e-12 * c.sigma);
  for (std::size_t problem = 0; problem < K; ++problem) {
    const auto& w = t.result().problems[problem].weights;
    const Eigen::VectorXd noise = Eigen::Map<const Eigen::VectorXd>(w.data(), Eigen::Index(k)) / -c.stepSize;
    const double mean = noise.mean();
    const double variance = (noise.array() - mean).square().sum() / double(k - 1);
    EXPECT_NEAR(variance / (c.sigma * c.sigma), 1.0, 4.89 * std::sqrt(2.0 / k)) << "problem " << problem;
    EXPECT_NEAR(mean, 0.0, 4.89 * c.sigma / std::sqrt(double(k))) << "problem " << problem;
  }
  // The problems' noises are independent draws of one stream (not one draw reused).
  EXPECT_NE(t.result().problems[0].weights, t.result().problems[1].weights);
}

}  // namespace dpmargin::learn
