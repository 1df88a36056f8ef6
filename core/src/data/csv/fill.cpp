// Pass 2: the table written into caller-owned storage, per a column plan.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>
#include <utility>

#include "data/csv/common.hpp"
#include "data/csv/stream.hpp"
#include "data/csv/string_table.hpp"

namespace dpmargin::data {

std::size_t FillPlan::width() const {
  std::size_t width = 0;
  for (const ColumnPlan& c : columns) {
    if (c.role == ColumnRole::kNumeric || c.role == ColumnRole::kCategorical) {
      width = std::max(width, c.output + 1);
    }
  }
  return width;
}

std::int32_t CategoryDictionary::code(const std::string& value) const {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (values[k] == value) return static_cast<std::int32_t>(k);
  }
  return kOtherCode;
}

namespace csv {
namespace {

// Codes are stored as float in the feature table: exact up to 2^24.
constexpr std::size_t kMaxCategories = std::size_t{1} << 24;

[[noreturn]] void badPlan(const std::string& name, const std::string& message) {
  throw Error(ErrorCode::kBadParameter, name, name + " must be " + message);
}

[[noreturn]] void changed(const std::string& what) {
  throw Error(ErrorCode::kCsvParse, "",
              "the source changed while it was being read (" + what + "); read it again");
}

struct Dictionary {
  std::size_t column = 0;
  StringTable table;
  bool closed = false;
  std::vector<std::vector<std::uint64_t>> counts;  // [target][code]
  std::vector<std::uint64_t> missing, other;       // [target]
};

struct FillColumn {
  ColumnRole role = ColumnRole::kSkip;
  std::size_t output = 0;
  MissingPolicy missing = MissingPolicy::kMark;
  float fill = 0.0f;
  std::size_t dictionary = 0;
  bool refuseOther = false;
  bool textAsMissing = false;
};

class FillSink {
 public:
  FillSink(const CsvScan& scan, const FillPlan& plan, const std::vector<FillTarget>& targets,
           const std::uint8_t* router)
      : scan_(scan), targets_(targets), router_(router) {
    validate(plan);
    width_ = scan.columns.size();
    columns_.resize(width_);
    for (std::size_t j = 0; j < width_; ++j) {
      const ColumnPlan& p = plan.columns[j];
      FillColumn& c = columns_[j];
      c.role = p.role;
      c.output = p.output;
      c.missing = p.missing;
      c.fill = p.fill;
      c.refuseOther = p.refuseOther;
      c.textAsMissing = p.textAsMissing;
      if (p.role == ColumnRole::kCategorical || p.role == ColumnRole::kLabel) {
        c.dictionary = dictionaries_.size();
        Dictionary d;
        d.column = j;
        d.closed = p.closed;
        for (const std::string& value : p.categories) {
          d.table.insert(value.data(), value.size(), hashBytes(value.data(), value.size()));
        }
        d.counts.assign(targets.size(), std::vector<std::uint64_t>(p.categories.size(), 0));
        d.missing.assign(targets.size(), 0);
        d.other.assign(targets.size(), 0);
        dictionaries_.push_back(std::move(d));
      }
    }
    written_.assign(targets.size(), 0);
  }

  void attach(const std::int64_t* rowLine) { rowLine_ = rowLine; }

  void start(const CsvDialect& dialect) {
    classifier_ = CellClassifier(scan_.options.missingTokens, dialect.decimal, dialect.encoding);
    encoding_ = dialect.encoding;
    fast_ = !classifier_.numericTokens();
  }

  bool fastNumber(std::uint32_t field) const {
    return fast_ && target_ >= 0 && field < width_ && columns_[field].role == ColumnRole::kNumeric;
  }

  void number(std::uint32_t field, float value, const char* b, const char* e) {
    if (inHeader_) {
      headerRaw_.emplace_back(b, e);
      return;
    }
    if (field == 0) beginRow();
    if (target_ < 0 || field >= width_) return;
    const FillColumn& c = columns_[field];
    if (c.role == ColumnRole::kNumeric) {
      row_[c.output] = value;
    } else if (c.role != ColumnRole::kSkip) {
      category(field, c, b, e);
    }
  }

  void cell(std::uint32_t field, const char* b, const char* e) {
    if (inHeader_) {
      headerRaw_.emplace_back(b, e);
      return;
    }
    if (field == 0) beginRow();
    if (target_ < 0 || field >= width_) return;
    const FillColumn& c = columns_[field];
    switch (c.role) {
      case ColumnRole::kSkip:
        return;
      case ColumnRole::kNumeric:
        numeric(field, c, b, e);
        return;
      case ColumnRole::kCategorical:
      case ColumnRole::kLabel:
        category(field, c, b, e);
        return;
    }
  }

