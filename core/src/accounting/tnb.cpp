// Truncated negative binomial TNB_{η,r} (Papernot & Steinke 2022), SPEC §2.6:
//   P(K = k) = (1−r)ᵏ/(r^(−η) − 1) · ∏_{l=0}^{k−1} (l+η)/(l+1),  k ≥ 1,
// = (1−r)ᵏ · W(k) · C with W(k) = ∏_{l=1}^{k−1} (l+η)/(l+1) = Γ(k+η)/(Γ(1+η) k!) and
// C = η/(r^(−η) − 1); η → 0 gives the logarithmic law (1−r)ᵏ/(k ln(1/r)).
// Everything is evaluated in logs / with expm1 and log1p so that η → 0, η < 0 and r → 0 are
// stable, and sums of the pmf use the exact ratio recurrence, re-anchored periodically.
#include "dpmargin/accounting/tnb.hpp"

#include <cmath>
#include <limits>

#include "dpmargin/error.hpp"
#include "math/solve.hpp"
#include "math/special.hpp"

namespace dpmargin::accounting {
namespace {

constexpr double kTwoTo63 = 9223372036854775808.0;

// |η| below this is evaluated as the η → 0 limit (the logarithmic law): the laws differ by
// O(|η| k ln(1/r)) < 1e-170 relative, while η·ln r would be subnormal and lose its digits
// (fuzzing: η = 5e-324 made the pmf sum to 1.02).
constexpr double kTinyEta = 1e-200;
bool limitEta(double eta) { return std::fabs(eta) < kTinyEta; }

// ln C = ln(η / (r^(−η) − 1)); for η > 0 written as ln η + η ln r − log1p(−r^η), which cannot
// overflow for large η; η = 0 is the limit −ln(ln(1/r)).
double logNormaliser(const Tnb& t) {
  const double logR = std::log(t.r);
  if (limitEta(t.eta)) return -std::log(-logR);
  if (t.eta > 0.0) {
    // ln(1 − e^x) for x = η ln r < 0, via expm1 near 0 (Mächler 2012, "log1mexp").
    const double x = t.eta * logR;
    const double log1mExp = x > -math::kLn2 ? std::log(-std::expm1(x)) : std::log1p(-std::exp(x));
    return std::log(t.eta) + x - log1mExp;
  }
  return std::log(t.eta / std::expm1(-t.eta * logR));
}

// Stirling remainder S(x) of ln Γ(x) = (x−½)ln x − x + ½ln 2π + S(x) (A&S 6.1.41); with x ≥ 31
// the omitted terms are < 1e-19.
double stirlingRemainder(double x) {
  const double y = 1.0 / (x * x);
  return (1.0 / 12.0 - y * (1.0 / 360.0 - y * (1.0 / 1260.0 - y * (1.0 / 1680.0 - y / 1188.0)))) /
         x;
}

// ln Γ(k+η) − ln Γ(k+1) for k ≥ 32 from the Stirling series, arranged so that the large
// terms cancel analytically: with a = η − 1 and ln(k+η) = ln(k+1) + log1p(a/(k+1)),
//   = a·ln(k+1) + [(k+η−½)·log1p(a/(k+1)) − a] + S(k+η) − S(k+1).
double logGammaRatio(double eta, std::uint64_t k) {
  const double a = eta - 1.0;
  const double kp1 = static_cast<double>(k) + 1.0;
  return a * std::log(kp1) + ((static_cast<double>(k) + eta - 0.5) * std::log1p(a / kp1) - a) +
         (stirlingRemainder(static_cast<double>(k) + eta) - stirlingRemainder(kp1));
}

constexpr std::uint64_t kStirlingFrom = 32;

// ln W(k) = ln Γ(k+η) − ln Γ(k+1) − ln Γ(1+η), accurate in absolute terms (hence the pmf in
// relative terms) also for large k, where a difference of lgamma values would lose digits:
// the product up to kStirlingFrom, then W(k) = W(32)·[Γ(k+η)/Γ(k+1)]/[Γ(32+η)/Γ(33)].
// (std::lgamma is avoided: it writes the global signgam, a data race under threads.)
double logW(double eta, std::uint64_t k) {
  if (eta == 1.0 || k == 1) return 0.0;
  const double a = eta - 1.0;
  const std::uint64_t direct = k < kStirlingFrom ? k : kStirlingFrom;
  double sum = 0.0;
  for (std::uint64_t l = 1; l < direct; ++l) sum += std::log1p(a / static_cast<double>(l + 1));
  if (k < kStirlingFrom) return sum;
  return sum + (logGammaRatio(eta, k) - logGammaRatio(eta, kStirlingFrom));
}

double logPmfUnchecked(const Tnb& t, std::uint64_t k) {
  return static_cast<double>(k) * std::log1p(-t.r) + logW(t.eta, k) + logNormaliser(t);
}

// pmf(l+1)/pmf(l) = (1−r)(l+η)/(l+1).
double ratio(const Tnb& t, std::uint64_t l) {
  return (1.0 - t.r) * (1.0 + (t.eta - 1.0) / (static_cast<double>(l) + 1.0));
}

// Neumaier-compensated running sum of positive terms.
struct Sum {
  double s = 0.0, c = 0.0;
  void add(double x) {
    const double u = s + x;
    c += std::fabs(s) >= std::fabs(x) ? (s - u) + x : (x - u) + s;
    s = u;
  }
  double value() const { return s + c; }
};

constexpr std::uint64_t kReanchor = 64;  // recompute the term from logs this often

// Σ_{l=1}^{k} pmf(l), or (with stopAt ∈ (0,1)) the smallest k whose partial sum reaches stopAt.
struct Forward {
  double sum;
  std::uint64_t k;
};
Forward forwardSum(const Tnb& t, std::uint64_t k, double stopAt) {
  Sum sum;
  double term = std::exp(logPmfUnchecked(t, 1));
  for (std::uint64_t l = 1;; ++l) {
    if (l % kReanchor == 0) term = std::exp(logPmfUnchecked(t, l));
    sum.add(term);
    if (l == k || (stopAt > 0.0 && sum.value() >= stopAt)) return {sum.value(), l};
    // Stop once the rest cannot change the sum (see tailSum): bounds the cost of cdf(k) for
    // huge k, and ends a quantile search whose q rounding leaves just out of reach.
    const double rho = ratio(t, l);
    const double sup = t.eta <= 1.0 ? 1.0 - t.r : rho;
    // An underflowed term ends the sum only past the mode (ρ ≤ 1): for η > 1 the pmf first
    // rises, and stopping at a zero before the mode gave cdf = sf = 0 and quantile = 1.
    if ((term == 0.0 && rho <= 1.0) ||
        (sup < 1.0 && term * sup / (1.0 - sup) <= 1e-17 * sum.value())) {
      return {sum.value(), l};
    }
    term *= rho;
  }
}

// Σ_{l>k} pmf(l), summed until the remainder is below 1e-17 of the sum or `budget` terms were
// added (then `converged` is false). The remainder after term t_l is at most t_l·ρ/(1−ρ) with ρ
// the supremum of the later ratios: (1−r) when η ≤ 1 (ratios increase towards 1−r), the
// current ratio when η > 1 (ratios decrease). The tail has ~40/r relevant terms.
struct Tail {
  double sum;
  bool converged;
};
Tail tailSum(const Tnb& t, std::uint64_t k, std::uint64_t budget) {
  Sum sum;
  double term = std::exp(logPmfUnchecked(t, k + 1));
  // l > k stops at the end of the 64-bit range (k + 1 wrapped to 0 summed pmf(0), pmf(1), …:
  // sf(2⁶⁴ − 1) came out 1.02).
  for (std::uint64_t l = k + 1; l > k && l - k <= budget; ++l) {
    if ((l - k) % kReanchor == 0) term = std::exp(logPmfUnchecked(t, l));
    sum.add(term);
    const double rho = ratio(t, l);
    const double sup = t.eta <= 1.0 ? 1.0 - t.r : rho;
    if ((term == 0.0 && rho <= 1.0) ||  // see forwardSum
        (sup < 1.0 && term * sup / (1.0 - sup) <= 1e-17 * sum.value())) {
      return {sum.value(), true};
    }
    term *= rho;
  }
  return {sum.value(), false};
}

// A short tail is summed directly before a long forward sum is attempted.
constexpr std::uint64_t kTailBudget = std::uint64_t{1} << 16;

// PGF from ln u, u = 1 − (1−r)s:  (u^(−η) − 1)/(r^(−η) − 1). For η > 0 rewritten as
// (r/u)^η · (1 − u^η)/(1 − r^η) so large η cannot overflow.
// Clamped to [0, 1]: at s → 1 the ratio is 1 up to rounding and came out 1 + 2⁻⁵² (fuzzing).
double pgfFromLogU(const Tnb& t, double logU) {
  const double logR = std::log(t.r);
  double pgf;
  if (limitEta(t.eta)) {
    pgf = logU / logR;
  } else if (t.eta > 0.0) {
    pgf = std::exp(t.eta * (logR - logU)) * std::expm1(t.eta * logU) / std::expm1(t.eta * logR);
  } else {
    pgf = std::expm1(-t.eta * logU) / std::expm1(-t.eta * logR);
  }
  return std::fmin(1.0, std::fmax(0.0, pgf));
}

// ln u for u = 1 − (1−r)s, s ∈ [0, 1]: log1p(−(1−r)s) while u ≥ ½, else ln((1−s) + rs).
double logU(double r, double s, double oneMinusS) {
  const double w = s * (1.0 - r);
  return w <= 0.5 ? std::log1p(-w) : std::log(oneMinusS + r * s);
}

// P(miss) = PGF(1 − 1/m), with 1 − s = 1/m passed exactly.
double missUnchecked(const Tnb& t, std::uint64_t m) {
  const double md = static_cast<double>(m);
  return pgfFromLogU(t, logU(t.r, 1.0 - 1.0 / md, 1.0 / md));
}

double meanUnchecked(const Tnb& t) {
  if (t.eta == 1.0) return 1.0 / t.r;
  const double logR = std::log(t.r);
  if (limitEta(t.eta)) return (1.0 - t.r) / (t.r * -logR);
  const double y = t.eta * logR;
  // η < 0 and tiny r: r^η = e^y overflows (the mean came out 0); r(1 − r^η) = e^(ln r + y)·expm1(−y).
  if (y > 700.0) return t.eta * (1.0 - t.r) / (std::exp(logR + y) * std::expm1(-y));
  return t.eta * (1.0 - t.r) / (t.r * -std::expm1(y));
}

// η ≤ 2⁵³: beyond, k + η is no longer exact for small k, the pmf's logs (of size ~η) cancel
// to noise, and near DBL_MAX they overflow (η = 1.8e308 gave a NaN log-pmf).
void requireEta(double eta) {
  if (!(eta > -1.0 && eta <= 0x1p53)) throwBadParameter("eta", "> -1 and <= 2^53", eta);
}

std::uint64_t requireK(std::uint64_t k) {
  if (k < 1) throwBadParameter("k", "at least 1", 0.0);
  return k;
}

constexpr double kLargestBelowOne = 1.0 - 0x1p-53;

}  // namespace

void validateTnb(const Tnb& tnb) {
  requireEta(tnb.eta);
  requireOpenUnit("r", tnb.r);
}

double tnbLogPmf(const Tnb& tnb, std::uint64_t k) {
  validateTnb(tnb);
  return logPmfUnchecked(tnb, requireK(k));
}

double tnbPmf(const Tnb& tnb, std::uint64_t k) { return std::exp(tnbLogPmf(tnb, k)); }

double tnbCdf(const Tnb& tnb, std::uint64_t k) {
  validateTnb(tnb);
  requireK(k);
  // η = 1 (geometric): 1 − (1−r)ᵏ.
  if (tnb.eta == 1.0) return -std::expm1(static_cast<double>(k) * std::log1p(-tnb.r));
  // Cost O(min(k, tail length ~40/r)).
  if (k > kTailBudget) {
    const Tail tail = tailSum(tnb, k, kTailBudget);
    if (tail.converged && tail.sum < 0.5) return 1.0 - tail.sum;
  }
  return std::fmin(1.0, forwardSum(tnb, k, 0.0).sum);
}

double tnbSf(const Tnb& tnb, std::uint64_t k) {
  validateTnb(tnb);
  requireK(k);
  if (tnb.eta == 1.0) return std::exp(static_cast<double>(k) * std::log1p(-tnb.r));
  // The tail summed directly is accurate at any size (sf(100) = 7.9e-31 at r = ½ would be 0
  // as 1 − cdf); when it is long, 1 − cdf is used while that is accurate (cdf ≤ 0.999 gives
  // ≤ 1e-13 relative). Cost O(min(k, tail length ~40/r)).
  // Clamped like tnbCdf: a sum of pmf terms evaluated in logs can exceed 1 by their rounding
  // (fuzzing: 1 + 3e-12 at η = 6.1e4).
  const Tail shortTail = tailSum(tnb, k, kTailBudget);
  if (shortTail.converged) return std::fmin(1.0, shortTail.sum);
  const double cdf = forwardSum(tnb, k, 0.0).sum;
  if (cdf <= 0.999) return 1.0 - cdf;
  return std::fmin(1.0, tailSum(tnb, k, std::numeric_limits<std::uint64_t>::max()).sum);
}

std::uint64_t tnbQuantile(const Tnb& tnb, double q) {
  validateTnb(tnb);
  requireOpenUnit("q", q);
  if (tnb.eta == 1.0) {
    // Invert 1 − (1−r)ᵏ ≥ q, then settle the rounding against the cdf itself.
    const double logKeep = std::log1p(-tnb.r);
    const double guess = std::ceil(std::log1p(-q) / logKeep);
    if (!(guess < kTwoTo63)) return std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t k = guess < 1.0 ? 1 : static_cast<std::uint64_t>(guess);
    auto reaches = [&](std::uint64_t j) {  // cdf(j) ≥ q; cdf(0) = 0
      return j > 0 && -std::expm1(static_cast<double>(j) * logKeep) >= q;
    };
    // Bracket lo < k' ≤ hi (reaches(hi), !reaches(lo)) by galloping from the guess, then
    // bisect: near q = 1 the cdf is flat in doubles over ~1e10 consecutive k for r = 1e-10, and
    // the former one-step walk from the guess ran that long (fuzzing).
    std::uint64_t lo = k, hi = k;
    if (reaches(k)) {
      for (std::uint64_t step = 1;; step *= 2) {
        lo = hi > step ? hi - step : 0;
        if (!reaches(lo)) break;
        hi = lo;
      }
    } else {
      for (std::uint64_t step = 1;; step *= 2) {
        hi = lo + step;
        if (hi >= std::uint64_t{1} << 63 || reaches(hi)) break;
        lo = hi;
      }
      if (!reaches(hi)) return hi;  // unreachable for q < 1: cdf(2⁶³) rounds to 1
    }
    while (hi - lo > 1) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      (reaches(mid) ? hi : lo) = mid;
    }
    return hi;
  }
  return forwardSum(tnb, 0, q).k;
}

