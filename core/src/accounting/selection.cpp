// Accounting of private selection, SPEC §2.6: Iter (paper Algo 2), PrivTune (paper Algo 3)
// with the paper's Lemma, and Papernot–Steinke 2022 Thm 2 converted to (ε, δ).
#include "dpmargin/accounting/selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/error.hpp"
#include "math/solve.hpp"

namespace dpmargin::accounting {
namespace {

// s = sqrt(2 ln(1/(rδ))), with ln(1/(rδ)) summed in logs (rδ may underflow).
double privtuneScale(double r, double delta) {
  return std::sqrt(-2.0 * (std::log(r) + std::log(delta)));
}

void validatePrivtune(double r, double delta) {
  requireOpenUnit("r", r);
  requireOpenUnit("delta", delta);
}

// γ is the TNB's r; named as the caller knows it.
void validatePs22Tnb(double eta, double gamma) {
  validateTnb({eta, 0.5});
  requireOpenUnit("gamma", gamma);
}

void validatePs22(double mu, double eta, double gamma) {
  requirePositive("mu", mu);
  validatePs22Tnb(eta, gamma);
}

// Papernot–Steinke 2022 Thm 2 with base RDP ε(λ) = λμ²/2 (Gaussian, μ-GDP):
//   ε_sel(λ) = ε(λ) + (1+η)(1 − 1/λ̂) ε(λ̂) + (1+η) ln(1/γ)/λ̂ + ln E[K]/(λ−1),
// where (1 − 1/λ̂)ε(λ̂) = (λ̂−1)μ²/2. Over λ̂ ≥ 1 the convex h(λ̂) = (λ̂−1)μ²/2 + ln(1/γ)/λ̂ is
// minimised at λ̂* = sqrt(2 ln(1/γ))/μ, giving μ·sqrt(2 ln(1/γ)) − μ²/2, or at λ̂ = 1 (ln(1/γ))
// when λ̂* < 1.
double ps22RdpUnchecked(double mu, double eta, double logMean, double logInvGamma,
                        double lambda) {
  const double root = std::sqrt(2.0 * logInvGamma);
  const double h = root >= mu ? mu * root - 0.5 * mu * mu : logInvGamma;
  return 0.5 * lambda * mu * mu + (1.0 + eta) * h + logMean / (lambda - 1.0);
}

// Canonne–Kamath–Steinke 2020 (The Discrete Gaussian for DP), RDP → DP conversion:
// (λ, ρ)-RDP ⇒ (ρ + ln((λ−1)/λ) − (ln δ + ln λ)/(λ−1), δ)-DP; tighter than Mironov's by the
// ln((λ−1)/λ) − ln λ/(λ−1) terms.
double cksUnchecked(double rdp, double lambda, double delta) {
  return rdp + std::log1p(-1.0 / lambda) - (std::log(delta) + std::log(lambda)) / (lambda - 1.0);
}

// min over λ > 1 of the CKS conversion, in t = ln(λ − 1): a coarse scan of t ∈ [−30, 60]
// (λ − 1 from 1e-13 to 1e26) locates the basin, Brent's method refines it. The objective is
// smooth and unimodal in practice (a sum of an increasing linear term and decreasing 1/(λ−1)
// terms plus slowly varying logs); the scan makes the result robust even if it were not.
double ps22EpsilonUnchecked(double mu, double eta, double gamma, double delta) {
  const double logMean = std::log(tnbMean({eta, gamma}));
  const double logInvGamma = -std::log(gamma);
  auto objective = [&](double t) {
    const double lambda = 1.0 + std::exp(t);
    const double value =
        cksUnchecked(ps22RdpUnchecked(mu, eta, logMean, logInvGamma, lambda), lambda, delta);
    return std::isnan(value) ? std::numeric_limits<double>::infinity() : value;
  };
  constexpr double kLow = -30.0, kHigh = 60.0, kStep = 0.25;
  constexpr int kSteps = static_cast<int>((kHigh - kLow) / kStep);
  int best = 0;
  double bestValue = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= kSteps; ++i) {
    const double value = objective(kLow + kStep * i);
    if (value < bestValue) {
      bestValue = value;
      best = i;
    }
  }
  const double a = kLow + kStep * std::max(best - 1, 0);
  const double b = kLow + kStep * std::min(best + 1, kSteps);
  const math::Minimum refined = math::minimizeBrent(objective, a, b);
  // Any single λ gives a valid guarantee, so the smaller of the two evaluated values is one.
  // An ε below 0 carries no extra meaning: (0, δ)-DP is the strongest statement.
  return std::max(0.0, std::min(refined.value, bestValue));
}

}  // namespace

IterSplit iterSplit(double muTotal, std::uint64_t candidates, double scoreSensitivity) {
  requirePositive("muTotal", muTotal);
  if (candidates < 1) throwBadParameter("candidates", "at least 1", 0.0);
  requirePositive("scoreSensitivity", scoreSensitivity);
  // 2m Gaussian mechanisms (m runs, m scores) each (μ/sqrt(2m))-GDP compose to exactly μ-GDP
  // (paper Algo 2); a score of sensitivity Δ_U with noise sd Δ_U·sqrt(2m)/μ is μ/sqrt(2m)-GDP.
  const double twoM = 2.0 * static_cast<double>(candidates);
  IterSplit split{};
  split.muRun = muTotal / std::sqrt(twoM);
  split.scoreVariance = twoM * (scoreSensitivity / muTotal) * (scoreSensitivity / muTotal);
  split.scoreSd = std::sqrt(twoM) * scoreSensitivity / muTotal;
  return split;
}

