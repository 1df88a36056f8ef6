// Golden vectors for the accounting maths (SPEC §2.1–2.7): every record of every family in
// tests/reference/accounting-vectors.json (50-digit mpmath values at the double nearest each
// decimal input), matched to 1e-10 relative. Each test reports how many records and values it
// checked (RecordProperty + stdout), for the issue notes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/accounting/scores.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "reference.hpp"

namespace dpmargin::accounting {
namespace {

using dpmargin::testing::num;
using dpmargin::testing::referenceVectors;
using nlohmann::json;

constexpr double kTol = 1e-10;

// Counts and checks the values of one family; reports the counts when the test ends.
class Family {
 public:
  explicit Family(std::string name) : name_(std::move(name)) {}
  ~Family() {
    ::testing::Test::RecordProperty("records_checked", records_);
    ::testing::Test::RecordProperty("values_checked", values_);
    std::cout << "[golden] " << name_ << ": " << records_ << " records, " << values_
              << " values checked\n";
  }
  const json& records() const { return referenceVectors().at(name_); }
  void beginRecord(std::size_t index) {
    ++records_;
    index_ = index;
  }
  // |actual − expected| ≤ tol·|expected| (exact when the expectation is 0).
  void rel(double actual, double expected, const std::string& what, double tol = kTol) {
    ++values_;
    const double error = std::fabs(actual - expected);
    EXPECT_TRUE(error <= tol * std::fabs(expected))
        << name_ << "[" << index_ << "] " << what << ": expected " << expected << ", got "
        << actual << " (rel. error " << error / std::fabs(expected) << ")";
  }
  void eq(std::uint64_t actual, std::uint64_t expected, const std::string& what) {
    ++values_;
    EXPECT_EQ(actual, expected) << name_ << "[" << index_ << "] " << what;
  }

 private:
  std::string name_;
  int records_ = 0;
  int values_ = 0;
  std::size_t index_ = 0;
};

std::uint64_t u64(const json& v) { return v.get<std::uint64_t>(); }

TEST(AccountingGolden, GdpCompose) {
  Family f("gdp_compose");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const json& mus = rec.at("mus");
    if (mus.is_object()) {
      f.rel(composeGdp(num(mus.at("value")), u64(mus.at("count"))), num(rec.at("mu")), "mu");
      std::vector<double> repeated(u64(mus.at("count")), num(mus.at("value")));
      f.rel(composeGdp(repeated), num(rec.at("mu")), "mu (list)");
    } else {
      std::vector<double> list;
      for (const json& m : mus) list.push_back(num(m));
      f.rel(composeGdp(list), num(rec.at("mu")), "mu");
    }
  }
}

TEST(AccountingGolden, GdpDelta) {
  Family f("gdp_delta");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double mu = num(rec.at("mu")), eps = num(rec.at("eps"));
    f.rel(gdpLogDelta(eps, mu), num(rec.at("ln_delta")), "ln_delta");
    if (!rec.at("underflows_double").get<bool>()) {
      f.rel(gdpDelta(eps, mu), num(rec.at("delta")), "delta");
    } else {
      EXPECT_EQ(gdpDelta(eps, mu), 0.0);
    }
  }
}

TEST(AccountingGolden, GdpEpsilon) {
  Family f("gdp_eps");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double mu = num(rec.at("mu")), delta = num(rec.at("delta"));
    const double eps = gdpEpsilon(mu, delta);
    f.rel(eps, num(rec.at("eps")), "eps");
    // The smallest ε that holds: δ(ε) ≤ δ, and one ulp less does not hold.
    EXPECT_LE(gdpLogDelta(eps, mu), std::log(delta)) << "record " << i;
    if (eps > 0.0) {
      EXPECT_GT(gdpLogDelta(std::nextafter(eps, 0.0), mu), std::log(delta)) << "record " << i;
    }
  }
}

TEST(AccountingGolden, GdpMu) {
  Family f("gdp_mu");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double eps = num(rec.at("eps")), delta = num(rec.at("delta"));
    const double mu = gdpMu(eps, delta);
    f.rel(mu, num(rec.at("mu")), "mu");
    // Rounded down: μ satisfies δ(ε; μ) ≤ δ, the next double does not.
    EXPECT_LE(gdpLogDelta(eps, mu), std::log(delta)) << "record " << i;
    EXPECT_GT(gdpLogDelta(eps, std::nextafter(mu, 1e300)), std::log(delta)) << "record " << i;
  }
}

