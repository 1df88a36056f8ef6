#include "dpmargin/learn/ranges.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "dpmargin/testing/faults.hpp"

namespace dpmargin::learn {

namespace {
constexpr int kMinDecade = -6;  // 1e-6
constexpr int kMaxDecade = 9;   // 1e9

std::vector<double> makeEdges(int perDecade) {
  std::vector<double> positive;
  for (int j = kMinDecade * perDecade; j <= kMaxDecade * perDecade; ++j) {
    positive.push_back(std::pow(10.0, double(j) / perDecade));
  }
  std::vector<double> edges;
  for (auto it = positive.rbegin(); it != positive.rend(); ++it) edges.push_back(-*it);
  edges.insert(edges.end(), positive.begin(), positive.end());
  return edges;  // −1e9 … −1e-6, 1e-6 … 1e9: the middle bin [−1e-6, 1e-6) holds 0
}

// The histograms' bin lookup for float cells: a table indexed by a float's sign, exponent and
// top kTableMantissaBits mantissa bits. Each index covers one interval of floats; where the
// lookup (binIndexOf) gives the same bin at both ends of the interval, it gives that bin to
// every float inside (it is monotone), and the table holds it; otherwise (an edge inside, or
// NaN/∞) the table holds kSearch and the cell takes binIndexOf itself. Exact by construction:
// the same bin as std::upper_bound for every float (tests/cpp/scaling_test.cpp checks all of
// them near every edge).
constexpr int kTableMantissaBits = 4;
constexpr int kTableShift = 23 - kTableMantissaBits;
constexpr std::uint8_t kSearch = 255;

struct BinTable {
  const std::vector<double>& edges;  // the grid's (rangeBinEdges: static)
  std::vector<std::uint8_t> bin;     // 2^(9 + kTableMantissaBits) entries

  explicit BinTable(const std::vector<double>& e) : edges(e), bin(std::size_t{1} << (32 - kTableShift)) {
    for (std::uint32_t k = 0; k < bin.size(); ++k) {
      const std::uint32_t first = k << kTableShift, last = first | ((1u << kTableShift) - 1);
      if (((first >> 23) & 0xFFu) == 0xFFu) {  // ∞ and NaN
        bin[k] = kSearch;
        continue;
      }
      float a, b;
      std::memcpy(&a, &first, sizeof a);
      std::memcpy(&b, &last, sizeof b);
      const std::size_t ia = binIndexOf(e.data(), e.size(), a), ib = binIndexOf(e.data(), e.size(), b);
      bin[k] = ia == ib && ia < kSearch ? static_cast<std::uint8_t>(ia) : kSearch;
    }
  }

