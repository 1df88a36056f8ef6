// Synthetic data with a known maximum margin for the margin-profile tests (not a test file
// itself). Portable: its own splitmix64 + Box–Muller, so native and wasm builds see the same data.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpmargin/profile/data_view.hpp"

namespace dpmargin::testing::svm {  // own namespace: synthetic.hpp has another Synthetic

class TestRng {
 public:
  explicit TestRng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }  // (0, 1)
  double normal() {
    return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform());
  }
  std::vector<double> unitVector(std::size_t d) {
    std::vector<double> v(d);
    double norm2 = 0;
    for (double& e : v) {
      e = normal();
      norm2 += e * e;
    }
    for (double& e : v) e /= std::sqrt(norm2);
    return v;
  }

 private:
  std::uint64_t state_;
};

struct Synthetic {
  std::size_t n = 0, d = 0;
  std::vector<float> x;
  std::vector<std::int8_t> y;
  std::vector<double> wStar;          // unit normal of the true halfspace
  std::vector<std::size_t> flipped;   // rows whose label was flipped
  profile::DataView view() const { return {x.data(), y.data(), n, d}; }
};

// n unit-norm rows in ℝᵈ labelled by w*, separable with maximum normalized margin exactly
// γ*: random directions with |⟨w*, x⟩| < γ* are rejected, and `marginPairs` pairs
// x = y γ* w* ± √(1−γ*²) u (u ⊥ w*, unit) sit exactly at margin γ* — each pair sums to
// 2yγ*w*, so no halfspace has a larger margin. Then `flips` labels of rows with
// |⟨w*, x⟩| > 0.5 (deep inside a class) are flipped.
inline Synthetic makeSynthetic(std::size_t n, std::size_t d, double gamma, std::size_t marginPairs,
                               std::size_t flips, std::uint64_t seed) {
  TestRng rng(seed);
  Synthetic s;
  s.n = n;
  s.d = d;
  s.wStar = rng.unitVector(d);
  std::vector<std::vector<double>> rows;
  std::vector<std::int8_t> labels;
  for (std::size_t p = 0; p < marginPairs && rows.size() + 2 <= n; ++p) {
    std::vector<double> u(d);
    double dot = 0, norm2 = 0;
    for (std::size_t j = 0; j < d; ++j) dot += (u[j] = rng.normal()) * s.wStar[j];
    for (std::size_t j = 0; j < d; ++j) norm2 += (u[j] -= dot * s.wStar[j]) * u[j];
    const double label = p % 2 == 0 ? 1.0 : -1.0;
    const double across = std::sqrt(1.0 - gamma * gamma) / std::sqrt(norm2);
    for (double sign : {1.0, -1.0}) {
      std::vector<double> x(d);
      for (std::size_t j = 0; j < d; ++j) x[j] = label * gamma * s.wStar[j] + sign * across * u[j];
      rows.push_back(x);
      labels.push_back(static_cast<std::int8_t>(label));
    }
  }
  while (rows.size() < n) {
    std::vector<double> x = rng.unitVector(d);
    double t = 0;
    for (std::size_t j = 0; j < d; ++j) t += x[j] * s.wStar[j];
    if (std::fabs(t) < gamma * (1.0 + 1e-6)) continue;
    rows.push_back(x);
    labels.push_back(t > 0 ? 1 : -1);
  }
  // Flip labels of rows deep inside a class (never a margin-pair row).
  const std::size_t first = 2 * marginPairs;
  for (std::size_t i = first; i < n && s.flipped.size() < flips; ++i) {
    double t = 0;
    for (std::size_t j = 0; j < d; ++j) t += rows[i][j] * s.wStar[j];
    if (std::fabs(t) > 0.5 && rng.uniform() < 0.5) {
      labels[i] = static_cast<std::int8_t>(-labels[i]);
      s.flipped.push_back(i);
    }
  }
  for (const auto& r : rows) {
    for (double v : r) s.x.push_back(static_cast<float>(v));
  }
  s.y = labels;
  return s;
}

}  // namespace dpmargin::testing::svm
