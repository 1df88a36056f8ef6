// Helpers shared by the libFuzzer harnesses: bytes → the awkward doubles, counts and strings
// that reach the core from JavaScript or a command line, and the one rule every harness checks
// (docs/reference/FUZZING.md): only dpmargin::Error may leave the core; anything else is a bug.
#pragma once

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"

namespace dpmargin::fuzz {

// Values that break numerical code: non-finite, signed zero, subnormal, the extremes, the
// integers where doubles stop being exact, and the boundaries of the parameter domains.
inline constexpr double kSpecial[] = {
    std::numeric_limits<double>::quiet_NaN(),
    std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity(),
    0.0,
    -0.0,
    std::numeric_limits<double>::denorm_min(),
    std::numeric_limits<double>::min(),
    std::numeric_limits<double>::max(),
    -std::numeric_limits<double>::max(),
    std::numeric_limits<double>::epsilon(),
    1.0 - 0x1p-53,
    1.0 + 0x1p-52,
    -1.0,
    1.0,
    2.0,
    0.5,
    1e-5,
    1e-10,
    1e-300,
    1e300,
    1e-150,
    1e150,
    9007199254740992.0,  // 2^53
    9007199254740994.0,  // 2^53 + 2
    18446744073709551616.0,  // 2^64
    92.10340371976183,   // 8 ln(1e5): the paper calibration's ε limit at δ = 1e-5
    -1.0 + 0x1p-52,
    1e-320,
    3.0,
    1000.0,
};

// DPMARGIN_FUZZ_VERBOSE=1: harnesses print the decoded input (to turn a crash file into a
// readable regression test); the draws below print themselves.
inline bool verbose() {
  static const bool on = std::getenv("DPMARGIN_FUZZ_VERBOSE") != nullptr;
  return on;
}
inline double traced(double v) {
  if (verbose()) std::fprintf(stderr, "  arg %a (%.17g)\n", v, v);
  return v;
}

// A double drawn to reach every regime: special values, any bit pattern, log-uniform
// magnitudes over the whole double range, and "ordinary" values in [lo, hi].
inline double anyDoubleUntraced(FuzzedDataProvider& in, double lo, double hi) {
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0:
      return in.PickValueInArray(kSpecial);
    case 1: {
      const std::uint64_t bits = in.ConsumeIntegral<std::uint64_t>();
      double v;
      std::memcpy(&v, &bits, sizeof v);
      return v;
    }
    case 2: {  // ±10^[−320, 308]
      const double exponent = in.ConsumeFloatingPointInRange<double>(-320.0, 308.0);
      const double v = std::pow(10.0, exponent);
      return in.ConsumeBool() ? -v : v;
    }
    case 3:
      return static_cast<double>(in.ConsumeIntegralInRange<std::int64_t>(-4, 1 << 20));
    default:
      return in.ConsumeFloatingPointInRange<double>(lo, hi);
  }
}

inline double anyDouble(FuzzedDataProvider& in, double lo = 0.0, double hi = 10.0) {
  return traced(anyDoubleUntraced(in, lo, hi));
}

// A count as JS passes it (a double): mostly small integers, sometimes anything.
inline double anyCount(FuzzedDataProvider& in, std::int64_t lo, std::int64_t hi) {
  if (in.ConsumeIntegralInRange<int>(0, 3) == 0) return anyDouble(in);
  return static_cast<double>(in.ConsumeIntegralInRange<std::int64_t>(lo, hi));
}

// One of the valid names, or an arbitrary (possibly empty, possibly non-UTF-8) string.
template <std::size_t N>
std::string anyName(FuzzedDataProvider& in, const char* const (&valid)[N]) {
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) return in.ConsumeRandomLengthString(16);
  return valid[in.ConsumeIntegralInRange<std::size_t>(0, N - 1)];
}

// Report a violated property: libFuzzer records the input as a crash.
[[noreturn]] inline void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "dpmargin fuzz: %s %s\n", what, detail.c_str());
  std::abort();
}

// The rule of every harness. An INTERNAL code means an invariant of the core broke (e.g. a
// root search that found no bracket): a bug, even though it is a typed error.
template <class Body>
void expectOnlyTypedErrors(Body&& body) {
  try {
    body();
  } catch (const dpmargin::Error& e) {
    if (e.code() == dpmargin::ErrorCode::kInternal) fail("INTERNAL error:", e.what());
    if (std::string(e.what()).empty()) fail("typed error without a message");
  }
  // Anything else (std::exception, a non-exception throw) propagates: libFuzzer reports
  // "uncaught exception" as a crash.
}

}  // namespace dpmargin::fuzz