  void row(std::uint32_t fields) {
    if (inHeader_) {
      endHeader();
      return;
    }
    if (fields != width_) throwRagged(*rowLine_, fields, width_);
    if (target_ >= 0) ++written_[static_cast<std::size_t>(target_)];
    ++rows_;
  }

  void end() {
    if (inHeader_) changed("it has no header any more");
    if (rows_ != scan_.rows) {
      changed(std::to_string(rows_) + " data rows instead of " + std::to_string(scan_.rows));
    }
  }

  std::uint64_t rows() const { return rows_; }

  FillResult result() {
    FillResult out;
    out.rows = written_;
    out.imputed = imputed_;
    out.marked = marked_;
    for (Dictionary& d : dictionaries_) {
      CategoryDictionary cd;
      cd.column = d.column;
      cd.values.reserve(d.table.size());
      for (std::size_t k = 0; k < d.table.size(); ++k) cd.values.push_back(d.table.key(k));
      for (auto& counts : d.counts) counts.resize(d.table.size(), 0);
      cd.counts = std::move(d.counts);
      cd.missing = std::move(d.missing);
      cd.other = std::move(d.other);
      out.dictionaries.push_back(std::move(cd));
    }
    return out;
  }

 private:
  void validate(const FillPlan& plan) {
    const std::size_t n = scan_.columns.size();
    if (plan.columns.size() != n) {
      badPlan("plan.columns", "one plan per file column (" + std::to_string(n) + "), not " +
                                  std::to_string(plan.columns.size()));
    }
    const std::size_t width = plan.width();
    std::unordered_set<std::size_t> used;
    bool label = false;
    for (std::size_t j = 0; j < n; ++j) {
      const ColumnPlan& p = plan.columns[j];
      const std::string name = "plan.columns[" + std::to_string(j) + "]";
      const bool valued = p.role == ColumnRole::kNumeric || p.role == ColumnRole::kCategorical;
      if (valued) {
        if (!used.insert(p.output).second) badPlan(name + ".output", "unique among the columns");
      }
      if (p.role == ColumnRole::kLabel) {
        if (label) badPlan(name + ".role", "label for one column only");
        label = true;
      }
      if (p.missing == MissingPolicy::kConstant &&
          (p.role != ColumnRole::kNumeric || !std::isfinite(p.fill))) {
        badPlan(name + ".missing", "a constant only for a numeric column, and finite");
      }
      const bool categorical =
          p.role == ColumnRole::kCategorical || p.role == ColumnRole::kLabel;
      if (!categorical && (p.closed || !p.categories.empty())) {
        badPlan(name + ".categories", "given only for a categorical or label column");
      }
      std::unordered_set<std::string> seen;
      for (const std::string& value : p.categories) {
        if (!seen.insert(value).second) {
          badPlan(name + ".categories", "free of repeats (" + quote(value) + " repeats)");
        }
        if (checkUtf8(reinterpret_cast<const unsigned char*>(value.data()), value.size())
                .status != Utf8Status::kOk) {
          badPlan(name + ".categories", "UTF-8 text");
        }
      }
      if (p.categories.size() > kMaxCategories) {
        badPlan(name + ".categories", "at most 2^24 values");
      }
    }
    if (targets_.empty() || targets_.size() > 255) {
      badPlan("targets", "1 to 255 tables, not " + std::to_string(targets_.size()));
    }
    std::vector<std::uint64_t> rows(targets_.size(), 0);
    if (router_ == nullptr) {
      rows[0] = scan_.rows;
    } else {
      for (std::uint64_t r = 0; r < scan_.rows; ++r) {
        const std::uint8_t t = router_[r];
        if (t > targets_.size()) {
          badPlan("router", "0 (skip) or a target number 1…" + std::to_string(targets_.size()) +
                                ", but router[" + std::to_string(r) + "] is " + std::to_string(t));
        }
        if (t > 0) ++rows[t - 1];
      }
    }
    for (std::size_t t = 0; t < targets_.size(); ++t) {
      const FillTarget& target = targets_[t];
      const std::string name = "targets[" + std::to_string(t) + "]";
      if (rows[t] > target.rows) {
        badPlan(name + ".rows", "at least the " + std::to_string(rows[t]) +
                                    " rows routed to it, not " + std::to_string(target.rows));
      }
      if (rows[t] == 0) continue;
      if (width > 0 && (target.features == nullptr || (target.stride < width && target.stride != 0))) {
        badPlan(name + ".features", "a table with a stride of at least " + std::to_string(width));
      }
      if (label && target.labels == nullptr) badPlan(name + ".labels", "given (a label is planned)");
    }
  }

