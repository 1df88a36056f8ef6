// The schema of a table (docs/reference/DATA_PIPELINE.md): what every column of a CSV is — ignored, numeric,
// categorical or the label — how its missing cells are handled, and where its category list
// comes from. It is decided once, from the caller's choices (TableOptions) and the header, and
// where the caller chose nothing, from the cell classes of pass 1 (numbers, text, missing).
//
// Privacy (docs/reference/PRIVACY_SCHEMA.md, "The schema"): the schema is the public domain of the mechanism —
// column names, kinds, whether a column may be missing. Every default here is read from the
// header names or from the kind of a column's cells (never from their values); it is shown
// before training (the app's column table, the CLI's --json), stored in the model file, and can
// be declared outright (`schema`, --schema), which makes it independent of the data. Values —
// category lists, class lists, column ranges — are never taken from the data here: they are
// declared by the user or discovered under the privacy budget (discovery.hpp, ranges.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"
#include "dpmargin/node.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::data {

enum class ColumnKind : std::uint8_t { kIgnore, kNumeric, kCategorical, kLabel };
// kError: a missing cell is refused (MISSING_VALUE naming line and column).
// kConstant: numeric, the public constant `fill`.
// kIndicator: numeric, `fill` plus a 0/1 column "<name> missing" (the default).
// kLevel: categorical, a level of its own ("missing"; the default).
enum class MissingStrategy : std::uint8_t { kError, kConstant, kIndicator, kLevel };
// Where a categorical column's levels come from. kDeclared: the user's list (public); kDiscover:
// private partition selection (discovery.hpp); kHash: a public hash of the value into `buckets`
// columns (no list is learnt at all); kAuto: discover when the budget finds categories of a
// tenth of the rows, else hash (decided by the plan from public quantities only).
enum class CategorySource : std::uint8_t { kDeclared, kDiscover, kHash, kAuto };
// The label's classes. kDeclared: the user's list; kBinary01: a numeric label holding 0 and 1
// (any other value is refused); kPositive: one class (`positive`) against the rest; kDiscover:
// private discovery of the class list.
enum class ClassSource : std::uint8_t { kDeclared, kBinary01, kPositive, kDiscover };

const char* toString(ColumnKind v) noexcept;        // "ignore" "numeric" "categorical" "label"
const char* toString(MissingStrategy v) noexcept;   // "error" "constant" "indicator" "level"
const char* toString(CategorySource v) noexcept;    // "declared" "discover" "hash" "auto"
const char* toString(ClassSource v) noexcept;       // "declared" "binary01" "positive" "discover"
ColumnKind parseColumnKind(const std::string& v, const std::string& parameter);
MissingStrategy parseMissingStrategy(const std::string& v, const std::string& parameter);
CategorySource parseCategorySource(const std::string& v, const std::string& parameter);

// Public limits.
inline constexpr std::uint64_t kDefaultMaxLevels = 32;  // discovered levels kept per column
inline constexpr std::uint64_t kMaxLevelsLimit = 1000;
inline constexpr std::uint64_t kDefaultHashBuckets = 16;
inline constexpr std::uint64_t kMaxHashBuckets = 1024;
inline constexpr std::size_t kMaxDeclaredCategories = 10000;
inline constexpr std::size_t kMaxClasses = 50;
// The rules of the decisions read off the cells (docs/reference/PRIVACY_SCHEMA.md, "The schema"), each a
// comparison of counts over the training rows — noisy in a private run, exact in a local view:
// - a column with fewer present (non-missing) cells than kEmptyShare·n, by more than
//   kNullableSds noise sds of that count (0 when exact), is left out;
// - a column is categorical when its text cells exceed kTextShare of its present cells by more
//   than kTextSds noise sds of that difference, else numeric (its text and non-finite cells
//   then read as missing);
// - a column is nullable (a missing indicator or level) when its missing cells (text included,
//   for a numeric column) exceed kNullableSds noise sds of that count (0 when exact);
// - a label is binary-coded (1 against the rest) when its present cells that are not 0, 1 or
//   −1 are fewer than kLabelShare·n, else its classes are discovered (a missing label is
//   refused either way).
inline constexpr double kEmptyShare = 0.01;
inline constexpr double kTextShare = 0.5;
inline constexpr double kNullableSds = 3.0;
inline constexpr double kTextSds = 1.0;
inline constexpr double kLabelShare = 0.5;

