// The margin profile's advice (advice.hpp): rows in the way of separability, and the curve's
// margin against the default learner's public margin γ₀. Local and not private.
#include "dpmargin/profile/advice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace dpmargin::profile {

const char* toString(ProfileVerdict v) noexcept {
  switch (v) {
    case ProfileVerdict::kLargeMargin: return "large margin";
    case ProfileVerdict::kSmallMargin: return "small margin";
    case ProfileVerdict::kNotSeparable: return "not separable";
    case ProfileVerdict::kSeparable: return "separable";
  }
  return "not separable";
}

LearnerMargin learnerMargin(const plan::Plan& plan) {
  LearnerMargin m;
  const plan::PlanRequest& r = plan.request;
  m.epsilon = r.epsilon;
  m.delta = r.delta;
  m.n = r.n;
  m.normBound = r.normBound;
  if (r.selector == plan::Selector::kAuto && plan.autoMargin > 0.0) {
    m.muRun = plan.muRun;
    m.gamma0 = plan.autoMargin;
  } else {
    m.muRun = plan.muClass;
    m.gamma0 = plan::autoMargin(r, plan.muClass);
  }
  m.normalized = m.gamma0 / r.normBound;
  return m;
}

namespace {

std::string withCommas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string number(double x) {  // 3 significant digits
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

std::string percent(double fraction) {  // 0.05% … 5%
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g%%", 100.0 * fraction);
  return buf;
}

std::string rows(std::size_t count) { return withCommas(count) + (count == 1 ? " row" : " rows"); }

std::string makeText(const ProfileAdvice& a) {
  std::string t;
  // 1. Separability: how many rows stand in the way.
  if (!a.separable) {
    t = "Not linearly separable after removing " + percent(a.maxRemoved) +
        " of the rows; the last fit still misclassifies " +
        withCommas(a.rowsInTheWayAtMost - a.removedInRange) +
        " more, so at most " + rows(a.rowsInTheWayAtMost) + " (" +
        percent(static_cast<double>(a.rowsInTheWayAtMost) / static_cast<double>(a.n)) +
        ") stand in the way.";
  } else if (a.rowsInTheWay == 0) {
    t = "Linearly separable as it is (normalized margin " + number(a.marginAtFirstSeparable) + ").";
  } else {
    t = rows(a.rowsInTheWay) + " of " + withCommas(a.n) + " (" + percent(a.rowsInTheWayFraction) +
        ") stand in the way of linear separability: without them the normalized margin is " +
        number(a.marginAtFirstSeparable) + ".";
  }
  if (!a.hasBudget) {
    return t + " Give ε and δ to compare this with the margin the DP learner can use.";
  }
  // 2. Against the learner's margin.
  const LearnerMargin& l = a.learner;
  char eps[64];
  std::snprintf(eps, sizeof eps, "%g", l.epsilon);
  const std::string g0 = "γ₀/b = " + number(l.normalized) + " (the margin the default learner " +
                         "trains at for n = " + withCommas(l.n) + " and ε = " + eps + ")";
  switch (a.verdict) {
    case ProfileVerdict::kLargeMargin:
      if (a.largeMarginRemoved == 0) {
        t += " That is at least " + g0 + ": the margin learners can expect a large margin.";
      } else if (a.largeMarginRemoved == a.rowsInTheWay) {
        t += " That is at least " + g0 + ": the margin learners can expect a large margin on " +
             "all but about " + percent(a.largeMarginFraction) + " of the rows.";
      } else {
        t += " After removing " + rows(a.largeMarginRemoved) + " (" +
             percent(a.largeMarginFraction) + ") the margin reaches " + g0 +
             ": the margin learners can expect a large margin on all but about " +
             percent(a.largeMarginFraction) + " of the rows.";
      }
      break;
    case ProfileVerdict::kSmallMargin:
      t += " The largest margin reached, " + number(a.marginReached) + " (after removing " +
           percent(a.marginReachedFraction) + "), stays below " + g0 +
           ": the margin learners cannot count on a large margin here.";
      if (a.nForLargeMargin > 0) {
        t += " With about " + withCommas(a.nForLargeMargin) +
             " rows at the same ε, γ₀ would fall to the margin reached.";
      }
      break;
    default:
      t += " The margin learners cannot expect a large margin here, where γ₀/b = " +
           number(l.normalized) + " is the margin the default learner trains at for n = " +
           withCommas(l.n) + " and ε = " + eps + ": expect an accuracy like a noisy linear " +
           "model's, and compare it with the majority rate.";
      break;
  }
  return t;
}

}  // namespace

ProfileAdvice adviseProfile(const ProfileResult& r, const plan::Plan* plan) {
  ProfileAdvice a;
  a.n = r.n;
  const CurvePoint* last = r.curve.empty() ? nullptr : &r.curve.back();
  a.maxRemoved = last ? last->fraction : 0.0;
  a.removedInRange = last ? last->removed : 0;
  a.separable = r.separable;
  if (r.separable) {
    a.rowsInTheWay = r.firstSeparableRemoved;
    a.rowsInTheWayFraction = r.firstSeparableFraction;
  } else {
    a.rowsInTheWayAtMost = a.removedInRange + r.lastViolators;
  }
  for (const CurvePoint& c : r.curve) {
    if (c.margin > a.marginReached) {
      a.marginReached = c.margin;
      a.marginReachedFraction = c.fraction;
    }
    if (r.separable && c.removed == r.firstSeparableRemoved && c.margin > 0.0 &&
        a.marginAtFirstSeparable == 0.0) {
      a.marginAtFirstSeparable = c.margin;
    }
  }
  if (plan) {
    a.hasBudget = true;
    a.learner = learnerMargin(*plan);
    for (const CurvePoint& c : r.curve) {
      if (c.margin > 0.0 && c.margin >= a.learner.normalized) {
        a.largeMarginRemoved = c.removed;
        a.largeMarginFraction = c.fraction;
        break;
      }
    }
    if (!r.separable) {
      a.verdict = ProfileVerdict::kNotSeparable;
    } else if (!std::isnan(a.largeMarginFraction)) {
      a.verdict = ProfileVerdict::kLargeMargin;
    } else {
      a.verdict = ProfileVerdict::kSmallMargin;
      // γ₀ ∝ 1/√n at a fixed μ_run (auto's rule; below b).
      const double ratio = a.learner.normalized / a.marginReached;
      const double n = static_cast<double>(a.learner.n) * ratio * ratio;
      if (std::isfinite(n) && n < 1e15) {
        a.nForLargeMargin = static_cast<std::uint64_t>(std::ceil(n));
      }
    }
  } else {
    a.verdict = r.separable ? ProfileVerdict::kSeparable : ProfileVerdict::kNotSeparable;
  }
  a.text = makeText(a);
  return a;
}

}  // namespace dpmargin::profile
