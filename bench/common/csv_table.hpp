// Benchmark helper: a CSV table read by the core's CSV reader as the product reads it —
// run::CsvRun in Mode::kLocal (the scan, the schema, the fill; nothing private, no budget spent)
// — copied out as a raw float matrix with labels ±1, for the runners that time or vary what
// comes after the read. Unless the caller names the features or declares columns, every column
// but the label is declared a numeric model column, in file order, a missing cell refused: the
// prepared tables (bench/datasets: numeric columns, the label `label` in {0, 1}) come out bit for
// bit as they are in the file. (Declared, so that no header-name rule drops a column: churn's
// one-hot `state_id` is Idaho, not an identifier.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::bench {

struct Table {
  std::vector<std::string> names;  // the model's feature columns (data::Encoding::names)
  std::vector<float> x;            // n × d raw values
  std::vector<std::int8_t> y;      // ±1 (empty without a label)
  std::size_t n = 0, d = 0;
};

// The header names as the core's scanner reads them (fed until the header row is in).
inline std::vector<std::string> headerOf(const std::string& bytes) {
  data::CsvScanner scanner;
  const std::size_t step = std::size_t{1} << 16;
  for (std::size_t at = 0; at < bytes.size(); at += step) {
    scanner.feed(bytes.data() + at, std::min(step, bytes.size() - at));
    if (const std::vector<std::string>* header = scanner.header()) return *header;
  }
  std::vector<std::string> names;
  for (const data::ColumnSummary& column : scanner.finish().columns) names.push_back(column.name);
  return names;
}

// `options`: the core's table options (label, ignore, positive, …); `label` is set to "label"
// unless given.
inline Table readTable(const std::string& path, run::Options options = {}) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!options.table.label) options.table.label = "label";
  if (!options.table.features && options.table.columns.empty()) {
    for (const std::string& name : headerOf(bytes)) {
      const auto& ignore = options.table.ignore;
      if (name == *options.table.label || std::find(ignore.begin(), ignore.end(), name) != ignore.end()) continue;
      data::ColumnChoice column;
      column.name = name;
      column.kind = data::ColumnKind::kNumeric;
      column.missing = data::MissingStrategy::kError;
      options.table.columns.push_back(std::move(column));
    }
  }
  run::CsvRun csv(std::move(options), std::nullopt, run::CsvRun::Mode::kLocal);
  csv.expectBytes(bytes.size());
  while (csv.pass() != run::CsvRun::Pass::kDone) {
    csv.feed(bytes.data(), bytes.size());
    csv.endPass();
  }
  learn::Dataset& data = csv.dataset();
  Table t;
  t.names = csv.encoding().names();
  t.n = data.rows();
  t.d = data.features();
  t.x.resize(t.n * t.d);
  for (std::size_t i = 0; i < t.n; ++i) {
    const float* row = data.raw() + i * data.stride();
    std::copy(row, row + t.d, t.x.begin() + long(i * t.d));
  }
  if (csv.schema().label >= 0) {
    if (csv.classCount() != 2) {
      throw std::runtime_error(path + ": the label has " + std::to_string(csv.classCount()) +
                               " classes; the benchmark runners train binary problems");
    }
    t.y.assign(data.labels(), data.labels() + t.n);
  }
  return t;
}

}  // namespace dpmargin::bench
