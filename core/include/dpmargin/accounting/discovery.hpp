// Private discovery of category and class lists (SPEC §2.11, docs/reference/PRIVACY_SCHEMA.md "Category
// discovery"): Gaussian partition selection over m columns at once.
//
// Every value present in a column is a partition; its count gets N(0, σ²) noise and the value is
// kept when the noisy count exceeds τ. Replace-one moves at most one unit of count out of one
// value and into another in each of the m columns, so on the values both neighbours hold the
// count vector has L2 sensitivity √(2m): with σ = √(2m)/μ the noisy counts are μ-GDP. A value
// only one neighbour holds has count 1 there (it is the replaced row's); there are at most m of
// them, and with τ = 1 + σ·Φ̄⁻¹(δ_τ/m) the chance that any is kept is at most δ_τ.
//
// The composition (docs/reference/PRIVACY_SCHEMA.md, "Category discovery"): let M̃ be the run that never keeps a
// value only one neighbour holds — μ-GDP with μ² = μ_discovery² + μ_rest², and equal to the run
// M on the event A̅ that none is kept, whose probability is at least 1 − δ_τ whatever else
// happens (those values' noise is drawn apart from everything else). Then for every event S,
//   P[M(D) ∈ S] ≤ P[M̃(D) ∈ S] + δ_τ ≤ e^ε·P[M̃(D′) ∈ S] + δ_GDP(ε; μ) + δ_τ
//              ≤ e^ε/(1 − δ_τ)·P[M(D′) ∈ S] + δ_GDP(ε; μ) + δ_τ,
// since P[M(D′) ∈ S] ≥ P[M̃(D′) ∈ S]·(1 − δ_τ). The run is (ε + ln(1/(1 − δ_τ)), δ_GDP(ε; μ) +
// δ_τ)-DP: the plan reserves δ_τ = kDiscoveryDeltaShare·δ and reads μ at (ε − ln(1/(1 − δ_τ)),
// δ − δ_τ). Several runs compose the same way with Σ δ_τ (accounting/ledger.hpp).
#pragma once

#include <cstddef>

namespace dpmargin::accounting {

// Share of δ reserved for the thresholds: δ_τ = 0.1·δ.
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
// δ_τ for a run of (ε, δ): kDiscoveryDeltaShare·δ (what the thresholds add to δ).
double discoveryDeltaThreshold(double delta);
// What the thresholds add to ε: ln(1/(1 − δ_τ)) (≈ δ_τ), for one run or for Σ δ_τ of several.
double discoveryEpsilonCharge(double deltaThreshold);

}  // namespace dpmargin::accounting
