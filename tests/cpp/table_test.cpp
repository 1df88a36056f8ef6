// Real tables in (docs/reference/DATA_PIPELINE.md): the schema's defaults, the encoding, and a CSV training run
// through the passes (run::CsvRun) — text columns, missing cells, text and numeric labels.
#include <random>
#include <cstring>
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "dpmargin/data/encoding.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/data/table.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "expect_error.hpp"

namespace dpmargin {
namespace {

using data::ColumnKind;
using data::TableOptions;

data::Schema schemaOf(const std::string& csv, const TableOptions& o = {},
                      data::SchemaPurpose purpose = data::SchemaPurpose::kTrain) {
  const data::CsvScan scan = data::scanCsv(csv.data(), csv.size(), data::csvOptionsFor(o));
  return data::resolveSchema(scan, o, purpose);
}

const data::ColumnSchema& column(const data::Schema& s, const std::string& name) {
  for (const auto& c : s.columns) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no column " + name);
}

TEST(Schema, KindsFromCellsAndHeaderNames) {
  const std::string csv =
      ",customer_id,CustomerID,age,plan,notes,empty,income,label\n"
      "1,a1,7,30,basic,NA,,100,0\n"
      "2,a2,8,NA,gold,hello,,oops,1\n"
      "3,a3,9,41,basic,,,120,1\n";
  TableOptions o;
  const data::Schema s = schemaOf(csv, o);
  EXPECT_EQ(column(s, "").kind, ColumnKind::kIgnore);            // R's row names
  EXPECT_EQ(column(s, "customer_id").kind, ColumnKind::kIgnore);
  EXPECT_EQ(column(s, "CustomerID").kind, ColumnKind::kIgnore);
  EXPECT_EQ(column(s, "age").kind, ColumnKind::kNumeric);
  EXPECT_TRUE(column(s, "age").nullable);                          // "NA" is missing
  EXPECT_EQ(column(s, "age").missing, data::MissingStrategy::kIndicator);
  EXPECT_EQ(column(s, "plan").kind, ColumnKind::kCategorical);
  EXPECT_FALSE(column(s, "plan").nullable);
  EXPECT_EQ(column(s, "notes").kind, ColumnKind::kCategorical);
  EXPECT_TRUE(column(s, "notes").nullable);
  EXPECT_EQ(column(s, "empty").kind, ColumnKind::kIgnore);
  // One text cell in three is at most half of the present cells: numeric, the text read as
  // missing (so the column is nullable).
  EXPECT_EQ(column(s, "income").kind, ColumnKind::kNumeric);
  EXPECT_TRUE(column(s, "income").textAsMissing);
  EXPECT_TRUE(column(s, "income").nullable);
  // Exact counts (a local read): every decision read off the cells says so.
  EXPECT_EQ(column(s, "age").decision, "local");
  EXPECT_EQ(column(s, "customer_id").decision, "public");
  EXPECT_EQ(s.classDecision, "local");
  EXPECT_EQ(column(s, "label").kind, ColumnKind::kLabel);
  EXPECT_EQ(s.labelReason, "header name");
  EXPECT_EQ(s.classSource, data::ClassSource::kBinary01);
  EXPECT_EQ(s.featureOrder.size(), 4u);
}

TEST(Schema, AFewTextCellsInANumericColumnAreMissing) {
  std::string csv = "x,y\n";
  for (int i = 0; i < 40; ++i) csv += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
  csv += "unknown,1\n";
  TableOptions o;
  o.label = "y";
  const data::Schema s = schemaOf(csv, o);
  EXPECT_EQ(column(s, "x").kind, ColumnKind::kNumeric);
  EXPECT_TRUE(column(s, "x").textAsMissing);
  EXPECT_TRUE(column(s, "x").nullable);
}

TEST(Schema, TheLabelComesFromTheHeaderNameOrTheUser) {
  // No header name says which column is the label: the user must.
  try {
    schemaOf("churn,plan\nyes,a\nno,b\n");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLabelNotFound);
    EXPECT_NE(std::string(e.what()).find("name the label column"), std::string::npos) << e.what();
  }
  // Two columns named like a label: ambiguous, also asked — and the message names both
  // instead of saying that no header name reads like one.
  try {
    schemaOf("x,target,Class\n1,1,0\n2,0,1\n");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLabelNotFound);
    const std::string what = e.what();
    EXPECT_NE(what.find("2 header names read like a label (\"target\", \"Class\")"), std::string::npos) << what;
    EXPECT_EQ(what.find("no header name"), std::string::npos) << what;
  }
  EXPECT_EQ(data::labelLikeColumns({"x", "target", "Class"}), (std::vector<std::size_t>{1, 2}));
  TableOptions o;
  o.label = "churn";
  const data::Schema s = schemaOf("churn,plan\nyes,a\nno,b\n", o);
  EXPECT_EQ(s.classSource, data::ClassSource::kDiscover);  // a text label: discovered
  EXPECT_EQ(s.labelReason, "named");
  // A summary proposes no label rather than failing.
  EXPECT_EQ(schemaOf("churn,plan\nyes,a\nno,b\n", {}, data::SchemaPurpose::kSummary).label, -1);
  EXPECT_EQ(data::proposeLabel({"a", "Target", "b"}), 1);
  EXPECT_EQ(data::proposeLabel({"a", "Outcome_"}), 1);  // case and separators are ignored
  EXPECT_EQ(data::proposeLabel({"a", "labelled"}), -1);
  EXPECT_TRUE(data::identifierName("Unnamed: 0"));
  EXPECT_TRUE(data::identifierName("row.names"));
  EXPECT_FALSE(data::identifierName("paid"));
  EXPECT_FALSE(data::identifierName("valid"));
  EXPECT_FALSE(data::identifierName("Identity"));
}