TEST(AccountingGolden, PaperConversions) {
  Family f("paper_conversions");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double eps = num(rec.at("eps")), delta = num(rec.at("delta"));
    const double mstar = paperMuMstar(eps, delta), exact = gdpMu(eps, delta);
    f.rel(mstar, num(rec.at("mu_paper_mstar")), "mu_paper_mstar");
    f.rel(paperMuInverseLemma(eps, delta), num(rec.at("mu_inverse_lemma")), "mu_inverse_lemma");
    f.rel(exact, num(rec.at("mu_exact")), "mu_exact");
    f.rel(exact / mstar, num(rec.at("ratio_exact_over_paper")), "ratio_exact_over_paper");
    EXPECT_LE(paperEpsilonLemma(paperMuInverseLemma(eps, delta), delta), eps) << "record " << i;
  }
}

TEST(AccountingGolden, PaperEpsilonLemma) {
  Family f("paper_eps_lemma");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double mu = num(rec.at("mu")), delta = num(rec.at("delta"));
    f.rel(paperEpsilonLemma(mu, delta), num(rec.at("eps")), "eps");
    f.rel(paperEpsilonCorollary(mu, delta), num(rec.at("eps_corollary")), "eps_corollary");
    f.rel(gdpEpsilon(mu, delta), num(rec.at("eps_exact")), "eps_exact");
  }
}

TEST(AccountingGolden, IterSplit) {
  Family f("iter_split");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const IterSplit s = iterSplit(num(rec.at("mu_total")), u64(rec.at("n_theta")),
                                  num(rec.at("score_sensitivity")));
    f.rel(s.muRun, num(rec.at("mu_run")), "mu_run");
    f.rel(s.scoreVariance, num(rec.at("score_var")), "score_var");
    f.rel(s.scoreSd, num(rec.at("score_sd")), "score_sd");
  }
}

// Auto's uneven split at runShare ½ is Iter's: the same reference records (tests/reference).
TEST(AccountingGolden, SelectionSplitAtHalfIsIterSplit) {
  Family f("iter_split");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const IterSplit s = selectionSplit(num(rec.at("mu_total")), u64(rec.at("n_theta")), 0.5,
                                       num(rec.at("score_sensitivity")));
    f.rel(s.muRun, num(rec.at("mu_run")), "mu_run");
    f.rel(s.scoreVariance, num(rec.at("score_var")), "score_var");
    f.rel(s.scoreSd, num(rec.at("score_sd")), "score_sd");
  }
}

// First-principles values of the 97/3 split over m = 3 (auto's selection): μ_run = μ√(0.97/3),
// score sd = Δ_U√(3/0.03)/μ = 10Δ_U/μ; and for any split, m runs and m scores compose to μ:
// m·μ_run² + m·(Δ_U/sd)² = μ² (to rounding).
TEST(AccountingGolden, SelectionSplitFirstPrinciples) {
  const IterSplit a = selectionSplit(1.0, 3, 0.97, 1.0);
  EXPECT_NEAR(a.muRun, 0.56862407030773266, 1e-15);  // √(0.97/3)
  EXPECT_NEAR(a.scoreSd, 10.0, 1e-12);
  EXPECT_NEAR(a.scoreVariance, 100.0, 1e-10);
  const IterSplit b = selectionSplit(0.25, 3, 0.97, 1.0);
  EXPECT_NEAR(b.muRun, 0.25 * 0.56862407030773266, 1e-15);
  EXPECT_NEAR(b.scoreSd, 40.0, 1e-11);
  for (double mu : {1e-3, 0.1, 0.7, 3.0, 50.0}) {
    for (std::uint64_t m : {1u, 2u, 3u, 11u}) {
      for (double s : {0.01, 0.5, 0.97, 0.999}) {
        for (double sens : {1.0, 2.0}) {
          const IterSplit x = selectionSplit(mu, m, s, sens);
          const double md = double(m);
          const double total = md * x.muRun * x.muRun + md * (sens / x.scoreSd) * (sens / x.scoreSd);
          EXPECT_NEAR(total / (mu * mu), 1.0, 1e-14) << mu << " " << m << " " << s;
          EXPECT_NEAR(x.muRun * x.muRun * md / (mu * mu), s, 1e-14);
          EXPECT_DOUBLE_EQ(x.scoreVariance, x.scoreSd * x.scoreSd);
        }
      }
    }
  }
}

