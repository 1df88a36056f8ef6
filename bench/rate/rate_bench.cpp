// The paper's rate, measured: on realizable synthetic data with margin γ*, the empirical 0-1
// risk of M* should fall like 1/(n γ*² ε). For n = 500 … 32,000 (doubling), two margins and
// two ε, `seeds` seeds each, prints CSV rows: method,gamma_star,epsilon,n,seed,train_error,
// test_error,selected_gamma,seconds. Methods: mstar (tight), and the fixed-margin JL-GD with a
// wrong margin (too small: γ*/8; too large: 4γ*).
// Seeded generators: a benchmark, not a private release.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "synthetic.hpp"

using namespace dpmargin;

namespace {

double errorRate(const learn::Dataset& data, const std::vector<double>& w) {
  return double(learn::countErrors(data.view(), w)) / double(data.rows());
}

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 10;
  const std::size_t d = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 50;
  const std::size_t maxN = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 32000;
  // Resume: start at (γ*, ε, n, seed) = argv[4..7], skipping everything before it.
  const double startGamma = argc > 4 ? std::atof(argv[4]) : 0.0;
  const double startEps = argc > 5 ? std::atof(argv[5]) : 0.0;
  const std::size_t startN = argc > 6 ? std::strtoul(argv[6], nullptr, 10) : 0;
  const int startSeed = argc > 7 ? std::atoi(argv[7]) : 0;
  bool started = argc <= 4;
  if (started) std::printf("method,gamma_star,epsilon,n,seed,train_error,test_error,selected_gamma,seconds\n");
  for (double gammaStar : {0.02, 0.05}) {
    for (double epsilon : {0.5, 2.0}) {
      for (std::size_t n = 500; n <= maxN; n *= 2) {
        for (int seed = 0; seed < seeds; ++seed) {
          started = started || (gammaStar == startGamma && epsilon == startEps && n == startN &&
                                seed == startSeed);
          if (!started) continue;
          // One draw of w*, train rows and 5000 test rows from the same distribution.
          const auto all = testing::makeSeparable(n + 5000, d, gammaStar, 0, 1000 * seed + n);
          testing::Synthetic train = all, test = all;
          train.n = n;
          train.x.resize(n * d);
          train.y.resize(n);
          test.n = 5000;
          test.x.assign(all.x.begin() + long(n * d), all.x.end());
          test.y.assign(all.y.begin() + long(n), all.y.end());
          learn::Dataset trainData = testing::toDataset(train);
          const learn::Dataset testData = testing::toDataset(test);
          struct Method {
            const char* name;
            plan::Selector selector;
            double margin;
          };
          for (const Method& m : {Method{"mstar", plan::Selector::kIter, 0.0},
                                  Method{"fixed_small", plan::Selector::kFixed, gammaStar / 8},
                                  Method{"fixed_large", plan::Selector::kFixed, 4 * gammaStar}}) {
            run::Options options;  // the core's defaults, on prepared data (no column ranges)
            options.epsilon = epsilon;
            options.delta = 1e-5;
            options.selector = m.selector;
            if (m.selector == plan::Selector::kFixed) options.margin = m.margin;
            options.rangeShare = 0.0;
            const auto started = std::chrono::steady_clock::now();
            learn::Trainer trainer(trainData, run::resolve(options, n, d),
                                   random::Generator::seeded(std::uint64_t(seed) * 7919 + n));
            while (!trainer.advance(1u << 20)) {
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            const auto& r = trainer.result();
            std::printf("%s,%g,%g,%zu,%d,%.8g,%.8g,%.8g,%.4f\n", m.name, gammaStar, epsilon, n, seed,
                        errorRate(trainData, r.weights), errorRate(testData, r.weights),
                        r.plan.candidates[r.selectedCandidate].gamma, seconds);
            std::fflush(stdout);
          }
        }
      }
    }
  }
  return 0;
}
