// The privacy ledger: the cumulative guarantee of several runs on the same data (docs/reference/ACCOUNTING.md,
// "Budget across runs"). Each run's record is public (its plan's ε, δ, μ, deltaGdp); the total
// composes them exactly where they are GDP and by basic composition otherwise.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace dpmargin::accounting {

// One run as its plan states it. gdp: the run is μ-GDP apart from an additive δ − deltaGdp
// (category discovery's thresholds; 0 without discovery) — selectors iter, fixed and auto;
// PrivTune is not (its guarantee is (ε, δ) only).
struct LedgerEntry {
  double epsilon = 0;
  double delta = 0;
  bool gdp = false;
  double mu = 0;        // gdp only
  double deltaGdp = 0;  // gdp only, in (0, δ]
};

struct LedgerTotal {
  // The cumulative guarantee (ε, δ): δ = Σ δᵢ; ε = the GDP runs' composition √Σμᵢ² read at the
  // δ they leave after their discovery thresholds (Σ deltaGdpᵢ), plus ln(1/(1 − Σ δ_τ)) for those
  // thresholds (accounting/discovery.hpp), never more than their Σ εᵢ; plus Σ εᵢ of the others
  // (basic composition of the two parts).
  double epsilon = 0;
  double delta = 0;
  double mu = 0;             // √Σ μᵢ² over the GDP runs (0 when none)
  double basicEpsilon = 0;   // Σ εᵢ (basic composition of every run, for comparison)
  std::size_t runs = 0;
  std::size_t gdpRuns = 0;
};

// BAD_PARAMETER naming entries[i].<field> for an invalid record. No entries: all zero.
LedgerTotal composeLedger(const std::vector<LedgerEntry>& entries);

// A total cap (ε, δ): BUDGET_EXCEEDED, saying by how much, when `total` exceeds it.
struct LedgerCap {
  double epsilon = 0;
  double delta = 0;
};
void validateLedgerCap(const LedgerCap& cap);  // BAD_PARAMETER naming cap.epsilon / cap.delta
void requireWithinCap(const LedgerTotal& total, const LedgerCap& cap);

}  // namespace dpmargin::accounting
