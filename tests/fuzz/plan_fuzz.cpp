// Fuzz target: plan and option validation. Bytes → a PlanInput as the JS layer and the CLI
// hand it over (doubles that may be NaN/±inf/huge/non-integral, free-form strings for the
// selector, calibration and score) → toPlanRequest + makePlan.
// Properties: only dpmargin::Error (never INTERNAL) escapes; a returned plan is finite where
// it must be, spends no more ε than asked, and its candidates are consistent.
#include <cmath>
#include <string>

#include "dpmargin/plan/plan.hpp"
#include "fuzz_input.hpp"

namespace pl = dpmargin::plan;
using dpmargin::fuzz::anyCount;
using dpmargin::fuzz::anyDouble;
using dpmargin::fuzz::anyName;
using dpmargin::fuzz::fail;

namespace {

const char* const kSelectors[] = {"iter", "privtune", "fixed"};
const char* const kCalibrations[] = {"tight", "paper"};
const char* const kScores[] = {"empirical", "population"};

void checkPlan(const pl::Plan& p) {
  const pl::PlanRequest& r = p.request;
  auto finitePositive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!finitePositive(p.muTotal)) fail("muTotal not finite and positive");
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
    if (c.dim < 1 || c.dim > r.d) fail("trained dimension outside [1, d]");
    if (c.projected != (c.kJl < r.d)) fail("projected inconsistent with k < d");
    if (c.iterations < 1 || c.iterations > r.maxIterations) fail("T outside [1, maxIterations]");
    if (c.capped != (c.iterationsUncapped > r.maxIterations)) fail("capped inconsistent");
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
  pl::PlanInput input;
  input.epsilon = anyDouble(in, 0.0, 20.0);
  input.delta = anyDouble(in, 0.0, 1.0);
  input.n = anyCount(in, -2, 1 << 24);
  input.d = anyCount(in, -2, 1 << 16);
  input.normBound = in.ConsumeBool() ? 1.0 : anyDouble(in, 0.0, 100.0);
  input.selector = anyName(in, kSelectors);
  input.calibration = anyName(in, kCalibrations);
  input.score = anyName(in, kScores);
  input.expectedRuns = in.ConsumeBool() ? 10.0 : anyDouble(in, 1.0, 1000.0);
  input.jlFailure = in.ConsumeBool() ? 0.0 : anyDouble(in, 0.0, 1.0);
  input.maxIterations = anyCount(in, -2, 1 << 20);
  input.margin = in.ConsumeBool() ? 0.0 : anyDouble(in, 0.0, 1.0);
  input.rangeShare = in.ConsumeBool() ? 0.0 : anyDouble(in, 0.0, 1.0);
  if (dpmargin::fuzz::verbose()) {
    std::fprintf(stderr,
                 "PlanInput{epsilon=%a delta=%a n=%a d=%a normBound=%a selector=\"%s\" "
                 "calibration=\"%s\" score=\"%s\" expectedRuns=%a jlFailure=%a "
                 "maxIterations=%a margin=%a rangeShare=%a}\n",
                 input.epsilon, input.delta, input.n, input.d, input.normBound,
                 input.selector.c_str(), input.calibration.c_str(), input.score.c_str(),
                 input.expectedRuns, input.jlFailure, input.maxIterations, input.margin,
                 input.rangeShare);
  }
  dpmargin::fuzz::expectOnlyTypedErrors([&] {
    const pl::PlanRequest request = pl::toPlanRequest(input);
    checkPlan(pl::makePlan(request));
  });
  return 0;
}
