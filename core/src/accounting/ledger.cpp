#include "dpmargin/accounting/ledger.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "dpmargin/accounting/discovery.hpp"
#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin::accounting {
namespace {

void validateEntry(const LedgerEntry& e, std::size_t i) {
  const std::string at = "entries[" + std::to_string(i) + "].";
  if (!(std::isfinite(e.epsilon) && e.epsilon > 0)) throwBadParameter(at + "epsilon", "finite and positive", e.epsilon);
  if (!(e.delta > 0 && e.delta < 1)) throwBadParameter(at + "delta", "in (0, 1)", e.delta);
  if (!e.gdp) return;
  if (!(std::isfinite(e.mu) && e.mu > 0)) throwBadParameter(at + "mu", "finite and positive for a GDP run", e.mu);
  if (!(e.deltaGdp > 0 && e.deltaGdp <= e.delta)) throwBadParameter(at + "deltaGdp", "in (0, delta] for a GDP run", e.deltaGdp);
}

std::string show(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

}  // namespace

LedgerTotal composeLedger(const std::vector<LedgerEntry>& entries) {
  LedgerTotal t;
  double muSquared = 0, gdpEpsilonSum = 0, gdpDelta = 0, gdpCharges = 0, otherEpsilon = 0, otherDelta = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LedgerEntry& e = entries[i];
    validateEntry(e, i);
    t.basicEpsilon += e.epsilon;
    if (e.gdp) {
      muSquared += e.mu * e.mu;
      gdpEpsilonSum += e.epsilon;
      gdpDelta += e.delta;
      gdpCharges += e.delta - e.deltaGdp;
      ++t.gdpRuns;
    } else {
      otherEpsilon += e.epsilon;
      otherDelta += e.delta;
    }
  }
  t.runs = entries.size();
  t.mu = std::sqrt(muSquared);
  // The GDP runs: the curve of √Σμᵢ² read at Σ deltaGdpᵢ, plus discovery's ε charge for the
  // thresholds' Σ δ_τ = Σ (δᵢ − deltaGdpᵢ) (accounting/discovery.hpp: the same coupling over the
  // whole sequence), never more than their Σ εᵢ.
  double gdpPart = gdpEpsilonSum;
  const double left = gdpDelta - gdpCharges;  // the δ the GDP curve is read at
  if (t.gdpRuns > 0 && left > 0 && left < 1) {
    const double charge = gdpCharges > 0 ? discoveryEpsilonCharge(gdpCharges) : 0.0;
    gdpPart = std::min(gdpPart, gdpEpsilon(t.mu, left) + charge);
  }
  t.epsilon = gdpPart + otherEpsilon;
  t.delta = gdpDelta + otherDelta;
  return t;
}

void validateLedgerCap(const LedgerCap& cap) {
  if (!(std::isfinite(cap.epsilon) && cap.epsilon > 0)) throwBadParameter("cap.epsilon", "finite and positive", cap.epsilon);
  if (!(cap.delta > 0 && cap.delta < 1)) throwBadParameter("cap.delta", "in (0, 1)", cap.delta);
}

void requireWithinCap(const LedgerTotal& total, const LedgerCap& cap) {
  validateLedgerCap(cap);
  // A relative 1e-12 for the rounding of the sums; nothing data-dependent is compared here.
  const bool epsilonOver = total.epsilon > cap.epsilon * (1 + 1e-12);
  const bool deltaOver = total.delta > cap.delta * (1 + 1e-12);
  if (!epsilonOver && !deltaOver) return;
  throw Error(ErrorCode::kBudgetExceeded, epsilonOver ? "cap.epsilon" : "cap.delta",
              "this run would bring the total on this data to (ε = " + show(total.epsilon) + ", δ = " +
                  show(total.delta) + ") over " + std::to_string(total.runs) + " runs, beyond the cap (ε = " +
                  show(cap.epsilon) + ", δ = " + show(cap.delta) + "); the run was not started");
}

}  // namespace dpmargin::accounting
