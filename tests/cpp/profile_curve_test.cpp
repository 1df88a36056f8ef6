// The removal–margin curve (SPEC §2.8) on data with a known margin γ* and m flipped labels:
// 0 until the flipped rows are gone, then γ*. Plus the resumable state machine: chunked runs
// equal one run, progress is monotone, and every result says it is not private.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "dpmargin/profile/margin.hpp"
#include "dpmargin/profile/margin_profiler.hpp"
#include "profile_synthetic.hpp"

namespace dpmargin::profile {
namespace {

struct CurveCase {
  std::size_t n, d, flips;
  double gamma;
  std::uint64_t seed;
};

// Removal fractions around m/n: below, at and beyond.
std::vector<double> gridAround(std::size_t m, std::size_t n) {
  std::vector<double> f;
  for (double k : {0.0, 0.25, 0.5, 0.75, 1.0, 1.2, 1.5, 2.0, 3.0, 4.0}) {
    f.push_back(k * static_cast<double>(m) / static_cast<double>(n));
  }
  return f;
}

TEST(ProfileCurveTest, ZeroUntilFlippedRowsAreRemovedThenGammaStar) {
  const CurveCase cases[] = {
      {2000, 10, 10, 0.1, 11}, {3000, 5, 30, 0.05, 12}, {1500, 20, 6, 0.08, 13}};
  for (const CurveCase& c : cases) {
    SCOPED_TRACE("n=" + std::to_string(c.n) + " d=" + std::to_string(c.d) +
                 " m=" + std::to_string(c.flips) + " gamma=" + std::to_string(c.gamma));
    // 100 margin pairs: removing the extra rows beyond m (all at margin γ*) leaves others there.
    const auto data = testing::svm::makeSynthetic(c.n, c.d, c.gamma, 100, c.flips, c.seed);
    ASSERT_EQ(data.flipped.size(), c.flips);
    ProfileOptions options;
    options.fractions = gridAround(c.flips, c.n);
    const ProfileResult r = profileMargins(data.view(), options);
    EXPECT_FALSE(ProfileResult::kPrivate);
    EXPECT_EQ(r.n, c.n);
    // Every grid fraction is recorded once, in order.
    std::size_t gridSeen = 0;
    for (const CurvePoint& p : r.curve) {
      if (p.gridIndex < 0) continue;
      EXPECT_EQ(p.gridIndex, static_cast<int>(gridSeen++));
      EXPECT_EQ(p.removed, static_cast<std::size_t>(std::floor(
                               options.fractions[static_cast<std::size_t>(p.gridIndex)] * c.n)));
    }
    EXPECT_EQ(gridSeen, options.fractions.size());
    for (const CurvePoint& p : r.curve) {
      std::printf("  removed %4zu (%.4f%%) margin %.6f%s\n", p.removed, 100 * p.fraction, p.margin,
                  p.gridIndex >= 0 ? " [grid]" : "");
      if (p.removed < c.flips) {
        EXPECT_EQ(p.margin, 0.0) << "removed " << p.removed;
        EXPECT_LT(p.minimumMargin, 0.0);
      } else if (p.removed >= c.flips + c.flips / 2 + 1) {
        // "~m": the flipped rows go first, at most half a batch later.
        EXPECT_NEAR(p.margin, c.gamma, 0.05 * c.gamma) << "removed " << p.removed;
        EXPECT_TRUE(p.hardMargin);
        // Gap bound on the margin (linear_svm.hpp): γ ≥ γ*·√(1 − gap). Many exact ties at γ*
        // make these duals degenerate, so a fit may stop at the cap a little short of 1e-3.
        EXPECT_LT(p.relativeGap, 0.02);
      }
    }
    ASSERT_TRUE(r.separable);
    // A batch never removes more rows than the current fit misclassifies, so the first
    // separable count is exactly m here (the flipped rows are the only ones in the way).
    EXPECT_EQ(r.firstSeparableRemoved, c.flips);
    EXPECT_NEAR(r.firstSeparableFraction,
                static_cast<double>(r.firstSeparableRemoved) / static_cast<double>(c.n), 1e-15);
  }
}

TEST(ProfileCurveTest, SeparableDataIsPositiveFromTheStart) {
  const auto data = testing::svm::makeSynthetic(1000, 8, 0.07, 20, 0, 21);
  ProfileOptions options;
  options.fractions = {0.0, 0.01};
  const ProfileResult r = profileMargins(data.view(), options);
  ASSERT_FALSE(r.curve.empty());
  EXPECT_NEAR(r.curve.front().margin, 0.07, 0.01 * 0.07);
  EXPECT_EQ(r.firstSeparableRemoved, 0u);
  EXPECT_EQ(r.firstSeparableFraction, 0.0);
}

TEST(ProfileCurveTest, NeverSeparableReportsNaN) {
  // Labels of a random half flipped: not separable within 1%.
  auto data = testing::svm::makeSynthetic(400, 3, 0.1, 2, 0, 31);
  for (std::size_t i = 0; i < data.n; i += 2) data.y[i] = static_cast<std::int8_t>(-data.y[i]);
  ProfileOptions options;
  options.fractions = {0.0, 0.005, 0.01};
  const ProfileResult r = profileMargins(data.view(), options);
  EXPECT_FALSE(r.separable);
  EXPECT_TRUE(std::isnan(r.firstSeparableFraction));
  for (const CurvePoint& p : r.curve) EXPECT_EQ(p.margin, 0.0);
}

TEST(ProfileCurveTest, BatchesAreBoundedBetweenGridPoints) {
  const auto data = testing::svm::makeSynthetic(2000, 10, 0.1, 50, 10, 41);
  ProfileOptions options;  // default grid: 0 … 5%
  options.maxRefitsPerStep = 2;
  const ProfileResult r = profileMargins(data.view(), options);
  std::size_t sinceGrid = 0;
  for (const CurvePoint& p : r.curve) {
    if (p.gridIndex >= 0) {
      // At most maxRefitsPerStep − 1 fits between grid targets, plus one where a batch stopped
      // at the rows the current fit does not separate.
      EXPECT_LE(sinceGrid, 2u);
      sinceGrid = 0;
    } else {
      ++sinceGrid;
    }
  }
  EXPECT_EQ(r.curve.back().removed, 100u);  // ⌊5% · 2000⌋
  EXPECT_EQ(r.curve.back().gridIndex, 12);
}

TEST(ProfileCurveTest, GridEntriesWithTheSameCountAreAllRecorded) {
  const auto data = testing::svm::makeSynthetic(100, 4, 0.1, 4, 0, 51);
  ProfileOptions options;  // at n = 100, 0%, 0.05%, 0.1%, … 0.75% all mean 0 rows
  const ProfileResult r = profileMargins(data.view(), options);
  std::size_t grid = 0;
  for (const CurvePoint& p : r.curve) grid += p.gridIndex >= 0 ? 1 : 0;
  EXPECT_EQ(grid, options.fractions.size());
  EXPECT_EQ(r.curve.back().removed, 5u);
}

TEST(ProfileCurveTest, ChunkedAdvanceEqualsOneRunAndProgressIsMonotone) {
  const auto data = testing::svm::makeSynthetic(1500, 6, 0.08, 30, 8, 61);
  ProfileOptions options;
  options.fractions = {0.0, 0.002, 0.005, 0.01, 0.02};
  const ProfileResult whole = profileMargins(data.view(), options);

  MarginProfiler profiler(data.view(), options);
  ProfileProgress last = profiler.progress();
  EXPECT_EQ(last.gridSize, options.fractions.size());
  EXPECT_EQ(last.n, 1500u);
  EXPECT_FALSE(last.done);
  std::size_t calls = 0;
  bool done = false;
  while (!done) {
    done = profiler.advance(500);  // far less than one fit
    ++calls;
    const ProfileProgress p = profiler.progress();
    EXPECT_GE(p.gridDone, last.gridDone);
    EXPECT_GE(p.removed, last.removed);
    EXPECT_GE(p.iterations, last.iterations);
    EXPECT_GE(p.rowVisits, last.rowVisits);
    EXPECT_EQ(p.done, done);
    last = p;
  }
  EXPECT_GT(calls, 20u);
  EXPECT_TRUE(profiler.done());
  EXPECT_TRUE(profiler.advance(1));  // idempotent once done
  EXPECT_EQ(last.gridDone, last.gridSize);
  const ProfileResult& r = profiler.result();
  ASSERT_EQ(r.curve.size(), whole.curve.size());
  for (std::size_t k = 0; k < r.curve.size(); ++k) {
    EXPECT_EQ(r.curve[k].removed, whole.curve[k].removed);
    EXPECT_EQ(r.curve[k].margin, whole.curve[k].margin);
    EXPECT_EQ(r.curve[k].iterations, whole.curve[k].iterations);
  }
  EXPECT_EQ(r.iterations, whole.iterations);
  EXPECT_EQ(r.rowVisits, whole.rowVisits);
  EXPECT_EQ(r.w, whole.w);
}

TEST(ProfileCurveTest, ZeroRowsAreSkippedAndCounted) {
  auto data = testing::svm::makeSynthetic(500, 5, 0.1, 10, 0, 71);
  data.x.insert(data.x.end(), 3 * data.d, 0.0f);
  data.y.insert(data.y.end(), {1, -1, 1});
  data.n += 3;
  ProfileOptions options;
  options.fractions = {0.0};
  const ProfileResult r = profileMargins(data.view(), options);
  EXPECT_EQ(r.n, 500u);
  EXPECT_EQ(r.zeroRows, 3u);
  EXPECT_NEAR(r.curve.front().margin, 0.1, 0.001);
}

TEST(ProfileCurveTest, LastWeightsMatchTheRecordedMargin) {
  const auto data = testing::svm::makeSynthetic(800, 6, 0.1, 10, 0, 81);
  ProfileOptions options;
  options.fractions = {0.0};
  const ProfileResult r = profileMargins(data.view(), options);
  EXPECT_NEAR(margin(data.view(), r.w), r.curve.back().margin, 1e-12);
}

}  // namespace
}  // namespace dpmargin::profile
