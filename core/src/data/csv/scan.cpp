// Pass 1: the dialect, the header, the row count and a bounded summary of every column.
#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <unordered_map>
#include <utility>

#include "data/csv/common.hpp"
#include "data/csv/stream.hpp"
#include "data/csv/string_table.hpp"

namespace dpmargin::data {
namespace csv {

std::vector<std::string> headerNames(const std::vector<std::string>& raw, CsvEncoding encoding) {
  std::vector<std::string> names;
  names.reserve(raw.size());
  for (const std::string& cell : raw) {
    const char* b = cell.data();
    const char* e = b + cell.size();
    trim(b, e, encoding);
    names.push_back(toUtf8(b, e, encoding));
  }
  return names;
}

void checkDuplicateNames(const std::vector<std::string>& names, std::int64_t line) {
  std::unordered_map<std::string, std::size_t> position;
  position.reserve(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) {
    const auto inserted = position.emplace(names[j], j);
    if (!inserted.second) {
      ErrorLocation location;
      location.line = line;
      location.columnIndex = static_cast<std::int64_t>(j);
      location.column = names[j];
      throw Error(ErrorCode::kCsvParse, "",
                  "duplicate column name " + quote(names[j]) + " in the header (line " +
                      std::to_string(line) + ", columns " +
                      std::to_string(inserted.first->second + 1) + " and " +
                      std::to_string(j + 1) + ")",
                  location);
    }
  }
}

void throwRagged(std::int64_t line, std::uint32_t fields, std::size_t width) {
  ErrorLocation location;
  location.line = line;
  throw Error(ErrorCode::kRaggedRow, "",
              "line " + std::to_string(line) + " has " + std::to_string(fields) +
                  (fields == 1 ? " field" : " fields") + "; the header has " +
                  std::to_string(width),
              location);
}

void throwEmpty() {
  throw Error(ErrorCode::kCsvParse, "", "the file is empty (no header row)");
}

void throwNoRows(std::int64_t headerLine) {
  ErrorLocation location;
  location.line = headerLine;
  throw Error(ErrorCode::kCsvParse, "",
              "the file has a header (line " + std::to_string(headerLine) + ") but no data rows",
              location);
}

void throwMisuse(const char* what) { throw Error(ErrorCode::kInternal, "", what); }

namespace {

// Cells quoted by a summary are kept up to this size (messages show 40 characters).
constexpr std::size_t kSampleValueBytes = 1024;

struct ColumnState {
  ColumnSummary summary;  // counts and first cells; distinct values are built at the end
  StringTable distinct;  // the distinct values and their counts
  bool capped = false;
};

class ScanSink {
 public:
  explicit ScanSink(const CsvOptions& options) : options_(options) {}

  void attach(const std::int64_t* rowLine) { rowLine_ = rowLine; }

  void start(const CsvDialect& dialect) {
    classifier_ = CellClassifier(options_.missingTokens, dialect.decimal, dialect.encoding);
    encoding_ = dialect.encoding;
    fast_ = !classifier_.numericTokens();
  }

  bool fastNumber(std::uint32_t field) const { return fast_ && field < width_; }

  void number(std::uint32_t field, float value, const char* b, const char* e) {
    if (inHeader_) {
      headerRaw_.emplace_back(b, e);
      return;
    }
    if (field >= width_) return;
    if (field == 0) startRow();
    if (keepValues_) store(field, value);
    ColumnState& c = columns_[field];
    ++c.summary.numbers;
    if (counting_) countNumber(c, value);
    track(c, b, e);
    if (rows_ < options_.previewRows) keep(field, b, e);
  }

  void cell(std::uint32_t field, const char* b, const char* e) {
    if (inHeader_) {
      headerRaw_.emplace_back(b, e);
      return;
    }
    if (field >= width_) return;
    if (field == 0) startRow();
    if (rows_ < options_.previewRows) keep(field, b, e);
    ColumnState& c = columns_[field];
    float value;
    NumberStatus status;
    const CellClass cls = classifier_.classify(b, e, value, status);
    switch (cls) {
      case CellClass::kNumber:
        ++c.summary.numbers;
        if (counting_) countNumber(c, value);
        break;
      case CellClass::kMissing:
        if (c.summary.missing++ == 0) remember(c.summary.firstMissing, b, e);
        if (counting_) ++c.summary.training.missing;
        if (keepValues_) store(field, textValue(-1));
        return;  // not a value: missing cells stay out of the distinct values
      case CellClass::kNonFinite:
        if (c.summary.nonFinite++ == 0) remember(c.summary.firstNonFinite, b, e);
        if (counting_) ++c.summary.training.nonFinite;
        break;
      case CellClass::kText:
        if (c.summary.text++ == 0) remember(c.summary.firstText, b, e);
        if (counting_) ++c.summary.training.text;
        break;
    }
    const std::int64_t code = track(c, b, e);
    if (keepValues_) store(field, cls == CellClass::kNumber ? value : textValue(code));
  }

