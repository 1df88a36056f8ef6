// The margin profile's advice (profile/advice.hpp): rows in the way of separability, and the
// curve's margin against the default learner's public margin γ₀ = b·max(1, √(0.25/μ_run))/√n.
// Local and not private, like the profile.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "dpmargin/profile/advice.hpp"
#include "dpmargin/run/run.hpp"
#include "profile_synthetic.hpp"

namespace dpmargin::profile {
namespace {

// The plan the default learner makes for a table of n rows (d features + the intercept).
plan::Plan planFor(double epsilon, std::uint64_t n, std::uint64_t features = 10) {
  run::Options o;
  o.epsilon = epsilon;
  o.delta = 1e-5;
  return run::planForTable(o, n, features);
}

CurvePoint point(std::size_t removed, std::size_t n, double margin) {
  CurvePoint c;
  c.removed = removed;
  c.fraction = static_cast<double>(removed) / static_cast<double>(n);
  c.margin = margin > 0 ? margin : 0;
  c.minimumMargin = margin;
  c.gridIndex = 0;
  return c;
}

// A result by hand: margins at the given removal counts.
ProfileResult curve(std::size_t n, std::initializer_list<std::pair<std::size_t, double>> points,
                    std::size_t lastViolators = 0) {
  ProfileResult r;
  r.n = n;
  for (const auto& [removed, margin] : points) {
    r.curve.push_back(point(removed, n, margin));
    if (margin > 0 && !r.separable) {
      r.separable = true;
      r.firstSeparableRemoved = removed;
      r.firstSeparableFraction = static_cast<double>(removed) / static_cast<double>(n);
    }
  }
  r.lastViolators = lastViolators;
  return r;
}

TEST(ProfileAdviceTest, LearnerMarginIsAutosGammaZero) {
  const plan::Plan p = planFor(1.0, 26000);
  ASSERT_EQ(p.request.selector, plan::Selector::kAuto);  // the default
  const LearnerMargin m = learnerMargin(p);
  EXPECT_EQ(m.gamma0, p.autoMargin);
  const double expected = std::max(1.0, std::sqrt(0.25 / p.muRun)) / std::sqrt(26000.0);
  EXPECT_NEAR(m.normalized, expected, 1e-12 * expected);
  EXPECT_EQ(m.n, 26000u);
  EXPECT_EQ(m.epsilon, 1.0);
  // Another selector: the γ₀ auto would use with the whole per-problem budget.
  run::Options o;
  o.epsilon = 1.0;
  o.delta = 1e-5;
  o.selector = plan::Selector::kIter;
  const plan::Plan iter = run::planForTable(o, 26000, 10);
  const LearnerMargin mi = learnerMargin(iter);
  EXPECT_NEAR(mi.normalized, std::max(1.0, std::sqrt(0.25 / iter.muClass)) / std::sqrt(26000.0),
              1e-12);
}

TEST(ProfileAdviceTest, NotSeparableSaysHowManyRowsAtMostAndNoLargeMargin) {
  const plan::Plan p = planFor(1.0, 26000);
  const ProfileResult r = curve(26000, {{0, -0.4}, {130, -0.3}, {1300, -0.1}}, 4210);
  const ProfileAdvice a = adviseProfile(r, &p);
  EXPECT_FALSE(ProfileAdvice::kPrivate);
  EXPECT_EQ(a.verdict, ProfileVerdict::kNotSeparable);
  EXPECT_FALSE(a.separable);
  EXPECT_TRUE(std::isnan(a.rowsInTheWayFraction));
  EXPECT_EQ(a.rowsInTheWayAtMost, 1300u + 4210u);
  EXPECT_TRUE(std::isnan(a.largeMarginFraction));
  EXPECT_NE(a.text.find("Not linearly separable after removing 5% of the rows"), std::string::npos)
      << a.text;
  EXPECT_NE(a.text.find("4,210 more"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("at most 5,510 rows (21.2%) stand in the way"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("cannot expect a large margin"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("n = 26,000 and ε = 1"), std::string::npos) << a.text;
}

TEST(ProfileAdviceTest, LargeMarginFromTheStartOrAfterRemovals) {
  const plan::Plan p = planFor(1.0, 2000);
  const double g = learnerMargin(p).normalized;  // ≈ 1/√2000 ≈ 0.022
  // Separable as it is, above γ₀/b.
  ProfileAdvice a = adviseProfile(curve(2000, {{0, 2 * g}, {100, 3 * g}}), &p);
  EXPECT_EQ(a.verdict, ProfileVerdict::kLargeMargin);
  EXPECT_EQ(a.rowsInTheWay, 0u);
  EXPECT_EQ(a.largeMarginRemoved, 0u);
  EXPECT_EQ(a.rowsInTheWayFraction, 0.0);
  EXPECT_NE(a.text.find("Linearly separable as it is"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("can expect a large margin"), std::string::npos) << a.text;
  // Separable after 10 rows with a small margin, above γ₀/b after 40.
  a = adviseProfile(curve(2000, {{0, -0.1}, {10, g / 4}, {20, g / 2}, {40, 1.5 * g}, {100, 2 * g}}), &p);
  EXPECT_EQ(a.verdict, ProfileVerdict::kLargeMargin);
  EXPECT_EQ(a.rowsInTheWay, 10u);
  EXPECT_DOUBLE_EQ(a.rowsInTheWayFraction, 0.005);
  EXPECT_EQ(a.marginAtFirstSeparable, g / 4);
  EXPECT_EQ(a.largeMarginRemoved, 40u);
  EXPECT_DOUBLE_EQ(a.largeMarginFraction, 0.02);
  EXPECT_NE(a.text.find("10 rows of 2,000 (0.5%) stand in the way"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("After removing 40 rows (2%) the margin reaches"), std::string::npos) << a.text;
}

TEST(ProfileAdviceTest, SmallMarginSaysWhereGammaZeroWouldFallToIt) {
  const plan::Plan p = planFor(1.0, 2000);
  const LearnerMargin l = learnerMargin(p);
  const double g = l.normalized;
  const ProfileAdvice a = adviseProfile(curve(2000, {{0, -0.1}, {10, g / 8}, {100, g / 2}}), &p);
  EXPECT_EQ(a.verdict, ProfileVerdict::kSmallMargin);
  EXPECT_EQ(a.rowsInTheWay, 10u);
  EXPECT_EQ(a.marginReached, g / 2);
  EXPECT_DOUBLE_EQ(a.marginReachedFraction, 0.05);
  // γ₀ ∝ 1/√n: half the margin at four times the rows.
  EXPECT_NEAR(static_cast<double>(a.nForLargeMargin), 8000.0, 1.0);
  EXPECT_NE(a.text.find("stays below γ₀/b"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("cannot count on a large margin"), std::string::npos) << a.text;
  EXPECT_NE(a.text.find("8,000 rows"), std::string::npos) << a.text;
}

TEST(ProfileAdviceTest, WithoutABudgetOnlySeparability) {
  ProfileAdvice a = adviseProfile(curve(500, {{0, -0.2}, {5, 0.03}}), nullptr);
  EXPECT_EQ(a.verdict, ProfileVerdict::kSeparable);
  EXPECT_FALSE(a.hasBudget);
  EXPECT_EQ(a.rowsInTheWay, 5u);
  EXPECT_NE(a.text.find("Give ε and δ"), std::string::npos) << a.text;
  a = adviseProfile(curve(500, {{0, -0.2}, {25, -0.1}}, 7), nullptr);
  EXPECT_EQ(a.verdict, ProfileVerdict::kNotSeparable);
  EXPECT_EQ(a.rowsInTheWayAtMost, 32u);
}

// On a real profile: the synthetic data with m flipped rows and margin γ* (profile_curve_test).
TEST(ProfileAdviceTest, OnAProfileTheRowsInTheWayAreTheFlippedOnes) {
  const auto data = testing::svm::makeSynthetic(2000, 10, 0.1, 100, 10, 11);
  const ProfileResult r = profileMargins(data.view());
  const plan::Plan p = planFor(1.0, 2000);
  const ProfileAdvice a = adviseProfile(r, &p);
  EXPECT_EQ(a.rowsInTheWay, 10u);
  EXPECT_EQ(a.verdict, ProfileVerdict::kLargeMargin);  // γ* = 0.1 > γ₀/b ≈ 0.022
  EXPECT_EQ(a.largeMarginRemoved, 10u);
  EXPECT_NEAR(a.marginAtFirstSeparable, 0.1, 0.005);
  EXPECT_NE(a.text.find("large margin on all but about 0.5% of the rows"), std::string::npos)
      << a.text;
  // And the last fit leaves nothing misclassified.
  EXPECT_EQ(r.lastViolators, 0u);
}

}  // namespace
}  // namespace dpmargin::profile
