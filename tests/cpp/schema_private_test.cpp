// The private schema decisions (docs/reference/PRIVACY_SCHEMA.md, "The schema"; data/schema.hpp): which
// questions a table asks (public: the header and the options), the rules at their boundaries,
// the release's sensitivity and noise scale, and the run's budget split.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "dpmargin/data/schema.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/random/generator.hpp"
#include "dpmargin/run/run.hpp"
#include "expect_error.hpp"
#include "random_stats.hpp"

namespace dpmargin {
namespace {

using data::ColumnKind;

data::CsvScan scanOf(const std::string& csv, const data::TableOptions& o = {}) {
  return data::scanCsv(csv.data(), csv.size(), data::csvOptionsFor(o));
}

const data::ColumnSchema& column(const data::Schema& s, const std::string& name) {
  for (const auto& c : s.columns) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no column " + name);
}

// Two tables with the same header and wildly different cells ask the same questions; declared
// choices remove theirs.
TEST(SchemaPrivate, QuestionsAreAFunctionOfTheHeaderAndTheOptions) {
  const std::string a = "id,age,plan,label\n1,30,basic,0\n2,40,gold,1\n";
  const std::string b = "id,age,plan,label\nx,NA,,yes\ny,oops,12,no\nz,,,maybe\n";
  data::TableOptions o;
  const auto qa = data::schemaQuestions(scanOf(a), o, data::SchemaPurpose::kTrain);
  const auto qb = data::schemaQuestions(scanOf(b), o, data::SchemaPurpose::kTrain);
  EXPECT_EQ(qa.kind, qb.kind);
  EXPECT_EQ(qa.nullable, qb.nullable);
  EXPECT_EQ(qa.labelClasses, qb.labelClasses);
  EXPECT_EQ(qa.kind, (std::vector<bool>{false, true, true, false}));  // "id" is public, the label apart
  EXPECT_TRUE(qa.labelClasses);
  EXPECT_EQ(qa.coordinates(), 2u * 2u + 1u);
  // Declared: a kind keeps the nullable question; kind and nullable remove both; classes the label's.
  data::ColumnChoice age;
  age.name = "age";
  age.kind = ColumnKind::kNumeric;
  o.columns = {age};
  auto q = data::schemaQuestions(scanOf(a), o, data::SchemaPurpose::kTrain);
  EXPECT_FALSE(q.kind[1]);
  EXPECT_TRUE(q.nullable[1]);
  EXPECT_EQ(q.coordinates(), 5u);
  o.columns[0].nullable = false;
  o.classes = std::vector<std::string>{"0", "1"};
  q = data::schemaQuestions(scanOf(a), o, data::SchemaPurpose::kTrain);
  EXPECT_FALSE(q.nullable[1]);
  EXPECT_FALSE(q.labelClasses);
  EXPECT_EQ(q.coordinates(), 2u);  // plan only
  o.positive.reset();
  o.classes.reset();
  o.discoverClasses = true;
  EXPECT_FALSE(data::schemaQuestions(scanOf(a), o, data::SchemaPurpose::kTrain).labelClasses);
}

// Noisy evidence for one feature column "x" and a label; the rules read only these numbers.
data::Schema decide(double text, double missing, double notBinary, double sigma, double n = 1000) {
  const std::string csv = "x,label\n1,0\n2,1\n";
  data::SchemaEvidence e;
  e.exact = false;
  e.sigma = sigma;
  e.rows = n;
  e.columns = {{text, missing, std::numeric_limits<double>::quiet_NaN()},
               {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), notBinary}};
  return data::resolveSchema(scanOf(csv), {}, data::SchemaPurpose::kSummary, e);
}

// Each rule at its boundary: a mutation of a constant or of the comparison fails one of these.
TEST(SchemaPrivate, TheRulesAtTheirBoundaries) {
  const double s = 10.0;
  // Kind: categorical iff text − ½·present > √1.25·σ (11.180 here), else numeric.
  EXPECT_EQ(column(decide(461.18, 100, 0, s), "x").kind, ColumnKind::kNumeric);  // 450 + 11.18
  EXPECT_EQ(column(decide(461.19, 100, 0, s), "x").kind, ColumnKind::kCategorical);
  EXPECT_EQ(column(decide(450, 100, 0, s), "x").reason, "numbers");
  EXPECT_EQ(column(decide(600, 0, 0, s), "x").reason, "text");
  EXPECT_EQ(column(decide(0, 0, 0, s), "x").decision, "private");
  // … the same margin for a nearly empty column: noise alone stays numbers.
  EXPECT_EQ(column(decide(18.68, 985, 0, s), "x").kind, ColumnKind::kNumeric);  // 7.5 + 11.18
  EXPECT_EQ(column(decide(18.69, 985, 0, s), "x").kind, ColumnKind::kCategorical);
  // Almost no values: present < 0.01·n − 3σ.
  EXPECT_EQ(column(decide(0, 1000 - 10 + 30.1, 0, s), "x").kind, ColumnKind::kIgnore);  // present −20.1
  EXPECT_EQ(column(decide(0, 1000 - 10 + 29.9, 0, s), "x").kind, ColumnKind::kNumeric);
  EXPECT_EQ(column(decide(0, 1000, 0, s), "x").reason, "numbers");  // present 0: kept (−30 < 0)
  EXPECT_EQ(column(decide(0, 1031, 0, s), "x").reason, "almost no values");
  // Nullable, numeric: missing + text > 3·√2·σ (two noisy counts).
  const double numericThreshold = 3 * std::sqrt(2.0) * s;
  EXPECT_FALSE(column(decide(0, numericThreshold, 0, s), "x").nullable);
  EXPECT_TRUE(column(decide(0, numericThreshold + 0.01, 0, s), "x").nullable);
  EXPECT_TRUE(column(decide(numericThreshold / 2 + 0.01, numericThreshold / 2, 0, s), "x").nullable);
  EXPECT_TRUE(column(decide(1, 1, 0, s), "x").textAsMissing);
  // Nullable, categorical: missing > 3·σ (one count; text is a category).
  EXPECT_FALSE(column(decide(900, 30, 0, s), "x").nullable);
  EXPECT_TRUE(column(decide(900, 30.01, 0, s), "x").nullable);
  // The label: binary-coded when its cells that are not 0, 1, −1 number fewer than ½·n.
  EXPECT_EQ(decide(0, 0, 499.9, s).classSource, data::ClassSource::kBinary01);
  EXPECT_EQ(decide(0, 0, 500, s).classSource, data::ClassSource::kDiscover);
  EXPECT_EQ(decide(0, 0, 0, s).classDecision, "private");
  EXPECT_EQ(decide(0, 0, 0, s).positive, "1");
  // Exact evidence (σ = 0) reads as before: any missing cell makes a column nullable.
  EXPECT_TRUE(column(decide(0, 0.5, 0, 0.0), "x").nullable);
}

// Replace-one moves every released count by at most 1, so the release's L2 sensitivity is
// √coordinates: checked on random neighbours (one row replaced by another of any cell classes).
TEST(SchemaPrivate, ReplacingOneRowMovesEachCountByAtMostOne) {
  std::mt19937_64 rng(30);
  const char* cells[] = {"1", "0", "-1", "2.5", "", "NA", "text", "inf", "1,5"};
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t columns = 1 + rng() % 5;
    const std::size_t rows = 2 + rng() % 30;
    std::vector<std::vector<std::string>> table(rows, std::vector<std::string>(columns + 1));
    for (auto& row : table) for (auto& c : row) c = cells[rng() % 9];
    auto csvOf = [&](const std::vector<std::vector<std::string>>& t) {
      std::string csv;
      for (std::size_t j = 0; j < columns; ++j) csv += "c" + std::to_string(j) + ";";
      csv += "label\n";
      for (const auto& row : t) {
        for (std::size_t j = 0; j <= columns; ++j) csv += row[j] + (j < columns ? ";" : "\n");
      }
      return csv;
    };
    auto neighbour = table;
    for (auto& c : neighbour[rng() % rows]) c = cells[rng() % 9];
    const data::SchemaEvidence a = data::exactEvidence(scanOf(csvOf(table)));
    const data::SchemaEvidence b = data::exactEvidence(scanOf(csvOf(neighbour)));
    double squared = 0;
    for (std::size_t j = 0; j <= columns; ++j) {
      for (double d : {a.columns[j].text - b.columns[j].text, a.columns[j].missing - b.columns[j].missing}) {
        EXPECT_LE(std::fabs(d), 1.0);
        if (j < columns) squared += d * d;
      }
      const double label = a.columns[j].notBinary - b.columns[j].notBinary;
      EXPECT_LE(std::fabs(label), 1.0);
      if (j == columns) squared += label * label;
    }
    EXPECT_LE(squared, double(2 * columns + 1));  // the coordinates of every question
  }
}

