// Uniform and sign samplers (SPEC §2.3, §2.6).
#include <cstring>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "random/chacha20.hpp"
#include "random/unit.hpp"

namespace dpmargin::random {
namespace {

// High and low 64 bits of the 128-bit product a·b, in portable C++ (no __int128 under
// -Wpedantic; the cost is irrelevant next to the generator).
struct Product {
  std::uint64_t high, low;
};
Product multiply(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t aLo = a & 0xffffffffu, aHi = a >> 32, bLo = b & 0xffffffffu, bHi = b >> 32;
  const std::uint64_t ll = aLo * bLo, lh = aLo * bHi, hl = aHi * bLo, hh = aHi * bHi;
  const std::uint64_t middle = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  return {hh + (lh >> 32) + (hl >> 32) + (middle >> 32), (middle << 32) | (ll & 0xffffffffu)};
}

}  // namespace

double uniformOpen01(Generator& g) { return detail::toOpen01(g.nextU64()); }

// Lemire 2019, "Fast random integer generation in an interval" (ACM TOMACS 29(1)), Algorithm 5:
// ⌊x·n / 2⁶⁴⌋ is exactly uniform once the low half of x·n is rejected below 2⁶⁴ mod n, which
// leaves every result exactly ⌊2⁶⁴/n⌋ preimages. Rejection probability < n/2⁶⁴.
std::uint64_t uniformIndex(Generator& g, std::uint64_t n) {
  if (n == 0) throwBadParameter("n", "at least 1", 0.0);
  if (n == 1) return 0;
  Product m = multiply(g.nextU64(), n);
  if (m.low < n) {
    const std::uint64_t threshold = (0 - n) % n;  // 2⁶⁴ mod n
    while (m.low < threshold) m = multiply(g.nextU64(), n);
  }
  return m.high;
}

int rademacher(Generator& g) { return (g.nextU64() >> 63) != 0 ? 1 : -1; }

// Entry 64·i + j takes bit j of word i: 1 → +scale, 0 → −scale, by setting the float's sign
// bit (exact, branch-free, vectorisable). The mapping is fixed so a seeded Φ is reproducible.
void fillRademacher(Generator& g, float* out, std::size_t count, float scale) {
  requirePositive("scale", static_cast<double>(scale));
  std::uint32_t magnitude;
  std::memcpy(&magnitude, &scale, sizeof magnitude);
  constexpr std::size_t kWords = 16;
  std::uint64_t words[kWords];
  while (count > 0) {
    const std::size_t entries = count < 64 * kWords ? count : 64 * kWords;
    const std::size_t used = (entries + 63) / 64;
    g.fill(words, used);
    for (std::size_t i = 0; i < entries; ++i) {
      const std::uint64_t bit = (words[i / 64] >> (i % 64)) & 1u;
      const std::uint32_t bits = magnitude | static_cast<std::uint32_t>(bit ^ 1u) << 31;
      std::memcpy(out + i, &bits, sizeof bits);
    }
    out += entries;
    count -= entries;
  }
  detail::secureWipe(words, sizeof words);
}

}  // namespace dpmargin::random