  // A cell that is not a number, kept as a NaN whose payload is 1 + its index among the
  // column's distinct values (0: not tracked) — so a text label's rows keep their class.
  static float textValue(std::int64_t code) {
    const std::uint32_t payload = code >= 0 && code < (std::int64_t{1} << 22) - 1 ? std::uint32_t(code + 1) : 0u;
    const std::uint32_t bits = 0x7fc00000u | payload;
    float out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
  }

  void row(std::uint32_t fields) {
    if (inHeader_) {
      endHeader();
      return;
    }
    if (fields != width_) throwRagged(*rowLine_, fields, width_);
    if (rows_ < options_.previewRows) previewLines_.push_back(*rowLine_);
    if (keepValues_ && storing_) {
      ++stored_;
      if (only_ != nullptr) ++nextOnly_;
    }
    ++rows_;
  }

  void countRows(const std::uint64_t* rows, std::size_t count) {
    countOnly_ = rows;
    countOnlyCount_ = count;
  }

  void keepValues(const std::uint64_t* only, std::size_t count) {
    keepValues_ = true;
    only_ = only;
    onlyCount_ = count;
  }
  void reserveValues(std::uint64_t rows) {
    if (!keepValues_ || reservedRows_ > 0) return;
    // Room for the rows stored so far at least: a small file, or a row selection, may be
    // stored whole before the reservation (which comes after a chunk of the file).
    if (width_ == 0 || rows < stored_ || rows > std::numeric_limits<std::size_t>::max() / 2 / width_) {
      return dropValues();
    }
    reservedRows_ = static_cast<std::size_t>(rows);
    try {
      values_.reserve(reservedRows_ * width_);
    } catch (const std::bad_alloc&) {
      dropValues();
    }
  }
  bool valuesKept() const { return keepValues_; }
  // The values of every row (empty unless kept), leaving none behind.
  std::vector<float> takeValues() {
    std::vector<float> out;
    if (keepValues_) {
      values_.resize(stored_ * width_);  // every stored row has its width_ cells: a shrink
      out = std::move(values_);
    }
    dropValues();
    return out;
  }

  bool hasHeader() const { return !inHeader_; }
  std::vector<std::vector<std::string>> takePreview() { return std::move(preview_); }
  std::vector<std::int64_t> takePreviewLines() { return std::move(previewLines_); }
  const std::vector<std::string>& names() const { return names_; }
  std::uint64_t rows() const { return rows_; }
  std::int64_t headerLine() const { return headerLine_; }

  std::vector<ColumnSummary> summaries() {
    std::vector<ColumnSummary> out;
    out.reserve(columns_.size());
    for (std::size_t j = 0; j < columns_.size(); ++j) {
      ColumnState& c = columns_[j];
      ColumnSummary s = std::move(c.summary);
      s.name = names_[j];
      s.distinct.reserve(c.distinct.size());
      for (std::size_t k = 0; k < c.distinct.size(); ++k) {
        const std::string key = c.distinct.key(k);
        s.distinct.push_back({toUtf8(key.data(), key.data() + key.size(), encoding_), c.distinct.count(k)});
      }
      s.distinctCapped = c.capped;
      if (!c.capped) s.distinctRows = rows_;
      out.push_back(std::move(s));
    }
    return out;
  }

 private:
  void endHeader() {
    names_ = headerNames(headerRaw_, encoding_);
    headerRaw_.clear();
    headerRaw_.shrink_to_fit();
    headerLine_ = *rowLine_;
    checkDuplicateNames(names_, headerLine_);
    width_ = names_.size();
    columns_.resize(width_);
    inHeader_ = false;
  }