// The noise, statistically: every released coordinate is exact + N(0, σ²). 20 000 draws of each
// of 5 coordinates: the sample mean of each is within 4.89 of its sd σ/√N, the pooled variance
// within the χ² bounds (two-sided, α = 1e-6 over the 6 checks: false-failure rate ≤ 1e-6). A
// σ off by 10% is caught (the variance bound is ±1.5%).
TEST(SchemaPrivate, TheReleaseAddsGaussianNoiseOfThePlansSigma) {
  const data::CsvScan scan = scanOf("a,b,label\n1,x,0\n,2,1\nNA,y,1\n");
  const data::SchemaQuestions q = data::schemaQuestions(scan, {}, data::SchemaPurpose::kTrain);
  ASSERT_EQ(q.coordinates(), 5u);
  const data::SchemaEvidence exact = data::exactEvidence(scan);
  const double sigma = 7.5;
  random::Generator g = random::Generator::seeded(20261128);
  const std::size_t n = 20000;
  std::vector<double> sums(5, 0.0);
  double squares = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const data::SchemaEvidence e = data::releaseEvidence(exact, q, sigma, g);
    const double d[5] = {e.columns[0].text - exact.columns[0].text, e.columns[0].missing - exact.columns[0].missing,
                         e.columns[1].text - exact.columns[1].text, e.columns[1].missing - exact.columns[1].missing,
                         e.columns[2].notBinary - exact.columns[2].notBinary};
    for (int k = 0; k < 5; ++k) {
      sums[k] += d[k];
      squares += d[k] * d[k];
    }
    EXPECT_TRUE(std::isnan(e.columns[2].text));  // the label's kind is not a question
  }
  const double alpha = testing::kAlpha / 6.0;
  const double z = testing::twoSidedZ(alpha);
  for (int k = 0; k < 5; ++k) EXPECT_LE(std::fabs(sums[k] / double(n)), z * sigma / std::sqrt(double(n))) << k;
  const double df = 5.0 * double(n);
  const double chi = squares / (sigma * sigma);
  EXPECT_LE(chi, testing::chiSquareUpperCritical(df, alpha / 2));
  EXPECT_GE(chi, testing::chiSquareLowerCritical(df, alpha / 2));
  // Wrong calls are refused.
  EXPECT_THROW(data::releaseEvidence(exact, q, 0.0, g), Error);
}

