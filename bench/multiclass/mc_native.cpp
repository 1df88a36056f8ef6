// Multiclass screening tool (docs/reference/MULTICLASS.md): a CSV training run through the core's own
// product path — run::CsvRun (schema, discovery, encoding, fill), learn::OneVsRest (joint or
// one-vs-rest), run::CsvRead on the test CSV with the run's encoding — natively, to screen
// options faster than the package. The benchmark table itself comes from bench/multiclass/run.mjs
// through the package. Seeded: NOT private.
//   mc_native TRAIN.csv TEST.csv SEEDS [option=value ...]   (label=label classes=a,b,c epsilon=1 …)
// Prints one line per seed: seed,test_accuracy,classes_found,seconds.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/run/run.hpp"

using namespace dpmargin;

namespace {
std::string slurp(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: mc_native TRAIN.csv TEST.csv SEEDS [option=value ...]\n";
    return 2;
  }
  const std::string train = slurp(argv[1]), test = slurp(argv[2]);
  const int seeds = std::atoi(argv[3]);
  run::Options base;
  run::setOptionFromText(base, "delta", "1e-5");
  for (int a = 4; a < argc; ++a) {
    const std::string kv = argv[a];
    const auto eq = kv.find('=');
    run::setOptionFromText(base, kv.substr(0, eq), kv.substr(eq + 1));
  }
  for (int seed = 1; seed <= seeds; ++seed) {
    try {
      const auto t0 = std::chrono::steady_clock::now();
      run::Options o = base;
      run::setOptionFromText(o, "seed", std::to_string(seed));
      run::CsvRun r(o);
      while (r.pass() != run::CsvRun::Pass::kDone) {
        r.feed(train.data(), train.size());
        r.endPass();
      }
      const std::size_t K = r.classCount();
      if (seed == 1 && r.settings().plan.discoveryColumns > 0) {
        const plan::Plan budget = plan::makeBudget(r.settings().plan);
        std::fprintf(stderr, "discovery: %llu columns (label own histogram: %d), muDiscovery %.4g, class threshold %.3g, "
                     "found at 97.7%%: %.3g rows; other columns' threshold %.3g\n",
                     (unsigned long long)budget.request.discoveryColumns, int(budget.request.discoveryLabel),
                     budget.muDiscovery, budget.labelDiscovery.threshold,
                     budget.labelDiscovery.threshold + 2 * budget.labelDiscovery.sigma, budget.discovery.threshold);
      }
      learn::OneVsRest t(r.dataset(), K > 2 ? r.classCodes().data() : nullptr, K, r.settings(), r.takeGenerator());
      while (!t.advance(100000)) {
      }
      const learn::OneVsRestResult& res = t.result();
      std::vector<double> weights;
      for (const auto& p : res.problems) weights.insert(weights.end(), p.weights.begin(), p.weights.end());
      const std::size_t problems = K > 2 ? K : 1;
      run::Options ro;
      ro.table.label = o.table.label;
      run::CsvRead read(ro, r.encoding(), r.schema().classes);
      while (read.pass() != run::CsvRead::Pass::kDone) {
        read.feed(test.data(), test.size());
        read.endPass();
      }
      auto ds = read.takeDataset();
      ds->validate(false);
      ds->prepare(r.dataset().preprocessing());
      const learn::Predictions p = learn::predict(ds->view(), weights, problems);
      const auto& codes = read.labelCodes();
      std::size_t ok = 0;
      for (std::size_t i = 0; i < codes.size(); ++i) {
        const int truth = codes[i];
        ok += problems == 1 ? ((p.labels[i] > 0) == (truth == 0)) : (p.labels[i] == truth);
      }
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::printf("%d,%.4f,%zu,%.2f\n", seed, double(ok) / double(codes.size()), K, secs);
    } catch (const std::exception& e) {
      std::printf("%d,error,%s\n", seed, e.what());
    }
    std::fflush(stdout);
  }
}