double tnbMean(const Tnb& tnb) {
  validateTnb(tnb);
  return meanUnchecked(tnb);
}

double tnbPgf(const Tnb& tnb, double s) {
  validateTnb(tnb);
  if (!(s >= 0.0 && s <= 1.0)) throwBadParameter("s", "in [0, 1]", s);
  return pgfFromLogU(tnb, logU(tnb.r, s, 1.0 - s));
}

double tnbProbabilityMiss(const Tnb& tnb, std::uint64_t candidates) {
  validateTnb(tnb);
  if (candidates < 1) throwBadParameter("candidates", "at least 1", 0.0);
  // P(θ never drawn | K) = (1 − 1/m)^K, so P(miss) = E[(1 − 1/m)^K] = PGF(1 − 1/m).
  return missUnchecked(tnb, candidates);
}

double tnbRForMean(double eta, double mean) {
  requireEta(eta);
  if (!(std::isfinite(mean) && mean > 1.0)) throwBadParameter("mean", "finite and > 1", mean);
  if (eta == 1.0) {
    // The same floor on r as the search below: beyond it 1/mean is subnormal and inexact
    // (fuzzing: mean = DBL_MAX gave an r whose E[K] is +∞).
    if (!(mean <= 1e300)) throwBadParameter("mean", "attainable with r >= 1e-300 for this eta", mean);
    return 1.0 / mean;
  }
  // E[K] decreases from ∞ (r → 0) to 1 (r → 1).
  auto atLeast = [&](double r) { return meanUnchecked({eta, r}) >= mean; };
  if (atLeast(kLargestBelowOne)) return kLargestBelowOne;
  double lo = std::fmin(0.5, 1.0 / mean);
  while (!atLeast(lo)) {
    lo *= 1e-3;
    if (lo < 1e-300) throwBadParameter("mean", "attainable with r >= 1e-300 for this eta", mean);
  }
  return math::bisectBoundary(atLeast, lo, kLargestBelowOne).first;
}