TEST(Schema, ClassesDeclaredOrPositive) {
  TableOptions o;
  o.label = "y";
  o.classes = std::vector<std::string>{"no", "yes"};
  data::Schema s = schemaOf("y,x\nyes,1\nno,2\n", o);
  EXPECT_EQ(s.classSource, data::ClassSource::kDeclared);
  EXPECT_EQ(s.positive, "yes");
  EXPECT_EQ(s.positiveRule, "second-declared");
  o.positive = "no";
  s = schemaOf("y,x\nyes,1\nno,2\n", o);
  EXPECT_EQ(s.positive, "no");
  EXPECT_EQ(s.positiveRule, "named");
  o.classes.reset();
  o.positive = "yes";
  s = schemaOf("y,x\nyes,1\nno,2\n", o);
  EXPECT_EQ(s.classSource, data::ClassSource::kPositive);
  EXPECT_EQ(s.positiveRule, "named");
  // A 0/1 label: 1. Three declared classes: no positive class, no rule.
  o = TableOptions{};
  o.label = "y";
  s = schemaOf("y,x\n1,1\n0,2\n", o);
  EXPECT_EQ(s.positive, "1");
  EXPECT_EQ(s.positiveRule, "binary01");
  o.classes = std::vector<std::string>{"a", "b", "c"};
  s = schemaOf("y,x\na,1\nb,2\nc,3\n", o);
  EXPECT_EQ(s.positiveRule, "");
  // The rule is in the description (the CLI's --json, the model file); a description read back
  // as a schema declares the classes it lists, and the rule says so.
  o = TableOptions{};
  o.label = "y";
  const Node described = data::describeSchema(schemaOf("y,x\n1,1\n0,2\n", o));
  EXPECT_EQ(described.field("positiveRule")->text, "binary01");
  TableOptions back;
  data::mergeSchemaNode(back, described);
  s = schemaOf("y,x\n1,1\n0,2\n", back);
  EXPECT_EQ(s.positive, "1");
  EXPECT_EQ(s.positiveRule, "second-declared");
}

TEST(Schema, RejectsBadOptionsByName) {
  const std::string csv = "a,b,label\n1,x,0\n2,y,1\n";
  auto with = [&](auto set) {
    TableOptions o;
    set(o);
    return [o, csv] { schemaOf(csv, o); };
  };
  testing::expectBadParameter(with([](TableOptions& o) { o.label = ""; }), "label");
  testing::expectBadParameter(with([](TableOptions& o) { o.classes = std::vector<std::string>{"a"}; }), "classes");
  testing::expectBadParameter(with([](TableOptions& o) { o.classes = std::vector<std::string>{"a", "a"}; }), "classes");
  testing::expectBadParameter(with([](TableOptions& o) {
    o.classes = std::vector<std::string>{"a", "b"};
    o.positive = "c";
  }), "positive");
  testing::expectBadParameter(with([](TableOptions& o) { o.features = std::vector<std::string>{}; }), "features");
  testing::expectBadParameter(with([](TableOptions& o) { o.features = std::vector<std::string>{"zz"}; }), "features");
  testing::expectBadParameter(with([](TableOptions& o) { o.ignore = {"zz"}; }), "ignore");
  testing::expectBadParameter(with([](TableOptions& o) { o.ignore = {"a", "a"}; }), "ignore");
  testing::expectBadParameter(with([](TableOptions& o) { o.missing = data::MissingStrategy::kLevel; }), "missing");
  testing::expectBadParameter(with([](TableOptions& o) { o.fill = NAN; }), "fill");
  testing::expectBadParameter(with([](TableOptions& o) { o.categories = data::CategorySource::kDeclared; }), "categories");
  testing::expectBadParameter(with([](TableOptions& o) { o.maxLevels = 0; }), "maxLevels");
  testing::expectBadParameter(with([](TableOptions& o) { o.hashBuckets = 1; }), "hashBuckets");
  testing::expectBadParameter(with([](TableOptions& o) { o.hashBuckets = 5000; }), "hashBuckets");
  testing::expectBadParameter(with([](TableOptions& o) {
    o.delimiter = ',';
    o.decimal = ',';
  }), "decimal");
  testing::expectBadParameter(with([](TableOptions& o) { o.missingTokens = std::vector<std::string>{"NA", "NA"}; }), "missingTokens");
  testing::expectBadParameter(with([](TableOptions& o) {
    data::ColumnChoice c;
    c.name = "a";
    c.kind = ColumnKind::kNumeric;
    c.missing = data::MissingStrategy::kLevel;
    o.columns.push_back(c);
  }), "columns.a.missing");
  testing::expectBadParameter(with([](TableOptions& o) {
    data::ColumnChoice c;
    c.name = "a";
    c.range = std::array<double, 2>{2, 1};
    o.columns.push_back(c);
  }), "columns.a.range");
  testing::expectBadParameter(with([](TableOptions& o) {
    data::ColumnChoice c;
    c.name = "nope";
    o.columns.push_back(c);
  }), "columns");
}

TEST(Schema, RoundTripsThroughItsDescription) {
  const std::string csv = "id,age,plan,label\n1,30,basic,yes\n2,NA,gold,no\n3,41,,yes\n";
  TableOptions o;
  o.classes = std::vector<std::string>{"no", "yes"};
  data::ColumnChoice c;
  c.name = "plan";
  c.levels = std::vector<std::string>{"basic", "gold"};
  o.columns.push_back(c);
  const data::Schema first = schemaOf(csv, o);
  TableOptions again;
  data::mergeSchemaNode(again, data::describeSchema(first));
  const data::Schema second = schemaOf(csv, again);
  ASSERT_EQ(first.columns.size(), second.columns.size());
  for (std::size_t j = 0; j < first.columns.size(); ++j) {
    EXPECT_EQ(first.columns[j].kind, second.columns[j].kind) << j;
    EXPECT_EQ(first.columns[j].missing, second.columns[j].missing) << j;
    EXPECT_EQ(first.columns[j].nullable, second.columns[j].nullable) << j;
    EXPECT_EQ(first.columns[j].levels, second.columns[j].levels) << j;
  }
  EXPECT_EQ(second.classes, first.classes);
  EXPECT_EQ(second.positive, first.positive);
  // A conflicting option is refused, naming it.
  TableOptions conflict;
  conflict.label = "age";
  testing::expectBadParameter([&] { data::mergeSchemaNode(conflict, data::describeSchema(first)); }, "label");
  // Unknown fields are named.
  Node bad = data::describeSchema(first);
  bad.fields.emplace_back("colums", Node::ofList({}));
  TableOptions fresh;
  testing::expectBadParameter([&] { data::mergeSchemaNode(fresh, bad); }, "schema.colums");
}

