// Gaussian noise for the mechanisms (SPEC §4), hardened against floating-point attacks.
//
// Why: a textbook sampler outputs only some doubles, with probabilities that depend on the
// mean, so a released noisy value can reveal its input exactly. Mironov 2012 ("On significance
// of the least significant bits for differential privacy", CCS) showed this for Laplace; Jin,
// McMurtry, Rubinstein & Ohrimenko 2022 ("Are we there yet? Timing and floating-point attacks on
// differential privacy systems", IEEE S&P) for Gaussian samplers built on Box–Muller and polar
// methods. Holohan & Braghin 2021 ("Secure random sampling in differential privacy", ESORICS;
// arXiv 2107.10138, §5.1) mitigate it by releasing a sum of 2n independent normals divided by
// √(2n): the attacker must then invert a sum of 2n draws, cost 2^(p(2n−1)) for p-bit uniforms.
// Opacus' secure_mode (opacus/optimizers/optimizer.py, `_generate_noise`) uses n = 2 on a
// CSPRNG, i.e. (Z₁+Z₂+Z₃+Z₄)/2; so do we, with p = 53 (cost 2^159).
//
// Each Zᵢ is Box–Muller on 53-bit uniforms from the ChaCha20 generator; the two outputs of a
// pair are independent, so Z₁,Z₂ come from one pair and Z₃,Z₄ from another: one output costs
// 4 uniforms (4 generator words, 212 random bits — the same randomness as Opacus' 4 draws), two
// logarithms, two sin/cos and two square roots. The sum of four independent N(0,1) halved is
// exactly N(0,1) in real arithmetic.
#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "random/chacha20.hpp"
#include "random/unit.hpp"

namespace dpmargin::random {
namespace {

constexpr std::size_t kWordsPerNormal = 4;

// (Z₁+Z₂+Z₃+Z₄)/2 from four words; gaussian() and addGaussian() share it so they produce the
// same values from the same stream.
inline double hardenedStandardNormal(const std::uint64_t* w) {
  const detail::NormalPair a = detail::boxMuller(w[0], w[1]);
  const detail::NormalPair b = detail::boxMuller(w[2], w[3]);
  return 0.5 * ((a.first + a.second) + (b.first + b.second));
}

void requireSd(double sd) { requireNonNegative("sd", sd); }

}  // namespace

double gaussian(Generator& g, double sd) {
  requireSd(sd);
  if (sd == 0.0) return 0.0;  // no noise, no draws (as Opacus' std == 0)
  std::uint64_t w[kWordsPerNormal];
  g.fill(w, kWordsPerNormal);
  const double z = hardenedStandardNormal(w);
  detail::secureWipe(w, sizeof w);
  return sd * z;
}

// The words for a block of outputs are fetched with one fill() (no per-draw buffer checks), in
// a fixed-size stack array: no allocation, and a stack footprint of 2 KiB.
void addGaussian(Generator& g, double sd, double* out, std::size_t count) {
  requireSd(sd);
  if (sd == 0.0) return;
  constexpr std::size_t kBlock = 64;
  std::uint64_t words[kBlock * kWordsPerNormal];
  while (count > 0) {
    const std::size_t n = count < kBlock ? count : kBlock;
    g.fill(words, n * kWordsPerNormal);
    for (std::size_t i = 0; i < n; ++i) {
      out[i] += sd * hardenedStandardNormal(words + kWordsPerNormal * i);
    }
    out += n;
    count -= n;
  }
  detail::secureWipe(words, sizeof words);
}

}  // namespace dpmargin::random