TEST(AccountingGolden, GridGamma) {
  Family f("grid_gamma");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const std::vector<double> grid = marginGrid(u64(rec.at("n")), num(rec.at("b")));
    f.eq(grid.size(), u64(rec.at("size")), "size");
    ASSERT_EQ(grid.size(), rec.at("values").size()) << "record " << i;
    for (std::size_t j = 0; j < grid.size(); ++j) {
      f.rel(grid[j], num(rec.at("values")[j]), "values[" + std::to_string(j) + "]");
    }
  }
}

TEST(AccountingGolden, JlDimension) {
  // Checked: k_paper_e (SPEC §2.3) and e_paper. Not checked: e_tight / k_tight_e (a tighter
  // distortion rule that is not part of the SPEC) and k_allpairs (N = (n+1)(n+2) vectors).
  Family f("jl_k");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double gamma = num(rec.at("gamma")), b = num(rec.at("b"));
    f.rel(jlDistortion(gamma, b), num(rec.at("e_paper")), "e_paper");
    f.eq(jlDimension(gamma, u64(rec.at("n")), u64(rec.at("n_grid")), num(rec.at("beta_total")), b),
         u64(rec.at("k_paper_e")), "k_paper_e");
  }
}

TEST(AccountingGolden, JlFailurePerVector) {
  Family f("jl_fail_per_vector");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    f.rel(jlFailurePerVector(u64(rec.at("k")), num(rec.at("e"))), num(rec.at("p")), "p");
  }
}

TEST(AccountingGolden, HingeSensitivity) {
  Family f("hinge_sensitivity");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double R = num(rec.at("R")), c = num(rec.at("c"));
    f.rel(hingeSensitivity(R, c), num(rec.at("replace")), "replace");
    // Replace-one, never add/remove (SPEC §1): exactly twice the add/remove value.
    f.rel(hingeSensitivity(R, c), 2.0 * num(rec.at("addremove")), "2 x addremove");
  }
}

TEST(AccountingGolden, Ngd) {
  // `beta` is not an input of these formulas and is not used.
  Family f("ngd");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const std::uint64_t n = u64(rec.at("n")), d = u64(rec.at("d"));
    const double mu = num(rec.at("mu")), delta = num(rec.at("Delta")), D = num(rec.at("D"));
    const std::uint64_t T = ngdIterationsPaper(n, mu);
    f.eq(T, u64(rec.at("T")), "T");
    const double sigma = ngdSigma(delta, T, mu);
    f.rel(sigma, num(rec.at("sigma")), "sigma");
    if (rec.at("beta").is_null()) {
      f.rel(ngdStepSize(n, delta, d, sigma, T, D), num(rec.at("lr")), "lr");
    } else {
      // With a β the reference's step size carries an extra ln(1/β) on the noise term,
      // D/sqrt(T(n²Δ² + d σ² ln(1/β))), which is not the SPEC's form (§2.4 item 4): the value
      // is identified here but our ngdStepSize deliberately does not reproduce it.
      const double nd = static_cast<double>(n), logInvBeta = -std::log(num(rec.at("beta")));
      const double withLog = D / std::sqrt(static_cast<double>(T) *
                                           (nd * nd * delta * delta +
                                            static_cast<double>(d) * sigma * sigma * logInvBeta));
      f.rel(withLog, num(rec.at("lr")), "lr (ln(1/beta) variant, formula identified)");
    }
    f.rel(ngdUtilityBound(n, delta, d, mu, T, D), num(rec.at("bound_at_T")), "bound_at_T");
    f.rel(ngdUtilityFloor(delta, d, mu, D), num(rec.at("bound_floor")), "bound_floor");
    f.eq(ngdIterationsBound(n, mu, d, 0.05), u64(rec.at("T_practical_tol0.05")), "tol 0.05");
    f.eq(ngdIterationsBound(n, mu, d, 0.01), u64(rec.at("T_practical_tol0.01")), "tol 0.01");
    // T is the ceiling of T_real (parsed to the nearest double, so compared loosely).
    const double tReal = num(rec.at("T_real"));
    EXPECT_TRUE(static_cast<double>(T) >= tReal && static_cast<double>(T) <= tReal + 1.0);
  }
}