TEST(Encoding, OneHotIndicatorsAndHashedBuckets) {
  const std::string csv = "age,plan,city,label\n30,basic,Paris,0\nNA,gold,Rome,1\n41,,Oslo,1\n";
  TableOptions o;
  data::ColumnChoice plan;
  plan.name = "plan";
  plan.levels = std::vector<std::string>{"basic", "gold", "pro"};
  data::ColumnChoice city;
  city.name = "city";
  city.categories = data::CategorySource::kHash;
  o.columns = {plan, city};
  o.hashBuckets = 4;
  const data::CsvScan scan = data::scanCsv(csv.data(), csv.size(), data::csvOptionsFor(o));
  data::Schema s = data::resolveSchema(scan, o, data::SchemaPurpose::kTrain);
  const data::Encoding e = data::makeEncoding(s);
  EXPECT_EQ(e.names(), (std::vector<std::string>{"age", "age: missing", "plan: basic", "plan: gold", "plan: pro", "plan: other",
                                                 "plan: missing", "city: #0", "city: #1", "city: #2", "city: #3"}));
  EXPECT_EQ(e.width, 11u);
  const std::vector<bool> unit = e.publicUnitColumns();
  EXPECT_FALSE(unit[0]);
  for (std::size_t j = 1; j < 11; ++j) EXPECT_TRUE(unit[j]) << j;
  data::TableReader reader(data::csvOptionsFor(o));
  reader.feed(csv.data(), csv.size());
  reader.finishScan();
  reader.beginFill(s, e, {"0", "1"}, true, 1e9);
  reader.feed(csv.data(), csv.size());
  reader.finishFill();
  auto d = reader.takeDataset();
  const float* x = d->rowMajor();
  const std::size_t st = d->stride();
  EXPECT_EQ(x[0], 30.0f);
  EXPECT_EQ(x[1], 0.0f);
  EXPECT_EQ(x[st + 0], 0.0f);  // missing → fill 0 …
  EXPECT_EQ(x[st + 1], 1.0f);  // … and the indicator
  EXPECT_EQ(x[2], 1.0f);       // basic
  EXPECT_EQ(x[st + 3], 1.0f);  // gold
  EXPECT_EQ(x[2 * st + 6], 1.0f);  // missing level
  float hashed = 0;
  for (std::size_t b = 0; b < 4; ++b) hashed += x[7 + b];
  EXPECT_EQ(hashed, 1.0f);
  EXPECT_EQ(x[7 + data::categoryBucket("Paris", 4)], 1.0f);
  EXPECT_EQ(reader.labelCodes(), (std::vector<std::int32_t>{0, 1, 1}));
  // The encoding round-trips through the model file's description.
  const data::Encoding back = data::parseEncoding(data::describeEncoding(e), "encoding");
  EXPECT_EQ(back.names(), e.names());
}

// Two levels (issue 29 item 7): one 0/1 column for the second level — the first, any other value
// and a missing cell 0 (a missing level keeps its own column) — never hashed into buckets.
TEST(Encoding, TwoLevelsAreOneColumn) {
  const std::string csv = "smoker,label\nyes,0\nno,1\nmaybe,1\n,0\n";
  TableOptions o;
  data::ColumnChoice smoker;
  smoker.name = "smoker";
  smoker.levels = std::vector<std::string>{"no", "yes"};
  smoker.nullable = true;
  o.columns = {smoker};
  const data::CsvScan scan = data::scanCsv(csv.data(), csv.size(), data::csvOptionsFor(o));
  const data::Schema s = data::resolveSchema(scan, o, data::SchemaPurpose::kTrain);
  const data::Encoding e = data::makeEncoding(s);
  EXPECT_EQ(e.names(), (std::vector<std::string>{"smoker: yes", "smoker: missing"}));
  ASSERT_EQ(e.width, 2u);
  EXPECT_TRUE(e.blocks[0].binary);
  data::TableReader reader(data::csvOptionsFor(o));
  reader.feed(csv.data(), csv.size());
  reader.finishScan();
  reader.beginFill(s, e, {"0", "1"}, true, 1e9);
  reader.feed(csv.data(), csv.size());
  reader.finishFill();
  auto d = reader.takeDataset();
  const float* x = d->rowMajor();
  const std::size_t st = d->stride();
  EXPECT_EQ(std::vector<float>({x[0], x[st], x[2 * st], x[3 * st]}), (std::vector<float>{1, 0, 0, 0}));
  EXPECT_EQ(std::vector<float>({x[1], x[st + 1], x[2 * st + 1], x[3 * st + 1]}), (std::vector<float>{0, 0, 0, 1}));
  // The model file says so and reads back; an older file (no "binary") keeps one column a level.
  Node described = data::describeEncoding(e);
  const data::Encoding back = data::parseEncoding(described, "encoding");
  EXPECT_TRUE(back.blocks[0].binary);
  EXPECT_EQ(back.names(), e.names());
  auto& fields = described.fields[0].second.list[0].fields;
  fields.erase(std::remove_if(fields.begin(), fields.end(), [](const auto& f) { return f.first == "binary"; }), fields.end());
  described.fields[1].second = Node::ofNumber(4);  // width of the old layout: 2 levels + other + missing
  const data::Encoding old = data::parseEncoding(described, "encoding");
  EXPECT_FALSE(old.blocks[0].binary);
  EXPECT_EQ(old.names(), (std::vector<std::string>{"smoker: no", "smoker: yes", "smoker: other", "smoker: missing"}));
}

TEST(Encoding, BadModelFieldsAreNamed) {
  Node n = Node::ofObject({{"blocks", Node::ofList({Node::ofObject({{"column", Node::ofText("a")},
                                                                    {"kind", Node::ofText("numeric")},
                                                                    {"missing", Node::ofText("level")},
                                                                    {"nullable", Node::ofBoolean(false)},
                                                                    {"fill", Node::ofNumber(0)},
                                                                    {"indicator", Node::ofBoolean(false)}})})}});
  try {
    data::parseEncoding(n, "encoding");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadModel);
    EXPECT_EQ(e.parameter(), "encoding.blocks[0].missing");
  }
  try {
    data::parseEncoding(Node::ofObject({{"blocks", Node::ofText("x")}}), "encoding");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadModel);
    EXPECT_EQ(e.parameter(), "encoding.blocks");
  }
}

// A CSV training run through the passes.
struct Ran {
  std::unique_ptr<run::CsvRun> run;
  int passes = 0;
};

