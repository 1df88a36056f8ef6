// Where the chunks are cut never changes anything: every fixture (both corpora, each way it is
// read) fed in 1-, 2-, 3- and 7-byte pieces gives exactly what it gives in one piece — the
// scan, the table bits, the dictionaries, or the same error with the same location. Then the
// same on random tables built to put quotes, line breaks, multi-byte characters and errors
// across chunk boundaries, cut at random.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <random>

#include "csv_test_util.hpp"

namespace {

using namespace dpmargin::testing::csv;
using nlohmann::json;

const std::size_t kPieces[] = {1, 2, 3, 7};

// The manifest's options as the columns of a numeric-only reading (csv_test_util.hpp).
NumericColumns readOptions(const json& o) {
  NumericColumns r;
  if (o.contains("label")) r.label = o["label"].get<std::string>();
  if (o.contains("positive")) r.positive = o["positive"].get<std::string>();
  if (o.contains("features")) r.features = o["features"].get<std::vector<std::string>>();
  if (o.contains("ignore")) r.ignore = o["ignore"].get<std::vector<std::string>>();
  if (o.contains("missing") && o["missing"].is_object()) r.impute = o["missing"]["impute"].get<float>();
  return r;
}

void expectSameInPieces(const std::string& name, const std::function<Outcome(std::size_t)>& read) {
  const std::string whole = read(0).describe();
  for (const std::size_t piece : kPieces) {
    const std::string cut = read(piece).describe();
    EXPECT_EQ(cut, whole) << name << " in " << piece << "-byte pieces";
  }
}

TEST(CsvChunking, TodaysCorpusEveryWay) {
  const json m = json::parse(readFile(fixturePath("csv", "manifest.json")));
  for (const auto& [key, entry] : m.items()) {
    // "file#variant" entries read the file named by their `file` field with other options.
    const std::string file = entry.value("file", key);
    const std::string bytes = readFile(fixturePath("csv", file));
    const json& o = entry["options"];
    CsvOptions legacy = legacyCsvOptions();
    expectSameInPieces(file + " (legacy)", [&](std::size_t piece) {
      return readNumeric(bytes, legacy, readOptions(o), piece);
    });
    expectSameInPieces(file + " (engine, numeric)", [&](std::size_t piece) {
      return readNumeric(bytes, CsvOptions{}, readOptions(o), piece);
    });
    expectSameInPieces(file + " (engine, auto)", [&](std::size_t piece) {
      return readAuto(bytes, CsvOptions{}, o.value("label", ""), piece);
    });
  }
}

TEST(CsvChunking, EngineCorpus) {
  const json m = json::parse(readFile(fixturePath("csv_engine", "manifest.json")));
  for (const auto& [name, entry] : m.items()) {
    const std::string bytes = readFile(fixturePath("csv_engine", entry["file"]));
    const json& o = entry["options"];
    CsvOptions options;
    if (o.contains("encoding")) options.encoding = CsvEncoding::kLatin1;
    if (o.contains("decimal")) options.decimal = o["decimal"].get<std::string>()[0];
    if (o.contains("delimiter")) options.delimiter = o["delimiter"].get<std::string>()[0];
    expectSameInPieces(name, [&](std::size_t piece) {
      return readAuto(bytes, options, o.value("label", ""), piece);
    });
  }
}

// A random table meant to hurt a chunked reader.
std::string randomTable(std::mt19937_64& rng, bool corrupt) {
  auto coin = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  static const char* const kTexts[] = {
      "plain", "with space", "caf\xC3\xA9", "\xF0\x9F\x99\x82", "\xE6\xB8\xA9\xE5\xBA\xA6",
      "NA", "?", "", " ", "inf", "-Infinity", "1e39", "0x1A", "1,5", "a\"b", "\xC2\xA0" "7"};
  static const char* const kBreaks[] = {"\n", "\r\n", "\r"};
  const int columns = 1 + static_cast<int>(rng() % 5);
  const char delimiter = ",;\t|"[rng() % 4];
  std::string out;
  for (int c = 0; c < columns; ++c) {
    if (c > 0) out += delimiter;
    out += "col" + std::to_string(c);
  }
  out += kBreaks[rng() % 3];
  const int rows = 1 + static_cast<int>(rng() % 60);
  for (int r = 0; r < rows; ++r) {
    if (coin(5)) out += coin(50) ? "  " : "";  // blank or whitespace-only line
    if (coin(5)) out += kBreaks[rng() % 3];
    for (int c = 0; c < columns; ++c) {
      if (c > 0) out += delimiter;
      std::string cell;
      if (coin(60)) {
        std::uniform_real_distribution<double> u(-1e6, 1e6);
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, coin(50) ? "%.6g" : "%.17g", u(rng));
        cell = buffer;
      } else {
        cell = kTexts[rng() % (sizeof kTexts / sizeof kTexts[0])];
      }
      const bool needsQuotes = cell.find_first_of(std::string("\"\r\n") + delimiter) != std::string::npos;
      if (needsQuotes || coin(15)) {
        std::string quoted = "\"";
        for (const char ch : cell) {
          if (ch == '"') quoted += '"';
          quoted += ch;
        }
        if (coin(10)) quoted += kBreaks[rng() % 3];  // a line break inside quotes
        cell = quoted + "\"";
        if (coin(5)) cell += " ";
      }
      out += cell;
    }
    if (r + 1 < rows || coin(70)) out += kBreaks[rng() % 3];
  }
  if (corrupt && coin(15)) out += "\n\"an open quote, " + std::string(rng() % 30, 'x');
  if (corrupt && !out.empty()) {
    static const char kJunk[] = {'"', '\0', '\xFF', '\xC3', '\n', '\r', ',', ';', 'x'};
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      out.insert(out.begin() + static_cast<long>(rng() % out.size()), kJunk[rng() % sizeof kJunk]);
    }
  }
  return out;
}

