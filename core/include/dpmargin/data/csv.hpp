// The CSV engine of the core: a streaming, two-pass reader of delimited text tables.
//
//   pass 1  CsvScanner: feed(bytes)… finish() → CsvScan: the dialect, the header, the number of
//           data rows, and per column the cell classes (number / missing / non-finite / text),
//           the first offending cells with their lines, and the distinct values with counts.
//           Nothing the size of the data is kept, so a caller can decide the column roles and
//           check sizes (OUT_OF_MEMORY) before it allocates anything.
//   pass 2  CsvFiller: given a FillPlan (per column: skip, numeric, categorical or label) and
//           caller-owned storage, feed the same bytes again; each value is written straight
//           into the float32 table and the int32 label array, categorical columns and the
//           label get dictionaries built on the fly, and an optional router sends each data
//           row to one of several tables (or nowhere) in the same pass.
//
// Both passes take the bytes in arbitrary chunks and their results, including every error,
// never depend on where the chunks are cut. Memory: one chunk, one partial cell (bounded by
// the row cap), the header, and per column a bounded summary (pass 1) or a dictionary (pass 2).
// Every failure is a dpmargin::Error with a stable code (CSV_PARSE, RAGGED_ROW, NON_NUMERIC,
// NON_FINITE, MISSING_VALUE, …), a message naming the line and column, and the same facts in
// Error::location(). docs/reference/CSV_FORMAT.md states the dialect rules and the cell classes, CSV.md the errors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dpmargin/error.hpp"

namespace dpmargin::data {

// kLatin1 is what browsers call "latin1": Windows-1252 (ISO-8859-1 plus the printable
// 0x80–0x9F of Windows). Text comes out as UTF-8 either way.
enum class CsvEncoding : std::uint8_t { kUtf8, kLatin1 };
enum class CsvNewline : std::uint8_t { kLf, kCrLf, kCr };

// The decimal mark of a dialect that reads "1.5" and "1,5" alike: each cell is read with '.'
// and, failing that, with ',' (a per-cell public rule; files not delimited by ',' only).
inline constexpr char kEitherDecimal = '*';

// The default missing-value tokens, matched exactly (case-sensitive) against the trimmed
// cell: "", "NA", "N/A", "n/a", "#N/A", "NaN", "nan", "-nan", "-NaN", "NULL", "null", "?".
std::vector<std::string> defaultMissingTokens();

struct CsvOptions {
  char delimiter = 0;  // ',' ';' '\t' '|', or 0: detected among delimiterCandidates
  // '.' or ',' (declared: only that mark), or 0: the default rule — '.' in a file delimited by
  // ',', else either mark per cell (kEitherDecimal): a function of the header line, never of
  // the rows (docs/reference/PRIVACY_SCHEMA.md, "The schema").
  char decimal = 0;
  CsvEncoding encoding = CsvEncoding::kUtf8;  // a UTF-8 byte order mark overrides it
  std::string delimiterCandidates = ",;\t|";
  std::vector<std::string> missingTokens = defaultMissingTokens();
  std::size_t maxRowBytes = std::size_t{1} << 25;  // a longer row: CSV_PARSE (an open quote?)
  // Pass 1 keeps the distinct values of a column exactly while there are at most
  // distinctCap of them holding at most distinctBytes bytes; past that it stops tracking
  // that column (ColumnSummary::distinctCapped). All columns together keep at most
  // distinctTotalBytes. A column whose cells have all been numbers so far stops at
  // numericDistinctCap instead: a label has at most 50 classes (plan::kMaxClasses), so 64
  // keeps every label's values exact, and on wide numeric tables (784 pixel columns of ≤ 256
  // values each) the lookups in hundreds of cold tables dominated the scan (docs/reference/PERFORMANCE.md,
  // "The scan pass").
  std::size_t distinctCap = 256;
  std::size_t numericDistinctCap = 64;
  std::size_t distinctBytes = std::size_t{1} << 14;
  std::size_t distinctTotalBytes = std::size_t{1} << 25;
  // Pass 1 keeps the cells of the first previewRows data rows as text (a preview).
  std::size_t previewRows = 0;
};

// What today's TypeScript reader accepts: delimiters , ; tab, '.' decimals, and only empty
// cells missing. Used to reproduce its behaviour (tests, the numeric-only API).
CsvOptions legacyCsvOptions();

struct CsvDialect {
  char delimiter = ',';
  char decimal = '.';  // '.', ',' or kEitherDecimal
  CsvNewline newline = CsvNewline::kLf;  // the first line break outside quotes (informative:
                                         // every one of LF, CRLF, CR ends a row)
  CsvEncoding encoding = CsvEncoding::kUtf8;
  bool bom = false;  // a UTF-8 byte order mark was skipped
};

enum class CellClass : std::uint8_t { kNumber, kMissing, kNonFinite, kText };

// One cell quoted by a summary: its trimmed text (UTF-8, cut to 1 KiB) and file line.
struct CellSample {
  std::string value;
  std::int64_t line = -1;  // -1: there is no such cell
};

struct DistinctValue {
  std::string value;  // trimmed text, UTF-8
  std::uint64_t count = 0;
};

// Cells of one column by class, over some rows.
struct CellCounts {
  std::uint64_t numbers = 0, missing = 0, nonFinite = 0, text = 0;
  // Numbers equal to 0, 1 or −1 (a binary-coded label's cells).
  std::uint64_t binary = 0;
};

struct ColumnSummary {
  std::string name;  // trimmed header name
  std::uint64_t numbers = 0;    // finite decimals that fit float32
  std::uint64_t missing = 0;    // missing-value tokens (including empty cells)
  std::uint64_t nonFinite = 0;  // NaN/inf/Infinity text, or beyond the float32 range
  std::uint64_t text = 0;       // everything else
  CellSample firstMissing, firstNonFinite, firstText;
  // Non-missing values in order of first appearance, with their counts. Exact when
  // !distinctCapped; otherwise they cover the first distinctRows data rows only.
  std::vector<DistinctValue> distinct;
  bool distinctCapped = false;
  std::uint64_t distinctRows = 0;
  // The same classes over the rows a run trains on (CsvScanner::countRows; all rows unless
  // set): the exact inputs of the private schema decisions (data/schema_release.hpp), never
  // released themselves.
  CellCounts training;
};

struct CsvScan {
  CsvOptions options;  // as given (pass 2 must use the same)
  CsvDialect dialect;  // as detected or given
  std::int64_t headerLine = 0;
  std::uint64_t rows = 0;   // data rows (blank lines are not rows)
  std::uint64_t bytes = 0;  // bytes read
  std::vector<ColumnSummary> columns;  // in file order
  // The first options.previewRows data rows, cells as text (UTF-8, cut to 1 KiB), and their
  // lines.
  std::vector<std::vector<std::string>> preview;
  std::vector<std::int64_t> previewLines;

