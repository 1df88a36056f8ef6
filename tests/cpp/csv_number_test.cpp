// Numbers of the CSV engine are Math.fround(Number(text)): the correctly rounded double, then
// rounded to float32. Checked (1) against strtod → float on a large random corpus of decimal
// strings, directly and through both passes (the tokenizer's fast path on unquoted cells, the
// general path on quoted and padded ones); (2) against today's TypeScript reader itself: the
// class and bits it gives 6,467 texts (tests/fixtures/csv_engine/js_numbers.json, written by
// tests/fixtures/make_js_numbers.mjs from wasm/src/csv_columns.ts).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <random>

#include "csv_test_util.hpp"
#include "data/csv/cells.hpp"
#include "data/csv/text.hpp"

namespace {

using namespace dpmargin::testing::csv;
namespace csv = dpmargin::data::csv;

std::uint32_t bitsOf(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
  return b;
}

// A decimal string of a random shape: sign, 1–40 significant digits, a point anywhere (or
// none, or leading/trailing), an exponent near the float32 limits or anywhere.
std::string randomDecimal(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> coin(0, 99);
  std::string s;
  const int sign = coin(rng);
  if (sign < 30) s += '-';
  const int digits = 1 + static_cast<int>(rng() % (coin(rng) < 80 ? 12 : 40));
  std::string mantissa;
  for (int i = 0; i < digits; ++i) {
    mantissa += static_cast<char>('0' + (i == 0 && coin(rng) < 70 ? 1 + rng() % 9 : rng() % 10));
  }
  const int point = coin(rng) < 20 ? -1 : static_cast<int>(rng() % (digits + 1));
  if (point >= 0) mantissa.insert(static_cast<std::size_t>(point), ".");
  if (mantissa == ".") mantissa = "0.";
  s += mantissa;
  const int e = coin(rng);
  if (e < 50) {
    int exponent;
    const int kind = coin(rng);
    if (kind < 40) {
      exponent = static_cast<int>(rng() % 90) - 50;  // around 1e-45 … 1e39
    } else if (kind < 60) {
      exponent = 36 + static_cast<int>(rng() % 5) - digits;  // near FLT_MAX
    } else if (kind < 80) {
      exponent = -38 - static_cast<int>(rng() % 10);  // subnormals
    } else {
      exponent = static_cast<int>(rng() % 700) - 350;
    }
    s += coin(rng) < 50 ? 'e' : 'E';
    if (exponent >= 0 && coin(rng) < 20) s += '+';
    s += std::to_string(exponent);
  }
  return s;
}

float reference(const std::string& s) {
  return static_cast<float>(std::strtod(s.c_str(), nullptr));
}

TEST(CsvNumber, BitIdenticalToStrtodOnAMillionDecimals) {
  std::mt19937_64 rng(18);
  std::size_t numbers = 0, overflow = 0, infinite = 0;
  for (int i = 0; i < 1000000; ++i) {
    const std::string s = randomDecimal(rng);
    float value = 0;
    const csv::NumberStatus status = csv::parseNumber(s.data(), s.data() + s.size(), '.', value);
    const double d = std::strtod(s.c_str(), nullptr);
    const float f = static_cast<float>(d);
    if (!std::isfinite(d)) {
      ASSERT_EQ(status, csv::NumberStatus::kInfinite) << s;
      ++infinite;
    } else if (std::isinf(f)) {
      ASSERT_EQ(status, csv::NumberStatus::kOverflow) << s;
      ++overflow;
    } else {
      ASSERT_EQ(status, csv::NumberStatus::kNumber) << s;
      ASSERT_EQ(bitsOf(value), bitsOf(f)) << s;
      ++numbers;
    }
  }
  // The corpus reaches every outcome.
  EXPECT_GT(numbers, 800000u);
  EXPECT_GT(overflow, 1000u);
  EXPECT_GT(infinite, 1000u);
}

TEST(CsvNumber, DecimalCommaParsesAsThePointDoes) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const std::string s = randomDecimal(rng);
    std::string comma = s;
    for (char& c : comma) {
      if (c == '.') c = ',';
    }
    float a = 0, b = 0;
    const auto sa = csv::parseNumber(s.data(), s.data() + s.size(), '.', a);
    const auto sb = csv::parseNumber(comma.data(), comma.data() + comma.size(), ',', b);
    ASSERT_EQ(sa, sb) << s;
    if (sa == csv::NumberStatus::kNumber) {
      ASSERT_EQ(bitsOf(a), bitsOf(b)) << s;
    }
    if (comma != s) {
      float c = 0;
      // With '.' as the decimal mark a comma is text, and vice versa.
      ASSERT_EQ(csv::parseNumber(comma.data(), comma.data() + comma.size(), '.', c),
                csv::NumberStatus::kNotNumber);
    }
  }
}

