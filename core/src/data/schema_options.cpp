// The schema's options and JSON (schema.hpp, docs/reference/DATA_PIPELINE.md): the names of
// kinds and strategies, a schema file merged into the options, their validation, and
// describeSchema — the format a run writes and --schema reads.
#include "dpmargin/data/schema.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "data/schema_detail.hpp"
#include "dpmargin/data/names.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin::data {
namespace {

using detail::bad;
using detail::quoted;




template <class E, std::size_t N>
E parseName(const std::string& v, const std::string& parameter, const char* const (&names)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (v == names[i]) return static_cast<E>(i);
  }
  std::string list;
  for (std::size_t i = 0; i < N; ++i) list += std::string(i ? ", \"" : "\"") + names[i] + "\"";
  bad(parameter, parameter + " must be one of " + list + ", but is " + quoted(v));
}

const char* const kKindNames[] = {"ignore", "numeric", "categorical", "label"};
const char* const kMissingNames[] = {"error", "constant", "indicator", "level"};
const char* const kCategoryNames[] = {"declared", "discover", "hash", "auto"};
const char* const kClassNames[] = {"declared", "binary01", "positive", "discover"};


void checkLevels(const std::vector<std::string>& levels, const std::string& parameter,
                 std::size_t max) {
  if (levels.empty()) bad(parameter, parameter + " must be a non-empty list, but is empty");
  if (levels.size() > max) {
    bad(parameter, parameter + " must be a list of at most " + std::to_string(max) + " values, but lists " +
                       std::to_string(levels.size()));
  }
  std::unordered_set<std::string> seen;
  for (const std::string& v : levels) {
    if (!seen.insert(v).second) bad(parameter, parameter + " must be a list without repeats, but repeats " + quoted(v));
  }
}

void checkNames(const std::vector<std::string>& names, const std::string& parameter) {
  std::unordered_set<std::string> seen;
  for (const std::string& v : names) {
    if (!seen.insert(v).second) bad(parameter, parameter + " must be a list without repeats, but repeats " + quoted(v));
  }
}

// ---- schema objects (describeSchema's format) ----

std::optional<char> oneChar(const Node& n, const std::string& name, const char* allowed) {
  const std::string& t = nodeText(n, name);
  std::string shown = t == "\t" ? "\"\\t\"" : quoted(t);
  if (t.size() != 1 || std::string(allowed).find(t[0]) == std::string::npos) {
    std::string list;
    for (const char* a = allowed; *a; ++a) list += std::string(list.empty() ? "" : ", ") + (*a == '\t' ? "\"\\t\"" : "\"" + std::string(1, *a) + "\"");
    bad(name, name + " must be one of " + list + ", but is " + shown);
  }
  return t[0];
}

template <class T>
void mergeField(std::optional<T>& into, const T& value, const std::string& name) {
  if (into && !(*into == value)) {
    bad(name, name + " must be given once, or the same as an option and in the schema, but they differ");
  }
  into = value;
}

ColumnChoice parseColumn(const Node& n, const std::string& name) {
  nodeObject(n, name, {"name", "kind", "missing", "fill", "categories", "levels", "buckets",
                       "range", "nullable", "reason", "decision"});
  ColumnChoice c;
  const Node* v = n.field("name");
  if (!v) bad(name + ".name", name + ".name must be a column name, but is unset");
  c.name = nodeText(*v, name + ".name");
  if ((v = n.field("kind"))) c.kind = parseColumnKind(nodeText(*v, name + ".kind"), name + ".kind");
  if ((v = n.field("missing"))) c.missing = parseMissingStrategy(nodeText(*v, name + ".missing"), name + ".missing");
  if ((v = n.field("fill"))) c.fill = nodeNumber(*v, name + ".fill");
  if ((v = n.field("categories"))) c.categories = parseCategorySource(nodeText(*v, name + ".categories"), name + ".categories");
  if ((v = n.field("levels"))) c.levels = nodeTexts(*v, name + ".levels");
  if ((v = n.field("range"))) {
    const std::vector<Node>& r = nodeList(*v, name + ".range");
    if (r.size() != 2) bad(name + ".range", name + ".range must be [lo, hi], but has " + std::to_string(r.size()) + " values");
    c.range = std::array<double, 2>{nodeNumber(r[0], name + ".range[0]"), nodeNumber(r[1], name + ".range[1]")};
  }
  if ((v = n.field("nullable"))) c.nullable = nodeBoolean(*v, name + ".nullable");
  // "buckets", "reason" and "decision" are written by describeSchema; buckets is the table-wide
  // hashBuckets, reason is informative.
  return c;
}

}  // namespace

