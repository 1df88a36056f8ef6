// The joint multiclass learner's gradient kernel and its error count (docs/reference/MULTICLASS.md, "The
// joint learner"; docs/reference/LEARNERS.md for the sensitivity). Read by every Shard when a step trains
// K ≥ 3 classes jointly; the binary hinge kernel (kernels.hpp) is untouched.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/plan/plan.hpp"

namespace dpmargin::learn::kernels {

// For every candidate j < m, whose weights are the K columns j·K … j·K + K − 1 of `w` (k × m·K,
// column-major, leading dimension ldw ≥ k; column j·K + l scores class l), columns j·K + l of
// `out` (k × m·K, column-major, leading dimension k) get
//   Σ_i g_il(W_j) · s_i z_i / c_j
// over the rows whose code y_i = rows.y[i] is a class (0 … K − 1; other rows add nothing), with
// the scores a_l = ⟨w_{jK+l}, s_i z_i⟩ (float) and
//   hinge:   g_iy = −1 and g_il* = +1 when a_y − a_l* < c_j, l* the first largest a_l, l ≠ y;
//            else 0 (the gradient of max(0, 1 − (a_y − max_{l≠y} a_l)/c_j));
//   softmax: g_il = p_l − [l = y], p = softmax(a/c_j) (computed in double; the gradient of the
//            cross-entropy of softmax(a/c_j)).
// Per row ‖g_i‖₂ ≤ √2 and ‖s_i z_i‖ ≤ R, so each row's K × k term has Frobenius norm ≤ √2·R/c_j
// (Δ = 2√2·R/c_j, replace-one). The products g_il·(s_i z_it) are floats, summed in float within
// blocks of kRowsPerBlock rows and the block sums added in double with Kahan compensation — the
// binary kernel's precision contract, so accounting::floatSumSlack bounds the rounding relative to
// the per-row bound here too. `partial` holds k·m·K floats and `compensation` k·m·K doubles of
// scratch; `scores` K floats and `wt` k·K floats (contents on entry are ignored).
void multiclassGradients(const ClippedRows& rows, std::size_t classes, plan::JointLoss loss, const double* c,
                         const float* w, std::size_t ldw, std::size_t m, float* partial, double* compensation,
                         float* wt, double* out);

// For each candidate j < m (columns j·K … j·K + K − 1 of `w`, width × m·K column-major): the
// rows whose class y_i (0 … K − 1) does not have the strictly largest score, i.e.
// ⟨w_y, x_i⟩ ≤ max_{l≠y} ⟨w_l, x_i⟩ in double — so ties and the zero matrix are errors, as the
// binary count's ≤ 0 (SPEC §2.5). Rows whose code is not a class are not counted (a constant for
// every candidate). Sensitivity 1 (replace-one).
void multiclassErrors(const DataView& data, std::size_t classes, const double* w, std::size_t m,
                      std::uint64_t* out);

}  // namespace dpmargin::learn::kernels
