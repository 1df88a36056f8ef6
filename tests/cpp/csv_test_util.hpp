// Helpers of the CSV engine tests: read a file, run both passes in pieces of a given size, and
// turn everything observable (the scan, the table bits, the dictionaries, or the error with
// its location) into one canonical string, so "chunking changes nothing" is one comparison.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin::testing::csv {

using namespace dpmargin::data;

inline std::string fixturePath(const std::string& folder, const std::string& file) {
  return std::string(DPMARGIN_FIXTURES_DIR) + "/" + folder + "/" + file;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Feeds `bytes` in pieces of `chunk` bytes (0: in one piece).
template <class Reader>
void feedAll(Reader& reader, const std::string& bytes, std::size_t chunk) {
  if (chunk == 0) chunk = bytes.size() + 1;
  for (std::size_t at = 0; at < bytes.size(); at += chunk) {
    reader.feed(bytes.data() + at, std::min(chunk, bytes.size() - at));
  }
}

inline CsvScan scanIn(const std::string& bytes, const CsvOptions& options, std::size_t chunk) {
  CsvScanner scanner(options);
  feedAll(scanner, bytes, chunk);
  return scanner.finish();
}

// What a read produced, or the error it threw.
struct Outcome {
  bool ok = false;
  // error
  ErrorCode code = ErrorCode::kInternal;
  std::string message, parameter;
  ErrorLocation location;
  // success
  CsvScan scan;
  std::size_t width = 0;
  std::vector<float> features;
  std::vector<std::int32_t> labels;
  FillResult fill;
  std::string extra;  // anything else the caller wants compared

  std::string codeName() const { return ok ? "OK" : errorCodeName(code); }

  // Everything, canonically (float bits, not printed values).
  std::string describe() const {
    std::ostringstream o;
    if (!ok) {
      o << "ERROR " << errorCodeName(code) << " [" << parameter << "] line=" << location.line
        << " byte=" << location.byte << " col=" << location.columnIndex << ":" << location.column
        << " | " << message;
      return o.str();
    }
    const CsvDialect& d = scan.dialect;
    o << "delim=" << int(d.delimiter) << " decimal=" << d.decimal << " newline=" << int(d.newline)
      << " enc=" << int(d.encoding) << " bom=" << d.bom << " headerLine=" << scan.headerLine
      << " rows=" << scan.rows << " bytes=" << scan.bytes << "\n";
    for (const ColumnSummary& c : scan.columns) {
      o << "col " << c.name << " n=" << c.numbers << " m=" << c.missing << " nf=" << c.nonFinite
        << " t=" << c.text << " fm=" << c.firstMissing.line << ":" << c.firstMissing.value
        << " fnf=" << c.firstNonFinite.line << ":" << c.firstNonFinite.value
        << " ft=" << c.firstText.line << ":" << c.firstText.value << " capped=" << c.distinctCapped
        << "/" << c.distinctRows << " {";
      for (const DistinctValue& v : c.distinct) o << v.value << "=" << v.count << ",";
      o << "}\n";
    }
    o << "width=" << width << " table=";
    for (const float v : features) {
      std::uint32_t bits;
      std::memcpy(&bits, &v, 4);
      o << std::hex << bits << std::dec << ",";
    }
    o << "\nlabels=";
    for (const std::int32_t y : labels) o << y << ",";
    o << "\nrows=";
    for (const auto r : fill.rows) o << r << ",";
    o << " imputed=" << fill.imputed << " marked=" << fill.marked << "\n";
    for (const CategoryDictionary& dict : fill.dictionaries) {
      o << "dict " << dict.column << ":";
      for (std::size_t k = 0; k < dict.values.size(); ++k) {
        o << " " << dict.values[k] << "=";
        for (const auto& counts : dict.counts) o << counts[k] << "/";
      }
      o << " missing=";
      for (const auto m : dict.missing) o << m << "/";
      o << " other=";
      for (const auto m : dict.other) o << m << "/";
      o << "\n";
    }
    o << extra;
    return o.str();
  }
};

inline void setError(Outcome& out, const Error& e) {
  out.ok = false;
  out.code = e.code();
  out.message = e.what();
  out.parameter = e.parameter();
  out.location = e.location();
}

// Runs pass 1, asks `makePlan` for a plan and the width, allocates, runs pass 2.
inline Outcome readWith(const std::string& bytes, const CsvOptions& options,
                        const std::function<FillPlan(const CsvScan&, Outcome&)>& makePlan,
                        std::size_t chunk) {
  Outcome out;
  try {
    out.scan = scanIn(bytes, options, chunk);
    FillPlan plan = makePlan(out.scan, out);
    out.width = plan.width();
    bool label = false;
    for (const ColumnPlan& c : plan.columns) label = label || c.role == ColumnRole::kLabel;
    out.features.assign(out.scan.rows * out.width, -12345.0f);
    out.labels.assign(label ? out.scan.rows : 0, -12345);
    CsvFiller filler(out.scan, std::move(plan),
                     {FillTarget{out.features.data(), out.width,
                                 label ? out.labels.data() : nullptr, out.scan.rows}});
    feedAll(filler, bytes, chunk);
    out.fill = filler.finish();
    out.ok = true;
  } catch (const Error& e) {
    setError(out, e);
  }
  return out;
}

// A numeric-only reading, planned here from the scan (no rule of the product's: the engine's
// own checks decide, in pass 2): the label (if any) with its classes coded in order of
// appearance, `positive` first when given; the features — the `features` list, or every other
// column not in `ignore`, in file order — each a number, a missing cell refused
// (MISSING_VALUE) or replaced by `impute`. Names not in the header are left out (the run's
// option errors are tested through run::CsvRun, csv_fixtures_test.cpp).
struct NumericColumns {
  std::string label;
  std::string positive;  // non-empty: code 0, and the labels come back as ±1
  std::optional<std::vector<std::string>> features;
  std::vector<std::string> ignore;
  std::optional<float> impute;
};

inline FillPlan numericPlan(const CsvScan& scan, const NumericColumns& c) {
  FillPlan plan;
  plan.columns.resize(scan.columns.size());
  const std::int64_t label = c.label.empty() ? -1 : scan.columnIndex(c.label);
  std::vector<std::string> names;
  if (c.features) {
    names = *c.features;
  } else {
    for (const ColumnSummary& column : scan.columns) {
      if (std::find(c.ignore.begin(), c.ignore.end(), column.name) == c.ignore.end()) {
        names.push_back(column.name);
      }
    }
  }
  std::size_t k = 0;
  for (const std::string& name : names) {
    const std::int64_t j = scan.columnIndex(name);
    if (j < 0 || j == label) continue;
    ColumnPlan& p = plan.columns[static_cast<std::size_t>(j)];
    if (p.role != ColumnRole::kSkip) continue;  // listed twice
    p.role = ColumnRole::kNumeric;
    p.output = k++;
    p.missing = c.impute ? MissingPolicy::kConstant : MissingPolicy::kError;
    p.fill = c.impute.value_or(0.0f);
  }
  if (label >= 0) {
    ColumnPlan& p = plan.columns[static_cast<std::size_t>(label)];
    p.role = ColumnRole::kLabel;
    p.missing = MissingPolicy::kError;
    if (!c.positive.empty()) p.categories = {c.positive};
  }
  return plan;
}

inline Outcome readNumeric(const std::string& bytes, const CsvOptions& options,
                           const NumericColumns& columns, std::size_t chunk) {
  Outcome out = readWith(
      bytes, options, [&](const CsvScan& scan, Outcome&) { return numericPlan(scan, columns); },
      chunk);
  if (out.ok && !columns.positive.empty()) {
    for (std::int32_t& y : out.labels) y = y == 0 ? 1 : -1;
  }
  return out;
}

// The engine's own reading: `label` (if any) as the label, text columns categorical, the
// rest numeric, missing cells marked (NaN / kMissingCode).
inline FillPlan autoPlan(const CsvScan& scan, const std::string& label) {
  FillPlan plan;
  plan.columns.resize(scan.columns.size());
  std::size_t k = 0;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) {
    const ColumnSummary& c = scan.columns[j];
    ColumnPlan& p = plan.columns[j];
    if (!label.empty() && c.name == label) {
      p.role = ColumnRole::kLabel;
    } else if (c.text > 0 || c.nonFinite > 0) {
      p.role = ColumnRole::kCategorical;
      p.output = k++;
    } else {
      p.role = ColumnRole::kNumeric;
      p.output = k++;
    }
  }
  return plan;
}

inline Outcome readAuto(const std::string& bytes, const CsvOptions& options,
                        const std::string& label, std::size_t chunk) {
  return readWith(
      bytes, options, [&](const CsvScan& scan, Outcome&) { return autoPlan(scan, label); },
      chunk);
}

}  // namespace dpmargin::testing::csv