  void endHeader() {
    const std::vector<std::string> names = headerNames(headerRaw_, encoding_);
    headerRaw_.clear();
    bool same = names.size() == scan_.columns.size();
    for (std::size_t j = 0; same && j < names.size(); ++j) same = names[j] == scan_.columns[j].name;
    if (!same) changed("its header");
    inHeader_ = false;
  }

  void beginRow() {
    if (rows_ >= scan_.rows) changed("more than " + std::to_string(scan_.rows) + " data rows");
    const std::uint8_t destination = router_ == nullptr ? 1 : router_[rows_];
    target_ = static_cast<int>(destination) - 1;
    if (target_ < 0) return;
    const FillTarget& t = targets_[static_cast<std::size_t>(target_)];
    const std::uint64_t i = written_[static_cast<std::size_t>(target_)];
    row_ = t.features == nullptr ? nullptr : t.features + i * t.stride;
    label_ = t.labels == nullptr ? nullptr : t.labels + i;
  }

  CellContext at(std::uint32_t field) const {
    return {*rowLine_, field, &scan_.columns[field].name};
  }

  void numeric(std::uint32_t field, const FillColumn& c, const char* b, const char* e) {
    float value = 0.0f;
    NumberStatus status = NumberStatus::kNotNumber;
    const CellClass cls = classifier_.classify(b, e, value, status);
    if (cls == CellClass::kNumber) {
      row_[c.output] = value;
      return;
    }
    if (cls == CellClass::kMissing || (cls != CellClass::kNumber && c.textAsMissing)) {
      switch (c.missing) {
        case MissingPolicy::kMark:
          row_[c.output] = std::numeric_limits<float>::quiet_NaN();
          ++marked_;
          return;
        case MissingPolicy::kConstant:
          row_[c.output] = c.fill;
          ++imputed_;
          return;
        case MissingPolicy::kError:
          break;
      }
    }
    throwCellError(at(field), cls, toUtf8(b, e, encoding_), status, classifier_.decimal(),
                   scan_.options.missingTokens);
  }

  void category(std::uint32_t field, const FillColumn& c, const char* b, const char* e) {
    trim(b, e, encoding_);
    Dictionary& d = dictionaries_[c.dictionary];
    const std::size_t t = static_cast<std::size_t>(target_);
    std::int32_t code;
    if (classifier_.isMissing(b, e)) {
      if (c.missing == MissingPolicy::kError) {
        const std::string value = toUtf8(b, e, encoding_);
        if (c.role == ColumnRole::kLabel) throwMissingLabel(at(field), value);
        throwMissingValue(at(field), value);
      }
      code = kMissingCode;
      ++d.missing[t];
      ++marked_;
    } else {
      if (encoding_ == CsvEncoding::kLatin1) {  // keys are UTF-8, as declared categories
        scratch_.clear();
        appendUtf8(scratch_, b, e, encoding_);
        b = scratch_.data();
        e = b + scratch_.size();
      }
      const std::size_t n = static_cast<std::size_t>(e - b);
      const std::uint64_t hash = hashBytes(b, n);
      const std::int64_t found = d.table.find(b, n, hash);
      if (found >= 0) {
        code = static_cast<std::int32_t>(found);
      } else if (d.closed) {
        if (c.refuseOther) {
          std::string list;
          for (std::size_t k = 0; k < d.table.size() && k < 8; ++k) {
            list += (k ? ", " : "") + quote(d.table.key(k));
          }
          if (d.table.size() > 8) list += ", …";
          throw Error(ErrorCode::kBadLabel, "classes",
                      "label " + quote(std::string(b, e)) + " at line " + std::to_string(*rowLine_) +
                          ", column " + quote(scan_.columns[field].name) +
                          " is not one of the classes (" + list +
                          "); declare the classes (classes, --classes) or let them be "
                          "discovered privately (discoverClasses, --discover-classes)",
                      cellLocation(at(field)));
        }
        code = kOtherCode;
      } else {
        if (d.table.size() >= kMaxCategories) {
          ErrorLocation location = cellLocation(at(field));
          throw Error(ErrorCode::kCsvParse, "",
                      "column " + quote(scan_.columns[field].name) +
                          " has more than 2^24 distinct values at line " +
                          std::to_string(*rowLine_) +
                          "; it cannot be categorical (ignore it, or read it as numeric)",
                      location);
        }
        code = static_cast<std::int32_t>(d.table.insert(b, n, hash));
      }
      if (code == kOtherCode) {
        ++d.other[t];
      } else {
        std::vector<std::uint64_t>& counts = d.counts[t];
        if (static_cast<std::size_t>(code) >= counts.size()) counts.resize(d.table.size(), 0);
        ++counts[static_cast<std::size_t>(code)];
      }
    }
    if (c.role == ColumnRole::kLabel) {
      *label_ = code;
    } else {
      row_[c.output] = static_cast<float>(code);
    }
  }

