// splitmix64 (Steele, Lea, Flood 2014; Vigna's reference constants): a tiny deterministic PRNG
// for the solver's coordinate order. Not a privacy mechanism — the profile is not private — so
// it is deliberately separate from dpmargin::random::Generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dpmargin::profile::detail {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Fisher–Yates over the first `count` entries. The modulo's bias (< count/2⁶⁴) is irrelevant
// for a coordinate order.
template <typename T>
void shuffle(std::vector<T>& values, std::size_t count, std::uint64_t& state) {
  for (std::size_t i = count; i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(splitmix64(state) % i);
    std::swap(values[i - 1], values[j]);
  }
}

}  // namespace dpmargin::profile::detail