const char* toString(ColumnKind v) noexcept { return kKindNames[static_cast<int>(v)]; }
const char* toString(MissingStrategy v) noexcept { return kMissingNames[static_cast<int>(v)]; }
const char* toString(CategorySource v) noexcept { return kCategoryNames[static_cast<int>(v)]; }
const char* toString(ClassSource v) noexcept { return kClassNames[static_cast<int>(v)]; }
ColumnKind parseColumnKind(const std::string& v, const std::string& parameter) {
  return parseName<ColumnKind>(v, parameter, kKindNames);
}
MissingStrategy parseMissingStrategy(const std::string& v, const std::string& parameter) {
  return parseName<MissingStrategy>(v, parameter, kMissingNames);
}
CategorySource parseCategorySource(const std::string& v, const std::string& parameter) {
  return parseName<CategorySource>(v, parameter, kCategoryNames);
}

void mergeSchemaNode(TableOptions& o, const Node& schema) {
  const std::string s = "schema";
  nodeObject(schema, s, {"format", "version", "csv", "label", "classes", "classSource", "classDecision",
                         "positive", "positiveRule", "missing", "fill", "categories", "maxLevels",
                         "hashBuckets", "columns"});
  const Node* v;
  if ((v = schema.field("format")) && nodeText(*v, s + ".format") != "dpmargin-schema") {
    bad(s + ".format", s + ".format must be \"dpmargin-schema\", but is " + v->shown());
  }
  if ((v = schema.field("version")) && nodeNumber(*v, s + ".version") != 1) {
    bad(s + ".version", s + ".version must be 1, but is " + v->shown());
  }
  if ((v = schema.field("csv"))) {
    const Node& c = nodeObject(*v, s + ".csv", {"delimiter", "decimal", "encoding", "missingTokens"});
    const Node* f;
    if ((f = c.field("delimiter"))) mergeField(o.delimiter, *oneChar(*f, s + ".csv.delimiter", ",;\t|"), "delimiter");
    // "either": the default rule (each cell read with '.' or ','), i.e. nothing declared.
    if ((f = c.field("decimal")) && !(f->kind == Node::Kind::kText && f->text == "either")) {
      mergeField(o.decimal, *oneChar(*f, s + ".csv.decimal", ".,"), "decimal");
    }
    if ((f = c.field("encoding"))) {
      const std::string& e = nodeText(*f, s + ".csv.encoding");
      if (e != "utf-8" && e != "latin1") bad(s + ".csv.encoding", s + ".csv.encoding must be \"utf-8\" or \"latin1\", but is " + quoted(e));
      mergeField(o.encoding, e == "utf-8" ? CsvEncoding::kUtf8 : CsvEncoding::kLatin1, "encoding");
    }
    if ((f = c.field("missingTokens"))) mergeField(o.missingTokens, nodeTexts(*f, s + ".csv.missingTokens"), "missingTokens");
  }
  if ((v = schema.field("label"))) mergeField(o.label, nodeText(*v, s + ".label"), "label");
  const Node* source = schema.field("classSource");
  const std::string classSource = source ? nodeText(*source, s + ".classSource") : "";
  if (source && classSource != "declared" && classSource != "binary01" && classSource != "positive" &&
      classSource != "discover") {
    bad(s + ".classSource", s + ".classSource must be one of \"declared\", \"binary01\", \"positive\", \"discover\", but is " + quoted(classSource));
  }
  if ((v = schema.field("classes"))) {
    // Classes written by a run (discovered, or binary01) are public now: reading them back
    // declares them.
    if (classSource != "positive") mergeField(o.classes, nodeTexts(*v, s + ".classes"), "classes");
  } else if (classSource == "discover") {
    mergeField(o.discoverClasses, true, "discoverClasses");
  }
  if ((v = schema.field("positive"))) {
    const std::string p = nodeText(*v, s + ".positive");
    if (classSource == "positive" || !schema.field("classes")) mergeField(o.positive, p, "positive");
  }
  if ((v = schema.field("missing"))) mergeField(o.missing, parseMissingStrategy(nodeText(*v, s + ".missing"), s + ".missing"), "missing");
  if ((v = schema.field("fill"))) mergeField(o.fill, nodeNumber(*v, s + ".fill"), "fill");
  if ((v = schema.field("categories"))) mergeField(o.categories, parseCategorySource(nodeText(*v, s + ".categories"), s + ".categories"), "categories");
  if ((v = schema.field("maxLevels"))) mergeField(o.maxLevels, requireCount("schema.maxLevels", nodeNumber(*v, s + ".maxLevels"), 1), "maxLevels");
  if ((v = schema.field("hashBuckets"))) mergeField(o.hashBuckets, requireCount("schema.hashBuckets", nodeNumber(*v, s + ".hashBuckets"), 1), "hashBuckets");
  if ((v = schema.field("columns"))) {
    const std::vector<Node>& list = nodeList(*v, s + ".columns");
    for (std::size_t i = 0; i < list.size(); ++i) {
      ColumnChoice c = parseColumn(list[i], s + ".columns[" + std::to_string(i) + "]");
      // A column written by a run: its discovered levels are public now (declared), and a
      // label column is named by `label`.
      if (c.kind == ColumnKind::kLabel) {
        mergeField(o.label, c.name, "label");
        c.kind.reset();
      }
      if (c.levels && (!c.categories || *c.categories == CategorySource::kDiscover)) {
        c.categories = CategorySource::kDeclared;
      }
      if (c.categories == CategorySource::kDeclared && !c.levels) {
        bad(s + ".columns[" + std::to_string(i) + "].levels",
            s + ".columns[" + std::to_string(i) + "].levels must be the list of declared categories, but is unset");
      }
      bool merged = false;
      for (ColumnChoice& existing : o.columns) {
        if (existing.name != c.name) continue;
        const std::string p = "columns." + c.name;
        if (c.kind) mergeField(existing.kind, *c.kind, p + ".kind");
        if (c.missing) mergeField(existing.missing, *c.missing, p + ".missing");
        if (c.fill) mergeField(existing.fill, *c.fill, p + ".fill");
        if (c.categories) mergeField(existing.categories, *c.categories, p + ".categories");
        if (c.levels) mergeField(existing.levels, *c.levels, p + ".levels");
        if (c.range) mergeField(existing.range, *c.range, p + ".range");
        if (c.nullable) mergeField(existing.nullable, *c.nullable, p + ".nullable");
        merged = true;
      }
      if (!merged) o.columns.push_back(std::move(c));
    }
  }
}

