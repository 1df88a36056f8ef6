// Column scaling (SPEC §3, docs/design/SCALING.md): each raw column is mapped by one per-value function
// before the row operation. The function's parameters are declared public by the user, or
// estimated privately with a Gaussian mechanism on histograms over a PUBLIC signed log-scale bin
// grid; where the noisy histogram does not support a range, the column gets a public per-value
// transform (a signed log) instead — never a range read off a noise-selected bin.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

// Which path produced a column's scaling. Released with the model (report, model file, app).
enum class ScalingPath : std::uint8_t {
  kDeclared = 0,  // a range the user declared public
  kPrivate = 1,   // a range supported by the noisy histogram (covered by μ_ranges)
  kFallback = 2,  // no range supported by the noisy histogram: the public signed-log transform
  kPooled = 3,    // the column's histogram supported nothing (or only 0): the table's span, from
                  // the sum of all columns' noisy histograms (covered by μ_ranges)
};

// The per-value map of a column.
enum class ScalingMap : std::uint8_t {
  kMinMax = 0,     // clamp((x − lo)/(hi − lo), 0, 1)
  kSymmetric = 1,  // clamp(x/hi, −1, 1), with lo = −hi: 0 stays 0, a centred column stays centred
  kSignedLog = 2,  // sign(x)·log1p(|x|)/hi, with lo = −hi and hi a public scale; no clamping
};

const char* scalingPathName(ScalingPath path) noexcept;  // "declared", "private", "fallback", "pooled"
const char* scalingMapName(ScalingMap map) noexcept;     // "min-max", "symmetric", "signed-log"
// Inverses for model files and options; BAD_PARAMETER naming `parameter` for anything else.
ScalingPath parseScalingPath(const std::string& name, const std::string& parameter);
ScalingMap parseScalingMap(const std::string& name, const std::string& parameter);

struct ColumnScaling {
  double lo = 0;
  double hi = 1;  // hi > lo; kSymmetric and kSignedLog: lo = −hi
  ScalingMap map = ScalingMap::kMinMax;
  ScalingPath path = ScalingPath::kDeclared;
};
// The former name: a declared public range [lo, hi] is a min–max ColumnScaling.
using ColumnRange = ColumnScaling;

// sign(x)·log1p(|x|)
double signedLog(double x) noexcept;

// The one per-value function: training (Dataset::preprocess) and prediction (the same, on a
// Dataset declared with the released scalings) both call it. Computed in double, rounded once.
// Inline: it runs once per cell of the table (n × d calls in Dataset::prepare).
inline double applyScaling(double x, const ColumnScaling& s) noexcept {
  // NaN cannot occur: values are validated finite, and hi > lo.
  switch (s.map) {
    case ScalingMap::kMinMax: {
      const double t = (x - s.lo) / (s.hi - s.lo);
      return t < 0 ? 0 : (t > 1 ? 1 : t);
    }
    case ScalingMap::kSymmetric: {
      const double t = x / s.hi;
      return t < -1 ? -1 : (t > 1 ? 1 : t);
    }
    case ScalingMap::kSignedLog:
      return signedLog(x) / s.hi;
  }
  return x;
}
inline float applyScaling(float x, const ColumnScaling& s) noexcept {
  return static_cast<float>(applyScaling(static_cast<double>(x), s));
}

// The public bin grid shared by every column: edges 0, ±10^(j/p) for p = binsPerDecade bins per
// decade from 1e-6 to 1e9, i.e. the bins (−∞, −1e9), …, [−1e-6, 1e-6), …, [1e9, ∞).
// Data-independent by construction. p ∈ {1, 2, 4}; the default grid is p = 4 (122 edges).
inline constexpr int kDefaultBinsPerDecade = 4;
const std::vector<double>& rangeBinEdges(int binsPerDecade = kDefaultBinsPerDecade);  // ascending
std::size_t rangeBinCount(int binsPerDecade = kDefaultBinsPerDecade);                 // edges + 1
std::size_t rangeBinIndex(double x, int binsPerDecade = kDefaultBinsPerDecade);       // x's bin
// x's bin among ascending `edges` (size ≥ 1): the number of edges e with !(x < e), i.e.
// std::upper_bound's index, by a binary search without data-dependent branches (rangeBinIndex
// and the histograms' lookups use it). Equal to std::upper_bound for every x, NaN included
// (tests/cpp/scaling_test.cpp).
inline std::size_t binIndexOf(const double* edges, std::size_t size, double x) noexcept {
  const double* base = edges;
  std::size_t len = size;
  while (len > 1) {
    const std::size_t half = len / 2;
    base = x < base[half] ? base : base + half;
    len -= half;
  }
  return static_cast<std::size_t>(base - edges) + (x < *base ? 0 : 1);
}

