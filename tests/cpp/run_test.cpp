// The option table and the resolver (core/src/run/options.cpp, resolve.cpp): every rejected option by name,
// every default applied in one place, unset ≠ 0, and the table's shape (names unique, every
// constant default parses back through its own setter).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::run {
namespace {

Options planOptions() {
  Options o;
  o.epsilon = 1, o.delta = 1e-5, o.n = 1000, o.d = 50;
  return o;
}

void expectBadParameter(const std::function<void(Options&)>& mutate, const std::string& parameter,
                        bool train = false) {
  Options o = planOptions();
  try {
    mutate(o);
    if (train) {
      o.n.reset(), o.d.reset();
      (void)resolve(o, 100, 5);
    } else {
      (void)account(o);
    }
    ADD_FAILURE() << "accepted a bad " << parameter;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadParameter) << e.what();
    EXPECT_EQ(e.parameter(), parameter) << e.what();
    EXPECT_NE(std::string(e.what()).find(parameter), std::string::npos) << e.what();
  }
}

void set(Options& o, const char* name, const Value& v) { setOption(o, name, v); }
Value num(double x) { return Value::ofNumber(x); }
Value str(const char* x) { return Value::ofText(x); }

TEST(RunOptions, RejectsEveryBadValueByName) {
  const double nan = std::nan(""), inf = INFINITY;
  for (double e : {0.0, -1.0, nan, inf}) expectBadParameter([&](Options& o) { set(o, "epsilon", num(e)); }, "epsilon");
  for (double d : {0.0, 1.0, -1e-5, 2.0, nan}) expectBadParameter([&](Options& o) { set(o, "delta", num(d)); }, "delta");
  for (double n : {1.0, 0.0, 2.5, -4.0, nan, inf, 1e17}) expectBadParameter([&](Options& o) { set(o, "n", num(n)); }, "n");
  for (double d : {0.0, 1.5, nan}) expectBadParameter([&](Options& o) { set(o, "d", num(d)); }, "d");
  for (double b : {0.0, -1.0, nan}) expectBadParameter([&](Options& o) { set(o, "normBound", num(b)); }, "normBound");
  for (double t : {0.0, 2.5, nan}) expectBadParameter([&](Options& o) { set(o, "maxIterations", num(t)); }, "maxIterations");
  for (double beta : {1.0, 0.0, -0.1, nan}) expectBadParameter([&](Options& o) { set(o, "jlFailure", num(beta)); }, "jlFailure");
  for (double k : {0.5, 1.0, nan, inf}) {
    expectBadParameter([&](Options& o) { set(o, "selector", str("privtune")); set(o, "expectedRuns", num(k)); }, "expectedRuns");
  }
  expectBadParameter([](Options& o) { set(o, "selector", str("grid")); }, "selector");
  expectBadParameter([](Options& o) { set(o, "calibration", str("loose")); }, "calibration");
  expectBadParameter([](Options& o) { set(o, "score", str("")); }, "score");
  expectBadParameter([](Options& o) { set(o, "pruning", str("some")); }, "pruning");
  for (double x : {0.0, -1.0, nan, inf}) {
    expectBadParameter([&](Options& o) { set(o, "stepScale", num(x)); }, "stepScale");
    expectBadParameter([&](Options& o) { set(o, "hingeScale", num(x)); }, "hingeScale");
  }
  for (double x : {0.0, -1.0, nan}) expectBadParameter([&](Options& o) { set(o, "pruneRatio", num(x)); }, "pruneRatio");
  for (double x : {-0.1, 1.0, nan}) expectBadParameter([&](Options& o) { set(o, "rangeShare", num(x)); }, "rangeShare");
  expectBadParameter([](Options& o) { set(o, "selector", str("privtune")); set(o, "rangeShare", num(0.1)); }, "rangeShare");
  // The paper's M* conversion is derived for ε < 8 ln(1/δ) only.
  expectBadParameter([](Options& o) { set(o, "calibration", str("paper")); set(o, "delta", num(0.1)); set(o, "epsilon", num(20)); }, "epsilon");
  // selector "fixed" needs a margin in (0, b]; other selectors take none.
  expectBadParameter([](Options& o) { set(o, "selector", str("fixed")); }, "margin");
  expectBadParameter([](Options& o) { set(o, "selector", str("fixed")); set(o, "margin", num(2)); }, "margin");
  expectBadParameter([](Options& o) { set(o, "margin", num(0.1)); }, "margin");
  expectBadParameter([](Options& o) { set(o, "selector", str("auto")); set(o, "margin", num(0.1)); }, "margin");
  // auto is a rule of the tight calibration: asked for with paper, it is refused by name.
  expectBadParameter([](Options& o) { set(o, "selector", str("auto")); set(o, "calibration", str("paper")); }, "selector");
  // Required options.
  expectBadParameter([](Options& o) { o.epsilon.reset(); }, "epsilon");
  expectBadParameter([](Options& o) { o.delta.reset(); }, "delta");
  expectBadParameter([](Options& o) { o.n.reset(); }, "n");
  expectBadParameter([](Options& o) { o.d.reset(); }, "d");
  // Training-only options are refused by a data-free plan, and n, d by training.
  expectBadParameter([](Options& o) { set(o, "intercept", Value::ofBoolean(false)); }, "intercept");
  expectBadParameter([](Options& o) { set(o, "seed", num(1)); }, "seed");
  // Training options.
  expectBadParameter([](Options& o) { set(o, "output", str("first")); }, "output", true);
  expectBadParameter([](Options& o) { set(o, "rowNormalization", str("l2")); }, "rowNormalization", true);
  for (double s : {-1.0, 0.5, 1e17}) expectBadParameter([&](Options& o) { set(o, "seed", num(s)); }, "seed", true);
  expectBadParameter([](Options& o) { set(o, "normBound", num(1e31)); }, "normBound", true);
  expectBadParameter([](Options& o) { set(o, "columnRanges", Value::ofPairs({{0, 1}})); }, "columnRanges", true);
  expectBadParameter([](Options& o) { set(o, "columnRanges", Value::ofPairs({{0, 1}, {0, 1}, {0, 1}, {0, 1}, {2, 1}})); },
                     "columnRanges[4].hi", true);
  expectBadParameter([](Options& o) {
    set(o, "columnRanges", Value::ofPairs({{0, 1}, {0, 1}, {0, 1}, {0, 1}, {0, 1}}));
    set(o, "rangeShare", num(0.1));
  }, "rangeShare", true);
  Options o = planOptions();
  o.n.reset(), o.d.reset();
  o.n = 5;
  EXPECT_THROW((void)resolve(o, 100, 5), Error);  // n comes from the data
}