  // A data row starts (its first field): is it one the training counts take?
  void startRow() {
    if (countOnly_ == nullptr) return;
    while (nextCount_ < countOnlyCount_ && countOnly_[nextCount_] < rows_) ++nextCount_;
    counting_ = nextCount_ < countOnlyCount_ && countOnly_[nextCount_] == rows_;
  }
  static void countNumber(ColumnState& c, float value) {
    ++c.summary.training.numbers;
    if (value == 0.0f || value == 1.0f || value == -1.0f) ++c.summary.training.binary;
  }

  // The current row's cell `field` into the kept values, when the row is kept (the next
  // stored row; every stored row writes all width_ cells, or the scan fails on it). Room grows
  // in blocks of 4096 rows within the reservation (no reallocation); before it, by doubling up
  // to kUnreservedValues floats. Past either, the values are dropped.
  void store(std::uint32_t field, float value) {
    if (field == 0) {  // a row starts: is it one to keep?
      storing_ = only_ == nullptr || (nextOnly_ < onlyCount_ && only_[nextOnly_] == rows_);
    }
    if (!storing_) return;
    const std::size_t at = stored_ * width_ + field;
    if (at >= values_.size()) {
      const std::size_t needed = (stored_ + 1) * width_;
      std::size_t size;
      if (reservedRows_ > 0) {
        if (stored_ + 1 > reservedRows_) return dropValues();
        size = std::min(reservedRows_, stored_ + 4096) * width_;
      } else {
        if (needed > CsvScanner::kUnreservedValues) return dropValues();
        size = std::min(CsvScanner::kUnreservedValues, std::max(needed, 2 * values_.size()));
      }
      values_.resize(size, std::numeric_limits<float>::quiet_NaN());
    }
    values_[at] = value;
  }
  void dropValues() {
    keepValues_ = false;
    values_ = {};
  }

  // The first rows' cells as text (UTF-8, cut to kSampleValueBytes), for a preview.
  void keep(std::uint32_t field, const char* b, const char* e) {
    if (preview_.size() <= rows_) preview_.resize(std::size_t(rows_) + 1, std::vector<std::string>(width_));
    const std::size_t n = static_cast<std::size_t>(e - b);
    preview_[std::size_t(rows_)][field] =
        truncateBytes(toUtf8(b, b + std::min(n, 4 * kSampleValueBytes), encoding_), kSampleValueBytes);
  }

  void remember(CellSample& sample, const char* b, const char* e) {
    const std::size_t n = static_cast<std::size_t>(e - b);
    sample.value = truncateBytes(toUtf8(b, b + std::min(n, 4 * kSampleValueBytes), encoding_),
                                 kSampleValueBytes);
    sample.line = *rowLine_;
  }

  // Exact counts of the distinct values while they are few: the caller picks a label and its
  // positive class, or sees a low-cardinality column, from them. Past the caps the column
  // stops being tracked (no lookups at all), so a numeric column costs nothing after its
  // first few hundred rows. A column of numbers only (so far) has the smaller cap.
  // Returns the value's index among the column's distinct values, −1 once capped.
  std::int64_t track(ColumnState& c, const char* b, const char* e) {
    if (c.capped) return -1;
    const std::size_t n = static_cast<std::size_t>(e - b);
    const std::uint64_t hash = hashBytes(b, n);
    const std::int64_t known = c.distinct.bumpCode(b, n, hash);
    if (known >= 0) return known;
    const std::size_t cap = c.summary.text == 0 ? options_.numericDistinctCap : options_.distinctCap;
    if (c.distinct.size() >= cap ||
        c.distinct.bytes() + n > options_.distinctBytes ||
        distinctBytes_ + n > options_.distinctTotalBytes) {
      c.capped = true;
      c.summary.distinctRows = rows_;
      return -1;
    }
    distinctBytes_ += n;
    return c.distinct.insert(b, n, hash);
  }