  const CsvScan& scan_;
  const std::vector<FillTarget>& targets_;
  const std::uint8_t* router_;
  const std::int64_t* rowLine_ = nullptr;
  CellClassifier classifier_;
  CsvEncoding encoding_ = CsvEncoding::kUtf8;
  bool fast_ = true;
  bool inHeader_ = true;
  std::vector<std::string> headerRaw_;
  std::size_t width_ = 0;
  std::vector<FillColumn> columns_;
  std::vector<Dictionary> dictionaries_;
  std::vector<std::uint64_t> written_;
  std::uint64_t rows_ = 0;
  int target_ = -1;
  float* row_ = nullptr;
  std::int32_t* label_ = nullptr;
  std::uint64_t imputed_ = 0, marked_ = 0;
  std::string scratch_;
};

}  // namespace
}  // namespace csv

struct CsvFiller::Impl {
  Impl(const CsvScan& s, FillPlan p, std::vector<FillTarget> t, const std::uint8_t* router)
      : scan(s),
        plan(std::move(p)),
        targets(std::move(t)),
        sink(scan, plan, targets, router),
        stream(scan.options, &scan.dialect, sink) {
    sink.attach(stream.rowLine());
  }
  CsvScan scan;  // a copy of the header names, dialect and options (summaries unused)
  FillPlan plan;
  std::vector<FillTarget> targets;
  csv::FillSink sink;
  csv::CsvStream<csv::FillSink> stream;
  bool closed = false;
};

namespace {
CsvScan headerOnly(const CsvScan& scan) {
  CsvScan copy;
  copy.options = scan.options;
  copy.dialect = scan.dialect;
  copy.headerLine = scan.headerLine;
  copy.rows = scan.rows;
  copy.bytes = scan.bytes;
  copy.columns.resize(scan.columns.size());
  for (std::size_t j = 0; j < scan.columns.size(); ++j) copy.columns[j].name = scan.columns[j].name;
  return copy;
}
}  // namespace

CsvFiller::CsvFiller(const CsvScan& scan, FillPlan plan, std::vector<FillTarget> targets,
                     const std::uint8_t* router) {
  csv::validateOptions(scan.options);
  impl_ = std::make_unique<Impl>(headerOnly(scan), std::move(plan), std::move(targets), router);
}
CsvFiller::~CsvFiller() = default;
CsvFiller::CsvFiller(CsvFiller&&) noexcept = default;
CsvFiller& CsvFiller::operator=(CsvFiller&&) noexcept = default;

void CsvFiller::feed(const char* data, std::size_t size) {
  if (!impl_ || impl_->closed) csv::throwMisuse("CsvFiller::feed after finish() or an error");
  impl_->closed = true;
  impl_->stream.feed(data, size);
  impl_->closed = false;
}

FillResult CsvFiller::finish() {
  if (!impl_ || impl_->closed) csv::throwMisuse("CsvFiller::finish after finish() or an error");
  impl_->closed = true;
  impl_->stream.finish();
  impl_->sink.end();
  return impl_->sink.result();
}

std::uint64_t CsvFiller::bytes() const { return impl_ ? impl_->stream.bytes() : 0; }
std::uint64_t CsvFiller::rows() const { return impl_ ? impl_->sink.rows() : 0; }

FillResult fillCsv(const char* data, std::size_t size, const CsvScan& scan, FillPlan plan,
                   std::vector<FillTarget> targets, const std::uint8_t* router) {
  CsvFiller filler(scan, std::move(plan), std::move(targets), router);
  filler.feed(data, size);
  return filler.finish();
}

}  // namespace dpmargin::data
