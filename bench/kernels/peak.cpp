// The machine's limits for the gradient kernel (docs/design/KERNELS_PEAK.md, "GFLOP/s against the SIMD
// peak"), natively and in wasm (same source, em++ for Node):
//  * SIMD peak: 128-bit float vectors, no FMA — 12 independent chains x = x·a + b (a mul and a
//    dependent add each; 12 chains cover the mul+add latency at 2 muls + 2 adds per cycle on
//    a Zen-class core and fit the 16 SSE registers). 8 flops per chain step (4 lanes × mul+add).
//  * Read bandwidth of one core: a sum over a float array (4 vector accumulators) of the given
//    size, the figure the m = 1 kernel (one pass over the rows per call) is compared against.
// Usage: peak [reps=7] [bytes=N …]   One JSON object per line.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "bench_common.hpp"

namespace {

using dpmargin::bench::kPlatform;
using dpmargin::bench::seconds;

typedef float v4f __attribute__((vector_size(16)));
typedef float v4fu __attribute__((vector_size(16), aligned(4)));

volatile float sink;

// 12 chains × `steps` (mul, add) pairs on 4 lanes.
__attribute__((noinline)) double flops(long steps, float a, float b) {
  constexpr int C = 12;
  v4f x[C];
  for (int i = 0; i < C; ++i) x[i] = v4f{float(i), 1.0f, 2.0f, 3.0f} * 0.01f;
  const v4f va{a, a, a, a}, vb{b, b, b, b};
  for (long s = 0; s < steps; ++s)
    for (int i = 0; i < C; ++i) x[i] = x[i] * va + vb;
  v4f t{};
  for (int i = 0; i < C; ++i) t += x[i];
  sink = t[0] + t[1] + t[2] + t[3];
  return double(steps) * C * 8;
}

__attribute__((noinline)) void latency(long steps, float b) {
  v4f x{1, 2, 3, 4};
  const v4f vb{b, b, b, b};
  for (long s = 0; s < steps; ++s) x = x + vb;
  sink = x[0];
}

__attribute__((noinline)) float readSum(const float* p, std::size_t n) {
  v4f a0{}, a1{}, a2{}, a3{};
  for (std::size_t i = 0; i + 16 <= n; i += 16) {
    a0 += *reinterpret_cast<const v4fu*>(p + i);
    a1 += *reinterpret_cast<const v4fu*>(p + i + 4);
    a2 += *reinterpret_cast<const v4fu*>(p + i + 8);
    a3 += *reinterpret_cast<const v4fu*>(p + i + 12);
  }
  const v4f t = (a0 + a1) + (a2 + a3);
  return t[0] + t[1] + t[2] + t[3];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 7;
  std::vector<std::size_t> sizes;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("reps=", 0) == 0) reps = std::atoi(arg.c_str() + 5);
    if (arg.rfind("bytes=", 0) == 0) sizes.push_back(std::strtoull(arg.c_str() + 6, nullptr, 10));
  }
  if (sizes.empty()) sizes = {17080000, 37680000, 268435456};  // 35000×122, 12000×785 floats; 256 MiB
  const float a = argc > 1000 ? 0.5f : 0.999f, b = argc > 1000 ? 0.5f : 0.001f;  // opaque to the optimiser
  {
    std::vector<double> rate;
    const long steps = 20000000;
    // Warm-up, many calls: V8 runs wasm in Liftoff first and only a new call enters the
    // optimised (TurboFan) code — one long call would be timed in the baseline tier.
    for (int w = 0; w < 300; ++w) flops(steps / 1000, a, b);
    for (int r = 0; r < reps; ++r) {
      const double t0 = seconds();
      const double f = flops(steps, a, b);
      rate.push_back(f / (seconds() - t0) / 1e9);
    }
    std::sort(rate.begin(), rate.end());
    std::printf("{\"platform\":\"%s\",\"what\":\"simd_peak_mul_add\",\"gflops\":%.3f,\"maxGflops\":%.3f}\n",
                kPlatform, rate[rate.size() / 2], rate.back());
  }
  {
    // Clock estimate: one dependent chain of vector adds (3 cycles each on Zen 2/3 and most
    // recent x86 cores): GHz ≈ 3 × adds per ns. Only for converting ns into cycles.
    std::vector<double> rate;
    const long steps = 50000000;
    for (int w = 0; w < 300; ++w) latency(steps / 1000, b);
    for (int r = 0; r < reps; ++r) {
      const double t0 = seconds();
      latency(steps, b);
      rate.push_back(3.0 * double(steps) / (seconds() - t0) / 1e9);
    }
    std::sort(rate.begin(), rate.end());
    std::printf("{\"platform\":\"%s\",\"what\":\"ghz_if_add_latency_3\",\"ghz\":%.3f,\"maxGhz\":%.3f}\n",
                kPlatform, rate[rate.size() / 2], rate.back());
  }
  for (std::size_t bytes : sizes) {
    std::vector<float> data(bytes / 4);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = float(i & 1023);
    float s = 0;
    for (int w = 0; w < 3; ++w) s += readSum(data.data(), data.size());  // pages touched, tier-up
    std::vector<double> rate;
    for (int r = 0; r < reps; ++r) {
      const double t0 = seconds();
      s += readSum(data.data(), data.size());
      rate.push_back(double(bytes) / (seconds() - t0) / 1e9);
    }
    sink = s;
    std::sort(rate.begin(), rate.end());
    std::printf("{\"platform\":\"%s\",\"what\":\"read_bandwidth\",\"bytes\":%zu,\"gbps\":%.3f,\"maxGbps\":%.3f}\n",
                kPlatform, bytes, rate[rate.size() / 2], rate.back());
  }
  return 0;
}
