// The one random generator injected into every random component (Φ, gradient noise, score
// noise, TNB and PrivTune draws) — SPEC §4. There is no global RNG.
//
// Both modes run the same ChaCha20 keystream generator (RFC 8439 block function, "fast key
// erasure": after each refill the first 32 bytes of fresh keystream become the next key, as in
// OpenBSD/glibc arc4random). They differ only in where the first key comes from:
//  - secure():  256 bits from the operating system — getrandom(2) natively, getentropy(3)
//               under Emscripten, which calls crypto.getRandomValues in browsers and Node.
//  - seeded(s): a key derived from the integer seed. Deterministic: the word stream is
//               identical natively and in wasm (floating-point samples drawn from it can differ
//               in the last bits, glibc vs musl libm; docs/reference/RANDOMNESS.md). NOT differentially
//               private: every output made with it must say `seeded: true` ("not private:
//               seeded").
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

  // 64 uniformly random bits. Each word is erased from the buffer as it is handed out, so a
  // later memory disclosure reveals no past output (backtracking resistance).
  std::uint64_t nextU64() {
    if (position_ == kBufferWords) refill();
    const std::uint64_t word = buffer_[position_];
    buffer_[position_++] = 0;
    return word;
  }
  // Bulk words (one call per block keeps the hot loops free of per-draw overhead).
  void fill(std::uint64_t* out, std::size_t count);

  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  // A move transfers the state and wipes the source, which then throws kInternal if used:
  // a defaulted move would copy the key and leave two generators with the same stream.
  Generator(Generator&& other) noexcept;
  Generator& operator=(Generator&& other) noexcept;
  ~Generator();  // wipes key and buffer

 private:
  static constexpr std::size_t kBlocksPerRefill = 16;                    // 1 KiB of keystream
  static constexpr std::size_t kBufferWords = kBlocksPerRefill * 8 - 4;  // minus the next key
  Generator(const std::array<std::uint32_t, 8>& key, bool seeded);
  void refill();
  void wipeAfterMove() noexcept;

  std::array<std::uint32_t, 8> key_{};
  std::array<std::uint64_t, kBufferWords> buffer_{};
  std::size_t position_ = kBufferWords;
  std::uint64_t counter_ = 0;  // block counter within the current key (nonce = 0)
  bool seeded_ = false;
  bool movedFrom_ = false;
};

}  // namespace dpmargin::random
