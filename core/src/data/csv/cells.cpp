#include "data/csv/cells.hpp"

#include <fast_float/fast_float.h>

#include <cmath>
#include <cstring>

#include "data/csv/text.hpp"

namespace dpmargin::data::csv {
namespace {

bool equalsIgnoreCase(const char* begin, const char* end, const char* word) {
  const std::size_t n = std::strlen(word);
  if (static_cast<std::size_t>(end - begin) != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    char c = begin[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != word[i]) return false;
  }
  return true;
}

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

}  // namespace

NumberStatus parseNumber(const char* begin, const char* end, char decimal, float& value) {
  if (begin == end) return NumberStatus::kNotNumber;
  const char* body = begin;
  if (*body == '+' || *body == '-') ++body;
  if (body == end) return NumberStatus::kNotNumber;
  if (isLetter(*body)) {
    // What the TypeScript reader called non-finite: /^[+-]?(nan|inf|infinity)$/i.
    // fast_float would also take "nan(…)" and would refuse "+inf"; neither is JS.
    if (equalsIgnoreCase(body, end, "nan") || equalsIgnoreCase(body, end, "inf") ||
        equalsIgnoreCase(body, end, "infinity")) {
      return NumberStatus::kInfinite;
    }
    return NumberStatus::kNotNumber;
  }
  // fast_float follows from_chars, which refuses a leading '+'; JS takes it. After the sign
  // a digit or the decimal point must follow ("+-1" is not a number).
  if (!((*body >= '0' && *body <= '9') || *body == decimal)) return NumberStatus::kNotNumber;
  const char* start = *begin == '+' ? body : begin;
  double d = 0.0;
  const fast_float::parse_options options(fast_float::chars_format::general, decimal);
  const auto result = fast_float::from_chars_advanced(start, end, d, options);
  if (result.ec != std::errc() || result.ptr != end) return NumberStatus::kNotNumber;
  if (!std::isfinite(d)) return NumberStatus::kInfinite;  // 1e999
  const float f = static_cast<float>(d);
  if (std::isinf(f)) return NumberStatus::kOverflow;
  value = f;
  return NumberStatus::kNumber;
}

CellClassifier::CellClassifier(const std::vector<std::string>& missingTokens, char decimal,
                               CsvEncoding encoding)
    : tokens_(missingTokens), decimal_(decimal), encoding_(encoding) {
  for (const std::string& token : tokens_) {
    if (token.size() < 64) lengths_ |= std::uint64_t{1} << token.size();
    float ignored;
    // Only a token that reads as a finite number competes with numbers ("NaN" never does).
    for (const char mark : {decimal == kEitherDecimal ? '.' : decimal, decimal == kEitherDecimal ? ',' : decimal}) {
      if (parseNumber(token.data(), token.data() + token.size(), mark, ignored) == NumberStatus::kNumber) {
        numericToken_ = true;
      }
    }
  }
}

bool CellClassifier::isMissing(const char* begin, const char* end) const {
  const std::size_t n = static_cast<std::size_t>(end - begin);
  if (n < 64 && !(lengths_ >> n & 1u)) return false;
  for (const std::string& token : tokens_) {
    if (token.size() == n && std::memcmp(token.data(), begin, n) == 0) return true;
  }
  return false;
}

CellClass CellClassifier::classify(const char*& begin, const char*& end, float& value,
                                   NumberStatus& status) const {
  trim(begin, end, encoding_);
  if (numericToken_ && isMissing(begin, end)) return CellClass::kMissing;
  if (decimal_ == kEitherDecimal) {
    status = parseNumber(begin, end, '.', value);
    if (status == NumberStatus::kNotNumber) status = parseNumber(begin, end, ',', value);
  } else {
    status = parseNumber(begin, end, decimal_, value);
  }
  if (status == NumberStatus::kNumber) return CellClass::kNumber;
  if (!numericToken_ && isMissing(begin, end)) return CellClass::kMissing;
  if (status == NumberStatus::kNotNumber) return CellClass::kText;
  return CellClass::kNonFinite;
}

ErrorLocation cellLocation(const CellContext& at) {
  ErrorLocation location;
  location.line = at.line;
  location.columnIndex = static_cast<std::int64_t>(at.columnIndex);
  location.column = *at.column;
  return location;
}

namespace {

std::string where(const CellContext& at) {
  return "at line " + std::to_string(at.line) + ", column " + quote(*at.column);
}

bool defaultToken(const std::string& value) {
  for (const std::string& token : defaultMissingTokens()) {
    if (token == value) return true;
  }
  return false;
}

}  // namespace

void throwNonNumeric(const CellContext& at, const std::string& value, char decimal,
                     const std::vector<std::string>& missingTokens) {
  std::string hint = "decimal numbers only; to skip a column: ignore / --ignore";
  float ignored;
  if (decimal == '.' && value.find(',') != std::string::npos) {
    // "1,000" and "12,345,678" read as digit groups, "0,5" as a decimal comma.
    std::string ungrouped;
    bool grouped = true;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (value[i] != ',') {
        ungrouped.push_back(value[i]);
        continue;
      }
      std::size_t digits = 0;
      while (i + 1 + digits < value.size() && value[i + 1 + digits] >= '0' &&
             value[i + 1 + digits] <= '9') {
        ++digits;
      }
      grouped = grouped && digits == 3 && i > 0 && value[i - 1] >= '0' && value[i - 1] <= '9';
    }
    if (grouped && parseNumber(ungrouped.data(), ungrouped.data() + ungrouped.size(), '.',
                               ignored) == NumberStatus::kNumber) {
      hint += "; digit grouping is not read: remove the separators";
    } else if (parseNumber(value.data(), value.data() + value.size(), ',', ignored) ==
               NumberStatus::kNumber) {
      hint += "; if the file uses a decimal comma, read it with decimal \",\"";
    }
  }
  bool listed = false;
  for (const std::string& token : missingTokens) listed = listed || token == value;
  if (!listed && defaultToken(value)) {
    hint += "; to read " + quote(value) + " as a missing value, add it to the missing tokens";
  }
  throw Error(ErrorCode::kNonNumeric, "",
              "non-numeric value " + quote(truncateChars(value, 40)) + " " + where(at) + " (" +
                  hint + ")",
              cellLocation(at));
}

