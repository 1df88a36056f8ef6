// Reading a CSV into a Dataset, pass by pass (table.hpp).
#include "dpmargin/data/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <new>
#include <unordered_map>

#include "dpmargin/data/names.hpp"
#include "dpmargin/error.hpp"
#include "data/csv/cells.hpp"
#include "data/csv/text.hpp"

namespace dpmargin::data {

namespace {
// What a user can do about OUT_OF_MEMORY: the table is rows × (model columns + 1) float32 cells,
// at most maxBytes (default and ceiling 2^31 − 4 bytes: wasm32 indices; a browser tab's module
// holds at most 4 GB, the table and the training's scratch together).
const std::string kWhatToDo =
    "To train, use fewer model columns (the features or ignore options, fewer hashBuckets) or a "
    "sample of the rows";
}  // namespace

namespace {
// Rows read before the kept scan values are sized from their bytes per row.
constexpr std::uint64_t kRowsToSizeValues = 64;
// A kept text cell is a NaN whose low 22 bits are 1 + its distinct index (scan.cpp textValue).
constexpr std::uint32_t kMaxTextPayload = std::uint32_t{1} << 22;
}  // namespace

TableReader::TableReader(CsvOptions csv, std::optional<std::vector<std::uint64_t>> rows)
    : csv_(std::move(csv)), rows_(std::move(rows)), scanner_(std::make_unique<CsvScanner>(csv_)) {
  if (rows_) {
    for (std::size_t i = 1; i < rows_->size(); ++i) {
      if ((*rows_)[i] <= (*rows_)[i - 1]) {
        throw Error(ErrorCode::kBadParameter, "rows",
                    "rows must be strictly increasing row indices, but " + std::to_string((*rows_)[i]) +
                        " follows " + std::to_string((*rows_)[i - 1]) + " at position " + std::to_string(i));
      }
    }
    scanner_->countRows(rows_->data(), rows_->size());  // the schema's counts: training rows only
  }
}
TableReader::~TableReader() = default;
TableReader::TableReader(TableReader&&) noexcept = default;
TableReader& TableReader::operator=(TableReader&&) noexcept = default;

void TableReader::expect(Stage stage, const char* what) const {
  if (stage_ != stage) throw Error(ErrorCode::kInternal, "", std::string("TableReader: ") + what + " out of order");
}

void TableReader::keepScanValues(std::uint64_t sourceBytes) {
  expect(Stage::kScan, "keepScanValues()");
  if (sourceBytes == 0 || keeping_) return;
  if (rows_) scanner_->keepValues(rows_->data(), rows_->size());  // only the selected rows
  else scanner_->keepValues();
  keeping_ = true;
  sourceBytes_ = sourceBytes;
}

void TableReader::feed(const char* data, std::size_t size) {
  switch (stage_) {
    case Stage::kScan:
      scanner_->feed(data, size);
      if (keeping_ && !reserved_ && scanner_->rows() >= kRowsToSizeValues) {
        // The whole file at the first rows' bytes per row (the header counted in: an
        // overestimate of their size), 3 % and 256 rows to spare; more rows drop the values.
        reserved_ = true;
        const double perRow = double(scanner_->bytes()) / double(scanner_->rows());
        double rows = std::ceil(double(sourceBytes_) / perRow * 1.03) + 256.0;
        if (rows_) rows = std::min(rows, double(rows_->size()));
        const std::vector<std::string>* header = scanner_->header();
        const double width = header ? double(header->size()) : 1.0;
        if (maxBytes_ > 0 && rows * width * 4.0 > maxBytes_) rows = 0;  // would not fit: none kept
        scanner_->reserveValues(std::uint64_t(std::min(rows, 1e15)));
      }
      // An endless or huge file stops early: every row takes at least one float and its label
      // or intercept (8 bytes) whatever the encoding, so past maxBytes / 8 rows it cannot fit.
      if (maxBytes_ > 0 && double(scanner_->rows()) * 8.0 > maxBytes_) {
        throw Error(ErrorCode::kOutOfMemory, "maxBytes",
                    "the table needs at least " + std::to_string(scanner_->rows()) +
                        " rows × 8 bytes, more than the limit of " + formatValue(maxBytes_) +
                        " bytes; stopped reading. " + kWhatToDo);
      }
      return;
    case Stage::kCount:
    case Stage::kFill:
      if (!filler_) throw Error(ErrorCode::kInternal, "", "TableReader: feed() after the table was filled from the scan");
      filler_->feed(data, size);
      return;
    default:
      throw Error(ErrorCode::kInternal, "", "TableReader: feed() between passes");
  }
}

std::uint64_t TableReader::bytes() const {
  if (stage_ == Stage::kScan) return scanner_->bytes();
  return filler_ ? filler_->bytes() : 0;
}

std::uint64_t TableReader::rowsRead() const {
  if (stage_ == Stage::kScan) return scanner_->rows();
  return filler_ ? filler_->rows() : 0;
}

const CsvScan& TableReader::finishScan() {
  expect(Stage::kScan, "finishScan()");
  scan_ = std::make_unique<CsvScan>(scanner_->finish());
  if (keeping_) values_ = scanner_->takeValues();  // empty when they were dropped
  scanner_.reset();
  selected_ = scan_->rows;
  if (rows_) {
    if (!rows_->empty() && rows_->back() >= scan_->rows) {
      throw Error(ErrorCode::kBadParameter, "rows",
                  "rows must be data rows of the file (0 to " + std::to_string(scan_->rows - 1) +
                      "), but row " + std::to_string(rows_->back()) + " is past the last");
    }
    selected_ = rows_->size();
    router_.assign(scan_->rows, 0);
    for (std::uint64_t r : *rows_) router_[r] = 1;
  }
  stage_ = Stage::kScanned;
  return *scan_;
}

const CsvScan& TableReader::scan() const {
  if (!scan_) throw Error(ErrorCode::kInternal, "", "TableReader: scan() before finishScan()");
  return *scan_;
}

void TableReader::beginCount(const std::vector<std::size_t>& columns) {
  expect(Stage::kScanned, "beginCount()");
  // The kept values stay: a plain numeric table whose label's classes are discovered still
  // needs no fill pass after the count (beginFill decides; other tables drop them there).
  FillPlan plan;
  plan.columns.resize(scan_->columns.size());
  for (std::size_t k = 0; k < columns.size(); ++k) {
    ColumnPlan& p = plan.columns.at(columns[k]);
    p.role = ColumnRole::kCategorical;
    p.output = k;
    p.missing = MissingPolicy::kMark;
  }
  countColumns_ = columns;
  // Every row overwrites the same scratch row: only the dictionaries matter.
  scratch_.assign(std::max<std::size_t>(columns.size(), 1), 0.0f);
  FillTarget target;
  target.features = scratch_.data();
  target.stride = 0;
  target.rows = scan_->rows;
  filler_ = std::make_unique<CsvFiller>(*scan_, std::move(plan), std::vector<FillTarget>{target},
                                        router_.empty() ? nullptr : router_.data());
  stage_ = Stage::kCount;
}

std::vector<DiscoveryCounts> TableReader::finishCount() {
  expect(Stage::kCount, "finishCount()");
  FillResult result = filler_->finish();
  filler_.reset();
  std::vector<DiscoveryCounts> out(countColumns_.size());
  for (std::size_t k = 0; k < countColumns_.size(); ++k) {
    for (CategoryDictionary& d : result.dictionaries) {
      if (d.column != countColumns_[k]) continue;
      out[k].values = std::move(d.values);
      out[k].counts = d.counts.empty() ? std::vector<std::uint64_t>(out[k].values.size(), 0) : std::move(d.counts[0]);
    }
  }
  stage_ = Stage::kCounted;
  return out;
}

void TableReader::beginFill(const Schema& schema, const Encoding& encoding,
                            const std::vector<std::string>& labelClasses, bool refuseOtherClasses,
                            double maxBytes) {
  if (stage_ != Stage::kScanned && stage_ != Stage::kCounted) expect(Stage::kScanned, "beginFill()");
  if (encoding.width == 0) throw Error(ErrorCode::kBadParameter, "features", "features must leave at least one model column, but none is left");
  const double bytes = double(selected_) * double(encoding.width + 1) * 4.0;
  if (bytes > maxBytes) {
    char mib[64];
    std::snprintf(mib, sizeof mib, "%.1f MiB", bytes / 1048576.0);
    char limit[64];
    std::snprintf(limit, sizeof limit, "%.1f MiB", maxBytes / 1048576.0);
    throw Error(ErrorCode::kOutOfMemory, "maxBytes",
                std::string("the table needs ") + mib + " of memory (" + std::to_string(selected_) + " rows × (" +
                    std::to_string(encoding.width) + " model columns + 1) × 4 bytes), more than the limit of " + limit +
                    ". " + kWhatToDo);
  }
  if (!values_.empty() && fillFromValues(schema, encoding, labelClasses, refuseOtherClasses)) return;
  values_ = {};
  const bool labelled = !labelClasses.empty();
  dataset_ = std::make_unique<learn::Dataset>(std::size_t(selected_), encoding.width, labelled);
  labels_.assign(labelled ? std::size_t(selected_) : 0, 0);
  FillTarget target;
  target.features = dataset_->rowMajor();
  target.stride = dataset_->stride();
  target.labels = labelled ? labels_.data() : nullptr;
  target.rows = selected_;
  encoding_ = &encoding;
  filler_ = std::make_unique<CsvFiller>(*scan_, encodingFillPlan(schema, encoding, labelClasses, refuseOtherClasses),
                                        std::vector<FillTarget>{target},
                                        router_.empty() ? nullptr : router_.data());
  stage_ = Stage::kFill;
}

bool TableReader::fillFromValues(const Schema& schema, const Encoding& encoding,
                                 const std::vector<std::string>& labelClasses, bool refuseOtherClasses) {
  const CsvScan& scan = *scan_;
  const std::size_t columns = scan.columns.size();
  const std::size_t stride = encoding.width + 1;  // the Dataset's row: features, then one slot
  // The kept values hold the selected rows only, in order.
  if (values_.size() != std::size_t(selected_) * columns || selected_ == 0) return false;
  // Every model column a numeric file column whose every cell is a number: what the fill would
  // write is the number the scan parsed (the same classifier and dialect). A column with a
  // missing-value indicator qualifies too when it has no missing cell: encodeRows writes its
  // indicator (0 in every row) on either path. (On wide tables the noisy nullable decision
  // gives some columns an indicator they never use.)
  for (const EncodedBlock& b : encoding.blocks) {
    if (b.kind != ColumnKind::kNumeric || b.width != (b.indicator ? 2u : 1u) || b.file >= columns) return false;
    const ColumnSummary& c = scan.columns[b.file];
    if (c.missing != 0 || c.text != 0 || c.nonFinite != 0) return false;
  }
  // The label: every distinct value known (the column never capped), each mapped to its code as
  // the fill maps its trimmed text. A number's cells were kept as the number (no two texts of
  // the same number may map differently); a text's as a NaN carrying its distinct index.
  const bool labelled = !labelClasses.empty();
  std::size_t labelFile = 0;
  std::vector<std::pair<float, std::int32_t>> codeOf;  // numbers
  std::vector<std::int32_t> textCode;                  // by distinct index
  if (labelled) {
    const ColumnSchema* label = schema.labelColumn();
    if (label == nullptr || label->file >= columns) return false;
    labelFile = label->file;
    const ColumnSummary& c = scan.columns[labelFile];
    if (c.missing != 0 || c.nonFinite != 0 || c.distinctCapped || c.distinct.size() >= kMaxTextPayload) return false;
    const CsvEncoding encoding = scan.dialect.encoding;
    const csv::CellClassifier classifier(scan.options.missingTokens, scan.dialect.decimal, encoding);
    textCode.assign(c.distinct.size(), kOtherCode);
    for (std::size_t k = 0; k < c.distinct.size(); ++k) {
      const std::string& v = c.distinct[k].value;  // UTF-8; the fill compares UTF-8 too
      if (encoding == CsvEncoding::kLatin1) {
        for (const char ch : v) if (static_cast<unsigned char>(ch) >= 0x80) return false;
      }
      const char* b = v.data();
      const char* e = b + v.size();
      float value;
      csv::NumberStatus status;
      const CellClass cls = classifier.classify(b, e, value, status);
      if (cls != CellClass::kNumber && cls != CellClass::kText) return false;
      csv::trim(b, e, encoding);
      const std::string text(b, e);
      std::int32_t code = kOtherCode;
      for (std::size_t j = 0; j < labelClasses.size(); ++j) {
        if (labelClasses[j] == text) code = static_cast<std::int32_t>(j);
      }
      if (code == kOtherCode && refuseOtherClasses) return false;  // the fill's BAD_LABEL
      if (cls == CellClass::kText) {
        textCode[k] = code;
        continue;
      }
      for (const auto& [known, knownCode] : codeOf) {
        if (known == value && knownCode != code) return false;
      }
      codeOf.emplace_back(value, code);
    }
  }
  // The fill would check the plan and the rows first: the same checks, the same errors.
  std::vector<float> scratch(stride, 0.0f);
  std::int32_t scratchLabel = 0;
  FillTarget check;
  check.features = scratch.data();
  check.stride = 0;
  check.labels = labelled ? &scratchLabel : nullptr;
  check.rows = selected_;
  CsvFiller(*scan_, encodingFillPlan(schema, encoding, labelClasses, refuseOtherClasses),
            std::vector<FillTarget>{check}, router_.empty() ? nullptr : router_.data());

  // In place, row by row: kept row i becomes the Dataset's row i, row i copied out first. With
  // stride ≤ columns, front to back (row i's target ends before kept row i + 1 starts); with
  // stride > columns (indicators, or a file without a label column), back to front after
  // growing the storage (row i's target starts at or after kept row i, so it covers only rows
  // already moved).
  const std::size_t n = std::size_t(selected_);
  std::vector<float> row(columns);
  std::vector<std::int32_t> codes(labelled ? n : 0);
  std::vector<std::uint64_t> counts(labelClasses.size(), 0);
  std::uint64_t other = 0;
  const bool backwards = stride > columns;
  if (backwards) {
    try {
      values_.resize(n * stride);
    } catch (const std::bad_alloc&) {
      return false;  // the fill pass allocates its own table, with the usual OUT_OF_MEMORY
    }
  }
  float* v = values_.data();
  for (std::size_t step = 0; step < n; ++step) {
    const std::size_t i = backwards ? n - 1 - step : step;
    std::copy(v + i * columns, v + (i + 1) * columns, row.data());
    float* out = v + i * stride;
    for (const EncodedBlock& b : encoding.blocks) out[b.offset] = row[b.file];
    out[encoding.width] = 0.0f;
    if (labelled) {
      const float y = row[labelFile];
      std::int32_t code = kOtherCode;
      if (std::isnan(y)) {
        std::uint32_t bits;
        std::memcpy(&bits, &y, sizeof bits);
        const std::uint32_t payload = bits & (kMaxTextPayload - 1);
        // Every text cell of a column never capped carries its index (CsvScanner::keepValues).
        if (payload == 0 || payload > textCode.size()) throw Error(ErrorCode::kInternal, "", "TableReader: a kept label without its index");
        code = textCode[payload - 1];
      } else {
        for (const auto& [value, known] : codeOf) {
          if (value == y) code = known;
        }
      }
      codes[i] = code;
      if (code == kOtherCode) ++other;
      else ++counts[std::size_t(code)];
    }
  }
  dataset_ = std::make_unique<learn::Dataset>(std::move(values_), n, encoding.width, labelled);
  values_ = {};
  labels_ = std::move(codes);
  filled_ = FillResult{};
  filled_.rows = {selected_};
  if (labelled) {
    CategoryDictionary d;
    d.column = labelFile;
    d.values = labelClasses;
    d.counts = {std::move(counts)};
    d.missing = {0};
    d.other = {other};
    filled_.dictionaries.push_back(std::move(d));
  }
  encoding_ = &encoding;
  filledFromScan_ = true;
  stage_ = Stage::kFill;
  return true;
}

FillResult TableReader::finishFill() {
  expect(Stage::kFill, "finishFill()");
  if (filledFromScan_) {
    FillResult result = std::move(filled_);
    filled_ = FillResult{};
    encodeRows(*encoding_, dataset_->rowMajor(), dataset_->rows(), dataset_->stride(), result.dictionaries);
    encoding_ = nullptr;
    stage_ = Stage::kFilled;
    return result;
  }
  FillResult result = filler_->finish();
  filler_.reset();
  encodeRows(*encoding_, dataset_->rowMajor(), dataset_->rows(), dataset_->stride(), result.dictionaries);
  encoding_ = nullptr;
  stage_ = Stage::kFilled;
  return result;
}

std::unique_ptr<learn::Dataset> TableReader::takeDataset() {
  expect(Stage::kFilled, "takeDataset()");
  return std::move(dataset_);
}

Schema schemaForEncoding(const CsvScan& scan, Encoding& encoding,
                         const std::optional<std::string>& label) {
  Schema s;
  s.csv = scan.options;
  s.csv.delimiter = scan.dialect.delimiter;
  s.csv.decimal = scan.dialect.decimal;
  s.csv.encoding = scan.dialect.encoding;
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) {
    ColumnSchema c;
    c.name = scan.columns[j].name;
    c.file = j;
    c.kind = ColumnKind::kIgnore;
    c.reason = "not in the model";
    s.columns.push_back(std::move(c));
    position.emplace(scan.columns[j].name, j);
  }
  std::vector<std::string> header;
  for (const auto& c : scan.columns) header.push_back(c.name);
  for (EncodedBlock& b : encoding.blocks) {
    auto it = position.find(b.column);
    if (it == position.end()) {
      throw Error(ErrorCode::kBadParameter, "features",
                  "features must be in the header: the model's column " + Node::ofText(b.column).shown() +
                      " is not (the header: " + listColumns(header) + ")" + didYouMean(b.column, header));
    }
    ColumnSchema& c = s.columns[it->second];
    c.kind = b.kind;
    c.reason = "model";
    b.file = it->second;
    s.featureOrder.push_back(it->second);
  }
  if (label) {
    auto it = position.find(*label);
    if (it != position.end()) {
      if (s.columns[it->second].kind != ColumnKind::kIgnore) {
        throw Error(ErrorCode::kBadParameter, "label", "label must not be a feature column of the model, but is " + Node::ofText(*label).shown());
      }
      s.label = static_cast<std::int64_t>(it->second);
      s.columns[it->second].kind = ColumnKind::kLabel;
    }
  }
  return s;
}

}  // namespace dpmargin::data
