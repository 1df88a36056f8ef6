// Test tool: train natively with a seed on a CSV through the production CSV run (run::CsvRun:
// the scan, the private schema release, discovery, the fill — what trainCsv drives in wasm) and
// print {"gamma", "weights", "scores"} as JSON, so the Jest suite can check that the same seed
// gives the same result in wasm. Options are the core's (run::resolve applies the same defaults
// as the package): key=value arguments after the budget, e.g. rangeShare=0, label=y.
// NOT a product path (seeded = not private).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"

int main(int argc, char** argv) {
  if (argc < 5) {
    std::cerr << "usage: native_train DATA.csv SEED EPSILON DELTA [option=value ...]\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  namespace run = dpmargin::run;
  run::Options options;
  run::setOptionFromText(options, "seed", argv[2]);
  run::setOptionFromText(options, "epsilon", argv[3]);
  run::setOptionFromText(options, "delta", argv[4]);
  for (int a = 5; a < argc; ++a) {
    const std::string kv = argv[a];
    const auto eq = kv.find('=');
    if (eq == std::string::npos) {
      std::cerr << "expected option=value, got " << kv << "\n";
      return 2;
    }
    run::setOptionFromText(options, kv.substr(0, eq), kv.substr(eq + 1));
  }
  run::CsvRun csv(options);
  while (csv.pass() != run::CsvRun::Pass::kDone) {
    csv.feed(bytes.data(), bytes.size());
    csv.endPass();
  }
  dpmargin::learn::Trainer trainer(csv.dataset(), csv.settings(), csv.takeGenerator());
  while (!trainer.advance(1000)) {
  }
  const auto& r = trainer.result();
  std::printf("{\"gamma\": %.17g, \"weights\": [", r.plan.candidates[r.selectedCandidate].gamma);
  for (std::size_t j = 0; j < r.weights.size(); ++j) std::printf("%s%.17g", j ? ", " : "", r.weights[j]);
  std::printf("], \"scores\": [");
  // A single-run selector (fixed, auto) scores nothing: NaN, written as JSON null.
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    if (std::isfinite(r.runs[i].noisyScore)) std::printf("%s%.17g", i ? ", " : "", r.runs[i].noisyScore);
    else std::printf("%snull", i ? ", " : "");
  }
  std::printf("]}\n");
  return 0;
}