double tnbRForMissProbability(double eta, std::uint64_t candidates, double beta) {
  requireEta(eta);
  if (candidates < 2) {
    throwBadParameter("candidates", "at least 2", static_cast<double>(candidates));
  }
  requireOpenUnit("beta", beta);
  const double m = static_cast<double>(candidates);
  // With K = 1 a candidate is missed with probability 1 − 1/m: no r is needed below that.
  if (!(beta < 1.0 - 1.0 / m)) throwBadParameter("beta", "less than 1 - 1/candidates", beta);
  // η = 1: PGF(1 − 1/m) = r(m−1)/(1 + r(m−1)) = β  ⇔  r = β/((1−β)(m−1)).
  if (eta == 1.0) {
    // Stepped down until P(miss) ≤ β holds as evaluated: the closed form rounds either way
    // (fuzzing: β = 1.34e-284, m = 984216 came out above β).
    double r = beta / ((1.0 - beta) * (m - 1.0));
    while (r > 0.0 && missUnchecked({1.0, r}, candidates) > beta) r = std::nextafter(r, 0.0);
    // β ≲ (m − 1)·5e-324: no positive double r is small enough (r = 0 is not a TNB).
    if (!(r > 0.0)) throwBadParameter("beta", "attainable with a double r > 0", beta);
    return r;
  }
  // P(miss) increases in r, from 1 − m^η (η < 0) or 0 (η ≥ 0) at r → 0 to 1 − 1/m at r → 1.
  auto within = [&](double r) { return missUnchecked({eta, r}, candidates) <= beta; };
  if (within(kLargestBelowOne)) return kLargestBelowOne;
  double lo = 0.5;
  while (!within(lo)) {
    lo *= 1e-3;
    if (lo < 1e-300) throwBadParameter("beta", "attainable with r >= 1e-300 for this eta", beta);
  }
  // Largest r with P(miss) ≤ β: the lower end of the final bracket.
  return math::bisectBoundary(within, lo, kLargestBelowOne).first;
}

}  // namespace dpmargin::accounting