TEST(RunOptions, WrongTypesAndUnknownNamesAreNamed) {
  Options o;
  const auto expectNamed = [&](const char* name, const Value& v, const char* fragment) {
    try {
      setOption(o, name, v);
      ADD_FAILURE() << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kBadParameter);
      EXPECT_EQ(e.parameter(), name);
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  };
  expectNamed("epsilon", str("1"), "epsilon must be a number, but is \"1\"");
  expectNamed("intercept", num(1), "intercept must be a boolean");
  expectNamed("selector", num(1), "selector must be one of iter|privtune|fixed|auto");
  expectNamed("selector", str("grid"), "\"iter\", \"privtune\", \"fixed\", \"auto\"");
  expectNamed("columnRanges", num(1), "an array of [lo, hi] number pairs");
  expectNamed("epsilonn", num(1), "a known option");
  // Text as typed on a command line, read by the option's type.
  setOptionFromText(o, "maxIterations", "50");
  setOptionFromText(o, "intercept", "false");
  setOptionFromText(o, "selector", "privtune");
  EXPECT_EQ(o.maxIterations, 50u);
  EXPECT_EQ(o.intercept, false);
  EXPECT_EQ(o.selector, plan::Selector::kPrivTune);
  expectNamed("maxIterations", str("5x"), "a number");
  EXPECT_THROW(setOptionFromText(o, "maxIterations", "5x"), Error);
}

