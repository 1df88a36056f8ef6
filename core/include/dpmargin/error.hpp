// Typed errors of the core. Core functions validate their inputs and throw dpmargin::Error;
// every binding catches it (and everything else) and turns it into a status, so no C++
// exception ever reaches a caller in JavaScript (SPEC §5.1).
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace dpmargin {

enum class ErrorCode {
  kBadParameter,  // a parameter outside its domain; the message names it and its value
  kNonFinite,     // NaN or ±inf in the data; the message names the row and column
  kBadLabel,      // a label that is not −1/+1 (typed-array input); names the row
  kOneClass,      // all labels equal: nothing to separate
  kOutOfMemory,
  kCancelled,
  kInternal,
};

// Stable, public names ("BAD_PARAMETER", …) shared with the JS DpMarginError.code.
const char* errorCodeName(ErrorCode code) noexcept;

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string parameter, const std::string& message)
      : std::runtime_error(message), code_(code), parameter_(std::move(parameter)) {}
  ErrorCode code() const noexcept { return code_; }
  // Name of the offending parameter (empty when the error is not about one parameter).
  const std::string& parameter() const noexcept { return parameter_; }

 private:
  ErrorCode code_;
  std::string parameter_;
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
