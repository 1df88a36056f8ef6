// Plain-language advice on a plan (plan.hpp, advise): a verdict from the candidates' noise floor
// ratio 2Δ√k/(n·μ_run), the margins whose ratio is ≤ 1, and the n and the ε at which the best
// ratio would reach 1; and what the selector does (auto: one run at γ₀, or a choice, and why).
// Public numbers only: the plan and re-plans of its request (makePlan is pure and cheap), never
// the data.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/plan/plan.hpp"

namespace dpmargin::plan {

const char* toString(Verdict v) noexcept {
  switch (v) {
    case Verdict::kGood: return "good";
    case Verdict::kMarginal: return "marginal";
    case Verdict::kTooLittleData: return "too little data";
  }
  return "too little data";
}

double bestNoiseFloorRatio(const Plan& plan) {
  double best = std::numeric_limits<double>::infinity();
  for (const CandidatePlan& c : plan.candidates) best = std::min(best, c.noiseFloorRatio);
  return best;
}

namespace {

// The best ratio of the request re-planned; +∞ when the request is refused (e.g. a noise out of
// range, or a calibration limit on ε), which counts as "not good".
double replannedRatio(const PlanRequest& request) {
  try {
    return bestNoiseFloorRatio(makePlan(request));
  } catch (const Error&) {
    return std::numeric_limits<double>::infinity();
  }
}

bool goodAt(PlanRequest request, std::uint64_t n) {
  request.n = n;
  return replannedRatio(request) <= 1.0;
}

bool goodAtEpsilon(PlanRequest request, double epsilon) {
  request.epsilon = epsilon;
  return replannedRatio(request) <= 1.0;
}

// The smallest n with ratio ≤ 1 (bisection between a bad n and a good one; 0 if none ≤ kAdviceMaxN).
std::uint64_t nForGood(const PlanRequest& r, bool goodNow) {
  std::uint64_t lo = 0, hi = 0;  // lo: not good (0: none found yet), hi: good
  if (goodNow) {
    hi = r.n;
    while (hi > 1) {
      const std::uint64_t down = hi / 2;
      if (!goodAt(r, down)) { lo = down; break; }
      hi = down;
    }
    if (lo == 0) return hi;  // good down to n = 1
  } else {
    lo = r.n;
    for (;;) {
      if (lo >= kAdviceMaxN) return 0;
      const std::uint64_t up = std::min(kAdviceMaxN, lo * 2);
      if (goodAt(r, up)) { hi = up; break; }
      lo = up;
    }
  }
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (goodAt(r, mid) ? hi : lo) = mid;
  }
  return hi;
}

// The smallest ε (to a relative 1e-6) with ratio ≤ 1 at the same n and δ; 0 if none ≤ kAdviceMaxEpsilon.
double epsilonForGood(const PlanRequest& r, bool goodNow) {
  double lo = 0, hi = 0;  // lo: not good (0: none found), hi: good
  if (goodNow) {
    hi = r.epsilon;
    for (int i = 0; i < 60; ++i) {
      const double down = hi / 2;
      if (!goodAtEpsilon(r, down)) { lo = down; break; }
      hi = down;
    }
    if (lo == 0) return hi;
  } else {
    lo = r.epsilon;
    for (;;) {
      if (lo >= kAdviceMaxEpsilon) return 0;
      const double up = std::min(kAdviceMaxEpsilon, lo * 2);
      if (goodAtEpsilon(r, up)) { hi = up; break; }
      lo = up;
    }
  }
  for (int i = 0; i < 80 && hi - lo > 1e-6 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (goodAtEpsilon(r, mid) ? hi : lo) = mid;
  }
  return hi;
}

// 12,345 (thousands separated by commas).
std::string withCommas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// x rounded up to two significant digits (so that a count read from the text is enough).
double roundUp2(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, std::floor(std::log10(x)) - 1.0);
  return std::ceil(x / scale * (1.0 - 1e-12)) * scale;
}

// A short decimal: two significant digits below 10, whole numbers (with commas) above.
std::string shortNumber(double x) {
  char buf[64];
  if (!std::isfinite(x)) return "∞";
  if (x >= 10.0) return withCommas(static_cast<std::uint64_t>(std::llround(x)));
  std::snprintf(buf, sizeof buf, "%.2g", x);
  return buf;
}

std::string epsilonText(double epsilon) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", epsilon);
  return buf;
}

std::string makeText(const Plan& p, const Advice& a) {
  const PlanRequest& r = p.request;
  std::string s = "With n = " + withCommas(r.n) + " rows at ε = " + epsilonText(r.epsilon) +
                  " the noise is " + shortNumber(a.noiseFloorRatio) + "× the signal";
  if (r.classes > 1) s += " (in each of the " + std::to_string(r.classes) + " one-vs-rest problems)";
  const std::string nText =
      a.nForGood > 0 ? "about " + withCommas(static_cast<std::uint64_t>(roundUp2(static_cast<double>(a.nForGood)))) + " rows"
                     : "";
  const std::string eText = a.epsilonForGood > 0 ? "ε ≈ " + shortNumber(roundUp2(a.epsilonForGood)) : "";
  if (a.verdict == Verdict::kGood) {
    s += ": enough for the model to learn what the features can tell.";
    if (!nText.empty()) s += " It would stay at or below the signal's level down to " + nText + ".";
    return s;
  }
  s += a.verdict == Verdict::kMarginal
           ? ": expect a noisy model, better than the majority class only where the classes separate clearly."
           : ": expect little better than the majority class.";
  std::string fix;
  if (!nText.empty() && !eText.empty()) {
    fix = nText + ", or " + eText + " at this n,";
  } else if (!nText.empty()) {
    fix = nText;
  } else if (!eText.empty()) {
    fix = eText + " at this n";
  }
  if (fix.empty()) {
    s += " Neither more rows (up to " + withCommas(kAdviceMaxN) + ") nor a larger ε (up to " +
         epsilonText(kAdviceMaxEpsilon) + ") would bring it to the signal's level.";
  } else {
    fix[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(fix[0])));
    s += " " + fix + " would bring it to the signal's level.";
  }
  return s;
}

