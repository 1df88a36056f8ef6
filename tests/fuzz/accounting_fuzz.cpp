// Fuzz target: the accountant. Bytes → one call of any function declared in
// core/include/dpmargin/accounting/*.hpp, with arbitrary doubles and counts.
// Properties (docs/reference/FUZZING.md):
//  - only dpmargin::Error (never INTERNAL) escapes;
//  - no result is NaN; results are finite except the documented infinities (gdpLogDelta may
//    be −∞ where δ < e^(−10³⁰⁰); saturated 64-bit counts) and the +∞ of an upper bound
//    (ε, σ, Δ, a utility bound, a penalty) whose exact value exceeds the double range — the
//    conservative direction (see kMayOverflow);
//  - probabilities lie in [0, 1];
//  - every inverse satisfies its defining inequality when it returns, in the form the core
//    decides it: gdpLogDelta(ε, gdpMu(ε, δ)) ≤ ln δ, gdpLogDelta(gdpEpsilon(μ, δ), μ) ≤ ln δ,
//    ps22Epsilon(ps22Mu(ε, …)) ≤ ε, the paper Lemma of its inverse ≤ ε, tnbMean(tnbRForMean(m))
//    ≥ m, tnbProbabilityMiss(tnbRForMissProbability(β)) ≤ β, cdf(quantile(q)) ≥ q.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/accounting/scores.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "fuzz_input.hpp"

namespace acc = dpmargin::accounting;
using dpmargin::fuzz::anyDouble;
using dpmargin::fuzz::fail;

