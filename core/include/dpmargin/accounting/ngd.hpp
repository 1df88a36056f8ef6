// Parameters of noisy gradient descent on the c-hinge loss (SPEC §2.4; paper Algo 4).
#pragma once

#include <cstdint>

namespace dpmargin::accounting {

// Replace-one L2 sensitivity of the summed c-hinge subgradient for rows of norm ≤ R:
// Δ = 2R/c (never the add/remove R/c).
double hingeSensitivity(double clipRadius, double c);

// Paper mode: T = ⌈n² μ_run²⌉, the ceiling of the exact real product of the double inputs
// (computed in double-double so that e.g. n = 20000, μ = 0.01 gives 40001, not 40000).
std::uint64_t ngdIterationsPaper(std::uint64_t n, double muRun);

// T_bound(tol) = ⌈ n² μ_run² / (k ((1 + tol)² − 1)) ⌉: the T at which the utility bound
// 2DΔ·sqrt(n²/T + k/μ²) is within (1 + tol)× its floor. tol > 0, k ≥ 1.
std::uint64_t ngdIterationsBound(std::uint64_t n, double muRun, std::uint64_t k, double tol);

// The relative slack κ(n) by which the gradient kernel's floating-point sums can exceed the
// exact replace-one sensitivity (docs/reference/PRIVACY.md, "Floating point"): replacing one of n rows
// moves the COMPUTED summed gradient by at most Δ·(1 + κ(n)). Rows are summed in float within
// blocks of 128 (recursive summation: per coordinate ≤ γ₁₂₇·Σ|terms|, γ_m = m·u/(1 − m·u),
// u = 2⁻²⁴; each row's term has norm ≤ R), the block totals in double with Kahan compensation
// (≤ (2v + O(Bv²))·Σ|totals|, v = 2⁻⁵³), then scaled by −1/c (≤ 2v) and up to kMaxShardSums
// shard sums added in double (≤ 8v): κ = 128·γ₁₂₇ + 12.001·v·n·(1 + 128·γ₁₂₇) ≈ 9.7e-4 +
// 1.3e-15·n. Noisy GD calibrates σ to Δ·(1 + κ(n)).
double floatSumSlack(std::uint64_t n);

// σ = Δ·sqrt(T)/μ_run: each of T steps is (μ_run/sqrt(T))-GDP. T must be the integer used.
double ngdSigma(double sensitivity, std::uint64_t T, double muRun);

// η = D / sqrt(T (n²Δ² + k σ²)) exactly as the paper prints it (D = ‖w_ref‖, default 1).
double ngdStepSize(std::uint64_t n, double sensitivity, std::uint64_t k, double sigma,
                   std::uint64_t T, double D = 1.0);

// The paper's utility bound 2DΔ·sqrt(n²/T + k/μ_run²) and its floor 2DΔ·sqrt(k)/μ_run.
double ngdUtilityBound(std::uint64_t n, double sensitivity, std::uint64_t k, double muRun,
                       std::uint64_t T, double D = 1.0);
double ngdUtilityFloor(double sensitivity, std::uint64_t k, double muRun, double D = 1.0);

}  // namespace dpmargin::accounting
