// Experiment (issue "columns at their natural width"): what storing integer columns as uint8
// would buy the noisy-GD gradient kernel, before the Dataset and every reader are changed.
//
// A table of n rows × k integer cells 0…255 (pixel-like: half the cells 0), scaled per column by
// t = a_j·q (min–max with an integer lo, stored as q = x − lo, so the map is exact) and each
// row normalised by r_i. Two kernels compute the same hinge-gradient sums of m candidates:
//   float  — the product's learn::kernels::hingeGradients on the prepared float32 rows z_i = r_i·a∘q_i;
//   narrow — the same design (blocks of 128 rows, chunks of ≤ 4 candidates, float products and
//            sums in a block, Kahan double totals) reading q as uint8, with a_j folded into the
//            weights (w'_j = w_j·a_j, once per call) and r_i into the row's coefficient:
//            margin_i = r_i·⟨w', q_i⟩, g_j = a_j·Σ_i (y_i s_i r_i)·q_ij.
// The narrow sums are checked against the float ones (within 1e-3 of the largest coordinate) before timing.
// One JSON object per line: ns per row·column·candidate, GB/s of table read per call, rows/s.
// Usage: narrow_bench [reps=5] [shape=NxK …] [m=M …]
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

#ifndef NARROW_SCRATCH
#define NARROW_SCRATCH 1
#endif
#ifndef NARROW_WIDEN
#define NARROW_WIDEN 0
#endif
#include "dpmargin/learn/noisy_gd.hpp"
#include "bench_common.hpp"

using dpmargin::learn::ClippedRows;