  const CsvOptions& options_;
  const std::int64_t* rowLine_ = nullptr;
  CellClassifier classifier_;
  CsvEncoding encoding_ = CsvEncoding::kUtf8;
  bool fast_ = true;
  bool inHeader_ = true;
  std::vector<std::string> headerRaw_;
  std::vector<std::string> names_;
  std::int64_t headerLine_ = 0;
  std::size_t width_ = 0;
  std::vector<ColumnState> columns_;
  std::uint64_t rows_ = 0;
  std::size_t distinctBytes_ = 0;
  std::vector<std::vector<std::string>> preview_;
  std::vector<std::int64_t> previewLines_;
  // keepValues(): every cell's number (NaN: not a number), row-major, width_ per row.
  bool keepValues_ = false;  // asked for, and not dropped
  const std::uint64_t* only_ = nullptr;  // the rows to keep (increasing), or all
  std::size_t onlyCount_ = 0, nextOnly_ = 0, stored_ = 0;
  bool storing_ = true;  // the current row is kept
  std::size_t reservedRows_ = 0;
  std::vector<float> values_;
  // countRows(): the training rows (increasing), or all; whether the current row is one.
  const std::uint64_t* countOnly_ = nullptr;
  std::size_t countOnlyCount_ = 0, nextCount_ = 0;
  bool counting_ = true;
};

}  // namespace
}  // namespace csv

struct CsvScanner::Impl {
  explicit Impl(CsvOptions o) : options(std::move(o)), sink(options), stream(options, nullptr, sink) {
    sink.attach(stream.rowLine());
  }
  CsvOptions options;
  csv::ScanSink sink;
  csv::CsvStream<csv::ScanSink> stream;
  bool closed = false;  // finished, or failed: the state is not meaningful any more
};

CsvScanner::CsvScanner(CsvOptions options) {
  csv::validateOptions(options);
  impl_ = std::make_unique<Impl>(std::move(options));
}
CsvScanner::~CsvScanner() = default;
CsvScanner::CsvScanner(CsvScanner&&) noexcept = default;
CsvScanner& CsvScanner::operator=(CsvScanner&&) noexcept = default;

void CsvScanner::feed(const char* data, std::size_t size) {
  if (!impl_ || impl_->closed) csv::throwMisuse("CsvScanner::feed after finish() or an error");
  impl_->closed = true;
  impl_->stream.feed(data, size);
  impl_->closed = false;
}

CsvScan CsvScanner::finish() {
  if (!impl_ || impl_->closed) csv::throwMisuse("CsvScanner::finish after finish() or an error");
  impl_->closed = true;
  Impl& m = *impl_;
  m.stream.finish();
  if (!m.sink.hasHeader()) csv::throwEmpty();
  if (m.sink.rows() == 0) csv::throwNoRows(m.sink.headerLine());
  CsvScan scan;
  scan.options = m.options;
  scan.dialect = m.stream.dialect();
  scan.headerLine = m.sink.headerLine();
  scan.rows = m.sink.rows();
  scan.bytes = m.stream.bytes();
  scan.columns = m.sink.summaries();
  scan.preview = m.sink.takePreview();
  scan.previewLines = m.sink.takePreviewLines();
  return scan;
}

void CsvScanner::keepValues(const std::uint64_t* rows, std::size_t count) {
  if (!impl_ || impl_->closed || impl_->stream.bytes() > 0) csv::throwMisuse("CsvScanner::keepValues after the first feed");
  impl_->sink.keepValues(rows, count);
}
void CsvScanner::countRows(const std::uint64_t* rows, std::size_t count) {
  if (!impl_ || impl_->closed || impl_->stream.bytes() > 0) csv::throwMisuse("CsvScanner::countRows after the first feed");
  impl_->sink.countRows(rows, count);
}
void CsvScanner::reserveValues(std::uint64_t rows) {
  if (impl_) impl_->sink.reserveValues(rows);
}
bool CsvScanner::valuesKept() const { return impl_ && impl_->sink.valuesKept(); }
std::vector<float> CsvScanner::takeValues() { return impl_ ? impl_->sink.takeValues() : std::vector<float>{}; }

std::uint64_t CsvScanner::bytes() const { return impl_ ? impl_->stream.bytes() : 0; }
std::uint64_t CsvScanner::rows() const { return impl_ ? impl_->sink.rows() : 0; }
const std::vector<std::string>* CsvScanner::header() const {
  return impl_ && impl_->sink.hasHeader() ? &impl_->sink.names() : nullptr;
}

CsvScan scanCsv(const char* data, std::size_t size, const CsvOptions& options) {
  CsvScanner scanner(options);
  scanner.feed(data, size);
  return scanner.finish();
}

std::int64_t CsvScan::columnIndex(const std::string& name) const {
  for (std::size_t j = 0; j < columns.size(); ++j) {
    if (columns[j].name == name) return static_cast<std::int64_t>(j);
  }
  return -1;
}

}  // namespace dpmargin::data
