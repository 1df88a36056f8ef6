// Reading a CSV into a learn::Dataset (docs/reference/DATA_PIPELINE.md): the passes over the bytes and what
// happens between them. The caller (run::CsvRun, the bindings' CSV reader) feeds the same
// bytes once per pass, in chunks of any size:
//
//   scan   pass 1 (CsvScanner): dialect, header, rows, cell classes;
//   count  only when some column's categories are discovered: the values and their counts
//          over the selected rows of those columns (nothing else is kept);
//   fill   pass 2 (CsvFiller) straight into the Dataset (encoding.width columns), then the
//          category codes expanded in place (encodeRows); label codes kept per row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"
#include "dpmargin/data/encoding.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/learn/dataset.hpp"

namespace dpmargin::data {

class TableReader {
 public:
  enum class Stage { kScan, kScanned, kCount, kCounted, kFill, kFilled };

  // `rows`: the data rows to read (0-based among the data rows, strictly increasing), e.g. a
  // training split; unset: all. Checked against the scan (BAD_PARAMETER naming "rows").
  TableReader(CsvOptions csv, std::optional<std::vector<std::uint64_t>> rows = std::nullopt);
  ~TableReader();
  TableReader(TableReader&&) noexcept;
  TableReader& operator=(TableReader&&) noexcept;

  Stage stage() const noexcept { return stage_; }
  // One pass for a plain numeric table: the scan keeps every cell's number, and when the
  // resolved table turns out to need nothing else (numeric columns without missing, text or
  // non-finite cells, one model column each; a label without missing cells whose distinct
  // values were all tracked — numbers, or texts kept by their index — each mapped as the fill
  // maps it), beginFill() builds the Dataset from them — the same floats, rows and label codes
  // as the fill pass — and no fill pass is read (filledFromScan()). A count pass (discovered
  // label classes) keeps them.
  // `sourceBytes` (the file's size) sizes the kept values from the first rows' bytes per row;
  // when the guess is exceeded, or the table is of another kind, the values are dropped and the
  // fill pass reads the file again as before. Call before the first feed.
  void keepScanValues(std::uint64_t sourceBytes);
  bool filledFromScan() const noexcept { return filledFromScan_; }
  // The size limit of the table (bytes, 0: none): the scan stops with OUT_OF_MEMORY as soon as
  // the rows read cannot fit in it whatever the encoding.
  void setMaxBytes(double maxBytes) noexcept { maxBytes_ = maxBytes; }
  // Feeds the current pass (scan, count or fill).
  void feed(const char* data, std::size_t size);
  std::uint64_t bytes() const;  // fed in the current pass
  std::uint64_t rowsRead() const;

  // Pass 1 done: the scan (CSV_PARSE for an empty file or a header without rows).
  const CsvScan& finishScan();
  const CsvScan& scan() const;
  std::uint64_t selectedRows() const noexcept { return selected_; }  // rows to read

  // The counting pass over these file columns (categorical values with their counts among the
  // selected rows) — for discovery. `labelColumn` too when it is among them.
  void beginCount(const std::vector<std::size_t>& columns);
  std::vector<DiscoveryCounts> finishCount();

  // Pass 2 into a new Dataset of selectedRows() × encoding.width (OUT_OF_MEMORY before
  // allocating when larger than maxBytes or the platform's limit). labelClasses: the label's
  // closed class list (empty: no label read).
  void beginFill(const Schema& schema, const Encoding& encoding,
                 const std::vector<std::string>& labelClasses, bool refuseOtherClasses,
                 double maxBytes);
  FillResult finishFill();
  // After finishFill: the table (raw encoded rows, not yet validated or prepared) and one label
  // code per row (index in labelClasses, kOtherCode outside a list that is not refused).
  std::unique_ptr<learn::Dataset> takeDataset();
  const std::vector<std::int32_t>& labelCodes() const noexcept { return labels_; }

 private:
  void expect(Stage stage, const char* what) const;
  std::vector<std::uint8_t> router() const;
  bool fillFromValues(const Schema& schema, const Encoding& encoding,
                      const std::vector<std::string>& labelClasses, bool refuseOtherClasses);

  CsvOptions csv_;
  double maxBytes_ = 0;
  std::optional<std::vector<std::uint64_t>> rows_;
  Stage stage_ = Stage::kScan;
  std::unique_ptr<CsvScanner> scanner_;
  std::unique_ptr<CsvScan> scan_;
  std::uint64_t selected_ = 0;
  std::vector<std::uint8_t> router_;
  std::unique_ptr<CsvFiller> filler_;
  std::vector<std::size_t> countColumns_;
  std::vector<float> scratch_;
  std::unique_ptr<learn::Dataset> dataset_;
  const Encoding* encoding_ = nullptr;
  std::vector<std::int32_t> labels_;
  // keepScanValues(): the source's size, whether the kept values were sized yet, the values.
  std::uint64_t sourceBytes_ = 0;
  bool keeping_ = false, reserved_ = false, filledFromScan_ = false;
  std::vector<float> values_;
  FillResult filled_;
};

// The schema a model's encoding reads a new table with (prediction, evaluation): each block's
// column found by name (BAD_PARAMETER naming the missing column; the block's file index is set),
// the others ignored; the label column read when `label` is given and present in the header.
Schema schemaForEncoding(const CsvScan& scan, Encoding& encoding,
                         const std::optional<std::string>& label);

}  // namespace dpmargin::data
