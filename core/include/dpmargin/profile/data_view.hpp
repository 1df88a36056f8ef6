// The data the margin profile reads (SPEC §2.8): a borrowed view, never copied.
// NOT differentially private — the profile is a local diagnostic (see margin_profiler.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace dpmargin::profile {

// Features as row-major float32 (row i is x[i*d .. i*d+d)) and labels as int8, each −1 or +1
// (int8 rather than float so a label is exactly ±1 and a typed array of the labels is n bytes).
// The caller keeps both arrays alive and unchanged for as long as a solver or profiler uses them.
struct DataView {
  const float* x = nullptr;
  const std::int8_t* y = nullptr;
  std::size_t n = 0;  // rows
  std::size_t d = 0;  // features
};

// Throws BAD_PARAMETER naming "x", "y", "n" or "d": n or d zero, a null array, a label other
// than ±1 (the message names the row), a non-finite feature (names row and column), or n·d
// beyond the address space. O(n·d).
void validate(const DataView& data);

}  // namespace dpmargin::profile
