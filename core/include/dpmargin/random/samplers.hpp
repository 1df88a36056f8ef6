// Samplers over random::Generator (SPEC §4, §2.3, §2.6). Each is exact up to the documented
// floating-point mitigation; proofs/references are beside the implementations.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::random {

// Uniform double in the open interval (0, 1) with 53 random bits: (k + 0.5)·2⁻⁵³.
double uniformOpen01(Generator& g);
// Unbiased integer in [0, n), n ≥ 1 (Lemire's multiply-and-reject).
std::uint64_t uniformIndex(Generator& g, std::uint64_t n);
// ±1 with probability ½ each.
int rademacher(Generator& g);
// out[i] = ±scale, i < count, one random bit per entry (the JL matrix Φ, SPEC §2.3); scale > 0.
void fillRademacher(Generator& g, float* out, std::size_t count, float scale);

// Gaussian noise hardened against floating-point attacks (Mironov 2012; Jin et al. 2022):
// each output is (Z₁ + Z₂ + Z₃ + Z₄)/2 with Zᵢ standard normal from Box–Muller on 53-bit
// uniforms — the mitigation of Holohan & Braghin 2021, used by Opacus' secure_mode — scaled by
// sd. The sum spreads the low-order structure an attacker would exploit in a single draw.
double gaussian(Generator& g, double sd);
// out[i] += sd·N(0,1), i < count (the per-iteration gradient noise; one call per iteration).
// sd ≥ 0 (finite); sd = 0 adds and draws nothing.
void addGaussian(Generator& g, double sd, double* out, std::size_t count);

// Gamma(shape, scale), shape > 0 (Marsaglia–Tsang 2000, with the shape < 1 boost).
double gamma(Generator& g, double shape, double scale);
// Poisson(lambda), 0 ≤ lambda ≤ 2⁵² (inversion for λ < 10, Hörmann's PTRS 1993 for λ ≥ 10).
std::uint64_t poisson(Generator& g, double lambda);

// K ~ TNB_{η,r} on {1, 2, …} (SPEC §2.6):
//  η = 1: K = 1 + ⌊ln U / log1p(−r)⌋ (geometric);  η = 0: Kemp's LK algorithm (logarithmic);
//  η > 0: Λ ~ Gamma(η, (1−r)/r), K ~ Poisson(Λ), reject K = 0;  −1 < η < 0: inversion of the
//  CDF by the pmf recurrence (also used for tiny η > 0, where 1 − r^η < 1/64 would make the
//  rejection loop slow). A K above kMaxTnbSample is returned as kMaxTnbSample: that many runs
//  could never be performed, and it needs r ≲ 1e-14.
inline constexpr std::uint64_t kMaxTnbSample = std::uint64_t{1} << 53;
std::uint64_t sampleTnb(Generator& g, const accounting::Tnb& tnb);

}  // namespace dpmargin::random
