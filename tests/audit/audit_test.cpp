// Empirical privacy audit (issue 16 item 2; docs/reference/AUDIT.md). Every mechanism runs through the
// production entry points — run::resolve(options, n, features) → learn::TrainSettings →
// learn::OneVsRest (the coordinator the bindings and the CLI drive) or run::CsvRun — with the
// production CSPRNG (run::makeGenerator: Generator::secure()), driven as production drives it:
// advance() on the local table, or the request()/answer*() loop over two row shards that
// wasm/src/shards/sharded.ts runs in workers. σ, the clip radius and the score noise are the
// plan's (made by the coordinator, or by plan::makePlan once for the audits of 10⁵ runs —
// PlannedRun); the audit reads its statistic off the RELEASED result (weights, noisy scores,
// column ranges, discovered levels) only.
//
// For each mechanism, two neighbouring datasets D and D′ differ in one canary row; many runs on
// each give a scalar statistic; a threshold test is chosen on a first set of runs and evaluated
// on fresh ones; a 95% Clopper–Pearson lower bound on ε at the claimed δ must not exceed the
// claimed ε ((d) and (e): a lower bound on μ against the plan's μ-GDP claim). Deliberately
// broken variants of the same production code (testing/faults.hpp, compiled into this binary
// only) must exceed it: the audit can fail.
//
// Fast tier (ctest label audit): the run counts below (per side). Slow tier:
// DPMARGIN_AUDIT_SCALE=10 (10× every count; docs/reference/AUDIT.md has both tiers' numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <string>

#include "audit_stats.hpp"
#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/learn/ranges.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/run/run.hpp"
#include "dpmargin/testing/faults.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/learn/trainer.hpp"
#include <functional>

namespace dpmargin::audit {
namespace {

constexpr double kDelta = 1e-5;

int scale() {
  const char* s = std::getenv("DPMARGIN_AUDIT_SCALE");
  return s ? std::max(1, std::atoi(s)) : 1;
}

// Runs per side: `select` choose the test, `evaluate` (fresh) bound it.
struct Runs {
  int select, evaluate;
};
// `gaussian`: the statistic is close to Gaussian on both sides (runAudit may look for the
// threshold beyond the selection runs' tails).
AuditResult audit(const std::function<double(bool)>& sample, Runs runs,
                  Objective objective = Objective::kEpsilon, bool gaussian = false) {
  return runAudit(sample, runs.select * scale(), runs.evaluate * scale(), kDelta, objective, gaussian);
}
AuditResult auditGaussian(const std::function<double(bool)>& sample, Runs runs) {
  return audit(sample, runs, Objective::kEpsilon, true);
}
// Honest variants and broken ones (more evaluation runs: their own false-failure rate,
// docs/reference/AUDIT.md).
constexpr Runs kHonest{5000, 30000}, kBroken{10000, 100000};
constexpr Runs kFixedBroken{10000, 200000};  // (a), (g): ~10 µs a run

// The broken variants: set for one audit, reset afterwards.
struct FaultScope {
  explicit FaultScope(const testing::Faults& f) { testing::auditFaults = f; }
  ~FaultScope() { testing::auditFaults = testing::Faults{}; }
};

void report(const std::string& name, const AuditResult& r, double claimed) {
  ::testing::Test::RecordProperty(name + "_epsilon_lb", std::to_string(r.epsilonLowerBound));
  std::printf("[audit] %-44s eps_lb = %.3f (claimed %.3f)  mu_lb = %.3f  TPR = %.5f FPR = %.5f\n",
              name.c_str(), r.epsilonLowerBound, claimed, r.muLowerBound, r.tpr, r.fpr);
  std::fflush(stdout);
}

void reportMu(const std::string& name, const AuditResult& r, double claimedMu) {
  ::testing::Test::RecordProperty(name + "_mu_lb", std::to_string(r.muLowerBound));
  std::printf("[audit] %-44s  mu_lb = %.3f (claimed mu %.3f)  eps_lb = %.3f  TPR = %.5f FPR = %.5f\n",
              name.c_str(), r.muLowerBound, claimedMu, r.epsilonLowerBound, r.tpr, r.fpr);
  std::fflush(stdout);
}

// ---- production driving ----

// Runs `t` (a learn::OneVsRest or a learn::Trainer) to the end as production does:
// shards == 0: advance() on the local table (the CLI, the bindings' one-worker path);
// shards ≥ 1: the prepared rows copied into that many owning shards at learn::shardBounds, the
// coordinator detached from them, and its requests answered shard by shard, the partial sums
// reduced by the coordinator (wasm/src/shards/sharded.ts, natively).
template <class Coordinator>
void train(Coordinator& t, std::size_t shards) {
  if (shards == 0) {
    while (!t.advance(1000)) {
    }
    return;
  }
  const learn::DataView rows = t.data();
  const std::vector<std::size_t> bounds = learn::shardBounds(rows.n, shards);
  std::vector<std::unique_ptr<learn::Shard>> s;
  for (std::size_t i = 0; i < shards; ++i) {
    const std::size_t count = bounds[i + 1] - bounds[i];
    s.push_back(std::make_unique<learn::Shard>(count, rows.width));
    std::copy(rows.x + bounds[i] * rows.width, rows.x + bounds[i + 1] * rows.width, s.back()->rowMajor());
    std::copy(rows.y + bounds[i], rows.y + bounds[i + 1], s.back()->labels());
  }
  t.detachRows();
  std::vector<std::vector<double>> partials(shards);
  Eigen::MatrixXd sum;
  std::vector<std::uint64_t> counts;
  for (;;) {
    const learn::ShardRequest& r = t.request();
    switch (r.kind) {
      case learn::ShardRequest::Kind::kDone:
        return;
      case learn::ShardRequest::Kind::kLabels:
        if constexpr (std::is_same_v<Coordinator, learn::OneVsRest>) {
          for (std::size_t i = 0; i < shards; ++i) s[i]->setLabels(r.labels + bounds[i]);
          t.answerLabels();
          break;
        }
        throw std::logic_error("a label request from a binary run");
      case learn::ShardRequest::Kind::kSetup:
        for (auto& shard : s) shard->setup(*r.setup);
        t.answerSetup();
        break;
      case learn::ShardRequest::Kind::kGradients:
        for (std::size_t i = 0; i < shards; ++i) {
          s[i]->gradients(*r.weights, sum);
          partials[i].assign(sum.data(), sum.data() + sum.size());
        }
        t.answerGradientPartials(partials);
        break;
      case learn::ShardRequest::Kind::kErrors:
        // One count per candidate (a joint multiclass step has K weight columns per candidate).
        counts.resize(static_cast<std::size_t>(r.candidates->cols()) / std::max<std::size_t>(s[0]->classes(), 1));
        for (std::size_t i = 0; i < shards; ++i) {
          s[i]->countErrors(*r.candidates, counts.data());
          partials[i].assign(counts.begin(), counts.end());
        }
        t.answerErrorPartials(partials);
        break;
    }
  }
}

// One private training run of `data` (raw rows, prepared in place by the run: a copy is passed
// so that every run starts from the raw table) with `options`, as the API's train() runs it:
// the options resolved for the table, the CSPRNG, a binary label through learn::OneVsRest,
// which makes its own plan. Returns the released binary result.
learn::TrainResult trainOnce(learn::Dataset data, const run::Options& options, std::size_t shards) {
  const learn::TrainSettings settings = run::resolve(options, data.rows(), data.features());
  learn::OneVsRest t(data, nullptr, 2, settings, run::makeGenerator(settings));
  train(t, shards);
  if (t.result().problems.size() != 1) throw std::logic_error("not one binary problem");
  return t.result().problems[0];
}

// The same run for audits of 10⁵–10⁶ runs, where making the plan (≈ 0.1 ms: μ's root search)
// would cost more than training: the coordinator OneVsRest runs for a binary label — a
// learn::Trainer, "exactly the Trainer's run (same draws, same result)" — given the plan that
// plan::makePlan made once for these settings (the trainer refuses any plan but its settings').
class PlannedRun {
 public:
  // `adjust` may change the resolved request before planning (the trainer then plans the same):
  // (i) uses it to put auto's selection switch on for a small audit table.
  PlannedRun(const run::Options& options, std::size_t n, std::size_t features,
             const std::function<void(plan::PlanRequest&)>& adjust = {})
      : settings_(adjusted(run::resolve(options, n, features), adjust)),
        plan_(plan::makePlan(planRequest(n, features))) {}
  learn::TrainResult operator()(learn::Dataset data, std::size_t shards) const {
    learn::Trainer t(data, settings_, run::makeGenerator(settings_), plan_);
    train(t, shards);
    return t.result();
  }
  const plan::Plan& plan() const { return plan_; }