// The data owner's choices for one column (every field optional: unset is the default rule).
struct ColumnChoice {
  std::string name;
  std::optional<ColumnKind> kind;
  std::optional<MissingStrategy> missing;
  std::optional<double> fill;
  std::optional<CategorySource> categories;              // kDeclared iff `levels` is given
  std::optional<std::vector<std::string>> levels;        // the declared (public) categories
  std::optional<std::array<double, 2>> range;            // a declared (public) range [lo, hi]
  std::optional<bool> nullable;                          // may the column be missing?
};

// What the caller says about a table (the API's CSV options, the CLI's flags, a schema file).
struct TableOptions {
  std::optional<std::string> label;
  std::optional<std::vector<std::string>> classes;   // declared class list
  std::optional<bool> discoverClasses;                 // text labels: true (default)
  std::optional<std::string> positive;
  std::optional<std::vector<std::string>> features;  // only these columns, in this order
  std::vector<std::string> ignore;
  std::optional<MissingStrategy> missing;  // numeric columns' default (indicator)
  std::optional<double> fill;              // their public constant (0)
  std::optional<CategorySource> categories;  // undeclared categorical columns' default (auto)
  std::optional<std::uint64_t> maxLevels;
  std::optional<std::uint64_t> hashBuckets;
  std::vector<ColumnChoice> columns;
  // The CSV dialect (unset: detected; csv.hpp).
  std::optional<char> delimiter, decimal;
  std::optional<CsvEncoding> encoding;
  std::optional<std::vector<std::string>> missingTokens;
};

// `schema`: a schema object (as describeSchema writes it, e.g. a file saved by the CLI's --json
// or the app) merged into `options`: its choices become the caller's. A field given both ways
// with different values is refused (BAD_PARAMETER naming it).
void mergeSchemaNode(TableOptions& options, const Node& schema);
// Validates the options without a table (BAD_PARAMETER naming the option).
void validateTableOptions(const TableOptions& options);
// The CSV options a scan must use for `options` (dialect and missing tokens).
CsvOptions csvOptionsFor(const TableOptions& options);

// The resolved column.
struct ColumnSchema {
  std::string name;
  std::size_t file = 0;  // index in the file's columns
  ColumnKind kind = ColumnKind::kIgnore;
  MissingStrategy missing = MissingStrategy::kError;
  double fill = 0;
  bool nullable = false;      // a missing cell may occur (indicator / missing level columns)
  bool textAsMissing = false; // numeric: text cells are read as missing
  CategorySource categories = CategorySource::kAuto;
  std::vector<std::string> levels;  // kDeclared: the declared list; after discovery: the found
  std::uint64_t buckets = 0;        // kHash
  std::optional<std::array<double, 2>> range;  // declared public range
  std::string reason;  // why it has this kind ("declared", "header name", "numbers", …): no count
  // How kind and nullable were decided: "declared" (the caller), "public" (a rule of the header
  // and options), "private" (the run's noisy cell counts), "local" (exact counts: a preview or a
  // local read, never released).
  std::string decision;
};

struct Schema {
  CsvOptions csv;  // the dialect read (delimiter, decimal, encoding, tokens)
  std::vector<ColumnSchema> columns;  // every file column, file order
  std::int64_t label = -1;            // index in `columns`, or -1
  ClassSource classSource = ClassSource::kBinary01;
  std::vector<std::string> classes;   // declared or discovered (sorted); kBinary01: "0","1"
  std::string positive;               // binary problems: the positive class
  // How `positive` was chosen, said to the user with it: "named" (the caller's `positive`),
  // "binary01" (1 of a 0/1 label), "second-declared" (the second of two declared classes),
  // "second-discovered" (the second of two discovered classes, in byte order); "" without one.
  std::string positiveRule;
  std::uint64_t maxLevels = kDefaultMaxLevels;
  std::uint64_t hashBuckets = kDefaultHashBuckets;
  std::string labelReason;
  std::string classDecision;  // as ColumnSchema::decision, for the class source
  // Feature columns (numeric and categorical) in model order (the order of `features` when
  // given, else file order).
  std::vector<std::size_t> featureOrder;

  const ColumnSchema* labelColumn() const;
  // Categorical feature columns whose levels the budget must discover (kDiscover, or kAuto
  // resolved to discovery) and whether the label's classes are discovered.
  std::size_t discoveredFeatureColumns() const;
  bool discoversClasses() const { return label >= 0 && classSource == ClassSource::kDiscover; }
};

enum class SchemaPurpose { kTrain, kPredict, kSummary };