Ran runCsv(const std::string& csv, run::Options o, std::size_t chunk = 7, bool sized = false,
           std::optional<std::vector<std::uint64_t>> rows = std::nullopt,
           run::CsvRun::Mode mode = run::CsvRun::Mode::kPrivate) {
  Ran r;
  r.run = std::make_unique<run::CsvRun>(std::move(o), std::move(rows), mode);
  if (sized) r.run->expectBytes(csv.size());
  while (r.run->pass() != run::CsvRun::Pass::kDone) {
    for (std::size_t i = 0; i < csv.size(); i += chunk) r.run->feed(csv.data() + i, std::min(chunk, csv.size() - i));
    r.run->endPass();
    ++r.passes;
  }
  return r;
}

run::Options budget(std::uint64_t seed = 5) {
  run::Options o;
  o.epsilon = 1.0;
  o.delta = 1e-5;
  o.seed = seed;
  return o;
}

std::string churnTable(std::size_t n) {
  std::string csv = "tenure,plan,region,monthly,churn\n";
  const char* plans[] = {"basic", "plus", "pro"};
  const char* regions[] = {"north", "south"};
  for (std::size_t i = 0; i < n; ++i) {
    const bool churn = (i % 3) == 0;
    csv += (i % 17 == 0 ? std::string("NA") : std::to_string(int(i % 60))) + "," + plans[churn ? 0 : 1 + i % 2] + "," +
           regions[i % 2] + "," + std::to_string(20 + int(i % 50)) + "," + (churn ? "yes" : "no") + "\n";
  }
  return csv;
}

// The numbers a describe*() visitor writes, by name.
struct PlanFields {
  std::map<std::string, double> values;
  void number(const char* k, double v) { values[k] = v; }
  void count(const char*, std::uint64_t) {}
  void boolean(const char*, bool) {}
  void text(const char*, const char*) {}
  void numbers(const char*, const std::vector<double>&) {}
  template <class F>
  void list(const char*, std::size_t, F&&) {}
  template <class F>
  void object(const char*, F&&) {}
};

// Declared classes cost nothing: no discovery column, no μ_discovery; undeclared, the label's
// classes get their own histogram, the larger share, and the plan says which class sizes it
// finds (classThreshold, classFoundAt).
TEST(CsvRun, DeclaredClassesSpendNothingOnDiscovery) {
  std::string csv = "a,b,species\n";
  const char* names[] = {"Adelie", "Chinstrap", "Gentoo"};
  for (int i = 0; i < 600; ++i) csv += std::to_string(i % 7) + "," + std::to_string(i % 5) + "," + names[i % 3] + "\n";
  run::Options o = budget();
  o.table.label = "species";
  o.table.classes = std::vector<std::string>{"Adelie", "Chinstrap", "Gentoo"};
  const Ran declared = runCsv(csv, o);
  EXPECT_EQ(declared.passes, 2);  // scan, fill: no counting pass
  EXPECT_EQ(declared.run->settings().plan.discoveryColumns, 0u);
  EXPECT_EQ(declared.run->settings().plan.discoveryShare, 0.0);
  EXPECT_FALSE(declared.run->settings().plan.discoveryLabel);
  EXPECT_EQ(plan::makePlan(declared.run->settings().plan).muDiscovery, 0.0);
  run::Options u = budget();
  u.table.label = "species";
  u.epsilon = 8.0;
  const Ran discovered = runCsv(csv, u);
  EXPECT_EQ(discovered.passes, 3);
  const plan::PlanRequest& r = discovered.run->settings().plan;
  EXPECT_EQ(r.discoveryColumns, 1u);
  EXPECT_TRUE(r.discoveryLabel);
  EXPECT_DOUBLE_EQ(r.discoveryShare, run::kClassDiscoveryShare);
  EXPECT_EQ(discovered.run->schema().classes, (std::vector<std::string>{"Adelie", "Chinstrap", "Gentoo"}));
  PlanFields f;
  const plan::Plan p = plan::makePlan(r);
  plan::describePlan(p, f);
  ASSERT_TRUE(f.values.count("classThreshold"));
  EXPECT_EQ(f.values["classThreshold"], p.labelDiscovery.threshold);
  EXPECT_EQ(f.values["classFoundAt"], std::ceil(p.labelDiscovery.threshold + 2 * p.labelDiscovery.sigma));
  EXPECT_LE(f.values["classFoundAt"], 20.0);  // ε = 8, n = 600: a class of 20 rows is found
}

TEST(CsvRun, TextColumnsMissingCellsAndATextLabel) {
  run::Options o = budget();
  o.table.label = "churn";
  const Ran r = runCsv(churnTable(6000), o);
  EXPECT_EQ(r.passes, 3);  // scan, count (discovery), fill
  const data::Schema& s = r.run->schema();
  EXPECT_EQ(s.classes, (std::vector<std::string>{"no", "yes"}));
  EXPECT_EQ(s.positive, "yes");
  EXPECT_EQ(s.positiveRule, "second-discovered");  // the second of the two, in byte order
  // n = 6000: the threshold is far below 300 rows, so "auto" discovers the levels.
  EXPECT_EQ(column(s, "plan").categories, data::CategorySource::kDiscover);
  EXPECT_EQ(column(s, "plan").levels, (std::vector<std::string>{"basic", "plus", "pro"}));
  EXPECT_EQ(column(s, "region").levels, (std::vector<std::string>{"north", "south"}));
  const auto& settings = r.run->settings();
  EXPECT_EQ(settings.plan.discoveryColumns, 3u);  // plan, region, the label
  // A discovered label: its own histogram, and the larger share (docs/reference/MULTICLASS.md).
  EXPECT_DOUBLE_EQ(settings.plan.discoveryShare, run::kClassDiscoveryShare);
  EXPECT_TRUE(settings.plan.discoveryLabel);
  // tenure's 6% missing cells (353) are below the private nullable threshold at this n
  // (3·√2·σ_schema ≈ 480 cells): filled with 0, no indicator column.
  EXPECT_GT(settings.plan.schemaCoordinates, 0u);
  EXPECT_FALSE(column(s, "tenure").nullable);
  EXPECT_EQ(column(s, "tenure").decision, "private");
  EXPECT_EQ(r.run->encoding().names(),
            (std::vector<std::string>{"tenure", "plan: basic", "plan: plus", "plan: pro", "plan: other",
                                      "region: south", "monthly"}));  // two levels: one column
  // Only the two numeric columns get private ranges; the rest are public [0, 1].
  std::size_t estimated = 0;
  for (const auto& k : settings.knownRanges) estimated += !k;
  EXPECT_EQ(estimated, 2u);
  // Labels: "yes" positive.
  run::CsvRun& run = *r.run;
  EXPECT_EQ(run.dataset().labels()[0], 1);
  EXPECT_EQ(run.dataset().labels()[1], -1);
  // And it trains, well above the majority rate (2/3).
  learn::Trainer trainer(run.dataset(), settings, run.takeGenerator());
  while (!trainer.advance(1000)) {
  }
  const auto& result = trainer.result();
  const std::uint64_t errors = learn::countErrors(trainer.data(), result.weights);
  EXPECT_LT(double(errors) / 6000.0, 0.1);
}

