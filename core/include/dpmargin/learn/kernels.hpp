// The noisy-GD gradient kernel (SPEC §2.4): the summed hinge gradients of m candidates in
// lockstep (m = 1 for a projected base run), read by every Shard. Portable C++17: 128-bit GCC/Clang vector
// extensions, which compile to SSE2 natively and to SIMD128 under Emscripten, so the native and
// wasm builds execute the same instruction mix (docs/reference/KERNELS.md).
#pragma once

#include <cstddef>

#include "dpmargin/learn/noisy_gd.hpp"

namespace dpmargin::learn::kernels {

// Rows per block: products and partial sums in float within a block, totals in double (the
// precision contract of the gradient sums).
inline constexpr std::size_t kRowsPerBlock = 128;

// For every candidate j < m, column j of `out` (k × m, column-major, leading dimension k) gets
//   −(1/c_j) Σ_i [y_i s_i ⟨w_j, z_i⟩ < c_j] · y_i s_i z_i
// where the margin ⟨w_j, z_i⟩ is a float dot product, the test is made in float against
// float(c_j), each product y_i s_i z_ik is a float, the products are summed in float within a
// block of kRowsPerBlock rows and the block sums are added in double with Kahan compensation
// (so the rounding of the double sum grows like 2v·Σ, not n·v·Σ: accounting::floatSumSlack).
// `w` is k × m column-major with leading dimension `ldw` ≥ k; `partial` is k·m floats and
// `compensation` k·m doubles of scratch (contents on entry are ignored). No allocation.
void hingeGradients(const ClippedRows& rows, const double* c, const float* w, std::size_t ldw,
                    std::size_t m, float* partial, double* compensation, double* out);

}  // namespace dpmargin::learn::kernels
