// How often a released column scaling erases its column (issue 14, item 3): over `runs` private
// estimates at (ε, δ) with the given share (μ_ranges = √share·μ, μ from the plan of an Iter run
// on this table, intercept included in d as the trainer does), the share of columns whose scaling
// holds fewer than half of the rows (min–max: lo ≤ x ≤ hi; symmetric: |x| ≤ a; the signed-log
// fallback clamps nothing), the share lying entirely outside the data, and the share stretched
// (the range's extent more than 10× the column's largest magnitude: its values squeezed into a
// tenth of the range). The scalings are the product's (learn::estimatePrivateScalings, the
// trainer's call); the candidate rules once measured beside them are in git history and
// docs/SCALING.md.
//   scaling_coverage file=CSV [label=label eps=1 delta=1e-5 share=0.1 runs=200 seed=1]
// The CSV is read by the core as the product reads it (bench/common/csv_table.hpp); the label
// column is not used. Seeded: a benchmark.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "dpmargin/learn/ranges.hpp"
#include "dpmargin/plan/plan.hpp"
#include "../common/args.hpp"
#include "../common/csv_table.hpp"

using namespace dpmargin;

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {{"eps", "1"},  {"delta", "1e-5"}, {"share", "0.1"},
                                          {"runs", "200"}, {"seed", "1"}, {"label", "label"}};
  if (!bench::parseArgs(argc, argv, o)) return 2;
  if (o.count("check") || (o.count("rule") && o["rule"] != "library")) {
    std::fprintf(stderr, "rule=/check=: only the product's rule is measured (the candidate rules are in git history)\n");
    return 2;
  }
  run::Options read;
  read.table.label = o["label"];
  const bench::Table t = bench::readTable(o.at("file"), read);
  const std::size_t n = t.n, d = t.d;
  const std::vector<float>& x = t.x;
  plan::PlanRequest req;
  req.epsilon = std::stod(o["eps"]);
  req.delta = std::stod(o["delta"]);
  req.n = n;
  req.d = d + 1;  // the intercept column, as the trainer counts it
  req.rangeShare = std::stod(o["share"]);
  const plan::Plan p = plan::makePlan(req);
  auto g = random::Generator::seeded(std::stoull(o["seed"]));
  const int runs = std::stoi(o["runs"]);
  const double sigma = learn::histogramSigma(d, p.muRanges);
  std::size_t total = 0, underHalf = 0, outside = 0, stretched = 0;
  std::map<std::string, std::size_t> paths;
  for (int run = 0; run < runs; ++run) {
    const auto s = learn::estimatePrivateScalings(x.data(), n, d, d, p.muRanges, g);
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
  std::printf("n=%zu d=%zu eps=%s share=%s mu_ranges=%.5g sigma=%.4g runs=%d rule=library\n", n, d,
              o["eps"].c_str(), o["share"].c_str(), p.muRanges, sigma, runs);
  std::printf("under_half=%.4f outside=%.4f stretched=%.4f", double(underHalf) / double(total),
              double(outside) / double(total), double(stretched) / double(total));
  for (const auto& [k, v] : paths) std::printf(" %s=%.4f", k.c_str(), double(v) / double(total));
  std::printf("\n");
  return 0;
}
