// Test tool: train natively with a seed on a numeric CSV (header; label column last, values
// 0/1 or ±1) and print {"gamma", "weights", "scores"} as JSON, so the Jest suite can check that
// the same seed gives the same result in wasm. NOT a product path (seeded = not private).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "dpmargin/learn/trainer.hpp"

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::cerr << "usage: native_train DATA.csv SEED EPSILON DELTA [RANGE_SHARE]\n";
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
  dpmargin::learn::Dataset data(n, d, dpmargin::learn::Preprocessing{});
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) data.rowMajor()[i * data.width() + j] = float(rows[i][j]);
    data.labels()[i] = rows[i][d] > 0 ? 1 : -1;
  }
  const double rangeShare = argc == 6 ? std::stod(argv[5]) : 0.0;
  if (rangeShare == 0.0) data.prepare();  // else the trainer estimates private ranges first
  dpmargin::learn::TrainOptions options;
  options.plan.rangeShare = rangeShare;
  // options.output unset: the core's default for the calibration, as in the package.
  options.plan.epsilon = std::stod(argv[3]);
  options.plan.delta = std::stod(argv[4]);
  dpmargin::learn::Trainer trainer(data, options,
                                   dpmargin::random::Generator::seeded(std::stoull(argv[2])));
  while (!trainer.advance(1000)) {
  }
  const auto& r = trainer.result();
  std::printf("{\"gamma\": %.17g, \"weights\": [", r.plan.candidates[r.selectedCandidate].gamma);
  for (std::size_t j = 0; j < r.weights.size(); ++j) std::printf("%s%.17g", j ? ", " : "", r.weights[j]);
  std::printf("], \"scores\": [");
  for (std::size_t i = 0; i < r.runs.size(); ++i) std::printf("%s%.17g", i ? ", " : "", r.runs[i].noisyScore);
  std::printf("]}\n");
  return 0;
}
