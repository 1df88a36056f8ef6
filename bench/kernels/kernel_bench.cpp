// Micro-benchmark of the noisy-GD gradient kernel, the product's own: learn::kernels::hingeGradients
// (core/src/learn/kernels.cpp, through its header — the call every Shard makes, m = 1 included),
// on synthetic rows of the benchmark shapes. Built natively (build-bench/bench/kernel_bench) and
// with em++ for Node (bench/kernels/run.sh); one JSON object per line on stdout.
// Usage: kernel_bench [reps=5] [m=M] [active=F] [shape=NxK …]
// (active=F: every candidate active on a fraction F of rows; default a spread 0.3–0.9)
// The kernels measured against it and not landed (the Eigen kernels before kernels.cpp, a
// register-tiled variant) are in git history and docs/KERNELS.md, not built here.
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dpmargin/learn/kernels.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "bench_common.hpp"

using dpmargin::learn::ClippedRows;

namespace {

using dpmargin::bench::kPlatform;
using dpmargin::bench::seconds;

struct Data {
  std::size_t n, k;
  std::vector<float> z, s;
  std::vector<std::int8_t> y;
  Eigen::VectorXf base;
  ClippedRows rows() const { return {z.data(), k, s.data(), y.data(), n, k}; }
};

// Rows N(0, I) clipped to norm 1 (s_i = min(1, 1/‖z_i‖)), last column 1 (intercept), labels
// agreeing with a random direction on 85% of rows.
Data makeData(std::size_t n, std::size_t k, std::mt19937_64& rng) {
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> unit;
  Data d{n, k, std::vector<float>(n * k), std::vector<float>(n), std::vector<std::int8_t>(n),
         Eigen::VectorXf(static_cast<Eigen::Index>(k))};
  for (auto& v : d.base) v = normal(rng);
  for (std::size_t i = 0; i < n; ++i) {
    float* z = &d.z[i * k];
    double norm = 0, dot = 0;
    for (std::size_t t = 0; t < k; ++t) {
      z[t] = t + 1 == k ? 1.0f : normal(rng);
      norm += double(z[t]) * z[t];
      dot += double(z[t]) * d.base[Eigen::Index(t)];
    }
    d.s[i] = static_cast<float>(std::min(1.0, 1.0 / std::sqrt(norm)));
    const bool agree = unit(rng) < 0.85f;
    d.y[i] = static_cast<std::int8_t>((dot >= 0) == agree ? 1 : -1);
  }
  return d;
}

// m candidates near the base direction; c_j puts candidate j's active fraction at
// 0.3 + 0.6·j/(m−1) (0.6 for m = 1), a spread like a grid of margins mid-training.
// active < 0: that spread; otherwise every candidate at that fraction (0: margins only).
void makeCandidates(const Data& d, std::size_t m, std::mt19937_64& rng, Eigen::MatrixXf& w,
                    Eigen::VectorXd& c, double active = -1) {
  std::normal_distribution<float> normal;
  const auto k = static_cast<Eigen::Index>(d.k);
  w.resize(k, static_cast<Eigen::Index>(m));
  c.resize(static_cast<Eigen::Index>(m));
  for (std::size_t j = 0; j < m; ++j) {
    for (Eigen::Index t = 0; t < k; ++t)
      w(t, Eigen::Index(j)) = (d.base[t] + 0.3f * normal(rng)) / std::sqrt(float(k));
    std::vector<float> v(d.n);
    for (std::size_t i = 0; i < d.n; ++i) {
      float dot = 0;
      for (Eigen::Index t = 0; t < k; ++t) dot += d.z[i * d.k + std::size_t(t)] * w(t, Eigen::Index(j));
      v[i] = float(d.y[i]) * d.s[i] * dot;
    }
    const double level = active >= 0 ? active : m == 1 ? 0.6 : 0.3 + 0.6 * double(j) / double(m - 1);
    if (active == 0 || active == 1) {  // nothing / everything below the threshold
      c[Eigen::Index(j)] = active == 0 ? -1e30 : 1e30;
      continue;
    }
    auto at = v.begin() + static_cast<std::ptrdiff_t>(level * double(d.n - 1));
    std::nth_element(v.begin(), at, v.end());
    const float next = *std::min_element(at + 1, v.end());  // c mid-gap: no row on the threshold
    c[Eigen::Index(j)] = std::max(1e-3, 0.5 * (double(*at) + double(next)));
  }
}

struct Timing {
  double median, min;
};

// Median and minimum over `reps` calls after one warm-up call (the minimum is the least
// disturbed by other processes on a shared machine; both are reported).
template <class F>
Timing timeIt(int reps, F&& f) {
  f();  // warm-up
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const double t0 = seconds();
    f();
    t.push_back(seconds() - t0);
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  std::vector<std::size_t> ms = {1, 4, 8, 16};
  double active = -1;
  std::vector<std::pair<std::size_t, std::size_t>> shapes = {
      {35000, 122}, {12000, 785}, {10000, 51}, {50000, 10}};
  std::vector<std::pair<std::size_t, std::size_t>> chosen;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg.rfind("reps=", 0) == 0) reps = std::atoi(arg.c_str() + 5);
    if (arg.rfind("kernel=", 0) == 0 && arg != "kernel=new") {
      std::fprintf(stderr,
                   "%s: only the product's kernel is built; the old and tiled kernels are in git "
                   "history (see docs/KERNELS.md)\n", arg.c_str());
      return 2;
    }
    if (arg.rfind("active=", 0) == 0) active = std::atof(arg.c_str() + 7);
    if (arg.rfind("m=", 0) == 0) ms = {std::size_t(std::atoi(arg.c_str() + 2))};
    if (arg.rfind("shape=", 0) == 0) {
      std::size_t n = 0, k = 0;
      if (std::sscanf(arg.c_str() + 6, "%zux%zu", &n, &k) == 2) chosen.emplace_back(n, k);
    }
  }
  if (!chosen.empty()) shapes = chosen;
  std::mt19937_64 rng(1);
  {
    // Warm-up of every code path before any timing: V8 runs wasm first in its baseline
    // compiler (Liftoff) and tiers up to TurboFan in the background.
    const Data d = makeData(2000, 37, rng);
    for (std::size_t m : {1, 2, 3, 4, 5, 6, 7, 8, 16}) {
      Eigen::MatrixXf w;
      Eigen::VectorXd c;
      makeCandidates(d, m, rng, w, c);
      std::vector<float> block(d.k * m);
      std::vector<double> comp(d.k * m), out(d.k * m);
      for (int r = 0; r < 50; ++r) {
        dpmargin::learn::kernels::hingeGradients(d.rows(), c.data(), w.data(), d.k, m, block.data(), comp.data(),
                                                 out.data());
      }
    }
  }
  for (const auto& shape : shapes) {
    const std::size_t n = shape.first, k = shape.second;  // not a structured binding: clang 14 cannot capture one
    const Data d = makeData(n, k, rng);
    const ClippedRows rows = d.rows();
    for (std::size_t m : ms) {
      Eigen::MatrixXf w;
      Eigen::VectorXd c;
      makeCandidates(d, m, rng, w, c, active);
      std::vector<float> block(k * m);
      std::vector<double> comp(k * m), out(k * m);
      const Timing t = timeIt(reps, [&] {
        dpmargin::learn::kernels::hingeGradients(rows, c.data(), w.data(), k, m, block.data(), comp.data(), out.data());
      });
      const double units = double(n) * double(k) * double(m);
      // Flops: 2 per row·column·candidate for the margin (mul + add), 2 more where the row is
      // active (gradient mul + add). Candidate j is active on a fraction `level` of the rows
      // (makeCandidates): the mean over j is 0.6 for the default spread.
      const double activeMean = active >= 0 ? std::min(1.0, active) : 0.6;
      const double flopsPerUnit = 2.0 + 2.0 * activeMean;
      const double bytes = double(n) * double(k) * 4.0;  // the rows, read once per call
      std::printf(
          "{\"platform\":\"%s\",\"kernel\":\"product\",\"n\":%zu,\"k\":%zu,\"m\":%zu,"
          "\"seconds\":%.6e,\"minSeconds\":%.6e,\"nsPerUnit\":%.5f,\"minNsPerUnit\":%.5f,"
          "\"gflops\":%.3f,\"maxGflops\":%.3f,\"gbps\":%.3f,\"maxGbps\":%.3f}\n",
          kPlatform, n, k, m, t.median, t.min, t.median * 1e9 / units, t.min * 1e9 / units,
          units * flopsPerUnit / t.median / 1e9, units * flopsPerUnit / t.min / 1e9, bytes / t.median / 1e9,
          bytes / t.min / 1e9);
      std::fflush(stdout);
    }
  }
  return 0;
}
