// The ChaCha20 block function of RFC 8439 §2.3 (20 rounds, 32-bit block counter, 96-bit nonce),
// the keystream core of random::Generator. Portable scalar C++: blocks are computed sixteen at a
// time in lane-major arrays so the compiler can vectorise across blocks (SSE2 natively, SIMD128
// in wasm) without intrinsics.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dpmargin::random::detail {

inline constexpr std::size_t kChaChaBlockWords = 16;  // 64 bytes

// Writes `blocks` consecutive keystream blocks for block counters counter, counter+1, … into
// out[0 .. 16·blocks), block b at out[16b]; word w holds keystream bytes 4w..4w+3 little-endian
// (RFC 8439 §2.3 serialisation). The counter must not wrap within the call.
void chacha20Blocks(const std::uint32_t key[8], std::uint32_t counter,
                    const std::uint32_t nonce[3], std::uint32_t* out, std::size_t blocks);

// Overwrites n bytes at p with zeros in a way the optimiser may not remove (the store is
// followed by a compiler barrier that makes the memory observable), for key erasure.
void secureWipe(void* p, std::size_t n) noexcept;

}  // namespace dpmargin::random::detail
