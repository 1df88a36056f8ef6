// Cell classification and the messages that quote cells. Internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"

namespace dpmargin::data::csv {

enum class NumberStatus : std::uint8_t {
  kNumber,    // a finite decimal that fits float32 after rounding
  kInfinite,  // NaN/inf/infinity text (any case, optional sign), or beyond the double range
  kOverflow,  // a finite double beyond the float32 range
  kNotNumber,
};

// A decimal number as JavaScript's Number() reads it — optional sign (also '+'), digits with
// an optional decimal point ("5." and ".5" too), optional exponent — with `decimal` as the
// decimal point; no white space (trim first), no hex/octal/binary, no digit separators.
// The value is the correctly rounded double rounded to float (Math.fround(Number(text))).
NumberStatus parseNumber(const char* begin, const char* end, char decimal, float& value);

// Whether fast_float's result for [begin, end) can be used as is: true for the usual
// unsigned/negative decimals. The tokenizer's fast path parses straight from the chunk and
// falls back to classify() for everything else.
inline bool startsPlainNumber(char c, char decimal) {
  return (c >= '0' && c <= '9') || c == '-' || c == decimal;
}

class CellClassifier {
 public:
  CellClassifier() = default;
  CellClassifier(const std::vector<std::string>& missingTokens, char decimal,
                 CsvEncoding encoding);

  char decimal() const { return decimal_; }
  // A missing-value token reads as a number ("-999"): numbers must then be checked
  // against the tokens first, and the tokenizer's number fast path is off.
  bool numericTokens() const { return numericToken_; }
  CsvEncoding encoding() const { return encoding_; }

  // Class of a cell given its content (untrimmed). [begin, end) is narrowed to the trimmed
  // text; `status` says which kind of non-finite value it was.
  CellClass classify(const char*& begin, const char*& end, float& value,
                     NumberStatus& status) const;
  // A trimmed text that is one of the missing-value tokens.
  bool isMissing(const char* begin, const char* end) const;

 private:
  std::vector<std::string> tokens_;
  std::uint64_t lengths_ = 0;  // bit k: some token has length k (k < 64)
  bool numericToken_ = false;  // a token that reads as a number must win over the number
  char decimal_ = '.';
  CsvEncoding encoding_ = CsvEncoding::kUtf8;
};

// Messages (and locations) of cell errors, worded as the TypeScript reader words them.
struct CellContext {
  std::int64_t line;
  std::size_t columnIndex;
  const std::string* column;
};
[[noreturn]] void throwNonNumeric(const CellContext& at, const std::string& value, char decimal,
                                  const std::vector<std::string>& missingTokens);
[[noreturn]] void throwNonFinite(const CellContext& at, const std::string& value,
                                 NumberStatus status);
[[noreturn]] void throwMissingValue(const CellContext& at, const std::string& value);
[[noreturn]] void throwMissingLabel(const CellContext& at, const std::string& value);
// The error of a cell of a numeric column of class `cls` (not kNumber).
[[noreturn]] void throwCellError(const CellContext& at, CellClass cls, const std::string& value,
                                 NumberStatus status, char decimal,
                                 const std::vector<std::string>& missingTokens);

ErrorLocation cellLocation(const CellContext& at);

}  // namespace dpmargin::data::csv