  std::size_t operator()(float x) const noexcept {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const std::uint8_t b = bin[bits >> kTableShift];
    return b != kSearch ? b : binIndexOf(edges.data(), edges.size(), double(x));
  }
};

void requireGrid(int perDecade) {
  if (perDecade != 1 && perDecade != 2 && perDecade != 4) {
    throwBadParameter("binsPerDecade", "1, 2 or 4", double(perDecade));
  }
}
}  // namespace

const char* scalingPathName(ScalingPath path) noexcept {
  switch (path) {
    case ScalingPath::kDeclared: return "declared";
    case ScalingPath::kPrivate: return "private";
    case ScalingPath::kFallback: return "fallback";
    case ScalingPath::kPooled: return "pooled";
  }
  return "?";
}

const char* scalingMapName(ScalingMap map) noexcept {
  switch (map) {
    case ScalingMap::kMinMax: return "min-max";
    case ScalingMap::kSymmetric: return "symmetric";
    case ScalingMap::kSignedLog: return "signed-log";
  }
  return "?";
}

ScalingPath parseScalingPath(const std::string& name, const std::string& parameter) {
  for (ScalingPath p : {ScalingPath::kDeclared, ScalingPath::kPrivate, ScalingPath::kFallback,
                        ScalingPath::kPooled}) {
    if (name == scalingPathName(p)) return p;
  }
  throw Error(ErrorCode::kBadParameter, parameter,
              parameter + " must be one of \"declared\", \"private\", \"fallback\", \"pooled\", but is \"" +
                  name + "\"");
}

ScalingMap parseScalingMap(const std::string& name, const std::string& parameter) {
  for (ScalingMap m : {ScalingMap::kMinMax, ScalingMap::kSymmetric, ScalingMap::kSignedLog}) {
    if (name == scalingMapName(m)) return m;
  }
  throw Error(ErrorCode::kBadParameter, parameter,
              parameter + " must be one of \"min-max\", \"symmetric\", \"signed-log\", but is \"" + name + "\"");
}

double signedLog(double x) noexcept { return std::copysign(std::log1p(std::abs(x)), x); }

const std::vector<double>& rangeBinEdges(int binsPerDecade) {
  requireGrid(binsPerDecade);
  static const std::vector<double> e1 = makeEdges(1), e2 = makeEdges(2), e4 = makeEdges(4);
  return binsPerDecade == 1 ? e1 : (binsPerDecade == 2 ? e2 : e4);
}

std::size_t rangeBinCount(int binsPerDecade) { return rangeBinEdges(binsPerDecade).size() + 1; }

std::size_t rangeBinIndex(double x, int binsPerDecade) {
  const auto& e = rangeBinEdges(binsPerDecade);
  return binIndexOf(e.data(), e.size(), x);
}

double histogramSigma(std::size_t d, double mu) { return std::sqrt(2.0 * double(d)) / mu; }

namespace {
const BinTable& binTable(int binsPerDecade) {
  static const BinTable t1(rangeBinEdges(1)), t2(rangeBinEdges(2)), t4(rangeBinEdges(4));
  return binsPerDecade == 1 ? t1 : (binsPerDecade == 2 ? t2 : t4);
}

// The counts of d columns of each row: columns[k] (or k when columns is null) at [k·bins, …).
std::vector<double> countColumns(const float* x, std::size_t n, std::size_t stride, std::size_t d,
                                 const std::size_t* columns, int binsPerDecade) {
  const std::size_t bins = rangeBinCount(binsPerDecade);  // (validates the grid)
  std::vector<double> counts(d * bins, 0.0);
  const BinTable& table = binTable(binsPerDecade);
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = x + i * stride;
    double* column = counts.data();
    if (columns == nullptr) {
      for (std::size_t j = 0; j < d; ++j, column += bins) column[table(row[j])] += 1.0;
    } else {
      for (std::size_t k = 0; k < d; ++k, column += bins) column[table(row[columns[k]])] += 1.0;
    }
  }
  return counts;
}

void requireColumns(const std::vector<std::size_t>& columns, std::size_t stride) {
  for (const std::size_t j : columns) {
    if (j >= stride) throwBadParameter("columns", "indices below the row stride", double(j));
  }
}

std::vector<double> addHistogramNoise(std::vector<double> counts, std::size_t d, double mu,
                                      random::Generator& g) {
  // Replace-one moves one unit between two bins of every column: ‖Δ‖₂ ≤ √(2d) for all d × bins
  // counts at once, hence one Gaussian mechanism with σ = √(2d)/μ is μ-GDP.
  // (DPMARGIN_FAULTS: the constant 1 outside the audit build; testing/faults.hpp.)
  random::addGaussian(g, histogramSigma(d, mu) * DPMARGIN_FAULTS.rangeNoise, counts.data(), counts.size());
  return counts;
}
}  // namespace

std::vector<double> columnHistograms(const float* x, std::size_t n, std::size_t stride,
                                     std::size_t d, int binsPerDecade) {
  return countColumns(x, n, stride, d, nullptr, binsPerDecade);
}

std::vector<double> columnHistograms(const float* x, std::size_t n, std::size_t stride,
                                     const std::vector<std::size_t>& columns, int binsPerDecade) {
  requireColumns(columns, stride);
  return countColumns(x, n, stride, columns.size(), columns.data(), binsPerDecade);
}

std::vector<double> noisyColumnHistograms(const float* x, std::size_t n, std::size_t stride,
                                          std::size_t d, double mu, random::Generator& g,
                                          int binsPerDecade) {
  requirePositive("mu", mu);
  return addHistogramNoise(columnHistograms(x, n, stride, d, binsPerDecade), d, mu, g);
}

std::vector<double> noisyColumnHistograms(const float* x, std::size_t n, std::size_t stride,
                                          const std::vector<std::size_t>& columns, double mu,
                                          random::Generator& g, int binsPerDecade) {
  requirePositive("mu", mu);
  return addHistogramNoise(columnHistograms(x, n, stride, columns, binsPerDecade), columns.size(), mu, g);
}

