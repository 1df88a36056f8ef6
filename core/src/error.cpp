#include "dpmargin/error.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace dpmargin {
// Shortest "%.{15,16,17}g" that reads back as the same double (std::to_chars for floating
// point is not available in every standard library we build with, e.g. older libc++).
std::string formatValue(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

const char* errorCodeName(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kBadParameter:
      return "BAD_PARAMETER";
    case ErrorCode::kNonFinite:
      return "NON_FINITE";
    case ErrorCode::kBadLabel:
      return "BAD_LABEL";
    case ErrorCode::kOneClass:
      return "ONE_CLASS";
    case ErrorCode::kOutOfMemory:
      return "OUT_OF_MEMORY";
    case ErrorCode::kCancelled:
      return "CANCELLED";
    case ErrorCode::kInternal:
      return "INTERNAL";
    case ErrorCode::kCsvParse:
      return "CSV_PARSE";
    case ErrorCode::kRaggedRow:
      return "RAGGED_ROW";
    case ErrorCode::kNonNumeric:
      return "NON_NUMERIC";
    case ErrorCode::kMissingValue:
      return "MISSING_VALUE";
    case ErrorCode::kLabelNotFound:
      return "LABEL_NOT_FOUND";
    case ErrorCode::kBadModel:
      return "BAD_MODEL";
    case ErrorCode::kBudgetExceeded:
      return "BUDGET_EXCEEDED";
  }
  return "INTERNAL";
}

void throwBadParameter(const std::string& name, const std::string& requirement, double value) {
  throw Error(ErrorCode::kBadParameter, name,
              name + " must be " + requirement + ", but is " + formatValue(value));
}

void requireFinite(const char* name, double value) {
  if (!std::isfinite(value)) throwBadParameter(name, "finite", value);
}

void requirePositive(const char* name, double value) {
  if (!(std::isfinite(value) && value > 0.0)) throwBadParameter(name, "finite and positive", value);
}

void requireNonNegative(const char* name, double value) {
  if (!(std::isfinite(value) && value >= 0.0)) {
    throwBadParameter(name, "finite and non-negative", value);
  }
}

void requireOpenUnit(const char* name, double value) {
  if (!(value > 0.0 && value < 1.0)) throwBadParameter(name, "in (0, 1)", value);
}

void requireAtLeast(const char* name, double value, double lowerBound) {
  if (!(std::isfinite(value) && value >= lowerBound)) {
    throwBadParameter(name, "finite and at least " + formatValue(lowerBound), value);
  }
}

}  // namespace dpmargin
