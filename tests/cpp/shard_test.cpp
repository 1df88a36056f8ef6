// The coordinator/shard split of the trainer (docs/reference/SHARDING.md): driving the trainer through
// request()/answer*() with rows split over shards gives the run of advance() — bit-identical
// with one shard, equal up to the order of double additions with several.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "dpmargin/error.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "synthetic.hpp"

using namespace dpmargin;
using namespace dpmargin::learn;
using dpmargin::testing::makeSeparable;
using dpmargin::testing::toDataset;

namespace {

// The core's defaults (run::resolve) on prepared data (so no private ranges).
TrainSettings options(double epsilon, plan::Selector selector = plan::Selector::kIter) {
  run::Options o;
  o.epsilon = epsilon;
  o.delta = 1e-5;
  o.selector = selector;
  o.maxIterations = 60;
  o.rangeShare = 0.0;
  if (selector == plan::Selector::kFixed) o.margin = 0.1;
  if (selector == plan::Selector::kPrivTune) o.expectedRuns = 3;
  return run::resolve(o, 2, 1);  // n and d from the data
}

TrainResult runLocal(Dataset& data, const TrainSettings& o, std::uint64_t seed) {
  Trainer t(data, o, random::Generator::seeded(seed));
  while (!t.advance(17)) {
  }
  return t.result();
}

// Copies the prepared rows into owning shards (as the workers get them), frees nothing, then
// drives the trainer with sums over the shards only.
TrainResult runSharded(Dataset& data, const TrainSettings& o, std::uint64_t seed, std::size_t shards,
                       std::size_t* requests = nullptr) {
  Trainer t(data, o, random::Generator::seeded(seed));
  const DataView rows = t.data();
  const std::vector<std::size_t> bounds = shardBounds(rows.n, shards);
  std::vector<std::unique_ptr<Shard>> parts;
  for (std::size_t s = 0; s < shards; ++s) {
    const std::size_t n = bounds[s + 1] - bounds[s];
    auto shard = std::make_unique<Shard>(n, rows.width);
    std::copy(rows.x + bounds[s] * rows.width, rows.x + bounds[s + 1] * rows.width, shard->rowMajor());
    std::copy(rows.y + bounds[s], rows.y + bounds[s + 1], shard->labels());
    parts.push_back(std::move(shard));
  }
  t.detachRows();
  Eigen::MatrixXd partial;
  std::vector<std::vector<double>> partials;
  std::vector<std::uint64_t> part;
  std::size_t count = 0;
  for (;;) {
    const ShardRequest& r = t.request();
    ++count;
    if (r.kind == ShardRequest::Kind::kDone) break;
    switch (r.kind) {
      case ShardRequest::Kind::kSetup:
        for (auto& s : parts) s->setup(*r.setup);
        t.answerSetup();
        break;
      case ShardRequest::Kind::kGradients:  // partial sums reduced by the core, in shard order
        partials.clear();
        for (auto& s : parts) {
          s->gradients(*r.weights, partial);
          partials.emplace_back(partial.data(), partial.data() + partial.size());
        }
        t.answerGradientPartials(partials);
        break;
      case ShardRequest::Kind::kErrors:
        partials.clear();
        part.resize(static_cast<std::size_t>(r.candidates->cols()));
        for (auto& s : parts) {
          s->countErrors(*r.candidates, part.data());
          partials.emplace_back(part.begin(), part.end());
        }
        t.answerErrorPartials(partials);
        break;
      case ShardRequest::Kind::kDone:
        break;
      case ShardRequest::Kind::kLabels:  // one-vs-rest only (multiclass_test.cpp)
        ADD_FAILURE() << "a trainer asked for labels";
        break;
    }
  }
  if (requests) *requests = count;
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

}  // namespace

TEST(ShardBounds, ContiguousAlignedAndCovering) {
  EXPECT_EQ(shardBounds(34910, 2), (std::vector<std::size_t>{0, 17408, 34910}));
  EXPECT_EQ(shardBounds(12000, 2), (std::vector<std::size_t>{0, 6144, 12000}));
  EXPECT_EQ(shardBounds(1000, 2), (std::vector<std::size_t>{0, 512, 1000}));   // 128-aligned
  EXPECT_EQ(shardBounds(300, 2), (std::vector<std::size_t>{0, 150, 300}));     // too small to align
  EXPECT_EQ(shardBounds(2, 2), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(shardBounds(7, 1), (std::vector<std::size_t>{0, 7}));
  EXPECT_THROW(shardBounds(1, 2), Error);
  EXPECT_THROW(shardBounds(5, 0), Error);
}

// One shard holding a copy of every row: exactly the run of advance().
TEST(Sharding, OneShardIsBitIdenticalToAdvance) {
  const auto synthetic = makeSeparable(900, 30, 0.1, 9, 77);
  for (plan::Selector selector :
       {plan::Selector::kIter, plan::Selector::kPrivTune, plan::Selector::kFixed}) {
    Dataset a = toDataset(synthetic, true), b = toDataset(synthetic, true);
    const TrainResult local = runLocal(a, options(1.0, selector), 42);
    const TrainResult sharded = runSharded(b, options(1.0, selector), 42, 1);
    EXPECT_EQ(local.weights, sharded.weights);
    EXPECT_EQ(local.selectedCandidate, sharded.selectedCandidate);
    ASSERT_EQ(local.runs.size(), sharded.runs.size());
    for (std::size_t i = 0; i < local.runs.size(); ++i) {
      EXPECT_EQ(local.runs[i].candidate, sharded.runs[i].candidate);
      if (selector != plan::Selector::kFixed) {
        EXPECT_EQ(local.runs[i].noisyScore, sharded.runs[i].noisyScore);
      }
    }
  }
}

// Two and three shards: the same selection and noisy scores (error counts are exact sums; the
// noise is drawn in the same order), weights equal up to the order of double additions of the
// partial gradient sums (aligned shards: the float block sums are identical).
TEST(Sharding, SeveralShardsMatchOneUpToSummationOrder) {
  const auto synthetic = makeSeparable(2600, 40, 0.1, 26, 5);
  for (std::size_t shards : {2u, 3u}) {
    Dataset a = toDataset(synthetic, true), b = toDataset(synthetic, true);
    const TrainResult local = runLocal(a, options(1.0), 9);
    const TrainResult sharded = runSharded(b, options(1.0), 9, shards);
    EXPECT_EQ(local.selectedCandidate, sharded.selectedCandidate);
    ASSERT_EQ(local.runs.size(), sharded.runs.size());
    for (std::size_t i = 0; i < local.runs.size(); ++i) {
      EXPECT_NEAR(local.runs[i].noisyScore, sharded.runs[i].noisyScore, 1e-9);
    }
    EXPECT_LT(maxRelativeDifference(local.weights, sharded.weights), 1e-9);
  }
}

// Projected candidates: Φ is drawn once by the coordinator and sent to every shard; each shard
// projects and clips its own rows.
TEST(Sharding, ProjectedCandidatesShardTheSameWay) {
  const auto synthetic = makeSeparable(300, 2500, 0.02, 0, 21);
  Dataset a = toDataset(synthetic), b = toDataset(synthetic);
  const TrainSettings o = options(4.0);
  const TrainResult local = runLocal(a, o, 3);
  std::size_t requests = 0;
  const TrainResult sharded = runSharded(b, o, 3, 2, &requests);
  bool projected = false;
  for (const auto& c : local.plan.candidates) projected |= c.projected;
  ASSERT_TRUE(projected);
  EXPECT_EQ(local.selectedCandidate, sharded.selectedCandidate);
  EXPECT_LT(maxRelativeDifference(local.weights, sharded.weights), 1e-5);
  EXPECT_GT(requests, 60u);
}

TEST(Sharding, ShardsSumToTheWholeTable) {
  const auto synthetic = makeSeparable(700, 12, 0.1, 7, 3);
  Dataset data = toDataset(synthetic, true);
  const DataView all = data.view();
  Shard whole(all);
  // Split at 256 (a multiple of the kernels' 128-row float blocks): equal up to double rounding.
  Shard first(DataView{all.x, 256, all.width, all.y});
  Shard second(DataView{all.x + 256 * all.width, 444, all.width, all.y + 256});
  // Split at 300: the float block sums differ, ~1e-7 relative.
  Shard third(DataView{all.x, 300, all.width, all.y});
  Shard fourth(DataView{all.x + 300 * all.width, 400, all.width, all.y + 300});
  StepSetup setup;
  setup.k = all.width;
  setup.clipRadius = 2.0;
  setup.c = Eigen::VectorXd::Constant(3, 0.05);
  for (Shard* s : {&whole, &first, &second, &third, &fourth}) s->setup(setup);
  Eigen::MatrixXf w = Eigen::MatrixXf::Random(static_cast<Eigen::Index>(all.width), 3);
  Eigen::MatrixXd g, g1, g2, g3, g4;
  whole.gradients(w, g);
  first.gradients(w, g1);
  second.gradients(w, g2);
  third.gradients(w, g3);
  fourth.gradients(w, g4);
  EXPECT_LT((g - (g1 + g2)).norm(), 1e-13 * g.norm());
  EXPECT_LT((g - (g3 + g4)).norm(), 1e-6 * g.norm());
  std::uint64_t e[3], e1[3], e2[3];
  const Eigen::MatrixXd wd = w.cast<double>();
  whole.countErrors(wd, e);
  first.countErrors(wd, e1);
  second.countErrors(wd, e2);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(e[j], e1[j] + e2[j]);
    const std::vector<double> col(wd.col(j).data(), wd.col(j).data() + wd.rows());
    EXPECT_EQ(e[j], countErrors(all, col));
  }
}

TEST(Sharding, OutOfOrderAnswersAndDetachedAdvanceAreInternalErrors) {
  const auto synthetic = makeSeparable(200, 5, 0.1, 0, 1);
  Dataset data = toDataset(synthetic);
  Trainer t(data, options(1.0), random::Generator::seeded(1));
  EXPECT_EQ(t.request().kind, ShardRequest::Kind::kSetup);
  EXPECT_THROW(t.answerGradients(Eigen::MatrixXd::Zero(5, 1)), Error);
  EXPECT_THROW(t.answerErrors({0}), Error);
  t.answerSetup();
  EXPECT_EQ(t.request().kind, ShardRequest::Kind::kGradients);
  EXPECT_THROW(t.answerGradients(Eigen::MatrixXd::Zero(1, 1)), Error);  // wrong shape
  t.detachRows();
  EXPECT_THROW(t.advance(1), Error);
  Shard empty(DataView{});
  StepSetup setup;
  setup.k = 1;
  setup.c = Eigen::VectorXd::Ones(1);
  EXPECT_THROW(empty.setup(setup), Error);
}