// 200,000 rows: column a unquoted (tokenizer fast path), b quoted and padded (general path),
// c with a leading '+' (general path); every value must equal strtod's.
TEST(CsvNumber, BothPassesGiveStrtodBits) {
  std::mt19937_64 rng(2024);
  std::vector<std::string> values;
  std::string csvText = "a,b,c\n";
  for (int i = 0; i < 200000; ++i) {
    std::string s;
    do {
      s = randomDecimal(rng);
    } while (!std::isfinite(reference(s)));
    values.push_back(s);
    const std::string unsigned_ = s[0] == '-' ? s.substr(1) : s;
    csvText += s + ",\" " + s + "\t\",+" + unsigned_ + "\n";
  }
  for (const std::size_t chunk : {std::size_t{0}, std::size_t{4093}}) {
    const Outcome out = readAuto(csvText, CsvOptions{}, "", chunk);
    ASSERT_TRUE(out.ok) << out.describe().substr(0, 400);
    ASSERT_EQ(out.width, 3u);
    for (const ColumnSummary& c : out.scan.columns) ASSERT_EQ(c.numbers, values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const float f = reference(values[i]);
      ASSERT_EQ(bitsOf(out.features[3 * i]), bitsOf(f)) << values[i];
      ASSERT_EQ(bitsOf(out.features[3 * i + 1]), bitsOf(f)) << values[i];
      ASSERT_EQ(bitsOf(out.features[3 * i + 2]), bitsOf(std::fabs(f))) << values[i];
    }
  }
}

std::string csvQuote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

const char* className(CellClass c) {
  switch (c) {
    case CellClass::kNumber:
      return "number";
    case CellClass::kMissing:
      return "missing";
    case CellClass::kNonFinite:
      return "nonfinite";
    case CellClass::kText:
      return "text";
  }
  return "?";
}

TEST(CsvNumber, SameClassAndBitsAsTodaysReader) {
  const auto entries =
      nlohmann::json::parse(readFile(fixturePath("csv_engine", "js_numbers.json")));
  ASSERT_GT(entries.size(), 6000u);
  const csv::CellClassifier legacy({""}, '.', CsvEncoding::kUtf8);
  std::string column = "v\n";
  std::size_t inCsv = 0;
  for (const auto& entry : entries) {
    const std::string text = entry[0].get<std::string>();
    const std::string expected = entry[1].get<std::string>();
    const char* b = text.data();
    const char* e = b + text.size();
    float value = 0;
    csv::NumberStatus status;
    const CellClass cls = legacy.classify(b, e, value, status);
    EXPECT_EQ(className(cls), expected) << csvQuote(text);
    if (expected == "number" && cls == CellClass::kNumber) {
      EXPECT_EQ(bitsOf(value), std::stoul(entry[2].get<std::string>(), nullptr, 16))
          << csvQuote(text);
    }
    // Numbers also through the tokenizer, quoted (general path) and bare where the text
    // allows it (fast path when it is a plain decimal).
    if (expected == "number" && text.find_first_of("\r\n\u2028") == std::string::npos) {
      column += csvQuote(text) + "\n";
      if (text.find_first_of(",\"") == std::string::npos && !csv::isBlank(b, e, CsvEncoding::kUtf8)) {
        column += text + "\n";
      }
      ++inCsv;
    }
  }
  const Outcome out = readAuto(column, legacyCsvOptions(), "", 0);
  ASSERT_TRUE(out.ok) << out.describe().substr(0, 400);
  EXPECT_EQ(out.scan.columns[0].numbers, out.scan.rows);
  EXPECT_GT(out.scan.rows, inCsv);
  std::size_t row = 0;
  for (const auto& entry : entries) {
    const std::string text = entry[0].get<std::string>();
    if (entry[1] != "number" || text.find_first_of("\r\n\u2028") != std::string::npos) continue;
    const std::uint32_t bits = std::stoul(entry[2].get<std::string>(), nullptr, 16);
    EXPECT_EQ(bitsOf(out.features[row++]), bits) << csvQuote(text);
    const char* b = text.data();
    const char* e = b + text.size();
    if (text.find_first_of(",\"") == std::string::npos && !csv::isBlank(b, e, CsvEncoding::kUtf8)) {
      EXPECT_EQ(bitsOf(out.features[row++]), bits) << text;
    }
  }
  EXPECT_EQ(row, out.scan.rows);
}

TEST(CsvNumber, Grammar) {
  struct Case {
    const char* text;
    csv::NumberStatus status;
  };
  using S = csv::NumberStatus;
  const Case cases[] = {
      {"0", S::kNumber},        {"-0", S::kNumber},       {"+1", S::kNumber},
      {".5", S::kNumber},       {"5.", S::kNumber},       {"-.5e-3", S::kNumber},
      {"1E+5", S::kNumber},     {"00012", S::kNumber},    {"1e", S::kNotNumber},
      {"1e+", S::kNotNumber},   {".", S::kNotNumber},     {"+", S::kNotNumber},
      {"+-1", S::kNotNumber},   {"--1", S::kNotNumber},   {"0x1A", S::kNotNumber},
      {"1,5", S::kNotNumber},   {"1 000", S::kNotNumber}, {"1_0", S::kNotNumber},
      {"nan(1)", S::kNotNumber}, {"infinit", S::kNotNumber}, {"inf", S::kInfinite},
      {"-Infinity", S::kInfinite}, {"+NaN", S::kInfinite}, {"iNfInItY", S::kInfinite},
      {"1e999", S::kInfinite},  {"3.5e38", S::kOverflow}, {"-1e39", S::kOverflow},
      {"3.4028235e38", S::kNumber}, {"1e-50", S::kNumber},
  };
  for (const Case& c : cases) {
    float v;
    const std::string t = c.text;
    EXPECT_EQ(csv::parseNumber(t.data(), t.data() + t.size(), '.', v), c.status) << t;
  }
  float v = 1;
  const std::string minusZero = "-0";
  csv::parseNumber(minusZero.data(), minusZero.data() + 2, '.', v);
  EXPECT_TRUE(std::signbit(v));
}

}  // namespace