// Exact counts of all d columns over the grid (d × bins, column j at [j·bins, (j+1)·bins)).
std::vector<double> columnHistograms(const float* x, std::size_t n, std::size_t stride,
                                     std::size_t d, int binsPerDecade = kDefaultBinsPerDecade);
// The same for the columns `columns` of each row only (indices < stride, in that order): equal
// to columnHistograms of those columns copied into a table of their own, without the copy.
std::vector<double> columnHistograms(const float* x, std::size_t n, std::size_t stride,
                                     const std::vector<std::size_t>& columns,
                                     int binsPerDecade = kDefaultBinsPerDecade);

// Noisy histograms of all d columns at once (row-major raw data, `stride` ≥ d). Replacing one row
// moves one unit of count between two bins in every column, so the L2 sensitivity of the whole
// d × bins count vector is √(2d); each count gets N(0, σ²) with σ = √(2d)/μ (μ-GDP).
// Returns d × bins noisy counts, column-major per column (column j at [j·bins, (j+1)·bins)).
std::vector<double> noisyColumnHistograms(const float* x, std::size_t n, std::size_t stride,
                                          std::size_t d, double mu, random::Generator& g,
                                          int binsPerDecade = kDefaultBinsPerDecade);
// Of the columns `columns` of each row only (d = columns.size(): the sensitivity counts those).
std::vector<double> noisyColumnHistograms(const float* x, std::size_t n, std::size_t stride,
                                          const std::vector<std::size_t>& columns, double mu,
                                          random::Generator& g,
                                          int binsPerDecade = kDefaultBinsPerDecade);
double histogramSigma(std::size_t d, double mu);  // √(2d)/μ

