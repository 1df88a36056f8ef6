// Column ranges (SPEC §3): the public bin grid, the noise scale of the private histograms, the
// GDP composition with training, and the scaling itself.
#include "dpmargin/learn/ranges.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dpmargin/error.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "dpmargin/plan/plan.hpp"
#include "synthetic.hpp"

namespace dpmargin::learn {
namespace {

// n: the rows the hand-made histograms hold (the largest column total), as the trainer passes it.
std::vector<ColumnScaling> rangesFromNoisyHistograms(const std::vector<double>& noisy, std::size_t d,
                                                     double sigma) {
  const std::size_t bins = rangeBinCount();
  double n = 0;
  for (std::size_t j = 0; j < d; ++j) {
    double total = 0;
    for (std::size_t b = 0; b < bins; ++b) total += noisy[j * bins + b];
    n = std::max(n, std::ceil(total));
  }
  return scalingsFromNoisyHistograms(noisy, d, sigma, static_cast<std::size_t>(n));
}

TEST(RangeGrid, PublicSignedLogScale) {
  const auto& e = rangeBinEdges();
  EXPECT_EQ(e.size(), 122u);
  EXPECT_EQ(rangeBinCount(), 123u);
  EXPECT_DOUBLE_EQ(e.front(), -1e9);
  EXPECT_DOUBLE_EQ(e.back(), 1e9);
  for (std::size_t i = 1; i < e.size(); ++i) EXPECT_LT(e[i - 1], e[i]);
  EXPECT_EQ(rangeBinIndex(0.0), 61u);  // the bin [−1e-6, 1e-6)
  EXPECT_EQ(rangeBinIndex(-1e-7), 61u);
  EXPECT_EQ(rangeBinIndex(1e12), 122u);
  EXPECT_EQ(rangeBinIndex(-1e12), 0u);
  EXPECT_EQ(rangeBinIndex(1.0), rangeBinIndex(1.5));  // [1, 10^0.25 ≈ 1.778)
  EXPECT_NE(rangeBinIndex(1.0), rangeBinIndex(1.8));
}

// All n rows in one bin per column: every other count is pure noise N(0, σ²), σ = √(2d)/μ.
// 6 columns × 122 empty bins = 732 samples; the sample variance is within σ²(1 ± z√(2/N)) and
// the mean within z·σ/√N, z = 4.89 for a two-sided false-failure rate α = 1e-6 (normal
// approximation of the χ² with N = 732 is adequate at this z after the 0.5 widening below).
TEST(PrivateRanges, HistogramNoiseScaleIsSqrt2dOverMu) {
  const std::size_t n = 500, d = 6;
  std::vector<float> x(n * d, 3.0f);
  const double mu = 0.7;
  auto g = random::Generator::seeded(99);
  const auto noisy = noisyColumnHistograms(x.data(), n, d, d, mu, g);
  const double sigma = std::sqrt(2.0 * d) / mu;
  const std::size_t bins = rangeBinCount(), full = rangeBinIndex(3.0);
  std::vector<double> noise;
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t b = 0; b < bins; ++b) {
      if (b == full) {
        EXPECT_NEAR(noisy[j * bins + b], double(n), 6 * sigma);
      } else {
        noise.push_back(noisy[j * bins + b]);
      }
    }
  }
  const double N = double(noise.size());
  double mean = 0, var = 0;
  for (double v : noise) mean += v / N;
  for (double v : noise) var += (v - mean) * (v - mean) / (N - 1);
  EXPECT_NEAR(mean, 0.0, 4.89 * sigma / std::sqrt(N));
  EXPECT_NEAR(var / (sigma * sigma), 1.0, (4.89 + 0.5) * std::sqrt(2.0 / N));
  // A wrong scale (add/remove √d or a per-column √2) would be caught:
  EXPECT_GT(std::abs(var / (2.0 * sigma * sigma) - 1.0), (4.89 + 0.5) * std::sqrt(2.0 / N));
}