bool sameNode(const Node& a, const Node& b) {
  if (a.kind != b.kind || a.boolean != b.boolean || a.number != b.number || a.text != b.text ||
      a.list.size() != b.list.size() || a.fields.size() != b.fields.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.list.size(); ++i) {
    if (!sameNode(a.list[i], b.list[i])) return false;
  }
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    if (a.fields[i].first != b.fields[i].first || !sameNode(a.fields[i].second, b.fields[i].second)) return false;
  }
  return true;
}

// The label column's summary from a training run's own scan (the CLI's label warnings, without
// scanning the file again): summarizeScan's entry for that column, whatever maxValues.
TEST(CsvRun, SummarizeColumnIsSummarizeScansEntry) {
  run::Options o = budget();
  o.table.label = "churn";
  const Ran r = runCsv(churnTable(600), o);
  const data::CsvScan& scan = r.run->scan();
  const std::int64_t label = r.run->schema().label;
  ASSERT_EQ(label, 4);
  for (std::size_t maxValues : {0u, 1u, 50u}) {
    const Node all = run::summarizeScan(scan, o, maxValues);
    const Node* columns = all.field("columns");
    ASSERT_NE(columns, nullptr);
    ASSERT_EQ(columns->list.size(), scan.columns.size());
    for (std::size_t j = 0; j < scan.columns.size(); ++j) {
      EXPECT_TRUE(sameNode(run::summarizeColumn(scan, j, maxValues), columns->list[j])) << "column " << j;
    }
  }
  const Node churn = run::summarizeColumn(scan, std::size_t(label), 0);
  EXPECT_EQ(churn.field("name")->text, "churn");
  EXPECT_EQ(churn.field("distinct")->number, 2.0);
  EXPECT_TRUE(churn.field("values")->list.empty());
  try {
    run::summarizeColumn(scan, scan.columns.size(), 0);
    ADD_FAILURE() << "no error for a column beyond the last";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInternal);
  }
}

TEST(CsvRun, SmallTablesHashTheirCategoriesAndNumericLabelsAreBinary) {
  std::string csv = "x,colour,label\n";
  for (int i = 0; i < 200; ++i) csv += std::to_string(i % 7) + "," + (i % 2 ? "red" : "blue") + "," + std::to_string(i % 2) + "\n";
  const Ran r = runCsv(csv, budget());
  EXPECT_EQ(r.passes, 2);  // nothing discovered: scan and fill
  EXPECT_EQ(column(r.run->schema(), "colour").categories, data::CategorySource::kHash);
  EXPECT_EQ(r.run->settings().plan.discoveryColumns, 0u);
  EXPECT_EQ(r.run->schema().classSource, data::ClassSource::kBinary01);
  EXPECT_EQ(r.run->encoding().width, 1 + data::kDefaultHashBuckets);
}

// A binary-coded label is 1 against the rest (a public rule of the cell: no value refuses the
// run): 1, +1, 1.0 positive; 0, 2, 0.0 negative. (A missing label is refused: the caller's
// data is incomplete, said before anything is drawn.)
TEST(CsvRun, BinaryCodedLabelsAreOneAgainstTheRest) {
  run::Options o = budget();
  o.table.discoverClasses = false;  // declared binary-coded
  const Ran r = runCsv("x,label\n1,1\n2,2\n3,+1\n4,0\n5,1.0\n6,0.0\n", o);
  const std::int8_t* y = r.run->dataset().labels();
  EXPECT_EQ(std::vector<int>(y, y + 6), (std::vector<int>{1, -1, 1, -1, 1, -1}));
  EXPECT_EQ(r.run->schema().classSource, data::ClassSource::kBinary01);
  EXPECT_EQ(r.run->schema().classDecision, "declared");
}

TEST(CsvRun, ClassDiscoveryThatFindsOneClassSaysWhatToDo) {
  std::string csv = "x,label\n";
  for (int i = 0; i < 40; ++i) csv += std::to_string(i) + "," + (i < 38 ? "a" : "b") + "\n";
  try {
    runCsv(csv, budget());
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOneClass);
    EXPECT_NE(std::string(e.what()).find("declare the classes"), std::string::npos) << e.what();
  }
}

TEST(CsvRun, CountsTheRowsOutsideTheDiscoveredClasses) {
  // "c" (10 of 2000 rows) is far below the discovery threshold (~86 rows at ε = 1): its rows are
  // negatives, and the run says how many (a local count for the caller's warning).
  std::string csv = "x,label\n";
  for (int i = 0; i < 2000; ++i) csv += std::to_string(i % 7) + "," + (i < 10 ? "c" : i % 2 ? "a" : "b") + "\n";
  const Ran r = runCsv(csv, budget(), 4096);
  EXPECT_EQ(r.run->schema().classes, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(r.run->labelOutsideClasses(), 10u);
  std::size_t negatives = 0;
  for (std::size_t i = 0; i < 10; ++i) negatives += r.run->dataset().labels()[i] == -1 ? 1 : 0;
  EXPECT_EQ(negatives, 10u);
  // Declared classes refuse such a row; a positive class makes every other value the rest: 0.
  run::Options positive = budget();
  positive.table.positive = "a";
  EXPECT_EQ(runCsv(csv, positive, 4096).run->labelOutsideClasses(), 0u);
  run::Options declared = budget();
  declared.table.classes = std::vector<std::string>{"a", "b", "c"};
  EXPECT_EQ(runCsv(csv, declared, 4096).run->labelOutsideClasses(), 0u);
}

TEST(CsvRun, OneClassNamesThePositiveClassAndTheColumn) {
  run::Options o = budget();
  o.table.label = "species";
  o.table.positive = "bird";
  try {
    runCsv("a,b,species\n1,2,cat\n3,4,dog\n5,6,cat\n", o);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOneClass);
    EXPECT_NE(std::string(e.what()).find("all 3 rows are negative for positive class \"bird\" of label column \"species\""),
              std::string::npos) << e.what();
  }
}

