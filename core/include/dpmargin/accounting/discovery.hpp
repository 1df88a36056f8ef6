// Private discovery of category and class lists (SPEC §2.11, docs/PRIVACY.md "Category
// discovery"): Gaussian partition selection over m columns at once.
//
// Every value present in a column is a partition; its count gets N(0, σ²) noise and the value is
// kept when the noisy count exceeds τ. Replace-one moves at most one unit of count out of one
// value and into another in each of the m columns, so on the values both neighbours hold the
// count vector has L2 sensitivity √(2m): with σ = √(2m)/μ the noisy counts are μ-GDP. A value
// only one neighbour holds has count 1 there (it is the replaced row's); there are at most m of
// them, and with τ = 1 + σ·Φ̄⁻¹(δ_τ/m) the chance that any is kept is at most δ_τ. Composed with
// the μ_rest-GDP remainder of the run (ranges, training): the whole run is (ε, δ_GDP(ε; μ) +
// (1 + e^ε)·δ_τ)-DP with μ² = μ_discovery² + μ_rest² (the usual "fails with probability δ_τ on
// each side" argument; the plan reserves (1 + e^ε)·δ_τ = kDiscoveryDeltaShare·δ).
#pragma once

#include <cstddef>

namespace dpmargin::accounting {

// Share of δ reserved for the thresholds: (1 + e^ε)·δ_τ = 0.1·δ.
inline constexpr double kDiscoveryDeltaShare = 0.1;

// Φ̄⁻¹(p): the z with P(N(0,1) > z) = p, for p ∈ (0, 0.5]; rounded up (never a lower threshold
// than the bound needs). BAD_PARAMETER outside.
double upperNormalQuantile(double p);
// Φ̄(z) = P(N(0,1) > z), accurate in the far tail (erfcx form).
double upperNormalTail(double z);

struct DiscoveryCalibration {
  std::size_t columns = 0;      // m
  double mu = 0;                // μ_discovery
  double sigma = 0;             // √(2m)/μ
  double deltaThreshold = 0;    // δ_τ: P(some value held by one neighbour only is kept) ≤ δ_τ
  double threshold = 0;         // τ = 1 + σ·Φ̄⁻¹(δ_τ/m)
};

// μ > 0, m ≥ 1, δ_τ ∈ (0, 0.5]: BAD_PARAMETER otherwise.
DiscoveryCalibration calibrateDiscovery(double mu, std::size_t columns, double deltaThreshold);
// δ_τ for a run of (ε, δ): kDiscoveryDeltaShare·δ/(1 + e^ε).
double discoveryDeltaThreshold(double epsilon, double delta);
// What the thresholds add to δ at ε: (1 + e^ε)·δ_τ.
double discoveryDeltaCharge(double epsilon, double deltaThreshold);

}  // namespace dpmargin::accounting
