// What the kernel benchmarks (kernel_bench, peak, narrow_bench, sparse_bench) share: the
// platform tag of their JSON lines and a steady clock in seconds.
#pragma once

#include <chrono>

namespace dpmargin::bench {

#ifdef __EMSCRIPTEN__
inline constexpr const char* kPlatform = "wasm";
#else
inline constexpr const char* kPlatform = "native";
#endif

inline double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace dpmargin::bench