namespace {
// Step 1's weak far bins, on one column's histogram h: the held (supported) bins at most `weak`
// with no other held bin within kRangeIsolatedBins bins of them or of their mirror image are
// cleared — unless that would clear every held nonzero bin (then the column has no nonzero bulk
// to tell noise from: a sparse column's zeros and its one weak cluster of values keep their
// span). The zero bin is never cleared. A pure-noise bin passing 4 sds is such a bin: it would
// stretch the span by decades.
void dropIsolatedWeakBins(const double* h, std::vector<char>& held, double weak) {
  const std::size_t bins = held.size(), zero = bins / 2, w = kRangeIsolatedBins;
  auto heldNear = [&](std::size_t centre, std::size_t self) {
    const std::size_t lo = centre > w ? centre - w : 0, hi = std::min(bins - 1, centre + w);
    for (std::size_t c = lo; c <= hi; ++c) {
      if (c != self && held[c]) return true;
    }
    return false;
  };
  std::vector<char> drop(bins, 0);
  bool kept = false;
  for (std::size_t b = 0; b < bins; ++b) {
    if (!held[b]) continue;
    drop[b] = b != zero && h[b] <= weak && !heldNear(b, b) && !heldNear(bins - 1 - b, b);
    kept = kept || (b != zero && !drop[b]);
  }
  if (!kept) return;
  for (std::size_t b = 0; b < bins; ++b) {
    if (drop[b]) held[b] = 0;
  }
}
}  // namespace

double fallbackScale() { return std::log1p(1e9); }

ColumnScaling fallbackScaling() {
  return {-fallbackScale(), fallbackScale(), ScalingMap::kSignedLog, ScalingPath::kFallback};
}

