// How often a released column scaling erases its column (issue 14, item 3): over `runs` private
// estimates at (ε, δ) with the given share (μ_ranges = √share·μ, μ from the plan of an Iter run
// on this table, intercept included in d as the trainer does), the share of columns whose scaling
// holds fewer than half of the rows (min–max: lo ≤ x ≤ hi; symmetric: |x| ≤ a; the signed-log
// fallback clamps nothing), the share lying entirely outside the data, and the share stretched
// (the range's extent more than 10× the column's largest magnitude: its values squeezed into a
// tenth of the range).
//   coverage file=CSV [eps=1 delta=1e-5 share=0.1 runs=200 rule=SPEC|library seed=1] [check=1]
// rule=library: the core's rule (estimatePrivateScalings); check=1: does candidate SPEC give
// exactly the core's scalings on `runs` noisy histograms of the table (exit 1 if not)?
// The CSV: a header, numeric columns, the last one the label (not used). Seeded: a benchmark.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dpmargin/learn/ranges.hpp"
#include "dpmargin/plan/plan.hpp"
#include "../common/args.hpp"
#include "rule.hpp"

using namespace dpmargin;

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {{"eps", "1"},  {"delta", "1e-5"}, {"share", "0.1"},
                                          {"runs", "200"}, {"rule", "default"}, {"seed", "1"}};
  if (!bench::parseArgs(argc, argv, o)) return 2;
  std::ifstream in(o.at("file"));
  if (!in) {
    std::fprintf(stderr, "cannot open %s\n", o.at("file").c_str());
    return 2;
  }
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string cell;
    std::vector<double> r;
    std::vector<std::string> cells;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    cells.pop_back();  // the label (may be text)
    for (const std::string& c : cells) r.push_back(std::stod(c));
    rows.push_back(r);
  }
  const std::size_t n = rows.size(), d = rows.front().size();
  std::vector<float> x(n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) x[i * d + j] = float(rows[i][j]);
  plan::PlanRequest req;
  req.epsilon = std::stod(o["eps"]);
  req.delta = std::stod(o["delta"]);
  req.n = n;
  req.d = d + 1;  // the intercept column, as the trainer counts it
  req.rangeShare = std::stod(o["share"]);
  const plan::Plan p = plan::makePlan(req);
  const bool library = o["rule"] == "library";  // the core's rule, through estimatePrivateScalings
  const bench::CandidateRule rule = bench::parseRule(o["rule"]);
  auto g = random::Generator::seeded(std::stoull(o["seed"]));
  const int runs = std::stoi(o["runs"]);
  const double sigma = learn::histogramSigma(d, p.muRanges);
  if (o.count("check")) {
    // The candidate `rule` must give exactly the library's scalings on the same noisy histograms.
    std::size_t differ = 0;
    for (int run = 0; run < runs; ++run) {
      const auto noisy = learn::noisyColumnHistograms(x.data(), n, d, d, p.muRanges, g);
      const auto a = learn::scalingsFromNoisyHistograms(noisy, d, sigma, n);
      const auto b = bench::candidateScalings(noisy, d, sigma, rule, n);
      for (std::size_t j = 0; j < d; ++j) {
        differ += a[j].lo != b[j].lo || a[j].hi != b[j].hi || a[j].map != b[j].map || a[j].path != b[j].path;
      }
    }
    std::printf("check rule=%s: %zu of %zu scalings differ from the library's\n", o["rule"].c_str(),
                differ, std::size_t(runs) * d);
    return differ == 0 ? 0 : 1;
  }
  std::size_t total = 0, underHalf = 0, outside = 0, stretched = 0;
  std::map<std::string, std::size_t> paths;
  for (int run = 0; run < runs; ++run) {
    const auto s = library ? learn::estimatePrivateScalings(x.data(), n, d, d, p.muRanges, g)
                           : bench::candidateScalings(learn::noisyColumnHistograms(
                                                          x.data(), n, d, d, p.muRanges, g,
                                                          rule.binsPerDecade),
                                                      d, sigma, rule, n);
    for (std::size_t j = 0; j < d; ++j) {
      ++total;
      ++paths[std::string(learn::scalingPathName(s[j].path)) + "/" + learn::scalingMapName(s[j].map)];
      if (s[j].map == learn::ScalingMap::kSignedLog) continue;  // clamps nothing
      std::size_t held = 0;
      double mn = 1e300, mx = -1e300;
      for (std::size_t i = 0; i < n; ++i) {
        const double v = x[i * d + j];
        mn = std::min(mn, v), mx = std::max(mx, v);
        held += v >= s[j].lo && v <= s[j].hi;
      }
      underHalf += 2 * held < n;
      outside += s[j].hi < mn || s[j].lo > mx;
      // Stretched: the column's values all lie within a tenth of its range's extent (a far
      // noise bin set an end): they map into [0, 0.1] (min–max from 0) or [−0.1, 0.1].
      const double extent = std::max(std::abs(mn), std::abs(mx));
      stretched += extent > 0 && std::max(std::abs(s[j].lo), std::abs(s[j].hi)) > 10 * extent;
    }
  }
  std::printf("n=%zu d=%zu eps=%s share=%s mu_ranges=%.5g sigma=%.4g runs=%d rule=%s\n", n, d,
              o["eps"].c_str(), o["share"].c_str(), p.muRanges, sigma,
              runs, o["rule"].c_str());
  std::printf("under_half=%.4f outside=%.4f stretched=%.4f", double(underHalf) / double(total),
              double(outside) / double(total), double(stretched) / double(total));
  for (const auto& [k, v] : paths) std::printf(" %s=%.4f", k.c_str(), double(v) / double(total));
  std::printf("\n");
  return 0;
}
