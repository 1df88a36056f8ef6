// Experiment (issue 33): one-hot rows kept as their nonzero entries (compressed rows: column
// indices and values), read by a copy of the product's gradient kernel that skips the zeros.
// The arithmetic is the dense kernel's, so the result must equal learn::kernels::hingeGradients
// bit for bit; this bench checks that on 640 shapes (k = 4 … 785 with every tail, n across the
// 128-row block, m = 1 … 17), then times both on 35000 × 122 rows (the shape of mpls_stops)
// at densities 6% to 50% (one-hot values, as after encoding). Not product code: it wins only
// below about 8% nonzeros, and the census-like tables are at 12–13%
// (docs/design/NARROW_STORAGE.md). One JSON object per line.
// Usage: sparse_bench [reps=15]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
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

// The dense kernel's shape of a call (kernels.cpp): body = k rounded down to 4; a masked tail
// vector at last = k − 4 when k % 4 ≠ 0.
struct Shape {
  std::size_t k, body, last;
};

struct SparseRows {
  const float* scale;
  const std::int8_t* y;
  std::size_t n, k;
  const std::uint32_t* rowStart;  // row i: entries [rowStart[i], rowStart[i + 1])
  const std::uint32_t* columns;   // ascending within a row
  const float* values;
};

// The same rows [begin, end) from their nonzero entries (ClippedRows::rowStart): the dense
// kernel's arithmetic with S = 2 accumulators, its zero terms left out. A product lands in the
// slot the dense margins give its column: c mod 8 in the 8-column steps (accumulator (c/4) mod 2,
// lane c mod 4), c mod 4 of accumulator 0 in a last 4-column step, lane c − (k − 4) of
// accumulator 1 in the masked tail; slots fill in column order, then lane l = slot l + slot
// 4 + l and the margin (l0 + l2) + (l1 + l3), as sum4. A zero entry adds ±0 in the dense kernel,
// which changes no sum (a sum of zeros only in the sign of its zero, and ±0 < c alike), and the
// gradient adds the same products y s z in the same row order: margins, active sets and partial
// sums are the dense kernel's bit for bit (checked below against the product's kernel). Requires k ≥ 4.
template <int MC>
bool sparseChunk(const SparseRows& rows, const Shape& s, std::size_t begin, std::size_t end, const float* w,
                 std::size_t ldw, const float* threshold, float* g, std::size_t ldg) {
  const std::size_t body8 = s.body & ~std::size_t(7);
  bool any = false;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint32_t e0 = rows.rowStart[i], e1 = rows.rowStart[i + 1];
    float acc[MC][8];
    for (int j = 0; j < MC; ++j)
      for (int t = 0; t < 8; ++t) acc[j][t] = 0.0f;
    for (std::uint32_t e = e0; e < e1; ++e) {
      const std::size_t c = rows.columns[e];
      const float v = rows.values[e];
      const std::size_t slot = c < body8 ? (c & 7) : (c < s.body ? (c & 3) : 4 + (c - s.last));
      for (int j = 0; j < MC; ++j) acc[j][slot] += v * w[std::size_t(j) * ldw + c];
    }
    const float ys = static_cast<float>(rows.y[i]) * rows.scale[i];
    float coefficient[MC];
    bool active = false;
    for (int j = 0; j < MC; ++j) {
      const float l0 = acc[j][0] + acc[j][4], l1 = acc[j][1] + acc[j][5];
      const float l2 = acc[j][2] + acc[j][6], l3 = acc[j][3] + acc[j][7];
      const float margin = (l0 + l2) + (l1 + l3);
      coefficient[j] = ys * margin < threshold[j] ? ys : 0.0f;
      active |= coefficient[j] != 0.0f;
    }
    if (!active) continue;
    any = true;
    for (std::uint32_t e = e0; e < e1; ++e) {
      const std::size_t c = rows.columns[e];
      const float v = rows.values[e];
      for (int j = 0; j < MC; ++j) {
        if (coefficient[j] != 0.0f) g[std::size_t(j) * ldg + c] += coefficient[j] * v;
      }
    }
  }
  return any;
}

// hingeGradients' driver (blocks of 128 rows, chunks of ≤ 4 candidates, Kahan double totals,
// the final −1/c_j) over sparseChunk.
void sparseGradients(const SparseRows& rows, const double* c, const float* w, std::size_t ldw, std::size_t m,
                     float* partial, double* compensation, double* out) {
  const std::size_t k = rows.k;
  std::fill(out, out + k * m, 0.0);
  std::fill(compensation, compensation + k * m, 0.0);
  std::fill(partial, partial + k * m, 0.0f);
  const Shape s{k, k & ~std::size_t(3), k - 4};
  for (std::size_t begin = 0; begin < rows.n; begin += dpmargin::learn::kernels::kRowsPerBlock) {
    const std::size_t end = std::min(rows.n, begin + dpmargin::learn::kernels::kRowsPerBlock);
    bool any = false;
    for (std::size_t j0 = 0; j0 < m; j0 += 4) {
      const std::size_t mc = std::min<std::size_t>(4, m - j0);
      float t[4];
      for (std::size_t j = 0; j < mc; ++j) t[j] = static_cast<float>(c[j0 + j]);
      const float* wc = w + j0 * ldw;
      float* g = partial + j0 * k;
      switch (mc) {
        case 4: any |= sparseChunk<4>(rows, s, begin, end, wc, ldw, t, g, k); break;
        case 3: any |= sparseChunk<3>(rows, s, begin, end, wc, ldw, t, g, k); break;
        case 2: any |= sparseChunk<2>(rows, s, begin, end, wc, ldw, t, g, k); break;
        default: any |= sparseChunk<1>(rows, s, begin, end, wc, ldw, t, g, k); break;
      }
    }
    if (!any) continue;
    for (std::size_t t = 0; t < k * m; ++t) {
      const double y = static_cast<double>(partial[t]) - compensation[t];
      const double sum = out[t] + y;
      compensation[t] = (sum - out[t]) - y;
      out[t] = sum;
      partial[t] = 0.0f;
    }
  }
  for (std::size_t j = 0; j < m; ++j) {
    const double scale = -1.0 / c[j];
    for (std::size_t t = 0; t < k; ++t) out[j * k + t] *= scale;
  }
}