std::vector<ColumnScaling> scalingsFromNoisyHistograms(const std::vector<double>& noisy,
                                                       std::size_t d, double sigma, std::size_t n) {
  const auto& e = rangeBinEdges();
  const std::size_t bins = e.size() + 1;
  if (noisy.size() != d * bins) throwBadParameter("noisy", "d × bins counts", double(noisy.size()));
  requirePositive("sigma", sigma);
  const double tau = kRangeThresholdSds * sigma, second = kRangeSecondSds * sigma,
               zeroLevel = kRangeZeroSds * sigma, isolatedLevel = kRangeIsolatedSds * sigma;
  const std::size_t zero = bins / 2;  // the bin [−1e-6, 1e-6); bin b's mirror is bins − 1 − b
  // Bin b spans [lower(b), upper(b)); the two overflow bins are capped at the outer edges.
  auto lower = [&](std::size_t b) { return b == 0 ? e.front() : e[b - 1]; };
  auto upper = [&](std::size_t b) { return b == bins - 1 ? e.back() : e[b]; };
  // Steps 3 and 4 for a span of bins [first, last]: its ends (the zero bin ends it at 0 exactly;
  // from the zero bin to the bin holding 1, or the zero bin alone, it is [0, 1]) and its map
  // (symmetric if it straddles 0, else min–max). Columns (step 4's widening aside) and the
  // table's span (step 5) alike.
  auto spanScaling = [&](std::size_t first, std::size_t last, ScalingPath path) -> ColumnScaling {
    const double lo = first == zero ? 0.0 : lower(first);
    double hi = last == zero ? 0.0 : upper(last);
    if (first == zero && (last == zero || last == rangeBinIndex(1.0))) hi = 1.0;
    if (lo < 0 && hi >= 0) {
      const double a = std::max(-lo, hi);
      return {-a, a, ScalingMap::kSymmetric, path};
    }
    return {lo, hi, ScalingMap::kMinMax, path};
  };
  std::vector<ColumnScaling> out(d);
  // Columns whose span is the zero bin alone ([0, 1]): with the fallback's, step 5 may give them
  // the table's span.
  std::vector<bool> zeroOnly(d, false);
  for (std::size_t j = 0; j < d; ++j) {
    const double* h = noisy.data() + j * bins;
    // 1. Supported bins (the zero bin alone at 3σ); none: the public fallback, whatever the noisy
    // counts are.
    std::size_t first = bins, last = 0;
    for (std::size_t b = 0; b < bins; ++b) {
      if (h[b] > tau) {
        first = std::min(first, b);
        last = b;
      }
    }
    if (first < last) {  // a weak bin far from the rest: left out (step 1)
      std::vector<char> held(bins, 0);
      for (std::size_t b = first; b <= last; ++b) held[b] = h[b] > tau;
      dropIsolatedWeakBins(h, held, isolatedLevel);
      first = bins, last = 0;
      for (std::size_t b = 0; b < bins; ++b) {
        if (held[b]) first = std::min(first, b), last = b;
      }
    }
    if (first == bins && h[zero] > zeroLevel) first = last = zero;  // one pre-specified bin: 3σ
    if (first == bins) {
      out[j] = fallbackScaling();
      continue;
    }
    // 2. Mirror image (2σ·√k on the sum), zero (3σ), and for a span straddling 0 adjacent bins (2σ).
    if (last < zero || first > zero) {
      double mirror = 0;  // one test per column on the summed mirror bins: N(0, k·σ²) if empty
      for (std::size_t b = first; b <= last; ++b) mirror += h[bins - 1 - b];
      if (mirror > second * std::sqrt(double(last - first + 1))) {
        const std::size_t mirrorFirst = bins - 1 - last, mirrorLast = bins - 1 - first;
        first = std::min(first, mirrorFirst);
        last = std::max(last, mirrorLast);
      }
    }
    if (h[zero] > zeroLevel) {
      first = std::min(first, zero);
      last = std::max(last, zero);
    }
    if (first < zero && last >= zero) {
      while (first > 0 && h[first - 1] > second) --first;
      while (last + 1 < bins && h[last + 1] > second) ++last;
    }
    if (first == last && (first == 0 || first == bins - 1)) {
      out[j] = fallbackScaling();  // only an overflow bin: the grid does not resolve the column
      continue;
    }
    zeroOnly[j] = first == zero && last == zero;
    // 3.–4. Ends and map; a min–max span of one bin on one side of 0 is half a bin wider.
    ColumnScaling c = spanScaling(first, last, ScalingPath::kPrivate);
    if (c.map == ScalingMap::kMinMax && first == last && first != zero) {
      const double widen = std::pow(10.0, 0.5 / kDefaultBinsPerDecade);
      if (c.lo > 0) c.lo /= widen, c.hi *= widen;
      else c.lo *= widen, c.hi /= widen;
    }
    if (!(c.hi > c.lo)) c.hi = c.lo + 1.0;  // cannot happen on this grid; keeps hi > lo in any case
    out[j] = c;
  }
  // 5. The table's span, for the columns left unresolved (issue 15, docs/design/SCALING.md "The
  // rule", step 5): the sum of the d noisy histograms has noise N(0, d·σ²) per bin. Its bins above 4σ√d
  // (the zero bin joining at 3σ√d) give one span; when the supported nonzero bins lie within
  // kRangePoolDecades decades and the span holds most of the table's values — a table whose
  // values live on one scale — a column whose own histogram supported nothing (or only the zero
  // bin, when the span reaches kRangePoolZeroOnlyFrom) and whose own counts put half of its rows
  // inside takes that span instead of the fallback or [0, 1]. Post-processing of the same noisy
  // counts, with the public n.
  auto unresolved = [&](std::size_t j) { return zeroOnly[j] || out[j].path == ScalingPath::kFallback; };
  // (One column is its own table: its sum would only re-read the bins step 1 left out.)
  bool any = false;
  for (std::size_t j = 0; j < d; ++j) any = any || unresolved(j);
  if (!any || d < 2) return out;
  std::vector<double> pooled(bins, 0.0);
  for (std::size_t j = 0; j < d; ++j) {
    for (std::size_t b = 0; b < bins; ++b) pooled[b] += noisy[j * bins + b];
  }
  const double pooledSd = sigma * std::sqrt(static_cast<double>(d));
  std::size_t first = bins, last = 0;
  double largest = 0;
  auto supported = [&](std::size_t b) { return pooled[b] > kRangeThresholdSds * pooledSd; };
  for (std::size_t b = 1; b + 1 < bins; ++b) {  // overflow bins never set the span
    if (!supported(b)) continue;
    first = std::min(first, b);
    last = b;
    if (b != zero) largest = std::max({largest, std::abs(lower(b)), std::abs(upper(b))});
  }
  if (!(largest > 0)) return out;
  // One scale: the supported nonzero bins lying within kRangePoolDecades decades below the
  // largest magnitude hold at least kRangePoolTopMass of all supported nonzero bins' counts.
  // (A share, not all of them: a centred column's values near 0 fill bins decades further down.)
  double top = 0, all = 0;
  const double reach = std::pow(10.0, kRangePoolDecades) * (1 + 1e-9);  // edges are 10^(k/4): rounding
  for (std::size_t b = 1; b + 1 < bins; ++b) {
    if (b == zero || !supported(b)) continue;
    all += pooled[b];
    if (std::min(std::abs(lower(b)), std::abs(upper(b))) * reach >= largest) top += pooled[b];
  }
  if (!(top >= kRangePoolTopMass * all)) return out;
  if (pooled[zero] > kRangeZeroSds * pooledSd) {
    first = std::min(first, zero);
    last = std::max(last, zero);
  }
  // … and when the span holds at least kRangePoolMass of the table's n·d values (noisy): the
  // supported bins may be one cluster of a table on many scales, which the span would erase.
  // The test allows kRangePoolMassSlackSds noise sds s of the span's sum (σ√(d·k) over its k
  // bins) — without them it failed on noise alone on tables on one scale (docs/design/SCALING.md) — but
  // the sum less them must still show kRangePoolMassLcb of n·d: the threshold is
  // min(0.9·n·d, max(0.9·n·d − 2s, 0.5·n·d + 2s)), 0.9·n·d − 2s while s ≤ 10% of n·d, rising
  // back to 0.9·n·d at s = 20%. Where s is a large share of n·d, a noise-supported bin of a
  // table on many scales (the mixed test table at small n·d) would otherwise pass
  // (docs/design/SCALING.md).
  const double spanBins = static_cast<double>(last - first + 1);
  double inside = 0;
  for (std::size_t b = first; b <= last; ++b) inside += pooled[b];
  const double nd = static_cast<double>(n) * static_cast<double>(d);
  const double massSlack = kRangePoolMassSlackSds * pooledSd * std::sqrt(spanBins);
  const double massNeed = std::min(kRangePoolMass * nd, std::max(kRangePoolMass * nd - massSlack,
                                                                 kRangePoolMassLcb * nd + massSlack));
  if (!(inside >= massNeed)) return out;
  const ColumnScaling table = spanScaling(first, last, ScalingPath::kPooled);  // a 0/1 table: [0, 1]
  // A column takes the span only when its own noisy counts put at least kRangePoolColumn of its
  // n rows inside it (the coverage bound of issue 14, per column: a column of another scale in a
  // table mostly on one — counts of thousands among word frequencies — keeps its own result).
  const bool farFromOne = std::max(-table.lo, table.hi) >= kRangePoolZeroOnlyFrom;
  for (std::size_t j = 0; j < d; ++j) {
    if (!unresolved(j) || (zeroOnly[j] && !farFromOne)) continue;  // zero-only: [0, 1] kept
    // Less kRangePoolSlackSds noise sds of that sum (σ√k over the span's k bins): where the
    // column's counts cannot tell, the table's evidence decides, the same way for every column.
    double own = 0;
    for (std::size_t b = first; b <= last; ++b) own += noisy[j * bins + b];
    if (own >= kRangePoolColumn * static_cast<double>(n) - kRangePoolSlackSds * sigma * std::sqrt(spanBins)) {
      out[j] = table;
    }
  }
  return out;
}