TEST(AccountingGolden, PenScore) {
  Family f("pen_score");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double score = populationScore(num(rec.at("err_count")), u64(rec.at("k")),
                                         u64(rec.at("n")), num(rec.at("beta")));
    f.rel(score, num(rec.at("score_correct")), "score_correct");
    // The paper's printed ln(β/4) and its proof's version are deliberately not what we compute.
    EXPECT_GT(std::fabs(score - num(rec.at("score_as_printed_log_beta_over_4"))), 1.0);
    EXPECT_GT(std::fabs(score - num(rec.at("score_proof_version_avg"))), 1.0);
  }
}

TEST(AccountingGolden, Tnb) {
  Family f("tnb");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const Tnb t{num(rec.at("eta")), num(rec.at("r"))};
    f.rel(tnbMean(t), num(rec.at("mean")), "mean");
    for (const auto& [k, v] : rec.at("pmf").items()) {
      const std::uint64_t kk = std::stoull(k);
      f.rel(tnbPmf(t, kk), num(v), "pmf(" + k + ")");
      f.rel(tnbLogPmf(t, kk), std::log(num(v)), "log pmf(" + k + ")");
    }
    for (const auto& [k, v] : rec.at("cdf").items()) {
      f.rel(tnbCdf(t, std::stoull(k)), num(v), "cdf(" + k + ")");
    }
    for (const auto& [k, v] : rec.at("sf").items()) {
      f.rel(tnbSf(t, std::stoull(k)), num(v), "sf(" + k + ")");
    }
    for (const auto& [s, v] : rec.at("pgf").items()) {
      f.rel(tnbPgf(t, std::strtod(s.c_str(), nullptr)), num(v), "pgf(" + s + ")");
    }
    for (const auto& [m, v] : rec.at("p_miss").items()) {
      f.rel(tnbProbabilityMiss(t, std::stoull(m)), num(v), "p_miss(" + m + ")");
    }
    for (const auto& [q, v] : rec.at("quantile").items()) {
      f.eq(tnbQuantile(t, std::strtod(q.c_str(), nullptr)), u64(v), "quantile(" + q + ")");
    }
    // The r that gives this mean is the record's r.
    if (num(rec.at("mean")) > 1.0 + 1e-9) {
      f.rel(tnbRForMean(t.eta, tnbMean(t)), t.r, "r from mean", 1e-12);
    }
  }
}

TEST(AccountingGolden, TnbRBounds) {
  // r_paper_general_eta0.5 is not a library function; it is identified as the r that makes
  // the paper's bound P(miss) ≤ (r/u)^η, u = 1 − (1−r)(1−1/m), equal to β:
  // r = B/(m − (m−1)B) with B = β^(1/η). Checked here as a formula, and shown conservative.
  Family f("tnb_r_bounds");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double beta = num(rec.at("beta"));
    const std::uint64_t m = u64(rec.at("n_theta"));
    const double r1 = tnbRForMissProbability(1.0, m, beta);
    f.rel(r1, num(rec.at("r_max_eta1")), "r_max_eta1");
    f.rel(r1, num(rec.at("r_exact_eta1")), "r_exact_eta1");
    const double rHalf = tnbRForMissProbability(0.5, m, beta);
    f.rel(rHalf, num(rec.at("r_exact_eta0.5")), "r_exact_eta0.5");
    EXPECT_LE(tnbProbabilityMiss({0.5, rHalf}, m), beta) << "record " << i;
    const double md = static_cast<double>(m), B = beta * beta;  // β^(1/η), η = 1/2
    const double rPaper = B / (md - (md - 1.0) * B);
    f.rel(rPaper, num(rec.at("r_paper_general_eta0.5")), "r_paper_general_eta0.5 (formula)");
    EXPECT_LE(rPaper, rHalf) << "record " << i;
  }
}

