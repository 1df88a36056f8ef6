// Fuzz target: the CSV engine (core/include/dpmargin/data/csv.hpp). Bytes → options (delimiter,
// decimal mark, encoding, missing tokens, a small row cap and distinct cap), a chunking, a
// plan choice and a router, then the CSV text itself → both passes, once in one piece and
// once in the fuzzer's chunks (a different chunking in pass 2).
// Properties: only dpmargin::Error (never INTERNAL) escapes; the chunked read gives exactly
// the whole read's result or error (scan, table bits, dictionaries, error code, message and
// location); a scan's counts add up (every column classifies every row once); pass 2 writes
// every cell of every routed row, and its dictionary counts add up to the rows it wrote; the
// numbers the scan keeps (CsvScanner::keepValues, chunked read) are pass 2's numbers.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "dpmargin/data/csv.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace dpmargin::data;
using dpmargin::fuzz::fail;

constexpr float kUnwritten = -12345.0f;

struct Config {
  CsvOptions options;
  std::vector<std::size_t> pieces;  // chunk sizes of pass 1 (cycled); pass 2 uses them reversed
  int plan = 0;                     // 0: auto, 1: all numeric (NaN), 2: all numeric (errors)
  std::size_t labelPick = 0;        // column index + 1 of the label, 0: none
  std::vector<std::uint8_t> router;
  bool route = false;
};

struct Result {
  bool ok = false;
  std::string text;  // canonical description
};

template <class Reader>
void feed(Reader& reader, const std::string& bytes, const std::vector<std::size_t>& pieces) {
  std::size_t at = 0, k = 0;
  while (at < bytes.size()) {
    const std::size_t n = pieces.empty() ? bytes.size() : std::min(pieces[k++ % pieces.size()],
                                                                   bytes.size() - at);
    reader.feed(bytes.data() + at, n);
    at += n;
  }
}

std::string describeScan(const CsvScan& s) {
  std::ostringstream o;
  o << int(s.dialect.delimiter) << s.dialect.decimal << int(s.dialect.newline)
    << int(s.dialect.encoding) << s.dialect.bom << " h" << s.headerLine << " r" << s.rows << "\n";
  for (const ColumnSummary& c : s.columns) {
    o << c.name << "|" << c.numbers << "|" << c.missing << "|" << c.nonFinite << "|" << c.text
      << "|" << c.firstMissing.line << c.firstMissing.value << "|" << c.firstNonFinite.line
      << c.firstNonFinite.value << "|" << c.firstText.line << c.firstText.value << "|"
      << c.distinctCapped << c.distinctRows << "{";
    for (const DistinctValue& v : c.distinct) o << v.value << "=" << v.count << ",";
    o << "}\n";
    if (c.numbers + c.missing + c.nonFinite + c.text != s.rows) fail("cell counts do not add up");
    std::uint64_t counted = 0;
    for (const DistinctValue& v : c.distinct) counted += v.count;
    if (!c.distinctCapped && counted + c.missing != s.rows) fail("distinct counts do not add up");
  }
  return o.str();
}

FillPlan makePlan(const CsvScan& scan, const Config& config) {
  FillPlan plan;
  plan.columns.resize(scan.columns.size());
  std::size_t k = 0;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) {
    ColumnPlan& p = plan.columns[j];
    if (config.labelPick == j + 1) {
      p.role = ColumnRole::kLabel;
      continue;
    }
    const ColumnSummary& c = scan.columns[j];
    if (config.plan == 0 && (c.text > 0 || c.nonFinite > 0)) {
      p.role = ColumnRole::kCategorical;
    } else {
      p.role = ColumnRole::kNumeric;
      if (config.plan == 2) p.missing = MissingPolicy::kError;
    }
    p.output = k++;
  }
  return plan;
}