// Which decisions of a table's schema are read off its cells — the kind and nullable of a column
// the caller did not declare, the class source of a label with no classes, positive or
// discoverClasses — from the header and the options alone (public): what a private run must
// release noisy counts for.
struct SchemaQuestions {
  std::vector<bool> kind;      // per file column: kind (and nullable) read off the cells
  std::vector<bool> nullable;  // per file column: nullable read off the cells
  bool labelClasses = false;   // the label's class source read off its cells
  std::int64_t label = -1;     // the label's file column, or -1
  // Coordinates of the released count vector: (text, missing) of every column with a question,
  // and the label's count of cells that are not binary-coded.
  std::size_t coordinates() const;
};
// Throws as resolveSchema does for options that do not fit the header (LABEL_NOT_FOUND, …).
SchemaQuestions schemaQuestions(const CsvScan& scan, const TableOptions& options, SchemaPurpose purpose);

// The counts the decisions read, per file column (over the training rows): exact (a preview,
// a local read) or noisy (the run's private release, data/schema_release.hpp).
struct CellEvidence {
  double text = 0;       // text and non-finite cells
  double missing = 0;    // missing cells
  double notBinary = 0;  // the label's present cells that are not 0, 1 or −1
};
struct SchemaEvidence {
  bool exact = true;
  double sigma = 0;         // the noise sd of each count (0: exact)
  double rows = 0;          // n, the training rows (public)
  std::vector<CellEvidence> columns;  // per file column
};
// The label cells a binary-coded label (ClassSource::kBinary01) reads as its positive class 1;
// every other cell is the rest (0) — a public rule of the cell alone.
const std::vector<std::string>& binaryPositiveSpellings();

// The exact counts of the scan's training rows (ColumnSummary::training).
SchemaEvidence exactEvidence(const CsvScan& scan);
// The private release (docs/reference/PRIVACY_SCHEMA.md, "The schema"): every count a question reads — (text,
// missing) of each column with a question, the label's notBinary — plus N(0, σ²) from the run's
// generator (the hardened sampler), σ = √coordinates/μ_schema. Replacing one row moves each of
// these counts by at most 1, so the vector has L2 sensitivity √coordinates and the release is
// μ_schema-GDP. Counts no question reads are NaN: nothing decides from them.
SchemaEvidence releaseEvidence(const SchemaEvidence& exact, const SchemaQuestions& questions,
                               double sigma, random::Generator& generator);

// The label proposed by the header names alone: the one column named like a label ("label",
// "target", "class", "y", "outcome", "response", …; case and separators ignored), or -1 when
// none or several are.
std::int64_t proposeLabel(const std::vector<std::string>& header);
// Every column whose header name reads like a label, in file order (proposeLabel's candidates).
std::vector<std::size_t> labelLikeColumns(const std::vector<std::string>& header);
// Whether a header name reads like a row identifier ("", "id", "ID", "customer_id", "CustomerID",
// "index", "rownames", "Unnamed: 0", …): such columns are ignored unless chosen.
bool identifierName(const std::string& name);

// The columns a model trained with `options` may read from a file with this header, by the
// public rules alone — the header's names and the caller's choices, never a cell — so that a
// test file's header can be checked before anything is spent (public_columns.cpp). `label`: named
// (LABEL_NOT_FOUND when absent) or proposed by its header name, else -1. `features`, in file
// order: every other column but those declared out (a declared kind "ignore", `ignore`, not in
// `features`) and, without `features`, identifier-like names — resolveSchema's public rules, in
// its order; from the cells it may leave out more (a column without values), never fewer.
struct PublicColumns {
  std::int64_t label = -1;
  std::vector<std::size_t> features;
};
PublicColumns publicColumns(const std::vector<std::string>& header, const TableOptions& options);

// Resolves the schema of the scanned table. kTrain: a label is required (named, or proposed by
// its header name: LABEL_NOT_FOUND otherwise, listing the columns). kPredict: the label is
// optional (read for evaluation when present). Throws BAD_PARAMETER naming the option for
// choices that do not fit the table.
Schema resolveSchema(const CsvScan& scan, const TableOptions& options, SchemaPurpose purpose);
// The same with the decisions read off `evidence` (exact or noisy).
Schema resolveSchema(const CsvScan& scan, const TableOptions& options, SchemaPurpose purpose,
                     const SchemaEvidence& evidence);

// The schema as a Node (the --json output, the app's export, the model file's "schema"):
// parseable back by mergeSchemaNode to the same schema.
Node describeSchema(const Schema& schema);

}  // namespace dpmargin::data
