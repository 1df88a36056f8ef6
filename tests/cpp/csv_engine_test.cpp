// The engine on tables as people have them (issue 14): missing-value tokens, decimal commas,
// categorical columns and their dictionaries, 10^5 distinct strings, multiclass labels,
// workbooks, UTF-16, Latin-1, binary files (tests/fixtures/csv_engine/, manifest.json), and
// the API's own guarantees: plans, routers, the row cap, error locations, misuse.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "csv_test_util.hpp"
#include "data/csv/cells.hpp"
#include "data/csv/text.hpp"

namespace {

using namespace dpmargin::testing::csv;
using dpmargin::Error;
using dpmargin::ErrorCode;
using nlohmann::json;

CsvOptions engineOptions(const json& o) {
  CsvOptions c;
  if (o.contains("encoding") && o["encoding"] == "latin1") c.encoding = CsvEncoding::kLatin1;
  if (o.contains("decimal")) c.decimal = o["decimal"].get<std::string>()[0];
  if (o.contains("delimiter")) c.delimiter = o["delimiter"].get<std::string>()[0];
  return c;
}

Outcome readCase(const std::string& bytes, const json& o, std::size_t chunk) {
  const std::string label = o.value("label", "");
  if (o.value("plan", "") == "numeric") {
    NumericColumns read;
    read.label = label;
    return readNumeric(bytes, engineOptions(o), read, chunk);
  }
  return readAuto(bytes, engineOptions(o), label, chunk);
}

const CategoryDictionary* dictionaryOf(const Outcome& out, std::size_t column) {
  for (const CategoryDictionary& d : out.fill.dictionaries) {
    if (d.column == column) return &d;
  }
  return nullptr;
}

ColumnPlan column(ColumnRole role, std::size_t output = 0) {
  ColumnPlan p;
  p.role = role;
  p.output = output;
  return p;
}

std::string newlineName(CsvNewline n) {
  return n == CsvNewline::kLf ? "lf" : n == CsvNewline::kCrLf ? "crlf" : "cr";
}

TEST(CsvEngine, EveryEngineFixture) {
  const json m = json::parse(readFile(fixturePath("csv_engine", "manifest.json")));
  ASSERT_GE(m.size(), 25u);
  for (const auto& [name, entry] : m.items()) {
    const std::string bytes = readFile(fixturePath("csv_engine", entry["file"]));
    const Outcome out = readCase(bytes, entry["options"], 0);
    const json& ex = entry["expected"];
    SCOPED_TRACE(name + ": " + out.describe().substr(0, 800));
    if (ex.contains("code")) {
      ASSERT_FALSE(out.ok);
      EXPECT_EQ(out.codeName(), ex["code"].get<std::string>());
      if (ex.contains("message")) {
        EXPECT_NE(out.message.find(ex["message"].get<std::string>()), std::string::npos);
      }
      if (ex.contains("line")) {
        EXPECT_EQ(out.location.line, ex["line"].get<int>());
      }
      if (ex.contains("byte")) {
        EXPECT_EQ(out.location.byte, ex["byte"].get<int>());
      }
      if (ex.contains("column")) {
        EXPECT_EQ(out.location.column, ex["column"].get<std::string>());
      }
      continue;
    }
    ASSERT_TRUE(out.ok);
    EXPECT_EQ(out.scan.rows, ex["rows"].get<std::uint64_t>());
    if (ex.contains("delimiter")) {
      EXPECT_EQ(std::string(1, out.scan.dialect.delimiter), ex["delimiter"].get<std::string>());
    }
    if (ex.contains("decimal")) {
      EXPECT_EQ(std::string(1, out.scan.dialect.decimal), ex["decimal"].get<std::string>());
    }
    if (ex.contains("newline")) {
      EXPECT_EQ(newlineName(out.scan.dialect.newline), ex["newline"]);
    }
    for (const auto& [column, c] : ex["columns"].items()) {
      SCOPED_TRACE("column " + column);
      const std::int64_t j = out.scan.columnIndex(column);
      ASSERT_GE(j, 0);
      const ColumnSummary& s = out.scan.columns[static_cast<std::size_t>(j)];
      EXPECT_EQ(s.missing, c["missing"].get<std::uint64_t>());
      const std::string role = c["role"];
      if (role == "numeric") {
        EXPECT_EQ(s.text + s.nonFinite, 0u);
        EXPECT_EQ(s.numbers, c["numbers"].get<std::uint64_t>());
        continue;
      }
      const CategoryDictionary* d = dictionaryOf(out, static_cast<std::size_t>(j));
      ASSERT_NE(d, nullptr);
      EXPECT_EQ(d->values.size(), c["categories"].get<std::size_t>());
      EXPECT_EQ(d->missing[0], c["missing"].get<std::uint64_t>());
      if (c.contains("values")) {
        const auto values = c["values"].get<std::vector<std::string>>();
        const auto counts = c["counts"].get<std::vector<std::uint64_t>>();
        ASSERT_GE(d->values.size(), values.size());
        for (std::size_t k = 0; k < values.size(); ++k) {
          EXPECT_EQ(d->values[k], values[k]);
          EXPECT_EQ(d->counts[0][k], counts[k]);
        }
      }
      if (role == "label" && ex.contains("classes")) {
        EXPECT_EQ(d->values.size(), ex["classes"].get<std::size_t>());
      }
    }
    if (ex.contains("capped")) {
      for (const auto& column : ex["capped"]) {
        const std::int64_t j = out.scan.columnIndex(column.get<std::string>());
        ASSERT_GE(j, 0);
        EXPECT_TRUE(out.scan.columns[static_cast<std::size_t>(j)].distinctCapped);
      }
    }
    if (ex.contains("first")) {
      for (const auto& [column, values] : ex["first"].items()) {
        const std::size_t j = static_cast<std::size_t>(out.scan.columnIndex(column));
        // autoPlan outputs in file order, skipping the label.
        std::size_t k = 0;
        for (std::size_t i = 0; i < j; ++i) k += out.scan.columns[i].name != entry["options"]["label"];
        for (std::size_t r = 0; r < values.size(); ++r) {
          EXPECT_EQ(out.features[r * out.width + k], values[r].get<float>());
        }
      }
    }
  }
}

TEST(CsvEngine, CategoricalCodesAndMissing) {
  const std::string text = "x,color,y\n1,red,a\n2,NA,b\n3,blue,a\n4,red,\n5,green,c\n";
  const Outcome out = readAuto(text, CsvOptions{}, "y", 3);
  ASSERT_TRUE(out.ok) << out.describe();
  ASSERT_EQ(out.width, 2u);
  // color codes as floats: red 0, missing -1, blue 1, red 0, green 2.
  const std::vector<float> expected = {1, 0, 2, -1, 3, 1, 4, 0, 5, 2};
  EXPECT_EQ(out.features, expected);
  EXPECT_EQ(out.labels, (std::vector<std::int32_t>{0, 1, 0, kMissingCode, 2}));
  const CategoryDictionary* color = dictionaryOf(out, 1);
  ASSERT_NE(color, nullptr);
  EXPECT_EQ(color->values, (std::vector<std::string>{"red", "blue", "green"}));
  EXPECT_EQ(color->counts[0], (std::vector<std::uint64_t>{2, 1, 1}));
  EXPECT_EQ(color->missing[0], 1u);
  EXPECT_EQ(color->code("blue"), 1);
  EXPECT_EQ(color->code("purple"), kOtherCode);
  EXPECT_EQ(out.fill.marked, 2u);
}

TEST(CsvEngine, DeclaredCategoriesAndClosedLists) {
  const std::string text = "c,y\nb,1\nz,0\na,1\nb,0\n";
  const CsvScan scan = scanCsv(text.data(), text.size());
  FillPlan plan;
  plan.columns.resize(2);
  plan.columns[0].role = ColumnRole::kCategorical;
  plan.columns[0].categories = {"a", "b"};
  plan.columns[0].closed = true;
  plan.columns[1].role = ColumnRole::kLabel;
  plan.columns[1].categories = {"1"};
  std::vector<float> x(4);
  std::vector<std::int32_t> y(4);
  const FillResult r = fillCsv(text.data(), text.size(), scan, plan, {{x.data(), 1, y.data(), 4}});
  EXPECT_EQ(x, (std::vector<float>{1, kOtherCode, 0, 1}));
  EXPECT_EQ(y, (std::vector<std::int32_t>{0, 1, 0, 1}));
  ASSERT_EQ(r.dictionaries.size(), 2u);
  EXPECT_EQ(r.dictionaries[0].values, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.dictionaries[0].counts[0], (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(r.dictionaries[0].other[0], 1u);
  EXPECT_EQ(r.dictionaries[1].values, (std::vector<std::string>{"1", "0"}));
}

TEST(CsvEngine, RouterFillsTwoTablesInOnePass) {
  std::string text = "a,b,y\n";
  for (int i = 0; i < 10; ++i) {
    text += std::to_string(i) + "," + std::to_string(10 * i) + "," + (i % 3 == 0 ? "p" : "q") + "\n";
  }
  const CsvScan scan = scanCsv(text.data(), text.size());
  ASSERT_EQ(scan.rows, 10u);
  const std::vector<std::uint8_t> router = {1, 2, 1, 0, 2, 1, 1, 2, 0, 1};
  std::vector<float> train(6 * 3, -1), test(3 * 3, -1);
  std::vector<std::int32_t> trainY(6), testY(3);
  FillPlan plan;
  plan.columns.resize(3);
  plan.columns[0] = column(ColumnRole::kNumeric, 1);
  plan.columns[1] = column(ColumnRole::kNumeric, 0);
  plan.columns[2].role = ColumnRole::kLabel;
  CsvFiller filler(scan, plan,
                   {{train.data(), 3, trainY.data(), 6}, {test.data(), 3, testY.data(), 3}},
                   router.data());
  feedAll(filler, text, 5);
  const FillResult r = filler.finish();
  EXPECT_EQ(r.rows, (std::vector<std::uint64_t>{5, 3}));
  // Rows 0 2 5 6 9 … of the file in train (stride 3, third value untouched), 1 4 7 in test.
  EXPECT_EQ(train, (std::vector<float>{0, 0, -1, 20, 2, -1, 50, 5, -1, 60, 6, -1, 90, 9, -1,
                                       -1, -1, -1}));
  EXPECT_EQ(test, (std::vector<float>{10, 1, -1, 40, 4, -1, 70, 7, -1}));
  // One dictionary for both tables, counts per table.
  ASSERT_EQ(r.dictionaries.size(), 1u);
  EXPECT_EQ(r.dictionaries[0].values, (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(r.dictionaries[0].counts[0], (std::vector<std::uint64_t>{3, 2}));
  EXPECT_EQ(r.dictionaries[0].counts[1], (std::vector<std::uint64_t>{0, 3}));
  EXPECT_EQ(trainY, (std::vector<std::int32_t>{0, 1, 1, 0, 0, 0}));
}

template <class F>
Error errorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorCode::kInternal, "", "none");
}

TEST(CsvEngine, PlanAndTargetChecks) {
  const std::string text = "a,b,y\n1,2,x\n3,4,z\n";
  const CsvScan scan = scanCsv(text.data(), text.size());
  std::vector<float> x(4);
  std::vector<std::int32_t> y(2);
  auto fill = [&](FillPlan plan, std::vector<FillTarget> targets,
                  const std::uint8_t* router = nullptr) {
    fillCsv(text.data(), text.size(), scan, std::move(plan), std::move(targets), router);
  };
  FillPlan good;
  good.columns = {column(ColumnRole::kNumeric, 0), column(ColumnRole::kNumeric, 1), column(ColumnRole::kLabel)};
  fill(good, {{x.data(), 2, y.data(), 2}});
  EXPECT_EQ(x, (std::vector<float>{1, 2, 3, 4}));

  FillPlan shortPlan = good;
  shortPlan.columns.pop_back();
  EXPECT_EQ(errorOf([&] { fill(shortPlan, {{x.data(), 2, y.data(), 2}}); }).parameter(),
            "plan.columns");
  FillPlan sameOutput = good;
  sameOutput.columns[1].output = 0;
  EXPECT_EQ(errorOf([&] { fill(sameOutput, {{x.data(), 2, y.data(), 2}}); }).parameter(),
            "plan.columns[1].output");
  FillPlan twoLabels = good;
  twoLabels.columns[0].role = ColumnRole::kLabel;
  EXPECT_EQ(errorOf([&] { fill(twoLabels, {{x.data(), 2, y.data(), 2}}); }).code(),
            ErrorCode::kBadParameter);
  FillPlan constantOnLabel = good;
  constantOnLabel.columns[2].missing = MissingPolicy::kConstant;
  EXPECT_EQ(errorOf([&] { fill(constantOnLabel, {{x.data(), 2, y.data(), 2}}); }).parameter(),
            "plan.columns[2].missing");
  EXPECT_EQ(errorOf([&] { fill(good, {{x.data(), 1, y.data(), 2}}); }).parameter(),
            "targets[0].features");
  EXPECT_EQ(errorOf([&] { fill(good, {{x.data(), 2, nullptr, 2}}); }).parameter(),
            "targets[0].labels");
  EXPECT_EQ(errorOf([&] { fill(good, {{x.data(), 2, y.data(), 1}}); }).parameter(),
            "targets[0].rows");
  EXPECT_EQ(errorOf([&] { fill(good, {}); }).parameter(), "targets");
  const std::uint8_t badRouter[] = {1, 3};
  EXPECT_EQ(errorOf([&] { fill(good, {{x.data(), 2, y.data(), 2}}, badRouter); }).parameter(),
            "router");
  CsvOptions bad;
  bad.delimiter = 'x';
  EXPECT_EQ(errorOf([&] { CsvScanner s(bad); }).parameter(), "delimiter");
  bad = CsvOptions{};
  bad.missingTokens = {" NA"};
  EXPECT_EQ(errorOf([&] { CsvScanner s(bad); }).parameter(), "missingTokens");
  bad = CsvOptions{};
  bad.decimal = ';';
  EXPECT_EQ(errorOf([&] { CsvScanner s(bad); }).parameter(), "decimal");
}

TEST(CsvEngine, NumericFillNamesTheFirstBadCell) {
  // Every column a number: pass 2 refuses the first bad cell in file order — line 3's text in
  // column b, before line 4's missing cell in a and line 5's "inf" in b — in any chunking.
  const std::string text = "a,b,y\n1,2,0\n3,oops,1\n,5,0\n6,inf,1\n";
  NumericColumns read;
  read.label = "y";
  for (const std::size_t chunk : {0u, 1u, 4u}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    const Outcome e = readNumeric(text, legacyCsvOptions(), read, chunk);
    ASSERT_FALSE(e.ok);
    EXPECT_EQ(e.code, ErrorCode::kNonNumeric);
    EXPECT_EQ(e.location.line, 3);
    EXPECT_EQ(e.location.columnIndex, 1);
    EXPECT_EQ(e.location.column, "b");
    EXPECT_NE(e.message.find("\"oops\" at line 3, column \"b\""), std::string::npos) << e.message;
    // Column a alone: its missing cell at line 4.
    NumericColumns onlyA = read;
    onlyA.features = std::vector<std::string>{"a"};
    const Outcome missing = readNumeric(text, legacyCsvOptions(), onlyA, chunk);
    ASSERT_FALSE(missing.ok);
    EXPECT_EQ(missing.code, ErrorCode::kMissingValue);
    EXPECT_EQ(missing.location.line, 4);
    EXPECT_EQ(missing.location.column, "a");
  }
}

TEST(CsvEngine, DefaultTokensKeepTheNumberFastPath) {
  // "NaN" and friends are tokens but never finite numbers: numbers need not be checked
  // against the tokens first (that check would turn the tokenizer's fast path off).
  EXPECT_FALSE(dpmargin::data::csv::CellClassifier(defaultMissingTokens(), '.', CsvEncoding::kUtf8)
                   .numericTokens());
  EXPECT_TRUE(dpmargin::data::csv::CellClassifier({"", "-999"}, '.', CsvEncoding::kUtf8)
                  .numericTokens());
}

TEST(CsvEngine, HugeRowCapIsNoCap) {
  CsvOptions o;
  o.maxRowBytes = std::numeric_limits<std::size_t>::max();
  const Outcome out = readAuto("a,b\n1,2\n3,4\n", o, "", 1);
  ASSERT_TRUE(out.ok) << out.describe();
  EXPECT_EQ(out.scan.rows, 2u);
  FillPlan plan;
  plan.columns = {column(ColumnRole::kNumeric, 0), column(ColumnRole::kNumeric, 1000000000)};
  std::vector<float> x(4);
  // An absurd output position is refused by the stride check, without allocating for it.
  EXPECT_EQ(errorOf([&] { fillCsv("a,b\n1,2\n3,4\n", 12, out.scan, plan, {{x.data(), 2, nullptr, 2}}); })
                .parameter(),
            "targets[0].features");
}

TEST(CsvEngine, MissingTokensAreConfigurable) {
  const std::string text = "a,b\n-999,x\n2,-999\n3,NA\n";
  CsvOptions o;
  o.missingTokens = {"", "-999"};
  const Outcome out = readAuto(text, o, "", 0);
  ASSERT_TRUE(out.ok) << out.describe();
  EXPECT_EQ(out.scan.columns[0].missing, 1u);  // the token wins over the number
  EXPECT_EQ(out.scan.columns[0].numbers, 2u);
  EXPECT_TRUE(std::isnan(out.features[0]));
  EXPECT_EQ(out.scan.columns[1].missing, 1u);
  EXPECT_EQ(out.scan.columns[1].text, 2u);  // "NA" is not a token here
  const Outcome defaults = readAuto(text, CsvOptions{}, "", 0);
  EXPECT_EQ(defaults.scan.columns[0].numbers, 3u);
  EXPECT_EQ(defaults.scan.columns[1].missing, 1u);
}

TEST(CsvEngine, SummariesCapDistinctValues) {
  std::string text = "id,small,y\n";
  for (int i = 0; i < 1000; ++i) {
    text += "id" + std::to_string(i) + "," + std::to_string(i % 5) + "," + std::to_string(i % 2) + "\n";
  }
  CsvOptions o;
  o.distinctCap = 64;
  const CsvScan scan = scanCsv(text.data(), text.size(), o);
  EXPECT_TRUE(scan.columns[0].distinctCapped);
  EXPECT_EQ(scan.columns[0].distinct.size(), 64u);
  EXPECT_EQ(scan.columns[0].distinctRows, 64u);
  EXPECT_EQ(scan.columns[0].distinct[63].value, "id63");
  EXPECT_FALSE(scan.columns[1].distinctCapped);
  EXPECT_EQ(scan.columns[1].distinctRows, 1000u);
  ASSERT_EQ(scan.columns[1].distinct.size(), 5u);
  for (const DistinctValue& v : scan.columns[1].distinct) EXPECT_EQ(v.count, 200u);
  EXPECT_EQ(scan.columns[0].text, 1000u);
  EXPECT_EQ(scan.columns[0].firstText.value, "id0");
  EXPECT_EQ(scan.columns[0].firstText.line, 2);
}

// The value tables' partial load is the zero-padded little-endian memcpy it replaced (so hashes
// and table heads are unchanged), for every length below 8 and bytes above 0x7F.
TEST(CsvEngine, PartialLoadEqualsZeroPaddedCopy) {
  const char bytes[16] = {'\x01', '\xff', '\x80', '7', '\x00', 'z', '\xc3', '\xa9',
                          '1', '2', '3', '4', '5', '6', '7', '8'};
  for (std::size_t at = 0; at < 8; ++at) {
    for (std::size_t n = 0; n < 8; ++n) {
      std::uint64_t expected = 0;
      std::memcpy(&expected, bytes + at, n);
      EXPECT_EQ(dpmargin::data::csv::loadPartial(bytes + at, n), expected) << at << " " << n;
    }
  }
}

// A column of numbers stops at numericDistinctCap (64): every label (≤ 50 classes) stays exact,
// a continuous or pixel column stops being tracked early. A column with a text cell before its
// 64th value keeps distinctCap (256).
TEST(CsvEngine, NumericColumnsHaveTheSmallerDistinctCap) {
  std::string text = "pixel,classes,code,y\n";
  for (int i = 0; i < 1000; ++i) {
    text += std::to_string(i % 200) + "," + std::to_string(i % 50) + "," +
            (i == 0 ? std::string("A0") : std::to_string(i % 200)) + "," + std::to_string(i % 2) + "\n";
  }
  const CsvScan scan = scanCsv(text.data(), text.size(), CsvOptions{});
  EXPECT_EQ(CsvOptions{}.numericDistinctCap, 64u);
  EXPECT_TRUE(scan.columns[0].distinctCapped);
  EXPECT_EQ(scan.columns[0].distinct.size(), 64u);
  EXPECT_EQ(scan.columns[0].distinctRows, 64u);
  EXPECT_FALSE(scan.columns[1].distinctCapped);  // 50 classes: exact
  ASSERT_EQ(scan.columns[1].distinct.size(), 50u);
  for (const DistinctValue& v : scan.columns[1].distinct) EXPECT_EQ(v.count, 20u);
  EXPECT_FALSE(scan.columns[2].distinctCapped);  // a text cell first: up to 256 (201 here)
  EXPECT_EQ(scan.columns[2].distinct.size(), 201u);
  // The cap is an option (a larger one keeps the old summaries), and validated.
  CsvOptions wide;
  wide.numericDistinctCap = 256;
  EXPECT_FALSE(scanCsv(text.data(), text.size(), wide).columns[0].distinctCapped);
  CsvOptions bad;
  bad.numericDistinctCap = (std::size_t{1} << 24) + 1;
  const Error e = errorOf([&] { scanCsv(text.data(), text.size(), bad); });
  EXPECT_EQ(e.code(), ErrorCode::kBadParameter);
  EXPECT_EQ(e.parameter(), "numericDistinctCap");
}

TEST(CsvEngine, HundredThousandDistinctStringsInPassTwo) {
  const std::string bytes = readFile(fixturePath("csv_engine", "distinct_100k.csv"));
  const Outcome out = readAuto(bytes, CsvOptions{}, "y", 65536);
  ASSERT_TRUE(out.ok);
  const CategoryDictionary* keys = dictionaryOf(out, 0);
  ASSERT_NE(keys, nullptr);
  ASSERT_EQ(keys->values.size(), 100000u);
  for (std::size_t i = 0; i < 100000; ++i) {
    ASSERT_EQ(out.features[i], static_cast<float>(i));  // first-seen order, exact as float
    ASSERT_EQ(keys->counts[0][i], 1u);
  }
  EXPECT_TRUE(out.scan.columns[0].distinctCapped);
  EXPECT_EQ(out.scan.columns[0].distinct.size(), CsvOptions{}.distinctCap);
}

TEST(CsvEngine, RowCapNamesTheRow) {
  CsvOptions o;
  o.maxRowBytes = 64;
  std::string open = "a,b\n1,2\n3,\"never closed";
  for (int i = 0; i < 20; ++i) open += "\nmore text here";
  for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
    const Error e = errorOf([&] { scanIn(open, o, chunk); });
    EXPECT_EQ(e.code(), ErrorCode::kCsvParse);
    EXPECT_NE(std::string(e.what()).find("the row starting at line 3 is longer than 64 bytes (is a "
                                         "quote left open?)"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.location().line, 3);
  }
  // Within the cap, the same file says where the quote opened.
  const Error unterminated = errorOf([&] { scanIn("a,b\n1,2\n3,\"x\ny", CsvOptions{}, 0); });
  EXPECT_NE(std::string(unterminated.what()).find("unterminated quoted field starting at line 3"),
            std::string::npos);
  // A long unquoted row is refused too, whatever the chunking.
  const std::string wide = "a,b\n1," + std::string(100, '7') + "\n";
  for (const std::size_t chunk : {std::size_t{0}, std::size_t{3}}) {
    EXPECT_NE(std::string(errorOf([&] { scanIn(wide, o, chunk); }).what()).find("line 2 is longer"),
              std::string::npos);
  }
}

TEST(CsvEngine, EncodingErrorsNameByteAndLine) {
  struct Case {
    std::string bytes;
    std::int64_t byte, line;
    const char* fragment;
  };
  const Case cases[] = {
      {"a,b\n1,\xC0\xAF\n", 6, 2, "0xC0"},                  // overlong
      {"a,b\n1,\xED\xA0\x80\n", 6, 2, "0xED"},              // surrogate
      {"a,b\n1,\xF4\x90\x80\x80\n", 6, 2, "0xF4"},          // beyond U+10FFFF
      {"a,b\n\"x\ny\",\xE9\n", 10, 3, "\"\xC3\xA9\" in Latin-1"},  // line counted inside quotes
      {"a,b\n1,caf\xC3", 9, 2, "0xC3"},                     // cut at the end of the file
      {"\xEF\xBB\xBF" "a,b\n1,\x80\n", 9, 2, "\"\xE2\x82\xAC\""},  // offsets count the BOM
  };
  for (const Case& c : cases) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{2}}) {
      const Error e = errorOf([&] { scanIn(c.bytes, CsvOptions{}, chunk); });
      EXPECT_EQ(e.code(), ErrorCode::kCsvParse);
      EXPECT_EQ(e.location().byte, c.byte) << e.what();
      EXPECT_EQ(e.location().line, c.line) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
    }
  }
  // Valid multi-byte text, cut anywhere, reads back unchanged.
  const std::string text = "name,\xF0\x9F\x99\x82 mood,y\n\xC3\xA9t\xC3\xA9,\xE6\xB8\xA9,1\n";
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{2}, std::size_t{3}}) {
    const Outcome out = readAuto(text, CsvOptions{}, "y", chunk);
    ASSERT_TRUE(out.ok) << out.describe();
    EXPECT_EQ(out.scan.columns[1].name, "\xF0\x9F\x99\x82 mood");
    EXPECT_EQ(dictionaryOf(out, 0)->values[0], "\xC3\xA9t\xC3\xA9");
  }
}

