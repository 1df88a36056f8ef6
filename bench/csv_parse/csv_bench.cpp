// Speed of the CSV engine (core/src/data/csv): pass 1 (scan) and pass 2 (fill) over an
// in-memory CSV fed in chunks, as the wasm module will be fed by the streaming reader. Built
// natively and with em++ by bench/csv_parse/run.sh; prints one JSON line per repetition.
//   csv_bench [mb=100] [table=numeric|mixed] [chunk=65536] [reps=3] [file=PATH]
// file=PATH parses that CSV instead of a generated table (e.g. a wide benchmark table).
// numeric: the table of bench/csv_memory (50 features in [-1, 1] with 6 decimals, a 0/1
// label); mixed: 20 numeric columns, 5 short text columns (some quoted), NA cells, a label.
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "../common/args.hpp"
#include "dpmargin/data/csv.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
// CPU time of the Node process (user + system): wall time on a shared machine says more
// about the neighbours than about the parser.
EM_JS(double, cpuSeconds, (), {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
});
#else
double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }
#endif

namespace {

using namespace dpmargin::data;
using Clock = std::chrono::steady_clock;

struct Mulberry32 {  // the generator of bench/csv_memory/run.mjs
  std::uint32_t a;
  double operator()() {
    std::uint32_t t = a += 0x6D2B79F5u;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return ((t ^ (t >> 14)) >> 0) / 4294967296.0;
  }
};

std::string numericTable(std::size_t bytes, std::size_t& rows) {
  constexpr int kFeatures = 50;
  Mulberry32 rand{1};
  double w[kFeatures];
  for (double& v : w) v = rand() * 2 - 1;
  std::string out;
  out.reserve(bytes + 4096);
  for (int j = 0; j < kFeatures; ++j) out += "x" + std::to_string(j) + ",";
  out += "label\n";
  char cell[32];
  rows = 0;
  while (out.size() < bytes) {
    double dot = 0;
    for (int j = 0; j < kFeatures; ++j) {
      const double v = rand() * 2 - 1;
      dot += v * w[j];
      const int n = std::snprintf(cell, sizeof cell, "%.6f,", v);
      out.append(cell, static_cast<std::size_t>(n));
    }
    out += dot > 0 ? "1\n" : "0\n";
    ++rows;
  }
  return out;
}

std::string mixedTable(std::size_t bytes, std::size_t& rows) {
  static const char* const kCities[] = {"Berlin", "\"Paris, FR\"", "Lisboa", "NA", "Oslo"};
  static const char* const kPlans[] = {"basic", "premium", "family", "student"};
  Mulberry32 rand{2};
  std::string out;
  out.reserve(bytes + 4096);
  for (int j = 0; j < 20; ++j) out += "x" + std::to_string(j) + ",";
  out += "city,plan,segment,channel,code,label\n";
  char cell[32];
  rows = 0;
  while (out.size() < bytes) {
    for (int j = 0; j < 20; ++j) {
      const double u = rand();
      if (u < 0.01) {
        out += "NA,";
      } else {
        const int n = std::snprintf(cell, sizeof cell, "%.4f,", (u - 0.5) * 2000);
        out.append(cell, static_cast<std::size_t>(n));
      }
    }
    out += kCities[static_cast<int>(rand() * 5)];
    out += ',';
    out += kPlans[static_cast<int>(rand() * 4)];
    out += ",seg" + std::to_string(static_cast<int>(rand() * 12));
    out += rand() < 0.5 ? ",web," : ",store,";
    out += "C" + std::to_string(static_cast<int>(rand() * 1000));
    out += rand() < 0.3 ? ",yes\n" : ",no\n";
    ++rows;
  }
  return out;
}

double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::string> o = {
      {"mb", "100"}, {"table", "numeric"}, {"chunk", "65536"}, {"reps", "3"}};
  if (!dpmargin::bench::parseArgs(argc, argv, o)) return 2;
  const std::size_t target = static_cast<std::size_t>(std::stod(o["mb"]) * 1e6);
  const std::size_t chunk = std::stoul(o["chunk"]);
  std::size_t rows = 0;
  std::string text;
  if (o.count("file")) {
    std::FILE* f = std::fopen(o["file"].c_str(), "rb");
    if (!f) {
      std::fprintf(stderr, "cannot read %s\n", o["file"].c_str());
      return 2;
    }
    char buf[1 << 16];
    for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, got);
    std::fclose(f);
    o["table"] = o["file"];
  } else {
    text = o["table"] == "mixed" ? mixedTable(target, rows) : numericTable(target, rows);
  }
#ifdef __EMSCRIPTEN__
  const char* where = "wasm";
#else
  const char* where = "native";
#endif
  for (int rep = 0; rep < std::stoi(o["reps"]); ++rep) {
    try {
      // Wall time, and the process's CPU time, so a busy machine does not hide the parser's
      // own speed.
      const double c0 = cpuSeconds();
      const auto t0 = Clock::now();
      CsvScanner scanner;
      for (std::size_t at = 0; at < text.size(); at += chunk) {
        scanner.feed(text.data() + at, std::min(chunk, text.size() - at));
      }
      const CsvScan scan = scanner.finish();
      const auto t1 = Clock::now();
      const double c1 = cpuSeconds();
      // The plan the app would make: the label, text columns categorical, the rest numeric.
      FillPlan plan;
      plan.columns.resize(scan.columns.size());
      std::size_t width = 0;
      for (std::size_t j = 0; j < scan.columns.size(); ++j) {
        const ColumnSummary& c = scan.columns[j];
        ColumnPlan& p = plan.columns[j];
        if (c.name == "label") {
          p.role = ColumnRole::kLabel;
        } else {
          p.role = c.text > 0 ? ColumnRole::kCategorical : ColumnRole::kNumeric;
          p.output = width++;
        }
      }
      std::vector<float> x(scan.rows * width);
      std::vector<std::int32_t> y(scan.rows);
      const auto t2 = Clock::now();
      const double c2 = cpuSeconds();
      CsvFiller filler(scan, plan, {{x.data(), width, y.data(), scan.rows}});
      for (std::size_t at = 0; at < text.size(); at += chunk) {
        filler.feed(text.data() + at, std::min(chunk, text.size() - at));
      }
      const FillResult result = filler.finish();
      const auto t3 = Clock::now();
      const double c3 = cpuSeconds();
      const double cpu1 = c1 - c0;
      const double cpu2 = c3 - c2;
      const double mb = static_cast<double>(text.size()) / 1e6;
      std::printf(
          "{\"where\":\"%s\",\"table\":\"%s\",\"bytes\":%zu,\"rows\":%llu,\"columns\":%zu,"
          "\"chunk\":%zu,\"rep\":%d,\"pass1_s\":%.4f,\"pass2_s\":%.4f,\"pass1_MBps\":%.1f,"
          "\"pass2_MBps\":%.1f,\"pass1_cpu_MBps\":%.1f,\"pass2_cpu_MBps\":%.1f,"
          "\"check\":%.6g}\n",
          where, o["table"].c_str(), text.size(), static_cast<unsigned long long>(scan.rows),
          width, chunk, rep, seconds(t0, t1), seconds(t2, t3), mb / seconds(t0, t1),
          mb / seconds(t2, t3), mb / cpu1, mb / cpu2, static_cast<double>(x[x.size() / 2]) + result.rows[0]);
      std::fflush(stdout);
    } catch (const dpmargin::Error& e) {
      std::fprintf(stderr, "%s: %s\n", dpmargin::errorCodeName(e.code()), e.what());
      return 1;
    }
  }
  return 0;
}
