// The privacy ledger (accounting/ledger.hpp): exact GDP composition of GDP runs, basic
// composition of the others, discovery's δ charge kept apart, the cap, every bad record named.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/ledger.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/plan/plan.hpp"
#include "expect_error.hpp"

namespace dpmargin::accounting {
namespace {

LedgerEntry gdpRun(double epsilon, double delta) {
  return {epsilon, delta, true, gdpMu(epsilon, delta), delta};
}

TEST(Ledger, EmptyIsZero) {
  const LedgerTotal t = composeLedger({});
  EXPECT_EQ(t.epsilon, 0.0);
  EXPECT_EQ(t.delta, 0.0);
  EXPECT_EQ(t.runs, 0u);
}

TEST(Ledger, OneGdpRunIsItsOwnGuarantee) {
  const LedgerTotal t = composeLedger({gdpRun(1, 1e-5)});
  EXPECT_NEAR(t.epsilon, 1.0, 1e-9);
  EXPECT_EQ(t.delta, 1e-5);
  EXPECT_EQ(t.mu, gdpMu(1, 1e-5));
}

TEST(Ledger, GdpRunsComposeExactlyAndBeatBasicComposition) {
  // Five runs at ε = 1: μ = √5·μ₁, read at δ = 5e-5 — well below Σε = 5.
  std::vector<LedgerEntry> runs(5, gdpRun(1, 1e-5));
  const LedgerTotal t = composeLedger(runs);
  const double mu = std::sqrt(5.0) * gdpMu(1, 1e-5);
  EXPECT_NEAR(t.mu, mu, 1e-15);
  EXPECT_EQ(t.delta, 5e-5);
  EXPECT_EQ(t.epsilon, gdpEpsilon(mu, 5e-5));
  EXPECT_EQ(t.basicEpsilon, 5.0);
  EXPECT_LT(t.epsilon, 3.0);
  EXPECT_GT(t.epsilon, 1.0);
  // The total is a valid guarantee: δ(ε_total; μ_total) ≤ δ_total.
  EXPECT_LE(gdpDelta(t.epsilon, t.mu), t.delta * (1 + 1e-9));
}

TEST(Ledger, NonGdpRunsAddByBasicComposition) {
  const LedgerEntry privtune{2.0, 1e-6, false, 0, 0};
  const LedgerTotal t = composeLedger({gdpRun(1, 1e-5), privtune});
  EXPECT_NEAR(t.epsilon, 3.0, 1e-9);  // 1 (one GDP run) + 2
  EXPECT_EQ(t.delta, 1e-5 + 1e-6);
  EXPECT_EQ(t.gdpRuns, 1u);
  EXPECT_EQ(t.runs, 2u);
}

TEST(Ledger, DiscoveryChargesStayOutsideTheGdpCurve) {
  // Two runs whose plans left δ_gdp = 0.8δ to the GDP part (δ_τ = 0.2δ each): the curve is read
  // at 1.6δ, not 2δ, and the thresholds add ln(1/(1 − Σ δ_τ)) to ε (accounting/discovery.hpp).
  LedgerEntry r{1.0, 1e-5, true, gdpMu(1.0, 0.8e-5), 0.8e-5};
  const LedgerTotal t = composeLedger({r, r});
  EXPECT_NEAR(t.epsilon, gdpEpsilon(std::sqrt(2.0) * r.mu, 1.6e-5) - std::log1p(-0.4e-5), 1e-12);
  EXPECT_GT(t.epsilon, gdpEpsilon(std::sqrt(2.0) * r.mu, 2e-5));  // read at 2δ it would be smaller
  EXPECT_EQ(t.delta, 2e-5);
}

// Issue 30: five default CSV runs with discovery (ε = 1, δ = 1e-5 each; the plan's own μ and
// deltaGdp). The sharper coupling argument (accounting/discovery.hpp) composes them to
// (ε_GDP(√5·μ; 5·deltaGdp) + ln(1/(1 − 5·δ_τ)), 5δ): pinned, with its parts, against the plan.
TEST(Ledger, FiveDiscoveryRunsComposeByTheCouplingArgument) {
  plan::PlanRequest q;
  q.epsilon = 1.0;
  q.delta = 1e-5;
  q.n = 5000;
  q.d = 20;
  q.selector = plan::Selector::kAuto;
  q.discoveryColumns = 3;
  q.discoveryShare = 0.1;
  const plan::Plan p = plan::makeBudget(q);
  const double deltaTau = p.discovery.deltaThreshold;
  EXPECT_DOUBLE_EQ(deltaTau, 1e-6);
  EXPECT_LE(p.deltaGdp + deltaTau, 1e-5);
  const LedgerEntry run{1.0, 1e-5, true, p.mu, p.deltaGdp};
  const LedgerTotal t = composeLedger(std::vector<LedgerEntry>(5, run));
  const double expected = gdpEpsilon(std::sqrt(5.0) * p.mu, 5 * p.deltaGdp) - std::log1p(-5 * deltaTau);
  EXPECT_NEAR(t.epsilon, expected, 1e-9);
  EXPECT_NEAR(t.epsilon, 2.2026, 5e-4);  // the number the ledger shows
  EXPECT_EQ(t.delta, 5e-5);
  EXPECT_LT(t.epsilon, 5.0);  // far below basic composition
}

TEST(Ledger, CapRefusesBeyondItAndNamesIt) {
  std::vector<LedgerEntry> runs(3, gdpRun(1, 1e-5));
  const LedgerTotal t = composeLedger(runs);
  requireWithinCap(t, {t.epsilon, 1e-4});  // at the cap: allowed
  try {
    requireWithinCap(t, {1.5, 1e-4});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBudgetExceeded);
    EXPECT_EQ(e.parameter(), "cap.epsilon");
    EXPECT_NE(std::string(e.what()).find("not started"), std::string::npos);
  }
  try {
    requireWithinCap(t, {10, 2e-5});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBudgetExceeded);
    EXPECT_EQ(e.parameter(), "cap.delta");
  }
  testing::expectBadParameter([&] { requireWithinCap(t, {0, 1e-5}); }, "cap.epsilon");
  testing::expectBadParameter([&] { requireWithinCap(t, {1, 1}); }, "cap.delta");
}

TEST(Ledger, BadRecordsAreNamed) {
  testing::expectBadParameter([] { composeLedger({gdpRun(1, 1e-5), {0, 1e-5, false, 0, 0}}); }, "entries[1].epsilon");
  testing::expectBadParameter([] { composeLedger({{1, 0, false, 0, 0}}); }, "entries[0].delta");
  testing::expectBadParameter([] { composeLedger({{1, 1e-5, true, -1, 1e-5}}); }, "entries[0].mu");
  testing::expectBadParameter([] { composeLedger({{1, 1e-5, true, 0.5, 2e-5}}); }, "entries[0].deltaGdp");
  testing::expectBadParameter([] { composeLedger({{NAN, 1e-5, false, 0, 0}}); }, "entries[0].epsilon");
}

}  // namespace
}  // namespace dpmargin::accounting
