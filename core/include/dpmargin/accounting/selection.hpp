// Accounting of private selection (SPEC §2.6): Iter (paper Algo 2) and PrivTune (paper Algo 3)
// with the paper's Lemma and with Papernot–Steinke 2022 RDP → (ε, δ).
#pragma once

#include <cstdint>

namespace dpmargin::accounting {

// Iter over m candidates with total μ: every base run gets μ/sqrt(2m), every score gets
// Gaussian noise of variance 2m Δ_U²/μ². Total exactly μ-GDP.
struct IterSplit {
  double muRun;
  double scoreVariance;
  double scoreSd;
};
IterSplit iterSplit(double muTotal, std::uint64_t candidates, double scoreSensitivity);
// The same 2m Gaussian mechanisms with an uneven split: the m runs share runShare = s ∈ (0, 1)
// of μ², the m scores the rest, so μ_run = μ·√(s/m) and the score sd is Δ_U·√(m/(1−s))/μ;
// m·μ_run² + m·(Δ_U/sd)² = μ², exactly μ-GDP. s = ½ is Iter's split (iterSplit, to rounding).
IterSplit selectionSplit(double muTotal, std::uint64_t candidates, double runShare,
                         double scoreSensitivity);

// ---- PrivTune, the paper's accounting (Lemma quoted from Koskela–Redberg–Wang 2024) ----
// ε_L = 1.5μ² + 3μ·sqrt(2 ln(1/(rδ))) + δ; SPEC §2.6 states the guarantee as (ε_L + δ, δ).
double privtunePaperEpsilon(double mu, double r, double delta);
// The relaxed form 6μ·sqrt(2 ln(1/(rδ))) + δ (drops the quadratic term; the M′ theorem).
double privtunePaperEpsilonRelaxed(double mu, double r, double delta);
// The paper's M′ choice μ = x / (6·sqrt(2 ln(1/(rδ)))): its theorem gives (x + δ, δ)
// (= the relaxed form above). Callers aiming at ε pass x = ε − δ.
double privtunePaperMu(double epsilon, double r, double delta);
// Largest μ whose Lemma ε is ≤ epsilon (positive root of 1.5μ² + 3μs + δ = ε).
double privtunePaperMuInverseLemma(double epsilon, double r, double delta);

// ---- PrivTune, Papernot & Steinke 2022 Thm 2 with a Gaussian (μ-GDP) base ----
// Base RDP ε(λ) = λμ²/2. RDP of TNB_{η,γ} selection at order λ > 1, minimised over λ̂ ≥ 1:
// λμ²/2 + (1+η)·min_{λ̂≥1}[(λ̂−1)μ²/2 + ln(1/γ)/λ̂] + ln(E[K])/(λ − 1).
double ps22Rdp(double mu, double eta, double gamma, double lambda);
// RDP → DP conversions at a given order.
// Canonne–Kamath–Steinke 2020: ε = ρ + ln((λ−1)/λ) − (ln δ + ln λ)/(λ − 1).
double rdpToDpCks(double rdp, double lambda, double delta);
// Mironov 2017: ε = ρ + ln(1/δ)/(λ − 1).
double rdpToDpMironov(double rdp, double lambda, double delta);
// min over real λ > 1 of the CKS conversion of ps22Rdp.
double ps22Epsilon(double mu, double eta, double gamma, double delta);
// Largest μ with ps22Epsilon(μ) ≤ ε, rounded down.
double ps22Mu(double epsilon, double eta, double gamma, double delta);

}  // namespace dpmargin::accounting