// A margin or a small quantity with three significant digits (0.0316, 1.5).
std::string threeDigits(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

// A share as a percentage, three significant digits at most ("3.9%", "0.125%").
std::string percentText(double share) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g%%", 100.0 * share);
  return buf;
}

// What the selector does at this n and ε (Advice::selection). Auto's reason is autoSelection's
// numbers: the noise its scores would have against the rule's limit.
std::string selectionText(const Plan& p) {
  const PlanRequest& r = p.request;
  const std::string at = "n = " + withCommas(r.n) + " rows and ε = " + epsilonText(r.epsilon);
  const bool oneVsRest = r.classes > 1;
  const std::string errors = r.jointClasses > 0 ? "multiclass error count" : "error count";
  const std::string each =
      oneVsRest ? " Each of the " + std::to_string(r.classes) + " one-vs-rest problems does so on its own." : "";
  const char* muName = oneVsRest ? "μ per class" : "μ_train";
  switch (r.selector) {
    case Selector::kFixed:
      return "One run at the margin you gave, γ = " + threeDigits(r.margin) +
             ", with the whole training budget: nothing is scored or selected." + each;
    case Selector::kIter:
      return "Iter trains every one of the " + std::to_string(p.candidates.size()) +
             " margins of the grid and releases the one with the smallest noisy " + errors +
             " (noise of sd " + shortNumber(p.scoreSd) + " errors at " + at + ")." + each;
    case Selector::kPrivTune:
      return "PrivTune trains a random number of runs (" + shortNumber(r.expectedRuns) +
             " on average) at margins drawn from the grid of " + std::to_string(p.candidates.size()) +
             " and releases the one with the smallest noisy score; how many runs were made stays hidden." + each;
    case Selector::kAuto: break;
  }
  const AutoSelection a = autoSelection(r, p.muClass);
  const std::string gamma0 = threeDigits(p.autoMargin);
  if (!(a.limit > 0)) {
    return "One run at the public margin γ₀ = " + gamma0 +
           ", with the whole training budget: nothing is scored or selected (auto's choice among margins is off)." + each;
  }
  const std::string rule = "auto chooses among three margins only where the noise on their " + errors +
                           "s is at most " + percentText(r.autoSelectNoise) + " of the rows (n·" + muName + " ≥ " +
                           withCommas(static_cast<std::uint64_t>(std::llround(a.nMuFrom))) + ")";
  const std::string here = " (" + percentText(a.scoreSd / static_cast<double>(r.n)) + " of the rows; n·" + muName +
                           " = " + shortNumber(static_cast<double>(r.n) * p.muClass) + ")";
  if (!p.selects) {
    return "One run at the public margin γ₀ = " + gamma0 +
           ", with the whole training budget: nothing is scored or selected. A choice would not pay here: " + rule +
           ", and at " + at + " that noise would be " + shortNumber(a.scoreSd) + " errors" + here + "." + each;
  }
  std::string margins;
  for (std::size_t i = 0; i < p.candidates.size(); ++i) {
    margins += (i == 0 ? "" : i + 1 == p.candidates.size() ? " and " : ", ") + threeDigits(p.candidates[i].gamma);
  }
  return "A choice among three margins around the public γ₀ = " + gamma0 + " (" + margins +
         "): the one with the smallest noisy " + errors + " is released. It pays here: " + rule + ", and at " + at +
         " that noise is " + shortNumber(a.scoreSd) + " errors" + here + "; the three runs share " +
         percentText(r.autoSelectRunShare) + " of the training budget, the scores the rest." + each;
}

}  // namespace

Advice advise(const Plan& plan) {
  Advice a;
  const PlanRequest& r = plan.request;
  a.noiseFloorRatio = bestNoiseFloorRatio(plan);
  a.verdict = a.noiseFloorRatio <= 1.0           ? Verdict::kGood
              : a.noiseFloorRatio <= r.pruneRatio ? Verdict::kMarginal
                                                  : Verdict::kTooLittleData;
  for (const CandidatePlan& c : plan.candidates) {
    if (c.noiseFloorRatio <= 1.0) a.usableMargins.push_back(c.gamma);
  }
  std::sort(a.usableMargins.begin(), a.usableMargins.end());
  if (!plan.candidates.empty()) {
    const bool good = a.verdict == Verdict::kGood;
    a.nForGood = nForGood(r, good);
    a.epsilonForGood = epsilonForGood(r, good);
  }
  a.text = makeText(plan, a);
  a.selection = selectionText(plan);
  return a;
}

}  // namespace dpmargin::plan
