// One benchmark experiment: train on a prepared table with the given options and seeds, report
// test accuracy (and time). Options as key=value: the benchmark's own
//   train=PATH test=PATH seeds=5 tag=TEXT eps=1 (= epsilon) ranges=none|private|data share=S
//   intercept=1|0 marginRootN=K (selector=fixed at the public margin γ = K/√n, n the training rows)
//   autoSelectNoise=X (auto's selection switch, plan::PlanRequest; 0: auto never selects)
//   autoSelectFactor=F (auto's selection grid {γ₀/F, γ₀, F·γ₀}, plan::PlanRequest)
// and any option of the core by its API name (run::optionSpecs: delta=1e-5 selector=iter
// calibration=paper maxIterations=T output=last stepScale=D pruning=none …); unset options take
// the core's defaults, as in the package. ranges=none is rangeShare=0, ranges=private share=S is
// rangeShare=S; ranges=data takes min/max from the TRAINING data (non-private reference only).
// The private scalings are always the trainer's own (learn::estimatePrivateScalings); the
// candidate rules once measured beside them (ranges=rule, issues 14 and 15) are in git history
// and docs/SCALING.md.
// The tables are read by the core as the product reads a CSV (csv_table.hpp).
// Prints CSV rows: tag,seed,test_accuracy,train_accuracy,selected_gamma,seconds.
// Seeded generators: benchmarks, not private releases.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "args.hpp"
#include "csv_table.hpp"
#include "options.hpp"

using namespace dpmargin;

namespace {

learn::Dataset toDataset(const bench::Table& t, bool training) {
  learn::Dataset data(t.n, t.d);
  for (std::size_t i = 0; i < t.n; ++i) {
    std::copy(t.x.begin() + long(i * t.d), t.x.begin() + long((i + 1) * t.d),
              data.rowMajor() + i * data.stride());
    data.labels()[i] = t.y[i];
  }
  data.validate(training);
  return data;
}

double accuracy(const learn::Dataset& data, const std::vector<double>& w) {
  return 1.0 - double(learn::countErrors(data.view(), w)) / double(data.rows());
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {{"seeds", "5"}, {"tag", "run"}, {"delta", "1e-5"}};
  if (!bench::parseArgs(argc, argv, o)) return 2;
  const std::set<std::string> own = {"train", "test", "seeds", "tag", "eps", "ranges", "share", "intercept", "marginRootN",
                                     "autoSelectNoise", "autoSelectFactor"};
  if (o.count("ranges") && o["ranges"] != "none" && o["ranges"] != "private" && o["ranges"] != "data") {
    std::fprintf(stderr, "ranges=%s: none, private or data (the candidate rules of ranges=rule are in git history)\n",
                 o["ranges"].c_str());
    return 2;
  }
  run::Options options = bench::coreOptions(o, own);
  if (o.count("eps")) run::setOptionFromText(options, "epsilon", o["eps"]);
  if (o.count("intercept")) options.intercept = o["intercept"] == "1";
  const bench::Table train = bench::readTable(o.at("train"));
  const bench::Table test = bench::readTable(o.at("test"));
  if (o.count("marginRootN")) {
    options.selector = plan::Selector::kFixed;
    options.margin = std::stod(o["marginRootN"]) / std::sqrt(double(train.n));
  }
  if (o["ranges"] == "none") options.rangeShare = 0.0;
  if (o["ranges"] == "private" && o.count("share")) run::setOptionFromText(options, "rangeShare", o["share"]);
  if (o["ranges"] == "data") {  // NON-PRIVATE reference: min/max of the training data
    std::vector<learn::ColumnRange> ranges(train.d);
    for (std::size_t j = 0; j < train.d; ++j) {
      double lo = 1e300, hi = -1e300;
      for (std::size_t i = 0; i < train.n; ++i) {
        lo = std::min(lo, double(train.x[i * train.d + j]));
        hi = std::max(hi, double(train.x[i * train.d + j]));
      }
      ranges[j] = {lo, hi > lo ? hi : lo + 1};
    }
    options.columnRanges = ranges;
  }
  for (int seed = 0; seed < std::atoi(o["seeds"].c_str()); ++seed) {
    learn::Dataset data = toDataset(train, true);
    options.seed = 1000003ull * std::uint64_t(seed) + 17;  // a benchmark: seeded, not private
    learn::TrainSettings settings = run::resolve(options, train.n, train.d);
    if (o.count("autoSelectNoise")) settings.plan.autoSelectNoise = std::stod(o["autoSelectNoise"]);
    if (o.count("autoSelectFactor")) settings.plan.autoSelectFactor = std::stod(o["autoSelectFactor"]);
    const auto started = std::chrono::steady_clock::now();
    learn::Trainer trainer(data, settings, run::makeGenerator(settings));
    while (!trainer.advance(1u << 20)) {
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const learn::TrainResult& r = trainer.result();
    // The test table gets the training data's preprocessing, with the ranges the trainer used.
    learn::Dataset testData = toDataset(test, false);
    testData.prepare(data.preprocessing());
    std::printf("%s,%d,%.6f,%.6f,%.6g,%.4f\n", o["tag"].c_str(), seed, accuracy(testData, r.weights),
                accuracy(data, r.weights), r.plan.candidates[r.selectedCandidate].gamma, seconds);
    std::fflush(stdout);
  }
  return 0;
}