TEST(AccountingGolden, PrivtunePaper) {
  Family f("privtune_paper");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double mu = num(rec.at("mu")), r = num(rec.at("r")), delta = num(rec.at("delta"));
    f.rel(privtunePaperEpsilon(mu, r, delta), num(rec.at("eps_lemma")), "eps_lemma");
    f.rel(privtunePaperEpsilonRelaxed(mu, r, delta), num(rec.at("eps_relaxed")), "eps_relaxed");
  }
}

TEST(AccountingGolden, PrivtuneMu) {
  Family f("privtune_mu");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double eps = num(rec.at("eps")), r = num(rec.at("r")), delta = num(rec.at("delta"));
    f.rel(privtunePaperMu(eps, r, delta), num(rec.at("mu_theorem_for_eps_plus_delta")),
          "mu_theorem_for_eps_plus_delta");
    const double mu = privtunePaperMuInverseLemma(eps, r, delta);
    f.rel(mu, num(rec.at("mu_lemma_inverse_for_eps")), "mu_lemma_inverse_for_eps");
    EXPECT_LE(privtunePaperEpsilon(mu, r, delta), eps) << "record " << i;
  }
}

TEST(AccountingGolden, PaperMprime) {
  // M′ with the paper's r = 1/(|Θ|(n²−1)) and η = 1: E[K] = 1/r, μ from the M′ theorem, each
  // run gets μ/√2 and each score noise of sd √2/μ per unit sensitivity (SPEC §2.6).
  Family f("paper_mprime");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double n = static_cast<double>(u64(rec.at("n")));
    const double grid = static_cast<double>(u64(rec.at("n_grid")));
    const double r = 1.0 / (grid * (n * n - 1.0));
    f.rel(r, num(rec.at("r")), "r");
    f.rel(tnbMean({1.0, r}), num(rec.at("E_K")), "E_K");
    const double mu = privtunePaperMu(num(rec.at("eps")), r, num(rec.at("delta")));
    f.rel(mu, num(rec.at("mu")), "mu");
    f.rel(mu / std::sqrt(2.0), num(rec.at("mu_run_training")), "mu_run_training");
    f.rel(std::sqrt(2.0) / mu, num(rec.at("score_sd_per_unit_sensitivity")),
          "score_sd_per_unit_sensitivity");
  }
}

TEST(AccountingGolden, Ps22Rdp) {
  Family f("ps22_rdp");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double lambda = num(rec.at("lambda"));
    const double rdp =
        ps22Rdp(num(rec.at("mu")), num(rec.at("eta")), num(rec.at("gamma")), lambda);
    f.rel(rdp, num(rec.at("rdp")), "rdp");
    f.rel(rdpToDpCks(rdp, lambda, 1e-5), num(rec.at("eps_dp_cks_at_lambda_delta1e-5")), "cks");
    f.rel(rdpToDpMironov(rdp, lambda, 1e-5), num(rec.at("eps_dp_mironov_at_lambda_delta1e-5")),
          "mironov");
  }
}

TEST(AccountingGolden, Ps22EpsilonOptimum) {
  Family f("ps22_eps_opt");
  for (std::size_t i = 0; i < f.records().size(); ++i) {
    const json& rec = f.records()[i];
    f.beginRecord(i);
    const double mu = num(rec.at("mu")), eta = num(rec.at("eta")), gamma = num(rec.at("gamma"));
    const double delta = num(rec.at("delta"));
    const double eps = ps22Epsilon(mu, eta, gamma, delta);
    f.rel(eps, num(rec.at("eps_opt_over_lambda")), "eps_opt_over_lambda");
    f.rel(tnbMean({eta, gamma}), static_cast<double>(u64(rec.at("E_K"))), "E_K", 1e-12);
    // Inverse: the largest μ within ε, rounded down, recovers μ.
    const double back = ps22Mu(eps, eta, gamma, delta);
    EXPECT_LE(ps22Epsilon(back, eta, gamma, delta), eps) << "record " << i;
    f.rel(back, mu, "mu from ps22Mu", 1e-9);
  }
}

}  // namespace
}  // namespace dpmargin::accounting