TEST(CsvRun, OnlyTheLabelColumnIsAParseErrorNotABadIgnore) {
  try {
    runCsv("label\n1\n0\n", budget());
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCsvParse);
    EXPECT_EQ(e.parameter(), "");
    EXPECT_NE(std::string(e.what()).find("only the label column \"label\""), std::string::npos) << e.what();
  }
  // Columns left out by default (an identifier name, almost no values — here by the exact
  // counts of a local read): said, with the fix.
  try {
    schemaOf("key,empty,label\nk1,,1\nk2,,0\n");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kCsvParse);
    EXPECT_NE(std::string(e.what()).find("\"key\" (header name reads like an identifier), \"empty\" (almost no values); "
                                         "name the columns to use in features"), std::string::npos) << e.what();
  }
  // With ignore given, the option is named as before.
  run::Options o = budget();
  o.table.ignore = {"a"};
  try {
    runCsv("a,label\n1,1\n2,0\n", o);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadParameter);
    EXPECT_EQ(e.parameter(), "ignore");
  }
}

TEST(CsvRun, RowSelectionAndSeededRepeatability) {
  run::Options o = budget(9);
  o.table.label = "churn";
  const std::string csv = churnTable(3000);
  std::vector<std::uint64_t> rows;
  for (std::uint64_t i = 0; i < 3000; i += 2) rows.push_back(i);
  auto once = [&] {
    run::CsvRun run(o, rows);
    while (run.pass() != run::CsvRun::Pass::kDone) {
      run.feed(csv.data(), csv.size());
      run.endPass();
    }
    EXPECT_EQ(run.dataset().rows(), 1500u);
    return run.schema().columns[1].levels;
  };
  EXPECT_EQ(once(), once());
  testing::expectBadParameter([&] { run::CsvRun(o, std::vector<std::uint64_t>{3, 2}); }, "rows");
  run::CsvRun past(o, std::vector<std::uint64_t>{1, 5000});
  past.feed(csv.data(), csv.size());
  testing::expectBadParameter([&] { past.endPass(); }, "rows");
}

TEST(CsvRun, OptionsAreCheckedBeforeAnyByte) {
  run::Options o = budget();
  o.table.maxLevels = 0;
  testing::expectBadParameter([&] { run::CsvRun run(o); }, "maxLevels");
  o = budget();
  o.discoveryShare = 1.5;
  testing::expectBadParameter([&] { run::CsvRun run(o); }, "discoveryShare");
  o = budget();
  o.maxBytes = -1;
  testing::expectBadParameter([&] { run::CsvRun run(o); }, "maxBytes");
  // The option table names every table option and refuses it among the training options.
  run::Options t;
  testing::expectBadParameter([&] { run::setOption(t, "label", run::Value::ofText("y"), false); }, "label");
  testing::expectBadParameter([&] { run::setOption(t, "epsilon", run::Value::ofNumber(1), true); }, "epsilon");
  testing::expectBadParameter([&] { run::setOption(t, "classes", run::Value::ofText("a"), true); }, "classes");
  testing::expectBadParameter([&] { run::setOption(t, "delimiter", run::Value::ofText("::"), true); }, "delimiter");
  testing::expectBadParameter([&] { run::setOption(t, "encoding", run::Value::ofText("utf-16"), true); }, "encoding");
  testing::expectBadParameter([&] { run::setOption(t, "categories", run::Value::ofText("declared"), true); }, "categories");
  testing::expectBadParameter([&] { run::setOption(t, "schema", run::Value::ofText("x"), true); }, "schema");
  run::setOptionFromText(t, "classes", "no,yes");
  EXPECT_EQ(*t.table.classes, (std::vector<std::string>{"no", "yes"}));
  run::setOptionFromText(t, "delimiter", "tab");
  EXPECT_EQ(*t.table.delimiter, '\t');
}

TEST(CsvRun, TooLargeTablesFailBeforeAllocating) {
  run::Options o = budget();
  o.table.positive = "1";  // 8 rows: a private class decision would be noise
  o.maxBytes = 50;  // 8 rows × (1 + 1) × 4 = 64 bytes
  try {
    runCsv("x,label\n1,0\n2,1\n3,0\n4,1\n5,0\n6,1\n7,0\n8,1\n", o);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfMemory);
  }
}


