// Today's numeric reader (wasm/src/csv_columns.ts, csv.ts firstPass) as a plan over a scan:
// the same checks, the same order, the same words, but decided from pass 1's summaries, so
// every error comes before anything is allocated.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "data/csv/cells.hpp"
#include "data/csv/text.hpp"
#include "dpmargin/data/csv.hpp"

namespace dpmargin::data {
namespace {

using csv::quote;

std::string jsNumber(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e21) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", v);
    return buffer;
  }
  char buffer[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
    if (std::strtod(buffer, nullptr) == v) break;
  }
  return buffer;
}

[[noreturn]] void badParameter(const std::string& parameter, const std::string& requirement,
                               const std::string& shown) {
  throw Error(ErrorCode::kBadParameter, parameter,
              parameter + " must be " + requirement + ", but is " + shown);
}

[[noreturn]] void badParameterMessage(const std::string& parameter, const std::string& message) {
  throw Error(ErrorCode::kBadParameter, parameter, message);
}

std::string quotedList(const std::vector<std::string>& names, std::size_t max = 12) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < max; ++i) {
    if (i > 0) out += ", ";
    out += quote(names[i]);
  }
  if (names.size() > max) out += ", \u2026 (" + std::to_string(names.size()) + " columns)";
  return out;
}

std::string trimmed(const std::string& s) {
  const char* b = s.data();
  const char* e = b + s.size();
  csv::trim(b, e, CsvEncoding::kUtf8);
  return std::string(b, e);
}

std::vector<std::string> nameList(const std::vector<std::string>& names, const char* parameter) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const std::string& name : names) {
    const std::string t = trimmed(name);
    if (!seen.insert(t).second) {
      badParameter(parameter, "a list without repeats", quote("repeating " + quote(name)));
    }
    out.push_back(t);
  }
  return out;
}

std::string mib(double bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.1f MiB", bytes / 1048576.0);
  return std::string(buffer) + " (" + jsNumber(bytes) + " bytes)";
}

// The first bad cell of a column under the plan, if any.
struct BadCell {
  std::int64_t line = -1;
  CellClass cls = CellClass::kText;
  const CellSample* sample = nullptr;
};

BadCell firstBadCell(const ColumnSummary& c, bool missingAllowed) {
  BadCell bad;
  auto consider = [&](const CellSample& s, CellClass cls) {
    if (s.line >= 0 && (bad.line < 0 || s.line < bad.line)) {
      bad.line = s.line;
      bad.cls = cls;
      bad.sample = &s;
    }
  };
  consider(c.firstText, CellClass::kText);
  consider(c.firstNonFinite, CellClass::kNonFinite);
  if (!missingAllowed) consider(c.firstMissing, CellClass::kMissing);
  return bad;
}

}  // namespace

