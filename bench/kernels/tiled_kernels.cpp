// The register-tiled variant of the gradient kernel (docs/design/KERNELS_PEAK.md, "GFLOP/s against the
// SIMD peak"): measured, bit-identical to core/src/learn/kernels.cpp, not faster on this machine,
// so not landed; kept here so kernel_bench kernel=tiled can re-measure it.
#include "dpmargin/learn/kernels.hpp"
#include "tiled_kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

// Design (docs/reference/KERNELS.md): each block of 128 rows is cut into sub-blocks of 32 rows; per
// sub-block and chunk of MC ≤ 4 candidates, two passes. Pass 1, one row at a time: the margins
// against the chunk's weight columns are dot products vectorised along the row (4 columns per
// vector, MC × S accumulators, one transposing horizontal sum), the coefficients y s·[y s M < c]
// are formed for the chunk in one vector, and the row is appended to the active list of each
// candidate it is active for. Pass 2, candidate by candidate: its active rows (still in L1/L2)
// are added into its float partial gradient a k-slice at a time, the slice (up to 8 vectors)
// held in registers across the rows — the partial is loaded and stored once per slice and
// sub-block instead of once per row group, and a row inactive for this candidate costs nothing
// here. The block total goes to double. No packing and no Eigen GEMM: with m ≤ 16 Eigen packs
// the row block at a cost comparable to the arithmetic, and its SSE path is slower under SIMD128.
// A column count not a multiple of 4 ends with one overlapping, masked vector (k ≥ 4) or a
// scalar loop (k < 4). No FMA anywhere (SSE2 has none; SIMD128 without relaxed-simd has none),
// so native and wasm compute bit-identical results. Every chunk width uses the same S, and each
// candidate's partial adds its active rows one by one in row order (the order of the earlier
// row-queue kernel, which added ±0 for inactive rows: the results are bit-identical to it), so
// the margins and sums of candidate j do not depend on which other candidates share its call:
// each column of a batched call equals the m = 1 result exactly.

namespace dpmargin::bench::tiled {

using dpmargin::learn::ClippedRows;
using dpmargin::learn::kernels::kRowsPerBlock;

namespace {

typedef float v4f __attribute__((vector_size(16)));
typedef std::int32_t v4i __attribute__((vector_size(16)));

// Unaligned 4-float loads and stores through a float vector type (not memcpy: a memcpy store
// may alias anything, so GCC would reload every loop bound and pointer after it; a float
// vector lvalue aliases only floats).
typedef float v4fu __attribute__((vector_size(16), aligned(4)));
inline v4f load(const float* p) { return *reinterpret_cast<const v4fu*>(p); }
inline void store(float* p, v4f v) { *reinterpret_cast<v4fu*>(p) = v; }
inline v4f splat(float x) { return v4f{x, x, x, x}; }
inline v4f mask(v4f x, v4i m) { return reinterpret_cast<v4f>(reinterpret_cast<v4i>(x) & m); }

// (Σ a0, Σ a1, Σ a2, Σ a3): a 4×4 transpose folded into the additions.
inline v4f sum4(v4f a0, v4f a1, v4f a2, v4f a3) {
  const v4f t0 = __builtin_shufflevector(a0, a1, 0, 4, 1, 5) +
                 __builtin_shufflevector(a0, a1, 2, 6, 3, 7);
  const v4f t1 = __builtin_shufflevector(a2, a3, 0, 4, 1, 5) +
                 __builtin_shufflevector(a2, a3, 2, 6, 3, 7);
  return __builtin_shufflevector(t0, t1, 0, 1, 4, 5) + __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
}

template <int MC>
inline v4f sums(const v4f (&a)[MC]) {
  const v4f zero{};
  return sum4(a[0], MC > 1 ? a[MC > 1 ? 1 : 0] : zero, MC > 2 ? a[MC > 2 ? 2 : 0] : zero,
              MC > 3 ? a[MC > 3 ? 3 : 0] : zero);
}

// Shape of one kernel call: k columns, the vectorised part ends at `body` (a multiple of 4);
// when k ≥ 4 and k % 4 ≠ 0 the last vector starts at `last` = k − 4 and `tail` keeps its lanes
// ≥ body − last (the ones not yet covered).
struct Shape {
  std::size_t k, body, last;
  bool hasTail;
  v4i tail;
};

Shape makeShape(std::size_t k) {
  Shape s{k, k & ~std::size_t(3), 0, false, v4i{}};
  if (k >= 4 && s.body < k) {
    s.hasTail = true;
    s.last = k - 4;
    const auto skip = static_cast<std::int32_t>(s.body - s.last);
    for (std::int32_t l = 0; l < 4; ++l) s.tail[l] = l >= skip ? -1 : 0;
  }
  return s;
}

// Margins ⟨w_j, z_r⟩ of R rows against MC weight columns (lanes ≥ MC are 0), each dot product
// in S interleaved vector accumulators (R·MC·S independent add chains).
template <int R, int MC, int S>
inline void margins(const Shape& s, const float* const (&z)[R], const float* w, std::size_t ldw,
                    v4f (&out)[R]) {
  v4f acc[R][MC][S];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < MC; ++j)
      for (int q = 0; q < S; ++q) acc[r][j][q] = v4f{};
  std::size_t kk = 0;
  for (; kk + 4 * S <= s.body; kk += 4 * S) {
    for (int q = 0; q < S; ++q) {
      v4f x[R];
      for (int r = 0; r < R; ++r) x[r] = load(z[r] + kk + 4 * q);
      for (int j = 0; j < MC; ++j) {
        const v4f wj = load(w + std::size_t(j) * ldw + kk + 4 * q);
        for (int r = 0; r < R; ++r) acc[r][j][q] += x[r] * wj;
      }
    }
  }
  for (; kk < s.body; kk += 4) {
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = load(z[r] + kk);
    for (int j = 0; j < MC; ++j) {
      const v4f wj = load(w + std::size_t(j) * ldw + kk);
      for (int r = 0; r < R; ++r) acc[r][j][0] += x[r] * wj;
    }
  }
  if (s.hasTail) {
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = mask(load(z[r] + s.last), s.tail);
    for (int j = 0; j < MC; ++j) {
      const v4f wj = load(w + std::size_t(j) * ldw + s.last);
      for (int r = 0; r < R; ++r) acc[r][j][S > 1 ? 1 : 0] += x[r] * wj;
    }
  }
  for (int r = 0; r < R; ++r) {
    v4f a[MC];
    for (int j = 0; j < MC; ++j) {
      if (S == 4) {
        a[j] = (acc[r][j][0] + acc[r][j][S > 2 ? 2 : 0]) + (acc[r][j][S > 1 ? 1 : 0] + acc[r][j][S > 3 ? 3 : 0]);
      } else if (S == 2) {
        a[j] = acc[r][j][0] + acc[r][j][S > 1 ? 1 : 0];
      } else {
        a[j] = acc[r][j][0];
      }
    }
    out[r] = sums<MC>(a);
  }
  if (s.body < s.k && !s.hasTail) {  // k < 4: scalar
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < MC; ++j) {
        float t = 0.0f;
        for (std::size_t t2 = s.body; t2 < s.k; ++t2) t += z[r][t2] * w[std::size_t(j) * ldw + t2];
        out[r][j] += t;
      }
  }
}