TEST(RunDefaults, AppliedOnceAndByRule) {
  Options o;
  o.epsilon = 1, o.delta = 1e-5;
  const learn::TrainSettings s = resolve(o, 1000, 30);
  EXPECT_EQ(s.plan.n, 1000u);
  EXPECT_EQ(s.plan.d, 31u);  // + intercept
  EXPECT_TRUE(s.preprocessing.intercept);
  EXPECT_EQ(s.preprocessing.rows, learn::RowNormalization::kUnitNorm);
  EXPECT_EQ(s.preprocessing.normBound, 1.0);
  EXPECT_EQ(s.plan.normBound, 1.0);
  // Tight calibration: selector auto, one run (nothing to prune), T up to 600.
  EXPECT_EQ(s.plan.selector, plan::Selector::kAuto);
  EXPECT_EQ(s.plan.calibration, plan::Calibration::kTight);
  EXPECT_EQ(s.plan.maxIterations, 600u);
  EXPECT_EQ(s.plan.autoMuKnee, 0.25);
  EXPECT_EQ(s.plan.autoMinIterations, 200u);
  EXPECT_EQ(s.plan.autoIterationsPerMu, 800.0);
  EXPECT_EQ(s.plan.autoSelectNoise, 0.00125);
  EXPECT_EQ(s.plan.autoSelectRunShare, 0.97);
  EXPECT_EQ(s.plan.autoSelectFactor, 3.0);
  EXPECT_EQ(s.plan.margin, 0.0);  // γ₀ is the plan's (it needs μ_train)
  EXPECT_EQ(s.plan.rangeShare, 0.1);
  EXPECT_EQ(s.plan.pruning, plan::Pruning::kNone);
  EXPECT_EQ(s.plan.pruneRatio, 100.0);
  EXPECT_EQ(s.plan.jlFailure, 1e-6);  // 1/n²
  EXPECT_EQ(s.output, learn::OutputIterate::kLast);
  EXPECT_FALSE(s.seed.has_value());
  // Iter asked for: exactly the defaults before auto (T cap 200, noise-floor pruning).
  o.selector = plan::Selector::kIter;
  const learn::TrainSettings iter = resolve(o, 1000, 30);
  EXPECT_EQ(iter.plan.maxIterations, 200u);
  EXPECT_EQ(iter.plan.pruning, plan::Pruning::kNoiseFloor);
  EXPECT_EQ(iter.plan.rangeShare, 0.1);
  EXPECT_EQ(iter.output, learn::OutputIterate::kLast);
  o.selector.reset();
  // Paper: the paper's M* (Iter), the averaged iterate, the whole grid, D = 1, T cap 200.
  o.calibration = plan::Calibration::kPaper;
  const learn::TrainSettings paper = resolve(o, 1000, 30);
  EXPECT_EQ(paper.plan.selector, plan::Selector::kIter);
  EXPECT_EQ(paper.plan.maxIterations, 200u);
  EXPECT_EQ(paper.output, learn::OutputIterate::kAverage);
  EXPECT_EQ(paper.plan.pruning, plan::Pruning::kNone);
  // PrivTune: no private ranges (its accounting is not GDP); fixed: nothing to prune.
  o = {};
  o.epsilon = 1, o.delta = 1e-5, o.selector = plan::Selector::kPrivTune;
  EXPECT_EQ(resolve(o, 1000, 30).plan.rangeShare, 0.0);
  o.selector = plan::Selector::kFixed, o.margin = 0.1;
  EXPECT_EQ(resolve(o, 1000, 30).plan.pruning, plan::Pruning::kNone);
  EXPECT_EQ(resolve(o, 1000, 30).plan.rangeShare, 0.1);
  // Declared ranges: no private ranges by default; an explicit 0 is an explicit 0.
  o.columnRanges = std::vector<learn::ColumnRange>(30, {0, 1});
  EXPECT_EQ(resolve(o, 1000, 30).plan.rangeShare, 0.0);
  o.columnRanges = std::vector<learn::ColumnRange>{};  // empty: none declared
  EXPECT_EQ(resolve(o, 1000, 30).plan.rangeShare, 0.1);
  o.rangeShare = 0.0;
  EXPECT_EQ(resolve(o, 1000, 30).plan.rangeShare, 0.0);
  // "auto" is the rule (unset); no intercept shrinks d.
  o = {};
  o.epsilon = 1, o.delta = 1e-5, o.intercept = false;
  setOption(o, "pruning", Value::ofText("auto"));
  EXPECT_FALSE(o.pruning.has_value());
  EXPECT_EQ(resolve(o, 1000, 30).plan.d, 30u);
  // A data-free plan defaults as training does.
  Options a = planOptions();
  EXPECT_EQ(account(a).request.rangeShare, 0.1);
  EXPECT_EQ(account(a).request.d, 50u);
}

