// Benchmark helper: read a prepared numeric CSV (bench/datasets: header, features, last column
// `label` in {0, 1}) into a raw float matrix. Benchmarks only; the product reads CSV with the
// core's engine (core/src/data/csv/, docs/reference/CSV.md).
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace dpmargin::bench {

struct Table {
  std::vector<std::string> names;  // feature names
  std::vector<float> x;            // n × d raw values
  std::vector<std::int8_t> y;      // ±1
  std::size_t n = 0, d = 0;
};

inline Table readTable(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  Table t;
  std::string line, cell;
  std::getline(in, line);
  std::stringstream header(line);
  while (std::getline(header, cell, ',')) t.names.push_back(cell);
  if (t.names.empty() || t.names.back() != "label") throw std::runtime_error("last column must be label");
  t.names.pop_back();
  t.d = t.names.size();
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::size_t start = 0;
    for (std::size_t j = 0; j <= t.d; ++j) {
      const std::size_t end = line.find(',', start);
      const double v = std::stod(line.substr(start, end - start));
      if (j < t.d) t.x.push_back(static_cast<float>(v));
      else t.y.push_back(v > 0.5 ? 1 : -1);
      start = end + 1;
    }
    ++t.n;
  }
  return t;
}

}  // namespace dpmargin::bench
