// Column names in messages (data/names.hpp): a header is listed whole (or never without the
// columns at its end), and a name the header lacks gets the names it resembles.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dpmargin/data/names.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin {
namespace {

using data::didYouMean;
using data::listColumns;
using data::ColumnKind;
using data::similarNames;

// The breast-cancer sample's header (web/public/samples/breast-cancer.csv): 31 columns, the
// label last — the one the old 12-name listing cut off.
std::vector<std::string> breastCancer() {
  std::vector<std::string> h;
  for (const char* kind : {"mean ", "", "worst "}) {
    for (const char* f : {"radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity",
                          "concave points", "symmetry", "fractal dimension"}) {
      h.push_back(std::string(kind) + f + (std::string(kind).empty() ? " error" : ""));
    }
  }
  h.push_back("diagnosis");
  return h;
}

TEST(Names, SimilarNamesByCaseSeparatorsEditsAndContainment) {
  const std::vector<std::string> h = {"Customer ID", "tenure", "MonthlyCharges", "Churn", "label"};
  EXPECT_EQ(similarNames("churn", h), (std::vector<std::string>{"Churn"}));               // case
  EXPECT_EQ(similarNames("customer_id", h), (std::vector<std::string>{"Customer ID"}));   // separators
  EXPECT_EQ(similarNames("lable", h), (std::vector<std::string>{"label"}));               // a transposition
  EXPECT_EQ(similarNames("tenur", h), (std::vector<std::string>{"tenure"}));              // an edit
  EXPECT_EQ(similarNames("monthly", h), (std::vector<std::string>{"MonthlyCharges"}));    // contained
  EXPECT_TRUE(similarNames("zzz", h).empty());
  // Short names: the same but for case, else nothing ("x1" is one edit from "x2").
  EXPECT_EQ(similarNames("X2", {"x0", "x1", "x2", "x3"}), (std::vector<std::string>{"x2"}));
  EXPECT_TRUE(similarNames("x9", {"x0", "x1", "x2"}).empty());
  // A name the same but for case and separators is proposed alone.
  EXPECT_EQ(similarNames("Mean Area", {"mean area", "mean_area ", "area error", "worst area"}),
            (std::vector<std::string>{"mean area", "mean_area "}));
  EXPECT_TRUE(similarNames("label", h).empty());  // the name itself is not proposed
  EXPECT_EQ(didYouMean("diagnosys", breastCancer()), "; did you mean \"diagnosis\"?");
  EXPECT_EQ(didYouMean("zzz", breastCancer()), "");
  // Closest first, at most three.
  EXPECT_EQ(similarNames("area", breastCancer()),
            (std::vector<std::string>{"mean area", "area error", "worst area"}));
}

TEST(Names, EveryColumnListedUpToSixtyAndTheLastOnesAlways) {
  const std::string all = listColumns(breastCancer());
  EXPECT_NE(all.find("\"diagnosis\""), std::string::npos) << all;
  EXPECT_EQ(all.find("…"), std::string::npos) << all;
  std::vector<std::string> wide;
  for (int j = 0; j < 100; ++j) wide.push_back("x" + std::to_string(j));
  wide.push_back("target");
  const std::string shown = listColumns(wide);
  EXPECT_NE(shown.find("\"x39\", …, 51 more, …, \"x91\""), std::string::npos) << shown;
  EXPECT_NE(shown.find("\"target\" (101 columns)"), std::string::npos) << shown;
}

TEST(Names, LabelNotFoundListsEveryColumnAndSuggests) {
  data::TableOptions o;
  o.label = "Diagnosis ";
  std::string csv;
  for (const auto& name : breastCancer()) csv += (csv.empty() ? "" : ",") + name;
  csv += "\n";
  for (std::size_t j = 0; j < 31; ++j) csv += j < 30 ? "1," : "M\n";
  const data::CsvScan scan = data::scanCsv(csv.data(), csv.size(), data::csvOptionsFor(o));
  try {
    data::resolveSchema(scan, o, data::SchemaPurpose::kTrain);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLabelNotFound);
    EXPECT_EQ(e.parameter(), "label");
    const std::string what = e.what();
    EXPECT_NE(what.find("\"worst fractal dimension\", \"diagnosis\")"), std::string::npos) << what;
    EXPECT_NE(what.find("; did you mean \"diagnosis\"?"), std::string::npos) << what;
  }
  // No label named and none proposed: every column listed, the last one included.
  o.label.reset();
  try {
    data::resolveSchema(scan, o, data::SchemaPurpose::kTrain);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLabelNotFound);
    EXPECT_NE(std::string(e.what()).find("\"diagnosis\""), std::string::npos) << e.what();
  }
  // Other column names: features, ignore, a schema's columns.
  o.label = "diagnosis";
  o.features = std::vector<std::string>{"mean radius", "Mean Texture"};
  try {
    data::resolveSchema(scan, o, data::SchemaPurpose::kTrain);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.parameter(), "features");
    EXPECT_NE(std::string(e.what()).find("; did you mean \"mean texture\"?"), std::string::npos) << e.what();
  }
  EXPECT_EQ(data::requireColumn(breastCancer(), "diagnosis", "label", "label column"), 30u);
}