  // Index of the column with this (trimmed) name, or -1.
  std::int64_t columnIndex(const std::string& name) const;
};

// Pass 1.
class CsvScanner {
 public:
  explicit CsvScanner(CsvOptions options = {});
  ~CsvScanner();
  CsvScanner(CsvScanner&&) noexcept;
  CsvScanner& operator=(CsvScanner&&) noexcept;

  void feed(const char* data, std::size_t size);
  // Ends the input. Throws CSV_PARSE for an empty file or a header without data rows.
  CsvScan finish();

  std::uint64_t bytes() const;  // fed so far (progress)
  std::uint64_t rows() const;   // data rows so far (progress; a size limit can stop early)
  // The trimmed header names once the header row has been read (to check options early),
  // else nullptr.
  const std::vector<std::string>* header() const;

  // Keeping every cell's number while scanning (row-major, header columns per row; a cell that
  // is not a number keeps a NaN whose low 22 bits are 1 + its index among the column's
  // distinct values, 0 once the column is past its cap — so a text label keeps its class), so
  // that a plain numeric table needs no second pass
  // (TableReader) — of every data row, or only of `rows` (0-based, strictly increasing;
  // `count` of them; the caller keeps the array alive and checks it). Call before the first
  // feed. Until reserveValues(rows kept) the values may take at most kUnreservedValues floats;
  // past the reservation (or that) they are dropped — the scan itself is unaffected.
  // valuesKept(): whether every kept row's values are there.
  static constexpr std::size_t kUnreservedValues = std::size_t{1} << 20;
  // ColumnSummary::training counts only these data rows (0-based, strictly increasing; the
  // caller keeps the array alive). Call before the first feed.
  void countRows(const std::uint64_t* rows, std::size_t count);
  void keepValues(const std::uint64_t* rows = nullptr, std::size_t count = 0);
  void reserveValues(std::uint64_t rows);
  bool valuesKept() const;
  std::vector<float> takeValues();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

CsvScan scanCsv(const char* data, std::size_t size, const CsvOptions& options = {});

// ---- pass 2 ---------------------------------------------------------------------------

enum class ColumnRole : std::uint8_t { kSkip, kNumeric, kCategorical, kLabel };

// What a missing cell becomes. kMark: NaN in a numeric column, kMissingCode in a categorical
// column or the label. kError: MISSING_VALUE. kConstant (numeric only): ColumnPlan::fill.
enum class MissingPolicy : std::uint8_t { kMark, kError, kConstant };

inline constexpr std::int32_t kMissingCode = -1;  // a missing categorical cell or label
inline constexpr std::int32_t kOtherCode = -2;    // a value outside a closed category list

struct ColumnPlan {
  ColumnRole role = ColumnRole::kSkip;
  std::size_t output = 0;  // numeric/categorical: position of the value within a table row
  MissingPolicy missing = MissingPolicy::kMark;
  float fill = 0.0f;  // kConstant
  // Categorical/label: categories known in advance (public), coded 0…m−1 in this order; the
  // others get the next codes as they appear, or kOtherCode when `closed`.
  std::vector<std::string> categories;
  bool closed = false;
  // Closed lists: a value outside is refused (BAD_LABEL naming line, column and the list)
  // instead of coded kOtherCode — declared classes of a label.
  bool refuseOther = false;
  // Numeric: text and non-finite cells are read as missing cells (a column whose kind was read
  // off the cells: a public rule, so no cell refuses or reshapes a run).
  bool textAsMissing = false;
};

struct FillPlan {
  std::vector<ColumnPlan> columns;  // one per file column, in file order
  // Values per table row: 1 + the largest output of a numeric/categorical column (0: none).
  std::size_t width() const;
};

// Caller-owned storage for one destination table: value j of its row i goes to
// features[i * stride + j], the label code to labels[i]. `rows` is the capacity. A stride of 0
// makes every row overwrite the first (a pass that only builds the dictionaries).
struct FillTarget {
  float* features = nullptr;
  std::size_t stride = 0;
  std::int32_t* labels = nullptr;
  std::uint64_t rows = 0;
};

struct CategoryDictionary {
  std::size_t column = 0;           // file column
  std::vector<std::string> values;  // code → value (UTF-8)
  // Per target: occurrences of each code, of missing cells, of values outside a closed list.
  std::vector<std::vector<std::uint64_t>> counts;
  std::vector<std::uint64_t> missing;
  std::vector<std::uint64_t> other;
  // Code of a value, or kOtherCode when it does not occur.
  std::int32_t code(const std::string& value) const;
};

struct FillResult {
  std::vector<std::uint64_t> rows;  // rows written per target
  std::vector<CategoryDictionary> dictionaries;  // categorical and label columns, file order
  std::uint64_t imputed = 0;  // missing cells replaced by ColumnPlan::fill
  std::uint64_t marked = 0;   // missing cells written as NaN / kMissingCode
};

// Pass 2. `router`, when given, holds one byte per data row of the scan: 0 skips the row,
// t sends it to targets[t − 1]. Without it every row goes to targets[0].
class CsvFiller {
 public:
  CsvFiller(const CsvScan& scan, FillPlan plan, std::vector<FillTarget> targets,
            const std::uint8_t* router = nullptr);
  ~CsvFiller();
  CsvFiller(CsvFiller&&) noexcept;
  CsvFiller& operator=(CsvFiller&&) noexcept;

  void feed(const char* data, std::size_t size);
  FillResult finish();

  std::uint64_t bytes() const;
  std::uint64_t rows() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

FillResult fillCsv(const char* data, std::size_t size, const CsvScan& scan, FillPlan plan,
                   std::vector<FillTarget> targets, const std::uint8_t* router = nullptr);

}  // namespace dpmargin::data