TEST(RunOptions, TheTableIsConsistent) {
  std::set<std::string> names;
  for (const OptionSpec& spec : optionSpecs()) {
    EXPECT_TRUE(names.insert(spec.name).second) << "duplicate option " << spec.name;
    EXPECT_FALSE(spec.defaultText.empty()) << spec.name;
    EXPECT_NE(std::string(spec.help), "") << spec.name;
    EXPECT_EQ(findOption(spec.name), &spec);
    if (spec.type == OptionType::kChoice) {
      EXPECT_NE(std::string(spec.choices), "") << spec.name;
    }
    // A constant default is a valid value of its own option.
    if (spec.defaultValue) {
      Options o;
      EXPECT_NO_THROW(spec.set(o, *spec.defaultValue)) << spec.name;
    }
  }
  EXPECT_EQ(findOption("nope"), nullptr);
}

// The resolved auto plan (golden): one unprojected candidate at γ₀ = b·max(1, √(0.25/μ_class))/√n,
// T = min(600, max(200, ⌈800·μ_class⌉)), the whole μ_class for the run, no score. μ from the
// exact GDP conversion (independently: scipy brentq on δ(ε; μ) = 1e-5), μ_train = √0.9·μ.
TEST(RunAuto, ResolvedPlanGolden) {
  struct Case {
    double epsilon;
    std::uint64_t n, classes;
    double mu, muClass, gamma;
    std::uint64_t T;
    bool capped;
  };
  const Case cases[] = {
      {0.5, 1000, 2, 0.14221055866926188, 0.13491278181596145, 0.0430470560417807, 200, false},
      {1.0, 1000, 2, 0.268051123211294, 0.254295623614235, 0.03162277660168379, 204, false},
      {2.0, 1000, 2, 0.5015516891696565, 0.4758137106242759, 0.03162277660168379, 381, false},
      {4.0, 1000, 2, 0.9249308976669366, 0.8774664944674917, 0.03162277660168379, 600, true},
      {1.0, 456, 2, 0.268051123211294, 0.254295623614235, 0.0468292905790847, 204, false},
      // One-vs-rest over 4 classes: each problem's μ_class = μ_train/2 drives its rule.
      {4.0, 1000, 4, 0.9249308976669366, 0.43873324723374585, 0.03162277660168379, 351, false},
  };
  for (const Case& k : cases) {
    Options o;
    o.epsilon = k.epsilon, o.delta = 1e-5, o.n = k.n, o.d = 50, o.classCount = k.classes;
    o.multiclass = plan::Multiclass::kOneVsRest;  // the joint learner: joint_multiclass_test.cpp
    const plan::Plan p = account(o);
    const std::string at = "eps=" + std::to_string(k.epsilon) + " n=" + std::to_string(k.n) +
                           " K=" + std::to_string(k.classes);
    EXPECT_EQ(p.request.selector, plan::Selector::kAuto) << at;
    EXPECT_NEAR(p.mu, k.mu, 1e-9 * k.mu) << at;
    EXPECT_NEAR(p.muClass, k.muClass, 1e-9 * k.muClass) << at;
    EXPECT_EQ(p.muRun, p.muClass) << at;  // no selection: the whole budget for the one run
    EXPECT_EQ(p.scoreSd, 0.0) << at;
    EXPECT_DOUBLE_EQ(p.muTrain * p.muTrain + p.muRanges * p.muRanges, p.mu * p.mu) << at;
    EXPECT_EQ(p.gridSize, 1u) << at;
    EXPECT_TRUE(p.pruned.empty()) << at;
    ASSERT_EQ(p.candidates.size(), 1u) << at;
    const plan::CandidatePlan& c = p.candidates[0];
    EXPECT_NEAR(c.gamma, k.gamma, 1e-12) << at;
    EXPECT_DOUBLE_EQ(c.gamma, plan::autoMargin(p.request, p.muClass)) << at;
    EXPECT_FALSE(c.projected) << at;
    EXPECT_GT(c.kJl, 50u) << at;  // the JL bound would not project either at these sizes
    EXPECT_EQ(c.k, 50u) << at;
    EXPECT_EQ(c.c, c.gamma) << at;
    EXPECT_EQ(c.clipRadius, 1.0) << at;
    EXPECT_EQ(c.T, k.T) << at;
    EXPECT_EQ(c.capped, k.capped) << at;
    EXPECT_DOUBLE_EQ(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun) << at;
  }
  // No projection even where the JL bound would project (d ≫ k_γ; at γ₀ ≈ b/√n that needs a
  // tiny n, where γ₀ = b): auto trains in k = d, with c = γ and R = b.
  Options wide = planOptions();
  wide.n = 4, wide.d = 100000, wide.epsilon = 0.01;
  const plan::Plan w = account(wide);
  ASSERT_EQ(w.candidates.size(), 1u);
  EXPECT_EQ(w.candidates[0].gamma, 1.0);
  EXPECT_LT(w.candidates[0].kJl, 100000u);
  EXPECT_FALSE(w.candidates[0].projected);
  EXPECT_EQ(w.candidates[0].k, 100000u);
  EXPECT_EQ(w.candidates[0].clipRadius, 1.0);
  // A user's maxIterations caps the rule (and is the cap, not T, above it).
  Options capped = planOptions();
  capped.maxIterations = 50;
  EXPECT_EQ(account(capped).candidates[0].T, 50u);
  capped.maxIterations = 5000;
  EXPECT_EQ(account(capped).candidates[0].T, 204u);
  // γ₀ never exceeds b (tiny n, tiny μ).
  Options tiny = planOptions();
  tiny.n = 4, tiny.epsilon = 0.01;
  EXPECT_EQ(account(tiny).candidates[0].gamma, 1.0);
}