TEST(CsvEngine, Latin1IsTranscoded) {
  const std::string text = "caf\xE9,b\n\xC0 la carte,1\n\x80,2\n";
  CsvOptions o;
  o.encoding = CsvEncoding::kLatin1;
  const Outcome out = readAuto(text, o, "", 1);
  ASSERT_TRUE(out.ok) << out.describe();
  EXPECT_EQ(out.scan.columns[0].name, "caf\xC3\xA9");
  EXPECT_EQ(dictionaryOf(out, 0)->values,
            (std::vector<std::string>{"\xC3\x80 la carte", "\xE2\x82\xAC"}));
  EXPECT_EQ(out.scan.columns[0].distinct[1].value, "\xE2\x82\xAC");
  // A UTF-8 byte order mark says the bytes are UTF-8, whatever the option.
  const Outcome bom = readAuto("\xEF\xBB\xBF" "caf\xC3\xA9,b\nx,1\n", o, "", 0);
  ASSERT_TRUE(bom.ok) << bom.describe();
  EXPECT_EQ(bom.scan.dialect.encoding, CsvEncoding::kUtf8);
  EXPECT_EQ(bom.scan.columns[0].name, "caf\xC3\xA9");
}

TEST(CsvEngine, SourceChangedBetweenPasses) {
  const std::string first = "a,b\n1,2\n3,4\n";
  const CsvScan scan = scanCsv(first.data(), first.size());
  FillPlan plan;
  plan.columns = {column(ColumnRole::kNumeric, 0), column(ColumnRole::kNumeric, 1)};
  std::vector<float> x(4);
  for (const std::string& other : {std::string("a,c\n1,2\n3,4\n"), std::string("a,b\n1,2\n"),
                                   std::string("a,b\n1,2\n3,4\n5,6\n"), std::string("")}) {
    const Error e = errorOf([&] {
      fillCsv(other.data(), other.size(), scan, plan, {{x.data(), 2, nullptr, 2}});
    });
    if (other.empty()) continue;  // an empty source fails in its own words below
    EXPECT_EQ(e.code(), ErrorCode::kCsvParse);
    EXPECT_NE(std::string(e.what()).find("the source changed"), std::string::npos) << e.what();
  }
}

