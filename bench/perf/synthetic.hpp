// Deterministic synthetic tables for bench/perf, bit-identical to bench/perf/synthetic.mjs (the
// specification is there): 32-bit integer ops, exact conversions and IEEE double +, *, /, sqrt
// summed in the same order (compile with -ffp-contract=off), rounded once to float32.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpmargin::bench::synthetic {

inline constexpr double kFlipRate = 0.05;
inline constexpr double kMarginFactor = 0.1;

class Rng {
 public:
  Rng(std::uint32_t seed, std::uint32_t stream) {
    std::uint32_t sm = seed * 0x9e3779b1u + stream * 0x85ebca77u;
    auto next = [&sm] {
      sm += 0x9e3779b9u;
      std::uint32_t z = sm;
      z = (z ^ (z >> 16)) * 0x85ebca6bu;
      z = (z ^ (z >> 13)) * 0xc2b2ae35u;
      return z ^ (z >> 16);
    };
    s_[0] = next(), s_[1] = next(), s_[2] = next(), s_[3] = next();
    if ((s_[0] | s_[1] | s_[2] | s_[3]) == 0) s_[0] = 1;
  }
  std::uint32_t next() {
    const std::uint32_t r = rotl(s_[1] * 5u, 7) * 9u;
    const std::uint32_t t = s_[1] << 9;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 11);
    return r;
  }
  double sym() { return double(next() >> 8) * (2.0 / 16777216.0) - 1.0; }
  double unit() { return double(next() >> 8) / 16777216.0; }

 private:
  static std::uint32_t rotl(std::uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
  std::uint32_t s_[4];
};

inline std::vector<double> separator(std::size_t d, std::uint32_t seed) {
  Rng g(seed, 0);
  std::vector<double> w(d);
  double ss = 0;
  for (std::size_t j = 0; j < d; ++j) {
    w[j] = g.sym();
    ss += w[j] * w[j];
  }
  const double norm = std::sqrt(ss);
  for (std::size_t j = 0; j < d; ++j) w[j] = w[j] / norm;
  return w;
}

// Writes n rows (stride `stride` ≥ d) and labels ±1; returns the oracle accuracy.
inline double generate(std::size_t n, std::size_t d, std::uint32_t seed, std::uint32_t stream,
                       float* x, std::size_t stride, std::int8_t* labels) {
  const std::vector<double> w = separator(d, seed);
  Rng g(seed, stream);
  const double m = kMarginFactor * std::sqrt(double(d) / 3.0);
  std::vector<double> row(d);
  std::size_t clean = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < d; ++j) {
      row[j] = g.sym();
      s += w[j] * row[j];
    }
    const int y = s >= 0 ? 1 : -1;
    const double ym = double(y) * m;
    for (std::size_t j = 0; j < d; ++j) x[i * stride + j] = static_cast<float>(row[j] + ym * w[j]);
    const bool flip = g.unit() < kFlipRate;
    if (!flip) ++clean;
    labels[i] = static_cast<std::int8_t>(flip ? -y : y);
  }
  return double(clean) / double(n);
}

// FNV-1a over the float32 bytes (row-major, d per row) and 0/1 labels, as synthetic.mjs.
inline std::uint32_t checksum(const float* x, std::size_t n, std::size_t d, std::size_t stride,
                              const std::int8_t* labels) {
  std::uint32_t h = 0x811c9dc5u;
  for (std::size_t i = 0; i < n; ++i) {
    const auto* b = reinterpret_cast<const unsigned char*>(x + i * stride);
    for (std::size_t k = 0; k < d * sizeof(float); ++k) h = (h ^ b[k]) * 0x01000193u;
  }
  for (std::size_t i = 0; i < n; ++i) h = (h ^ std::uint32_t(labels[i] > 0 ? 1 : 0)) * 0x01000193u;
  return h;
}

}  // namespace dpmargin::bench::synthetic
