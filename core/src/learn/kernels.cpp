#include "dpmargin/learn/kernels.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

// Design (docs/KERNELS.md): for each block of rows and each chunk of up to 4 candidates, rows
// are taken two at a time; their margins against the chunk's weight columns are dot products
// vectorised along the row (4 columns per vector, 2 rows × MC candidates accumulators, one
// transposing horizontal sum), the coefficients y s·[y s M < c] are formed for the 4 candidates
// in one vector, and only rows active for some candidate of the chunk enter the gradient pass,
// again two rows at a time (queued), while both rows are still in L1. The chunk's float partial
// gradient (k × MC) stays in L1 across the block; the block total goes to double. No packing,
// no Eigen GEMM: with m ≤ 16 Eigen's packing of the row block costs as much as the arithmetic.
// A column count not a multiple of 4 ends with one overlapping, masked vector (k ≥ 4) or a
// scalar loop (k < 4). No FMA anywhere (SSE2 has none; SIMD128 without relaxed-simd has none),
// so native and wasm compute bit-identical results, and the margins and sums of candidate j do
// not depend on which other candidates share its call.

namespace dpmargin::learn::kernels {

namespace {

typedef float v4f __attribute__((vector_size(16)));
typedef std::int32_t v4i __attribute__((vector_size(16)));

inline v4f load(const float* p) {
  v4f v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store(float* p, v4f v) { std::memcpy(p, &v, sizeof v); }
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

// Margins ⟨w_j, z_r⟩ of R rows against MC weight columns (lanes ≥ MC are 0).
template <int R, int MC>
inline void margins(const Shape& s, const float* const (&z)[R], const float* w, std::size_t ldw,
                    v4f (&out)[R]) {
  v4f acc[R][MC];
  for (int r = 0; r < R; ++r)
    for (int j = 0; j < MC; ++j) acc[r][j] = v4f{};
  for (std::size_t kk = 0; kk < s.body; kk += 4) {
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = load(z[r] + kk);
    for (int j = 0; j < MC; ++j) {
      const v4f wj = load(w + std::size_t(j) * ldw + kk);
      for (int r = 0; r < R; ++r) acc[r][j] += x[r] * wj;
    }
  }
  if (s.hasTail) {
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = mask(load(z[r] + s.last), s.tail);
    for (int j = 0; j < MC; ++j) {
      const v4f wj = load(w + std::size_t(j) * ldw + s.last);
      for (int r = 0; r < R; ++r) acc[r][j] += x[r] * wj;
    }
  }
  for (int r = 0; r < R; ++r) out[r] = sums<MC>(acc[r]);
  if (s.body < s.k && !s.hasTail) {  // k < 4: scalar
    for (int r = 0; r < R; ++r)
      for (int j = 0; j < MC; ++j) {
        float t = 0.0f;
        for (std::size_t kk = s.body; kk < s.k; ++kk) t += z[r][kk] * w[std::size_t(j) * ldw + kk];
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
  if (s.hasTail) {
    v4f x[R];
    for (int r = 0; r < R; ++r) x[r] = mask(load(z[r] + s.last), s.tail);
    for (int j = 0; j < MC; ++j) {
      float* p = g + std::size_t(j) * ldg + s.last;
      v4f t = load(p);
      for (int r = 0; r < R; ++r) t += b[r][j] * x[r];  // masked lanes add ±0: unchanged
      store(p, t);
    }
  } else {
    for (std::size_t kk = s.body; kk < s.k; ++kk)
      for (int j = 0; j < MC; ++j) {
        float t = g[std::size_t(j) * ldg + kk];
        for (int r = 0; r < R; ++r) t += a[r][j] * z[r][kk];
        g[std::size_t(j) * ldg + kk] = t;
      }
  }
}

// Rows [begin, end) against candidates j0 … j0+MC−1: adds their gradient terms to g (k × MC
// floats, leading dimension ldg). Returns whether any row was active.
template <int MC>
bool chunk(const ClippedRows& rows, const Shape& s, std::size_t begin, std::size_t end,
           const float* w, std::size_t ldw, v4f threshold, float* g, std::size_t ldg) {
  bool any = false;
  const float* pendingZ = nullptr;  // an active row waiting for a partner
  v4f pendingA{};
  auto coefficient = [&](std::size_t i, v4f margin) {
    const float ys = static_cast<float>(rows.y[i]) * rows.scale[i];
    const v4f yv = splat(ys);
    // Active iff y⟨w_j, s z⟩ < c_j (lanes ≥ MC have threshold −∞: never active).
    return mask(yv, (yv * margin) < threshold);
  };
  auto push = [&](const float* z, v4f a) {
    if (!anyNonZero(a)) return;
    any = true;
    if (!pendingZ) {
      pendingZ = z;
      pendingA = a;
      return;
    }
    const float* const zz[2] = {pendingZ, z};
    const v4f aa[2] = {pendingA, a};
    accumulate<2, MC>(s, zz, aa, g, ldg);
    pendingZ = nullptr;
  };
  std::size_t i = begin;
  for (; i + 2 <= end; i += 2) {
    const float* const z[2] = {rows.z + i * rows.stride, rows.z + (i + 1) * rows.stride};
    v4f m[2];
    margins<2, MC>(s, z, w, ldw, m);
    const v4f a0 = coefficient(i, m[0]), a1 = coefficient(i + 1, m[1]);
    push(z[0], a0);
    push(z[1], a1);
  }
  if (i < end) {
    const float* const z[1] = {rows.z + i * rows.stride};
    v4f m[1];
    margins<1, MC>(s, z, w, ldw, m);
    push(z[0], coefficient(i, m[0]));
  }
  if (pendingZ) {
    const float* const zz[1] = {pendingZ};
    const v4f aa[1] = {pendingA};
    accumulate<1, MC>(s, zz, aa, g, ldg);
  }
  return any;
}

}  // namespace

void hingeGradients(const ClippedRows& rows, const double* c, const float* w, std::size_t ldw,
                    std::size_t m, float* partial, double* out) {
  const std::size_t k = rows.k;
  std::fill(out, out + k * m, 0.0);
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
        case 4: any |= chunk<4>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
        case 3: any |= chunk<3>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
        case 2: any |= chunk<2>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
        default: any |= chunk<1>(rows, s, begin, end, wc, ldw, threshold, g, k); break;
      }
    }
    if (!any) continue;
    for (std::size_t t = 0; t < k * m; ++t) {
      out[t] += static_cast<double>(partial[t]);
      partial[t] = 0.0f;
    }
  }
  for (std::size_t j = 0; j < m; ++j) {
    const double scale = -1.0 / c[j];
    for (std::size_t t = 0; t < k; ++t) out[j * k + t] *= scale;
  }
}

}  // namespace dpmargin::learn::kernels
