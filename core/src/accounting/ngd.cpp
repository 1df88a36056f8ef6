// Parameters of noisy gradient descent on the c-hinge loss, SPEC §2.4 (paper Algo 4).
#include "dpmargin/accounting/ngd.hpp"

#include <cmath>
#include <initializer_list>
#include <limits>

#include "dpmargin/error.hpp"
#include "math/double_double.hpp"

namespace dpmargin::accounting {
namespace {

using math::DD;

constexpr double kTwoTo64 = 18446744073709551616.0;

void requireN(std::uint64_t n) {
  if (n < 2) throwBadParameter("n", "at least 2", static_cast<double>(n));
}

void requireCount(const char* name, std::uint64_t value) {
  if (value < 1) throwBadParameter(name, "at least 1", 0.0);
}

// n²μ² in double-double (for the quotient in ngdIterationsBound).
DD squaredBudget(std::uint64_t n, double mu) {
  const DD a = math::twoProduct(static_cast<double>(n), mu);
  DD square = math::twoProduct(a.hi, a.hi);
  square.lo += 2.0 * a.hi * a.lo + a.lo * a.lo;
  return math::quickTwoSum(square.hi, square.lo);
}

// Sign of the exact sum of a few doubles: Shewchuk's (1997) Grow-Expansion turns them into a
// nonoverlapping expansion with components of increasing magnitude, whose sign is the sign of
// its largest nonzero component. No rounding is involved.
int exactSumSign(std::initializer_list<double> terms) {
  double expansion[8];
  int size = 0;
  for (double b : terms) {
    double q = b;
    for (int i = 0; i < size; ++i) {
      const DD s = math::twoSum(q, expansion[i]);
      expansion[i] = s.lo;
      q = s.hi;
    }
    expansion[size++] = q;
  }
  for (int i = size - 1; i >= 0; --i) {
    if (expansion[i] != 0.0) return expansion[i] > 0.0 ? 1 : -1;
  }
  return 0;
}

// ⌈n²μ²⌉ of the exact real product of the inputs (n = 20000, μ = 0.01 gives 40001: the double
// 0.01 is slightly above 1/100). n·μ = a_hi + a_lo exactly (TwoProduct; n < 2⁵³ is exact as a
// double), so n²μ² = a_hi² + 2a_hi·a_lo + a_lo², each product again split exactly into two
// doubles. The candidate c = ⌈fl(a_hi²)⌉ is off by at most one, and the sign of n²μ² − c (and
// of n²μ² − (c − 1)) is decided exactly, also when n²μ² is an integer.
double ceilOfSquare(std::uint64_t n, double mu) {
  const DD a = math::twoProduct(static_cast<double>(n), mu);
  const DD square = math::twoProduct(a.hi, a.hi);
  const DD cross = math::twoProduct(2.0 * a.hi, a.lo);
  const DD tiny = math::twoProduct(a.lo, a.lo);
  if (!(square.hi < 0x1p50)) return square.hi + cross.hi;  // beyond any usable T
  if (square.hi + cross.hi < 0.5) return 1.0;
  const double c = std::ceil(square.hi);
  auto signMinus = [&](double m) {  // sign of n²μ² − m; square.hi − m is exact (Sterbenz)
    return exactSumSign({tiny.lo, tiny.hi, cross.lo, square.lo, cross.hi, square.hi - m});
  };
  if (signMinus(c) > 0) return c + 1.0;
  if (signMinus(c - 1.0) <= 0) return c - 1.0;
  return c;
}

std::uint64_t toCount(double c) {
  if (!(c < kTwoTo64)) return std::numeric_limits<std::uint64_t>::max();  // saturate
  return c < 1.0 ? 1 : static_cast<std::uint64_t>(c);
}

}  // namespace

double hingeSensitivity(double clipRadius, double c) {
  requirePositive("clipRadius", clipRadius);
  requirePositive("c", c);
  // Each row's subgradient of max(0, 1 − y⟨w,z⟩/c) has norm ≤ R/c; replacing one row moves
  // the sum by at most twice that (replace-one neighbours, SPEC §1).
  return 2.0 * clipRadius / c;
}

std::uint64_t ngdIterationsPaper(std::uint64_t n, double muRun) {
  requireN(n);
  requirePositive("muRun", muRun);
  return toCount(ceilOfSquare(n, muRun));
}

std::uint64_t ngdIterationsBound(std::uint64_t n, double muRun, std::uint64_t k, double tol) {
  requireN(n);
  requirePositive("muRun", muRun);
  requireCount("k", k);
  requirePositive("tol", tol);
  // sqrt(n²/T + k/μ²) ≤ (1 + tol)·sqrt(k)/μ  ⇔  T ≥ n²μ² / (k((1 + tol)² − 1)), with
  // (1 + tol)² − 1 = tol(2 + tol) formed exactly enough that the ceiling is the real one.
  const DD growth = math::ddMul(math::twoSum(2.0, tol), tol);
  const DD denominator = math::ddMul(growth, static_cast<double>(k));
  return toCount(math::ddCeil(math::ddDiv(squaredBudget(n, muRun), denominator)));
}

double floatSumSlack(std::uint64_t n) {
  const double u = 0x1p-24, v = 0x1p-53;
  const double gamma127 = 127 * u / (1 - 127 * u);
  const double block = 128 * gamma127;  // one block of 128 float terms, each of norm ≤ R
  return block + 12.001 * v * static_cast<double>(n) * (1 + block);
}

double ngdSigma(double sensitivity, std::uint64_t T, double muRun) {
  requirePositive("sensitivity", sensitivity);
  requireCount("T", T);
  requirePositive("muRun", muRun);
  // T Gaussian steps of sensitivity Δ and noise σ are each (Δ/σ)-GDP and compose to
  // (√T·Δ/σ)-GDP; setting that to μ_run gives σ = Δ√T/μ_run.
  return sensitivity * std::sqrt(static_cast<double>(T)) / muRun;
}

double ngdStepSize(std::uint64_t n, double sensitivity, std::uint64_t k, double sigma,
                   std::uint64_t T, double D) {
  requireN(n);
  requirePositive("sensitivity", sensitivity);
  requireCount("k", k);
  requireNonNegative("sigma", sigma);
  requireCount("T", T);
  requirePositive("D", D);
  // η = D / sqrt(T (n²Δ² + kσ²)) (paper Algo 4), via hypot to avoid overflow of the squares.
  const double gradientScale =
      std::hypot(static_cast<double>(n) * sensitivity, std::sqrt(static_cast<double>(k)) * sigma);
  return D / (std::sqrt(static_cast<double>(T)) * gradientScale);
}

double ngdUtilityBound(std::uint64_t n, double sensitivity, std::uint64_t k, double muRun,
                       std::uint64_t T, double D) {
  requireN(n);
  requirePositive("sensitivity", sensitivity);
  requireCount("k", k);
  requirePositive("muRun", muRun);
  requireCount("T", T);
  requirePositive("D", D);
  // 2DΔ·sqrt(n²/T + k/μ²) (paper, Thm for Algo 4 with σ = Δ√T/μ substituted).
  // Δ inside the hypot: 2DΔ can underflow to 0 while the hypot overflows (0·∞ = NaN, found by
  // fuzzing); this way an extreme input gives at worst +∞, an upper bound.
  return 2.0 * D *
         std::hypot(sensitivity * (static_cast<double>(n) / std::sqrt(static_cast<double>(T))),
                    sensitivity * (std::sqrt(static_cast<double>(k)) / muRun));
}

double ngdUtilityFloor(double sensitivity, std::uint64_t k, double muRun, double D) {
  requirePositive("sensitivity", sensitivity);
  requireCount("k", k);
  requirePositive("muRun", muRun);
  requirePositive("D", D);
  // The T → ∞ limit of the bound above.
  return 2.0 * D * sensitivity * std::sqrt(static_cast<double>(k)) / muRun;
}

}  // namespace dpmargin::accounting