 private:
  static learn::TrainSettings adjusted(learn::TrainSettings s,
                                       const std::function<void(plan::PlanRequest&)>& adjust) {
    if (adjust) adjust(s.plan);
    return s;
  }
  plan::PlanRequest planRequest(std::size_t n, std::size_t features) const {
    plan::PlanRequest r = settings_.plan;  // n and d as the trainer sets them from the table
    r.n = n;
    r.d = features + (settings_.preprocessing.intercept ? 1 : 0);
    return r;
  }
  learn::TrainSettings settings_;
  plan::Plan plan_;
};

// Options of every audited training run: the budget, nothing else the package would not default
// except where a mechanism says so.
run::Options budget(double epsilon) {
  run::Options o;
  o.epsilon = epsilon;
  o.delta = kDelta;
  return o;
}

// ---- canary tables ----

// `rows` (8; ≥ 3) rows in ℝᵈ, all but the last zero (labels alternate; they add nothing to any
// gradient and are errors for every w), and the canary e₀ with label +1 in D, −1 in D′
// (replace-one): its hinge gradient flips sign, a full Δ = 2R/c apart (R = b unprojected).
// Raw rows: with intercept off, unit-norm rows and no column ranges the run's preprocessing
// leaves them as they are.
learn::Dataset canaryTable(bool neighbour, std::size_t d = 2, std::size_t rows = 8) {
  learn::Dataset t(rows, d);
  for (std::size_t i = 0; i + 1 < rows; ++i) t.labels()[i] = (i % 2) ? 1 : -1;
  t.rowMajor()[(rows - 1) * t.stride()] = 1.0f;
  t.labels()[rows - 1] = neighbour ? -1 : 1;
  return t;
}

run::Options trainingOptions(double epsilon) {
  run::Options o = budget(epsilon);
  o.intercept = false;
  o.rangeShare = 0.0;  // private ranges are audited by (e)
  return o;
}

// ---- (a), (g): one noisy-GD run (selector "fixed", whole budget) ----

// ε = 2, as before the audit went through the coordinator (AUDIT.md: the claim where a 2×
// noise bug sits well above it with 2·10⁵ runs).
constexpr double kFixedEpsilon = 2.0;

run::Options fixedRunOptions() {
  run::Options o = trainingOptions(kFixedEpsilon);
  o.selector = plan::Selector::kFixed;
  o.margin = 1.0;  // γ = b: unprojected (k_γ ≥ d = 2)
  o.maxIterations = 5;  // any T is private (σ ∝ √T); few iterations keep the audit fast
  return o;
}

// Statistic: the canary's coordinate of the released weights.
AuditResult auditFixedRun(const testing::Faults& faults, std::size_t shards, Runs runs) {
  FaultScope scope(faults);
  const run::Options o = fixedRunOptions();
  const learn::Dataset d0 = canaryTable(false), d1 = canaryTable(true);
  const PlannedRun run(o, d0.rows(), d0.features());
  return auditGaussian([&](bool neighbour) { return run(neighbour ? d1 : d0, shards).weights[0]; }, runs);
}

TEST(PrivacyAudit, A_NoisyGdRun) {
  const AuditResult honest = auditFixedRun({}, 0, kHonest);
  report("(a) noisy-GD run", honest, kFixedEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kFixedEpsilon);
  testing::Faults halved;
  halved.gradientNoise = 0.5;
  const AuditResult h = auditFixedRun(halved, 0, kFixedBroken);
  report("(a) noisy-GD run, gradient noise x0.5", h, kFixedEpsilon);
  EXPECT_GT(h.epsilonLowerBound, kFixedEpsilon);
}

TEST(PrivacyAudit, G_TwoShards) {
  const AuditResult honest = auditFixedRun({}, 2, kHonest);
  report("(g) noisy-GD run on 2 shards", honest, kFixedEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kFixedEpsilon);
  // The clip radius / sensitivity mis-wired: σ from the add/remove Δ = R/c.
  testing::Faults addRemove;
  addRemove.addRemoveSensitivity = true;
  const AuditResult ar = auditFixedRun(addRemove, 2, kFixedBroken);
  report("(g) 2 shards, add/remove sensitivity", ar, kFixedEpsilon);
  EXPECT_GT(ar.epsilonLowerBound, kFixedEpsilon);
}

// ---- (k): the joint multiclass learner (one noisy GD on K × k weights, Δ = 2√2·R/c) ----

// K = 3 classes in ℝ²: seven zero rows (codes 0, 1, 2, …; they add nothing) and the canary,
// class 0 at e₀ in D and at −e₀ in D′ (replace-one). One step from W = 0: every score is 0, so the
// hinge is active and l* = class 1 in both worlds, and the canary's term is −z/c in row 0 and
// +z/c in row 1 — the two terms differ by 2√2·‖z‖/c = Δ, the bound's extreme (docs/reference/LEARNERS.md).
// Statistic: w₀[0] − w₁[0], a Gaussian shift of 4η/c over noise sd √2·ησ: the whole μ_run.
constexpr double kJointEpsilon = 2.0;
constexpr std::size_t kJointClasses = 3;

learn::Dataset jointTable(bool neighbour, std::vector<std::int32_t>& codes) {
  const std::size_t rows = 8;
  learn::Dataset t(rows, 2);
  codes.assign(rows, 0);
  for (std::size_t i = 0; i + 1 < rows; ++i) codes[i] = std::int32_t(i % kJointClasses);
  t.rowMajor()[(rows - 1) * t.stride()] = neighbour ? -1.0f : 1.0f;
  codes[rows - 1] = 0;
  return t;
}

run::Options jointOptions() {
  run::Options o = trainingOptions(kJointEpsilon);
  o.selector = plan::Selector::kFixed;
  o.margin = 1.0;       // γ = b: c = 1, R = 1 (unprojected)
  o.maxIterations = 1;  // one step from W = 0 (any T is private)
  return o;             // multiclass: the default, "joint"
}

// Through the production coordinator of a multiclass label (learn::OneVsRest, which runs the
// joint learner when the resolved plan says so), with its own plan; shards as (g) when asked.
AuditResult auditJoint(const testing::Faults& faults, std::size_t shards, Runs runs, Objective objective) {
  FaultScope scope(faults);
  const run::Options o = jointOptions();
  std::vector<std::int32_t> c0, c1;
  const learn::Dataset d0 = jointTable(false, c0), d1 = jointTable(true, c1);
  const learn::TrainSettings settings = run::resolve(o, d0.rows(), d0.features(), kJointClasses);
  if (settings.plan.jointClasses != kJointClasses) throw std::logic_error("not the joint learner");
  const auto sample = [&](bool neighbour) {
    learn::Dataset data = neighbour ? d1 : d0;
    learn::OneVsRest t(data, (neighbour ? c1 : c0).data(), kJointClasses, settings, run::makeGenerator(settings));
    train(t, shards);
    const std::vector<double>& w = t.result().problems.at(0).weights;  // class k at w[k·2 …]
    return w.at(0) - w.at(2);
  };
  return objective == Objective::kEpsilon ? auditGaussian(sample, runs) : audit(sample, runs, Objective::kMu);
}

TEST(PrivacyAudit, K_JointMulticlass) {
  const plan::Plan p = run::planForTable(jointOptions(), 8, 2, kJointClasses);
  ASSERT_EQ(p.request.jointClasses, kJointClasses);
  ASSERT_EQ(p.candidates.size(), 1u);
  ASSERT_EQ(p.candidates[0].T, 1u);
  ASSERT_FALSE(p.candidates[0].projected);
  const double claimedMu = p.muRun;  // the whole run: μ_run = μ_train = μ (intercept off, no ranges)
  // The statistic sees the whole μ (a tight test), so the honest run is audited in ε at δ = 1e-5,
  // where a threshold test with these runs stays well below the claim (as (b)); the broken one in
  // μ, the stronger statistic for a Gaussian shift: a σ without the √2 shows √2·μ = 0.71.
  const AuditResult honest = auditJoint({}, 0, kHonest, Objective::kEpsilon);
  report("(k) joint multiclass run", honest, kJointEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kJointEpsilon);
  testing::Faults noSqrt2;
  noSqrt2.jointWithoutSqrt2 = true;
  const AuditResult broken = auditJoint(noSqrt2, 2, Runs{4000, 20000}, Objective::kMu);
  reportMu("(k) joint on 2 shards, sensitivity without sqrt2", broken, claimedMu);
  EXPECT_GT(broken.muLowerBound, claimedMu);
}

// ---- (b): Iter's released noisy scores ----

// Every candidate's released score is its error count + noise. For the canary's error to flip
// with the canary whatever the training noise, `kAnchors` rows with y·x = e₀ (half +1 at e₀,
// half −1 at −e₀) hold every candidate's w₀ far above 0; the canary e₀ is +1 in D (never an
// error) and −1 in D′ (always one). Statistic: the sum of all released scores (each moves by 1:
// the sum sees the selection part's whole μ_class/√2). Claim: that part's own ε, read off the
// plan of the released result — stricter than the run's ε.
constexpr double kIterEpsilon = 4.0;
constexpr std::size_t kAnchors = 40;

learn::Dataset anchorTable(bool neighbour) {
  learn::Dataset t(kAnchors + 1, 2);
  for (std::size_t i = 0; i < kAnchors; ++i) {
    const bool positive = i % 2 == 0;
    t.rowMajor()[i * t.stride()] = positive ? 1.0f : -1.0f;
    t.labels()[i] = positive ? 1 : -1;
  }
  t.rowMajor()[kAnchors * t.stride()] = 1.0f;
  t.labels()[kAnchors] = neighbour ? -1 : 1;
  return t;
}

run::Options iterOptions() {
  run::Options o = trainingOptions(kIterEpsilon);
  o.selector = plan::Selector::kIter;
  o.maxIterations = 1;  // any T is private; one iteration keeps the audit fast
  return o;
}

double selectionClaim() {
  const learn::TrainSettings s = run::resolve(iterOptions(), kAnchors + 1, 2);
  return accounting::gdpEpsilon(plan::makePlan(s.plan).muClass / std::sqrt(2.0), kDelta);
}

// The statistic of (b) and (i): the sum of every released score of `run` on the anchor table.
AuditResult auditScoreSum(const PlannedRun& run, const testing::Faults& faults, Runs runs) {
  FaultScope scope(faults);
  const learn::Dataset d0 = anchorTable(false), d1 = anchorTable(true);
  return auditGaussian([&](bool neighbour) {
    double sum = 0;
    for (const learn::RunRecord& r : run(neighbour ? d1 : d0, 0).runs) sum += r.noisyScore;
    return sum;
  }, runs);
}

// The honest scores stay under `claimed`; with their noise halved they exceed it.
void expectScoresAudited(const std::string& name, const PlannedRun& run, double claimed) {
  const AuditResult honest = auditScoreSum(run, {}, kHonest);
  report(name + " released scores", honest, claimed);
  EXPECT_LE(honest.epsilonLowerBound, claimed);
  testing::Faults halved;
  halved.scoreNoise = 0.5;
  const AuditResult h = auditScoreSum(run, halved, kBroken);
  report(name + " scores, score noise x0.5", h, claimed);
  EXPECT_GT(h.epsilonLowerBound, claimed);
}

TEST(PrivacyAudit, B_IterSelectionScores) {
  expectScoresAudited("(b) Iter", PlannedRun(iterOptions(), kAnchors + 1, 2), selectionClaim());
}

// ---- (i): auto's selection among three margins (its released noisy scores) ----

// Selector auto on a large table runs an Iter over {γ₀/3, γ₀, 3γ₀} whose error counts share
// only 3% of μ_class² (plan::autoSelects; docs/reference/PRIVACY.md). The same anchor table as (b), with
// the switch put on for its 41 rows (PlanRequest::autoSelectNoise: the code path is the one a
// large table takes; T = 1). Statistic: the sum of the three released scores; each moves by 1,
// so the test sees the score part's μ_class·√(1 − 0.97) — the claim, read off the plan as
// √m/sd. Run ε = 24 puts that claim near (b)'s; the broken variant halves the score noise
// (the claim's μ doubles).
constexpr double kAutoSelectEpsilon = 24.0;

PlannedRun autoSelectionRun() {
  run::Options o = trainingOptions(kAutoSelectEpsilon);
  o.maxIterations = 1;
  return PlannedRun(o, kAnchors + 1, 2, [](plan::PlanRequest& r) { r.autoSelectNoise = 1e9; });
}

TEST(PrivacyAudit, I_AutoSelectionScores) {
  const PlannedRun run = autoSelectionRun();
  const plan::Plan& p = run.plan();
  ASSERT_EQ(p.request.selector, plan::Selector::kAuto);
  ASSERT_TRUE(p.selects);
  ASSERT_EQ(p.candidates.size(), 3u);
  const double scoreMu = std::sqrt(double(p.candidates.size())) / p.scoreSd;
  EXPECT_NEAR(scoreMu, p.muClass * std::sqrt(1 - p.request.autoSelectRunShare), 1e-12);
  expectScoresAudited("(i) auto's selection", run, accounting::gdpEpsilon(scoreMu, kDelta));
}

// ---- (c): the package's defaults (selector auto) ----

// Nothing but the budget (intercept and ranges off, as for every training audit): the core's
// defaults choose selector auto (calibration tight), which on this table plans one unprojected
// noisy-GD run at the public margin γ₀ with the whole budget and T ≥ 200 (no selection: n·μ is
// far below the switch). Statistic: the canary's coordinate of the released weights, each run
// making its own plan (learn::OneVsRest, as train() does). Over T ≥ 200 steps w₀'s noise is
// far larger than c = γ₀, so the canary's hinge is active in roughly half of them and the
// statistic sees about μ/2 (honest μ_lb ≈ 0.14–0.28 of μ = 0.502): a halved noise gives
// ε_lb ≈ 1.6, below the claim — (a) catches that on the same noisy step — and the broken
// variant here is a quartered noise (ε_lb ≈ 5, AUDIT.md).
constexpr double kDefaultsEpsilon = 2.0;
constexpr Runs kDefaultsHonest{2000, 10000}, kDefaultsBroken{4000, 40000};

AuditResult auditDefaults(const testing::Faults& faults, Runs runs) {
  FaultScope scope(faults);
  const run::Options o = trainingOptions(kDefaultsEpsilon);
  const learn::Dataset d0 = canaryTable(false), d1 = canaryTable(true);
  return auditGaussian([&](bool neighbour) { return trainOnce(neighbour ? d1 : d0, o, 0).weights[0]; }, runs);
}

TEST(PrivacyAudit, C_PackageDefaults) {
  const run::Options o = trainingOptions(kDefaultsEpsilon);
  const learn::Dataset d0 = canaryTable(false);
  const plan::Plan p = plan::makePlan(run::resolve(o, d0.rows(), d0.features()).plan);
  ASSERT_EQ(p.request.selector, plan::Selector::kAuto);  // what this audit is about
  ASSERT_FALSE(p.selects);
  ASSERT_EQ(p.candidates.size(), 1u);
  const AuditResult honest = auditDefaults({}, kDefaultsHonest);
  report("(c) package defaults (auto)", honest, kDefaultsEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kDefaultsEpsilon);
  testing::Faults quartered;
  quartered.gradientNoise = 0.25;
  const AuditResult h = auditDefaults(quartered, kDefaultsBroken);
  report("(c) package defaults, gradient noise x0.25", h, kDefaultsEpsilon);
  EXPECT_GT(h.epsilonLowerBound, kDefaultsEpsilon);
}

// ---- (j): full M* (selector iter) ----

// Selector iter over the whole margin grid, T up to its default cap, the default score,
// pruning and iterate — the paper's M* (the default of calibration "paper", and the package's
// default until issue 15); statistic: the canary's coordinate of the released (selected)
// weights. M* releases one model of m: the test sees about μ/√(2m) of μ, so a 2× bug stays far
// below ε = 2 at this size (AUDIT.md); the honest run must pass (the slow tier also reports a
// σ-halved M*).
constexpr double kMstarEpsilon = 2.0;

AuditResult auditMstar(const testing::Faults& faults) {
  FaultScope scope(faults);
  run::Options o = trainingOptions(kMstarEpsilon);
  o.selector = plan::Selector::kIter;
  const learn::Dataset d0 = canaryTable(false), d1 = canaryTable(true);
  return audit([&](bool neighbour) { return trainOnce(neighbour ? d1 : d0, o, 0).weights[0]; },
               Runs{2000, 10000});
}

TEST(PrivacyAudit, J_FullMstarIter) {
  const AuditResult honest = auditMstar({});
  report("(j) full M* (selector iter)", honest, kMstarEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kMstarEpsilon);
  if (scale() > 1) {
    testing::Faults halved;
    halved.gradientNoise = 0.5;
    halved.scoreNoise = 0.5;
    report("(j) M*, all noise x0.5 (informational)", auditMstar(halved), kMstarEpsilon);
  }
}

// ---- (h): PrivTune (paper Algo 3) ----

// Selector privtune with its defaults (E[K], the TNB draw of K, a uniformly drawn candidate per
// run; T capped at 20 to keep the audit fast — any T is private): only the selected model is released (result.runs is not part of a PrivTune release);
// statistic: the canary's coordinate of the released weights. As for M*, the released model
// sees a fraction of μ, and PrivTune's accounting (RDP, Papernot–Steinke) is looser still: the
// honest run must pass; no broken variant of PrivTune is claimed to be caught.
AuditResult auditPrivTune() {
  run::Options o = trainingOptions(kMstarEpsilon);
  o.selector = plan::Selector::kPrivTune;
  o.maxIterations = 20;
  const learn::Dataset d0 = canaryTable(false), d1 = canaryTable(true);
  const PlannedRun run(o, d0.rows(), d0.features());  // PrivTune's plan (RDP) is slow to make
  return audit([&](bool neighbour) { return run(neighbour ? d1 : d0, 0).weights[0]; }, Runs{2000, 10000});
}

TEST(PrivacyAudit, H_PrivTune) {
  const AuditResult honest = auditPrivTune();
  report("(h) PrivTune (defaults)", honest, kMstarEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kMstarEpsilon);
}

// ---- (d): a run on a JL projection ----

// Three rows (two zero, the canary e₀) in d = k_γ + 1 columns, so that the margin γ = b trains
// on a projection (k_γ < d; the plan says so, asserted). The canary's projection Φe₀ has norm
// exactly 1 (entries ±1/√k), and the statistic — the canary's coordinate of the released
// w = Φᵀw̃ — is ⟨Φe₀, w̃⟩: the noise along the canary's own gradient, through a fresh Φ a run.
// A projected candidate clips at R = 2b (JL may stretch a row) and its σ covers Δ = 2R/c, but
// no row of norm ≤ b projects to more than about b: the canary moves the gradient sum by half
// of Δ, so the honest test sees μ/2 and a 2× noise bug (e.g. σ from R = b, or from add/remove)
// only μ — at the claim, not above it: invisible to any audit with rows of norm ≤ b (it leaks
// only through the rare rows that JL stretches). The broken variant here is a 4× noise bug.
// The run is μ-GDP (μ = the plan's μ_run, the whole budget): the audit bounds μ (kMu), which
// central thresholds measure to ±0.05 with 5·10³ runs — honest ≈ μ/2, broken ≈ 2μ.
constexpr std::size_t kJlRows = 3;

run::Options jlOptions() {
  run::Options o = fixedRunOptions();
  o.jlFailure = 0.99;  // a large β: the smallest k (any β is private; it only risks utility)
  o.maxIterations = 1;  // one k-dimensional noise draw a run (T only trades utility)
  return o;
}

std::size_t jlDimensions() {  // k_γ does not depend on d
  return std::size_t(run::planForTable(jlOptions(), kJlRows, 4096).candidates[0].kJl) + 1;
}

AuditResult auditJl(const testing::Faults& faults, Runs runs) {
  FaultScope scope(faults);
  const run::Options o = jlOptions();
  const std::size_t d = jlDimensions();
  const learn::Dataset d0 = canaryTable(false, d, kJlRows), d1 = canaryTable(true, d, kJlRows);
  const PlannedRun run(o, d0.rows(), d0.features());
  if (run.plan().candidates.size() != 1 || !run.plan().candidates[0].projected) throw std::logic_error("not projected");
  return audit([&](bool neighbour) { return run(neighbour ? d1 : d0, 0).weights[0]; }, runs, Objective::kMu);
}

TEST(PrivacyAudit, D_ProjectedCandidate) {
  const plan::Plan p = run::planForTable(jlOptions(), kJlRows, jlDimensions());
  ASSERT_EQ(p.candidates.size(), 1u);
  ASSERT_TRUE(p.candidates[0].projected) << "k_gamma = " << p.candidates[0].kJl;
  std::printf("[audit] (d) k = %llu of d = %zu\n", (unsigned long long)p.candidates[0].k, jlDimensions());
  const double claimed = p.muRun;
  const AuditResult honest = auditJl({}, Runs{1000, 5000});
  reportMu("(d) projected run", honest, claimed);
  EXPECT_LE(honest.muLowerBound, claimed);
  testing::Faults quarter;
  quarter.gradientNoise = 0.25;
  const AuditResult q = auditJl(quarter, Runs{1000, 5000});
  reportMu("(d) projected run, gradient noise x0.25", q, claimed);
  EXPECT_GT(q.muLowerBound, claimed);
}

// ---- (e): private column ranges ----

// kRangeColumns raw columns, all estimated by the trainer (μ_ranges from rangeShare). Every
// column holds kRangeMiddle rows at 1 and as many at X/3 (two bins below X: a strong bin within
// a decade of the +X bin, and of the −X bin's mirror image, so that step 1 never leaves a far
// bin out as a lone weak bin — the audit sees the noisy counts through the ranges as before),
// c rows at +X and c rows at −X; the canary row is +X in
// every column in D and −X in D′, so each column's +X bin holds c + 1 rows in D and c in D′,
// its −X bin the reverse: the full replace-one move that the histograms' σ = √(2d)/μ_ranges
// covers. c is the threshold τ = 4σ less ½, rounded: each far bin is kept about half the time,
// and the released range of a column reaches +X (hi ≥ X) or −X (lo ≤ −X) as they are.
// Statistic: Σ_j [hi_j ≥ X] − [lo_j ≤ −X] over the released column ranges.
// Claim: the histograms are μ_ranges-GDP (a Gaussian mechanism; the ranges post-process
// them), so the audit bounds μ (Objective::kMu): a threshold test on kept/not-kept bits sees
// about 0.8 μ_ranges, a 2× noise bug about 1.6 μ_ranges, both at central thresholds that
// 8·10³ runs measure to ±0.04. (An ε bound at δ = 1e-5 from the same bits would need ~10⁶ runs.)
constexpr double kRangeEpsilon = 4.0;
constexpr double kRangeShare = 0.9;
constexpr std::size_t kRangeColumns = 4;
constexpr std::size_t kRangeMiddle = 60;
constexpr float kFar = 1e6f;
constexpr Runs kRangeRuns{2000, 8000};

run::Options rangeOptions() {
  run::Options o = budget(kRangeEpsilon);
  o.selector = plan::Selector::kFixed;
  o.margin = 1.0;
  o.maxIterations = 1;
  o.rangeShare = kRangeShare;
  return o;
}

double rangeMu() {
  return run::planForTable(rangeOptions(), 1000, kRangeColumns).muRanges;  // independent of n
}

learn::Dataset rangeTable(bool neighbour) {
  const double sigma = std::sqrt(2.0 * kRangeColumns) / rangeMu();
  const std::size_t c = std::size_t(std::llround(learn::kRangeThresholdSds * sigma - 0.5));
  const std::size_t bulk = 2 * kRangeMiddle;  // kRangeMiddle rows at 1, kRangeMiddle at X/3
  const std::size_t n = bulk + 2 * c + 1;
  learn::Dataset t(n, kRangeColumns);
  for (std::size_t i = 0; i < n; ++i) {
    const float v = i < kRangeMiddle ? 1.0f
                    : i < bulk       ? kFar / 3
                    : i < bulk + c   ? kFar
                    : i + 1 < n      ? -kFar
                    : neighbour      ? -kFar
                                     : kFar;
    for (std::size_t j = 0; j < kRangeColumns; ++j) t.rowMajor()[i * t.stride() + j] = v;
    t.labels()[i] = i % 2 ? 1 : -1;
  }
  return t;
}

AuditResult auditRanges(const testing::Faults& faults) {
  FaultScope scope(faults);
  const run::Options o = rangeOptions();
  const learn::Dataset d0 = rangeTable(false), d1 = rangeTable(true);
  const PlannedRun run(o, d0.rows(), d0.features());
  if (run.plan().muRanges != rangeMu()) throw std::logic_error("muRanges depends on n");
  return audit([&](bool neighbour) {
    const learn::TrainResult r = run(neighbour ? d1 : d0, 0);
    if (!r.rangesPrivate) throw std::logic_error("ranges not estimated");
    double s = 0;
    for (const learn::ColumnRange& c : r.ranges) s += double(c.hi >= kFar) - double(c.lo <= -kFar);
    return s;
  }, kRangeRuns, Objective::kMu);
}

TEST(PrivacyAudit, E_PrivateColumnRanges) {
  const double claimed = rangeMu();
  const AuditResult honest = auditRanges({});
  reportMu("(e) private column ranges", honest, claimed);
  EXPECT_LE(honest.muLowerBound, claimed);
  testing::Faults halved;
  halved.rangeNoise = 0.5;
  const AuditResult h = auditRanges(halved);
  reportMu("(e) ranges, histogram noise x0.5", h, claimed);
  EXPECT_GT(h.muLowerBound, claimed);
}

// ---- (f): category discovery ----

// A CSV run (run::CsvRun, as trainCsv reads a file) of a categorical column whose categories are
// discovered under the budget. D′: every row's colour is "red" or "blue"; D: the canary row's
// colour is "zz", a value no other row holds. Statistic: whether "zz" is among the released
// levels of the run's encoding (the model file's). That can only happen in D: (ε, δ)-DP bounds
// its probability by δ (the thresholds' share: δ_τ), so ε_lb = ln((TPR_lb − δ)/FPR_ub) exceeds
// the claim exactly when the partition selection leaks a unique value more often than δ allows.
// ε = 1: the claim is the whole run's (ε, δ); the broken variant (τ − 1 halved: τ = 1 +
// σ·Φ̄⁻¹(δ_τ)/2) keeps "zz" with probability Φ̄(Φ̄⁻¹(δ_τ)/2) ≈ 6·10⁻³, which 8000 runs tell
// from δ + e^ε·FPR_ub (FPR = 0) with a false-failure rate ≈ 1e-5 (AUDIT.md).
constexpr double kDiscoveryEpsilon = 1.0;

std::string colourCsv(bool neighbour) {
  std::string csv = "colour,y\n";
  for (int i = 0; i < 40; ++i) csv += std::string(i % 2 ? "red" : "blue") + "," + (i % 3 ? "yes" : "no") + "\n";
  csv += std::string(neighbour ? "red" : "zz") + ",yes\n";
  return csv;
}

AuditResult auditDiscovery(const testing::Faults& faults, Runs runs) {
  FaultScope scope(faults);
  run::Options o = budget(kDiscoveryEpsilon);
  o.table.label = "y";
  o.table.positive = "yes";
  o.table.categories = data::CategorySource::kDiscover;
  // Declared categorical: at 41 rows a private kind decision would often read the column as
  // numbers (audit (k) covers those decisions); this audit is of the discovery.
  data::ColumnChoice colour;
  colour.name = "colour";
  colour.kind = data::ColumnKind::kCategorical;
  o.table.columns = {colour};
  const std::string d0 = colourCsv(false), d1 = colourCsv(true);
  return audit([&](bool neighbour) {
    const std::string& csv = neighbour ? d1 : d0;
    run::CsvRun r(o);
    while (r.pass() != run::CsvRun::Pass::kDone) {
      r.feed(csv.data(), csv.size());
      r.endPass();
    }
    for (const data::EncodedBlock& b : r.encoding().blocks) {
      if (b.column == "colour") return double(std::count(b.levels.begin(), b.levels.end(), "zz"));
    }
    throw std::logic_error("no colour block");
  }, runs);
}

TEST(PrivacyAudit, F_CategoryDiscovery) {
  const AuditResult honest = auditDiscovery({}, Runs{500, 3000});
  report("(f) category discovery", honest, kDiscoveryEpsilon);
  EXPECT_LE(honest.epsilonLowerBound, kDiscoveryEpsilon);
  testing::Faults lowered;
  lowered.discoveryThreshold = 0.5;
  // 4000 selection runs: ~24 releases of "zz", so that the test picks "released" (with fewer
  // than ~6 it could not tell that test from a useless one).
  const AuditResult l = auditDiscovery(lowered, Runs{4000, 8000});
  report("(f) discovery, threshold tau-1 x0.5", l, kDiscoveryEpsilon);
  EXPECT_GT(l.epsilonLowerBound, kDiscoveryEpsilon);
}

// ---- (l): the CSV path end to end (issue 30) ----

// Neighbouring CSV files (one row replaced) through the production CSV run (run::CsvRun: scan,
// the private schema release, discovery, fill), with the released record's STRUCTURE as the
// statistic: the schema the model file stores (describeSchema: every column's kind, nullable,
// reason, decision, levels; the class source and classes; the dialect) and the encoding's
// column names, or the refusal's code. Statistic: 1 when it equals the structure the broken
// run (decisions on the exact counts, the old behaviour) gives on D, else 0. A decision read off
// the exact cells gives one structure on every run of D and another on every run of D′: TPR = 1,
// FPR = 0, and the bound on μ is the largest the run counts allow (~5.3 at 500); the honest
// run's decisions are μ_schema-GDP (the plan's, the claim).
std::string flatten(const Node& n) {
  switch (n.kind) {
    case Node::Kind::kNull: return "null";
    case Node::Kind::kBoolean: return n.boolean ? "true" : "false";
    case Node::Kind::kNumber: return formatValue(n.number);
    case Node::Kind::kText: return "\"" + n.text + "\"";
    case Node::Kind::kList: {
      std::string out = "[";
      for (const Node& x : n.list) out += flatten(x) + ",";
      return out + "]";
    }
    case Node::Kind::kObject: {
      std::string out = "{";
      for (const auto& [k, v] : n.fields) out += k + ":" + flatten(v) + ",";
      return out + "}";
    }
    case Node::Kind::kOther: return "?";
  }
  return "";
}

std::string releasedStructure(const std::string& csv, const run::Options& o) {
  try {
    run::CsvRun r(o);
    while (r.pass() != run::CsvRun::Pass::kDone) {
      r.feed(csv.data(), csv.size());
      r.endPass();
    }
    std::string names;
    for (const std::string& name : r.encoding().names()) names += name + "|";
    return flatten(data::describeSchema(r.schema())) + names;
  } catch (const Error& e) {
    return std::string("refused:") + errorCodeName(e.code());
  }
}

struct SchemaCase {
  const char* name;
  std::string d, neighbour;  // the CSV texts
  run::Options options;
};

// 40 rows: x (numbers), label 0/1 (positive declared: no class question unless the case asks).
std::string rowsCsv(const std::string& header, const std::function<std::string(int)>& row) {
  std::string csv = header + "\n";
  for (int i = 0; i < 40; ++i) csv += row(i) + "\n";
  return csv;
}

std::vector<SchemaCase> schemaCases() {
  run::Options declared = budget(1.0);
  declared.table.label = "label";
  declared.table.positive = "1";
  run::Options labelled = budget(1.0);
  labelled.table.label = "label";
  const auto numbers = [](const std::string& canary) {
    return [canary](int i) { return (i == 0 ? canary : std::to_string(i % 9)) + "," + std::to_string(i % 2); };
  };
  std::vector<SchemaCase> cases;
  cases.push_back({"(l1) a text cell in a numeric column", rowsCsv("x,label", numbers("oops")),
                   rowsCsv("x,label", numbers("5")), declared});
  cases.push_back({"(l2) a missing cell", rowsCsv("x,label", numbers("NA")), rowsCsv("x,label", numbers("5")), declared});
  // A column at the kind boundary: 21 text cells of 40 in D (most: categorical), 20 in D′.
  const auto half = [](bool d) {
    return [d](int i) { return std::string(i < 20 || (d && i == 20) ? "a" : std::to_string(i)) + "," + std::to_string(i % 2); };
  };
  cases.push_back({"(l3) a column's kind at its boundary", rowsCsv("x,label", half(true)), rowsCsv("x,label", half(false)), declared});
  // A label at its boundary: 20 of 40 cells "yes" in D (discovered), 19 in D′ (binary-coded).
  const auto label = [](bool d) {
    return [d](int i) { return std::to_string(i % 7) + "," + (i < 19 || (d && i == 19) ? "yes" : std::to_string(i % 2)); };
  };
  cases.push_back({"(l4) a label value", rowsCsv("x,label", label(true)), rowsCsv("x,label", label(false)), labelled});
  // An empty column in D; one value in it in D′.
  const auto empty = [](bool d) {
    return [d](int i) { return std::to_string(i % 9) + "," + (i == 0 && !d ? "3" : "") + "," + std::to_string(i % 2); };
  };
  cases.push_back({"(l5) a value in an empty column", rowsCsv("x,e,label", empty(true)), rowsCsv("x,e,label", empty(false)), declared});
  return cases;
}

AuditResult auditSchemaCase(const SchemaCase& c, const testing::Faults& faults, Runs runs) {
  std::string exactOnD;
  {
    testing::Faults exact;
    exact.schemaNoise = 0.0;
    FaultScope scope(exact);
    exactOnD = releasedStructure(c.d, c.options);
    if (releasedStructure(c.neighbour, c.options) == exactOnD) throw std::logic_error("the case does not flip an exact decision");
  }
  FaultScope scope(faults);
  return audit([&](bool neighbour) {
    return releasedStructure(neighbour ? c.neighbour : c.d, c.options) == exactOnD ? 1.0 : 0.0;
  }, runs, Objective::kMu);
}

double schemaMu(const SchemaCase& c) {
  run::CsvRun r(c.options);
  r.feed(c.d.data(), c.d.size());
  r.endPass();  // the scan: the schema release is planned and drawn
  return r.budget().muSchema;
}

TEST(PrivacyAudit, L_CsvSchemaDecisions) {
  for (const SchemaCase& c : schemaCases()) {
    SCOPED_TRACE(c.name);
    const double claimed = schemaMu(c);
    ASSERT_GT(claimed, 0.0);
    const AuditResult honest = auditSchemaCase(c, {}, Runs{500, 1000});
    reportMu(c.name, honest, claimed);
    EXPECT_LE(honest.muLowerBound, claimed);
    testing::Faults exact;
    exact.schemaNoise = 0.0;
    const AuditResult broken = auditSchemaCase(c, exact, Runs{100, 500});
    reportMu(std::string(c.name) + ", decided on exact counts", broken, claimed);
    EXPECT_GT(broken.muLowerBound, claimed);
  }
}

// (l6) Discovery over several columns and the label at once (m = 3): the canary row is (red,
// hot, yes) in D and (blue, cold, no) in D′ — one unit out of a value and into another in each
// column, the full √(2m) move σ = √(2m)/μ_discovery covers. Each of the six values has a count
// at the threshold τ (rounded), so each is kept about half the time; filler values far above τ
// fill the columns. Statistic: (kept among red, hot, yes) − (kept among blue, cold, no), read
// off the released levels and classes. Claim: the noisy counts are μ_discovery-GDP; the kept
// bits see about 0.8 of it; halved noise about 1.6 of it (ε = 8 makes μ_discovery ≈ 0.9, so
// 4·10³ runs tell the two apart).
constexpr double kSeveralEpsilon = 8.0;

run::Options severalOptions() {
  run::Options o = budget(kSeveralEpsilon);
  o.table.label = "y";
  o.table.categories = data::CategorySource::kDiscover;
  for (const char* name : {"c1", "c2"}) {
    data::ColumnChoice c;
    c.name = name;
    c.kind = data::ColumnKind::kCategorical;
    c.nullable = false;
    o.table.columns.push_back(c);
  }
  o.table.discoverClasses = true;
  return o;
}

// Counts in D: red, hot (c + 1) and yes (l + 1), blue, cold (c) and no (l); in D′ the reverse
// (the canary row, last). c is at the other columns' threshold, l at the label's (its own
// histogram). Each column's cells are laid out on their own (only counts matter), fillers far
// above both thresholds (two in every column: the label always keeps two classes).
std::string severalCsv(bool neighbour, std::size_t c, std::size_t l) {
  const std::size_t filler = 4 * std::max(c, l), n = 2 * std::max(c, l) + 2 * filler;
  auto column = [&](const char* plus, const char* minus, std::size_t k, const char* f1, const char* f2) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < k; ++i) out.push_back(plus), out.push_back(minus);
    while (out.size() < n) out.push_back(out.size() % 2 ? f1 : f2);
    out.push_back(neighbour ? minus : plus);
    return out;
  };
  const auto a = column("red", "blue", c, "grey", "green");
  const auto b = column("hot", "cold", c, "warm", "mild");
  const auto y = column("yes", "no", l, "maybe", "perhaps");
  std::string csv = "c1,c2,y\n";
  for (std::size_t i = 0; i < a.size(); ++i) csv += a[i] + "," + b[i] + "," + y[i] + "\n";
  return csv;
}