NumericPlan planNumeric(const CsvScan& scan, const NumericReadOptions& options) {
  // Options, as resolveCsvOptions checks them.
  if (options.positive && !options.label) {
    badParameter("positive", "given only with label", quote(*options.positive));
  }
  std::optional<std::vector<std::string>> features;
  if (options.features) {
    if (options.features->empty()) {
      badParameter("features", "a non-empty list of column names", "[]");
    }
    features = nameList(*options.features, "features");
  }
  const std::vector<std::string> ignore = nameList(options.ignore, "ignore");
  if (options.impute && !std::isfinite(*options.impute)) {
    badParameter("missing", "\"error\" or { impute: c } with a finite public constant c",
                 jsNumber(*options.impute));
  }
  if (!(options.maxBytes > 0)) badParameter("maxBytes", "a number > 0", jsNumber(options.maxBytes));
  const std::optional<std::string> label =
      options.label ? std::optional<std::string>(trimmed(*options.label)) : std::nullopt;
  const bool requireBoth = options.requireBothClasses.value_or(label.has_value());

  // Columns, as planColumns resolves them.
  std::vector<std::string> header;
  header.reserve(scan.columns.size());
  for (const ColumnSummary& c : scan.columns) header.push_back(c.name);
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t j = 0; j < header.size(); ++j) position.emplace(header[j], j);
  std::int64_t labelIndex = -1;
  if (label) {
    const auto found = position.find(*label);
    if (found == position.end()) {
      throw Error(ErrorCode::kLabelNotFound, "label",
                  "label column " + quote(*label) + " is not in the header (" +
                      quotedList(header) + ")");
    }
    labelIndex = static_cast<std::int64_t>(found->second);
  }
  auto require = [&](const std::vector<std::string>& list, const char* parameter) {
    for (const std::string& name : list) {
      if (position.count(name) == 0) {
        badParameterMessage(parameter, std::string(parameter) + ": column " + quote(name) +
                                           " is not in the header (" + quotedList(header) + ")");
      }
      if (label && name == *label) {
        badParameterMessage(parameter,
                            std::string(parameter) + ": " + quote(name) + " is the label column");
      }
    }
  };
  require(ignore, "ignore");
  std::vector<std::string> featureNames;
  if (features) {
    require(*features, "features");
    for (const std::string& name : *features) {
      if (std::find(ignore.begin(), ignore.end(), name) != ignore.end()) {
        badParameterMessage("ignore", "ignore: column " + quote(name) +
                                          " is also listed in features");
      }
    }
    featureNames = *features;
  } else {
    for (std::size_t j = 0; j < header.size(); ++j) {
      if (static_cast<std::int64_t>(j) == labelIndex) continue;
      if (std::find(ignore.begin(), ignore.end(), header[j]) != ignore.end()) continue;
      featureNames.push_back(header[j]);
    }
  }
  if (featureNames.empty()) {
    if (header.size() == 1 && labelIndex == 0) {
      throw Error(ErrorCode::kCsvParse, "",
                  "no feature columns: the file has only the label column " + quote(*label));
    }
    badParameterMessage("ignore", "ignore: no feature columns are left (header: " +
                                      quotedList(header) + ")");
  }

  NumericPlan out;
  out.rows = scan.rows;
  out.features = featureNames.size();
  out.featureNames = featureNames;
  out.labelColumn = labelIndex;
  out.plan.columns.resize(header.size());
  std::vector<std::size_t> featureIndex;
  for (std::size_t k = 0; k < featureNames.size(); ++k) {
    const std::size_t j = position.at(featureNames[k]);
    featureIndex.push_back(j);
    ColumnPlan& p = out.plan.columns[j];
    p.role = ColumnRole::kNumeric;
    p.output = k;
    p.missing = options.impute ? MissingPolicy::kConstant : MissingPolicy::kError;
    p.fill = options.impute.value_or(0.0f);
    if (options.impute) out.imputed += scan.columns[j].missing;
  }
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (static_cast<std::int64_t>(j) != labelIndex &&
        out.plan.columns[j].role == ColumnRole::kSkip) {
      out.ignored.push_back(header[j]);
    }
  }

  // The first bad cell in file order: by line, then features in plan order, then the label,
  // as the TypeScript reader meets them row by row.
  BadCell first;
  std::size_t firstColumn = 0;
  bool firstIsLabel = false;
  for (const std::size_t j : featureIndex) {
    const BadCell bad = firstBadCell(scan.columns[j], options.impute.has_value());
    if (bad.line >= 0 && (first.line < 0 || bad.line < first.line)) {
      first = bad;
      firstColumn = j;
    }
  }
  if (labelIndex >= 0) {
    const CellSample& missing = scan.columns[static_cast<std::size_t>(labelIndex)].firstMissing;
    if (missing.line >= 0 && (first.line < 0 || missing.line < first.line)) {
      first.line = missing.line;
      first.sample = &missing;
      firstColumn = static_cast<std::size_t>(labelIndex);
      firstIsLabel = true;
    }
  }
  if (first.line >= 0) {
    const csv::CellContext at{first.line, firstColumn, &header[firstColumn]};
    const std::string& value = first.sample->value;
    if (firstIsLabel) csv::throwMissingLabel(at, value);
    float ignored;
    const csv::NumberStatus status = csv::parseNumber(
        value.data(), value.data() + value.size(), scan.dialect.decimal, ignored);
    csv::throwCellError(at, first.cls, value, status, scan.dialect.decimal,
                        scan.options.missingTokens);
  }

  // The positive class and both classes present.
  if (labelIndex >= 0) {
    const ColumnSummary& y = scan.columns[static_cast<std::size_t>(labelIndex)];
    std::vector<std::string> seen;
    for (std::size_t k = 0; k < y.distinct.size() && k < 6; ++k) seen.push_back(y.distinct[k].value);
    std::string values = quotedList(seen, 6);
    if (seen.size() == 6) values += ", \u2026";
    std::string positive;
    if (options.positive) {
      positive = trimmed(*options.positive);
    } else {
      bool binary = !y.distinctCapped;
      for (const DistinctValue& v : y.distinct) binary = binary && (v.value == "0" || v.value == "1");
      if (!binary) {
        badParameterMessage("positive", "positive must be given: label column " + quote(y.name) +
                                            " holds values other than 0 and 1 (" + values +
                                            "); name the positive class");
      }
      positive = "1";
    }
    out.positive = positive;
    if (requireBoth) {
      if (scan.rows < 2) {
        badParameterMessage("rows", "rows: training needs at least 2 data rows, but the file has " +
                                        std::to_string(scan.rows));
      }
      // Counts are exact unless pass 1 stopped tracking the column (more distinct values
      // than it keeps): then the caller checks the classes after pass 2.
      const bool known = !y.distinctCapped;
      std::uint64_t positives = 0;
      for (const DistinctValue& v : y.distinct) {
        if (v.value == positive) positives = v.count;
      }
      out.classesChecked = known;
      if (known && (positives == 0 || positives == scan.rows)) {
        throw Error(ErrorCode::kOneClass, "",
                    "all " + std::to_string(scan.rows) + " rows are " +
                        (positives == 0 ? "negative" : "positive") + " for positive value " +
                        quote(positive) + " in label column " + quote(y.name) + " (values: " +
                        values + "); training needs both classes");
      }
    }
    ColumnPlan& p = out.plan.columns[static_cast<std::size_t>(labelIndex)];
    p.role = ColumnRole::kLabel;
    p.missing = MissingPolicy::kError;
    p.categories = {positive};
  }

  const double bytes =
      static_cast<double>(scan.rows) * static_cast<double>(featureNames.size() + 1) * 4.0;
  if (bytes > options.maxBytes) {
    throw Error(ErrorCode::kOutOfMemory, "",
                "the table needs " + mib(bytes) + " of memory (" + std::to_string(scan.rows) +
                    " rows \u00d7 (" + std::to_string(featureNames.size()) +
                    " features + 1) \u00d7 4 bytes), more than the limit of " +
                    mib(options.maxBytes));
  }
  return out;
}

}  // namespace dpmargin::data