std::vector<ColumnScaling> estimatePrivateScalings(const float* x, std::size_t n,
                                                   std::size_t stride, std::size_t d, double mu,
                                                   random::Generator& g) {
  const std::vector<double> noisy = noisyColumnHistograms(x, n, stride, d, mu, g);
  return scalingsFromNoisyHistograms(noisy, d, histogramSigma(d, mu), n);
}

std::vector<ColumnScaling> estimatePrivateScalings(const float* x, std::size_t n,
                                                   std::size_t stride,
                                                   const std::vector<std::size_t>& columns,
                                                   double mu, random::Generator& g) {
  const std::vector<double> noisy = noisyColumnHistograms(x, n, stride, columns, mu, g);
  return scalingsFromNoisyHistograms(noisy, columns.size(), histogramSigma(columns.size(), mu), n);
}

void validateRanges(const std::vector<ColumnScaling>& ranges, std::size_t features) {
  if (ranges.empty()) return;
  if (ranges.size() != features) {
    throwBadParameter("columnRanges", "one range per feature column (" + std::to_string(features) + ")",
                      double(ranges.size()));
  }
  for (std::size_t j = 0; j < ranges.size(); ++j) {
    const std::string name = "columnRanges[" + std::to_string(j) + "]";
    const ColumnScaling& r = ranges[j];
    requireFinite((name + ".lo").c_str(), r.lo);
    requireFinite((name + ".hi").c_str(), r.hi);
    if (!(r.hi > r.lo)) throwBadParameter(name + ".hi", "> lo", r.hi);
    switch (r.map) {
      case ScalingMap::kMinMax:
        break;
      case ScalingMap::kSymmetric:
      case ScalingMap::kSignedLog:
        if (r.lo != -r.hi) throwBadParameter(name + ".lo", "-hi for a symmetric or signed-log map", r.lo);
        break;
      default:
        throwBadParameter(name + ".map", "min-max, symmetric or signed-log", double(int(r.map)));
    }
    switch (r.path) {
      case ScalingPath::kDeclared:
      case ScalingPath::kPrivate:
      case ScalingPath::kFallback:
      case ScalingPath::kPooled:
        break;
      default:
        throwBadParameter(name + ".path", "declared, private, fallback or pooled", double(int(r.path)));
    }
  }
}

}  // namespace dpmargin::learn