// One pass (the scan's values) against two (the fill), on random plain numeric tables and on
// tables that must take the fill: the same raw table, labels, codes and fill counts, to the bit.
TEST(CsvRun, OnePassForPlainNumericTablesEqualsTheFillPass) {
  std::mt19937_64 rng(20261127);
  auto pick = [&](std::size_t n) { return std::size_t(rng() % n); };
  int onePass = 0, twoPass = 0, textOnePass = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t features = 1 + pick(7);
    const std::size_t rows = 1 + pick(trial % 3 == 0 ? 3000 : 150);
    const bool comma = pick(5) == 0;  // ';' and a decimal comma
    const char delim = comma ? ';' : ',';
    const std::size_t labelAt = pick(features + 1);
    const bool idColumn = pick(3) == 0;
    const int spoil = int(pick(8));  // 0: a text cell, 1: a missing cell, 2: a label 2, 3: "inf", else clean
    // 0: 0/1, 1: 0.0/1.0, 2: " 1 " spaced, 3: mixed 0 / 1.0, 4: yes/no, 5: yes/" yes "/"no"/No
    const int labelForm = int(pick(6));
    std::vector<std::string> header;
    for (std::size_t j = 0; j < features; ++j) header.push_back("f" + std::to_string(j));
    header.insert(header.begin() + std::ptrdiff_t(labelAt), "label");
    if (idColumn) header.insert(header.begin(), "id");
    std::string csv;
    for (std::size_t j = 0; j < header.size(); ++j) csv += (j ? std::string(1, delim) : "") + header[j];
    csv += pick(4) == 0 ? "\r\n" : "\n";
    const std::string eol = csv.substr(csv.size() - (csv[csv.size() - 2] == '\r' ? 2 : 1));
    for (std::size_t i = 0; i < rows; ++i) {
      std::vector<std::string> cells;
      for (std::size_t j = 0; j < features; ++j) {
        std::string v;
        switch (pick(5)) {
          case 0: v = std::to_string(int(pick(2000)) - 1000); break;
          case 1: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.*f", int(pick(9)), (double(rng() % 2000001) - 1e6) / 997.0);
            v = buf;
            break;
          }
          case 2: {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.6e", (double(rng() % 2000001) - 1e6) * 1e-7);
            v = buf;
            break;
          }
          case 3: v = "\"" + std::to_string(pick(50)) + "\""; break;
          default: v = " " + std::to_string(pick(9)) + ".5 "; break;
        }
        if (comma) std::replace(v.begin(), v.end(), '.', ',');
        cells.push_back(v);
      }
      const int y = int(i % 2 == 0 ? 1 : pick(2));
      std::string label = labelForm == 0 ? std::to_string(y) : labelForm == 1 ? std::to_string(y) + (comma ? ",0" : ".0")
                        : labelForm == 2 ? " " + std::to_string(y) + " " : labelForm == 3 ? (y ? (comma ? "1,0" : "1.0") : "0")
                        : labelForm == 4 ? (y ? "yes" : "no")
                        : (y ? (pick(2) ? "yes" : " yes ") : (pick(3) ? "\"no\"" : "No"));
      if (i == rows / 2 && spoil == 2) label = "2";
      cells.insert(cells.begin() + std::ptrdiff_t(labelAt), label);
      if (i == rows / 2 && spoil == 0) cells[labelAt == 0 ? 1 : 0] = "abc";
      if (i == rows / 2 && spoil == 1) cells[labelAt == 0 ? 1 : 0] = "NA";
      if (i == rows / 2 && spoil == 3) cells[labelAt == 0 ? 1 : 0] = "inf";
      if (idColumn) cells.insert(cells.begin(), "r" + std::to_string(i));
      for (std::size_t j = 0; j < cells.size(); ++j) csv += (j ? std::string(1, delim) : "") + cells[j];
      csv += eol;
    }
    run::Options o = budget(std::uint64_t(trial) + 1);
    if (pick(3) == 0) {  // the features in another order
      std::vector<std::string> order(header.begin() + (idColumn ? 1 : 0), header.end());
      order.erase(std::find(order.begin(), order.end(), "label"));
      std::shuffle(order.begin(), order.end(), rng);
      order.resize(1 + pick(order.size()));
      o.table.features = order;
    }
    const bool text = labelForm >= 4;
    if (pick(4) == 0) o.table.classes = text ? std::vector<std::string>{"no", "yes"} : std::vector<std::string>{"0", "1"};
    else if (text ? pick(3) != 0 : pick(4) == 0) o.table.positive = text ? "yes" : "1";
    std::optional<std::vector<std::uint64_t>> selection;
    if (pick(3) == 0) {
      std::vector<std::uint64_t> chosen;
      for (std::uint64_t i = 0; i < rows; ++i) if (pick(5) != 0) chosen.push_back(i);
      if (!chosen.empty()) selection = chosen;
    }
    const auto mode = pick(4) == 0 ? run::CsvRun::Mode::kLocal : run::CsvRun::Mode::kPrivate;
    const std::size_t chunk = std::size_t{1} << pick(14);
    std::optional<Ran> two, one;
    std::string twoError, oneError;
    try { two = runCsv(csv, o, chunk, false, selection, mode); } catch (const Error& e) { twoError = std::string(e.what()) + " " + std::to_string(int(e.code())); }
    try { one = runCsv(csv, o, chunk, true, selection, mode); } catch (const Error& e) { oneError = std::string(e.what()) + " " + std::to_string(int(e.code())); }
    ASSERT_EQ(oneError, twoError) << "trial " << trial;
    if (!two) continue;
    ASSERT_GE(two->passes, 2) << "trial " << trial;  // 3 with a count pass (discovered classes)
    ASSERT_GE(one->passes, two->passes - 1) << "trial " << trial;
    (one->passes < two->passes ? onePass : twoPass) += 1;
    if (text && one->passes < two->passes) ++textOnePass;
    // The spoiled cell is in feature column f0: used unless the features option leaves it out.
    const std::string spoiled = "f0";
    // Used: a feature of the resolved schema (at a few rows the private decisions are noise and
    // may leave it out, or read it as text).
    const bool used = column(two->run->schema(), spoiled).kind == ColumnKind::kNumeric &&
                      (!o.table.features ||
                       std::find(o.table.features->begin(), o.table.features->end(), spoiled) != o.table.features->end());
    if ((spoil <= 1 || spoil == 3) && used) EXPECT_EQ(one->passes, two->passes) << "trial " << trial << ": a table with a non-number cell skipped the fill";
    learn::Dataset& a = two->run->dataset();
    learn::Dataset& b = one->run->dataset();
    ASSERT_EQ(a.rows(), b.rows());
    ASSERT_EQ(a.features(), b.features());
    ASSERT_EQ(a.stride(), b.stride());
    EXPECT_EQ(0, std::memcmp(a.raw(), b.raw(), a.rows() * a.stride() * sizeof(float))) << "trial " << trial;
    EXPECT_EQ(a.labelled(), b.labelled());
    if (a.labelled()) EXPECT_EQ(0, std::memcmp(a.labels(), b.labels(), a.rows())) << "trial " << trial;
    EXPECT_EQ(two->run->classCodes(), one->run->classCodes()) << "trial " << trial;
    EXPECT_EQ(two->run->fillResult().imputed, one->run->fillResult().imputed);
    EXPECT_EQ(two->run->fillResult().marked, one->run->fillResult().marked);
    EXPECT_EQ(two->run->fillResult().rows, one->run->fillResult().rows);
    ASSERT_EQ(two->run->fillResult().dictionaries.size(), one->run->fillResult().dictionaries.size());
    for (std::size_t k = 0; k < two->run->fillResult().dictionaries.size(); ++k) {
      const auto& x = two->run->fillResult().dictionaries[k];
      const auto& y = one->run->fillResult().dictionaries[k];
      EXPECT_EQ(x.column, y.column);
      EXPECT_EQ(x.values, y.values);
      EXPECT_EQ(x.counts, y.counts);
      EXPECT_EQ(x.missing, y.missing);
      EXPECT_EQ(x.other, y.other);
    }
    if (mode == run::CsvRun::Mode::kPrivate) {
      EXPECT_EQ(two->run->settings().plan.n, one->run->settings().plan.n);
    }
  }
  // Both paths were exercised, text labels (a positive class, declared classes) in one pass too.
  EXPECT_GT(onePass, 50);
  EXPECT_GT(twoPass, 20);
  EXPECT_GT(textOnePass, 10);
}