// On a large table auto selects privately among {γ₀/3, γ₀, 3γ₀}: an Iter over three public
// margins whose runs share 97% of μ_class² (μ_run = μ_class·√(0.97/3)) and whose error counts
// get the rest (score sd √(3/0.03)/μ_class = 10/μ_class), when that sd is at most 0.125% of n
// (n·μ_class ≥ 8,000).
// γ₀ and T follow auto's rule at μ_run. The switch is a public function of n and μ_class.
TEST(RunAuto, SelectsAmongThreeMarginsOnALargeTable) {
  Options o = planOptions();
  o.n = 40000;  // ε = 1: μ_class ≈ 0.254, n·μ_class ≈ 10,000
  const plan::Plan p = account(o);
  ASSERT_TRUE(p.selects);
  EXPECT_EQ(p.request.selector, plan::Selector::kAuto);
  EXPECT_EQ(p.request.pruning, plan::Pruning::kNone);
  EXPECT_NEAR(p.muRun, p.muClass * std::sqrt(0.97 / 3.0), 1e-15);
  EXPECT_NEAR(p.scoreSd, 10.0 / p.muClass, 1e-12 * p.scoreSd);
  EXPECT_NEAR(3 * p.muRun * p.muRun + 3 / (p.scoreSd * p.scoreSd), p.muClass * p.muClass, 1e-15);
  EXPECT_LE(p.scoreSd, 0.00125 * 40000);
  const double gamma0 = plan::autoMargin(p.request, p.muRun);
  EXPECT_DOUBLE_EQ(gamma0, 1.0 * std::max(1.0, std::sqrt(0.25 / p.muRun)) / std::sqrt(40000.0));
  EXPECT_EQ(p.autoMargin, gamma0);
  EXPECT_EQ(p.gridSize, 3u);
  ASSERT_EQ(p.candidates.size(), 3u);
  const double expected[] = {gamma0 / 3, gamma0, gamma0 * 3};
  for (std::size_t j = 0; j < 3; ++j) {
    const plan::CandidatePlan& c = p.candidates[j];
    EXPECT_DOUBLE_EQ(c.gamma, expected[j]) << j;
    EXPECT_FALSE(c.projected) << j;
    EXPECT_EQ(c.k, 50u) << j;
    EXPECT_EQ(c.c, c.gamma) << j;
    EXPECT_EQ(c.clipRadius, 1.0) << j;
    // One T for all (the trainer batches them): auto's rule at μ_run.
    EXPECT_EQ(c.T, std::min<std::uint64_t>(plan::autoIterations(p.request, p.muRun), c.TUncapped)) << j;
    EXPECT_EQ(c.T, p.candidates[0].T) << j;
    EXPECT_DOUBLE_EQ(c.sigma, c.sensitivity * (1 + p.floatSlack) * std::sqrt(double(c.T)) / p.muRun) << j;
  }
  // The switch: the smallest n whose score sd is ≤ 0.125% of n selects, one row fewer does not
  // (μ_class does not depend on n). Multiclass: each problem's μ_class decides.
  const auto threshold = static_cast<std::uint64_t>(std::ceil(p.scoreSd / 0.00125));
  o.n = threshold;
  EXPECT_TRUE(account(o).selects);
  o.n = threshold - 1;
  const plan::Plan below = account(o);
  EXPECT_FALSE(below.selects);
  EXPECT_EQ(below.candidates.size(), 1u);
  EXPECT_EQ(below.muRun, below.muClass);
  EXPECT_EQ(below.scoreSd, 0.0);
  o.multiclass = plan::Multiclass::kOneVsRest;  // (joint: one mechanism at μ_train, as binary)
  o.n = 80000, o.classCount = 4;  // μ_class halves: score sd 20/μ ≈ 79 ≤ 100 still selects
  EXPECT_TRUE(account(o).selects);
  o.classCount = 9;  // μ_class = μ_train/3: sd ≈ 118 > 100 does not
  EXPECT_FALSE(account(o).selects);
  // Where 3γ₀ would exceed b, the cap keeps it at b; a margin equal to the one below is dropped.
  // (The switch forced on tiny tables, where it would not select.)
  plan::PlanRequest r = account(planOptions()).request;
  r.autoSelectNoise = 1e9, r.epsilon = 50;
  r.n = 16;  // γ₀ = 1/4: {1/12, 1/4, 3/4}
  const plan::Plan tiny = plan::makePlan(r);
  ASSERT_TRUE(tiny.selects);
  ASSERT_EQ(tiny.candidates.size(), 3u);
  EXPECT_DOUBLE_EQ(tiny.candidates[0].gamma, 1.0 / 12);
  EXPECT_DOUBLE_EQ(tiny.candidates[2].gamma, 0.75);
  r.n = 4;  // γ₀ = 1/2: {1/6, 1/2, 1}, 3/2 capped
  EXPECT_EQ(plan::makePlan(r).candidates.back().gamma, 1.0);
  r.n = 2;  // γ₀ = b/√2: {b/(3√2), b/√2, b}
  EXPECT_EQ(plan::makePlan(r).candidates.size(), 3u);
  // γ₀ = b (a tiny μ_run on a tiny table): {b/3, b}, the capped 3b dropped.
  r.epsilon = 0.01;
  const plan::Plan capped = plan::makePlan(r);
  ASSERT_EQ(capped.candidates.size(), 2u);
  EXPECT_DOUBLE_EQ(capped.candidates[0].gamma, 1.0 / 3);
  EXPECT_EQ(capped.candidates[1].gamma, 1.0);
}

