// Reading a CSV into a Dataset, pass by pass (table.hpp).
#include "dpmargin/data/table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "dpmargin/error.hpp"

namespace dpmargin::data {

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
  }
}
TableReader::~TableReader() = default;
TableReader::TableReader(TableReader&&) noexcept = default;
TableReader& TableReader::operator=(TableReader&&) noexcept = default;

void TableReader::expect(Stage stage, const char* what) const {
  if (stage_ != stage) throw Error(ErrorCode::kInternal, "", std::string("TableReader: ") + what + " out of order");
}

void TableReader::feed(const char* data, std::size_t size) {
  switch (stage_) {
    case Stage::kScan:
      scanner_->feed(data, size);
      // An endless or huge file stops early: every row takes at least one float and its label
      // or intercept (8 bytes) whatever the encoding, so past maxBytes / 8 rows it cannot fit.
      if (maxBytes_ > 0 && double(scanner_->rows()) * 8.0 > maxBytes_) {
        throw Error(ErrorCode::kOutOfMemory, "maxBytes",
                    "the table needs at least " + std::to_string(scanner_->rows()) +
                        " rows × 8 bytes, more than the limit of " + formatValue(maxBytes_) +
                        " bytes; stopped reading");
      }
      return;
    case Stage::kCount:
    case Stage::kFill:
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
                    std::to_string(encoding.width) + " model columns + 1) × 4 bytes), more than the limit of " + limit);
  }
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

FillResult TableReader::finishFill() {
  expect(Stage::kFill, "finishFill()");
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
  for (EncodedBlock& b : encoding.blocks) {
    auto it = position.find(b.column);
    if (it == position.end()) {
      throw Error(ErrorCode::kBadParameter, "features",
                  "features must be in the header: the model's column " + Node::ofText(b.column).shown() + " is not");
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
