// The noisy-GD gradient kernel (core/src/learn/kernels.cpp) against a direct double-precision
// reference, through both entry points (hingeGradientSum for m = 1, kernels::hingeGradients for m ≥ 1),
// on many shapes: n below, at and across the 128-row block, k below, at and across the 4-wide
// vector (including k < 4 and row strides > k), m = 1 … 17 (chunks of 4 plus every remainder).
//
// Tolerance. The thresholds c_j are placed mid-gap in the reference values y s ⟨w_j, z⟩, the
// half-gap exceeding twice the worst-case error of a float dot product (k·u·s·Σ|z w|, u = 2⁻²⁴),
// so the float margins select exactly the reference's active rows (no ties). Then the only differences are the kernel's float
// arithmetic: each product y s z_ik is rounded once (y s is exact, y = ±1) and at most 128
// products are summed in float before the block total goes to double. Recursive float summation
// of b terms errs by at most (b − 1)·u·Σ|terms| (u = 2⁻²⁴), the products by u·Σ|terms|, and the
// double additions and the final scaling are ~2⁻⁵³; so per coordinate
//   |kernel − reference| ≤ 128·u·(1/c_j)·Σ_{active i} |s_i z_ik|  (+ tiny double terms),
// checked with factor 1.01 — a worst-case bound, not a fitted constant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "dpmargin/learn/kernels.hpp"
#include "dpmargin/learn/noisy_gd.hpp"

