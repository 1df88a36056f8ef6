#include "dpmargin/learn/ranges.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "dpmargin/testing/faults.hpp"

namespace dpmargin::learn {

namespace {
constexpr int kMinExponentQuarter = -24;  // 1e-6
constexpr int kMaxExponentQuarter = 36;   // 1e9

std::vector<double> makeEdges() {
  std::vector<double> positive;
  for (int j = kMinExponentQuarter; j <= kMaxExponentQuarter; ++j) {
    positive.push_back(std::pow(10.0, j / 4.0));
  }
  std::vector<double> edges;
  for (auto it = positive.rbegin(); it != positive.rend(); ++it) edges.push_back(-*it);
  edges.insert(edges.end(), positive.begin(), positive.end());
  return edges;  // −1e9 … −1e-6, 1e-6 … 1e9: the middle bin [−1e-6, 1e-6) holds 0
}
}  // namespace

const std::vector<double>& rangeBinEdges() {
  static const std::vector<double> edges = makeEdges();
  return edges;
}

std::size_t rangeBinCount() { return rangeBinEdges().size() + 1; }

std::size_t rangeBinIndex(double x) {
  const auto& e = rangeBinEdges();
  return static_cast<std::size_t>(std::upper_bound(e.begin(), e.end(), x) - e.begin());
}

std::vector<double> noisyColumnHistograms(const float* x, std::size_t n, std::size_t stride,
                                          std::size_t d, double mu, random::Generator& g) {
  requirePositive("mu", mu);
  const std::size_t bins = rangeBinCount();
  std::vector<double> counts(d * bins, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const float* row = x + i * stride;
    for (std::size_t j = 0; j < d; ++j) counts[j * bins + rangeBinIndex(row[j])] += 1.0;
  }
  const double sigma = std::sqrt(2.0 * double(d)) / mu;
  // (DPMARGIN_FAULTS: the constant 1 outside the audit build; testing/faults.hpp.)
  random::addGaussian(g, sigma * DPMARGIN_FAULTS.rangeNoise, counts.data(), counts.size());
  return counts;
}

std::vector<ColumnRange> rangesFromNoisyHistograms(const std::vector<double>& noisy,
                                                   std::size_t d, double sigma) {
  const auto& e = rangeBinEdges();
  const std::size_t bins = rangeBinCount();
  const double tau = kRangeThresholdSds * sigma;
  // Bin b spans [lower(b), upper(b)); the two overflow bins are capped at the outer edges.
  auto lower = [&](std::size_t b) { return b == 0 ? e.front() : e[b - 1]; };
  auto upper = [&](std::size_t b) { return b == bins - 1 ? e.back() : e[b]; };
  std::vector<ColumnRange> ranges(d);
  for (std::size_t j = 0; j < d; ++j) {
    const double* h = noisy.data() + j * bins;
    std::size_t first = bins, last = 0;
    for (std::size_t b = 0; b < bins; ++b) {
      if (h[b] > tau) {
        first = std::min(first, b);
        last = b;
      }
    }
    if (first == bins) first = last = static_cast<std::size_t>(std::max_element(h, h + bins) - h);
    // The middle bin [−1e-6, 1e-6) stands for 0: as an end of the range it is 0 itself, so a
    // column whose detected mass is 0 and small positives maps 0 ↦ 0 (not ½), and a 0/1 column
    // whose ones fall below the threshold gets [0, 1] from the fallback below (post-processing
    // of the noisy histogram: no privacy cost).
    const std::size_t zero = bins / 2;
    double lo = first == zero ? 0.0 : lower(first), hi = last == zero ? 0.0 : upper(last);
    if (!(hi > lo)) hi = lo + 1.0;  // the zero bin alone, or a capped overflow bin
    ranges[j] = {lo, hi};
  }
  return ranges;
}

std::vector<ColumnRange> estimatePrivateRanges(const float* x, std::size_t n, std::size_t stride,
                                               std::size_t d, double mu, random::Generator& g) {
  const std::vector<double> noisy = noisyColumnHistograms(x, n, stride, d, mu, g);
  return rangesFromNoisyHistograms(noisy, d, std::sqrt(2.0 * double(d)) / mu);
}

void validateRanges(const std::vector<ColumnRange>& ranges, std::size_t features) {
  if (ranges.empty()) return;
  if (ranges.size() != features) {
    throwBadParameter("columnRanges", "one range per feature column (" + std::to_string(features) + ")",
                      double(ranges.size()));
  }
  for (std::size_t j = 0; j < ranges.size(); ++j) {
    const std::string name = "columnRanges[" + std::to_string(j) + "]";
    requireFinite((name + ".lo").c_str(), ranges[j].lo);
    requireFinite((name + ".hi").c_str(), ranges[j].hi);
    if (!(ranges[j].hi > ranges[j].lo)) throwBadParameter(name + ".hi", "> lo", ranges[j].hi);
  }
}

}  // namespace dpmargin::learn
