// One benchmark experiment: train on a prepared table with the given options and seeds, report
// test accuracy (and time). Options as key=value:
//   train=PATH test=PATH eps=1 delta=1e-5 seeds=5 selector=iter|privtune|fixed margin=G
//   calibration=tight|paper score=empirical|population output=average|last maxIterations=T
//   (output omitted: the package's default for the calibration)
//   expectedRuns=K ranges=none|private|data share=0.1 intercept=1 tag=TEXT
//   stepScale=D hingeScale=H pruning=auto|none|noise-floor pruneRatio=R (omitted: library defaults)
// ranges=data takes min/max from the TRAINING data (non-private reference only).
// Prints CSV rows: tag,seed,test_accuracy,train_accuracy,selected_gamma,seconds.
// Seeded generators: benchmarks, not private releases.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "dpmargin/learn/trainer.hpp"
#include "args.hpp"
#include "table.hpp"

using namespace dpmargin;

namespace {

learn::Dataset toDataset(const bench::Table& t, const learn::Preprocessing& p) {
  learn::Dataset data(t.n, t.d, p);
  for (std::size_t i = 0; i < t.n; ++i) {
    std::copy(t.x.begin() + long(i * t.d), t.x.begin() + long((i + 1) * t.d),
              data.rowMajor() + i * data.width());
    data.labels()[i] = t.y[i];
  }
  data.validate(true);
  return data;
}

double accuracy(const learn::Dataset& data, const std::vector<double>& w) {
  return 1.0 - double(learn::countErrors(data.view(), w)) / double(data.rows());
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {
      {"eps", "1"}, {"delta", "1e-5"}, {"seeds", "5"}, {"selector", "iter"}, {"margin", "0"},
      {"calibration", "tight"}, {"score", "empirical"},
      {"maxIterations", std::to_string(plan::kDefaultMaxIterations)}, {"expectedRuns", "10"}, {"ranges", "none"}, {"share", "0.1"},
      {"intercept", "1"}, {"tag", "run"}};
  if (!bench::parseArgs(argc, argv, o)) return 2;
  const bench::Table train = bench::readTable(o.at("train"));
  const bench::Table test = bench::readTable(o.at("test"));
  learn::Preprocessing pre;
  pre.intercept = o["intercept"] == "1";
  if (o["ranges"] == "data") {  // NON-PRIVATE reference: min/max of the training data
    pre.ranges.resize(train.d);
    for (std::size_t j = 0; j < train.d; ++j) {
      double lo = 1e300, hi = -1e300;
      for (std::size_t i = 0; i < train.n; ++i) {
        lo = std::min(lo, double(train.x[i * train.d + j]));
        hi = std::max(hi, double(train.x[i * train.d + j]));
      }
      pre.ranges[j] = {lo, hi > lo ? hi : lo + 1};
    }
  }
  for (int seed = 0; seed < std::atoi(o["seeds"].c_str()); ++seed) {
    learn::Dataset data = toDataset(train, pre);
    learn::TrainOptions options;
    options.plan.epsilon = std::stod(o["eps"]);
    options.plan.delta = std::stod(o["delta"]);
    options.plan.selector = plan::parseSelector(o["selector"]);
    options.plan.margin = std::stod(o["margin"]);
    options.plan.calibration = plan::parseCalibration(o["calibration"]);
    options.plan.score = plan::parseScoreKind(o["score"]);
    options.plan.maxIterations = std::stoull(o["maxIterations"]);
    options.plan.expectedRuns = std::stod(o["expectedRuns"]);
    if (o.count("stepScale")) options.plan.stepScale = std::stod(o["stepScale"]);
    if (o.count("hingeScale")) options.plan.hingeScale = std::stod(o["hingeScale"]);
    if (o.count("pruning")) options.plan.pruning = plan::parsePruning(o["pruning"]);
    if (o.count("pruneRatio")) options.plan.pruneRatio = std::stod(o["pruneRatio"]);
    if (o["ranges"] == "private") options.plan.rangeShare = std::stod(o["share"]);
    // Omitted: the core's default for the calibration (last for tight, average for paper).
    if (o.count("output")) {
      options.output = o["output"] == "last" ? learn::OutputIterate::kLast : learn::OutputIterate::kAverage;
    }
    const auto started = std::chrono::steady_clock::now();
    learn::Trainer trainer(data, options, random::Generator::seeded(1000003ull * std::uint64_t(seed) + 17));
    while (!trainer.advance(1u << 20)) {
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const learn::TrainResult& r = trainer.result();
    // The test table gets the same preprocessing, with the ranges the trainer used.
    learn::Preprocessing testPre = pre;
    testPre.ranges = r.ranges;
    learn::Dataset testData = toDataset(test, testPre);
    testData.preprocess();
    std::printf("%s,%d,%.6f,%.6f,%.6g,%.4f\n", o["tag"].c_str(), seed, accuracy(testData, r.weights),
                accuracy(data, r.weights), r.plan.candidates[r.selectedCandidate].gamma, seconds);
    std::fflush(stdout);
  }
  return 0;
}