TEST(CsvEngine, ScannerShowsTheHeaderEarlyAndRefusesMisuse) {
  CsvScanner scanner;
  EXPECT_EQ(scanner.header(), nullptr);
  std::string head = " id ,value";
  for (int i = 0; i < 60; ++i) head += "\n" + std::to_string(i) + ",1";
  scanner.feed(head.data(), head.size());
  ASSERT_NE(scanner.header(), nullptr);
  EXPECT_EQ(*scanner.header(), (std::vector<std::string>{"id", "value"}));
  EXPECT_GT(scanner.rows(), 50u);
  const CsvScan scan = scanner.finish();
  EXPECT_EQ(scan.rows, 60u);
  EXPECT_EQ(errorOf([&] { scanner.feed("x", 1); }).code(), ErrorCode::kInternal);
  CsvScanner failing;
  EXPECT_EQ(errorOf([&] { failing.feed("a,b\n1\n", 6); failing.finish(); }).code(),
            ErrorCode::kRaggedRow);
  EXPECT_EQ(errorOf([&] { failing.finish(); }).code(), ErrorCode::kInternal);
}

TEST(CsvEngine, DuplicateNamesAreNamedWithBothColumns) {
  const Error e = errorOf([] { scanCsv("x, y ,z,y\n1,2,3,4\n", 18); });
  EXPECT_EQ(e.code(), ErrorCode::kCsvParse);
  EXPECT_NE(std::string(e.what()).find("duplicate column name \"y\" in the header (line 1, columns 2 "
                                       "and 4)"),
            std::string::npos)
      << e.what();
  EXPECT_EQ(e.location().columnIndex, 3);
}

