// Fuzz target: option parsing, resolution and the data-free plan. Bytes → run options as the JS
// layer and the CLI hand them over (fuzz_options.hpp: every option of the table, doubles that
// may be NaN/±inf/huge/non-integral, free-form strings, wrong types) → run::account.
// Properties: only dpmargin::Error (never INTERNAL) escapes; a returned plan is finite where
// it must be, spends no more ε than asked, and its candidates are consistent.
#include <cmath>
#include <string>

#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"
#include "fuzz_options.hpp"

namespace pl = dpmargin::plan;
using dpmargin::fuzz::fail;

namespace {

void checkPlan(const pl::Plan& p) {
  const pl::PlanRequest& r = p.request;
  auto finitePositive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!finitePositive(p.mu)) fail("muTotal not finite and positive");
  if (!finitePositive(p.muTrain) || !finitePositive(p.muRun)) fail("muTrain/muRun not positive");
  if (!(p.muRanges >= 0) || !std::isfinite(p.muRanges)) fail("muRanges not finite");
  if (!(p.beta > 0 && p.beta < 1)) fail("beta outside (0, 1)");
  if (!std::isfinite(p.scoreSd) || p.scoreSd < 0) fail("scoreSd not finite");
  // The plan never spends more than the ε asked for (1e-12 relative covers the last-ulp
  // rounding of the paper's closed forms; the exact inverses are checked in accounting_fuzz).
  if (!(p.epsilonSpent <= r.epsilon * (1 + 1e-12))) fail("epsilonSpent > epsilon");
  if (p.candidates.empty()) fail("no candidates");
  for (const pl::CandidatePlan& c : p.candidates) {
    if (!(c.gamma > 0 && c.gamma <= r.normBound)) fail("gamma outside (0, b]");
    if (c.k < 1 || c.k > r.d) fail("trained dimension outside [1, d]");
    // auto never projects (its one run trains in d); the others project exactly when k_JL < d.
    if (c.projected != (r.selector != pl::Selector::kAuto && c.kJl < r.d)) fail("projected inconsistent with k < d");
    if (c.T < 1 || c.T > r.maxIterations) fail("T outside [1, maxIterations]");
    if (c.capped != (c.TUncapped > r.maxIterations)) fail("capped inconsistent");
    if (std::isnan(c.sigma) || !(c.sigma > 0)) fail("sigma NaN or not positive");
    if (std::isnan(c.stepSize) || c.stepSize < 0) fail("step size NaN or negative");
    if (!finitePositive(c.c) || !finitePositive(c.clipRadius)) fail("c or R not positive");
    if (std::isnan(c.sensitivity) || !(c.sensitivity > 0)) fail("sensitivity NaN");
    if (std::isnan(c.scorePenalty) || c.scorePenalty < 0) fail("score penalty NaN or negative");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  dpmargin::fuzz::expectOnlyTypedErrors([&] {
    const dpmargin::run::Options options =
        dpmargin::fuzz::anyOptions(in, dpmargin::run::OptionScope::kPlan, 1);
    checkPlan(dpmargin::run::account(options));
  });
  return 0;
}