// The selection's parameters are validated like every other (a hand-built request).
TEST(RunAuto, SelectionParametersAreValidated) {
  plan::PlanRequest r = account(planOptions()).request;
  const auto rejects = [&](const char* name, auto mutate) {
    plan::PlanRequest bad = r;
    mutate(bad);
    try {
      (void)plan::makePlan(bad);
      ADD_FAILURE() << name << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kBadParameter) << name;
      EXPECT_EQ(e.parameter(), name);
    }
  };
  for (double v : {-1.0, std::nan(""), HUGE_VAL}) {
    rejects("autoSelectNoise", [&](plan::PlanRequest& x) { x.autoSelectNoise = v; });
  }
  for (double v : {0.0, 1.0, -0.5, std::nan("")}) {
    rejects("autoSelectRunShare", [&](plan::PlanRequest& x) { x.autoSelectRunShare = v; });
  }
  for (double v : {1.0, 0.5, -2.0, std::nan(""), HUGE_VAL}) {
    rejects("autoSelectFactor", [&](plan::PlanRequest& x) { x.autoSelectFactor = v; });
  }
  for (double v : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    rejects("autoMuKnee", [&](plan::PlanRequest& x) { x.autoMuKnee = v; });
  }
  for (double v : {-1.0, std::nan(""), HUGE_VAL}) {
    rejects("autoIterationsPerMu", [&](plan::PlanRequest& x) { x.autoIterationsPerMu = v; });
  }
  // 0: auto never selects.
  r.n = 40000;
  r.autoSelectNoise = 0;
  EXPECT_FALSE(plan::makePlan(r).selects);
}

