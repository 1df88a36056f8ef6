// Gaussian differential privacy (Dong, Roth, Su 2022) — SPEC §2.1.
// All functions are pure and validate their arguments (dpmargin::Error, BAD_PARAMETER).
#pragma once

#include <cstdint>
#include <vector>

namespace dpmargin::accounting {

// Composition: μ-GDP mechanisms compose to sqrt(Σ μᵢ²)-GDP.
double composeGdp(const std::vector<double>& mus);
// `count` identical mechanisms of `mu` each: sqrt(count)·mu.
double composeGdp(double mu, std::uint64_t count);

// Exact μ-GDP → (ε, δ): δ(ε; μ) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), computed in the
// stable erfc/erfcx form (no cancellation, no spurious underflow). ε ≥ 0, μ > 0.
double gdpDelta(double epsilon, double mu);
// ln δ(ε; μ): finite even where δ underflows a double (ln δ ≈ −5·10⁵ is fine).
double gdpLogDelta(double epsilon, double mu);
// Smallest ε ≥ 0 with δ(ε; μ) ≤ δ (0 when δ(0; μ) ≤ δ already). δ ∈ (0, 1). +∞ when that ε
// exceeds DBL_MAX (μ beyond ~1e154).
double gdpEpsilon(double mu, double delta);
// Largest μ with δ(ε; μ) ≤ δ, rounded down (never more privacy than delivered). ε > 0, δ ∈ (0,1).
double gdpMu(double epsilon, double delta);

// The paper's conservative conversions (used by calibration "paper").
// Lemma: a μ-GDP mechanism is (μ²/2 + μ·sqrt(2 ln(1/δ)), δ)-DP.
double paperEpsilonLemma(double mu, double delta);
// The M* choice μ = ε / (2·sqrt(2 ln(1/δ))) (Algo 5), valid for ε < 8 ln(1/δ).
double paperMuMstar(double epsilon, double delta);
// The inverse of that choice: ε = 2μ·sqrt(2 ln(1/δ)) ("corollary" form).
double paperEpsilonCorollary(double mu, double delta);
// Largest μ whose Lemma ε is ≤ epsilon: the positive root of μ²/2 + μ·s = ε, s = sqrt(2 ln(1/δ)).
double paperMuInverseLemma(double epsilon, double delta);

}  // namespace dpmargin::accounting