TEST(PrivateRanges, RecoverTheMagnitudeOfEachColumn) {
  // Column 0: ages 20..80; column 1: incomes 1e4..2e5; column 2: binary 0/1.
  const std::size_t n = 20000, d = 3;
  std::vector<float> x(n * d);
  for (std::size_t i = 0; i < n; ++i) {
    x[i * d] = float(20 + (i * 7919) % 61);
    x[i * d + 1] = float(1e4 + double((i * 104729) % 190000));
    x[i * d + 2] = float(i % 2);
  }
  auto g = random::Generator::seeded(5);
  const auto r = estimatePrivateRanges(x.data(), n, d, d, 0.3, g);
  EXPECT_GE(r[0].lo, 10.0);
  EXPECT_LE(r[0].lo, 21.0);
  EXPECT_GE(r[0].hi, 56.0);
  EXPECT_LE(r[0].hi, 101.0);
  EXPECT_GE(r[1].lo, 5e3);
  EXPECT_LE(r[1].lo, 2e4);
  EXPECT_GE(r[1].hi, 1e5);
  EXPECT_LE(r[1].hi, 3.2e5);
  EXPECT_LE(r[2].lo, 0.0);
  EXPECT_GE(r[2].hi, 1.0);
  EXPECT_LE(r[2].hi, 1.8);
}

// Changed with issue 14: with no bin above the threshold the old rule took the bin of the largest
// noisy count — noise — and so erased columns at small n (15 of 30 breast-cancer ranges lay
// outside the data at ε = 1). Now the column gets the public fallback transform (scaling_test.cpp
// has the full tests).
TEST(PrivateRanges, NothingAboveThresholdFallsBackToThePublicTransform) {
  std::vector<double> noisy(rangeBinCount(), 0.0);
  noisy[70] = 3.0;  // below 4σ with σ = 1
  const auto r = rangesFromNoisyHistograms(noisy, 1, 1.0);
  EXPECT_EQ(r[0].path, ScalingPath::kFallback);
  EXPECT_EQ(r[0].map, ScalingMap::kSignedLog);
  EXPECT_EQ(r[0].hi, std::log1p(1e9));
  EXPECT_EQ(r[0].lo, -std::log1p(1e9));
}

// The zero bin [−1e-6, 1e-6) ends a range at 0 exactly: a 0/1 column whose ones stay below the
// threshold gets [0, 1] (not [−1e-6, 1e-6], which mapped 0 to ½ and halved the contrast: the
// accuracy benchmark lost 10 points on the one-hot dna table), and 0 maps to 0. Changed with
// issue 14 (docs/design/SCALING.md): a 0/1 column whose ones pass gets [0, 1] as well (it got [0, 10^¼],
// so one-hot columns mapped 1 to 1 or to 0.56 depending on the noise: dna +5 points), and a range
// that reaches 0 from below is symmetric, [−a, a] (it was min–max [lo, 0], which mapped 0 to 1).
TEST(PrivateRanges, TheZeroBinEndsARangeAtZero) {
  const std::size_t bins = rangeBinCount(), zero = bins / 2;
  EXPECT_LT(rangeBinEdges()[zero - 1], 0.0);
  EXPECT_GT(rangeBinEdges()[zero], 0.0);
  std::vector<double> noisy(3 * bins, 0.0);
  noisy[zero] = 100.0;                   // column 0: only zeros detected
  noisy[bins + zero] = 100.0;            // column 1: zeros and values in [1, 1.78)
  noisy[bins + rangeBinIndex(1.0)] = 100.0;
  noisy[2 * bins + rangeBinIndex(-3.0)] = 100.0;  // column 2: negatives and zeros
  noisy[2 * bins + zero] = 100.0;
  const auto r = rangesFromNoisyHistograms(noisy, 3, 1.0);
  EXPECT_EQ(r[0].lo, 0.0);
  EXPECT_EQ(r[0].hi, 1.0);
  EXPECT_EQ(r[0].map, ScalingMap::kMinMax);
  EXPECT_EQ(r[1].lo, 0.0);
  EXPECT_EQ(r[1].hi, 1.0);
  EXPECT_EQ(applyScaling(1.0, r[0]), 1.0);  // 0/1 columns map to {0, 1} alike
  EXPECT_EQ(applyScaling(1.0, r[1]), 1.0);
  // A span from 0 that goes past the bin holding 1 keeps its top bin's upper edge.
  std::vector<double> wider(bins, 0.0);
  wider[zero] = 100.0;
  wider[rangeBinIndex(2.0)] = 100.0;
  EXPECT_DOUBLE_EQ(rangesFromNoisyHistograms(wider, 1, 1.0)[0].hi, rangeBinEdges()[rangeBinIndex(2.0)]);
  EXPECT_EQ(r[2].map, ScalingMap::kSymmetric);
  EXPECT_DOUBLE_EQ(r[2].lo, rangeBinEdges()[rangeBinIndex(-3.0) - 1]);
  EXPECT_EQ(r[2].hi, -r[2].lo);
  for (const auto& c : r) {
    EXPECT_EQ(applyScaling(0.0, c), 0.0);
    EXPECT_EQ(c.path, ScalingPath::kPrivate);
  }
}

