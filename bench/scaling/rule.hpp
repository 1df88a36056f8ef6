// Benchmark helper: a CandidateRule (candidates.hpp) from a compact text of '/'-separated fields,
// e.g. "fs20.7/mir2/mirsum1/zero3/ext2/split1/zohi1/onetop1/padf0.5/zprim1/pool2/pooldec1.5/pooltopmass0.9/poolmass0.9/poolcol0.5/pooltop1/poolzo10/poolslack2/poolmslack0" (≈ the library's
// rule). Unnamed fields keep the CandidateRule defaults. Fields:
//   bpd (bins per decade), z (threshold, σ), fw (family-wise α), fb (signed-log fallback; 0: the
//   old largest noisy bin), fs (fallback scale), zo (zero-only span → fallback);
//   mir (mirror threshold, σ), mirsum (mirror test on the summed bins), zero (zero-bin level, σ),
//   zprim (the zero bin supported alone at that level), ext (extension threshold, σ), split
//   (extension for symmetric spans, inner edges for min–max spans only);
//   inner (inner edges), zohi (hi of a zero-only span), zit / onetop (top of spans from 0),
//   mass / msd / cap (noisy-mass support test), pad / padf / padspan (widening of narrow spans);
//   sym (symmetric map for spans straddling 0), ratio (symmetric map for every span);
//   pool (1: columns without support take the pooled span of all columns; 2: zero-only columns
//   too; 3: as 2 with the signed log at the span's scale), pooldec (only when that span covers at most this many decades; with
//   pooltopmass F: when the supported nonzero bins within that many decades below its largest
//   magnitude hold a share F of their noisy counts; poolslack S: the mass and column tests
//   allow S noise sds below their thresholds, poolmslack the mass test's own, poolmfloor F the
//   mass test never below F·n·d, poolmrel R its slack only where the sum's sd is at most R·n·d,
//   poolmlcb L the slack always, the threshold min(poolmass, max(poolmass − slack, L + slack))·n·d;
//   poolheld H: both count only the span's bins whose sum passes
//   H·σ√d), poolmass (only when
//   the span holds that share of the n·d noisy counts), poolcol (a column only when the span
//   holds that share of its n noisy counts), pooltop (a span from 0 to the bin holding 1 is
//   [0, 1]), poolzo (zero-only columns only when the span's magnitude reaches this), iso / isobins
//   (a supported bin ≤ iso·σ with no other supported bin within isobins bins of it or its mirror
//   is left out when the column keeps another supported nonzero bin; iso0: off).
// Names: "old" is the rule before this work (fb0/sym0); "library" the rule the core implements
// (scalingsFromNoisyHistograms; `scaling_coverage check=1 rule=library` checks they agree);
// "default" the CandidateRule defaults.
#pragma once

#include <cctype>
#include <sstream>
#include <stdexcept>
#include <string>

#include "candidates.hpp"

namespace dpmargin::bench {

inline CandidateRule parseRule(const std::string& text) {
  CandidateRule r;
  if (text.empty() || text == "default") return r;
  if (text == "library") return parseRule(
      "fs20.72326583794641/mir2/mirsum1/zero3/ext2/split1/zohi1/onetop1/padf0.5/zprim1/pool2/pooldec1.5/pooltopmass0.9/poolmass0.9/poolcol0.5/pooltop1/poolzo10/poolslack2/poolmslack2/poolmlcb0.5/iso6/isobins4");
  if (text == "old") {
    r.fallback = false;
    r.symmetric = false;
    return r;
  }
  std::stringstream in(text);
  std::string tok;
  while (std::getline(in, tok, '/')) {
    std::size_t k = 0;
    while (k < tok.size() && std::isalpha(static_cast<unsigned char>(tok[k]))) ++k;
    const std::string key = tok.substr(0, k);
    const double v = std::stod(tok.substr(k));
    if (key == "bpd") r.binsPerDecade = int(v);
    else if (key == "z") r.thresholdSds = v;
    else if (key == "fw") r.familyAlpha = v;
    else if (key == "ext") r.extendSds = v;
    else if (key == "mir") r.mirrorSds = v;
    else if (key == "mirsum") r.mirrorSum = v != 0;
    else if (key == "zero") r.zeroSds = v;
    else if (key == "inner") r.innerEdges = v != 0;
    else if (key == "zohi") r.zeroOnlyHi = v;
    else if (key == "zit") r.zeroInnerTop = v != 0;
    else if (key == "onetop") r.oneTop = v != 0;
    else if (key == "zprim") r.zeroPrimary = v != 0;
    else if (key == "mass") r.massShare = v;
    else if (key == "msd") r.massSds = v;
    else if (key == "cap") r.growCap = int(v);
    else if (key == "pad") r.pad = int(v);
    else if (key == "padf") r.padFrac = v;
    else if (key == "padunless") r.padUnlessSds = v;
    else if (key == "padspan") r.padSpan = int(v);
    else if (key == "split") r.splitByMap = v != 0;
    else if (key == "sym") r.symmetric = v != 0;
    else if (key == "ratio") r.ratio = v != 0;
    else if (key == "fb") r.fallback = v != 0;
    else if (key == "fs") r.fallbackScale = v;
    else if (key == "zo") r.zeroOnlyFallback = v != 0;
    else if (key == "pool") r.pool = int(v);
    else if (key == "pooldec") r.poolDecades = v;
    else if (key == "poolmass") r.poolMass = v;
    else if (key == "pooltopmass") r.poolTopMass = v;
    else if (key == "poolslack") r.poolSlack = v;
    else if (key == "poolmslack") r.poolMassSlack = v;
    else if (key == "poolmfloor") r.poolMassFloor = v;
    else if (key == "poolmrel") r.poolMassRel = v;
    else if (key == "poolmlcb") r.poolMassLcb = v;
    else if (key == "poolheld") r.poolHeld = v;
    else if (key == "poolcol") r.poolColumn = v;
    else if (key == "pooltop") r.poolTop = v != 0;
    else if (key == "poolzo") r.poolZeroOnlyFrom = v;
    else if (key == "iso") r.isolatedSds = v;
    else if (key == "isobins") r.isolatedBins = int(v);
    else throw std::runtime_error("unknown rule field " + key);
  }
  return r;
}

}  // namespace dpmargin::bench
