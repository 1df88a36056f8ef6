// The preview of a CSV run (run.hpp): what a training run would decide about a table, and how,
// by the run's own functions — local and NOT private, for the data owner's eyes only.
#include <algorithm>
#include <cmath>
#include <optional>

#include "dpmargin/error.hpp"
#include "dpmargin/node_writer.hpp"
#include "dpmargin/run/run.hpp"
#include "data/csv/cells.hpp"
#include "run/csv_plan.hpp"
#include "run/rules.hpp"

namespace dpmargin::run {

using namespace detail;

namespace {

Node text(const std::string& s) { return Node::ofText(s); }

Node errorNode(const Error& e) {
  return Node::ofObject({{"code", text(errorCodeName(e.code()))},
                         {"parameter", text(e.parameter())},
                         {"message", text(e.what())}});
}

// The local values of a column that a discovery would keep if its noisy counts were the exact
// ones: a count above `threshold`, the `cap` largest, in byte order — data::discoverLevels with
// σ = 0, as a local read does. Counted over the file's rows (an estimate for a split).
std::vector<std::string> expectedLevels(const data::ColumnSummary& c, double threshold, std::size_t cap) {
  data::DiscoveryCounts counts;
  for (const data::DistinctValue& v : c.distinct) {
    counts.values.push_back(v.value);
    counts.counts.push_back(v.count);
  }
  accounting::DiscoveryCalibration exact;
  exact.columns = 1;
  exact.sigma = 0.0;
  exact.threshold = threshold;
  random::Generator unused = random::Generator::seeded(0);  // σ = 0: nothing is drawn
  return data::discoverLevels({counts}, {cap}, exact, unused)[0];
}

// A run's schema under the local expectation: its private decisions as the exact counts make
// them, "auto" categories resolved, discovered levels and classes filled in from the local
// values above the budget's thresholds.
struct Expectation {
  data::Schema schema;
  std::vector<std::size_t> discovered;  // feature columns whose levels are discovered
  bool estimated = false;               // levels or classes read off the local values
};

void fillExpected(Expectation& e, const data::CsvScan& scan, double levelThreshold, double classThreshold) {
  for (std::size_t j : e.discovered) {
    data::ColumnSchema& c = e.schema.columns[j];
    c.levels = expectedLevels(scan.columns[c.file], levelThreshold, std::size_t(e.schema.maxLevels));
    e.estimated = true;
  }
  if (e.schema.discoversClasses()) {
    const data::ColumnSchema& label = *e.schema.labelColumn();
    e.schema.classes = expectedLevels(scan.columns[label.file], classThreshold, data::kMaxClasses);
    e.schema.positive = e.schema.classes.size() == 2 ? e.schema.classes[1] : "";
    e.estimated = true;
  }
}

std::size_t classCount(const data::Schema& s) {
  if (s.label < 0) return 0;
  return s.classSource == data::ClassSource::kPositive ? 2 : s.classes.size();
}

// The plan a run with these options would make on this table, under the local expectation.
// Throws what the run would refuse (its options, the label, the rows, one expected class).
Expectation plannedExpectation(const data::CsvScan& scan, std::uint64_t n, const Options& o,
                               const data::SchemaEvidence& exact, Node& plan) {
  validate(o);
  const data::SchemaQuestions questions = data::schemaQuestions(scan, o.table, data::SchemaPurpose::kTrain);
  requireTrainingRows(n);
  const CsvBudget budget = csvBudget(o, questions, n);
  Expectation e;
  e.schema = data::resolveSchema(scan, o.table, data::SchemaPurpose::kTrain, exact);
  e.discovered = discoverOrHash(e.schema, o, budget);
  if (const data::ColumnSchema* c = e.schema.labelColumn()) {
    // A row without a label stops every run (its count or fill pass) at its first one: the
    // run's own error, from the scan's first missing cell of the label.
    const data::CellSample& first = scan.columns[c->file].firstMissing;
    if (first.line >= 0) data::csv::throwMissingLabel({first.line, c->file, &scan.columns[c->file].name}, first.value);
  }
  const bool label = e.schema.discoversClasses();
  const std::uint64_t m = e.discovered.size() + (label ? 1 : 0);
  const plan::Plan discovery = plan::makeBudget(csvBudgetRequest(o, budget, m, label));
  fillExpected(e, scan, discovery.discovery.threshold, discovery.labelDiscovery.threshold);
  if (label && e.schema.classes.size() < 2) {
    throw Error(ErrorCode::kOneClass, "classes",
                "at this budget private class discovery is expected to find " + std::to_string(e.schema.classes.size()) +
                    " class(es) of label column " + text(e.schema.labelColumn()->name).shown() +
                    " (local expectation: a class needs about " + formatValue(std::ceil(discovery.labelDiscovery.threshold)) +
                    " rows); declare the classes (classes, --classes), name the positive class (positive, --positive), "
                    "or raise epsilon");
  }
  const data::Encoding encoding = data::makeEncoding(e.schema);
  const learn::TrainSettings settings = csvSettings(o, budget, m, label, encoding, classCount(e.schema));
  plan = describeToNode(plan::makePlan(settings.plan), plan::describePlan<NodeWriter>);
  return e;
}

// Without run options: "auto" categories counted as discovered with every local value (the
// local read's rule), since discovery or hashing depends on the budget.
Expectation unplannedExpectation(const data::CsvScan& scan, const data::Schema& shown) {
  Expectation e;
  e.schema = shown;
  for (std::size_t j : e.schema.featureOrder) {
    data::ColumnSchema& c = e.schema.columns[j];
    if (c.kind != data::ColumnKind::kCategorical) continue;
    if (c.categories == data::CategorySource::kAuto) c.categories = data::CategorySource::kDiscover;
    if (c.categories == data::CategorySource::kDiscover) e.discovered.push_back(j);
  }
  fillExpected(e, scan, 0.5, 0.5);
  return e;
}

// How the positive class is chosen (the core's public rules), by name.
std::string positiveRule(const data::Schema& s, const data::TableOptions& o) {
  switch (s.classSource) {
    case data::ClassSource::kDeclared:
      return o.positive ? "named" : s.classes.size() == 2 ? "second-declared" : "";
    case data::ClassSource::kPositive: return "named";
    case data::ClassSource::kBinary01: return "binary01";
    case data::ClassSource::kDiscover: return s.classes.size() == 2 ? "second-discovered" : "";
  }
  return "";
}

// The multiclass model of 3 or more classes, in words.
std::string multiclassText(const Options& o) {
  if (o.multiclass.value_or(kMulticlass) == plan::Multiclass::kOneVsRest) {
    return "3 or more classes: one binary problem per class (one-vs-rest) under the one (ε, δ)";
  }
  const bool hinge = o.multiclassLoss.value_or(kMulticlassLoss) == plan::JointLoss::kHinge;
  return std::string("3 or more classes: one joint model (multiclass ") + (hinge ? "hinge" : "softmax") +
         ") under the one (ε, δ)";
}

// The label's classes: the source and how it is decided, the positive class and its rule.
Node classesNode(const data::Schema& expected, bool privateSource, const Options& o) {
  const std::string rule = positiveRule(expected, o.table);
  std::vector<std::pair<std::string, Node>> f;
  f.emplace_back("source", text(data::toString(expected.classSource)));
  f.emplace_back("decision", text(privateSource ? "private" : "declared"));
  std::string words;
  if (privateSource) {
    words = "Decided in the run on noisy counts: 1 against the rest when the label's cells are 0, 1 or -1 "
            "(binary-coded), else the classes are discovered under the budget — with two, the positive one is the "
            "second in byte order; " + multiclassText(o) + ".";
  } else if (rule == "named") {
    words = "The class you named, against every other value.";
  } else if (rule == "binary01") {
    words = "1 against the rest (a 0/1 label).";
  } else if (rule == "second-declared") {
    words = "The second of the two declared classes.";
  } else if (expected.classSource == data::ClassSource::kDiscover) {
    words = "The classes are discovered under the budget: with two, the positive one is the second in byte order "
            "(an order, never a count); " + multiclassText(o) + ".";
  } else {
    words = multiclassText(o) + ".";
  }
  f.emplace_back("rule", text(words));
  // Public: declared classes and a named or 0/1 positive class. Discovered ones are the local
  // expectation (below).
  const bool discovered = expected.classSource == data::ClassSource::kDiscover;
  f.emplace_back("classes", discovered ? Node::null() : Node::ofTexts(expected.classes));
  f.emplace_back("positive", discovered || expected.positive.empty() ? Node::null() : text(expected.positive));
  f.emplace_back("positiveRule", text(rule));
  f.emplace_back("local", Node::ofObject({{"classes", Node::ofTexts(expected.classes)},
                                          {"positive", expected.positive.empty() ? Node::null() : text(expected.positive)},
                                          {"estimate", Node::ofBoolean(discovered)}}));
  return Node::ofObject(std::move(f));
}

const char* kindDecision(const data::ColumnSchema& c, const data::SchemaQuestions& q, const data::Schema& s) {
  if (std::int64_t(c.file) == s.label) return s.labelReason == "named" ? "declared" : "public";
  if (c.file < q.kind.size() && q.kind[c.file]) return "private";
  return c.decision.rfind("declared", 0) == 0 ? "declared" : "public";
}

Node columnNode(const data::CsvScan& scan, std::size_t j, const data::Schema* shown, const data::SchemaQuestions& q,
                const Expectation* expected, const data::Encoding* encoding, bool planned, std::size_t maxValues) {
  std::vector<std::pair<std::string, Node>> f;
  f.emplace_back("name", text(scan.columns[j].name));
  if (shown != nullptr) {
    const data::ColumnSchema& c = shown->columns[j];
    const data::ColumnSchema& e = expected != nullptr ? expected->schema.columns[j] : c;
    const char* kd = kindDecision(c, q, *shown);
    const bool used = c.kind == data::ColumnKind::kNumeric || c.kind == data::ColumnKind::kCategorical;
    const bool nullablePrivate = used && j < q.nullable.size() && q.nullable[j];
    f.emplace_back("kind", text(data::toString(c.kind)));
    f.emplace_back("kindDecision", text(kd));
    f.emplace_back("nullable", used ? Node::ofBoolean(c.nullable) : Node::null());
    f.emplace_back("nullableDecision", used ? text(nullablePrivate ? "private" : "declared") : Node::null());
    // Private decisions show the local expectation (exact counts): local, not private.
    f.emplace_back("expectedLocally", Node::ofBoolean(std::string(kd) == "private" || nullablePrivate));
    f.emplace_back("reason", text(c.reason));
    if (used) f.emplace_back("missing", text(data::toString(c.missing)));
    if (c.kind == data::ColumnKind::kNumeric) {
      f.emplace_back("fill", Node::ofNumber(c.fill));
      if (c.range) f.emplace_back("range", Node::ofList({Node::ofNumber((*c.range)[0]), Node::ofNumber((*c.range)[1])}));
    }
    if (c.kind == data::ColumnKind::kCategorical) {
      // With a plan, "auto" is resolved by the budget's public rule; without one it stays auto.
      const data::CategorySource source = planned && expected != nullptr ? e.categories : c.categories;
      f.emplace_back("categories", text(data::toString(source)));
      f.emplace_back("categoriesAuto", Node::ofBoolean(c.categories == data::CategorySource::kAuto));
      if (c.categories == data::CategorySource::kDeclared) f.emplace_back("levels", Node::ofTexts(c.levels));
      if (source == data::CategorySource::kHash) f.emplace_back("buckets", Node::ofNumber(double(c.buckets)));
    }
    std::size_t width = 0;
    bool estimate = false;
    if (encoding != nullptr) {
      for (const data::EncodedBlock& b : encoding->blocks) {
        if (b.file != j) continue;
        width = b.width;
        estimate = b.kind == data::ColumnKind::kCategorical && b.categories == data::CategorySource::kDiscover;
      }
    }
    f.emplace_back("width", Node::ofNumber(double(width)));
    f.emplace_back("widthEstimate", Node::ofBoolean(estimate));
  }
  f.emplace_back("local", summarizeColumn(scan, j, maxValues));
  return Node::ofObject(std::move(f));
}

}  // namespace

Node previewCsv(const data::CsvScan& scan, std::uint64_t n, const Options& o, bool planned, std::size_t maxValues) {
  data::SchemaEvidence exact = data::exactEvidence(scan);
  exact.rows = double(n);
  // The schema as a run would resolve it (the label optional here), its private decisions at
  // the exact counts; a choice that does not fit the table is reported, not thrown.
  std::optional<data::Schema> shown;
  data::SchemaQuestions questions;
  Node schemaError = Node::null();
  try {
    questions = data::schemaQuestions(scan, o.table, data::SchemaPurpose::kSummary);
    shown = data::resolveSchema(scan, o.table, data::SchemaPurpose::kSummary, exact);
  } catch (const Error& e) {
    schemaError = errorNode(e);
  }
  std::optional<Expectation> expected;
  Node plan = Node::null(), planError = Node::null();
  if (shown && planned) {
    try {
      expected = plannedExpectation(scan, n, o, exact, plan);
    } catch (const Error& e) {
      planError = errorNode(e);
    }
  }
  const bool withPlan = expected.has_value();
  if (shown && !expected) expected = unplannedExpectation(scan, *shown);
  std::optional<data::Encoding> encoding;
  if (expected) encoding = data::makeEncoding(expected->schema);

  std::vector<std::pair<std::string, Node>> top;
  top.emplace_back("private", Node::ofBoolean(false));
  top.emplace_back("rows", Node::ofNumber(double(n)));
  top.emplace_back("fileRows", Node::ofNumber(double(scan.rows)));
  std::vector<std::string> header;
  for (const data::ColumnSummary& c : scan.columns) header.push_back(c.name);
  top.emplace_back("header", Node::ofTexts(header));
  top.emplace_back("delimiter", text(std::string(1, scan.dialect.delimiter)));
  top.emplace_back("decimal", text(scan.dialect.decimal == data::kEitherDecimal ? "either" : std::string(1, scan.dialect.decimal)));
  top.emplace_back("encoding", text(scan.dialect.encoding == data::CsvEncoding::kUtf8 ? "utf-8" : "latin1"));
  Node label = Node::null(), classes = Node::null();
  std::vector<std::string> identifiers;
  if (shown) {
    if (shown->label >= 0) {
      const data::ColumnSchema& c = *shown->labelColumn();
      label = Node::ofObject({{"column", text(c.name)},
                              {"reason", text(shown->labelReason)},
                              {"decision", text(shown->labelReason == "named" ? "declared" : "public")}});
      classes = classesNode(expected->schema, questions.labelClasses, o);
    }
    for (const data::ColumnSchema& c : shown->columns) {
      if (c.kind == data::ColumnKind::kIgnore && c.decision.rfind("public", 0) == 0) identifiers.push_back(c.name);
    }
  }
  top.emplace_back("label", std::move(label));
  std::vector<std::string> candidates;
  for (std::size_t j : data::labelLikeColumns(header)) candidates.push_back(header[j]);
  top.emplace_back("labelCandidates", Node::ofTexts(candidates));
  top.emplace_back("identifiers", Node::ofTexts(identifiers));
  top.emplace_back("classes", std::move(classes));
  std::vector<Node> columns;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) {
    columns.push_back(columnNode(scan, j, shown ? &*shown : nullptr, questions, expected ? &*expected : nullptr,
                                 encoding ? &*encoding : nullptr, withPlan, maxValues));
  }
  top.emplace_back("columns", Node::ofList(std::move(columns)));
  if (encoding) {
    const bool estimate = expected->estimated;
    top.emplace_back("modelColumns", Node::ofObject({
        {"width", Node::ofNumber(double(encoding->width))},
        {"estimate", Node::ofBoolean(estimate)},
        {"featureNames", Node::ofTexts(encoding->names())},
        {"note", text(estimate ? "an estimate: discovered levels and classes are the local values whose exact count "
                                 "exceeds the budget's threshold (local, not private); the run finds them on noisy counts"
                               : "the run's encoding if its private decisions agree with the exact counts")}}));
  } else {
    top.emplace_back("modelColumns", Node::null());
  }
  top.emplace_back("plan", std::move(plan));
  top.emplace_back("planError", std::move(planError));
  top.emplace_back("schemaError", std::move(schemaError));
  std::vector<Node> rows;
  for (const auto& row : scan.preview) rows.push_back(Node::ofTexts(row));
  std::vector<Node> lines;
  for (std::int64_t line : scan.previewLines) lines.push_back(Node::ofNumber(double(line)));
  top.emplace_back("local", Node::ofObject({
      {"note", text("local, not private: exact facts of your file and the expectation of the run's private decisions, "
                    "for your eyes only; never part of a model file or a report")},
      {"preview", Node::ofList(std::move(rows))},
      {"previewLines", Node::ofList(std::move(lines))}}));
  return Node::ofObject(std::move(top));
}

