// Fuzz target: a dataset and a small training run. Bytes → n (1..64 rows), 1..8 features, raw
// values (including NaN/±inf/huge/subnormal floats), labels (sometimes not ±1), run options
// (fuzz_options.hpp: every training option of the table, with a tiny maxIterations and a seed)
// → learn::Dataset, run::resolve, Trainer advanced in random chunks to the end, countErrors.
// Properties: only dpmargin::Error (never INTERNAL) escapes; a finished run releases finite
// weights of the right length, finite noisy scores (Iter/PrivTune), a selected run that exists;
// training ends (no hang); the error count is at most n. Then, when bytes are left, the same raw
// rows with a multiclass label (K = 2…52 class codes, some outside 0…K−1) through
// learn::OneVsRest: the same properties per problem, predictions in 0…K−1.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/random/generator.hpp"
#include "dpmargin/run/run.hpp"
#include "fuzz_options.hpp"

namespace ln = dpmargin::learn;
namespace pl = dpmargin::plan;
using dpmargin::fuzz::anyDouble;
using dpmargin::fuzz::fail;

namespace {

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
  ln::Dataset data(n, features, /*labelled=*/true);
  const std::size_t stride = data.stride();
  float* x = data.rowMajor();
  const bool wild = in.ConsumeIntegralInRange<int>(0, 3) == 0;  // mostly ordinary values
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < features; ++j) {
      x[i * stride + j] = wild ? anyFloat(in) : in.ConsumeFloatingPointInRange<float>(-3.0f, 3.0f);
    }
  }
  std::int8_t* y = data.labels();
  const bool badLabels = in.ConsumeIntegralInRange<int>(0, 15) == 0;
  for (std::size_t i = 0; i < n; ++i) {
    y[i] = badLabels ? in.ConsumeIntegral<std::int8_t>() : (in.ConsumeBool() ? 1 : -1);
  }
  dpmargin::run::Options options = dpmargin::fuzz::anyOptions(in, dpmargin::run::OptionScope::kTrain, features);
  // A tiny T and a seed keep runs short and reproducible; the plan harness covers the rest.
  options.maxIterations = in.ConsumeIntegralInRange<std::uint64_t>(0, 6);
  if (!options.expectedRuns) options.expectedRuns = in.ConsumeFloatingPointInRange<double>(1.0, 8.0);
  if (*options.expectedRuns > 8.0) options.expectedRuns = 8.0;  // PrivTune's K stays short
  options.seed = in.ConsumeIntegral<std::uint32_t>();
  if (dpmargin::fuzz::verbose()) {
    std::fprintf(stderr, "n=%zu features=%zu wild=%d badLabels=%d\n", n, features, int(wild), int(badLabels));
    for (std::size_t i = 0; i < n; ++i) {
      std::fprintf(stderr, "  y=%d x=", int(y[i]));
      for (std::size_t j = 0; j < features; ++j) std::fprintf(stderr, " %a", double(x[i * stride + j]));
      std::fprintf(stderr, "\n");
    }
  }
  const std::vector<float> raw(x, x + n * stride);  // for the multiclass run below
  const ln::TrainSettings settings = dpmargin::run::resolve(options, n, features);
  const std::size_t width = features + (settings.preprocessing.intercept ? 1 : 0);
  ln::Trainer trainer(data, settings, dpmargin::run::makeGenerator(settings));
  const pl::Plan& plan = trainer.plan();
  std::uint64_t calls = 0;
  const ln::Progress first = trainer.progress();
  // Every base run does at most maxIterations steps; each advance() call does ≥ 1 step.
  const double bound = double(first.runs + 1) * double(settings.plan.maxIterations) + 4;
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
    // A plan without selection (fixed, auto on a small table) scores nothing: its record holds
    // no noisy score.
    if (plan.selects && !std::isfinite(run.noisyScore)) {
      fail("non-finite noisy score");
    }
  }
  if (!result.seeded) fail("seeded run not marked seeded");
  const std::uint64_t errors = ln::countErrors(data.view(), result.weights);
  if (errors > n) fail("more errors than rows");
  if (in.remaining_bytes() == 0 || !in.ConsumeBool()) return;
  // A multiclass label on the same raw rows (appended at the end: earlier inputs keep their
  // meaning): the joint learner by default, one-vs-rest when the options ask for it.
  const std::size_t classes = in.ConsumeIntegralInRange<std::size_t>(2, 52);
  std::vector<std::int32_t> codes(n);
  for (auto& c : codes) c = in.ConsumeIntegralInRange<std::int32_t>(-2, std::int32_t(classes) + 1);
  ln::Dataset multi(n, features, /*labelled=*/true);
  std::copy(raw.begin(), raw.end(), multi.rowMajor());
  const ln::TrainSettings ms = dpmargin::run::resolve(options, n, features, classes);
  ln::OneVsRest ovr(multi, codes.data(), classes, ms, dpmargin::run::makeGenerator(ms));
  const std::size_t problems = ovr.problems();
  const double multiBound = double(problems) * (bound + 1);
  calls = 0;
  while (!ovr.advance(in.ConsumeIntegralInRange<std::uint64_t>(1, 5))) {
    if (double(++calls) > multiBound) fail("one-vs-rest training does not end");
    const ln::Progress progress = ovr.progress();
    if (!(progress.workDone <= progress.workTotal + 1e-9)) fail("one-vs-rest workDone > workTotal");
    if (progress.problem >= problems) fail("problem index");
  }
  const ln::OneVsRestResult& r = ovr.result();
  if (r.problems.size() != problems || r.plan.request.classes != problems) fail("problem count");
  // The joint learner (the default for 3+ classes): one problem of K weight vectors.
  const bool joint = ovr.joint();
  if (joint != (r.plan.request.jointClasses > 0) || (joint && (problems != 1 || r.plan.request.jointClasses != classes))) {
    fail("joint multiclass plan");
  }
  const std::size_t vectors = joint ? classes : problems;
  std::vector<double> stacked;
  for (const ln::TrainResult& p : r.problems) {
    if (p.weights.size() != width * (joint ? classes : 1)) fail("one-vs-rest weights of the wrong length");
    for (double w : p.weights) {
      if (!std::isfinite(w)) fail("non-finite one-vs-rest weight");
    }
    stacked.insert(stacked.end(), p.weights.begin(), p.weights.end());
  }
  const ln::Predictions predicted = ln::predict(ovr.data(), stacked, vectors);
  for (std::int32_t label : predicted.labels) {
    if (vectors == 1 ? (label != 1 && label != -1) : (label < 0 || std::size_t(label) >= vectors)) {
      fail("predicted class out of range");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  dpmargin::fuzz::expectOnlyTypedErrors([&] { train(in); });
  return 0;
}