run::Options budget(std::uint64_t seed = 7) {
  run::Options o;
  o.epsilon = 1.0;
  o.delta = 1e-5;
  o.seed = seed;
  return o;
}

std::unique_ptr<run::CsvRun> runCsv(const std::string& csv, const run::Options& o) {
  auto r = std::make_unique<run::CsvRun>(o);
  while (r->pass() != run::CsvRun::Pass::kDone) {
    r->feed(csv.data(), csv.size());
    r->endPass();
  }
  return r;
}

std::string table(std::size_t n) {
  std::string csv = "age,income,region,label\n";
  for (std::size_t i = 0; i < n; ++i) {
    csv += std::to_string(20 + i % 50) + "," + (i % 9 == 0 ? "NA" : std::to_string(1000 + i % 700)) + "," +
           (i % 3 ? "north" : "south") + "," + std::to_string(i % 2) + "\n";
  }
  return csv;
}

// The run's budget: μ² = μ_schema² + μ_discovery² + μ_ranges² + μ_train² exactly, σ_schema =
// √coordinates/μ_schema, the default share within its bounds, and nothing spent when the schema
// is declared.
TEST(SchemaPrivate, TheRunSplitsTheBudgetExactly) {
  const auto r = runCsv(table(4000), budget());
  const plan::PlanRequest& q = r->settings().plan;
  EXPECT_EQ(q.schemaCoordinates, 3u * 2u + 1u);
  EXPECT_GE(q.schemaShare, plan::kSchemaShareMin);
  EXPECT_LE(q.schemaShare, plan::kSchemaShareMax);
  EXPECT_TRUE(q.discoveryPossible);
  const plan::Plan p = plan::makePlan(q);
  EXPECT_NEAR(p.muSchema * p.muSchema + p.muDiscovery * p.muDiscovery + p.muRanges * p.muRanges +
                  p.muTrain * p.muTrain, p.mu * p.mu, 1e-12);
  EXPECT_NEAR(p.muSchema, std::sqrt(q.schemaShare) * p.mu, 1e-15);
  EXPECT_NEAR(p.schemaSigma, std::sqrt(7.0) / p.muSchema, 1e-9);
  EXPECT_LE(p.epsilonSpent, 1.0);
  // μ is read at (ε − ln(1/(1 − δ_τ)), 0.9δ) whether or not anything is discovered.
  EXPECT_NEAR(p.deltaGdp, 0.9e-5, 1e-18);
  // A declared schema: nothing read off the cells, nothing spent on it.
  run::Options o = budget();
  o.table.classes = std::vector<std::string>{"0", "1"};
  o.table.categories = data::CategorySource::kHash;
  for (const char* name : {"age", "income", "region"}) {
    data::ColumnChoice c;
    c.name = name;
    c.kind = std::string(name) == "region" ? ColumnKind::kCategorical : ColumnKind::kNumeric;
    c.nullable = std::string(name) == "income";
    o.table.columns.push_back(c);
  }
  const auto declared = runCsv(table(4000), o);
  EXPECT_EQ(declared->settings().plan.schemaCoordinates, 0u);
  EXPECT_EQ(declared->settings().plan.schemaShare, 0.0);
  EXPECT_FALSE(declared->settings().plan.discoveryPossible);
  EXPECT_EQ(plan::makePlan(declared->settings().plan).deltaGdp, 1e-5);
  // schemaShare asked for with nothing to decide, or outside (0, 1): refused by name.
  o.schemaShare = 0.02;
  testing::expectBadParameter([&] { runCsv(table(100), o); }, "schemaShare");
  run::Options bad = budget();
  bad.schemaShare = 1.5;
  testing::expectBadParameter([&] { run::CsvRun run(bad); }, "schemaShare");
  run::Options chosen = budget();
  chosen.schemaShare = 0.2;
  EXPECT_DOUBLE_EQ(runCsv(table(400), chosen)->settings().plan.schemaShare, 0.2);
}

