// The CSV fixture corpus of the TypeScript reader (tests/fixtures/csv/, manifest.json) through
// the engine: with legacyCsvOptions() + planNumeric every file must give today's outcome (code,
// line, column, parameter, message fragment; rows, columns, delimiter, feature names,
// positive, imputed). With the engine's defaults only the documented deviations may differ.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>

#include "csv_test_util.hpp"

namespace {

using namespace dpmargin::testing::csv;
using dpmargin::errorCodeName;
using nlohmann::json;

json manifest(const std::string& folder) {
  return json::parse(readFile(fixturePath(folder, "manifest.json")));
}

NumericReadOptions readOptions(const json& o) {
  NumericReadOptions r;
  if (o.contains("label")) r.label = o["label"].get<std::string>();
  if (o.contains("positive")) r.positive = o["positive"].get<std::string>();
  if (o.contains("features")) r.features = o["features"].get<std::vector<std::string>>();
  if (o.contains("ignore")) r.ignore = o["ignore"].get<std::vector<std::string>>();
  if (o.contains("missing")) r.impute = o["missing"]["impute"].get<float>();
  if (o.contains("maxBytes")) r.maxBytes = o["maxBytes"].get<double>();
  if (o.contains("requireBothClasses")) r.requireBothClasses = o["requireBothClasses"].get<bool>();
  return r;
}

CsvOptions legacyOptions(const json& o) {
  CsvOptions c = legacyCsvOptions();
  if (o.contains("delimiter")) c.delimiter = o["delimiter"].get<std::string>()[0];
  return c;
}

void expectManifest(const std::string& file, const Outcome& out, const json& expected) {
  SCOPED_TRACE(file + ": " + out.describe().substr(0, 600));
  if (expected.contains("code")) {
    ASSERT_FALSE(out.ok);
    EXPECT_EQ(out.codeName(), expected["code"].get<std::string>());
    if (expected.contains("line")) {
      EXPECT_EQ(out.location.line, expected["line"].get<int>());
    }
    if (expected.contains("column")) {
      EXPECT_GE(out.location.columnIndex, 0);
      EXPECT_EQ(out.location.column, expected["column"].get<std::string>());
    }
    if (expected.contains("message")) {
      EXPECT_NE(out.message.find(expected["message"].get<std::string>()), std::string::npos);
    }
    if (expected.contains("parameter")) {
      EXPECT_EQ(out.parameter, expected["parameter"].get<std::string>());
    }
    return;
  }
  ASSERT_TRUE(out.ok);
  EXPECT_EQ(out.scan.rows, expected["rows"].get<std::uint64_t>());
  EXPECT_EQ(out.width, expected["columns"].get<std::size_t>());
  EXPECT_EQ(std::string(1, out.scan.dialect.delimiter), expected["delimiter"].get<std::string>());
  if (expected.contains("featureNames")) {
    std::string names;
    for (const auto& n : expected["featureNames"]) names += n.get<std::string>() + ",";
    EXPECT_NE(out.extra.find("features=" + names + " "), std::string::npos);
  }
  if (expected.contains("positive")) {
    EXPECT_NE(out.extra.find("positive=" + expected["positive"].get<std::string>() + " "),
              std::string::npos);
  }
  if (expected.contains("imputed")) {
    EXPECT_EQ(out.fill.imputed, expected["imputed"].get<std::uint64_t>());
    EXPECT_NE(out.extra.find("imputed=" + std::to_string(expected["imputed"].get<int>())),
              std::string::npos);
  }
  // Every cell was written, and the labels are ±1.
  for (const float v : out.features) EXPECT_NE(v, -12345.0f);
  for (const std::int32_t y : out.labels) EXPECT_TRUE(y == 1 || y == -1);
}

TEST(CsvFixtures, EveryFixtureAsTodaysReader) {
  const json m = manifest("csv");
  ASSERT_EQ(m.size(), 66u);
  for (const auto& [file, entry] : m.items()) {
    const std::string bytes = readFile(fixturePath("csv", file));
    const Outcome out = readNumeric(bytes, legacyOptions(entry["options"]),
                                    readOptions(entry["options"]), 0);
    expectManifest(file, out, entry["expected"]);
  }
}

// Where the engine's defaults (decimal comma detection, missing tokens, '|') change today's
// outcome, and what they give instead (docs/CSV.md, "Differences from the TypeScript reader").
TEST(CsvFixtures, EngineDefaultsDifferOnlyWhereDocumented) {
  const json m = manifest("csv");
  const std::map<std::string, std::string> deviations = {
      // "0,5;1,5" in a ';' file: decimal commas, detected.
      {"semicolon_decimal_comma.csv", "OK"},
      // "NaN" is a missing-value token by default.
      {"nan.csv", "MISSING_VALUE line 2 b"},
  };
  for (const auto& [file, entry] : m.items()) {
    const std::string bytes = readFile(fixturePath("csv", file));
    CsvOptions defaults;
    if (entry["options"].contains("delimiter")) {
      defaults.delimiter = entry["options"]["delimiter"].get<std::string>()[0];
    }
    const Outcome engine = readNumeric(bytes, defaults, readOptions(entry["options"]), 0);
    const auto deviation = deviations.find(file);
    if (deviation == deviations.end()) {
      expectManifest(file + " (engine defaults)", engine, entry["expected"]);
      continue;
    }
    SCOPED_TRACE(file + ": " + engine.describe().substr(0, 400));
    const std::string got =
        engine.ok ? "OK"
                  : engine.codeName() + " line " + std::to_string(engine.location.line) + " " +
                        engine.location.column;
    EXPECT_EQ(got, deviation->second);
  }
}

TEST(CsvFixtures, DecimalCommaFixtureValues) {
  const std::string bytes = readFile(fixturePath("csv", "semicolon_decimal_comma.csv"));
  NumericReadOptions read;
  read.label = "label";
  const Outcome out = readNumeric(bytes, CsvOptions{}, read, 0);
  ASSERT_TRUE(out.ok) << out.describe();
  EXPECT_EQ(out.scan.dialect.decimal, ',');
  EXPECT_EQ(out.features, (std::vector<float>{0.5f, 1.5f, -1.0f, 2.0f}));
  EXPECT_EQ(out.labels, (std::vector<std::int32_t>{1, -1}));
}

TEST(CsvFixtures, SuccessTablesHoldTheCellValues) {
  // A few files checked value by value (the number tests cover the parsing itself).
  NumericReadOptions read;
  read.label = "label";
  const Outcome crlf =
      readNumeric(readFile(fixturePath("csv", "crlf_quoted_crlf.csv")), legacyCsvOptions(),
                  [] {
                    NumericReadOptions r;
                    r.label = "label";
                    r.ignore = {"t"};
                    return r;
                  }(),
                  0);
  ASSERT_TRUE(crlf.ok) << crlf.describe();
  EXPECT_EQ(crlf.features, (std::vector<float>{1.0f, 2.0f}));
  EXPECT_EQ(crlf.labels, (std::vector<std::int32_t>{1, -1}));
  const Outcome ws =
      readNumeric(readFile(fixturePath("csv", "whitespace_lines.csv")), legacyCsvOptions(), read, 0);
  ASSERT_TRUE(ws.ok) << ws.describe();
  EXPECT_EQ(ws.features, (std::vector<float>{0.5f, 1.5f, -1.0f, 2.0f, 3.0f, -0.25f}));
  EXPECT_EQ(ws.scan.headerLine, 1);
  const Outcome sci =
      readNumeric(readFile(fixturePath("csv", "scientific.csv")), legacyCsvOptions(), read, 0);
  ASSERT_TRUE(sci.ok) << sci.describe();
  for (const float v : sci.features) EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
