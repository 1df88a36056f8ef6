// The one random generator injected into every random component (Φ, gradient noise, score
// noise, TNB and PrivTune draws) — SPEC §4. There is no global RNG.
//
// Both modes run the same ChaCha20 keystream generator (RFC 8439 block function, "fast key
// erasure": after each refill the first 32 bytes of fresh keystream become the next key, as in
// OpenBSD/glibc arc4random). They differ only in where the first key comes from:
//  - secure():  256 bits from the operating system — getrandom(2) natively, getentropy(3)
//               under Emscripten, which calls crypto.getRandomValues in browsers and Node.
//  - seeded(s): a key derived from the integer seed. Deterministic, identical natively and in
//               wasm, and NOT differentially private: every output made with it must say
//               `seeded: true` ("not private: seeded").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace dpmargin::random {

class Generator {
 public:
  // Throws dpmargin::Error(kInternal) if the OS entropy source fails (never falls back).
  static Generator secure();
  static Generator seeded(std::uint64_t seed);

  bool isSeeded() const noexcept { return seeded_; }

  // 64 uniformly random bits.
  std::uint64_t nextU64() {
    if (position_ == kBufferWords) refill();
    return buffer_[position_++];
  }
  // Bulk words (one call per block keeps the hot loops free of per-draw overhead).
  void fill(std::uint64_t* out, std::size_t count);

  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  Generator(Generator&&) noexcept = default;
  Generator& operator=(Generator&&) noexcept = default;
  ~Generator();  // wipes key and buffer

 private:
  static constexpr std::size_t kBlocksPerRefill = 16;                    // 1 KiB of keystream
  static constexpr std::size_t kBufferWords = kBlocksPerRefill * 8 - 4;  // minus the next key
  Generator(const std::array<std::uint32_t, 8>& key, bool seeded);
  void refill();

  std::array<std::uint32_t, 8> key_{};
  std::array<std::uint64_t, kBufferWords> buffer_{};
  std::size_t position_ = kBufferWords;
  std::uint64_t counter_ = 0;  // block counter within the current key (nonce = 0)
  bool seeded_ = false;
};

}  // namespace dpmargin::random
