// Johnson–Lindenstrauss projection dimension, SPEC §2.3 (Achlioptas 2003, Thm 1.1: a ±1/√k
// matrix preserves the squared norms of N fixed vectors within 1 ± e, each with failure
// probability ≤ 2·exp(−k(e²/4 − e³/6))).
#include "dpmargin/accounting/jl.hpp"

#include <cmath>
#include <limits>

#include "dpmargin/error.hpp"

namespace dpmargin::accounting {
namespace {

// e²/4 − e³/6 = e²(3 − 2e)/12, positive for e < 3/2.
double exponentRate(double e) { return e * e * (3.0 - 2.0 * e) / 12.0; }

void validateGammaB(double gamma, double b) {
  requirePositive("b", b);
  requirePositive("gamma", gamma);
  if (gamma > b) throwBadParameter("gamma", "at most b", gamma);
}

}  // namespace

double jlDistortion(double gamma, double b) {
  validateGammaB(gamma, b);
  return gamma / (3.0 * b);
}

std::uint64_t jlDimension(double gamma, std::uint64_t n, std::uint64_t gridSize, double beta,
                          double b) {
  validateGammaB(gamma, b);
  if (n < 2) throwBadParameter("n", "at least 2", static_cast<double>(n));
  if (gridSize < 1) throwBadParameter("gridSize", "at least 1", 0.0);
  requireOpenUnit("beta", beta);
  const double e = gamma / (3.0 * b);
  // Union bound over N = 3n + 1 vectors and |Γ| margins: 2·N·|Γ|·exp(−k·rate) ≤ β.
  // ln(2N|Γ|/β) as a sum of logs (the product can exceed 2⁶⁴).
  const double vectors = 3.0 * static_cast<double>(n) + 1.0;
  const double logCount = std::log(2.0) + std::log(vectors) +
                          std::log(static_cast<double>(gridSize)) - std::log(beta);
  const double k = std::ceil(logCount / exponentRate(e));
  // Saturate: beyond 2⁶⁴ the caller skips the projection anyway (k ≥ d).
  if (!(k < 18446744073709551616.0)) return std::numeric_limits<std::uint64_t>::max();
  return k < 1.0 ? 1 : static_cast<std::uint64_t>(k);
}

double jlFailurePerVector(std::uint64_t k, double e) {
  if (k < 1) throwBadParameter("k", "at least 1", 0.0);
  requireOpenUnit("e", e);
  return 2.0 * std::exp(-static_cast<double>(k) * exponentRate(e));
}

}  // namespace dpmargin::accounting