// ---- CsvPreview ----

namespace {
data::CsvOptions previewCsvOptions(const Options& o, std::size_t previewRows) {
  data::validateTableOptions(o.table);
  if (previewRows > 1000) throwBadParameter("previewRows", "at most 1000", double(previewRows));
  data::CsvOptions csv = data::csvOptionsFor(o.table);
  csv.previewRows = previewRows;
  return csv;
}
}  // namespace

CsvPreview::CsvPreview(Options options, bool planned, std::optional<std::vector<std::uint64_t>> rows,
                       std::size_t previewRows)
    : options_(withSelectorRules(std::move(options))), planned_(planned), reader_(previewCsvOptions(options_, previewRows), std::move(rows)) {}

CsvPreview::~CsvPreview() = default;

void CsvPreview::feed(const char* data, std::size_t size) {
  if (done_) throw Error(ErrorCode::kInternal, "", "CsvPreview: feed() after the scan");
  reader_.feed(data, size);
}

void CsvPreview::endPass() {
  if (done_) throw Error(ErrorCode::kInternal, "", "CsvPreview: endPass() after the scan");
  reader_.finishScan();
  done_ = true;
}

std::uint64_t CsvPreview::bytes() const { return reader_.bytes(); }
std::uint64_t CsvPreview::rows() const { return reader_.rowsRead(); }

Node CsvPreview::preview(std::size_t maxValues) const {
  if (!done_) throw Error(ErrorCode::kInternal, "", "CsvPreview: preview() before the scan");
  return previewCsv(reader_.scan(), reader_.selectedRows(), options_, planned_, maxValues);
}

}  // namespace dpmargin::run