namespace {

using dpmargin::bench::kPlatform;
using dpmargin::bench::seconds;

typedef float v4f __attribute__((vector_size(16)));
typedef std::int32_t v4i __attribute__((vector_size(16)));
typedef std::uint8_t v16u8 __attribute__((vector_size(16)));
typedef std::uint8_t v4u8 __attribute__((vector_size(4)));
typedef float v4fu __attribute__((vector_size(16), aligned(4)));
typedef std::uint8_t v16u8u __attribute__((vector_size(16), aligned(1)));
inline v4f load(const float* p) { return *reinterpret_cast<const v4fu*>(p); }
inline void store(float* p, v4f v) { *reinterpret_cast<v4fu*>(p) = v; }
inline v16u8 load16(const std::uint8_t* p) { return *reinterpret_cast<const v16u8u*>(p); }
inline v4f splat(float x) { return v4f{x, x, x, x}; }
inline v4f mask(v4f x, v4i m) { return reinterpret_cast<v4f>(reinterpret_cast<v4i>(x) & m); }

// Cells 4g … 4g+3 of a 16-byte group as floats (exact: integers ≤ 255), then one int → float
// conversion. NARROW_WIDEN=1: through a 4-byte vector and __builtin_convertvector; 2: one byte
// shuffle against zeros into 32-bit lanes (pshufb, which SSE2 lacks; i8x16.shuffle); 0 (the
// default): two interleaves with zeros.
template <int G>
inline v4f widen(v16u8 b) {
#if NARROW_WIDEN == 1
  const v4u8 q = __builtin_shufflevector(b, b, 4 * G, 4 * G + 1, 4 * G + 2, 4 * G + 3);
  return __builtin_convertvector(q, v4f);
#elif NARROW_WIDEN == 2
  const v16u8 zero{};
  const v16u8 spread = __builtin_shufflevector(b, zero, 4 * G, 16, 16, 16, 4 * G + 1, 16, 16, 16, 4 * G + 2, 16,
                                               16, 16, 4 * G + 3, 16, 16, 16);
  return __builtin_convertvector(reinterpret_cast<v4i>(spread), v4f);
#else
  // Two interleaves with zeros (punpck{l,h}bw then punpck{l,h}wd on SSE2; V8 matches the same
  // i8x16.shuffle patterns): bytes → 16-bit lanes → 32-bit lanes.
  const v16u8 zero{};
  const v16u8 half = G < 2 ? __builtin_shufflevector(b, zero, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23)
                           : __builtin_shufflevector(b, zero, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const v16u8 quarter = G % 2 == 0
                            ? __builtin_shufflevector(half, zero, 0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23)
                            : __builtin_shufflevector(half, zero, 8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31);
  return __builtin_convertvector(reinterpret_cast<v4i>(quarter), v4f);
#endif
}

inline v4f sum4(v4f a0, v4f a1, v4f a2, v4f a3) {
  const v4f t0 = __builtin_shufflevector(a0, a1, 0, 4, 1, 5) + __builtin_shufflevector(a0, a1, 2, 6, 3, 7);
  const v4f t1 = __builtin_shufflevector(a2, a3, 0, 4, 1, 5) + __builtin_shufflevector(a2, a3, 2, 6, 3, 7);
  return __builtin_shufflevector(t0, t1, 0, 1, 4, 5) + __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
}

// Narrow rows: n × stride bytes (stride = k rounded up to 16, zero padded), per-row factor r_i.
struct NarrowRows {
  const std::uint8_t* q;
  std::size_t stride, n, k;
  const float* r;
  const float* s;
  const std::int8_t* y;
};

// Margins of one row against MC folded weight columns (each padded to `stride`, zeros beyond k):
// 2 accumulators per dot product, as the float kernel.
// With `row` (NARROW_SCRATCH, the default), the widened row is also stored there (L1) for the
// gradient update, which then reads floats instead of widening the bytes again.
template <int MC>
inline v4f margins(const NarrowRows& rows, const std::uint8_t* q, const float* w, std::size_t ldw, float* row) {
  v4f acc[MC][2];
  for (int j = 0; j < MC; ++j) acc[j][0] = acc[j][1] = v4f{};
  for (std::size_t kk = 0; kk < rows.stride; kk += 16) {
    const v16u8 b = load16(q + kk);
    const v4f x0 = widen<0>(b), x1 = widen<1>(b), x2 = widen<2>(b), x3 = widen<3>(b);
    if (row != nullptr) {
      store(row + kk, x0), store(row + kk + 4, x1), store(row + kk + 8, x2), store(row + kk + 12, x3);
    }
    for (int j = 0; j < MC; ++j) {
      const float* wj = w + std::size_t(j) * ldw + kk;
      acc[j][0] += x0 * load(wj);
      acc[j][1] += x1 * load(wj + 4);
      acc[j][0] += x2 * load(wj + 8);
      acc[j][1] += x3 * load(wj + 12);
    }
  }
  v4f a[4] = {};
  for (int j = 0; j < MC; ++j) a[j] = acc[j][0] + acc[j][1];
  return sum4(a[0], a[1], a[2], a[3]);
}

template <int MC>
inline void accumulate(const NarrowRows& rows, const std::uint8_t* q, const float* row, v4f coef, float* g,
                       std::size_t ldg) {
  v4f b[MC];
  for (int j = 0; j < MC; ++j) b[j] = splat(coef[j]);
  for (std::size_t kk = 0; kk < rows.stride; kk += 16) {
    v4f x[4];
    if (row != nullptr) {
      for (int t = 0; t < 4; ++t) x[t] = load(row + kk + 4 * t);
    } else {
      const v16u8 v = load16(q + kk);
      x[0] = widen<0>(v), x[1] = widen<1>(v), x[2] = widen<2>(v), x[3] = widen<3>(v);
    }
    for (int j = 0; j < MC; ++j) {
      float* p = g + std::size_t(j) * ldg + kk;
      for (int t = 0; t < 4; ++t) store(p + 4 * t, load(p + 4 * t) + b[j] * x[t]);
    }
  }
}

template <int MC>
bool chunk(const NarrowRows& rows, std::size_t begin, std::size_t end, const float* w, std::size_t ldw,
           v4f threshold, float* g, std::size_t ldg, float* scratch) {
#if NARROW_SCRATCH
  float* const row = scratch;
#else
  float* const row = nullptr;
  (void)scratch;
#endif
  bool any = false;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint8_t* q = rows.q + i * rows.stride;
    const float ys = float(rows.y[i]) * rows.s[i];
    const v4f margin = margins<MC>(rows, q, w, ldw, row) * splat(rows.r[i]);
    const v4f yv = splat(ys);
    const v4f a = mask(yv * splat(rows.r[i]), (yv * margin) < threshold);
    if (a[0] == 0.0f && a[1] == 0.0f && a[2] == 0.0f && a[3] == 0.0f) continue;
    any = true;
    accumulate<MC>(rows, q, row, a, g, ldg);
  }
  return any;
}

// out (k × m, column-major) = −(1/c_j) Σ_i [y s M < c] y s r_i a∘q_i; wScaled (stride × m) and
// partial (stride × m) are scratch.
void narrowGradients(const NarrowRows& rows, const float* a, const double* c, const float* w,
                     std::size_t m, float* wScaled, float* partial, double* comp, double* out) {
  const std::size_t k = rows.k, ld = rows.stride;
  thread_local std::vector<float> rowScratch;
  rowScratch.resize(ld);
  float* const scratch = rowScratch.data();
  std::fill(wScaled, wScaled + ld * m, 0.0f);
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t t = 0; t < k; ++t) wScaled[j * ld + t] = w[j * k + t] * a[t];
  std::fill(out, out + k * m, 0.0);
  std::fill(comp, comp + k * m, 0.0);
  std::fill(partial, partial + ld * m, 0.0f);
  const float inf = std::numeric_limits<float>::infinity();
  for (std::size_t begin = 0; begin < rows.n; begin += dpmargin::learn::kernels::kRowsPerBlock) {
    const std::size_t end = std::min(rows.n, begin + dpmargin::learn::kernels::kRowsPerBlock);
    bool any = false;
    for (std::size_t j0 = 0; j0 < m; j0 += 4) {
      const std::size_t mc = std::min<std::size_t>(4, m - j0);
      v4f threshold = splat(-inf);
      for (std::size_t j = 0; j < mc; ++j) threshold[j] = float(c[j0 + j]);
      const float* wc = wScaled + j0 * ld;
      float* g = partial + j0 * ld;
      switch (mc) {
        case 4: any |= chunk<4>(rows, begin, end, wc, ld, threshold, g, ld, scratch); break;
        case 3: any |= chunk<3>(rows, begin, end, wc, ld, threshold, g, ld, scratch); break;
        case 2: any |= chunk<2>(rows, begin, end, wc, ld, threshold, g, ld, scratch); break;
        default: any |= chunk<1>(rows, begin, end, wc, ld, threshold, g, ld, scratch); break;
      }
    }
    if (!any) continue;
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t t = 0; t < k; ++t) {
        const double y = double(partial[j * ld + t]) - comp[j * k + t];
        const double sum = out[j * k + t] + y;
        comp[j * k + t] = (sum - out[j * k + t]) - y;
        out[j * k + t] = sum;
      }
    std::fill(partial, partial + ld * m, 0.0f);
  }
  for (std::size_t j = 0; j < m; ++j)
    for (std::size_t t = 0; t < k; ++t) out[j * k + t] *= -double(a[t]) / c[j];
}

