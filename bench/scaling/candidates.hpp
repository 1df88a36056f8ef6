// Candidate post-processing rules for the private column histograms, measured by
// bench/scaling/run.sh (docs/design/SCALING.md). Benchmark code only: the library implements the chosen
// rule in core/src/learn/ranges.cpp (scalingsFromNoisyHistograms); with the chosen settings this
// function gives the same scalings (checked by `scaling_coverage check=1`). Every rule is
// post-processing of the noisy histograms and public constants (n is public), so every candidate
// has the privacy of the histograms.
//
// Settings of the measured variants (rule.hpp spells them): today's rule is fallback = false,
// symmetric = false (a noise-selected bin when nothing passes 4σ; min–max everywhere).
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "dpmargin/learn/ranges.hpp"

namespace dpmargin::bench {

struct CandidateRule {
  int binsPerDecade = learn::kDefaultBinsPerDecade;
  // A bin is occupied when its noisy count exceeds τ = thresholdSds·σ (4σ: a pure-noise bin
  // passes with probability 3.2e-5). The range spans the first to the last occupied bin.
  double thresholdSds = 4.0;
  // > 0: the threshold instead controls the family-wise rate: z = Φ⁻¹(1 − familyAlpha/(d·bins)),
  // so that a pure-noise bin anywhere in the d histograms passes with probability ≤ familyAlpha.
  double familyAlpha = 0.0;
  // > 0: the range then grows through adjacent bins whose noisy count exceeds extendSds·σ.
  double extendSds = 0.0;
  // > 0: a range on one side of 0 takes in the mirror image of its bins (−x for x) when one of
  // them exceeds mirrorSds·σ: the column then straddles 0 and maps symmetrically.
  double mirrorSds = 0.0;
  // The mirror test on the sum of the mirror bins: Σ > mirrorSds·σ·√(bins) (one test per column,
  // whatever the span's width) instead of any single mirror bin > mirrorSds·σ.
  bool mirrorSum = false;
  // > 0: a range that misses 0 takes it in when the zero bin's noisy count exceeds zeroSds·σ
  // (zeros are special: sparse columns, indicators, 0-coded gaps).
  double zeroSds = 0.0;
  // A range of several bins ends at the inner edges of its end bins (values in an end bin map to
  // the end): a 0/1 column whose ones are detected gets [0, 1], not [0, 1.78].
  bool innerEdges = false;
  // A min–max span from the zero bin up to a bin b > zero + 1 ends at b's lower edge (values in
  // the top bin map to 1): a 0/1 column whose ones pass gets [0, 1], like a zero-only span.
  bool zeroInnerTop = false;
  // A min–max span from the zero bin whose top bin is the one holding 1, [1, 10^¼), ends at 1:
  // a 0/1 column maps to {0, 1} whether its ones pass the threshold or not.
  bool oneTop = false;
  // The zero bin alone is supported at zeroSds·σ (one pre-specified bin, not a search over all).
  bool zeroPrimary = false;
  // The range of a column whose only supported bin is the zero bin: [0, zeroOnlyHi].
  double zeroOnlyHi = 1.0;
  // > 0: the range must hold at least massShare·n rows by the noisy counts of the bins it holds
  // (plus massSds·σ·√bins); it grows towards the larger noisy neighbour until it does, at most to
  // growCap bins, and otherwise falls back. n is public.
  double massShare = 0.0;
  double massSds = 0.0;
  int growCap = 16;
  // Spans of at most padSpan bins grow by `pad` bins on each side (never across the zero bin).
  int pad = 0;
  double padFrac = 0.0;  // a one-bin min–max range widens by this fraction of a bin on each side
  // > 0: ... only when its noisy count is below n/2 + padUnlessSds·σ (it may hold less than half
  // of the rows; a count above that holds most of them whatever the noise).
  double padUnlessSds = 0.0;
  int padSpan = 1000;
  // Extension and inner edges apply only to symmetric (extension) / min–max (inner) ranges.
  bool splitByMap = false;
  // Ranges with lo < 0 ≤ hi map to the symmetric interval [−a, a], a = max(−lo, hi).
  bool symmetric = true;
  // Every private range maps by the symmetric x ↦ clamp(x/a, −1, 1), a = max(|lo|, |hi|), so 0
  // stays 0 in every column (also one-sided ranges of a centred column, e.g. [0.1, 0.18]).
  bool ratio = false;
  // No occupied bin: the public signed-log transform with scale fallbackScale (true), or the old
  // rule, the bin of the largest noisy count (false; a noise-selected bin — benchmark only).
  bool fallback = true;
  double fallbackScale = 1.0;  // the library uses log1p(1e9)
  // Only the zero bin occupied (a mostly-zero column): [0, 1] (false) or the fallback (true).
  bool zeroOnlyFallback = false;
  // > 0: the d noisy histograms summed (noise sd σ·√d) give a table-wide span; columns whose own
  // histogram supports nothing (1), and also zero-only columns (2), take it instead of the
  // fallback / [0, zeroOnlyHi]; 3: as 2, but those columns get the signed log at the span's
  // scale, log1p(max |span|) (tried on digits, not kept). Post-processing of the same counts.
  int pool = 0;
  // With pool: only when the pooled span's nonzero part covers at most poolDecades decades
  // (a table whose values live on one scale); 0: always.
  double poolDecades = 0.0;
  // With pool and poolDecades: > 0 relaxes that test to a share — the supported nonzero bins
  // lying within poolDecades decades below the largest magnitude hold at least poolTopMass of all
  // supported nonzero bins' noisy counts (a centred column's values near 0 spread over decades).
  double poolTopMass = 0.0;
  // With pool: the mass and column tests allow poolSlack noise sds below their thresholds (the
  // sum of k bins has noise sd σ√k, or σ√(d·k) pooled): where the counts cannot tell, pool.
  double poolSlack = 0.0;
  double poolMassSlack = -1.0;  // the mass test's own slack (< 0: poolSlack)
  double poolMassFloor = 0.0;   // … never below poolMassFloor·n·d
  double poolMassRel = 0.0;     // > 0: the mass slack only where its sd ≤ poolMassRel·n·d
  // > 0: the threshold is min(poolMass·n·d, max(poolMass·n·d − slack, poolMassLcb·n·d + slack))
  // with the slack always on (poolMassRel not read): the span's sum less its slack must show
  // poolMassLcb of the table's values — the library's since step 5's fifth change (SCALING.md).
  double poolMassLcb = 0.0;
  // Both tests count only the span's bins whose sum passes poolHeld·σ√d (0: every span bin).
  double poolHeld = 0.0;
  // With pool: only when the summed noisy counts inside the span reach poolMass·n·d (the table's
  // values, not only its supported bins, live there); and a column takes it only when its own
  // noisy counts inside the span reach poolColumn·n. 0: no test.
  double poolMass = 0.0;
  double poolColumn = 0.0;
  // With pool: a span from the zero bin to the bin holding 1 is [0, 1] (as a column's), and
  // zero-only columns take the span only when its magnitude reaches poolZeroOnlyFrom (0: always).
  bool poolTop = false;
  double poolZeroOnlyFrom = 0.0;
  // > 0: a supported bin whose noisy count is at most isolatedSds·σ, with no other supported bin
  // within isolatedBins bins of it or of its mirror image, is left out of the span when the column
  // keeps another supported nonzero bin (a pure-noise bin would stretch the span by decades).
  double isolatedSds = 0.0;
  int isolatedBins = 4;
};

// isolatedSds: clears the held bins of h at most `weak` with no other held bin within w bins of
// them or of their mirror image (never the zero bin), unless every held nonzero bin would go.
inline void dropIsolatedWeak(const double* h, std::vector<char>& held, double weak, long w) {
  const long bins = long(held.size()), zero = bins / 2;
  auto nearOther = [&](long centre, long self) {
    for (long c = std::max(0L, centre - w); c <= std::min(bins - 1, centre + w); ++c) {
      if (c != self && held[c]) return true;
    }
    return false;
  };
  std::vector<char> drop(held.size(), 0);
  bool kept = false;
  for (long b = 0; b < bins; ++b) {
    if (!held[b]) continue;
    drop[b] = b != zero && h[b] <= weak && !nearOther(b, b) && !nearOther(bins - 1 - b, b);
    kept = kept || (b != zero && !drop[b]);
  }
  if (!kept) return;
  for (long b = 0; b < bins; ++b) {
    if (drop[b]) held[b] = 0;
  }
}

inline std::vector<learn::ColumnScaling> candidateScalings(const std::vector<double>& noisy,
                                                       std::size_t d, double sigma,
                                                       const CandidateRule& rule, std::size_t n) {
  const auto& e = learn::rangeBinEdges(rule.binsPerDecade);
  const std::size_t bins = e.size() + 1;
  if (noisy.size() != d * bins) throw std::invalid_argument("noisy: d x bins counts");
  double z = rule.thresholdSds;
  if (rule.familyAlpha > 0) {  // Φ⁻¹(1 − α/(d·bins)) by bisection on the upper tail
    const double target = rule.familyAlpha / (double(d) * double(bins));
    double a = 0, b = 40;
    for (int it = 0; it < 200; ++it) {
      const double m = 0.5 * (a + b);
      (0.5 * std::erfc(m / std::sqrt(2.0)) > target ? a : b) = m;
    }
    z = b;
  }
  const double tau = z * sigma;
  const double tauExtend = rule.extendSds * sigma;
  const std::size_t zero = bins / 2;  // the bin [−1e-6, 1e-6)
  // Bin b spans [lower(b), upper(b)); the two overflow bins are capped at the outer edges.
  auto lower = [&](std::size_t b) { return b == 0 ? e.front() : e[b - 1]; };
  auto upper = [&](std::size_t b) { return b == bins - 1 ? e.back() : e[b]; };
  const learn::ColumnScaling fallback{-rule.fallbackScale, rule.fallbackScale, learn::ScalingMap::kSignedLog,
                               learn::ScalingPath::kFallback};
  std::vector<learn::ColumnScaling> out(d);
  std::vector<char> kind(d, 0);  // 1: fallback, 2: zero-only span (for `pool`)
  for (std::size_t j = 0; j < d; ++j) {
    const double* h = noisy.data() + j * bins;
    std::size_t first = bins, last = 0;
    for (std::size_t b = 0; b < bins; ++b) {
      if (h[b] > tau) {
        first = std::min(first, b);
        last = b;
      }
    }
    if (rule.isolatedSds > 0 && first < last) {
      std::vector<char> held(bins, 0);
      for (std::size_t b = first; b <= last; ++b) held[b] = h[b] > tau;
      dropIsolatedWeak(h, held, rule.isolatedSds * sigma, rule.isolatedBins);
      first = bins, last = 0;
      for (std::size_t b = 0; b < bins; ++b) {
        if (held[b]) first = std::min(first, b), last = b;
      }
    }
    if (first == bins && rule.zeroPrimary && rule.zeroSds > 0 && h[zero] > rule.zeroSds * sigma) {
      first = last = zero;
    }
    if (first == bins) {
      if (rule.fallback) {
        // The noise supports no range: a public per-value transform, never a noise-selected bin.
        out[j] = fallback;
        kind[j] = 1;
        continue;
      }
      first = last = static_cast<std::size_t>(std::max_element(h, h + bins) - h);  // old rule
    }
    auto extend = [&] {
      while (first > 0 && h[first - 1] > tauExtend) --first;
      while (last + 1 < bins && h[last + 1] > tauExtend) ++last;
    };
    if (tauExtend > 0 && !rule.splitByMap) extend();
    if (rule.mirrorSds > 0 && (last < zero || first > zero)) {
      // Bin b's mirror image is bins − 1 − b (the grid is symmetric about the zero bin).
      bool mirrored = false;
      double sum = 0;
      for (std::size_t b = first; b <= last; ++b) {
        mirrored |= h[bins - 1 - b] > rule.mirrorSds * sigma;
        sum += h[bins - 1 - b];
      }
      if (rule.mirrorSum) mirrored = sum > rule.mirrorSds * sigma * std::sqrt(double(last - first + 1));
      if (mirrored) {
        const std::size_t mFirst = bins - 1 - last, mLast = bins - 1 - first;
        first = std::min(first, mFirst);
        last = std::max(last, mLast);
      }
    }
    if (rule.zeroSds > 0 && h[zero] > rule.zeroSds * sigma) {
      first = std::min(first, zero);
      last = std::max(last, zero);
    }
    if (tauExtend > 0 && rule.splitByMap && first < zero && last >= zero) extend();
    if (rule.fallback && (first == last) && (first == 0 || first == bins - 1)) {
      out[j] = fallback;  // only an overflow bin: the grid does not resolve the column
      kind[j] = 1;
      continue;
    }
    if (first == zero && last == zero && rule.zeroOnlyFallback) {
      out[j] = fallback;
      kind[j] = 1;
      continue;
    }
    if (first == zero && last == zero) kind[j] = 2;
    if (rule.pad > 0 && int(last - first + 1) <= rule.padSpan) {
      for (int k = 0; k < rule.pad; ++k) {
        if (first > 1 && first != zero && first - 1 != zero) --first;
        if (last + 2 < bins && last != zero && last + 1 != zero) ++last;
      }
    }
    // The scaling of the span [first, last] of bins.
    auto scalingOf = [&](std::size_t f, std::size_t l) {
      // The middle bin [−1e-6, 1e-6) stands for 0: as an end of the range it is 0 itself, so a
      // column whose detected mass is 0 and small positives maps 0 ↦ 0 (not ½), and a 0/1
      // column whose ones fall below the threshold gets [0, zeroOnlyHi].
      double lo = f == zero ? 0.0 : lower(f), hi = l == zero ? 0.0 : upper(l);
      if (rule.innerEdges && l > f && (!rule.splitByMap || !(lo < 0 && hi >= 0))) {
        if (f != zero && f + 1 < l) lo = upper(f);
        if (l != zero) hi = lower(l);
        if (f + 1 == l && f != zero && l != zero) lo = lower(f), hi = upper(l);
      }
      if (rule.zeroInnerTop && f == zero && l > zero + 1) hi = lower(l);
      if (rule.oneTop && f == zero && l == learn::rangeBinIndex(1.0, rule.binsPerDecade)) hi = 1.0;
      if (!(hi > lo)) hi = lo + (lo == 0.0 ? rule.zeroOnlyHi : 1.0);  // zero bin alone, or capped
      if (rule.ratio || (rule.symmetric && lo < 0 && hi >= 0)) {
        const double a = std::max(std::abs(lo), std::abs(hi));
        return learn::ColumnScaling{-a, a, learn::ScalingMap::kSymmetric, learn::ScalingPath::kPrivate};
      }
      return learn::ColumnScaling{lo, hi, learn::ScalingMap::kMinMax, learn::ScalingPath::kPrivate};
    };
    // Noisy rows held (mapped without clamping) by a scaling: the bins inside [lo, hi].
    auto heldMass = [&](const learn::ColumnScaling& c, std::size_t* count) {
      double m = 0;
      *count = 0;
      for (std::size_t b = 1; b + 1 < bins; ++b) {
        const double bl = b == zero ? 0.0 : lower(b), bu = b == zero ? 0.0 : upper(b);
        if (bl >= c.lo && bu <= c.hi) m += h[b], ++*count;
      }
      return m;
    };
    learn::ColumnScaling c = scalingOf(first, last);
    if (rule.padFrac > 0 && first == last && first != zero && c.map == learn::ScalingMap::kMinMax &&
        !(rule.padUnlessSds > 0 && h[first] >= 0.5 * double(n) + rule.padUnlessSds * sigma)) {
      const double r = std::pow(10.0, rule.padFrac / rule.binsPerDecade);
      if (c.lo > 0) c.lo /= r, c.hi *= r;
      else c.lo *= r, c.hi /= r;
    }
    if (rule.massShare > 0) {
      bool supported = false;
      for (;;) {
        std::size_t held = 0;
        const double m = heldMass(c, &held);
        if (m >= rule.massShare * double(n) + rule.massSds * sigma * std::sqrt(double(held))) {
          supported = true;
          break;
        }
        if (int(last - first + 1) >= rule.growCap || (first == 0 && last == bins - 1)) break;
        const double left = first > 0 ? h[first - 1] : -1e300;
        const double right = last + 1 < bins ? h[last + 1] : -1e300;
        (left >= right ? first : last) += left >= right ? std::size_t(-1) : 1;
        c = scalingOf(first, last);
      }
      if (!supported) c = fallback, kind[j] = 1;
    }
    out[j] = c;
  }
  if (rule.pool > 0 && (d >= 2 || !(rule.isolatedSds > 0))) {  // with iso, as the library: d ≥ 2
    std::vector<double> pooled(bins, 0.0);
    for (std::size_t j = 0; j < d; ++j) {
      for (std::size_t b = 0; b < bins; ++b) pooled[b] += noisy[j * bins + b];
    }
    const double sdPooled = sigma * std::sqrt(double(d));
    std::size_t pf = bins, pl = 0;
    for (std::size_t b = 1; b + 1 < bins; ++b) {
      if (pooled[b] > z * sdPooled) pf = std::min(pf, b), pl = b;
    }
    if (pf != bins && rule.zeroSds > 0 && pooled[zero] > rule.zeroSds * sdPooled) {
      pf = std::min(pf, zero), pl = std::max(pl, zero);
    }
    if (pf != bins) {
      double lo = pf == zero ? 0.0 : lower(pf), hi = pl == zero ? 0.0 : upper(pl);
      if (rule.poolTop && pf == zero && pl == learn::rangeBinIndex(1.0, rule.binsPerDecade)) hi = 1.0;
      // The supported nonzero bins' magnitudes lie within poolDecades decades (as the library).
      double minMag = 1e300, maxMag = 0;
      for (std::size_t b = 1; b + 1 < bins; ++b) {
        if (b == zero || !(pooled[b] > z * sdPooled)) continue;
        minMag = std::min({minMag, std::abs(lower(b)), std::abs(upper(b))});
        maxMag = std::max({maxMag, std::abs(lower(b)), std::abs(upper(b))});
      }
      bool oneScale = rule.poolDecades <= 0 || maxMag <= minMag * std::pow(10.0, rule.poolDecades);
      if (rule.poolTopMass > 0 && rule.poolDecades > 0 && maxMag > 0) {
        double top = 0, all = 0;
        for (std::size_t b = 1; b + 1 < bins; ++b) {
          if (b == zero || !(pooled[b] > z * sdPooled)) continue;
          all += pooled[b];
          if (std::min(std::abs(lower(b)), std::abs(upper(b))) * std::pow(10.0, rule.poolDecades) * (1 + 1e-9) >= maxMag)
            top += pooled[b];
        }
        oneScale = top >= rule.poolTopMass * all;
      }
      if (maxMag > 0 && oneScale) {
        learn::ColumnScaling c{lo, hi, learn::ScalingMap::kMinMax, learn::ScalingPath::kPooled};
        if (lo < 0 && hi >= 0) {
          const double a = std::max(-lo, hi);
          c = learn::ColumnScaling{-a, a, learn::ScalingMap::kSymmetric, learn::ScalingPath::kPooled};
        }
        if (rule.pool == 3) {  // the fallback's signed log at the table's scale instead
          const double a = std::log1p(std::max(std::abs(lo), std::abs(hi)));
          c = learn::ColumnScaling{-a, a, learn::ScalingMap::kSignedLog, learn::ScalingPath::kFallback};
        }
        std::vector<std::size_t> held;
        for (std::size_t b = pf; b <= pl; ++b) {
          if (!(rule.poolHeld > 0) || pooled[b] > rule.poolHeld * sdPooled) held.push_back(b);
        }
        double inside = 0;
        for (std::size_t b : held) inside += pooled[b];
        const double spanBins = double(held.size());
        const double massSd = sdPooled * std::sqrt(spanBins);
        const double nd = double(n) * double(d);
        const bool slackOn = rule.poolMassLcb > 0 || !(rule.poolMassRel > 0) || massSd <= rule.poolMassRel * nd;
        const double massSlack =
            slackOn ? (rule.poolMassSlack < 0 ? rule.poolSlack : rule.poolMassSlack) * massSd : 0.0;
        double massNeed = rule.poolMass * nd - massSlack;
        if (rule.poolMassLcb > 0) massNeed = std::min(rule.poolMass * nd, std::max(massNeed, rule.poolMassLcb * nd + massSlack));
        if (!(rule.poolMass > 0) || inside >= std::max(rule.poolMassFloor * nd, massNeed)) {
          for (std::size_t j = 0; j < d; ++j) {
            if (!(kind[j] == 1 || (kind[j] == 2 && rule.pool >= 2))) continue;
            if (kind[j] == 2 && rule.poolZeroOnlyFrom > 0 &&
                !(std::max(-c.lo, c.hi) >= rule.poolZeroOnlyFrom)) continue;
            if (rule.poolColumn > 0) {
              double own = 0;
              for (std::size_t b : held) own += noisy[j * bins + b];
              if (!(own >= rule.poolColumn * double(n) - rule.poolSlack * sigma * std::sqrt(spanBins))) continue;
            }
            out[j] = c;
          }
        }
      }
    }
  }
  return out;
}

}  // namespace dpmargin::bench
