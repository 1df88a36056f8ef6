#include "profile_runner.hpp"

#include <chrono>
#include <ctime>

namespace dpmargin::bench {

TimedProfile runTimedProfile(const profile::DataView& data, const profile::ProfileOptions& options,
                             std::uint64_t chunkBudget) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpuStart = std::clock();
  profile::MarginProfiler profiler(data, options);
  TimedProfile timed;
  do {
    ++timed.chunks;
  } while (!profiler.advance(chunkBudget));
  timed.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  timed.cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  timed.result = profiler.result();
  return timed;
}

}  // namespace dpmargin::bench