// auto is the default; calibration "paper" is still the paper's M* (Iter over the whole grid,
// the paper's μ, T = ⌈n²μ_run²⌉, averaged iterate), and every selector asked for by name plans
// exactly as before.
TEST(RunAuto, DefaultIsAutoAndPaperIsUnchanged) {
  Options o = planOptions();
  EXPECT_EQ(account(o).request.selector, plan::Selector::kAuto);
  o.calibration = plan::Calibration::kPaper;
  const plan::Plan paper = account(o);
  EXPECT_EQ(paper.request.selector, plan::Selector::kIter);
  EXPECT_EQ(paper.request.pruning, plan::Pruning::kNone);
  EXPECT_EQ(paper.request.maxIterations, 200u);
  EXPECT_EQ(paper.candidates.size(), paper.gridSize);
  EXPECT_EQ(paper.gridSize, 11u);  // ⌈log₂ 1000⌉ + 1
  o.selector = plan::Selector::kIter;
  plan::PlanRequest before = paper.request;
  EXPECT_EQ(account(o).request, before);
  // Iter in tight calibration: the pre-auto defaults (T cap 200, noise-floor pruning).
  Options iter = planOptions();
  iter.selector = plan::Selector::kIter;
  const plan::Plan i = account(iter);
  EXPECT_EQ(i.request.maxIterations, 200u);
  EXPECT_EQ(i.request.pruning, plan::Pruning::kNoiseFloor);
  EXPECT_GT(i.candidates.size(), 1u);
  EXPECT_GT(i.scoreSd, 0.0);
}

TEST(RunSettings, SeedMakesASeededGenerator) {
  Options o;
  o.epsilon = 1, o.delta = 1e-5;
  learn::TrainSettings s = resolve(o, 10, 2);
  EXPECT_FALSE(makeGenerator(s).isSeeded());
  o.seed = 3;
  s = resolve(o, 10, 2);
  EXPECT_TRUE(makeGenerator(s).isSeeded());
  EXPECT_EQ(makeGenerator(s).nextU64(), random::Generator::seeded(3).nextU64());
}

}  // namespace
}  // namespace dpmargin::run