// The default share: enough for the kind decision at 5 noise sds, within [1%, 5%] of μ².
TEST(SchemaPrivate, TheDefaultShareRule) {
  plan::PlanRequest r;
  r.epsilon = 1;
  r.delta = 1e-5;
  r.d = 1;
  r.selector = plan::Selector::kAuto;
  r.schemaCoordinates = 21;
  r.n = 1'000'000;
  EXPECT_EQ(plan::defaultSchemaShare(r), plan::kSchemaShareMin);
  r.n = 100;
  EXPECT_EQ(plan::defaultSchemaShare(r), plan::kSchemaShareMax);
  r.n = 1000;
  const double mu = plan::makeBudget([&] { plan::PlanRequest b = r; b.schemaCoordinates = 0; return b; }()).mu;
  const double need = 2 * plan::kSchemaKindZ * std::sqrt(1.25) * std::sqrt(21.0) / (1000 * mu);
  ASSERT_GT(need * need, plan::kSchemaShareMin);
  ASSERT_LT(need * need, plan::kSchemaShareMax);
  EXPECT_NEAR(plan::defaultSchemaShare(r), need * need, 1e-12);
  r.schemaCoordinates = 0;
  EXPECT_EQ(plan::defaultSchemaShare(r), 0.0);
}

// PrivTune (Rényi-accounted): the schema takes (s·ε, s·δ) as its own exact GDP guarantee and
// PrivTune the rest; the plan's ε spent adds them.
TEST(SchemaPrivate, PrivTuneComposesTheSchemaByBasicComposition) {
  plan::PlanRequest r;
  r.epsilon = 2;
  r.delta = 1e-5;
  r.n = 5000;
  r.d = 10;
  r.selector = plan::Selector::kPrivTune;
  r.jlFailure = 1e-6;
  r.schemaCoordinates = 9;
  r.schemaShare = 0.05;
  const plan::Plan p = plan::makePlan(r);
  plan::PlanRequest alone = r;
  alone.schemaCoordinates = 0;
  alone.schemaShare = 0;
  alone.epsilon = 0.95 * 2;
  alone.delta = 0.95 * 1e-5;
  const plan::Plan q = plan::makePlan(alone);
  EXPECT_DOUBLE_EQ(p.mu, q.mu);
  EXPECT_NEAR(p.epsilonSpent, q.epsilonSpent + 0.05 * 2, 1e-12);
  EXPECT_LE(p.epsilonSpent, 2.0);
  EXPECT_GT(p.muSchema, 0.0);
  EXPECT_NEAR(p.schemaSigma, 3.0 / p.muSchema, 1e-12);
}

}  // namespace
}  // namespace dpmargin


