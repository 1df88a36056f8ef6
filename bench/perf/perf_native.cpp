// Native side of bench/perf (run.sh): ONE full M* training per process, so that the process's
// peak RSS belongs to one configuration. Options as key=value:
//   train=PATH test=PATH          a prepared CSV table (bench/.data), or
//   synthetic=N,D [nTest=5000] [dataSeed=20261121]   the generator of synthetic.hpp
//   eps=1 delta=1e-5 seed=1, and any core option by its API name (run::optionSpecs); unset
//   options take the core's defaults, exactly as the package's (run::resolve)
// Prints one JSON object. Timing boundaries (steady_clock):
//   loadSeconds  = read the CSV / generate the raw float32 table (the caller's copy);
//   trainSeconds = copy into the core's Dataset + validate + preprocess + M* (Trainer until done)
//                  — the same boundary as the package's train() on a typed array;
// peakRssTrainKb = getrusage max RSS right after training (before the test table is loaded);
// vmHwmTrainKb = the peak RSS of training alone (VmHWM reset just before it; Linux), and
// vmRssBeforeTrainKb = the RSS at that moment (the caller's raw table loaded);
// the raw table stays alive during training, as the caller's array does in JavaScript.
// Seeded generator: a benchmark, not a private release.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "../common/args.hpp"
#include "../common/csv_table.hpp"
#include "../common/options.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "synthetic.hpp"

using namespace dpmargin;
using Clock = std::chrono::steady_clock;

namespace {

long maxRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Linux: a field of /proc/self/status in kB (VmRSS, VmHWM), −1 if unavailable.
long procStatusKb(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  const std::size_t len = std::strlen(field);
  while (std::fgets(line, sizeof line, f)) {
    if (std::strncmp(line, field, len) == 0 && line[len] == ':') {
      kb = std::atol(line + len + 1);
      break;
    }
  }
  std::fclose(f);
  return kb;
}

// Linux ≥ 4.0: writing 5 to clear_refs resets VmHWM, so the training's own peak can be read
// even when loading (e.g. the CSV reader's vector growth) peaked higher.
bool resetPeakRss() {
  FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (!f) return false;
  const bool ok = std::fputs("5", f) >= 0;
  return std::fclose(f) == 0 && ok;
}

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bench::Table synthTable(std::size_t n, std::size_t d, std::uint32_t seed, std::uint32_t stream, double* oracle) {
  bench::Table t;
  t.n = n;
  t.d = d;
  t.x.resize(n * d);
  t.y.resize(n);
  *oracle = bench::synthetic::generate(n, d, seed, stream, t.x.data(), d, t.y.data());
  return t;
}

learn::Dataset toDataset(const bench::Table& t, bool labelled) {
  learn::Dataset data(t.n, t.d, labelled);
  for (std::size_t i = 0; i < t.n; ++i) {
    std::copy(t.x.begin() + long(i * t.d), t.x.begin() + long((i + 1) * t.d), data.rowMajor() + i * data.stride());
    if (labelled) data.labels()[i] = t.y[i];
  }
  return data;
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {{"eps", "1"}, {"delta", "1e-5"}, {"seed", "1"},
                                          {"nTest", "5000"}, {"dataSeed", "20261121"}};
  if (!bench::parseArgs(argc, argv, o)) return 2;
  try {
    run::Options options = bench::coreOptions(o, {"eps", "train", "test", "synthetic", "nTest", "dataSeed"});
    run::setOptionFromText(options, "epsilon", o["eps"]);
    const long rssStartKb = maxRssKb();
    const bool synth = o.count("synthetic") > 0;
    std::size_t sn = 0, sd = 0;
    if (synth && std::sscanf(o["synthetic"].c_str(), "%zu,%zu", &sn, &sd) != 2) {
      std::fprintf(stderr, "synthetic=N,D\n");
      return 2;
    }
    const auto dataSeed = std::uint32_t(std::stoul(o["dataSeed"]));
    double oracleTrain = -1, oracleTest = -1;
    auto t0 = Clock::now();
    const bench::Table train = synth ? synthTable(sn, sd, dataSeed, 1, &oracleTrain) : bench::readTable(o.at("train"));
    const double loadSeconds = since(t0);
    const std::uint32_t checksum = synth ? bench::synthetic::checksum(train.x.data(), train.n, train.d, train.d, train.y.data()) : 0;
    const long rssBeforeTrainKb = maxRssKb();
    const bool hwmReset = resetPeakRss();
    const long vmRssBeforeTrainKb = procStatusKb("VmRSS");

    // The package's defaults (the core resolves them): intercept, unit-norm rows, b = 1,
    // private column ranges estimated by the trainer, as in wasm.
    const learn::TrainSettings settings = run::resolve(options, train.n, train.d);
    auto t1 = Clock::now();
    learn::Dataset data = toDataset(train, true);
    data.validate(true);
    learn::Trainer trainer(data, settings, run::makeGenerator(settings));
    while (!trainer.advance(1u << 20)) {
    }
    const double trainSeconds = since(t1);
    const long peakRssTrainKb = maxRssKb();
    const long vmHwmTrainKb = hwmReset ? procStatusKb("VmHWM") : -1;
    const learn::TrainResult& r = trainer.result();

    const bench::Table test = synth ? synthTable(std::stoul(o["nTest"]), sd, dataSeed, 2, &oracleTest)
                                    : bench::readTable(o.at("test"));
    learn::Dataset testData = toDataset(test, true);
    testData.validate(false);
    testData.prepare(data.preprocessing());
    const double testAcc = 1.0 - double(learn::countErrors(testData.view(), r.weights)) / double(testData.rows());
    const double trainAcc = 1.0 - double(learn::countErrors(data.view(), r.weights)) / double(data.rows());
    std::printf(
        "{\"n\":%zu,\"d\":%zu,\"maxIterations\":%s,\"seed\":%s,\"loadSeconds\":%.6f,\"trainSeconds\":%.6f,"
        "\"testAccuracy\":%.6f,\"trainAccuracy\":%.6f,\"selectedMargin\":%.9g,\"candidates\":%zu,"
        "\"rssStartKb\":%ld,\"rssBeforeTrainKb\":%ld,\"peakRssTrainKb\":%ld,\"oracleTrain\":%.6f,"
        "\"oracleTest\":%.6f,\"checksum\":\"%08x\",\"nTest\":%zu,\"vmRssBeforeTrainKb\":%ld,\"vmHwmTrainKb\":%ld}\n",
        train.n, train.d, std::to_string(settings.plan.maxIterations).c_str(), o["seed"].c_str(), loadSeconds, trainSeconds, testAcc,
        trainAcc, r.plan.candidates[r.selectedCandidate].gamma, r.plan.candidates.size(), rssStartKb,
        rssBeforeTrainKb, peakRssTrainKb, oracleTrain, oracleTest, checksum, test.n, vmRssBeforeTrainKb,
        vmHwmTrainKb);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perf_native: %s\n", e.what());
    return 1;
  }
  return 0;
}
