// Native side of the margin-profile rows of bench/perf (run_all.mjs --profile): ONE margin profile
// per process, on the rows as the package profiles them (the same per-row preprocessing as
// training: intercept, unit-norm rows; run::resolvePreprocessing), in chunks of 2^20 row reads as
// the package's worker runs it. NOT differentially private: a local diagnostic.
// Options as key=value:
//   train=PATH                      a prepared CSV table (bench/.data), or
//   synthetic=N,D [dataSeed=20261121]   the generator of synthetic.hpp (stream 1)
//   maxRemoved=F C=C maxRefitsPerStep=K   the profile's options (unset: the core's defaults)
//   eps=1 delta=1e-5                the budget the advice relates the curve to
//   trace=1                         also print every fit (removed, margin, iterations, rows read)
//   and any preprocessing option by its API name (intercept=false, …).
// Prints one JSON object. profileSeconds = steady_clock around the profiler (from the prepared
// rows to the result and its advice), cpuSeconds = std::clock over the same span.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "../common/args.hpp"
#include "../common/options.hpp"
#include "../common/csv_table.hpp"
#include "dpmargin/learn/dataset.hpp"
// The same driver builds against the code before the advice (a checkout of an older commit, for
// the benchmark's "before"): then it prints no verdict and no per-fit row reads.
#if __has_include("dpmargin/profile/advice.hpp")
#include "dpmargin/profile/advice.hpp"
#define PROFILE_NATIVE_ADVICE 1
#endif
#include "dpmargin/profile/margin_profiler.hpp"
#include "dpmargin/run/run.hpp"
#include "synthetic.hpp"

using namespace dpmargin;
using Clock = std::chrono::steady_clock;

namespace {

std::optional<double> number(const std::map<std::string, std::string>& o, const char* key) {
  const auto it = o.find(key);
  return it == o.end() ? std::nullopt : std::optional<double>(std::stod(it->second));
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {{"dataSeed", "20261121"}};
  if (!bench::parseArgs(argc, argv, o)) return 2;
  try {
    const std::set<std::string> own = {"train", "synthetic", "dataSeed", "maxRemoved", "C",
                                       "maxRefitsPerStep", "eps", "delta", "trace", "test",
                                       "softGapTolerance", "gapTolerance", "tolerance"};
    const run::Options options = bench::coreOptions(o, own);
    bench::Table t;
    if (o.count("synthetic")) {
      if (std::sscanf(o["synthetic"].c_str(), "%zu,%zu", &t.n, &t.d) != 2) {
        std::fprintf(stderr, "synthetic=N,D\n");
        return 2;
      }
      t.x.resize(t.n * t.d);
      t.y.resize(t.n);
      bench::synthetic::generate(t.n, t.d, std::uint32_t(std::stoul(o["dataSeed"])), 1, t.x.data(),
                                 t.d, t.y.data());
    } else {
      t = bench::readTable(o.at("train"));
    }
    learn::Dataset data(t.n, t.d, true);
    for (std::size_t i = 0; i < t.n; ++i) {
      std::copy(t.x.begin() + long(i * t.d), t.x.begin() + long((i + 1) * t.d),
                data.rowMajor() + i * data.stride());
      data.labels()[i] = t.y[i];
    }
    data.validate(true);
    data.prepare(run::resolvePreprocessing(options));
    const learn::DataView v = data.view();
    const profile::DataView view{v.x, v.y, v.n, v.width};
    std::optional<std::uint64_t> refits;
    if (o.count("maxRefitsPerStep")) refits = std::stoull(o["maxRefitsPerStep"]);
    profile::ProfileOptions p =
        profile::resolveProfileOptions(number(o, "maxRemoved"), number(o, "C"), refits);
    // Solver settings beyond the public options, for experiments (not the package's).
    if (const auto v = number(o, "softGapTolerance")) p.softGapTolerance = *v;
    if (const auto v = number(o, "gapTolerance")) p.gapTolerance = *v;
    if (const auto v = number(o, "tolerance")) p.tolerance = *v;
    profile::validate(p);

    const auto t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    profile::MarginProfiler profiler(view, p);
    std::uint64_t chunks = 0;
    do {
      ++chunks;
    } while (!profiler.advance(std::uint64_t{1} << 20));
    const profile::ProfileResult& r = profiler.result();
#ifdef PROFILE_NATIVE_ADVICE
    std::optional<plan::Plan> plan;
    if (o.count("eps")) {
      run::Options budget = options;
      run::setOptionFromText(budget, "epsilon", o["eps"]);
      run::setOptionFromText(budget, "delta", o.count("delta") ? o["delta"] : "1e-5");
      plan = run::planForTable(budget, t.n, t.d);
    }
    const profile::ProfileAdvice advice = profile::adviseProfile(r, plan ? &*plan : nullptr);
#endif
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;

    std::printf("{\"n\":%zu,\"d\":%zu,\"width\":%zu,\"profileSeconds\":%.6f,\"cpuSeconds\":%.6f,"
                "\"chunks\":%llu,\"fits\":%llu,\"iterations\":%llu,\"rowVisits\":%llu,"
                "\"separable\":%s,\"firstSeparableRemoved\":%zu,\"allConverged\":%s,\"grid\":[",
                t.n, t.d, v.width, seconds, cpu, (unsigned long long)chunks,
                (unsigned long long)r.fits, (unsigned long long)r.iterations,
                (unsigned long long)r.rowVisits, r.separable ? "true" : "false",
                r.firstSeparableRemoved, r.allConverged ? "true" : "false");
    bool first = true;
    for (const auto& c : r.curve) {
      if (c.gridIndex < 0) continue;
      std::printf("%s{\"fraction\":%.6g,\"removed\":%zu,\"margin\":%.6g,\"minimumMargin\":%.6g}",
                  first ? "" : ",", c.fraction, c.removed, c.margin, c.minimumMargin);
      first = false;
    }
    std::printf("]");
    if (o.count("trace")) {
      std::printf(",\"fitsTrace\":[");
      first = true;
      for (const auto& c : r.curve) {
        std::printf("%s[%zu,%.6g,%llu,%llu,%.3g,%d,%d]", first ? "" : ",", c.removed,
                    c.minimumMargin, (unsigned long long)c.iterations,
#ifdef PROFILE_NATIVE_ADVICE
                    (unsigned long long)c.rowVisits,
#else
                    0ull,
#endif
                    c.relativeGap, c.hardMargin ? 1 : 0,
                    c.converged ? 1 : 0);
        first = false;
      }
      std::printf("]");
    }
#ifdef PROFILE_NATIVE_ADVICE
    std::string text;
    for (char c : advice.text) {
      if (c == '"' || c == '\\') text += '\\';
      text += c;
    }
    std::printf(",\"verdict\":\"%s\",\"advice\":\"%s\"}\n", profile::toString(advice.verdict),
                text.c_str());
#else
    std::printf("}\n");
#endif
  } catch (const std::exception& e) {
    std::fprintf(stderr, "profile_native: %s\n", e.what());
    return 1;
  }
  return 0;
}
