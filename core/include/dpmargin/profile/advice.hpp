// What a margin profile means for the user's choice (docs/reference/MARGIN_PROFILE.md, "Advice"): how many
// rows stand in the way of linear separability, and whether the margin learners can expect a
// large margin — the curve's margin set against the public margin γ₀ at which the default
// learner (selector auto) trains for this n and ε (plan::autoMargin).
// LOCAL AND NOT PRIVATE, like the profile it reads: it is never part of a released model.
// The one home of these rules: the CLI and the app only display the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "dpmargin/plan/plan.hpp"
#include "dpmargin/profile/margin_profiler.hpp"

namespace dpmargin::profile {

// "large margin": the curve reaches the learner's margin within the removal range;
// "small margin": separable within the range, but the margin stays below it;
// "not separable": no fit separated the remaining rows;
// "separable": separable, and no budget was given to compare the margin with.
enum class ProfileVerdict { kLargeMargin, kSmallMargin, kNotSeparable, kSeparable };
const char* toString(ProfileVerdict verdict) noexcept;  // the names above

// The learner's side of the comparison, from a plan (public numbers only).
struct LearnerMargin {
  double epsilon = 0, delta = 0;
  std::uint64_t n = 0;      // the plan's rows
  double normBound = 1;     // b
  double muRun = 0;         // μ of auto's run (μ_class when the plan is not auto's)
  double gamma0 = 0;        // auto's public margin γ₀ = min(b, b·max(1, √(knee/μ_run))/√n)
  double normalized = 0;    // γ₀/b: on the scale of the profile's normalized margin
};
// Auto's γ₀ of the plan (its autoMargin), or, for another selector, the γ₀ auto would use with
// the plan's whole per-problem budget μ_class (plan::autoMargin).
LearnerMargin learnerMargin(const plan::Plan& plan);

struct ProfileAdvice {
  static constexpr bool kPrivate = false;
  static constexpr const char* kPrivacyNote =
      "local, not private: advice from the margin profile, which reads every row";
  ProfileVerdict verdict = ProfileVerdict::kNotSeparable;
  std::size_t n = 0;                   // rows profiled
  double maxRemoved = 0;               // the last grid fraction (the range of the profile)
  std::size_t removedInRange = 0;      // rows removed at that fraction
  // Rows in the way of separability: the first separable count (exact for the profile's
  // greedy removal) when separable; otherwise unknown beyond maxRemoved, and removing the
  // rows the last fit still misclassifies would separate the rest, so at most
  // removed + those (rowsInTheWayAtMost; 0 when separable).
  bool separable = false;
  std::size_t rowsInTheWay = 0;
  double rowsInTheWayFraction = std::numeric_limits<double>::quiet_NaN();
  std::size_t rowsInTheWayAtMost = 0;
  double marginReached = 0;            // the largest margin on the curve (normalized)
  double marginReachedFraction = 0;    // …and the fraction removed there
  double marginAtFirstSeparable = 0;   // the margin of the first separable fit (0 if none)
  // With a budget (hasBudget): the learner's margin and the smallest removal that reaches it.
  bool hasBudget = false;
  LearnerMargin learner;
  std::size_t largeMarginRemoved = 0;  // rows removed when the margin first reached γ₀/b
  double largeMarginFraction = std::numeric_limits<double>::quiet_NaN();
  // Small margin: the rows (same ε, same μ_run) at which γ₀/b would fall to marginReached,
  // n·(γ₀/(b·marginReached))² (γ₀ ∝ 1/√n; 0 when not applicable).
  std::uint64_t nForLargeMargin = 0;
  std::string text;                    // two or three plain sentences
};

// The advice on a finished profile; `plan` may be null (no budget: separability only).
ProfileAdvice adviseProfile(const ProfileResult& result, const plan::Plan* plan);

template <class Writer>
void describeProfileAdvice(const ProfileAdvice& a, Writer& v) {
  v.boolean("private", ProfileAdvice::kPrivate);
  v.text("note", ProfileAdvice::kPrivacyNote);
  v.text("verdict", toString(a.verdict));
  v.boolean("separable", a.separable);
  v.count("rowsInTheWay", a.rowsInTheWay);
  v.number("rowsInTheWayFraction", a.rowsInTheWayFraction);
  v.count("rowsInTheWayAtMost", a.rowsInTheWayAtMost);
  v.number("maxRemoved", a.maxRemoved);
  v.number("marginReached", a.marginReached);
  v.number("marginReachedFraction", a.marginReachedFraction);
  v.number("marginAtFirstSeparable", a.marginAtFirstSeparable);
  if (a.hasBudget) {
    v.object("learner", [&](Writer& w) {
      w.number("epsilon", a.learner.epsilon);
      w.number("delta", a.learner.delta);
      w.count("n", a.learner.n);
      w.number("normBound", a.learner.normBound);
      w.number("muRun", a.learner.muRun);
      w.number("gamma0", a.learner.gamma0);
      w.number("normalizedMargin", a.learner.normalized);
    });
    v.count("largeMarginRemoved", a.largeMarginRemoved);
    v.number("largeMarginFraction", a.largeMarginFraction);
    if (a.nForLargeMargin > 0) v.count("nForLargeMargin", a.nForLargeMargin);
  }
  v.text("text", a.text.c_str());
}

}  // namespace dpmargin::profile