AuditResult auditSeveral(const testing::Faults& faults, Runs runs, std::size_t c, std::size_t l) {
  FaultScope scope(faults);
  const run::Options o = severalOptions();
  const std::string d0 = severalCsv(false, c, l), d1 = severalCsv(true, c, l);
  return audit([&](bool neighbour) {
    const std::string& csv = neighbour ? d1 : d0;
    run::CsvRun r(o);
    while (r.pass() != run::CsvRun::Pass::kCount && r.pass() != run::CsvRun::Pass::kDone) {
      r.feed(csv.data(), csv.size());
      r.endPass();
    }
    if (r.pass() != run::CsvRun::Pass::kCount) throw std::logic_error("no count pass");
    r.feed(csv.data(), csv.size());
    r.endPass();  // discovery: levels and classes released (the fillers keep two classes)
    const data::Schema& s = r.schema();
    const auto kept = [&](const std::vector<std::string>& list, const char* v) {
      return double(std::count(list.begin(), list.end(), v));
    };
    const auto& l1 = s.columns[0].levels;
    const auto& l2 = s.columns[1].levels;
    return kept(l1, "red") + kept(l2, "hot") + kept(s.classes, "yes") - kept(l1, "blue") - kept(l2, "cold") -
           kept(s.classes, "no");
  }, runs, Objective::kMu);
}

