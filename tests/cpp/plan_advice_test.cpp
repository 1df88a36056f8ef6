// Plain-language advice on a plan (plan::advise; docs/reference/LEARNERS.md, "What the plan tells you").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>
#include <string>

#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::plan {
namespace {

// The data-free plan the API's account() makes (every default; selector auto unless given).
Plan planFor(std::uint64_t n, double epsilon, const char* selector = "auto", std::uint64_t d = 11) {
  run::Options o;
  o.epsilon = epsilon;
  o.delta = 1e-6;
  o.n = n;
  o.d = d;
  o.selector = parseSelector(selector);
  return run::account(o);
}

int rank(Verdict v) { return v == Verdict::kGood ? 0 : v == Verdict::kMarginal ? 1 : 2; }

TEST(PlanAdvice, VerdictFollowsTheBestRatio) {
  for (const char* selector : {"auto", "iter", "privtune"}) {
    for (std::uint64_t n : {100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL}) {
      for (double eps : {0.1, 1.0, 8.0}) {
        const Plan p = planFor(n, eps, selector);
        const Advice a = advise(p);
        const double ratio = bestNoiseFloorRatio(p);
        EXPECT_EQ(a.noiseFloorRatio, ratio);
        const Verdict expected = ratio <= 1 ? Verdict::kGood
                                 : ratio <= p.request.pruneRatio ? Verdict::kMarginal
                                                                 : Verdict::kTooLittleData;
        EXPECT_EQ(a.verdict, expected) << selector << " n=" << n << " eps=" << eps;
        for (const CandidatePlan& c : p.candidates) {
          const bool listed = std::find(a.usableMargins.begin(), a.usableMargins.end(), c.gamma) !=
                              a.usableMargins.end();
          EXPECT_EQ(listed, c.noiseFloorRatio <= 1.0);
        }
        EXPECT_FALSE(a.text.empty());
      }
    }
  }
}

// Golden verdicts of the default (auto) plan, d = 11, δ = 1e-6.
TEST(PlanAdvice, GoldenVerdicts) {
  EXPECT_EQ(advise(planFor(10, 0.05, "auto", 50)).verdict, Verdict::kTooLittleData);
  EXPECT_EQ(advise(planFor(100, 0.1)).verdict, Verdict::kMarginal);
  const Advice a = advise(planFor(1000, 1));
  EXPECT_EQ(a.verdict, Verdict::kMarginal);
  EXPECT_NEAR(a.noiseFloorRatio, 1.7706, 0.0001);
  // Auto: γ₀ ∝ 1/√n makes the ratio ∝ 1/√n, so 1.7706² × 1000 rows ≈ 3,136 (μ ≈ 0.23 < 0.25 at
  // δ = 1e-6: γ₀ carries the factor √(0.25/μ_train) ≈ 1.05, which more rows do not change).
  EXPECT_EQ(a.nForGood, 3136u);
  EXPECT_NEAR(a.epsilonForGood, 1.970, 0.001);
  EXPECT_EQ(advise(planFor(1000000, 1)).verdict, Verdict::kGood);
  EXPECT_EQ(advise(planFor(1000, 1, "iter", 50)).verdict, Verdict::kGood);  // γ = b is usable
  EXPECT_STREQ(toString(Verdict::kGood), "good");
  EXPECT_STREQ(toString(Verdict::kMarginal), "marginal");
  EXPECT_STREQ(toString(Verdict::kTooLittleData), "too little data");
}

TEST(PlanAdvice, MoreRowsOrBudgetNeverWorsens) {
  for (const char* selector : {"auto", "iter"}) {
    double previous = INFINITY;
    int previousRank = 2;
    for (std::uint64_t n = 50; n <= 5000000; n = n * 3 / 2) {
      const Advice a = advise(planFor(n, 1.0, selector));
      EXPECT_LE(a.noiseFloorRatio, previous * (1 + 1e-12)) << selector << " n=" << n;
      EXPECT_LE(rank(a.verdict), previousRank) << selector << " n=" << n;
      previous = a.noiseFloorRatio;
      previousRank = rank(a.verdict);
    }
    previous = INFINITY;
    previousRank = 2;
    for (double eps = 0.05; eps <= 50; eps *= 1.3) {
      const Advice a = advise(planFor(5000, eps, selector));
      EXPECT_LE(a.noiseFloorRatio, previous * (1 + 1e-12)) << selector << " eps=" << eps;
      EXPECT_LE(rank(a.verdict), previousRank) << selector << " eps=" << eps;
      previous = a.noiseFloorRatio;
      previousRank = rank(a.verdict);
    }
  }
}

TEST(PlanAdvice, ReplannedAtTheAdvisedNAndEpsilonTheRatioReachesOne) {
  for (const char* selector : {"auto", "iter"}) {
    for (std::uint64_t n : {200ULL, 2000ULL, 50000ULL}) {
      for (double eps : {0.3, 1.0, 4.0}) {
        const Plan p = planFor(n, eps, selector);
        const Advice a = advise(p);
        ASSERT_GT(a.nForGood, 0u) << selector << " n=" << n << " eps=" << eps;
        ASSERT_GT(a.epsilonForGood, 0) << selector << " n=" << n << " eps=" << eps;
        PlanRequest r = p.request;
        r.n = a.nForGood;
        const double atN = bestNoiseFloorRatio(makePlan(r));
        EXPECT_LE(atN, 1.0);
        EXPECT_GE(atN, 0.5) << "nForGood should be near the smallest such n";
        if (a.nForGood > 1) {  // the smallest: one row fewer is not good
          r.n = a.nForGood - 1;
          EXPECT_GT(bestNoiseFloorRatio(makePlan(r)), 1.0) << selector << " n=" << n;
        }
        r = p.request;
        r.epsilon = a.epsilonForGood;
        const double atEps = bestNoiseFloorRatio(makePlan(r));
        EXPECT_LE(atEps, 1.0);
        r.epsilon = a.epsilonForGood * 0.99;  // within 1%: a slightly smaller ε is not good
        EXPECT_GT(bestNoiseFloorRatio(makePlan(r)), 1.0) << selector << " n=" << n << " eps=" << eps;
        // Good now ⇔ the advised n and ε are at most today's.
        const bool good = a.verdict == Verdict::kGood;
        EXPECT_EQ(good, a.nForGood <= n);
        EXPECT_EQ(good, a.epsilonForGood <= eps * (1 + 1e-6));
      }
    }
  }
}

// A function of the plan only: the same plan (built twice, no data anywhere) gives the same
// advice, and the advice changes only through the plan's public numbers.
TEST(PlanAdvice, UsesThePlanOnly) {
  const Plan p = planFor(1000, 1);
  const Advice a = advise(p), b = advise(planFor(1000, 1));
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.nForGood, b.nForGood);
  EXPECT_EQ(a.epsilonForGood, b.epsilonForGood);
  EXPECT_EQ(a.usableMargins, b.usableMargins);
  // Also from a hand-made plan with the same request: identical.
  const Advice c = advise(makePlan(p.request));
  EXPECT_EQ(a.text, c.text);
}

