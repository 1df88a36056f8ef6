// The reusable core of the margin-profile benchmark: runs a MarginProfiler to completion in
// chunks, as the Web Worker will, and times it. No file or dataset code here, so the same
// function can be compiled to WebAssembly for the wasm timing. NOT differentially private.
#pragma once

#include <cstdint>

#include "dpmargin/profile/margin_profiler.hpp"

namespace dpmargin::bench {

struct TimedProfile {
  profile::ProfileResult result;
  double seconds = 0;       // wall time of all advance() calls (steady clock)
  double cpuSeconds = 0;    // process CPU time over the same span (std::clock): robust to a
                            // shared machine, where wall time also counts other processes
  std::uint64_t chunks = 0;  // advance() calls
};

// `chunkBudget` is MarginProfiler::advance's work budget per call (coordinate updates).
TimedProfile runTimedProfile(const profile::DataView& data, const profile::ProfileOptions& options,
                             std::uint64_t chunkBudget = 1u << 20);

}  // namespace dpmargin::bench