TEST(PrivacyAudit, L_DiscoverySeveralColumnsAndTheLabel) {
  // The plan of the run (discovery over 3 columns): its σ and τ, and c = τ rounded; μ_discovery
  // and τ do not depend on n, so a probe table gives them.
  run::CsvRun probe(severalOptions());
  const std::string csv = severalCsv(false, 200, 200);
  while (probe.pass() != run::CsvRun::Pass::kDone) {
    probe.feed(csv.data(), csv.size());
    probe.endPass();
  }
  const plan::PlanRequest r = probe.settings().plan;
  ASSERT_EQ(r.discoveryColumns, 3u);
  const plan::Plan p = plan::makePlan(r);
  // The label's classes have a histogram of their own (plan.labelDiscovery): its own σ and τ.
  const std::size_t c = std::size_t(std::llround(p.discovery.threshold - 0.5));
  const std::size_t l = std::size_t(std::llround(p.labelDiscovery.threshold - 0.5));
  std::printf("[audit] (l6) discovery: sigma = %.3f / %.3f (label), tau = %.3f / %.3f, c = %zu / %zu\n", p.discovery.sigma,
              p.labelDiscovery.sigma, p.discovery.threshold, p.labelDiscovery.threshold, c, l);
  const double claimed = p.muDiscovery;
  const AuditResult honest = auditSeveral({}, Runs{2000, 4000}, c, l);
  reportMu("(l6) discovery, 3 columns with the label", honest, claimed);
  EXPECT_LE(honest.muLowerBound, claimed);
  testing::Faults halved;
  halved.discoveryNoise = 0.5;
  const AuditResult h = auditSeveral(halved, Runs{2000, 4000}, c, l);
  reportMu("(l6) discovery, count noise x0.5", h, claimed);
  EXPECT_GT(h.muLowerBound, claimed);
}