namespace {

std::string show(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

// Not NaN; finite unless `mayOverflow` (+∞ only: an upper bound beyond the double range).
void result(const char* name, double v, bool mayOverflow = false) {
  if (std::isnan(v)) fail(name, "returned NaN");
  if (std::isinf(v) && !(mayOverflow && v > 0)) fail(name, "returned " + show(v));
}
constexpr bool kMayOverflow = true;

void probability(const char* name, double v) {
  result(name, v);
  if (!(v >= 0.0 && v <= 1.0)) fail(name, "probability outside [0, 1]: " + show(v));
}

// A count as core callers pass it: small, any 64-bit value, or the edges.
std::uint64_t anyU64Untraced(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.ConsumeIntegral<std::uint64_t>();
    case 1: return in.PickValueInArray<std::uint64_t>({0, 1, 2, 3, (1ull << 53), ~0ull});
    default: return in.ConsumeIntegralInRange<std::uint64_t>(0, 1 << 20);
  }
}
std::uint64_t anyU64(FuzzedDataProvider& in) {
  const std::uint64_t v = anyU64Untraced(in);
  if (dpmargin::fuzz::verbose()) std::fprintf(stderr, "  count %llu\n", (unsigned long long)v);
  return v;
}

// tnbCdf, tnbSf and tnbQuantile sum the pmf term by term for η ≠ 1: the bulk of TNB_{η,r}
// spans ~(max(η, 0) + 40)/r terms (tnb.cpp: "~40/r" for η ≤ 1; the mean is ≈ η/r), hours of
// work for r = 1e-10. Production samples η = 1 only (closed forms); for η ≠ 1 those three are
// fuzzed where that span is ≤ 4·10⁵ terms (η ≤ 10⁵, r raised as needed).
acc::Tnb boundedCost(acc::Tnb t) {
  if (t.eta == 1.0 || !(t.eta > -1.0 && t.r > 0.0 && t.r < 1.0)) return t;  // left to validation
  t.eta = std::min(t.eta, 1e5);
  const double minR = (std::max(t.eta, 0.0) + 40.0) / 4e5;
  if (t.r < minR) t.r = minR + t.r * (1.0 - minR);
  return t;
}

// Absolute accuracy of sums of the pmf: each term comes from logs of size up to
// ~(1 + |η|)(1 + |ln r|) + ln k, so it carries ~1e-16 of that as relative error.
double pmfSumTolerance(const acc::Tnb& t) {
  return 1e-14 * (1.0 + std::fabs(t.eta)) * (1.0 + std::fabs(std::log(t.r))) + 1e-12;
}

acc::Tnb anyTnb(FuzzedDataProvider& in) {
  const double eta = in.ConsumeBool() ? dpmargin::fuzz::traced(in.PickValueInArray({0.0, 1.0, 0.5, 2.0, -0.5}))
                                      : anyDouble(in, -1.0, 5.0);
  return {eta, anyDouble(in, 0.0, 1.0)};
}

// Arguments are drawn inside the call expressions: clang evaluates them left to right, so a
// corpus file always decodes to the same call (libFuzzer needs clang anyway).
void call(FuzzedDataProvider& in) {
  const int function = in.ConsumeIntegralInRange<int>(0, 41);
  if (dpmargin::fuzz::verbose()) std::fprintf(stderr, "case %d\n", function);
  switch (function) {
    // ---- gdp.hpp ----
    case 0: {
      std::vector<double> mus(in.ConsumeIntegralInRange<std::size_t>(0, 8));
      for (double& m : mus) m = anyDouble(in, 0.0, 2.0);
      const double mu = acc::composeGdp(mus);
      result("composeGdp", mu, kMayOverflow);
      if (mu < *std::max_element(mus.begin(), mus.end())) fail("composeGdp below its largest term");
      break;
    }
    case 1:
      result("composeGdp(mu, count)", acc::composeGdp(anyDouble(in, 0.0, 2.0), anyU64(in)),
             kMayOverflow);
      break;
    case 2:
      probability("gdpDelta", acc::gdpDelta(anyDouble(in, 0.0, 20.0), anyDouble(in, 0.0, 5.0)));
      break;
    case 3: {
      const double v = acc::gdpLogDelta(anyDouble(in, 0.0, 20.0), anyDouble(in, 0.0, 5.0));
      if (std::isnan(v) || v == std::numeric_limits<double>::infinity() || v > 0.0) {
        fail("gdpLogDelta", show(v));
      }
      break;
    }
    case 4: {
      const double mu = anyDouble(in, 0.0, 5.0), delta = anyDouble(in, 0.0, 1.0);
      const double eps = acc::gdpEpsilon(mu, delta);
      result("gdpEpsilon", eps, kMayOverflow);  // documented: +∞ beyond DBL_MAX
      if (eps < 0) fail("gdpEpsilon negative");
      if (std::isfinite(eps) && !(acc::gdpLogDelta(eps, mu) <= std::log(delta))) {
        fail("gdpEpsilon: delta(eps; mu) > delta", show(mu) + " " + show(delta));
      }
      break;
    }
    case 5: {
      const double eps = anyDouble(in, 0.0, 20.0), delta = anyDouble(in, 0.0, 1.0);
      const double mu = acc::gdpMu(eps, delta);
      result("gdpMu", mu);
      if (!(mu > 0)) fail("gdpMu not positive");
      if (!(acc::gdpLogDelta(eps, mu) <= std::log(delta))) {
        fail("gdpMu: delta(eps; mu) > delta", show(eps) + " " + show(delta));
      }
      break;
    }
    case 6:
      result("paperEpsilonLemma",
             acc::paperEpsilonLemma(anyDouble(in, 0.0, 5.0), anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 7: {
      const double eps = anyDouble(in, 0.0, 20.0), delta = anyDouble(in, 0.0, 1.0);
      const double mu = acc::paperMuMstar(eps, delta);
      // Documented as valid for ε < 8 ln(1/δ) (there μ < 2√(2 ln(1/δ)) ≤ 77); outside that
      // domain the closed form may overflow.
      result("paperMuMstar", mu, /*mayOverflow=*/!(eps < 8.0 * std::log(1.0 / delta)));
      if (mu < 0) fail("paperMuMstar negative");
      break;
    }
    case 8:
      result("paperEpsilonCorollary",
             acc::paperEpsilonCorollary(anyDouble(in, 0.0, 5.0), anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 9: {
      const double eps = anyDouble(in, 0.0, 20.0), delta = anyDouble(in, 0.0, 1.0);
      const double mu = acc::paperMuInverseLemma(eps, delta);
      result("paperMuInverseLemma", mu);
      if (mu < 0) fail("paperMuInverseLemma negative");
      if (mu > 0 && !(acc::paperEpsilonLemma(mu, delta) <= eps)) {
        fail("paperMuInverseLemma: Lemma epsilon > epsilon", show(eps) + " " + show(delta));
      }
      break;
    }
    // ---- grid.hpp ----
    case 10: {
      const std::uint64_t n = anyU64(in);
      const double b = anyDouble(in, 0.0, 10.0);
      const std::vector<double> grid = acc::marginGrid(n, b);
      if (grid.empty() || grid.back() != b) fail("marginGrid must end at b");
      for (std::size_t i = 0; i < grid.size(); ++i) {
        result("marginGrid", grid[i]);
        if (!(grid[i] >= 0) || (i > 0 && !(grid[i] > grid[i - 1]))) {
          fail("marginGrid not strictly ascending and non-negative");
        }
      }
      break;
    }
    // ---- jl.hpp ----
    case 11:
      result("jlDistortion", acc::jlDistortion(anyDouble(in, 0.0, 1.0), anyDouble(in, 0.0, 2.0)));
      break;
    case 12: {
      const std::uint64_t k = acc::jlDimension(anyDouble(in, 0.0, 1.0), anyU64(in), anyU64(in),
                                               anyDouble(in, 0.0, 1.0), anyDouble(in, 0.0, 2.0));
      if (k < 1) fail("jlDimension < 1");
      break;
    }
    case 13: {
      const double p = acc::jlFailurePerVector(anyU64(in), anyDouble(in, 0.0, 1.0));
      result("jlFailurePerVector", p);
      if (!(p >= 0 && p <= 2)) fail("jlFailurePerVector outside [0, 2]");
      break;
    }
    // ---- ngd.hpp ----
    case 14:
      result("hingeSensitivity",
             acc::hingeSensitivity(anyDouble(in, 0.0, 4.0), anyDouble(in, 0.0, 1.0)), kMayOverflow);
      break;
    case 15:
      if (acc::ngdIterationsPaper(anyU64(in), anyDouble(in, 0.0, 1.0)) < 1) fail("T < 1");
      break;
    case 16:
      if (acc::ngdIterationsBound(anyU64(in), anyDouble(in, 0.0, 1.0), anyU64(in),
                                  anyDouble(in, 0.0, 1.0)) < 1) {
        fail("T_bound < 1");
      }
      break;
    case 17:
      result("ngdSigma", acc::ngdSigma(anyDouble(in, 0.0, 100.0), anyU64(in), anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 18: {
      const double eta = acc::ngdStepSize(anyU64(in), anyDouble(in, 0.0, 100.0), anyU64(in),
                                          anyDouble(in, 0.0, 1e4), anyU64(in), anyDouble(in, 0.0, 2.0));
      if (std::isnan(eta) || eta < 0) fail("ngdStepSize NaN or negative", show(eta));
      break;
    }
    case 19:
      result("ngdUtilityBound",
             acc::ngdUtilityBound(anyU64(in), anyDouble(in, 0.0, 100.0), anyU64(in),
                                  anyDouble(in, 0.0, 1.0), anyU64(in), anyDouble(in, 0.0, 2.0)),
             kMayOverflow);
      break;
    case 20:
      result("ngdUtilityFloor",
             acc::ngdUtilityFloor(anyDouble(in, 0.0, 100.0), anyU64(in), anyDouble(in, 0.0, 1.0),
                                  anyDouble(in, 0.0, 2.0)),
             kMayOverflow);
      break;
    // ---- scores.hpp ----
    case 21:
      result("populationPenalty",
             acc::populationPenalty(anyU64(in), anyU64(in), anyDouble(in, 0.0, 1.0)), kMayOverflow);
      break;
    case 22:
      result("populationScore",
             acc::populationScore(anyDouble(in, 0.0, 1000.0), anyU64(in), anyU64(in),
                                  anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    // ---- selection.hpp ----
    case 23: {
      const acc::IterSplit s =
          acc::iterSplit(anyDouble(in, 0.0, 2.0), anyU64(in), anyDouble(in, 0.0, 2.0));
      result("iterSplit.muRun", s.muRun);
      result("iterSplit.scoreVariance", s.scoreVariance, kMayOverflow);
      result("iterSplit.scoreSd", s.scoreSd, kMayOverflow);
      const acc::IterSplit u = acc::selectionSplit(anyDouble(in, 0.0, 2.0), anyU64(in),
                                                   anyDouble(in, 0.0, 1.0), anyDouble(in, 0.0, 2.0));
      result("selectionSplit.muRun", u.muRun);
      result("selectionSplit.scoreVariance", u.scoreVariance, kMayOverflow);
      result("selectionSplit.scoreSd", u.scoreSd, kMayOverflow);
      break;
    }
    case 24:
      result("privtunePaperEpsilon",
             acc::privtunePaperEpsilon(anyDouble(in, 0.0, 2.0), anyDouble(in, 0.0, 1.0),
                                       anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 25:
      result("privtunePaperEpsilonRelaxed",
             acc::privtunePaperEpsilonRelaxed(anyDouble(in, 0.0, 2.0), anyDouble(in, 0.0, 1.0),
                                              anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 26: {
      const double eps = anyDouble(in, 0.0, 20.0), r = anyDouble(in, 0.0, 1.0),
                   delta = anyDouble(in, 0.0, 1.0);
      const double mu = acc::privtunePaperMu(eps, r, delta);
      // The paper's closed form ε/(6s), s² = 2 ln(1/(rδ)), is a guarantee only while μ ≤ 2s
      // (selection.hpp: the relaxed Lemma), i.e. ε ≤ 12 s²; beyond, it may overflow (the plan
      // takes the min with the Lemma inverse).
      const double s2 = -2.0 * (std::log(r) + std::log(delta));
      result("privtunePaperMu", mu, /*mayOverflow=*/!(eps <= 12.0 * s2));
      if (mu < 0) fail("privtunePaperMu negative");
      break;
    }
    case 27: {
      const double eps = anyDouble(in, 0.0, 20.0), r = anyDouble(in, 0.0, 1.0),
                   delta = anyDouble(in, 0.0, 1.0);
      const double mu = acc::privtunePaperMuInverseLemma(eps, r, delta);
      result("privtunePaperMuInverseLemma", mu);
      if (mu < 0) fail("privtunePaperMuInverseLemma negative");
      if (mu > 0 && !(acc::privtunePaperEpsilon(mu, r, delta) <= eps)) {
        fail("privtunePaperMuInverseLemma: Lemma epsilon > epsilon");
      }
      break;
    }
    case 28:
      result("ps22Rdp",
             acc::ps22Rdp(anyDouble(in, 0.0, 2.0), anyDouble(in, -1.0, 3.0), anyDouble(in, 0.0, 1.0),
                          anyDouble(in, 1.0, 100.0)),
             kMayOverflow);
      break;
    case 29:
      result("rdpToDpCks",
             acc::rdpToDpCks(anyDouble(in, 0.0, 10.0), anyDouble(in, 1.0, 100.0),
                             anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 30:
      result("rdpToDpMironov",
             acc::rdpToDpMironov(anyDouble(in, 0.0, 10.0), anyDouble(in, 1.0, 100.0),
                                 anyDouble(in, 0.0, 1.0)),
             kMayOverflow);
      break;
    case 31: {
      const double eps = acc::ps22Epsilon(anyDouble(in, 0.0, 2.0), anyDouble(in, -1.0, 3.0),
                                          anyDouble(in, 0.0, 1.0), anyDouble(in, 0.0, 1.0));
      result("ps22Epsilon", eps, kMayOverflow);
      if (eps < 0) fail("ps22Epsilon negative");
      break;
    }
    case 32: {
      const double eps = anyDouble(in, 0.0, 20.0), eta = anyDouble(in, -1.0, 3.0),
                   gamma = anyDouble(in, 0.0, 1.0), delta = anyDouble(in, 0.0, 1.0);
      const double mu = acc::ps22Mu(eps, eta, gamma, delta);
      result("ps22Mu", mu);
      if (!(mu > 0)) fail("ps22Mu not positive");
      if (!(acc::ps22Epsilon(mu, eta, gamma, delta) <= eps)) fail("ps22Mu: epsilon(mu) > epsilon");
      break;
    }
    // ---- tnb.hpp ----
    case 33:
      acc::validateTnb(anyTnb(in));
      break;
    case 34: {
      const acc::Tnb t = anyTnb(in);
      const std::uint64_t k = anyU64(in);
      const double logPmf = acc::tnbLogPmf(t, k);
      if (std::isnan(logPmf) || logPmf > 1e-12) fail("tnbLogPmf", show(logPmf));
      probability("tnbPmf", acc::tnbPmf(t, k));
      break;
    }
    case 35: {
      const acc::Tnb t = boundedCost(anyTnb(in));
      const std::uint64_t k = anyU64(in);
      const double cdf = acc::tnbCdf(t, k), sf = acc::tnbSf(t, k);
      probability("tnbCdf", cdf);
      probability("tnbSf", sf);
      if (std::fabs(cdf + sf - 1.0) > std::max(1e-9, pmfSumTolerance(t))) {
        fail("tnbCdf + tnbSf != 1", show(cdf) + " " + show(sf));
      }
      break;
    }
    case 36: {
      const acc::Tnb t = boundedCost(anyTnb(in));
      const double q = anyDouble(in, 0.0, 1.0);
      const std::uint64_t k = acc::tnbQuantile(t, q);
      if (k < 1) fail("tnbQuantile < 1");
      // For η ≠ 1 the cdf costs O(min(k, span)) evaluations; for η = 1 it is a closed form.
      // UINT64_MAX is the saturated answer (a quantile beyond 2⁶³, e.g. r = 1e-308).
      const bool saturated = k == std::numeric_limits<std::uint64_t>::max();
      if (!saturated && (t.eta == 1.0 || k < (std::uint64_t{1} << 20))) {
        // The search also stops where the remaining mass is below 1e-17 of the sum (tnb.cpp),
        // i.e. when q lies above the computed total, which is 1 only to pmfSumTolerance.
        const double tol = pmfSumTolerance(t);
        if (!(acc::tnbCdf(t, k) >= q - tol)) fail("tnbQuantile: cdf(k) < q");
        if (k > 1 && !(acc::tnbCdf(t, k - 1) < q + tol)) fail("tnbQuantile: not the smallest k");
      }
      break;
    }
    case 37: {
      const double mean = acc::tnbMean(anyTnb(in));
      result("tnbMean", mean, kMayOverflow);
      if (!(mean >= 1.0)) fail("tnbMean < 1", show(mean));
      break;
    }
    case 38: {
      const acc::Tnb t = anyTnb(in);
      probability("tnbPgf", acc::tnbPgf(t, anyDouble(in, 0.0, 1.0)));
      break;
    }
    case 39:
      probability("tnbProbabilityMiss", acc::tnbProbabilityMiss(anyTnb(in), anyU64(in)));
      break;
    case 40: {
      const double eta = anyDouble(in, -1.0, 3.0), mean = anyDouble(in, 1.0, 1e6);
      const double r = acc::tnbRForMean(eta, mean);
      if (!(r > 0 && r < 1)) fail("tnbRForMean outside (0, 1)", show(r));
      // η = 1 is the closed form r = 1/mean (E[K] = mean up to rounding, either way); other η
      // come from a root search that keeps E[K] ≥ mean.
      const double achieved = acc::tnbMean({eta, r});
      if (eta == 1.0 ? !(std::fabs(achieved / mean - 1.0) <= 1e-15) : !(achieved >= mean)) {
        fail("tnbRForMean: E[K] does not match mean", show(achieved));
      }
      break;
    }
    default: {
      const double eta = anyDouble(in, -1.0, 3.0), beta = anyDouble(in, 0.0, 1.0);
      const std::uint64_t m = anyU64(in);
      const double r = acc::tnbRForMissProbability(eta, m, beta);
      if (!(r > 0 && r < 1)) fail("tnbRForMissProbability outside (0, 1)", show(r));
      if (!(acc::tnbProbabilityMiss({eta, r}, m) <= beta)) {
        fail("tnbRForMissProbability: P(miss) > beta", show(eta) + " " + show(beta));
      }
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  dpmargin::fuzz::expectOnlyTypedErrors([&] { call(in); });
  return 0;
}
