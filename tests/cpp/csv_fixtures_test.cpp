// The package's CSV fixture corpus (tests/fixtures/csv/, manifest.json) through the core's
// production path (run::CsvRun), and a few files value by value through the engine.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "dpmargin/node.hpp"
#include "dpmargin/run/run.hpp"

#include "csv_test_util.hpp"

namespace {

using namespace dpmargin::testing::csv;
using dpmargin::errorCodeName;
using nlohmann::json;

json manifest(const std::string& folder) {
  return json::parse(readFile(fixturePath(folder, "manifest.json")));
}

// The manifest's options as the core's option values (what the bindings build from JS).
dpmargin::Node toNode(const json& j) {
  using dpmargin::Node;
  if (j.is_boolean()) return Node::ofBoolean(j.get<bool>());
  if (j.is_number()) return Node::ofNumber(j.get<double>());
  if (j.is_string()) return Node::ofText(j.get<std::string>());
  if (j.is_array()) {
    std::vector<Node> items;
    for (const auto& x : j) items.push_back(toNode(x));
    return Node::ofList(std::move(items));
  }
  if (j.is_object()) {
    std::vector<std::pair<std::string, Node>> fields;
    for (const auto& [k, v] : j.items()) fields.emplace_back(k, toNode(v));
    return Node::ofObject(std::move(fields));
  }
  return Node::ofOther("null");
}

dpmargin::run::Value toValue(const json& j) {
  using dpmargin::run::Value;
  if (j.is_boolean()) return Value::ofBoolean(j.get<bool>());
  if (j.is_number()) return Value::ofNumber(j.get<double>());
  if (j.is_string()) return Value::ofText(j.get<std::string>());
  if (j.is_array() && std::all_of(j.begin(), j.end(), [](const json& x) { return x.is_string(); })) {
    return Value::ofTexts(j.get<std::vector<std::string>>());
  }
  return Value::ofNode(toNode(j));
}

// One manifest entry as trainCsv reads it (seeded, 5 iterations): the run's outcome in words,
// fed in `piece`-byte pieces (0: whole).
struct RunOutcome {
  bool ok = false;
  std::string code, parameter, message;
  std::uint64_t rows = 0;
  std::size_t features = 0;
  std::string delimiter;
  std::string describe() const {
    return ok ? "OK rows=" + std::to_string(rows) + " features=" + std::to_string(features) + " delimiter=" + delimiter
              : code + " [" + parameter + "] " + message;
  }
};

RunOutcome runEntry(const std::string& bytes, const json& options, std::size_t piece) {
  using namespace dpmargin;
  RunOutcome out;
  try {
    run::Options o;
    // The corpus tests parsing, the typed errors and the table's shape on files of a few rows,
    // where any private schema decision at a usable ε is noise (docs/reference/PRIVACY_SCHEMA.md, "The schema"):
    // at ε = 1e5 the schema counts' noise sd is ~0.05 cells, so the decisions are those of the
    // exact counts. Seeded: not private.
    o.epsilon = 1e5;
    o.delta = 1e-5;
    o.seed = 1;
    o.maxIterations = 5;
    for (const auto& [name, value] : options.items()) {
      if (name == "requireBothClasses") continue;  // the package's own check (always true)
      if (name == "missing" && value.is_object()) {  // the package's {impute: c}
        run::setOption(o, "missing", run::Value::ofText("constant"));
        run::setOption(o, "fill", run::Value::ofNumber(value["impute"].get<double>()));
        continue;
      }
      run::setOption(o, name, toValue(value));
    }
    run::CsvRun r(std::move(o));
    while (r.pass() != run::CsvRun::Pass::kDone) {
      const std::size_t step = piece == 0 ? std::max<std::size_t>(bytes.size(), 1) : piece;
      for (std::size_t i = 0; i < bytes.size(); i += step) r.feed(bytes.data() + i, std::min(step, bytes.size() - i));
      r.endPass();
    }
    out.ok = true;
    out.rows = r.dataset().rows();
    out.features = r.dataset().features();
    out.delimiter = std::string(1, r.scan().dialect.delimiter);
  } catch (const Error& e) {
    out.code = errorCodeName(e.code());
    out.parameter = e.parameter();
    out.message = e.what();
  }
  return out;
}

// Every entry of the package's corpus through the production path natively (run::CsvRun, what
// trainCsv drives): the manifest's outcome (code, line, column, parameter, message fragment;
// rows, feature columns, delimiter), the same in 1-, 3- and 7-byte pieces. The Jest suite
// checks the same manifest through the API, Blobs and the CLI.
TEST(CsvFixtures, EveryFixtureThroughTheRun) {
  const json m = manifest("csv");
  ASSERT_GE(m.size(), 70u);
  for (const auto& [key, entry] : m.items()) {
    const std::string bytes = readFile(fixturePath("csv", entry.value("file", key)));
    const RunOutcome out = runEntry(bytes, entry["options"], 0);
    SCOPED_TRACE(key + ": " + out.describe().substr(0, 600));
    const json& expected = entry["expected"];
    if (expected.contains("code")) {
      if (out.ok) {  // every entry is checked, not only the first to fail
        ADD_FAILURE() << "expected " << expected["code"].get<std::string>();
        continue;
      }
      EXPECT_EQ(out.code, expected["code"].get<std::string>());
      if (expected.contains("line")) {
        EXPECT_NE(out.message.find("line " + std::to_string(expected["line"].get<int>())), std::string::npos);
      }
      if (expected.contains("column")) {
        EXPECT_NE(out.message.find("column \"" + expected["column"].get<std::string>() + "\""), std::string::npos);
      }
      if (expected.contains("message")) {
        EXPECT_NE(out.message.find(expected["message"].get<std::string>()), std::string::npos);
      }
      if (expected.contains("parameter")) EXPECT_EQ(out.parameter, expected["parameter"].get<std::string>());
    } else {
      if (!out.ok) {
        ADD_FAILURE() << "expected a table";
        continue;
      }
      EXPECT_EQ(out.rows, expected["rows"].get<std::uint64_t>());
      EXPECT_EQ(out.features, expected["columns"].get<std::size_t>());
      EXPECT_EQ(out.delimiter, expected["delimiter"].get<std::string>());
    }
    for (const std::size_t piece : {1u, 3u, 7u}) {
      EXPECT_EQ(runEntry(bytes, entry["options"], piece).describe(), out.describe()) << piece << "-byte pieces";
    }
  }
}

TEST(CsvFixtures, DecimalCommaFixtureValues) {
  const std::string bytes = readFile(fixturePath("csv", "semicolon_decimal_comma.csv"));
  NumericColumns read;
  read.label = "label";
  read.positive = "1";
  const Outcome out = readNumeric(bytes, CsvOptions{}, read, 0);
  ASSERT_TRUE(out.ok) << out.describe();
  EXPECT_EQ(out.scan.dialect.decimal, kEitherDecimal);
  EXPECT_EQ(out.features, (std::vector<float>{0.5f, 1.5f, -1.0f, 2.0f}));
  EXPECT_EQ(out.labels, (std::vector<std::int32_t>{1, -1}));
}

TEST(CsvFixtures, SuccessTablesHoldTheCellValues) {
  // A few files checked value by value (the number tests cover the parsing itself).
  NumericColumns read;
  read.label = "label";
  read.positive = "1";
  NumericColumns withoutT = read;
  withoutT.ignore = {"t"};
  const Outcome crlf =
      readNumeric(readFile(fixturePath("csv", "crlf_quoted_crlf.csv")), legacyCsvOptions(), withoutT, 0);
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
