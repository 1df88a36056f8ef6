// random::Generator: ChaCha20 with fast key erasure (Bernstein 2017, "Fast-key-erasure random-
// number generators"), as in OpenBSD/glibc arc4random. Each refill computes kBlocksPerRefill
// blocks under the current key (nonce 0, counter from 0); the first 32 bytes replace the key at
// once, the remaining 992 bytes are the output buffer. Why this is a CSPRNG: while the key is
// secret, ChaCha20's keystream is indistinguishable from random (its security as a stream
// cipher); the output never includes a key, and the key that produced a buffer is destroyed
// before any of the buffer is used, so a later compromise of the state reveals nothing of past
// outputs (words are also erased from the buffer as they are handed out).
#include "dpmargin/random/generator.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <sys/random.h>  // getrandom(2) natively; Emscripten's compat header adds getentropy(3)

#include "dpmargin/error.hpp"
#include "random/chacha20.hpp"

namespace dpmargin::random {
namespace {

constexpr std::uint32_t kNonce[3] = {0, 0, 0};

// 32 bytes from the operating system, or Error(kInternal): there is no weaker fallback.
void osEntropy(void* out, std::size_t size) {
#ifdef __EMSCRIPTEN__
  // Emscripten implements getentropy with crypto.getRandomValues (browsers, workers, Node ≥ 19
  // via globalThis.crypto). Note: Emscripten 3.1.6 aborts rather than returning −1 when no
  // crypto object exists; either way no weak source is used.
  if (getentropy(out, size) != 0) {
    throw Error(ErrorCode::kInternal, "",
                "getentropy failed (errno " + std::to_string(errno) + "): no secure random source");
  }
#else
  // flags = 0: blocks until the kernel pool is initialised, never returns weak bytes; a read
  // of ≤ 256 bytes is not split in practice, but a short read or EINTR is handled anyway.
  auto* bytes = static_cast<unsigned char*>(out);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = getrandom(bytes + got, size - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(ErrorCode::kInternal, "",
                  "getrandom failed (errno " + std::to_string(errno) + "): no secure random source");
    }
    got += static_cast<std::size_t>(n);
  }
#endif
}

// SplitMix64 (Steele, Lea & Flood 2014; the seeding generator of Vigna's xoshiro family).
std::uint64_t splitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

}  // namespace

Generator Generator::secure() {
  std::array<std::uint32_t, 8> key;
  osEntropy(key.data(), sizeof key);
  Generator g(key, false);
  detail::secureWipe(key.data(), sizeof key);
  return g;
}

// Key = four consecutive SplitMix64 outputs from state = seed, each split into two
// little-endian 32-bit key words (low half first). Deterministic on every platform; only 2⁶⁴
// keys are reachable, which is fine because a seeded generator is not private anyway.
Generator Generator::seeded(std::uint64_t seed) {
  std::array<std::uint32_t, 8> key;
  std::uint64_t state = seed;
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t z = splitMix64(state);
    key[2 * i] = static_cast<std::uint32_t>(z);
    key[2 * i + 1] = static_cast<std::uint32_t>(z >> 32);
  }
  return Generator(key, true);
}

Generator::Generator(const std::array<std::uint32_t, 8>& key, bool seeded)
    : key_(key), seeded_(seeded) {}

Generator::Generator(Generator&& other) noexcept
    : key_(other.key_),
      buffer_(other.buffer_),
      position_(other.position_),
      counter_(other.counter_),
      seeded_(other.seeded_),
      movedFrom_(other.movedFrom_) {
  other.wipeAfterMove();
}

Generator& Generator::operator=(Generator&& other) noexcept {
  if (this != &other) {
    key_ = other.key_;
    buffer_ = other.buffer_;
    position_ = other.position_;
    counter_ = other.counter_;
    seeded_ = other.seeded_;
    movedFrom_ = other.movedFrom_;
    other.wipeAfterMove();
  }
  return *this;
}

Generator::~Generator() {
  detail::secureWipe(key_.data(), sizeof key_);
  detail::secureWipe(buffer_.data(), sizeof buffer_);
}

void Generator::wipeAfterMove() noexcept {
  detail::secureWipe(key_.data(), sizeof key_);
  detail::secureWipe(buffer_.data(), sizeof buffer_);
  position_ = kBufferWords;
  counter_ = 0;
  movedFrom_ = true;  // an all-zero key would give a public stream: refuse to run instead
}

void Generator::refill() {
  if (movedFrom_) throw Error(ErrorCode::kInternal, "", "random::Generator used after a move");
  std::uint32_t block[kBlocksPerRefill * detail::kChaChaBlockWords];
  detail::chacha20Blocks(key_.data(), static_cast<std::uint32_t>(counter_), kNonce, block,
                         kBlocksPerRefill);
  // Fast key erasure: the old key is overwritten before any output is used; the counter
  // restarts under the new key.
  std::memcpy(key_.data(), block, sizeof key_);
  counter_ = 0;
  // Output words: keystream bytes 32.. as little-endian 64-bit words (same on every platform).
  for (std::size_t i = 0; i < kBufferWords; ++i) {
    buffer_[i] = static_cast<std::uint64_t>(block[8 + 2 * i]) |
                 static_cast<std::uint64_t>(block[9 + 2 * i]) << 32;
  }
  position_ = 0;
  detail::secureWipe(block, sizeof block);
}

void Generator::fill(std::uint64_t* out, std::size_t count) {
  while (count > 0) {
    if (position_ == kBufferWords) refill();
    const std::size_t available = kBufferWords - position_;
    const std::size_t n = count < available ? count : available;
    std::memcpy(out, buffer_.data() + position_, n * sizeof(std::uint64_t));
    std::memset(buffer_.data() + position_, 0, n * sizeof(std::uint64_t));  // as in nextU64
    position_ += n;
    out += n;
    count -= n;
  }
}

}  // namespace dpmargin::random