TEST(PrivateRanges, PlanComposesExactlyInGdp) {
  plan::PlanRequest r;
  r.epsilon = 1;
  r.delta = 1e-5;
  r.n = 5000;
  r.d = 20;
  const plan::Plan without = plan::makePlan(r);
  r.rangeShare = 0.1;
  const plan::Plan with = plan::makePlan(r);
  EXPECT_DOUBLE_EQ(with.mu, without.mu);
  EXPECT_NEAR(std::hypot(with.muRanges, with.muTrain), with.mu, 1e-15);
  EXPECT_NEAR(with.muRanges, std::sqrt(0.1) * with.mu, 1e-15);
  EXPECT_NEAR(with.muRun, with.muTrain / std::sqrt(2.0 * double(with.candidates.size())), 1e-15);
  EXPECT_LE(with.epsilonSpent, 1.0);
  // Rejections, named.
  for (double bad : {-0.1, 1.0, 1.5, std::nan("")}) {
    r.rangeShare = bad;
    try {
      (void)plan::makePlan(r);
      ADD_FAILURE() << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.parameter(), "rangeShare");
    }
  }
  r.rangeShare = 0.1;
  r.selector = plan::Selector::kPrivTune;
  EXPECT_THROW((void)plan::makePlan(r), Error);
}

TEST(PrivateRanges, TrainerEstimatesAppliesAndReportsRanges) {
  auto s = testing::makeSeparable(3000, 5, 0.1, 0, 31);
  for (std::size_t i = 0; i < s.n; ++i) s.x[i * 5 + 1] = s.x[i * 5 + 1] * 1000.0f + 5000.0f;  // raw units
  Dataset data(s.n, 5);
  for (std::size_t i = 0; i < s.n; ++i) {
    for (std::size_t j = 0; j < 5; ++j) data.rowMajor()[i * data.stride() + j] = s.x[i * 5 + j];
    data.labels()[i] = s.y[i];
  }
  run::Options o;
  o.epsilon = 2;
  o.delta = 1e-5;
  o.rangeShare = 0.2;
  Trainer t(data, run::resolve(o, s.n, 5), random::Generator::seeded(4));
  while (!t.advance(1000)) {
  }
  const TrainResult& r = t.result();
  ASSERT_EQ(r.ranges.size(), 5u);
  EXPECT_TRUE(r.rangesPrivate);
  EXPECT_GT(r.ranges[1].lo, 1000.0);  // the raw-unit column's magnitude was found
  EXPECT_LT(r.ranges[1].hi, 1e5);
  EXPECT_TRUE(data.prepared());
  // Prepared rows are inside [0, 1] per column before the row normalisation, so finite.
  for (std::size_t i = 0; i < 10; ++i) EXPECT_TRUE(std::isfinite(data.view().x[i]));
}

TEST(PublicRanges, MinMaxWithClampingThenRowNormalisation) {
  Preprocessing p;
  p.ranges = {{0, 10}, {-1, 1}};
  p.intercept = false;
  p.rows = RowNormalization::kClip;
  p.normBound = 10;  // large: the clip does nothing here
  Dataset d(2, 2);
  float* x = d.rowMajor();  // stride 3 before prepare()
  x[0] = 5, x[1] = 3;    // → 0.5, 1 (clamped)
  x[3] = -4, x[4] = 0;   // → 0 (clamped), 0.5
  d.labels()[0] = 1, d.labels()[1] = -1;
  d.validate();
  d.prepare(p);
  EXPECT_FLOAT_EQ(x[0], 0.5f);
  EXPECT_FLOAT_EQ(x[1], 1.0f);
  EXPECT_FLOAT_EQ(x[2], 0.0f);
  EXPECT_FLOAT_EQ(x[3], 0.5f);
  const auto prepareWith = [](const Preprocessing& bad) {
    Dataset e(2, 2);
    e.labels()[0] = 1, e.labels()[1] = -1;
    e.validate();
    e.prepare(bad);
  };
  p.ranges = {{1, 1}, {0, 1}};
  EXPECT_THROW(prepareWith(p), Error);
  p.ranges = {{0, 1}};
  EXPECT_THROW(prepareWith(p), Error);
}

}  // namespace
}  // namespace dpmargin::learn
