// Conversions from generator words shared by the samplers (internal).
#pragma once

#include <cmath>
#include <cstdint>

namespace dpmargin::random::detail {

inline constexpr double kTwoPi = 6.28318530717958647693;

// The top 53 bits k of a word → (k + ½)·2⁻⁵³ ∈ (0, 1): exact, symmetric about ½, never 0 or 1,
// so ln u and ln(1 − u) are finite.
inline double toOpen01(std::uint64_t word) {
  return (static_cast<double>(word >> 11) + 0.5) * 0x1p-53;
}

// Box–Muller (1958): two independent N(0,1) from two uniforms, R = √(−2 ln u₁), θ = 2πu₂.
struct NormalPair {
  double first, second;
};
inline NormalPair boxMuller(std::uint64_t w1, std::uint64_t w2) {
  const double radius = std::sqrt(-2.0 * std::log(toOpen01(w1)));
  const double angle = kTwoPi * toOpen01(w2);
  return {radius * std::cos(angle), radius * std::sin(angle)};
}

}  // namespace dpmargin::random::detail