// (l7) Private column ranges on the CSV path: a numeric column among public 0/1 columns (a
// declared categorical column: its levels have the public range [0, 1], so only the numeric
// column is estimated — the subset path, settings.knownRanges). The canary is +X in D, −X in
// D′ as in (e); the released range of x reaches +X or −X. Broken: the histograms without noise.
constexpr double kCsvRangeEpsilon = 4.0;

run::Options csvRangeOptions() {
  run::Options o = budget(kCsvRangeEpsilon);
  o.table.label = "y";
  o.table.positive = "1";
  o.selector = plan::Selector::kFixed;
  o.margin = 1.0;
  o.maxIterations = 1;
  o.rangeShare = kRangeShare;
  data::ColumnChoice x, colour;
  x.name = "x";
  x.kind = data::ColumnKind::kNumeric;
  x.nullable = false;
  colour.name = "colour";
  colour.kind = data::ColumnKind::kCategorical;
  colour.levels = std::vector<std::string>{"red", "blue"};
  colour.nullable = false;
  o.table.columns = {x, colour};
  return o;
}

std::string csvRangeTable(bool neighbour, std::size_t c) {
  std::string csv = "x,colour,y\n";
  const auto row = [&](double v, int i) { csv += formatValue(v) + "," + (i % 2 ? "red" : "blue") + "," + std::to_string(i % 2) + "\n"; };
  int i = 0;
  for (std::size_t k = 0; k < kRangeMiddle; ++k) row(1.0, i++);
  for (std::size_t k = 0; k < kRangeMiddle; ++k) row(kFar / 3, i++);
  for (std::size_t k = 0; k < c; ++k) row(kFar, i++);
  for (std::size_t k = 0; k < c; ++k) row(-kFar, i++);
  row(neighbour ? -kFar : kFar, i++);
  return csv;
}