// The dialect is a function of the header line (public), never of the rows: the delimiter that
// splits the header into the most fields, and the decimal mark '.' where ',' delimits, else
// either mark per cell (docs/reference/PRIVACY_SCHEMA.md, "The schema").
TEST(CsvEngine, DialectDetection) {
  struct Case {
    std::string text;
    char delimiter, decimal;
  };
  const Case cases[] = {
      {"a;b;c\n1,5;2;3\n", ';', kEitherDecimal},
      {"a;b\n1.5;2\n1,5;3\n", ';', kEitherDecimal},  // both read 1.5
      {"a,b\n\"1,5\",2\n", ',', '.'},              // never ',' in a comma file unless asked
      {"a\tb\n1,25\t2\n", '\t', kEitherDecimal},
      {"a|b|c\n1|2|3\n", '|', kEitherDecimal},
      {"a,b;c\n1,2;3\n4,5;6\n", ',', '.'},         // equal widths: the first candidate
      {"only\n1\n2\n", ',', '.'},
      {"a;b\n1;2\n3;4;5\n", ';', kEitherDecimal},  // ragged: still ';' (the error names the row)
      {"a;b;c\n1,2,3,4;5;6\n", ';', kEitherDecimal},  // rows full of commas: the header decides
      {"\n\na,b,c\n1;2;3,4,5\n", ',', '.'},        // blank lines before the header
  };
  for (const Case& c : cases) {
    CsvScanner s;
    s.feed(c.text.data(), c.text.size());
    try {
      const CsvScan scan = s.finish();
      EXPECT_EQ(scan.dialect.delimiter, c.delimiter) << c.text;
      EXPECT_EQ(scan.dialect.decimal, c.decimal) << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::kRaggedRow) << c.text << e.what();
    }
  }
}

// Either decimal mark: each cell is read with '.' and, failing that, ','; digit groups stay text.
TEST(CsvEngine, EitherDecimalMarkPerCell) {
  const std::string text = "a;b\n1.5;x\n1,5;x\n-0,25;x\n1,234,567;x\n1.234,5;x\n,5;x\n";
  CsvScanner s;
  s.feed(text.data(), text.size());
  const CsvScan scan = s.finish();
  ASSERT_EQ(scan.dialect.decimal, kEitherDecimal);
  EXPECT_EQ(scan.columns[0].numbers, 4u);  // 1.5, 1,5, -0,25, ,5
  EXPECT_EQ(scan.columns[0].text, 2u);     // digit groups
}

}  // namespace