TEST(PlanAdvice, TextSpeaksPlainly) {
  const Advice bad = advise(planFor(1000, 1));
  EXPECT_NE(bad.text.find("With n = 1,000 rows at ε = 1 the noise is"), std::string::npos) << bad.text;
  EXPECT_NE(bad.text.find("× the signal"), std::string::npos) << bad.text;
  EXPECT_NE(bad.text.find("would bring it to the signal's level"), std::string::npos) << bad.text;
  const Advice good = advise(planFor(1000000, 1));
  EXPECT_NE(good.text.find("enough for the model to learn"), std::string::npos) << good.text;
  // No expert notation in the text.
  for (const Advice* a : {&bad, &good}) {
    EXPECT_EQ(a->text.find("e+"), std::string::npos) << a->text;
    EXPECT_EQ(a->text.find("e-"), std::string::npos) << a->text;
    EXPECT_EQ(a->text.find("σ"), std::string::npos) << a->text;
  }
}

// What the selector does, said from the plan: auto's one run at γ₀ and why no choice is needed
// (autoSelection's numbers), or its choice among three margins; the other selectors' own words.
TEST(PlanAdvice, SelectionSaysWhatRunsAndWhy) {
  for (std::uint64_t n : {300ULL, 1000ULL, 10000ULL, 30000ULL, 100000ULL, 1000000ULL}) {
    const Plan p = planFor(n, 1);
    const Advice a = advise(p);
    const AutoSelection s = autoSelection(p.request, p.muClass);
    EXPECT_EQ(s.selects, p.selects) << n;
    if (p.selects) {
      EXPECT_EQ(a.selection.rfind("A choice among three margins around the public γ₀ = ", 0), 0u) << a.selection;
      EXPECT_NE(a.selection.find("It pays here"), std::string::npos) << a.selection;
    } else {
      EXPECT_EQ(a.selection.rfind("One run at the public margin γ₀ = ", 0), 0u) << a.selection;
      EXPECT_NE(a.selection.find("A choice would not pay here"), std::string::npos) << a.selection;
    }
    // The rule's numbers: the limit is 0.125% of the rows, from n·μ_train ≥ 8,000.
    EXPECT_NE(a.selection.find("at most 0.125% of the rows (n·μ_train ≥ 8,000)"), std::string::npos) << a.selection;
  }
  // The threshold is where the plan switches: just under and just over n·μ_train = 8,000.
  const Plan small = planFor(1000, 1);
  const AutoSelection s = autoSelection(small.request, small.muClass);
  EXPECT_NEAR(s.nMuFrom, 8000.0, 1e-6);
  EXPECT_NEAR(s.scoreSd, 10.0 / small.muClass, 1e-9);
  EXPECT_DOUBLE_EQ(s.limit, 0.00125 * 1000);
  EXPECT_NE(advise(small).selection.find("at n = 1,000 rows and ε = 1 that noise would be"), std::string::npos);

  const Advice iter = advise(planFor(1000, 1, "iter"));
  EXPECT_EQ(iter.selection.rfind("Iter trains every one of the ", 0), 0u) << iter.selection;
  const Advice tune = advise(planFor(1000, 1, "privtune"));
  EXPECT_NE(tune.selection.find("stays hidden"), std::string::npos) << tune.selection;
  run::Options o;
  o.epsilon = 1;
  o.delta = 1e-6;
  o.n = 1000;
  o.d = 11;
  o.selector = Selector::kFixed;
  o.margin = 0.1;
  const Advice fixed = advise(run::account(o));
  EXPECT_EQ(fixed.selection, "One run at the margin you gave, γ = 0.1, with the whole training budget: nothing is scored or selected.");
}

struct Names {
  std::vector<std::string> names;
  void number(const char* k, double) { names.push_back(k); }
  void count(const char* k, std::uint64_t) { names.push_back(k); }
  void boolean(const char* k, bool) { names.push_back(k); }
  void text(const char* k, const char*) { names.push_back(k); }
  void numbers(const char* k, const std::vector<double>&) { names.push_back(k); }
  template <class F>
  void list(const char* k, std::size_t, F&&) { names.push_back(k); }
  template <class F>
  void object(const char* k, F&& fill) {
    names.push_back(k);
    fill(*this);
  }
};

TEST(PlanAdvice, DescribedAsAdviceObject) {
  Names w;
  describePlan(planFor(1000, 1), w);
  for (const char* k : {"advice", "verdict", "noiseFloorRatio", "usableMargins", "nForGood",
                        "epsilonForGood", "text", "selection"}) {
    EXPECT_NE(std::find(w.names.begin(), w.names.end(), k), w.names.end()) << k;
  }
}

}  // namespace
}  // namespace dpmargin::plan