struct Table {
  std::size_t n, k;
  std::vector<float> z, s;
  std::vector<std::int8_t> y;
  std::vector<std::uint32_t> start, columns;
  std::vector<float> values;
  ClippedRows dense() const { return {z.data(), k, s.data(), y.data(), n, k}; }
  SparseRows sparse() const { return {s.data(), y.data(), n, k, start.data(), columns.data(), values.data()}; }
};

// Each cell nonzero with probability `density`: uniform in (−1, 1), or 0.25 (`oneHot`).
Table makeTable(std::size_t n, std::size_t k, double density, bool oneHot, std::mt19937_64& rng) {
  Table t{n, k, std::vector<float>(n * k, 0.0f), std::vector<float>(n), std::vector<std::int8_t>(n), {}, {}, {}};
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::uniform_real_distribution<double> unit;
  t.start.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    double sq = 0;
    for (std::size_t j = 0; j < k; ++j) {
      if (unit(rng) >= density) continue;
      const float v = oneHot ? 0.25f : value(rng);
      t.z[i * k + j] = v;
      sq += double(v) * v;
      t.columns.push_back(std::uint32_t(j));
      t.values.push_back(v);
    }
    t.start.push_back(std::uint32_t(t.columns.size()));
    t.s[i] = float(std::min(1.0, 1.0 / std::sqrt(std::max(sq, 1e-30))));
    t.y[i] = (rng() & 1) ? 1 : -1;
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 15;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("reps=", 0) == 0) reps = std::atoi(a.c_str() + 5);
  }
  std::mt19937_64 rng(7);
  int cases = 0, equal = 0;
  for (std::size_t k : {4, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 24, 31, 33, 64, 121, 122, 785}) {
    for (std::size_t n : {1, 127, 129, 300}) {
      for (std::size_t m : {1, 2, 3, 4, 5, 8, 9, 17}) {
        const Table t = makeTable(n, k, 0.1 + 0.8 * double(rng() % 100) / 100.0, false, rng);
        std::normal_distribution<float> normal;
        std::vector<float> w(k * m);
        for (auto& v : w) v = normal(rng);
        std::vector<double> c(m);
        for (auto& v : c) v = 0.05 + 0.5 * double(rng() % 100) / 100.0;
        std::vector<float> partial(k * m);
        std::vector<double> comp(k * m), a(k * m), b(k * m);
        dpmargin::learn::kernels::hingeGradients(t.dense(), c.data(), w.data(), k, m, partial.data(), comp.data(), a.data());
        sparseGradients(t.sparse(), c.data(), w.data(), k, m, partial.data(), comp.data(), b.data());
        ++cases;
        equal += std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0 ? 1 : 0;
      }
    }
  }
  std::printf("{\"bench\":\"sparse\",\"platform\":\"%s\",\"check\":\"bit-identical\",\"cases\":%d,\"equal\":%d}\n",
              kPlatform, cases, equal);
  if (equal != cases) return 1;
  for (const double density : {0.06, 0.09, 0.12, 0.25, 0.5}) {
    for (const std::size_t m : {1, 3}) {
      const std::size_t n = 35000, k = 122;
      const Table t = makeTable(n, k, density, true, rng);
      std::normal_distribution<float> normal;
      std::vector<float> w(k * m);
      for (auto& v : w) v = 0.1f * normal(rng);
      std::vector<double> c(m, 0.3), comp(k * m), out(k * m);
      std::vector<float> partial(k * m);
      std::vector<double> times[2];
      for (int rep = 0; rep < reps; ++rep) {
        for (int v = 0; v < 2; ++v) {  // interleaved
          const double t0 = seconds();
          if (v == 0)
            dpmargin::learn::kernels::hingeGradients(t.dense(), c.data(), w.data(), k, m, partial.data(), comp.data(), out.data());
          else
            sparseGradients(t.sparse(), c.data(), w.data(), k, m, partial.data(), comp.data(), out.data());
          times[v].push_back(seconds() - t0);
        }
      }
      for (auto& x : times) std::sort(x.begin(), x.end());
      const double dense = times[0][times[0].size() / 2], sparse = times[1][times[1].size() / 2];
      std::printf("{\"bench\":\"sparse\",\"platform\":\"%s\",\"n\":%zu,\"k\":%zu,\"m\":%zu,\"density\":%.2f,"
                  "\"nonzeros_per_row\":%.1f,\"dense_ms\":%.4f,\"sparse_ms\":%.4f,\"sparse_over_dense\":%.3f}\n",
                  kPlatform, n, k, m, density, double(t.columns.size()) / double(n), dense * 1e3, sparse * 1e3,
                  sparse / dense);
      std::fflush(stdout);
    }
  }
  return 0;
}