struct Table {
  std::size_t n, k, stride;
  std::vector<std::uint8_t> q;
  std::vector<float> a, r, s, z;
  std::vector<std::int8_t> y;
};

// Pixel-like cells (half 0, the rest uniform 1…255), a_j = 1/316.2 (the grid edge above 255),
// rows unit-norm after scaling; labels from a random direction, 15% flipped.
Table makeTable(std::size_t n, std::size_t k, std::mt19937_64& rng) {
  Table t{n, k, (k + 15) / 16 * 16, {}, {}, {}, {}, {}, {}};
  t.q.assign(n * t.stride, 0);
  t.a.assign(k, float(1.0 / 316.22776601683796));
  t.r.resize(n), t.s.assign(n, 1.0f), t.z.resize(n * k), t.y.resize(n);
  std::uniform_int_distribution<int> cell(1, 255);
  std::uniform_real_distribution<double> unit;
  std::normal_distribution<double> normal;
  std::vector<double> dir(k);
  for (auto& v : dir) v = normal(rng);
  for (std::size_t i = 0; i < n; ++i) {
    double sq = 0, dot = 0;
    for (std::size_t j = 0; j < k; ++j) {
      const int v = unit(rng) < 0.5 ? 0 : cell(rng);
      t.q[i * t.stride + j] = std::uint8_t(v);
      const double x = double(t.a[j]) * v;
      sq += x * x;
      dot += x * dir[j];
    }
    t.r[i] = sq > 0 ? float(1.0 / std::sqrt(sq)) : 0.0f;
    for (std::size_t j = 0; j < k; ++j) t.z[i * k + j] = float(double(t.r[i]) * t.a[j] * t.q[i * t.stride + j]);
    t.y[i] = std::int8_t((dot >= 0) == (unit(rng) < 0.85) ? 1 : -1);
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  std::vector<std::size_t> ms;
  for (int i = 1; i < argc; ++i) {
    std::string s = argv[i];
    if (s.rfind("reps=", 0) == 0) reps = std::atoi(s.c_str() + 5);
    else if (s.rfind("m=", 0) == 0) ms.push_back(std::size_t(std::atoi(s.c_str() + 2)));
    else if (s.rfind("shape=", 0) == 0) {
      std::size_t n = 0, k = 0;
      std::sscanf(s.c_str() + 6, "%zux%zu", &n, &k);
      shapes.emplace_back(n, k);
    }
  }
  if (shapes.empty()) shapes = {{12000, 788}, {35000, 122}, {50000, 784}};
  if (ms.empty()) ms = {1, 4};
  std::mt19937_64 rng(20261128);
  for (const auto& [n, k] : shapes) {
    const Table t = makeTable(n, k, rng);
    const ClippedRows fl{t.z.data(), k, t.s.data(), t.y.data(), n, k};
    const NarrowRows nr{t.q.data(), t.stride, n, k, t.r.data(), t.s.data(), t.y.data()};
    for (const std::size_t m : ms) {
      std::normal_distribution<float> normal;
      std::vector<float> w(k * m);
      for (auto& v : w) v = normal(rng) / std::sqrt(float(k));
      // c_j: the median of y⟨w_j, z_i⟩ (about half the rows active).
      std::vector<double> c(m);
      for (std::size_t j = 0; j < m; ++j) {
        std::vector<double> v(n);
        for (std::size_t i = 0; i < n; ++i) {
          double d = 0;
          for (std::size_t u = 0; u < k; ++u) d += double(t.z[i * k + u]) * w[j * k + u];
          v[i] = t.y[i] * d;
        }
        std::nth_element(v.begin(), v.begin() + long(n / 2), v.end());
        c[j] = std::max(1e-3, std::abs(v[n / 2]));
      }
      std::vector<float> partial(t.stride * m), wScaled(t.stride * m);
      std::vector<double> comp(k * m), outF(k * m), outN(k * m);
      dpmargin::learn::kernels::hingeGradients(fl, c.data(), w.data(), k, m, partial.data(), comp.data(), outF.data());
      narrowGradients(nr, t.a.data(), c.data(), w.data(), m, wScaled.data(), partial.data(), comp.data(), outN.data());
      double worst = 0, scale = 0;
      for (std::size_t u = 0; u < k * m; ++u) scale = std::max(scale, std::abs(outF[u]));
      for (std::size_t u = 0; u < k * m; ++u) worst = std::max(worst, std::abs(outF[u] - outN[u]));
      if (!(worst <= 1e-3 * scale)) {
        std::fprintf(stderr, "narrow != float: max |diff| %g vs max |g| %g (n=%zu k=%zu m=%zu)\n", worst, scale, n, k, m);
        return 1;
      }
      for (const char* which : {"float32", "uint8"}) {
        const bool narrow = std::strcmp(which, "uint8") == 0;
        std::vector<double> times;
        for (int rep = 0; rep < reps; ++rep) {
          const double t0 = seconds();
          if (narrow)
            narrowGradients(nr, t.a.data(), c.data(), w.data(), m, wScaled.data(), partial.data(), comp.data(), outN.data());
          else
            dpmargin::learn::kernels::hingeGradients(fl, c.data(), w.data(), k, m, partial.data(), comp.data(), outF.data());
          times.push_back(seconds() - t0);
        }
        std::sort(times.begin(), times.end());
        const double med = times[times.size() / 2], best = times[0];
        const double bytes = narrow ? double(n) * double(t.stride) : double(n) * double(k) * 4.0;
        std::printf(
            "{\"bench\":\"narrow\",\"platform\":\"%s\",\"widen\":%d,\"scratch\":%d,\"storage\":\"%s\",\"n\":%zu,\"k\":%zu,\"m\":%zu,"
            "\"median_s\":%.6f,\"best_s\":%.6f,\"ns_per_cell_candidate\":%.4f,\"table_GBps\":%.3f,"
            "\"rows_per_s\":%.0f,\"max_rel_diff\":%.3g}\n",
            kPlatform, NARROW_WIDEN, NARROW_SCRATCH, which, n, k, m, med, best, med * 1e9 / (double(n) * double(k) * double(m)),
            bytes / med / 1e9, double(n) / med, scale > 0 ? worst / scale : 0.0);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
