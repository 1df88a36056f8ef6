// run::previewCsv (the app's Data tab, dp.previewCsv): its plan is the run's plan whenever the
// run's private decisions agree with the exact counts and nothing is discovered; every column
// says how its kind and nullable are decided; discovered widths are estimates; what the run
// would refuse is reported, not thrown.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpmargin/error.hpp"
#include "dpmargin/node_writer.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin {
namespace {

// A table of n rows: an identifier, two numeric columns (one with a missing cell every 10th
// row), a text column of three levels, a 0/1 label whose header says so.
std::string table(std::size_t n) {
  std::string csv = "customer_id,age,income,plan,label\n";
  for (std::size_t i = 0; i < n; ++i) {
    const double x = double((i * 37) % 101) / 100.0;
    csv += std::to_string(1000 + i) + "," + std::to_string(20 + i % 50) + "," +
           (i % 10 == 3 ? std::string("") : std::to_string(x)) + "," + (i % 3 == 0 ? "basic" : i % 3 == 1 ? "plus" : "pro") +
           "," + (x + double(i % 50) / 50.0 > 1.0 ? "1" : "0") + "\n";
  }
  return csv;
}

run::Options large() {
  // At ε = 1e5 the schema release's noise sd is far below one cell: the run's private decisions
  // are those of the exact counts. Seeded: not private (a test).
  run::Options o;
  o.epsilon = 1e5;
  o.delta = 1e-5;
  o.seed = 3;
  return o;
}

std::unique_ptr<run::CsvRun> runCsv(const std::string& csv, run::Options o,
                                    std::optional<std::vector<std::uint64_t>> rows = std::nullopt) {
  auto r = std::make_unique<run::CsvRun>(std::move(o), std::move(rows));
  while (r->pass() != run::CsvRun::Pass::kDone) {
    r->feed(csv.data(), csv.size());
    r->endPass();
  }
  return r;
}

Node preview(const std::string& csv, run::Options o, bool planned,
             std::optional<std::vector<std::uint64_t>> rows = std::nullopt) {
  run::CsvPreview p(std::move(o), planned, std::move(rows), 4);
  for (std::size_t at = 0; at < csv.size(); at += 5) p.feed(csv.data() + at, std::min<std::size_t>(5, csv.size() - at));
  p.endPass();
  EXPECT_TRUE(p.done());
  return p.preview(10);
}

// The field `name` (present, possibly null: Node::field skips null values).
const Node& at(const Node& n, const std::string& name) {
  for (const auto& f : n.fields) {
    if (f.first == name) return f.second;
  }
  ADD_FAILURE() << "no field " << name;
  static const Node none;
  return none;
}

const Node& columnOf(const Node& preview, const std::string& name) {
  for (const Node& c : at(preview, "columns").list) {
    if (at(c, "name").text == name) return c;
  }
  ADD_FAILURE() << "no column " << name;
  static const Node none;
  return none;
}

// Deep equality, reporting the first difference by path.
void expectSameNode(const Node& a, const Node& b, const std::string& path = "plan") {
  ASSERT_EQ(int(a.kind), int(b.kind)) << path;
  switch (a.kind) {
    case Node::Kind::kNumber:
      if (std::isnan(a.number)) EXPECT_TRUE(std::isnan(b.number)) << path;
      else EXPECT_EQ(a.number, b.number) << path;
      break;
    case Node::Kind::kBoolean: EXPECT_EQ(a.boolean, b.boolean) << path; break;
    case Node::Kind::kText: EXPECT_EQ(a.text, b.text) << path; break;
    case Node::Kind::kList:
      ASSERT_EQ(a.list.size(), b.list.size()) << path;
      for (std::size_t i = 0; i < a.list.size(); ++i) expectSameNode(a.list[i], b.list[i], path + "[" + std::to_string(i) + "]");
      break;
    case Node::Kind::kObject:
      ASSERT_EQ(a.fields.size(), b.fields.size()) << path;
      for (std::size_t i = 0; i < a.fields.size(); ++i) {
        EXPECT_EQ(a.fields[i].first, b.fields[i].first) << path;
        expectSameNode(a.fields[i].second, b.fields[i].second, path + "." + a.fields[i].first);
      }
      break;
    default: break;
  }
}

Node runPlan(const run::CsvRun& r) {
  return describeToNode(plan::makePlan(r.settings().plan), plan::describePlan<NodeWriter>);
}

TEST(Preview, PlanIsTheRunsWhenNothingIsDiscovered) {
  const std::string csv = table(400);
  run::Options o = large();
  o.table.categories = data::CategorySource::kHash;  // nothing discovered
  const auto r = runCsv(csv, o);
  ASSERT_EQ(r->settings().plan.discoveryColumns, 0u);
  const Node p = preview(csv, o, true);
  ASSERT_TRUE(at(p, "planError").isNull()) << at(at(p, "planError"), "message").text;
  expectSameNode(at(p, "plan"), runPlan(*r));
  // d, μ and the budget's parts, named: the schema release and the discovery reservation.
  EXPECT_EQ(at(at(p, "plan"), "d").number, double(r->encoding().width + 1));
  EXPECT_EQ(at(at(p, "modelColumns"), "width").number, double(r->encoding().width));
  EXPECT_FALSE(at(at(p, "modelColumns"), "estimate").boolean);
  EXPECT_GT(at(at(p, "plan"), "schemaCoordinates").number, 0.0);
  std::vector<std::string> names;
  for (const Node& n : at(at(p, "modelColumns"), "featureNames").list) names.push_back(n.text);
  EXPECT_EQ(names, r->encoding().names());

  // The same on a split (the rows a run trains on), and with the budget's options changed.
  std::vector<std::uint64_t> rows;
  for (std::uint64_t i = 0; i < 400; i += 3) rows.push_back(i);
  o.rangeShare = 0.2;
  o.selector = plan::Selector::kIter;
  o.schemaShare = 0.03;
  const auto split = runCsv(csv, o, rows);
  const Node q = preview(csv, o, true, rows);
  EXPECT_EQ(at(q, "rows").number, double(rows.size()));
  EXPECT_EQ(at(q, "fileRows").number, 400.0);
  expectSameNode(at(q, "plan"), runPlan(*split));
}

TEST(Preview, EveryColumnSaysHowItIsDecided) {
  const std::string csv = table(200);
  run::Options o;
  o.table.columns.push_back({"income", data::ColumnKind::kNumeric, {}, {}, {}, {}, {}, {}});
  o.table.columns.push_back({"plan", {}, {}, {}, {}, {}, {}, false});
  const Node p = preview(csv, o, false);
  EXPECT_TRUE(at(p, "plan").isNull());
  EXPECT_TRUE(at(p, "planError").isNull());
  EXPECT_FALSE(at(p, "private").boolean);
  // The label by its header name (public), the identifier by its header name (public).
  EXPECT_EQ(at(at(p, "label"), "column").text, "label");
  EXPECT_EQ(at(at(p, "label"), "reason").text, "header name");
  EXPECT_EQ(at(at(p, "label"), "decision").text, "public");
  EXPECT_EQ(at(p, "identifiers").list.size(), 1u);
  EXPECT_EQ(at(p, "identifiers").list[0].text, "customer_id");
  const Node& id = columnOf(p, "customer_id");
  EXPECT_EQ(at(id, "kind").text, "ignore");
  EXPECT_EQ(at(id, "kindDecision").text, "public");
  EXPECT_TRUE(at(id, "nullable").isNull());
  // Undeclared: kind and nullable are decided in the run, privately; shown: the local expectation.
  const Node& age = columnOf(p, "age");
  EXPECT_EQ(at(age, "kind").text, "numeric");
  EXPECT_EQ(at(age, "kindDecision").text, "private");
  EXPECT_EQ(at(age, "nullableDecision").text, "private");
  EXPECT_TRUE(at(age, "expectedLocally").boolean);
  EXPECT_EQ(at(age, "reason").text, "numbers");
  // Declared kind, nullable still private (a missing cell every 10th row: expected nullable).
  const Node& income = columnOf(p, "income");
  EXPECT_EQ(at(income, "kindDecision").text, "declared");
  EXPECT_EQ(at(income, "nullableDecision").text, "private");
  EXPECT_TRUE(at(income, "nullable").boolean);
  EXPECT_EQ(at(income, "width").number, 2.0);  // the value and its missing indicator
  // Declared nullable, kind private.
  const Node& plan = columnOf(p, "plan");
  EXPECT_EQ(at(plan, "kind").text, "categorical");
  EXPECT_EQ(at(plan, "kindDecision").text, "private");
  EXPECT_EQ(at(plan, "nullableDecision").text, "declared");
  EXPECT_FALSE(at(plan, "nullable").boolean);
  EXPECT_EQ(at(plan, "categories").text, "auto");  // no budget: undecided
  // The local facts, under local: exact counts and values.
  EXPECT_EQ(at(at(income, "local"), "missing").number, 20.0);
  EXPECT_EQ(at(at(plan, "local"), "values").list.size(), 3u);
  EXPECT_EQ(at(at(p, "local"), "preview").list.size(), 4u);
  // The label's classes: decided privately, with the core's public positive rule.
  const Node& classes = at(p, "classes");
  EXPECT_EQ(at(classes, "decision").text, "private");
  EXPECT_EQ(at(classes, "source").text, "binary01");
  EXPECT_NE(at(classes, "rule").text.find("one joint model (multiclass hinge) under the one (ε, δ)"), std::string::npos);

  // Named label, declared classes: declared; the positive rule by name.
  o.table.label = "label";
  o.table.classes = std::vector<std::string>{"0", "1"};
  const Node named = preview(csv, o, false);
  EXPECT_EQ(at(at(named, "label"), "decision").text, "declared");
  EXPECT_EQ(at(at(named, "classes"), "decision").text, "declared");
  EXPECT_EQ(at(at(named, "classes"), "positiveRule").text, "second-declared");
  EXPECT_EQ(at(at(named, "classes"), "positive").text, "1");
}

TEST(Preview, DiscoveredLevelsAreAnEstimateAboveTheThreshold) {
  std::string csv = table(3000);
  // Two values held by one row each: below any discovery threshold at ε = 1.
  csv += "9001,30,0.5,rare1,0\n9002,31,0.6,rare2,1\n";
  run::Options o = large();
  o.epsilon = 1.0;
  o.seed.reset();
  const Node p = preview(csv, o, true);
  ASSERT_TRUE(at(p, "planError").isNull()) << at(at(p, "planError"), "message").text;
  const Node& plan = columnOf(p, "plan");
  EXPECT_EQ(at(plan, "categories").text, "discover");  // auto, resolved by the budget's rule
  EXPECT_TRUE(at(plan, "categoriesAuto").boolean);
  EXPECT_TRUE(at(plan, "widthEstimate").boolean);
  EXPECT_EQ(at(plan, "width").number, 4.0);  // basic, plus, pro, other: not the rare ones
  EXPECT_TRUE(at(at(p, "modelColumns"), "estimate").boolean);
  EXPECT_EQ(at(at(p, "plan"), "d").number, at(at(p, "modelColumns"), "width").number + 1);
  EXPECT_EQ(at(at(p, "plan"), "discoveryColumns").number, 1.0);
  // Without a budget every present value is counted.
  o.epsilon.reset();
  o.delta.reset();
  EXPECT_EQ(at(columnOf(preview(csv, o, false), "plan"), "width").number, 6.0);
}

TEST(Preview, PrivTuneHashesAutoCategoriesInTheRunAndThePreview) {
  // PrivTune discovers nothing: a text column's "auto" categories are hashed. The run used to
  // ask for a discovery budget first, which PrivTune refuses (BAD_PARAMETER discoveryShare) —
  // e.g. whenever the private schema release reads a column of a numeric file as text.
  const std::string csv = table(400);
  run::Options o = large();
  o.selector = plan::Selector::kPrivTune;
  const auto r = runCsv(csv, o);
  EXPECT_EQ(r->settings().plan.discoveryColumns, 0u);
  const Node p = preview(csv, o, true);
  ASSERT_TRUE(at(p, "planError").isNull()) << at(at(p, "planError"), "message").text;
  EXPECT_EQ(at(columnOf(p, "plan"), "categories").text, "hash");
  expectSameNode(at(p, "plan"), runPlan(*r));
}

TEST(Preview, WhatTheRunWouldRefuseIsReported) {
  const std::string csv = table(100);
  run::Options o = large();
  o.epsilon = -1.0;
  const Node bad = preview(csv, o, true);
  EXPECT_TRUE(at(bad, "plan").isNull());
  EXPECT_EQ(at(at(bad, "planError"), "parameter").text, "epsilon");
  EXPECT_EQ(at(columnOf(bad, "age"), "kind").text, "numeric");  // the columns are still shown
  o = large();
  o.table.label = "nope";
  const Node missing = preview(csv, o, true);
  EXPECT_EQ(at(at(missing, "schemaError"), "code").text, "LABEL_NOT_FOUND");
  // The options do not fit the table: no decision is shown, only the local facts.
  EXPECT_EQ(columnOf(missing, "age").field("kind"), nullptr);
  EXPECT_NE(columnOf(missing, "age").field("local"), nullptr);
  // A row without a label stops the run at its first one: the preview says so, in its words.
  const std::string gap = "a,label\n1,0\n2,\n3,1\n4,0\n";
  const Node unlabelledRow = preview(gap, large(), true);
  EXPECT_EQ(at(at(unlabelledRow, "planError"), "code").text, "MISSING_VALUE");
  try {
    runCsv(gap, large());
    ADD_FAILURE() << "the run trained with a missing label";
  } catch (const Error& e) {
    EXPECT_EQ(at(at(unlabelledRow, "planError"), "message").text, e.what());
  }
  // No header names the label: shown without one, the plan says what the run would say.
  const std::string unlabelled = "a,b,flag\n1,2,0\n2,3,1\n3,1,0\n4,4,1\n";
  const Node none = preview(unlabelled, large(), true);
  EXPECT_TRUE(at(none, "label").isNull());
  EXPECT_EQ(at(at(none, "planError"), "code").text, "LABEL_NOT_FOUND");
  EXPECT_EQ(at(none, "labelCandidates").list.size(), 0u);
}

}  // namespace
}  // namespace dpmargin
