// Synthetic data for learner tests: unit-norm rows separable by a random unit w* with margin
// γ* (|⟨w*, x⟩| ≥ γ*), optionally with label-flipped outliers. Test-only randomness (std).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "dpmargin/learn/dataset.hpp"

namespace dpmargin::testing {

struct Synthetic {
  std::vector<float> x;  // n × d row-major
  std::vector<std::int8_t> y;
  std::vector<double> wStar;
  std::size_t n = 0, d = 0, flipped = 0;
};

inline Synthetic makeSeparable(std::size_t n, std::size_t d, double margin, std::size_t flips,
                               std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  Synthetic s;
  s.n = n;
  s.d = d;
  s.wStar.resize(d);
  double norm = 0;
  for (auto& v : s.wStar) {
    v = normal(rng);
    norm += v * v;
  }
  for (auto& v : s.wStar) v /= std::sqrt(norm);
  std::vector<double> row(d);
  while (s.y.size() < n) {
    double sq = 0;
    for (auto& v : row) {
      v = normal(rng);
      sq += v * v;
    }
    double dot = 0;
    for (std::size_t j = 0; j < d; ++j) dot += (row[j] /= std::sqrt(sq)) * s.wStar[j];
    if (std::abs(dot) < margin) continue;
    for (double v : row) s.x.push_back(static_cast<float>(v));
    s.y.push_back(dot > 0 ? 1 : -1);
  }
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  std::vector<bool> done(n, false);
  while (s.flipped < flips) {
    const std::size_t i = pick(rng);
    if (done[i]) continue;
    done[i] = true;
    s.y[i] = static_cast<std::int8_t>(-s.y[i]);
    ++s.flipped;
  }
  return s;
}

inline learn::Dataset toDataset(const Synthetic& s, bool intercept = false) {
  learn::Preprocessing p;
  p.intercept = intercept;
  learn::Dataset data(s.n, s.d);
  for (std::size_t i = 0; i < s.n; ++i) {
    for (std::size_t j = 0; j < s.d; ++j) data.rowMajor()[i * data.stride() + j] = s.x[i * s.d + j];
    data.labels()[i] = s.y[i];
  }
  data.validate();
  data.prepare(p);
  return data;
}

}  // namespace dpmargin::testing
