// Johnson–Lindenstrauss dimension (SPEC §2.3; Achlioptas 2003, Thm 1.1).
#pragma once

#include <cstdint>

namespace dpmargin::accounting {

// Distortion the paper asks of Φ_γ: e = γ / (3b).
double jlDistortion(double gamma, double b);

// k_γ = ⌈ ln(2·N·|Γ| / β) / (e²/4 − e³/6) ⌉ with N = 3n + 1 controlled vectors, e = γ/(3b),
// β the total JL failure probability. Can exceed 10¹² for tiny γ (hence 64-bit);
// the caller skips the projection when k_γ ≥ d. gamma ∈ (0, b], n ≥ 2, gridSize ≥ 1, β ∈ (0,1).
std::uint64_t jlDimension(double gamma, std::uint64_t n, std::uint64_t gridSize, double beta,
                          double b);

// Failure probability bound for one vector at dimension k and distortion e:
// 2·exp(−k (e²/4 − e³/6)).
double jlFailurePerVector(std::uint64_t k, double e);

}  // namespace dpmargin::accounting
