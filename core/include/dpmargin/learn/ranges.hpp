// Column ranges for min–max scaling (SPEC §3): declared public by the user, or estimated
// privately with a Gaussian mechanism on histograms over a PUBLIC signed log-scale bin grid.
#pragma once

#include <cstddef>
#include <vector>

#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

struct ColumnRange {
  double lo = 0;
  double hi = 1;  // hi > lo; values are mapped to [0, 1] by (x − lo)/(hi − lo), then clamped
};

// The public bin grid shared by every column: edges 0, ±10^(j/4) for j = −24 … 36 (1e-6 … 1e9,
// four bins per decade), i.e. the bins (−∞, −1e9), [−1e9, −10^8.75), …, [−1e-6, 1e-6),
// [1e-6, 10^−5.75), …, [1e9, ∞). Data-independent by construction.
const std::vector<double>& rangeBinEdges();  // ascending, finite
std::size_t rangeBinCount();                 // edges + 1
std::size_t rangeBinIndex(double x);         // the bin holding x

// Noisy histograms of all d columns at once (row-major raw data, `stride` ≥ d). Replacing one row
// moves one unit of count between two bins in every column, so the L2 sensitivity of the whole
// d × bins count vector is √(2d); each count gets N(0, σ²) with σ = √(2d)/μ (μ-GDP).
// Returns d × bins noisy counts, column-major per column (column j at [j·bins, (j+1)·bins)).
std::vector<double> noisyColumnHistograms(const float* x, std::size_t n, std::size_t stride,
                                          std::size_t d, double mu, random::Generator& g);

// Post-processing of the noisy histograms (no further privacy cost): a bin is occupied when its
// noisy count exceeds τ = kRangeThresholdSds·σ (4σ: a spurious far bin has probability ≈ 3e-5
// per bin); the range spans the first to the last occupied bin; with none occupied, the bin of
// the largest noisy count. Overflow bins are capped at ±1e9.
inline constexpr double kRangeThresholdSds = 4.0;
std::vector<ColumnRange> rangesFromNoisyHistograms(const std::vector<double>& noisy,
                                                   std::size_t d, double sigma);

// Both steps: μ-GDP private ranges of the d columns.
std::vector<ColumnRange> estimatePrivateRanges(const float* x, std::size_t n, std::size_t stride,
                                               std::size_t d, double mu, random::Generator& g);

void validateRanges(const std::vector<ColumnRange>& ranges, std::size_t features);

}  // namespace dpmargin::learn