// A column declared nullable (so with a missing-value indicator) that has no missing cell keeps
// the one-pass read: the indicator is 0 in every row on either path, so the table is the fill
// pass's bit for bit. The Dataset's rows are then wider than the file's (stride > columns): the
// kept values are moved back to front. With a missing cell, two passes (the fill marks it).
TEST(CsvRun, AnUnusedIndicatorKeepsTheOnePassReadAndItsBits) {
  std::mt19937_64 rng(29);
  for (const bool spoiled : {false, true}) {
    for (const bool allNullable : {false, true}) {
      std::string csv = "a,b,c,label\n";
      const std::size_t rows = 700;
      for (std::size_t i = 0; i < rows; ++i) {
        csv += std::to_string(int(rng() % 256)) + "," +
               (spoiled && i == rows / 3 ? std::string("NA") : std::to_string(int(rng() % 256))) + "," +
               std::to_string(int(rng() % 9) - 4) + "," + std::to_string(int(rng() % 2)) + "\n";
      }
      run::Options o = budget(7);
      o.table.discoverClasses = false;
      const char* names[] = {"a", "b", "c"};
      for (std::size_t j = 0; j < 3; ++j) {
        data::ColumnChoice c;
        c.name = names[j];
        c.kind = ColumnKind::kNumeric;
        c.nullable = j == 1 || allNullable;  // b (it holds the spoiled cell), or all three
        o.table.columns.push_back(c);
      }
      const Ran two = runCsv(csv, o, 4096, false);
      const Ran one = runCsv(csv, o, 4096, true);
      EXPECT_EQ(one.passes, spoiled ? two.passes : two.passes - 1) << "spoiled " << spoiled;
      learn::Dataset& a = two.run->dataset();
      learn::Dataset& b = one.run->dataset();
      ASSERT_EQ(a.rows(), rows);
      ASSERT_EQ(a.stride(), b.stride());
      ASSERT_GT(a.stride(), 4u);  // wider than the file's 4 columns: the back-to-front move
      EXPECT_EQ(0, std::memcmp(a.raw(), b.raw(), a.rows() * a.stride() * sizeof(float)));
      EXPECT_EQ(0, std::memcmp(a.labels(), b.labels(), a.rows()));
      EXPECT_EQ(two.run->fillResult().marked, one.run->fillResult().marked);
      EXPECT_EQ(two.run->fillResult().imputed, one.run->fillResult().imputed);
    }
  }
}

// The same for a prediction read (run::CsvRead with a trained run's encoding): one pass or two,
// the same table, labels and codes, with the label column in the file or not.
TEST(CsvRead, OnePassForPlainNumericFilesEqualsTheFillPass) {
  std::mt19937_64 rng(11);
  int onePass = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::string csv = "a,b,label,c\n";
    const std::size_t rows = 1 + rng() % 400;
    const bool spoiled = rng() % 4 == 0;
    for (std::size_t i = 0; i < rows; ++i) {
      csv += std::to_string(int(rng() % 100) - 50) + "." + std::to_string(rng() % 1000) + "," +
             (spoiled && i == rows / 2 ? std::string("NA") : std::to_string(rng() % 7)) + "," +
             std::to_string(i % 2 ? 1 : int(rng() % 2)) + "," + std::to_string(rng() % 3) + "\n";
    }
    run::Options declared = budget(3);
    // 3 rows: private decisions would be noise; the encoding is declared (numeric, not nullable).
    declared.table.discoverClasses = false;
    for (const char* name : {"a", "b", "c"}) {
      data::ColumnChoice c;
      c.name = name;
      c.kind = ColumnKind::kNumeric;
      c.nullable = false;
      declared.table.columns.push_back(c);
    }
    const Ran trained = runCsv("a,b,label,c\n1,2,0,3\n4,5,1,6\n7,8,1,9\n", declared, 4096);
    const data::Encoding encoding = trained.run->encoding();
    const std::vector<std::string> classes = trained.run->schema().classes;
    std::optional<std::vector<std::uint64_t>> selection;
    if (rng() % 3 == 0) {
      std::vector<std::uint64_t> chosen;
      for (std::uint64_t i = 0; i < rows; ++i) if (rng() % 4 != 0) chosen.push_back(i);
      if (!chosen.empty()) selection = chosen;
    }
    auto read = [&](const std::string& text, bool sized) {
      auto r = std::make_unique<run::CsvRead>(budget(), encoding, classes, selection);
      if (sized) r->expectBytes(text.size());
      int passes = 0;
      while (r->pass() != run::CsvRead::Pass::kDone) {
        for (std::size_t i = 0; i < text.size(); i += 1000) r->feed(text.data() + i, std::min<std::size_t>(1000, text.size() - i));
        r->endPass();
        ++passes;
      }
      return std::make_pair(std::move(r), passes);
    };
    // The file as it is, and without its label column (a prediction file: the model row, 3
    // columns + 1, is then wider than the file row, and the kept values move back to front).
    std::string unlabelled;
    for (std::size_t at = 0; at < csv.size();) {
      const std::size_t end = csv.find('\n', at);
      const std::size_t second = csv.find(',', csv.find(',', at) + 1);
      const std::size_t third = csv.find(',', second + 1);
      unlabelled += csv.substr(at, second - at) + csv.substr(third, end + 1 - third);
      at = end + 1;
    }
    for (const std::string* text : {&csv, &unlabelled}) {
      auto [two, twoPasses] = read(*text, false);
      auto [one, onePasses] = read(*text, true);
      ASSERT_EQ(twoPasses, 2);
      if (spoiled) EXPECT_EQ(onePasses, 2);
      if (!spoiled) EXPECT_EQ(onePasses, 1) << "trial " << trial;
      onePass += onePasses == 1 ? 1 : 0;
      EXPECT_EQ(two->labelCodes(), one->labelCodes());
      EXPECT_EQ(two->fillResult().marked, one->fillResult().marked);
      auto a = two->takeDataset();
      auto b = one->takeDataset();
      ASSERT_EQ(a->rows(), b->rows());
      ASSERT_EQ(a->stride(), b->stride());
      EXPECT_EQ(0, std::memcmp(a->raw(), b->raw(), a->rows() * a->stride() * sizeof(float))) << "trial " << trial;
      if (a->labelled()) EXPECT_EQ(0, std::memcmp(a->labels(), b->labels(), a->rows()));
    }
  }
  EXPECT_GT(onePass, 40);
}

}  // namespace
}  // namespace dpmargin