// Rows per sub-block: the margins of a sub-block are formed first (pass 1), then its active
// rows are read again for the gradient (pass 2) while they are still in L1/L2. The float block
// sum is unaffected (it runs over the 128-row block; a sub-block only stores the register
// tile back to the float partial in between). KSUB overrides for experiments.
#ifndef KSUB
#define KSUB 32
#endif
constexpr int kSub = KSUB;

// One candidate's active rows of a sub-block: row pointers and coefficients y s, in row order.
struct Active {
  const float* z[kSub];
  float a[kSub];
  int count;
};

// g(slice) += Σ_r a_r z_r(slice) over a candidate's active rows, in row order, the slice's KS
// vectors of the partial gradient in registers (loaded once, stored once per sub-block).
template <int KS>
inline void slice(const Active& act, std::size_t kk, float* g) {
  v4f G[KS];
  for (int q = 0; q < KS; ++q) G[q] = load(g + kk + 4 * q);
  for (int r = 0; r < act.count; ++r) {
    const float* z = act.z[r] + kk;
    const v4f b = splat(act.a[r]);
    for (int q = 0; q < KS; ++q) G[q] += b * load(z + 4 * q);
  }
  for (int q = 0; q < KS; ++q) store(g + kk + 4 * q, G[q]);
}

// Pass 2 for one candidate: g (k floats) += its active rows' terms a z. Per coordinate the float
// sum runs over the candidate's active rows in row order, one product at a time — the order of
// the one-row-at-a-time update, which added ±0 for a row inactive for this candidate: skipping
// that row is exact (the running sum starts at +0 and a round-to-nearest sum is −0 only if both
// terms are, so it is never −0, and t + ±0 = t).
constexpr int kSlice = 8;  // vectors per register tile (8 of G + the broadcast + a product)
inline void gradient(const Shape& s, const Active& act, float* g) {
  if (act.count == 0) return;
  if (s.hasTail) {  // the masked overlapping vector: lanes below `body` add ±0 (unchanged)
    v4f G = load(g + s.last);
    for (int r = 0; r < act.count; ++r) G += splat(act.a[r]) * mask(load(act.z[r] + s.last), s.tail);
    store(g + s.last, G);
  }
  std::size_t kk = 0;
  for (; kk + 4 * kSlice <= s.body; kk += 4 * kSlice) slice<kSlice>(act, kk, g);
  if (kk + 16 <= s.body) slice<4>(act, kk, g), kk += 16;
  if (kk + 8 <= s.body) slice<2>(act, kk, g), kk += 8;
  if (kk + 4 <= s.body) slice<1>(act, kk, g), kk += 4;
  if (s.hasTail) return;
  for (std::size_t t = s.body; t < s.k; ++t) {  // k < 4: scalar
    float G = g[t];
    for (int r = 0; r < act.count; ++r) G += act.a[r] * act.z[r][t];
    g[t] = G;
  }
}