AuditResult auditCsvRanges(const testing::Faults& faults, std::size_t c) {
  FaultScope scope(faults);
  const run::Options o = csvRangeOptions();
  const std::string d0 = csvRangeTable(false, c), d1 = csvRangeTable(true, c);
  return audit([&](bool neighbour) {
    const std::string& csv = neighbour ? d1 : d0;
    run::CsvRun r(o);
    while (r.pass() != run::CsvRun::Pass::kDone) {
      r.feed(csv.data(), csv.size());
      r.endPass();
    }
    learn::Trainer t(r.dataset(), r.settings(), r.takeGenerator());
    while (!t.advance(1000)) {
    }
    const learn::TrainResult& result = t.result();
    if (!result.rangesPrivate) throw std::logic_error("ranges not estimated");
    const learn::ColumnRange& x = result.ranges[0];
    return double(x.hi >= kFar) - double(x.lo <= -kFar);
  }, kRangeRuns, Objective::kMu);
}

TEST(PrivacyAudit, L_CsvRangesOnTheSubsetPath) {
  // One estimated column: σ = √2/μ_ranges; c = 4σ − ½ rounded, as in (e).
  double claimed = 0;
  {
    const std::string probe = csvRangeTable(false, 1);
    run::CsvRun r(csvRangeOptions());
    while (r.pass() != run::CsvRun::Pass::kDone) {
      r.feed(probe.data(), probe.size());
      r.endPass();
    }
    std::size_t estimated = 0;
    for (const auto& k : r.settings().knownRanges) estimated += !k;
    ASSERT_EQ(estimated, 1u);  // x only: the colour levels are public [0, 1]
    claimed = plan::makePlan(r.settings().plan).muRanges;
  }
  const double sigma = std::sqrt(2.0) / claimed;
  const std::size_t c = std::size_t(std::llround(learn::kRangeThresholdSds * sigma - 0.5));
  const AuditResult honest = auditCsvRanges({}, c);
  reportMu("(l7) ranges through the CSV subset path", honest, claimed);
  EXPECT_LE(honest.muLowerBound, claimed);
  testing::Faults none;
  none.rangeNoise = 0.0;
  const AuditResult broken = auditCsvRanges(none, c);
  reportMu("(l7) ranges, histograms without noise", broken, claimed);
  EXPECT_GT(broken.muLowerBound, claimed);
}

TEST(AuditStatistics, ClopperPearsonMatchesKnownValues) {
  // Exact values: k = 0 of n = 10 → upper 97.5% = 1 − 0.025^(1/10) = 0.30850; k = n → lower
  // = 0.025^(1/n); k = 5 of 10 → [0.18709, 0.81291] (two-sided 95%).
  EXPECT_NEAR(clopperPearsonUpper(0, 10, 0.025), 1 - std::pow(0.025, 0.1), 1e-9);
  EXPECT_NEAR(clopperPearsonLower(10, 10, 0.025), std::pow(0.025, 0.1), 1e-9);
  EXPECT_NEAR(clopperPearsonLower(5, 10, 0.025), 0.187086, 1e-6);
  EXPECT_NEAR(clopperPearsonUpper(5, 10, 0.025), 0.812914, 1e-6);
}

}  // namespace
}  // namespace dpmargin::audit
