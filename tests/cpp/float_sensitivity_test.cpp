// Δ must hold for the arithmetic the gradient kernel really does, not only for exact sums
// (issue 16 item 3; docs/reference/PRIVACY.md "Floating point"). Rows are summed in float within blocks of
// 128, so replacing one row changes how the OTHER rows' additions round: with the changed row at
// +R the running sum sits just above 1.0, where the float spacing is 2⁻²³, and at −R just below
// it (in magnitude), where the spacing is 2⁻²⁴, and small positive terms round up in the first
// case and down in the second. The computed sums then differ by more than the exact
// Δ = 2R/c. The plan's σ must cover the computed sums: σ·μ_run/√T (the sensitivity the noise
// is calibrated to) ≥ the largest difference any neighbouring pair can produce. This test builds
// that pair through the production kernel and checks it against the plan.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::learn {
namespace {

// The computed summed hinge gradient of one 128-row block, k = 1, c = 1, R = 1, w = 0 (every
// row active): row 0 contributes y₀·1 and rows 1…127 contribute 0.7·2⁻²³ each.
double blockGradient(std::int8_t y0, std::size_t rows) {
  std::vector<float> z(rows, std::ldexp(0.7f, -23)), s(rows, 1.0f);
  std::vector<std::int8_t> y(rows, 1);
  z[0] = 1.0f;
  y[0] = y0;
  Eigen::VectorXf w = Eigen::VectorXf::Zero(1), scratch;
  Eigen::VectorXd out;
  hingeGradientSum({z.data(), 1, s.data(), y.data(), rows, 1}, 1.0, w, scratch, out);
  return out[0];
}

TEST(FloatSensitivity, TheNoiseCoversTheComputedSumsNotOnlyTheExactOnes) {
  const std::size_t n = 128;
  // Neighbours: row 0's label flips, so its exact contribution moves by 2 = Δ (R = 1, c = 1).
  const double difference = std::abs(blockGradient(1, n) - blockGradient(-1, n));
  const double exactDelta = 2.0;
  // The construction really defeats the exact bound (else this test would prove nothing):
  // 127 terms each round by ±0.3·2⁻²³ / 0.4·2⁻²⁴ in opposite directions.
  EXPECT_GT(difference, exactDelta * (1 + 3e-6)) << difference;
  // The plan of a run on such a table: b = 1, d = 1, tight, γ = 1 is unprojected with c = γ = 1
  // and R = b = 1, so its Δ is exactly the 2 above.
  run::Options o;
  o.epsilon = 1, o.delta = 1e-5, o.n = n, o.d = 1, o.pruning = plan::Pruning::kNone;
  o.selector = plan::Selector::kIter;  // the grid's γ = b = 1
  const plan::Plan p = run::account(o);
  const plan::CandidatePlan& c = p.candidates.back();
  ASSERT_EQ(c.gamma, 1.0);
  ASSERT_FALSE(c.projected);
  ASSERT_EQ(c.sensitivity, exactDelta);
  const double calibrated = c.sigma * p.muRun / std::sqrt(double(c.T));  // the Δ σ is made for
  EXPECT_GE(calibrated, difference) << "σ is calibrated to Δ = " << calibrated
                                    << " but neighbours' computed sums differ by " << difference;
}

}  // namespace
}  // namespace dpmargin::learn