// Rows [begin, end) (at most kSub) against candidates j0 … j0+MC−1: pass 1 forms each row's
// margins (one row at a time, S accumulators per dot product) and coefficients and appends the
// row to the active list of every candidate it is active for; pass 2 adds each candidate's
// active rows to its partial gradient g + j·ldg. Returns whether any row was active.
template <int MC, int S>
bool chunk(const ClippedRows& rows, const Shape& s, std::size_t begin, std::size_t end,
           const float* w, std::size_t ldw, v4f threshold, float* g, std::size_t ldg,
           Active (&act)[4]) {
  for (int j = 0; j < MC; ++j) act[j].count = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const float* const z[1] = {rows.z + i * rows.stride};
    v4f margin[1];
    margins<1, MC, S>(s, z, w, ldw, margin);
    const float ys = static_cast<float>(rows.y[i]) * rows.scale[i];
    const v4f yv = splat(ys);
    // Active iff y⟨w_j, s z⟩ < c_j (lanes ≥ MC have threshold −∞: never active).
    // A row with y s = 0 adds nothing and does not count as active (as before the tiling).
    const v4i on = ((yv * margin[0]) < threshold) & (yv != splat(0.0f));
    for (int j = 0; j < MC; ++j) {  // branch-free append
      Active& aj = act[j];
      aj.z[aj.count] = z[0];
      aj.a[aj.count] = ys;
      aj.count += on[j] != 0;
    }
  }
  bool any = false;
  for (int j = 0; j < MC; ++j) {
    any |= act[j].count > 0;
    gradient(s, act[j], g + std::size_t(j) * ldg);
  }
  return any;
}

}  // namespace

// S accumulators per dot product (2 for every chunk width: a candidate's margin must not
// depend on the chunk it lands in). One row at a time for the margins: interleaving the reads
// of several rows defeats the hardware prefetcher when rows are short (measured: 2 rows ~2×
// slower at k = 122, 4 rows ~4× at m = 1).
constexpr int kAccumulators = 2;

void hingeGradients(const ClippedRows& rows, const double* c, const float* w, std::size_t ldw,
                    std::size_t m, float* partial, double* compensation, double* out) {
  const std::size_t k = rows.k;
  std::fill(out, out + k * m, 0.0);
  std::fill(compensation, compensation + k * m, 0.0);
  std::fill(partial, partial + k * m, 0.0f);
  const Shape s = makeShape(k);
  const float inf = std::numeric_limits<float>::infinity();
  Active act[4];  // on the stack: ~1.5 KB
  for (std::size_t begin = 0; begin < rows.n; begin += kRowsPerBlock) {
    const std::size_t end = std::min(rows.n, begin + kRowsPerBlock);
    bool any = false;
    for (std::size_t sub = begin; sub < end; sub += kSub) {
      const std::size_t subEnd = std::min(end, sub + kSub);
      for (std::size_t j0 = 0; j0 < m; j0 += 4) {
        const std::size_t mc = std::min<std::size_t>(4, m - j0);
        v4f threshold = splat(-inf);
        for (std::size_t j = 0; j < mc; ++j) threshold[j] = static_cast<float>(c[j0 + j]);
        const float* wc = w + j0 * ldw;
        float* g = partial + j0 * k;
        constexpr int S = kAccumulators;
        switch (mc) {
          case 4: any |= chunk<4, S>(rows, s, sub, subEnd, wc, ldw, threshold, g, k, act); break;
          case 3: any |= chunk<3, S>(rows, s, sub, subEnd, wc, ldw, threshold, g, k, act); break;
          case 2: any |= chunk<2, S>(rows, s, sub, subEnd, wc, ldw, threshold, g, k, act); break;
          default: any |= chunk<1, S>(rows, s, sub, subEnd, wc, ldw, threshold, g, k, act); break;
        }
      }
    }
    if (!any) continue;
    // Kahan: the rounding of the running double sum stays ~2v·Σ|block sums| however many
    // blocks there are (the float-sensitivity bound relies on it; no FMA, no reassociation).
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

}  // namespace dpmargin::bench::tiled
