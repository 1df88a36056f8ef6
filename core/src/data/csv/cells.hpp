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

// The commonest cell of a numeric table, "-0.123456": an optional '-', at most 15 digits with
// an optional decimal mark, no exponent. Its value is m / 10^k with m < 2^53 and k ≤ 15, both
// exact doubles, so one IEEE division is the correctly rounded result: what fast_float's own
// fast path (Clinger's) computes, bit for bit, without its call and generality. Returns the
// end of the number, or nullptr when the text is not of that form or runs into `end`
// (then fast_float, or the general path, decides).
inline const char* parseShortDecimal(const char* p, const char* end, char decimal,
                                     double& value) {
  static constexpr double kPow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const bool negative = *p == '-';
  p += negative;
  std::uint64_t m = 0;
  const char* const start = p;
  while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
    m = 10 * m + static_cast<unsigned char>(*p - '0');
    ++p;
  }
  std::ptrdiff_t digits = p - start;
  std::ptrdiff_t fraction = 0;
  if (p < end && *p == decimal) {
    const char* const first = ++p;
    while (p < end && static_cast<unsigned char>(*p - '0') < 10) {
      m = 10 * m + static_cast<unsigned char>(*p - '0');
      ++p;
    }
    fraction = p - first;
    digits += fraction;
  }
  if (digits == 0 || digits > 15 || p >= end || *p == 'e' || *p == 'E') return nullptr;
  double v = static_cast<double>(m);
  if (fraction > 0) v /= kPow10[fraction];
  value = negative ? -v : v;
  return p;
}

class CellClassifier {
 public:
  CellClassifier() = default;
  CellClassifier(const std::vector<std::string>& missingTokens, char decimal,
                 CsvEncoding encoding);

  char decimal() const { return decimal_; }  // '.', ',' or kEitherDecimal
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