void validateTableOptions(const TableOptions& o) {
  if (o.label && o.label->empty()) bad("label", "label must be a column name, but is \"\"");
  if (o.classes) {
    checkLevels(*o.classes, "classes", kMaxClasses);
    if (o.classes->size() < 2) bad("classes", "classes must be a list of 2 to 50 classes, but lists 1");
    if (o.discoverClasses == true) bad("discoverClasses", "discoverClasses must be unset or false when classes are declared, but is true");
  }
  if (o.positive) {
    if (o.classes && std::find(o.classes->begin(), o.classes->end(), *o.positive) == o.classes->end()) {
      bad("positive", "positive must be one of the declared classes, but is " + quoted(*o.positive));
    }
    if (o.classes && o.classes->size() > 2) {
      bad("positive", "positive must be unset with more than 2 declared classes (one-vs-rest trains every class), but is " + quoted(*o.positive));
    }
    if (o.discoverClasses == true) bad("discoverClasses", "discoverClasses must be unset or false when positive is given, but is true");
  }
  if ((o.classes || o.positive || o.discoverClasses) && !o.label) {
    // The label may still be proposed by its header name: checked by resolveSchema.
  }
  if (o.features) {
    if (o.features->empty()) bad("features", "features must be a non-empty list of column names, but is empty");
    checkNames(*o.features, "features");
  }
  checkNames(o.ignore, "ignore");
  if (o.missing == MissingStrategy::kLevel) {
    bad("missing", "missing must be one of \"indicator\", \"constant\", \"error\" (the numeric columns' default), but is \"level\"");
  }
  if (o.fill && !std::isfinite(*o.fill)) throwBadParameter("fill", "finite", *o.fill);
  if (o.categories == CategorySource::kDeclared) {
    bad("categories", "categories must be \"auto\", \"discover\" or \"hash\" (declare a column's levels in schema.columns), but is \"declared\"");
  }
  if (o.maxLevels && (*o.maxLevels < 1 || *o.maxLevels > kMaxLevelsLimit)) {
    throwBadParameter("maxLevels", "an integer from 1 to " + std::to_string(kMaxLevelsLimit), double(*o.maxLevels));
  }
  if (o.hashBuckets && (*o.hashBuckets < 2 || *o.hashBuckets > kMaxHashBuckets)) {
    throwBadParameter("hashBuckets", "an integer from 2 to " + std::to_string(kMaxHashBuckets), double(*o.hashBuckets));
  }
  if (o.delimiter && std::string(",;\t|").find(*o.delimiter) == std::string::npos) {
    bad("delimiter", "delimiter must be one of \",\", \";\", \"\\t\", \"|\"");
  }
  if (o.decimal && *o.decimal != '.' && *o.decimal != ',') bad("decimal", "decimal must be \".\" or \",\"");
  if (o.decimal == ',' && o.delimiter == ',') bad("decimal", "decimal must be \".\" when the delimiter is \",\"");
  if (o.missingTokens) {
    std::unordered_set<std::string> seen;
    for (const std::string& t : *o.missingTokens) {
      if (!seen.insert(t).second) bad("missingTokens", "missingTokens must be a list without repeats, but repeats " + quoted(t));
      if (t.size() > 64) bad("missingTokens", "missingTokens must be tokens of at most 64 bytes, but one has " + std::to_string(t.size()));
    }
  }
  std::unordered_set<std::string> seen;
  for (const ColumnChoice& c : o.columns) {
    const std::string p = "columns." + c.name;
    if (!seen.insert(c.name).second) bad("columns", "columns must name each column once, but names " + quoted(c.name) + " twice");
    if (c.kind == ColumnKind::kLabel) bad(p + ".kind", p + ".kind must be \"ignore\", \"numeric\" or \"categorical\" (name the label with label), but is \"label\"");
    const bool numeric = c.kind == ColumnKind::kNumeric;
    const bool categorical = c.kind == ColumnKind::kCategorical;
    if (c.missing == MissingStrategy::kLevel && numeric) bad(p + ".missing", p + ".missing must be \"indicator\", \"constant\" or \"error\" for a numeric column, but is \"level\"");
    if ((c.missing == MissingStrategy::kConstant || c.missing == MissingStrategy::kIndicator) && categorical) {
      bad(p + ".missing", p + ".missing must be \"level\" or \"error\" for a categorical column, but is " + quoted(toString(*c.missing)));
    }
    if (c.fill && !std::isfinite(*c.fill)) throwBadParameter(p + ".fill", "finite", *c.fill);
    if (c.levels) {
      checkLevels(*c.levels, p + ".levels", kMaxDeclaredCategories);
      if (c.categories && *c.categories != CategorySource::kDeclared) {
        bad(p + ".categories", p + ".categories must be \"declared\" when levels are given, but is " + quoted(toString(*c.categories)));
      }
      if (numeric) bad(p + ".levels", p + ".levels must be unset for a numeric column, but is set");
    } else if (c.categories == CategorySource::kDeclared) {
      bad(p + ".levels", p + ".levels must be the list of declared categories, but is unset");
    }
    if (c.range) {
      if (categorical) bad(p + ".range", p + ".range must be unset for a categorical column, but is set");
      const auto& r = *c.range;
      if (!std::isfinite(r[0]) || !std::isfinite(r[1]) || !(r[1] > r[0])) {
        bad(p + ".range", p + ".range must be [lo, hi] with finite lo < hi, but is [" + formatValue(r[0]) + ", " + formatValue(r[1]) + "]");
      }
    }
  }
}

