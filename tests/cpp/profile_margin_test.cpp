// Margin(w; S) = max{minᵢ yᵢ⟨w, xᵢ⟩/(‖xᵢ‖‖w‖), 0} (SPEC §2.8), checked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "dpmargin/profile/margin.hpp"

namespace dpmargin::profile {
namespace {

TEST(ProfileMarginTest, HandComputedExample) {
  // Rows (3,4), (0,-2), (1,0), (0,0); w = (1,1)/… any scale.
  const std::vector<float> x = {3, 4, 0, -2, 1, 0, 0, 0};
  const std::vector<std::int8_t> y = {1, -1, -1, 1};
  const DataView data{x.data(), y.data(), 4, 2};
  const std::vector<double> w = {2.0, 2.0};  // ‖w‖ = 2√2
  const auto m = normalizedMargins(data, w);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_NEAR(m[0], 14.0 / (5.0 * 2.0 * std::sqrt(2.0)), 1e-15);  // 7/(5√2)
  EXPECT_NEAR(m[1], 4.0 / (2.0 * 2.0 * std::sqrt(2.0)), 1e-15);   // 1/√2
  EXPECT_NEAR(m[2], -2.0 / (1.0 * 2.0 * std::sqrt(2.0)), 1e-15);  // −1/√2
  EXPECT_TRUE(std::isnan(m[3]));                                  // zero row: skipped
  EXPECT_NEAR(minimumNormalizedMargin(data, w), -1.0 / std::sqrt(2.0), 1e-15);
  EXPECT_EQ(margin(data, w), 0.0);  // clamped

  const std::vector<std::int8_t> yFixed = {1, -1, 1, 1};
  const DataView separable{x.data(), yFixed.data(), 4, 2};
  EXPECT_NEAR(margin(separable, w), 1.0 / std::sqrt(2.0), 1e-15);
}

TEST(ProfileMarginTest, ScaleInvariant) {
  const std::vector<float> x = {3, 4, 0.5f, 2, -1, 0.25f};
  const std::vector<std::int8_t> y = {1, 1, -1};
  const DataView data{x.data(), y.data(), 3, 2};
  const std::vector<double> w = {0.3, 0.7};
  const std::vector<double> w10 = {3.0, 7.0};
  EXPECT_NEAR(margin(data, w), margin(data, w10), 1e-15);
  EXPECT_GT(margin(data, w), 0.0);
}

TEST(ProfileMarginTest, ZeroWeightsAndAllZeroRows) {
  const std::vector<float> x = {1, 0, 0, 0};
  const std::vector<std::int8_t> y = {1, -1};
  const DataView data{x.data(), y.data(), 2, 2};
  EXPECT_EQ(margin(data, {0.0, 0.0}), 0.0);
  const std::vector<float> zeros = {0, 0};
  const DataView onlyZero{zeros.data(), y.data(), 1, 2};
  EXPECT_TRUE(std::isnan(minimumNormalizedMargin(onlyZero, {1.0, 0.0})));
  EXPECT_EQ(margin(onlyZero, {1.0, 0.0}), 0.0);
}

}  // namespace
}  // namespace dpmargin::profile