Result run(const std::string& bytes, const Config& config, bool chunked) {
  Result out;
  std::ostringstream o;
  try {
    CsvScanner scanner(config.options);
    // The chunked read also keeps the scan's numbers (the one-pass path of a plain numeric
    // table): every one of them must be what pass 2 writes for that cell (checked below).
    if (chunked) scanner.keepValues();
    feed(scanner, bytes, chunked ? config.pieces : std::vector<std::size_t>{});
    const CsvScan scan = scanner.finish();
    const bool kept = chunked && scanner.valuesKept();
    const std::vector<float> values = chunked ? scanner.takeValues() : std::vector<float>{};
    if (kept && values.size() != scan.rows * scan.columns.size()) fail("kept values: not one per cell");
    o << describeScan(scan);
    const FillPlan plan = makePlan(scan, config);
    const std::size_t width = plan.width();
    bool label = false;
    for (const ColumnPlan& p : plan.columns) label = label || p.role == ColumnRole::kLabel;
    // Two targets when routed (1 and 2; 0 skips), else one.
    const std::size_t targets = config.route ? 2 : 1;
    std::vector<std::uint8_t> router;
    std::vector<std::uint64_t> routed(targets, 0);
    if (config.route) {
      router.resize(scan.rows);
      for (std::uint64_t r = 0; r < scan.rows; ++r) {
        router[r] = config.router.empty() ? 1 : config.router[r % config.router.size()] % 3;
        if (router[r] > 0) ++routed[router[r] - 1];
      }
    } else {
      routed[0] = scan.rows;
    }
    std::vector<std::vector<float>> x(targets);
    std::vector<std::vector<std::int32_t>> y(targets);
    std::vector<FillTarget> fillTargets;
    for (std::size_t t = 0; t < targets; ++t) {
      x[t].assign(std::max<std::uint64_t>(routed[t], 1) * std::max<std::size_t>(width, 1),
                  kUnwritten);
      y[t].assign(std::max<std::uint64_t>(routed[t], 1), -7);
      fillTargets.push_back({x[t].data(), std::max<std::size_t>(width, 1),
                             label ? y[t].data() : nullptr, routed[t]});
    }
    std::vector<std::size_t> pieces2(config.pieces.rbegin(), config.pieces.rend());
    CsvFiller filler(scan, plan, fillTargets, config.route ? router.data() : nullptr);
    feed(filler, bytes, chunked ? pieces2 : std::vector<std::size_t>{});
    const FillResult result = filler.finish();
    for (std::size_t t = 0; t < targets; ++t) {
      if (result.rows[t] != routed[t]) fail("rows written differ from rows routed");
      for (std::uint64_t i = 0; i < routed[t]; ++i) {
        for (std::size_t j = 0; j < width; ++j) {
          const float v = x[t][i * width + j];
          if (v == kUnwritten) fail("a planned cell was not written");
          std::uint32_t bits;
          std::memcpy(&bits, &v, 4);
          o << std::hex << bits << std::dec << ",";
        }
        if (label) {
          if (y[t][i] < dpmargin::data::kOtherCode) fail("bad label code");
          o << "y" << y[t][i];
        }
        o << ";";
      }
    }
    if (kept && !config.route) {
      // A cell the scan read as a number was written as that number (numeric columns).
      for (std::uint64_t i = 0; i < scan.rows; ++i) {
        for (std::size_t j = 0; j < scan.columns.size(); ++j) {
          const ColumnPlan& p = plan.columns[j];
          const float v = values[i * scan.columns.size() + j];
          if (p.role != ColumnRole::kNumeric || std::isnan(v)) continue;
          if (std::memcmp(&v, &x[0][i * width + p.output], 4) != 0) fail("a kept value differs from pass 2's");
        }
      }
    }
    for (const CategoryDictionary& d : result.dictionaries) {
      o << "\nd" << d.column << ":";
      for (const std::string& v : d.values) o << v << "\x1f";
      for (std::size_t t = 0; t < targets; ++t) {
        std::uint64_t total = d.missing[t] + d.other[t];
        for (const std::uint64_t c : d.counts[t]) total += c;
        if (total != routed[t]) fail("dictionary counts do not add up");
      }
    }
    o << "\ni" << result.imputed << "m" << result.marked;
    out.ok = true;
  } catch (const dpmargin::Error& e) {
    if (e.code() == dpmargin::ErrorCode::kInternal) fail("INTERNAL error:", e.what());
    if (std::string(e.what()).empty()) fail("typed error without a message");
    const dpmargin::ErrorLocation& l = e.location();
    o << "ERROR " << dpmargin::errorCodeName(e.code()) << " " << e.parameter() << " " << l.line
      << " " << l.byte << " " << l.columnIndex << " " << l.column << " " << e.what();
  }
  out.text = o.str();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  Config config;
  CsvOptions& o = config.options;
  static const char kDelimiters[] = {0, 0, 0, ',', ';', '\t', '|'};
  o.delimiter = in.PickValueInArray(kDelimiters);
  static const char kDecimals[] = {0, 0, '.', ','};
  o.decimal = in.PickValueInArray(kDecimals);
  if (in.ConsumeIntegralInRange<int>(0, 5) == 0) o.encoding = CsvEncoding::kLatin1;
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      o.missingTokens = {""};
      break;
    case 1:
      o.missingTokens = {"", "-999", "x"};
      break;
    default:
      break;  // the defaults
  }
  if (in.ConsumeBool()) o.maxRowBytes = in.ConsumeIntegralInRange<std::size_t>(1, 300);
  if (in.ConsumeBool()) o.distinctCap = in.ConsumeIntegralInRange<std::size_t>(0, 8);
  if (in.ConsumeBool()) o.distinctBytes = in.ConsumeIntegralInRange<std::size_t>(0, 64);
  const int pieces = in.ConsumeIntegralInRange<int>(1, 6);
  for (int i = 0; i < pieces; ++i) config.pieces.push_back(in.ConsumeIntegralInRange<std::size_t>(1, 17));
  config.plan = in.ConsumeIntegralInRange<int>(0, 2);
  config.labelPick = in.ConsumeIntegralInRange<std::size_t>(0, 4);
  config.route = in.ConsumeBool();
  if (config.route) {
    const int n = in.ConsumeIntegralInRange<int>(0, 5);
    for (int i = 0; i < n; ++i) config.router.push_back(in.ConsumeIntegral<std::uint8_t>());
  }
  const std::string bytes = in.ConsumeRemainingBytesAsString();
  if (dpmargin::fuzz::verbose()) {
    std::fprintf(stderr, "delimiter=%d decimal=%d latin1=%d tokens=%zu maxRow=%zu plan=%d label=%zu "
                 "route=%d bytes=%zu\n", o.delimiter, o.decimal, o.encoding == CsvEncoding::kLatin1,
                 o.missingTokens.size(), o.maxRowBytes, config.plan, config.labelPick,
                 config.route, bytes.size());
  }
  const Result whole = run(bytes, config, false);
  const Result cut = run(bytes, config, true);
  if (whole.text != cut.text) {
    fail("chunking changed the outcome:", "\n--- whole\n" + whole.text + "\n--- chunked\n" + cut.text);
  }
  return 0;
}