namespace dpmargin {
namespace {

// The kind rule at the size of the app's sample (569 rows, 30 numeric columns, a text label;
// ε = 1): a numeric column is hashed as text with probability Φ̄(½n/(√1.25·σ) + 1) — the
// chance that any of the 30 columns is misread must stay under 1% (it was about half before
// the rule leaned to numeric and the share's cap went to 10%), while a column of text is
// still read as text in at least 90% of runs. Exact probabilities from the run's own plan.
TEST(SchemaPrivate, TheSampleSizedTableKeepsItsNumericColumns) {
  std::string csv;
  for (int j = 0; j < 30; ++j) csv += "x" + std::to_string(j) + ",";
  csv += "diagnosis\n";
  std::mt19937 gen(3);
  std::normal_distribution<double> z;
  for (int i = 0; i < 569; ++i) {
    for (int j = 0; j < 30; ++j) csv += std::to_string(z(gen)) + ",";
    csv += (i % 3 ? "benign\n" : "malignant\n");
  }
  run::Options o = budget();
  o.epsilon = 1;
  o.delta = 1e-5;
  o.table.label = "diagnosis";
  run::CsvRun r(o);
  r.feed(csv.data(), csv.size());
  r.endPass();  // the scan: the schema release is planned and drawn
  const plan::Plan p = r.budget();
  ASSERT_GT(p.schemaSigma, 0.0);
  const double sd = std::sqrt(1.25) * p.schemaSigma;
  const double gap = 0.5 * 569 / sd;  // the boundary's distance from either kind, in sds
  const auto tail = [](double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); };
  const double numericMisread = tail(gap + data::kTextSds);
  const double textKept = 1 - tail(gap - data::kTextSds);
  std::printf("sample-sized table: sigma = %.1f, share %.3f; P(numeric read as text) = %.2e a column, "
              "P(text read as text) = %.3f\n", p.schemaSigma, p.request.schemaShare, numericMisread, textKept);
  EXPECT_LT(1 - std::pow(1 - numericMisread, 30), 0.01);
  EXPECT_GT(textKept, 0.9);
}

}  // namespace
}  // namespace dpmargin

namespace dpmargin {
namespace {

// PrivTune discovers nothing: an undeclared label is binary-coded by the public rule instead of
// being asked of the schema release, whose noisy answer "discover" would refuse the run (1 run
// in 12 on a 400-row 0/1 table did, with BAD_PARAMETER discoveryShare).
TEST(SchemaPrivate, PrivTuneNeverAsksWhetherToDiscoverTheClasses) {
  std::string csv = "a,b,y\n";
  for (int i = 0; i < 400; ++i) csv += std::to_string(i % 7) + "," + std::to_string(i % 5) + "," + std::to_string(i % 2) + "\n";
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    run::Options o = budget(seed);
    o.table.label = "y";
    o.selector = plan::Selector::kPrivTune;
    const auto r = runCsv(csv, o);
    EXPECT_EQ(r->schema().classSource, data::ClassSource::kBinary01);
    EXPECT_NE(r->schema().classDecision, "private");
  }
}

}  // namespace
}  // namespace dpmargin
