// Test tool: train natively with a seed on a numeric CSV (header; label column last, values
// 0/1 or ±1) and print {"gamma", "weights", "scores"} as JSON, so the Jest suite can check that
// the same seed gives the same result in wasm. Options are the core's (run::resolve applies
// the same defaults as the package): key=value arguments after the budget, e.g. rangeShare=0.
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
  std::ifstream in(argv[1]);
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  const std::size_t n = rows.size(), d = rows.at(0).size() - 1;
  dpmargin::learn::Dataset data(n, d);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) data.rowMajor()[i * data.stride() + j] = float(rows[i][j]);
    data.labels()[i] = rows[i][d] > 0 ? 1 : -1;
  }
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
  const auto settings = run::resolve(options, n, d);
  dpmargin::learn::Trainer trainer(data, settings, run::makeGenerator(settings));
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
