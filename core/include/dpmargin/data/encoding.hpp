// From a resolved schema to the model's feature columns (docs/reference/DATA_PIPELINE.md, "Encoding"), and the
// category discovery that some encodings need first.
//
//   numeric      one column (its raw value; a missing cell → the public constant `fill`), plus
//                a 0/1 column "<name>: missing" when the column is nullable and its strategy is
//                "indicator";
//   categorical  one 0/1 column per level (declared, or discovered under the budget), one
//                "<name>: other" column for every other value, and "<name>: missing" when the
//                column is nullable and its strategy is "level" — with exactly two levels, one
//                0/1 column "<name>: <second level>" instead of the three; or, hashed, `buckets` 0/1
//                columns "<name>: #b" chosen by a public hash of the value (nothing learnt
//                from the data), plus the missing column.
//
// The encoded 0/1 columns carry the public range [0, 1]: the private column ranges are
// estimated for the numeric columns only. The model file stores the encoding, and prediction
// applies the same one (an unknown category → "other", its hashed bucket when hashed).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpmargin/accounting/discovery.hpp"
#include "dpmargin/data/csv.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/node.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::data {

// ---- Discovery (accounting/discovery.hpp has the calibration and the proof) ----

// One discovered column: the values present among the training rows and their counts.
struct DiscoveryCounts {
  std::vector<std::string> values;
  std::vector<std::uint64_t> counts;
};

// Gaussian partition selection over all the columns at once (the calibration's m must equal
// columns.size(): INTERNAL otherwise): each value with count ≥ 1 gets N(0, σ²) and is kept
// when its noisy count exceeds τ; of those at most maxLevels[j] (the largest noisy counts). The kept values are returned in
// byte order (a public order, so nothing about the counts leaks through it).
std::vector<std::vector<std::string>> discoverLevels(
    const std::vector<DiscoveryCounts>& columns, const std::vector<std::size_t>& maxLevels,
    const accounting::DiscoveryCalibration& calibration, random::Generator& generator);

// The public hash of a category (FNV-1a, 64 bits, of its UTF-8 bytes after a fixed salt)
// into [0, buckets).
std::uint64_t categoryBucket(const std::string& value, std::uint64_t buckets) noexcept;

// ---- Encoding ----

struct EncodedBlock {
  std::string column;  // the file column's name
  std::size_t file = 0;
  ColumnKind kind = ColumnKind::kNumeric;  // numeric or categorical
  std::size_t offset = 0;  // first model column
  std::size_t width = 0;   // model columns of this block
  MissingStrategy missing = MissingStrategy::kIndicator;
  bool nullable = false;
  double fill = 0;                       // numeric
  bool textAsMissing = false;            // numeric
  bool indicator = false;                // numeric: offset + 1 holds "missing"
  std::optional<std::array<double, 2>> range;  // numeric, declared
  CategorySource categories = CategorySource::kDeclared;  // categorical: declared/discover/hash
  std::vector<std::string> levels;      // declared or discovered: offset + i
  // Two levels: one 0/1 column, 1 for the second level (the first and any other value 0) —
  // instead of a column per level plus "other" (model files from version 3 say "binary").
  bool binary = false;
  std::uint64_t buckets = 0;            // hash: offset + b
  bool missingLevel = false;            // categorical: the last column is "missing"
};

struct Encoding {
  std::vector<EncodedBlock> blocks;  // model order
  std::size_t width = 0;             // model feature columns (intercept excluded)
  std::vector<std::string> names() const;  // "age", "age: missing", "plan: basic", …
  // Model columns with the public range [0, 1] (indicators, levels, buckets): true at their
  // index. The private ranges are estimated for the others only.
  std::vector<bool> publicUnitColumns() const;
};

// The encoding of a schema whose categorical columns are all declared, discovered (levels set)
// or hashed (no kAuto left): INTERNAL otherwise.
Encoding makeEncoding(const Schema& schema);

// The pass-2 plan that writes each row's raw cells into a table of encoding.width columns
// (stride ≥ width): numeric values (NaN for a missing cell of an indicator column), category
// codes at their block's first column, the label code. `labelClasses`: the label's closed
// class list (empty: no label read). refuseOtherClasses: a label outside the list is refused
// (declared and 0/1 classes) instead of coded kOtherCode.
FillPlan encodingFillPlan(const Schema& schema, const Encoding& encoding,
                          const std::vector<std::string>& labelClasses, bool refuseOtherClasses);

// Expands the codes written by encodingFillPlan into the encoding's columns, in place, for
// `rows` rows of `stride` floats. `dictionaries`: the filler's (hashed columns read their
// values there).
void encodeRows(const Encoding& encoding, float* table, std::size_t rows, std::size_t stride,
                const std::vector<CategoryDictionary>& dictionaries);

// The encoding as a Node (the model file's "encoding"), and back (BAD_MODEL naming the field).
Node describeEncoding(const Encoding& encoding);
Encoding parseEncoding(const Node& node, const std::string& name);

}  // namespace dpmargin::data