IterSplit selectionSplit(double muTotal, std::uint64_t candidates, double runShare,
                         double scoreSensitivity) {
  requirePositive("muTotal", muTotal);
  if (candidates < 1) throwBadParameter("candidates", "at least 1", 0.0);
  requireOpenUnit("runShare", runShare);
  requirePositive("scoreSensitivity", scoreSensitivity);
  // m runs at μ_run = μ√(s/m) and m scores at μ_score = μ√((1−s)/m) (noise sd Δ_U/μ_score):
  // m·μ_run² + m·μ_score² = μ², exactly μ-GDP by GDP composition.
  const double m = static_cast<double>(candidates);
  const double scoreMu = muTotal * std::sqrt((1.0 - runShare) / m);
  IterSplit split{};
  split.muRun = muTotal * std::sqrt(runShare / m);
  split.scoreSd = scoreSensitivity / scoreMu;
  split.scoreVariance = split.scoreSd * split.scoreSd;
  return split;
}

double privtunePaperEpsilon(double mu, double r, double delta) {
  requirePositive("mu", mu);
  validatePrivtune(r, delta);
  // Paper's Lemma (Koskela–Redberg–Wang 2024): 1.5μ² + 3μ·sqrt(2 ln(1/(rδ))) + δ.
  return 1.5 * mu * mu + 3.0 * mu * privtuneScale(r, delta) + delta;
}

double privtunePaperEpsilonRelaxed(double mu, double r, double delta) {
  requirePositive("mu", mu);
  validatePrivtune(r, delta);
  // The M′ theorem's form: drops 1.5μ² by bounding it with 3μs (valid while μ ≤ 2s).
  return 6.0 * mu * privtuneScale(r, delta) + delta;
}

double privtunePaperMu(double epsilon, double r, double delta) {
  requirePositive("epsilon", epsilon);
  validatePrivtune(r, delta);
  return epsilon / (6.0 * privtuneScale(r, delta));
}

double privtunePaperMuInverseLemma(double epsilon, double r, double delta) {
  requirePositive("epsilon", epsilon);
  validatePrivtune(r, delta);
  if (!(epsilon > delta)) throwBadParameter("epsilon", "greater than delta", epsilon);
  // Positive root of 1.5μ² + 3sμ − (ε − δ) = 0 as 2c/(b + sqrt(b² + 4ac)) (no cancellation),
  // then stepped down until the Lemma's ε does not exceed the target in floating point.
  const double s = privtuneScale(r, delta);
  const double c = epsilon - delta;
  // 6c overflows above DBL_MAX/6 (the NaN then lost to std::min in the plan, which kept a μ
  // whose Lemma ε is +∞): there, the same root as (q/3)/(t + hypot(t, 1)), q = √(6c), t = 3s/q.
  const double q = std::sqrt(6.0) * std::sqrt(c);
  double mu = c < 0x1p1020 ? 2.0 * c / (3.0 * s + std::sqrt(9.0 * s * s + 6.0 * c))
                           : (q / 3.0) / (3.0 * s / q + std::hypot(3.0 * s / q, 1.0));
  while (mu > 0.0 && 1.5 * mu * mu + 3.0 * mu * s + delta > epsilon) mu = std::nextafter(mu, 0.0);
  return mu;
}

double ps22Rdp(double mu, double eta, double gamma, double lambda) {
  validatePs22(mu, eta, gamma);
  if (!(std::isfinite(lambda) && lambda > 1.0)) {
    throwBadParameter("lambda", "finite and > 1", lambda);
  }
  return ps22RdpUnchecked(mu, eta, std::log(tnbMean({eta, gamma})), -std::log(gamma), lambda);
}

double rdpToDpCks(double rdp, double lambda, double delta) {
  requireNonNegative("rdp", rdp);
  if (!(std::isfinite(lambda) && lambda > 1.0)) {
    throwBadParameter("lambda", "finite and > 1", lambda);
  }
  requireOpenUnit("delta", delta);
  return cksUnchecked(rdp, lambda, delta);
}

double rdpToDpMironov(double rdp, double lambda, double delta) {
  requireNonNegative("rdp", rdp);
  if (!(std::isfinite(lambda) && lambda > 1.0)) {
    throwBadParameter("lambda", "finite and > 1", lambda);
  }
  requireOpenUnit("delta", delta);
  // Mironov 2017 Prop. 3.
  return rdp - std::log(delta) / (lambda - 1.0);
}

double ps22Epsilon(double mu, double eta, double gamma, double delta) {
  validatePs22(mu, eta, gamma);
  requireOpenUnit("delta", delta);
  return ps22EpsilonUnchecked(mu, eta, gamma, delta);
}

double ps22Mu(double epsilon, double eta, double gamma, double delta) {
  requirePositive("epsilon", epsilon);
  validatePs22Tnb(eta, gamma);
  requireOpenUnit("delta", delta);
  // ε(μ) is increasing (every term of the RDP is) and tends to 0 as μ → 0 (at λ → ∞).
  auto within = [&](double mu) { return ps22EpsilonUnchecked(mu, eta, gamma, delta) <= epsilon; };
  double lo = epsilon;
  while (!within(lo)) {
    lo *= 0.25;
    if (!(lo > 1e-300)) throwBadParameter("epsilon", "attainable by some mu > 1e-300", epsilon);
  }
  double hi = 2.0 * lo;
  while (within(hi)) {
    // ε(μ) ≥ μ²/2 overflows to +∞ (not within) before μ reaches 1e155, so for any finite ε
    // the bracket closes below this cap (a cap of 1e150 failed for ε above ~1e300).
    if (hi > 1e300) throw Error(ErrorCode::kInternal, "", "ps22Mu: no bracket found");
    lo = hi;
    hi *= 2.0;
  }
  // Rounded down: the lower end of the final bracket satisfies the constraint.
  return math::bisectBoundary(within, lo, hi).first;
}

}  // namespace dpmargin::accounting
