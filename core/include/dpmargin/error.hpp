// Typed errors of the core. Core functions validate their inputs and throw dpmargin::Error;
// every binding catches it (and everything else) and turns it into a status, so no C++
// exception ever reaches a caller in JavaScript (SPEC §5.1).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace dpmargin {

enum class ErrorCode {
  kBadParameter,  // a parameter outside its domain; the message names it and its value
  kNonFinite,     // NaN or ±inf in the data; the message names the row and column
  kBadLabel,      // a label that is not −1/+1 (typed-array input); names the row
  kOneClass,      // all labels equal: nothing to separate
  kOutOfMemory,
  kCancelled,
  kInternal,
  // Data-file errors of the CSV engine (core/include/dpmargin/data/csv.hpp). Appended, so the
  // values above keep their numbers; the names match the JS DpMarginError codes.
  kCsvParse,       // not a readable CSV: empty, encoding, quotes, header problems
  kRaggedRow,      // a row with more or fewer fields than the header
  kNonNumeric,     // text in a column planned as numeric
  kMissingValue,   // a missing cell where the plan forbids it
  kLabelNotFound,  // the label column named by the caller is not in the header
  kBadModel,       // a model file that is not valid (names the field)
  kBudgetExceeded, // a run the privacy ledger's cap refuses (accounting/ledger.hpp)
};

// Stable, public names ("BAD_PARAMETER", …) shared with the JS DpMarginError.code.
const char* errorCodeName(ErrorCode code) noexcept;

// Where in a data file an error is, for callers that want more than the message (a UI that
// highlights the cell). -1 means "not applicable"; lines are 1-based file lines, bytes and
// column indexes 0-based.
struct ErrorLocation {
  std::int64_t line = -1;
  std::int64_t byte = -1;
  std::int64_t columnIndex = -1;  // the column name below is meaningful iff columnIndex >= 0
  std::string column;
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string parameter, const std::string& message)
      : std::runtime_error(message), code_(code), parameter_(std::move(parameter)) {}
  Error(ErrorCode code, std::string parameter, const std::string& message, ErrorLocation location)
      : std::runtime_error(message),
        code_(code),
        parameter_(std::move(parameter)),
        location_(std::move(location)) {}
  ErrorCode code() const noexcept { return code_; }
  // Name of the offending parameter (empty when the error is not about one parameter).
  const std::string& parameter() const noexcept { return parameter_; }
  // Line, byte and column of a data error (all -1 for other errors).
  const ErrorLocation& location() const noexcept { return location_; }

 private:
  ErrorCode code_;
  std::string parameter_;
  ErrorLocation location_;
};

// The shortest decimal that reads back as `value` ("0.1", "1e-05", "nan", "inf").
std::string formatValue(double value);

// Throws Error(kBadParameter) with the message "<name> must be <requirement>, but is <value>".
[[noreturn]] void throwBadParameter(const std::string& name, const std::string& requirement,
                                    double value);

// Validation helpers used where parameters enter (Google DP library style messages).
void requireFinite(const char* name, double value);
void requirePositive(const char* name, double value);        // finite and > 0
void requireNonNegative(const char* name, double value);      // finite and >= 0
void requireOpenUnit(const char* name, double value);         // finite and in (0, 1)
void requireAtLeast(const char* name, double value, double lowerBound);  // finite and >= bound
// A count that arrives as a double (JS, command line): finite, integral, in [minimum, 2^53].
std::uint64_t requireCount(const char* name, double value, double minimum);

}  // namespace dpmargin
