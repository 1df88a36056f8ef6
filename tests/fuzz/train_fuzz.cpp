// Fuzz target: a dataset and a small training run. Bytes → n (1..64 rows), 1..8 features,
// preprocessing (intercept, row normalisation, norm bound, optional declared column ranges),
// raw values (including NaN/±inf/huge/subnormal floats), labels (sometimes not ±1), plan
// options with a tiny maxIterations, an optional private-range share and a seeded generator
// → learn::Dataset, Trainer advanced in random chunks to the end, countErrors.
// Properties: only dpmargin::Error (never INTERNAL) escapes; a finished run releases finite
// weights of the right length, finite noisy scores (Iter/PrivTune), a selected run that exists;
// training ends (no hang); the error count is at most n.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/random/generator.hpp"
#include "fuzz_input.hpp"

namespace ln = dpmargin::learn;
namespace pl = dpmargin::plan;
using dpmargin::fuzz::anyDouble;
using dpmargin::fuzz::fail;

namespace {

const char* const kSelectors[] = {"iter", "privtune", "fixed"};
const char* const kCalibrations[] = {"tight", "paper"};
const char* const kScores[] = {"empirical", "population"};

float anyFloat(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0: {
      const std::uint32_t bits = in.ConsumeIntegral<std::uint32_t>();
      float v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
    case 1:
      return static_cast<float>(anyDouble(in));  // may round to ±inf or 0
    default:
      return in.ConsumeFloatingPointInRange<float>(-4.0f, 4.0f);
  }
}

void train(FuzzedDataProvider& in) {
  const std::size_t n = in.ConsumeIntegralInRange<std::size_t>(1, 64);
  const std::size_t features = in.ConsumeIntegralInRange<std::size_t>(1, 8);
  ln::Preprocessing pre;
  pre.intercept = in.ConsumeBool();
  pre.rows = in.ConsumeBool() ? ln::RowNormalization::kUnitNorm : ln::RowNormalization::kClip;
  pre.normBound = in.ConsumeBool() ? 1.0 : anyDouble(in, 0.0, 10.0);
  const bool declareRanges = in.ConsumeIntegralInRange<int>(0, 3) == 0;

  ln::Dataset data(n, features, pre, /*labelled=*/true);
  const std::size_t width = data.width();
  if (width != features + (pre.intercept ? 1 : 0)) fail("width");
  float* x = data.rowMajor();
  const bool wild = in.ConsumeIntegralInRange<int>(0, 3) == 0;  // mostly ordinary values
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < features; ++j) {
      x[i * width + j] = wild ? anyFloat(in) : in.ConsumeFloatingPointInRange<float>(-3.0f, 3.0f);
    }
  }
  std::int8_t* y = data.labels();
  const bool badLabels = in.ConsumeIntegralInRange<int>(0, 15) == 0;
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = badLabels ? in.ConsumeIntegral<std::int8_t>() : (in.ConsumeBool() ? 1 : -1);
  }
  if (declareRanges) {
    std::vector<ln::ColumnRange> ranges(in.ConsumeBool() ? features : in.ConsumeIntegralInRange<std::size_t>(0, 9));
    for (auto& r : ranges) {
      r.lo = anyDouble(in, -5.0, 0.0);
      r.hi = anyDouble(in, 0.0, 5.0);
    }
    data.declareRanges(std::move(ranges));
  }

  ln::TrainOptions options;
  pl::PlanRequest& p = options.plan;
  p.epsilon = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(0.01, 20.0)
                               : anyDouble(in, 0.0, 20.0);
  p.delta = in.ConsumeBool() ? 1e-5 : anyDouble(in, 0.0, 1.0);
  p.normBound = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? anyDouble(in) : pre.normBound;
  p.selector = pl::parseSelector(dpmargin::fuzz::anyName(in, kSelectors));
  p.calibration = pl::parseCalibration(dpmargin::fuzz::anyName(in, kCalibrations));
  p.score = pl::parseScoreKind(dpmargin::fuzz::anyName(in, kScores));
  // Small E[K] keeps PrivTune's K (geometric) short; the accountant harness covers the rest.
  p.expectedRuns = in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(1.0, 8.0)
                                    : (p.selector == pl::Selector::kPrivTune ? 4.0 : 10.0);
  p.jlFailure = in.ConsumeIntegralInRange<int>(0, 3) == 0 ? anyDouble(in, 0.0, 1.0) : 0.0;
  p.maxIterations = in.ConsumeIntegralInRange<std::uint64_t>(0, 6);
  p.margin = p.selector == pl::Selector::kFixed
                 ? (in.ConsumeBool() ? anyDouble(in, 0.0, 1.0) : 0.25 * pre.normBound)
                 : 0.0;
  p.rangeShare = in.ConsumeIntegralInRange<int>(0, 3) == 0 ? anyDouble(in, 0.0, 1.0) : 0.0;
  options.output = in.ConsumeBool() ? ln::OutputIterate::kAverage : ln::OutputIterate::kLast;
  const std::uint64_t seed = in.ConsumeIntegral<std::uint64_t>();

  if (dpmargin::fuzz::verbose()) {
    std::fprintf(stderr,
                 "n=%zu features=%zu intercept=%d rows=%s normBound=%a ranges=%zu wild=%d "
                 "badLabels=%d\nplan: epsilon=%a delta=%a normBound=%a selector=%s "
                 "calibration=%s score=%s expectedRuns=%a jlFailure=%a maxIterations=%llu "
                 "margin=%a rangeShare=%a output=%s seed=%llu\n",
                 n, features, int(pre.intercept),
                 pre.rows == ln::RowNormalization::kUnitNorm ? "unit-norm" : "clip", pre.normBound,
                 data.preprocessing().ranges.size(), int(wild), int(badLabels), p.epsilon, p.delta,
                 p.normBound, pl::toString(p.selector), pl::toString(p.calibration),
                 pl::toString(p.score), p.expectedRuns, p.jlFailure,
                 (unsigned long long)p.maxIterations, p.margin, p.rangeShare,
                 options.output == ln::OutputIterate::kAverage ? "average" : "last",
                 (unsigned long long)seed);
    for (std::size_t i = 0; i < n; ++i) {
      std::fprintf(stderr, "  y=%d x=", int(y[i]));
      for (std::size_t j = 0; j < features; ++j) std::fprintf(stderr, " %a", double(x[i * width + j]));
      std::fprintf(stderr, "\n");
    }
  }
  ln::Trainer trainer(data, options, dpmargin::random::Generator::seeded(seed));
  const pl::Plan& plan = trainer.plan();
  std::uint64_t calls = 0;
  const ln::Progress first = trainer.progress();
  // Every base run does at most maxIterations steps; each advance() call does ≥ 1 step.
  const double bound = double(first.runs + 1) * double(p.maxIterations) + 4;
  while (!trainer.advance(in.ConsumeIntegralInRange<std::uint64_t>(1, 5))) {
    if (double(++calls) > bound) fail("training does not end");
    const ln::Progress progress = trainer.progress();
    if (!(progress.workDone <= progress.workTotal + 1e-9)) fail("workDone > workTotal");
  }
  const ln::TrainResult& result = trainer.result();
  if (result.weights.size() != width) fail("weights of the wrong length");
  for (double w : result.weights) {
    if (!std::isfinite(w)) fail("non-finite released weight");
  }
  if (result.runs.empty() || result.selectedRun >= result.runs.size()) fail("selected run");
  if (result.selectedCandidate >= plan.candidates.size()) fail("selected candidate");
  for (const ln::RunRecord& run : result.runs) {
    if (p.selector != pl::Selector::kFixed && !std::isfinite(run.noisyScore)) {
      fail("non-finite noisy score");
    }
  }
  if (!result.seeded) fail("seeded run not marked seeded");
  const std::uint64_t errors = ln::countErrors(data.view(), result.weights);
  if (errors > n) fail("more errors than rows");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  dpmargin::fuzz::expectOnlyTypedErrors([&] { train(in); });
  return 0;
}