TEST(CsvChunking, RandomTablesCutAtRandom) {
  std::mt19937_64 rng(7);
  std::size_t errors = 0, tables = 0;
  std::map<std::string, std::size_t> kinds;
  for (int i = 0; i < 3000; ++i) {
    const bool corrupt = i % 3 == 2;
    const std::string text = randomTable(rng, corrupt);
    CsvOptions options;
    if (i % 5 == 0) options.maxRowBytes = 40;  // row-cap errors at every position too
    if (i % 7 == 0) options.encoding = CsvEncoding::kLatin1;
    const Outcome whole = readAuto(text, options, "", 0);
    whole.ok ? ++tables : ++errors;
    if (!whole.ok) {
      for (const char* kind : {"RAGGED_ROW", "malformed", "unterminated", "NUL byte",
                               "not valid UTF-8", "is longer than", "duplicate"}) {
        if ((whole.codeName() + whole.message).find(kind) != std::string::npos) ++kinds[kind];
      }
    }
    const std::string expected = whole.describe();
    for (int k = 0; k < 4; ++k) {
      // Random cut points, streamed through the public API.
      Outcome cut;
      try {
        std::vector<std::size_t> cuts;
        for (std::size_t at = 0; at < text.size();) {
          const std::size_t n = 1 + rng() % (k == 0 ? 3 : 64);
          cuts.push_back(std::min(n, text.size() - at));
          at += cuts.back();
        }
        CsvScanner scanner(options);
        std::size_t at = 0;
        for (const std::size_t n : cuts) {
          scanner.feed(text.data() + at, n);
          at += n;
        }
        cut.scan = scanner.finish();
        const FillPlan plan = autoPlan(cut.scan, "");
        cut.width = plan.width();
        cut.features.assign(cut.scan.rows * cut.width, -12345.0f);
        CsvFiller filler(cut.scan, plan, {{cut.features.data(), cut.width, nullptr, cut.scan.rows}});
        std::shuffle(cuts.begin(), cuts.end(), rng);  // other cut points in pass 2
        at = 0;
        for (const std::size_t n : cuts) {
          filler.feed(text.data() + at, n);
          at += n;
        }
        cut.fill = filler.finish();
        cut.ok = true;
      } catch (const dpmargin::Error& e) {
        setError(cut, e);
      }
      ASSERT_EQ(cut.describe(), expected) << "table " << i << ":\n" << text;
    }
  }
  // Both outcomes are well represented.
  EXPECT_GT(tables, 1000u);
  EXPECT_GT(errors, 500u);
  for (const char* kind : {"RAGGED_ROW", "malformed", "unterminated", "NUL byte",
                           "not valid UTF-8", "is longer than"}) {
    EXPECT_GT(kinds[kind], 10u) << kind;
  }
}

}  // namespace