CsvOptions csvOptionsFor(const TableOptions& o) {
  CsvOptions c;
  if (o.delimiter) c.delimiter = *o.delimiter;
  if (o.decimal) c.decimal = *o.decimal;
  if (o.encoding) c.encoding = *o.encoding;
  if (o.missingTokens) c.missingTokens = *o.missingTokens;
  return c;
}

namespace {
Node text(const std::string& s) { return Node::ofText(s); }
}  // namespace

Node describeSchema(const Schema& s) {
  std::vector<std::pair<std::string, Node>> top;
  top.emplace_back("format", text("dpmargin-schema"));
  top.emplace_back("version", Node::ofNumber(1));
  std::vector<std::pair<std::string, Node>> csv;
  csv.emplace_back("delimiter", text(std::string(1, s.csv.delimiter ? s.csv.delimiter : ',')));
  csv.emplace_back("decimal", text(s.csv.decimal == kEitherDecimal ? "either" : std::string(1, s.csv.decimal ? s.csv.decimal : '.')));
  csv.emplace_back("encoding", text(s.csv.encoding == CsvEncoding::kUtf8 ? "utf-8" : "latin1"));
  csv.emplace_back("missingTokens", Node::ofTexts(s.csv.missingTokens));
  top.emplace_back("csv", Node::ofObject(std::move(csv)));
  if (s.label >= 0) {
    top.emplace_back("label", text(s.columns[static_cast<std::size_t>(s.label)].name));
    top.emplace_back("classSource", text(toString(s.classSource)));
    if (!s.classDecision.empty()) top.emplace_back("classDecision", text(s.classDecision));
    if (!s.classes.empty()) top.emplace_back("classes", Node::ofTexts(s.classes));
    if (!s.positive.empty()) top.emplace_back("positive", text(s.positive));
    if (!s.positiveRule.empty()) top.emplace_back("positiveRule", text(s.positiveRule));
  }
  top.emplace_back("maxLevels", Node::ofNumber(double(s.maxLevels)));
  top.emplace_back("hashBuckets", Node::ofNumber(double(s.hashBuckets)));
  std::vector<Node> columns;
  for (const ColumnSchema& c : s.columns) {
    std::vector<std::pair<std::string, Node>> f;
    f.emplace_back("name", text(c.name));
    f.emplace_back("kind", text(toString(c.kind)));
    if (c.kind == ColumnKind::kNumeric || c.kind == ColumnKind::kCategorical) {
      f.emplace_back("missing", text(toString(c.missing)));
      f.emplace_back("nullable", Node::ofBoolean(c.nullable));
    }
    if (c.kind == ColumnKind::kNumeric) {
      f.emplace_back("fill", Node::ofNumber(c.fill));
      if (c.range) f.emplace_back("range", Node::ofList({Node::ofNumber((*c.range)[0]), Node::ofNumber((*c.range)[1])}));
    }
    if (c.kind == ColumnKind::kCategorical) {
      f.emplace_back("categories", text(toString(c.categories)));
      if (c.categories == CategorySource::kDeclared || c.categories == CategorySource::kDiscover) {
        if (c.categories == CategorySource::kDeclared || !c.levels.empty()) f.emplace_back("levels", Node::ofTexts(c.levels));
      }
      if (c.categories == CategorySource::kHash) f.emplace_back("buckets", Node::ofNumber(double(c.buckets)));
    }
    f.emplace_back("reason", text(c.reason));
    if (!c.decision.empty()) f.emplace_back("decision", text(c.decision));
    columns.push_back(Node::ofObject(std::move(f)));
  }
  top.emplace_back("columns", Node::ofList(std::move(columns)));
  return Node::ofObject(std::move(top));
}

}  // namespace dpmargin::data