namespace dpmargin::learn {
namespace {

struct Problem {
  std::size_t n, k, m, stride;
  std::vector<float> z, s;
  std::vector<std::int8_t> y;
  Eigen::MatrixXf w;
  Eigen::VectorXd c;
  ClippedRows rows() const { return {z.data(), stride, s.data(), y.data(), n, k}; }
};

// Random rows (a third scaled by s < 1), labels, weights; thresholds in gaps of the margins.
Problem makeProblem(std::size_t n, std::size_t k, std::size_t m, std::size_t pad,
                    std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Problem p{n, k, m, k + pad, {}, {}, {}, {}, {}};
  p.z.resize(n * p.stride);
  for (auto& v : p.z) v = static_cast<float>(normal(rng));
  p.s.resize(n);
  for (auto& v : p.s) v = unit(rng) < 1.0 / 3 ? static_cast<float>(0.05 + 0.9 * unit(rng)) : 1.0f;
  p.y.resize(n);
  for (auto& v : p.y) v = unit(rng) < 0.5 ? 1 : -1;
  p.w.resize(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(m));
  p.c.resize(static_cast<Eigen::Index>(m));
  for (std::size_t j = 0; j < m; ++j) {
    // A mean along y makes most margins positive, so c > 0 can sit at any activity level.
    for (std::size_t t = 0; t < k; ++t) p.w(Eigen::Index(t), Eigen::Index(j)) = float(normal(rng) / std::sqrt(double(k)));
    std::vector<double> values(n);
    double scale = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double dot = 0, abs = 0;
      for (std::size_t t = 0; t < k; ++t) {
        dot += double(p.z[i * p.stride + t]) * double(p.w(Eigen::Index(t), Eigen::Index(j)));
        abs += std::abs(double(p.z[i * p.stride + t]) * double(p.w(Eigen::Index(t), Eigen::Index(j))));
      }
      values[i] = std::abs(double(p.y[i]) * double(p.s[i]) * dot);  // |·|: flip y to make it > 0
      if (double(p.y[i]) * dot < 0) p.y[i] = static_cast<std::int8_t>(-p.y[i]);
      // …but keep ~20% of rows misclassified (always active) for a realistic mix.
      if (unit(rng) < 0.2) p.y[i] = static_cast<std::int8_t>(-p.y[i]), values[i] = -values[i];
      scale = std::max(scale, double(p.s[i]) * abs);
    }
    std::sort(values.begin(), values.end());
    // The widest gap among positive values in a window around a random activity level.
    const double level = 0.2 + 0.75 * unit(rng);
    const auto centre = static_cast<std::ptrdiff_t>(level * double(n));
    double best = -1, c = 0;
    for (std::ptrdiff_t i = std::max<std::ptrdiff_t>(0, centre - 24);
         i <= std::min<std::ptrdiff_t>(std::ptrdiff_t(n), centre + 24); ++i) {
      const double lo = i == 0 ? 0.0 : std::max(0.0, values[std::size_t(i - 1)]);
      const double hi = i == std::ptrdiff_t(n) ? std::max(lo, 0.0) + 1.0 : values[std::size_t(i)];
      if (hi > lo && hi - lo > best) best = hi - lo, c = 0.5 * (lo + hi);
    }
    if (c <= 0) c = values.back() + 1.0;  // every row active
    EXPECT_GT(best, 4 * double(k) * std::ldexp(1.0, -24) * std::max(scale, c))
        << "no clean threshold (n " << n << ", k " << k << ")";
    p.c[Eigen::Index(j)] = c;
  }
  return p;
}

// Reference: double margins, exact products, double sums; also Σ|s z| over active rows.
void reference(const Problem& p, Eigen::MatrixXd& out, Eigen::MatrixXd& absSum) {
  out = Eigen::MatrixXd::Zero(Eigen::Index(p.k), Eigen::Index(p.m));
  absSum = out;
  for (std::size_t j = 0; j < p.m; ++j) {
    for (std::size_t i = 0; i < p.n; ++i) {
      const float* z = &p.z[i * p.stride];
      double dot = 0;
      for (std::size_t t = 0; t < p.k; ++t) dot += double(z[t]) * double(p.w(Eigen::Index(t), Eigen::Index(j)));
      const double ys = double(p.y[i]) * double(p.s[i]);
      if (!(ys * dot < p.c[Eigen::Index(j)])) continue;
      for (std::size_t t = 0; t < p.k; ++t) {
        out(Eigen::Index(t), Eigen::Index(j)) += ys * double(z[t]);
        absSum(Eigen::Index(t), Eigen::Index(j)) += std::abs(ys * double(z[t]));
      }
    }
    out.col(Eigen::Index(j)) *= -1.0 / p.c[Eigen::Index(j)];
    absSum.col(Eigen::Index(j)) /= p.c[Eigen::Index(j)];
  }
}

void expectWithinBound(const Eigen::MatrixXd& got, const Eigen::MatrixXd& want,
                       const Eigen::MatrixXd& absSum, const char* what, const Problem& p) {
  const double u = std::ldexp(1.0, -24);
  for (Eigen::Index j = 0; j < want.cols(); ++j)
    for (Eigen::Index t = 0; t < want.rows(); ++t) {
      const double bound = 1.01 * 128 * u * absSum(t, j) + 1e-300;
      ASSERT_LE(std::abs(got(t, j) - want(t, j)), bound)
          << what << ": n " << p.n << " k " << p.k << " m " << p.m << " stride " << p.stride
          << " at (" << t << ", " << j << ") got " << got(t, j) << " want " << want(t, j);
    }
}

TEST(GradientKernel, MatchesTheDoubleReferenceOnManyShapes) {
  std::mt19937_64 rng(20240611);
  const std::size_t shapes[][2] = {{1, 5},   {3, 1},    {7, 2},   {50, 3},   {127, 4},
                                   {128, 9}, {129, 13}, {200, 8}, {255, 33}, {300, 122},
                                   {517, 7}, {1000, 51}, {390, 785}};
  for (const auto& nk : shapes) {
    for (std::size_t m = 1; m <= 17; ++m) {
      const std::size_t pad = (m % 3 == 0) ? 3 : 0;  // some row strides > k
      const Problem p = makeProblem(nk[0], nk[1], m, pad, rng);
      Eigen::MatrixXd want, absSum;
      reference(p, want, absSum);
      // Batched entry point (stale scratch on entry must not matter).
      Eigen::MatrixXf block = Eigen::MatrixXf::Constant(Eigen::Index(p.k), Eigen::Index(m), 7.0f);
      Eigen::MatrixXd got = Eigen::MatrixXd::Constant(Eigen::Index(p.k), Eigen::Index(m), 3.0);
      std::vector<double> compensation(p.k * m, 5.0);  // stale scratch on entry must not matter
      kernels::hingeGradients(p.rows(), p.c.data(), p.w.data(), p.k, m, block.data(), compensation.data(), got.data());
      expectWithinBound(got, want, absSum, "batched", p);
      if (::testing::Test::HasFatalFailure()) return;
      // Single-candidate entry point, candidate by candidate.
      for (std::size_t j = 0; j < m; ++j) {
        Eigen::VectorXf wj = p.w.col(Eigen::Index(j));
        Eigen::VectorXf scratch = Eigen::VectorXf::Constant(Eigen::Index(p.k), -1.0f);
        Eigen::VectorXd g(Eigen::Index(p.k));
        hingeGradientSum(p.rows(), p.c[Eigen::Index(j)], wj, scratch, g);
        expectWithinBound(g, want.col(Eigen::Index(j)), absSum.col(Eigen::Index(j)), "single", p);
        if (::testing::Test::HasFatalFailure()) return;
        // Same float arithmetic per candidate: the batched column is the single result exactly.
        EXPECT_EQ(g, got.col(Eigen::Index(j))) << "n " << p.n << " k " << p.k << " m " << m;
      }
    }
  }
}

TEST(GradientKernel, NoActiveRowGivesZeroAndEmptyInputIsZero) {
  const std::size_t n = 300, k = 6;
  std::vector<float> z(n * k, 0.5f), s(n, 1.0f);
  std::vector<std::int8_t> y(n, 1);
  const ClippedRows rows{z.data(), k, s.data(), y.data(), n, k};
  Eigen::MatrixXf w = Eigen::MatrixXf::Constant(Eigen::Index(k), 5, 1.0f);  // margins 3 ≥ c
  Eigen::VectorXd c = Eigen::VectorXd::Constant(5, 0.5);
  Eigen::MatrixXf block(Eigen::Index(k), 5);
  Eigen::MatrixXd out = Eigen::MatrixXd::Constant(Eigen::Index(k), 5, 9.0);
  std::vector<double> compensation(k * 5);
  kernels::hingeGradients(rows, c.data(), w.data(), k, 5, block.data(), compensation.data(), out.data());
  EXPECT_TRUE((out.array() == 0.0).all());
  const ClippedRows none{z.data(), k, s.data(), y.data(), 0, k};
  out.setConstant(9.0);
  kernels::hingeGradients(none, c.data(), w.data(), k, 5, block.data(), compensation.data(), out.data());
  EXPECT_TRUE((out.array() == 0.0).all());
}

// Per-candidate skipping of inactive rows, exactly: with w_j = e_t (a unit vector) the margin
// is z_it exactly, so the active set of each candidate is known in float, and its gradient is
// the float sum of y s z over those rows in row order per 128-row block, Kahan-added in double
// — computed here directly. Candidates with very different activity share one call (none,
// a few rows per sub-block, about half, all), so most rows are active for one and skipped for
// another.
TEST(GradientKernel, SkipsInactiveRowsPerCandidateExactly) {
  std::mt19937_64 rng(18);
  std::normal_distribution<float> normal;
  std::uniform_real_distribution<float> unit;
  for (std::size_t k : {3, 37, 40, 130}) {
    const std::size_t n = 1000, m = 6, stride = k + 1;
    std::vector<float> z(n * stride), s(n);
    std::vector<std::int8_t> y(n);
    for (auto& v : z) v = normal(rng);
    for (auto& v : s) v = unit(rng) < 0.3f ? unit(rng) : 1.0f;
    for (auto& v : y) v = unit(rng) < 0.5f ? 1 : -1;
    const ClippedRows rows{z.data(), stride, s.data(), y.data(), n, k};
    Eigen::MatrixXf w = Eigen::MatrixXf::Zero(Eigen::Index(k), Eigen::Index(m));
    const double c[m] = {-1e30, -1.5, 0.01, 1e30, -0.3, 2.0};  // none, ~5 %, ~half, all, …
    for (std::size_t j = 0; j < m; ++j) w(Eigen::Index(j % k), Eigen::Index(j)) = 1.0f;
    const auto ki = static_cast<Eigen::Index>(k), mi = static_cast<Eigen::Index>(m);
    Eigen::MatrixXf block(ki, mi);
    Eigen::MatrixXd got(ki, mi);
    std::vector<double> compensation(k * m);
    kernels::hingeGradients(rows, c, w.data(), k, m, block.data(), compensation.data(), got.data());
    for (std::size_t j = 0; j < m; ++j) {
      const std::size_t e = j % k;
      std::vector<double> want(k, 0.0), comp(k, 0.0);
      std::size_t active = 0;
      for (std::size_t b = 0; b < n; b += kernels::kRowsPerBlock) {
        std::vector<float> g(k, 0.0f);
        bool any = false;
        for (std::size_t i = b; i < std::min(n, b + kernels::kRowsPerBlock); ++i) {
          const float ys = float(y[i]) * s[i];
          const float margin = ys * z[i * stride + e];
          if (!(margin < float(c[j])) || ys == 0.0f) continue;
          any = true;
          ++active;
          for (std::size_t t = 0; t < k; ++t) {
            const float product = ys * z[i * stride + t];
            g[t] = g[t] + product;
          }
        }
        if (!any) continue;
        for (std::size_t t = 0; t < k; ++t) {
          const double v = double(g[t]) - comp[t], sum = want[t] + v;
          comp[t] = (sum - want[t]) - v;
          want[t] = sum;
        }
      }
      if (j == 0) {
        EXPECT_EQ(active, 0u);
      } else if (j == 3) {
        EXPECT_EQ(active, n);
      } else if (j == 1) {
        EXPECT_LT(active, n / 10);
      }
      for (std::size_t t = 0; t < k; ++t) {
        const double expected = want[t] * (-1.0 / c[j]);
        EXPECT_EQ(got(Eigen::Index(t), Eigen::Index(j)), expected)
            << "k " << k << " candidate " << j << " (" << active << " active rows) at " << t;
      }
      // And the single-candidate entry point gives the same column.
      Eigen::VectorXf wj = w.col(Eigen::Index(j)), scratch(ki);
      Eigen::VectorXd single(ki);
      hingeGradientSum(rows, c[j], wj, scratch, single);
      EXPECT_EQ(single, got.col(Eigen::Index(j))) << "k " << k << " candidate " << j;
    }
  }
}

}  // namespace
}  // namespace dpmargin::learn