// publicColumns reads the header alone; resolveSchema, the cells too. On every table the
// resolved features are among the public ones, and the same where every column has values.
TEST(PublicColumns, AgreeWithTheResolvedSchema) {
  struct Case {
    std::string csv;
    data::TableOptions options;
  };
  const auto with = [](auto set) {
    data::TableOptions o;
    set(o);
    return o;
  };
  const std::string table = "id,Customer ID,age,plan,empty,rowid,target\n1,a,30,x,,1,1\n2,b,40,y,,2,0\n";
  const std::vector<Case> cases = {
      {table, {}},
      {table, with([](auto& o) { o.ignore = {"age"}; })},
      {table, with([](auto& o) { o.features = std::vector<std::string>{"plan", "id"}; })},
      {table, with([](auto& o) { o.label = "plan"; })},
      {table, with([](auto& o) {
         data::ColumnChoice c;
         c.name = "id";
         c.kind = ColumnKind::kNumeric;  // a declared kind beats the identifier rule
         data::ColumnChoice d;
         d.name = "age";
         d.kind = ColumnKind::kIgnore;
         o.columns = {c, d};
       })},
  };
  for (const Case& c : cases) {
    const data::CsvScan scan = data::scanCsv(c.csv.data(), c.csv.size(), data::csvOptionsFor(c.options));
    const data::Schema s = data::resolveSchema(scan, c.options, data::SchemaPurpose::kTrain);
    std::vector<std::string> header;
    for (const auto& col : scan.columns) header.push_back(col.name);
    const data::PublicColumns p = data::publicColumns(header, c.options);
    EXPECT_EQ(p.label, s.label);
    std::vector<std::size_t> resolved = s.featureOrder, expected;
    std::sort(resolved.begin(), resolved.end());
    // What the cells left out: only "empty" (no values) may be missing from the resolved ones.
    for (std::size_t j : p.features) {
      if (header[j] != "empty") expected.push_back(j);
    }
    EXPECT_EQ(resolved, expected) << c.csv;
    for (std::size_t j : resolved) EXPECT_NE(std::find(p.features.begin(), p.features.end(), j), p.features.end());
  }
  // A named label the header lacks: LABEL_NOT_FOUND, as in training; none named or proposed: -1.
  data::TableOptions o;
  o.label = "targt";
  try {
    data::publicColumns({"a", "target"}, o);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kLabelNotFound);
    EXPECT_NE(std::string(e.what()).find("did you mean \"target\""), std::string::npos) << e.what();
  }
  EXPECT_EQ(data::publicColumns({"a", "b"}, {}).label, -1);
}

}  // namespace
}  // namespace dpmargin