// How the noisy histograms become scalings: post-processing only (no privacy cost); every
// constant is public. Chosen by measurement (bench/scaling/run.sh, docs/design/SCALING.md):
//  1. A bin is supported when its noisy count exceeds 4σ (a pure-noise bin passes with
//     probability 3.2e-5; 123 bins a column). Failing that, the zero bin alone — one bin named in
//     advance, not a search — is supported at 3σ (1.3e-3): sparse and 0/1 columns at small n.
//     No supported bin: the column gets the public fallback transform,
//     x ↦ sign(x)·log1p(|x|)/log1p(1e9) — never a range read off a noise-selected bin. A column
//     supported only by an overflow bin (|x| ≥ 1e9) falls back too. A supported bin at most
//     kRangeIsolatedSds·σ with no other supported bin within kRangeIsolatedBins bins (one
//     decade) of it or of its mirror image is left out when the column keeps another supported
//     nonzero bin: a pure-noise bin is that (≈ 0.4% of the columns get one, anywhere on 15
//     decades), and it would stretch the span by decades and erase the column; a real cluster
//     that small and that far from the rest is clamped to the span's end. (A sparse column's
//     zeros and one weak cluster keep their span: nothing nonzero tells noise from data there.)
//  2. The span runs from the first to the last supported bin. Then, with lower levels for bins
//     that the 4σ test already points at: a span on one side of 0 takes in its mirror image when
//     the mirror bins' noisy counts sum to more than 2σ·√(span's bins) (a centred column whose
//     other half fell below 4σ; one test per column, so a column without that half passes it with
//     probability 2.3% and then only maps by x/hi instead of min–max); the span takes in 0 when
//     the zero bin passes 3σ; a span that straddles 0 grows through adjacent bins above 2σ.
//  3. Ends: the zero bin [−1e-6, 1e-6) ends a span at 0 exactly; a span of the zero bin alone,
//     or from it to the bin holding 1, [1, 10^¼), is [0, 1]: a 0/1 column maps to {0, 1} whether
//     its ones passed the threshold or not.
//  4. Map: a span with lo < 0 ≤ hi maps symmetrically, x ↦ clamp(x/a, −1, 1) with
//     a = max(−lo, hi) (0 stays 0); any other span by min–max to [0, 1], a span of one bin widened
//     by half a bin on each side (×10^⅛ in magnitude) so that it keeps most of its column's rows.
//  5. The table's span (d ≥ 2): the sum of the d noisy histograms (noise sd σ√d) is read as
//     one column — bins above 4σ√d, the zero bin joining at 3σ√d, outer edges ([0, 1] from 0
//     to the bin holding 1), symmetric if it straddles 0. When the supported nonzero bins within
//     kRangePoolDecades decades below the largest magnitude hold kRangePoolTopMass of all
//     supported nonzero bins' counts and the span holds at least kRangePoolMass of the n·d
//     noisy counts less kRangePoolMassSlackSds noise sds of that sum — but never less than
//     kRangePoolMassLcb of n·d plus those sds (its sum less them must still show that share),
//     nor more than kRangePoolMass of n·d (the table's values live on one scale: pixels, counts,
//     one-hot blocks, centred or standardised measurements), a column takes that span (path
//     kPooled) if its own histogram supported nothing — or only the zero bin and the span reaches
//     kRangePoolZeroOnlyFrom — and its own noisy counts put at least kRangePoolColumn of its n
//     rows inside the span: a table-wide min–max instead of columns erased by the fallback's
//     scale or binarised by [0, 1] at small n·μ/√d. The column's test allows kRangePoolSlackSds
//     noise sds below its threshold: where a column's counts cannot tell, every column pools
//     alike.
inline constexpr double kRangeThresholdSds = 4.0;  // detection
inline constexpr double kRangeSecondSds = 2.0;     // mirror image (summed), growth across 0
inline constexpr double kRangeZeroSds = 3.0;       // the zero bin (alone, or joining a span)
inline constexpr double kRangeIsolatedSds = 6.0;   // step 1: a weak bin alone, left out …
inline constexpr std::size_t kRangeIsolatedBins = 4;  //   … when nothing is within 4 bins of it
inline constexpr double kRangePoolDecades = 1.5;   // step 5: the table on one scale: within 1.5
inline constexpr double kRangePoolTopMass = 0.9;   //   decades of the top, 90% of the nonzero mass
inline constexpr double kRangePoolMass = 0.9;      // step 5: … holding 90% of the table's values
inline constexpr double kRangePoolMassSlackSds = 2.0;  //   less 2 noise sds of that sum, but the
inline constexpr double kRangePoolMassLcb = 0.5;       //   sum less them holds half of n·d
inline constexpr double kRangePoolColumn = 0.5;    // step 5: … and half of the column's own rows
inline constexpr double kRangePoolZeroOnlyFrom = 10;  // step 5: zero-only columns when |span| ≥ 10
inline constexpr double kRangePoolSlackSds = 2.0;  // step 5: noise allowed below the column test
double fallbackScale();  // log1p(1e9) ≈ 20.72: the grid's extent [−1e9, 1e9] maps onto [−1, 1]
ColumnScaling fallbackScaling();  // {−fallbackScale(), fallbackScale(), kSignedLog, kFallback}

// One scaling per column (path kPrivate, kFallback or kPooled) from d × bins noisy counts with noise σ,
// on the default grid, for a table of n rows (public; step 5's mass test).
std::vector<ColumnScaling> scalingsFromNoisyHistograms(const std::vector<double>& noisy,
                                                       std::size_t d, double sigma, std::size_t n);

// Both steps: μ-GDP private scalings of the d columns (the trainer's call; `estimatePrivateRanges`
// is the former name).
std::vector<ColumnScaling> estimatePrivateScalings(const float* x, std::size_t n,
                                                   std::size_t stride, std::size_t d, double mu,
                                                   random::Generator& g);
// Of the columns `columns` of each row only (one scaling per listed column, in that order):
// what the other overload gives on those columns copied into a table of their own.
std::vector<ColumnScaling> estimatePrivateScalings(const float* x, std::size_t n,
                                                   std::size_t stride,
                                                   const std::vector<std::size_t>& columns,
                                                   double mu, random::Generator& g);
inline std::vector<ColumnScaling> estimatePrivateRanges(const float* x, std::size_t n,
                                                        std::size_t stride, std::size_t d,
                                                        double mu, random::Generator& g) {
  return estimatePrivateScalings(x, n, stride, d, mu, g);
}

// Empty, or one valid scaling per feature: finite, hi > lo, lo = −hi for the symmetric and
// signed-log maps. BAD_PARAMETER names columnRanges[j].
void validateRanges(const std::vector<ColumnScaling>& ranges, std::size_t features);

}  // namespace dpmargin::learn
