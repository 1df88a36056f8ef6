#include "dpmargin/learn/kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

// Design (docs/reference/KERNELS.md): for each block of 128 rows and each chunk of MC ≤ 4 candidates,
// one row at a time, the margins against the chunk's weight columns are dot products
// vectorised along the row (4 columns per vector, MC × S accumulators, one transposing
// horizontal sum); the coefficients y s·[y s M < c] are formed for the chunk in one vector;
// rows active for some candidate of the chunk are queued and added Q at a time into the
// chunk's float partial gradient (k × MC floats, in L1), while they are still in L1. The
// block total goes to double. No packing and no Eigen GEMM: with m ≤ 16 Eigen packs the row
// block at a cost comparable to the arithmetic, and its SSE path is slower under SIMD128.
// A column count not a multiple of 4 ends with one overlapping, masked vector (k ≥ 4) or a
// scalar loop (k < 4). No FMA anywhere (SSE2 has none; SIMD128 without relaxed-simd has none),
// so native and wasm compute bit-identical results. Every chunk width uses the same S and adds
// rows one by one, so the margins and sums of candidate j do not depend on which other
// candidates share its call: each column of a batched call equals the m = 1 result exactly.

namespace dpmargin::learn::kernels {

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

inline bool anyNonZero(v4f a) { return a[0] != 0.0f || a[1] != 0.0f || a[2] != 0.0f || a[3] != 0.0f; }

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

// G(:, j) += a_r[j] z_r for r = 0 … R−1 in turn, j < MC (float products y s z, float sums).
// Sequential per row, so a candidate's float sum runs over its active rows in row order
// whatever the pairing (an inactive row adds ±0): every column equals the m = 1 result exactly.
template <int R, int MC>
inline void accumulate(const Shape& s, const float* const (&z)[R], const v4f (&a)[R], float* g,
                       std::size_t ldg) {
  v4f b[R][MC];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < MC; ++j) b[r][j] = splat(a[r][j]);
  if (s.hasTail) {
    // The masked tail first: its store overlaps the body's last vector, and a load partly
    // overlapping a store still in flight cannot be forwarded (a stall per row and column).
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = mask(load(z[r] + s.last), s.tail);
    for (int j = 0; j < MC; ++j) {
      float* p = g + std::size_t(j) * ldg + s.last;
      v4f t = load(p);
      for (int r = 0; r < R; ++r) t += b[r][j] * x[r];  // masked lanes add ±0: unchanged
      store(p, t);
    }
  }
  for (std::size_t kk = 0; kk < s.body; kk += 4) {
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = load(z[r] + kk);
    for (int j = 0; j < MC; ++j) {
      float* p = g + std::size_t(j) * ldg + kk;
      v4f t = load(p);
      for (int r = 0; r < R; ++r) t += b[r][j] * x[r];
      store(p, t);
    }
  }
  if (s.hasTail) return;
  for (std::size_t kk = s.body; kk < s.k; ++kk)
    for (int j = 0; j < MC; ++j) {
      float t = g[std::size_t(j) * ldg + kk];
      for (int r = 0; r < R; ++r) t += a[r][j] * z[r][kk];
      g[std::size_t(j) * ldg + kk] = t;
    }
}

// Rows [begin, end) against candidates j0 … j0+MC−1, R rows at a time (R·MC independent margin
// accumulators hide the add latency): adds their gradient terms to g (k × MC floats, leading
// dimension ldg). Returns whether any row was active.
template <int MC, int R, int S, int Q>
bool chunk(const ClippedRows& rows, const Shape& s, std::size_t begin, std::size_t end,
           const float* w, std::size_t ldw, v4f threshold, float* g, std::size_t ldg) {
  bool any = false;
  const float* queueZ[Q];  // active rows waiting for a full group
  v4f queueA[Q];
  int queued = 0;
  auto push = [&](std::size_t i, const float* z, v4f margin) {
    const float ys = static_cast<float>(rows.y[i]) * rows.scale[i];
    const v4f yv = splat(ys);
    // Active iff y⟨w_j, s z⟩ < c_j (lanes ≥ MC have threshold −∞: never active).
    const v4f a = mask(yv, (yv * margin) < threshold);
    if (!anyNonZero(a)) return;
    any = true;
    queueZ[queued] = z;
    queueA[queued] = a;
    if (++queued == Q) {
      accumulate<Q, MC>(s, queueZ, queueA, g, ldg);
      queued = 0;
    }
  };
  std::size_t i = begin;
  for (; i + R <= end; i += R) {
    const float* z[R];
    for (int r = 0; r < R; ++r) z[r] = rows.z + (i + std::size_t(r)) * rows.stride;
    v4f m[R];
    margins<R, MC, S>(s, z, w, ldw, m);
    for (int r = 0; r < R; ++r) push(i + std::size_t(r), z[r], m[r]);
  }
  for (; i < end; ++i) {
    const float* const z[1] = {rows.z + i * rows.stride};
    v4f m[1];
    margins<1, MC, S>(s, z, w, ldw, m);
    push(i, z[0], m[0]);
  }
  for (int r = 0; r < queued; ++r) {
    const float* const zz[1] = {queueZ[r]};
    const v4f aa[1] = {queueA[r]};
    accumulate<1, MC>(s, zz, aa, g, ldg);
  }
  return any;
}

}  // namespace

// (R rows per margin group, S accumulators per dot product, Q rows per gradient update) per
// chunk width MC; KCFGn overrides for experiments (bench/kernels). One row at a time for the
// margins: interleaving the reads of several rows defeats the hardware prefetcher when rows are
// short (docs/KERNELS.md, "Design").
#ifndef KCFG1
#define KCFG1 1, 2, 4
#endif
#ifndef KCFG2
#define KCFG2 1, 2, 4
#endif
#ifndef KCFG3
#define KCFG3 1, 2, 2
#endif
#ifndef KCFG4
#define KCFG4 1, 2, 2
#endif
void hingeGradients(const ClippedRows& rows, const double* c, const float* w, std::size_t ldw,
                    std::size_t m, float* partial, double* compensation, double* out) {
  const std::size_t k = rows.k;
  std::fill(out, out + k * m, 0.0);
  std::fill(compensation, compensation + k * m, 0.0);
  std::fill(partial, partial + k * m, 0.0f);
  const Shape s = makeShape(k);
  const float inf = std::numeric_limits<float>::infinity();
  for (std::size_t begin = 0; begin < rows.n; begin += kRowsPerBlock) {
    const std::size_t end = std::min(rows.n, begin + kRowsPerBlock);
    bool any = false;
    for (std::size_t j0 = 0; j0 < m; j0 += 4) {
      const std::size_t mc = std::min<std::size_t>(4, m - j0);
      v4f threshold = splat(-inf);
      for (std::size_t j = 0; j < mc; ++j) threshold[j] = static_cast<float>(c[j0 + j]);
      const float* wc = w + j0 * ldw;
      float* g = partial + j0 * k;
      switch (mc) {
        case 4: any |= chunk<4, KCFG4>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
        case 3: any |= chunk<3, KCFG3>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
        case 2: any |= chunk<2, KCFG2>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
        default: any |= chunk<1, KCFG1>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
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

}  // namespace dpmargin::learn::kernels