void throwNonFinite(const CellContext& at, const std::string& value, NumberStatus status) {
  if (status == NumberStatus::kOverflow) {
    throw Error(ErrorCode::kNonFinite, "",
                "value " + quote(truncateChars(value, 40)) + " " + where(at) +
                    " is outside the float32 range (\u00b13.4e38)",
                cellLocation(at));
  }
  throw Error(ErrorCode::kNonFinite, "",
              "non-finite value " + quote(truncateChars(value, 40)) + " " + where(at),
              cellLocation(at));
}

void throwMissingValue(const CellContext& at, const std::string& value) {
  const std::string token = value.empty() ? "" : " " + quote(value);
  throw Error(ErrorCode::kMissingValue, "",
              "missing value" + token + " " + where(at) +
                  " (to replace missing cells by a public constant c: missing: { impute: c }, "
                  "or --impute c)",
              cellLocation(at));
}

void throwMissingLabel(const CellContext& at, const std::string& value) {
  const std::string token = value.empty() ? "" : " " + quote(value);
  throw Error(ErrorCode::kMissingValue, "", "missing label" + token + " " + where(at),
              cellLocation(at));
}

void throwCellError(const CellContext& at, CellClass cls, const std::string& value,
                    NumberStatus status, char decimal,
                    const std::vector<std::string>& missingTokens) {
  switch (cls) {
    case CellClass::kMissing:
      throwMissingValue(at, value);
    case CellClass::kNonFinite:
      throwNonFinite(at, value, status);
    case CellClass::kText:
    case CellClass::kNumber:
      break;
  }
  throwNonNumeric(at, value, decimal, missingTokens);
}

}  // namespace dpmargin::data::csv
