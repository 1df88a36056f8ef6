// The schema of a table (schema.hpp, docs/reference/DATA_PIPELINE.md).
#include "dpmargin/data/schema.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "dpmargin/data/names.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin::data {
namespace {

std::string quoted(const std::string& s) { return Node::ofText(s).shown(); }

[[noreturn]] void bad(const std::string& parameter, const std::string& message) {
  throw Error(ErrorCode::kBadParameter, parameter, message);
}

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

std::string folded(const std::string& name) { return foldName(name); }

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

const ColumnSchema* Schema::labelColumn() const {
  return label >= 0 ? &columns[static_cast<std::size_t>(label)] : nullptr;
}

std::size_t Schema::discoveredFeatureColumns() const {
  std::size_t m = 0;
  for (std::size_t j : featureOrder) {
    m += columns[j].kind == ColumnKind::kCategorical && columns[j].categories == CategorySource::kDiscover;
  }
  return m;
}

std::vector<std::size_t> labelLikeColumns(const std::vector<std::string>& header) {
  static const std::unordered_set<std::string> kNames = {
      "label", "labels", "target", "targets", "class", "classes", "y", "outcome", "response",
      "classlabel", "targetclass", "targetvariable", "truth", "groundtruth"};
  std::vector<std::size_t> out;
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (kNames.count(folded(header[j])) != 0) out.push_back(j);
  }
  return out;
}

std::int64_t proposeLabel(const std::vector<std::string>& header) {
  const std::vector<std::size_t> found = labelLikeColumns(header);
  // None, or several: the user must say which.
  return found.size() == 1 ? static_cast<std::int64_t>(found[0]) : -1;
}

bool identifierName(const std::string& name) {
  const std::string f = folded(name);
  if (f.empty() || f == "id" || f == "index" || f == "rowid" || f == "rownames" || f == "rowname" ||
      f == "rownumber" || f == "uuid" || f == "guid" || f == "key") {
    return true;
  }
  if (f.rfind("unnamed", 0) == 0) {  // pandas: "Unnamed: 0"
    bool digits = f.size() > 7;
    for (std::size_t i = 7; i < f.size(); ++i) digits = digits && (std::isdigit(static_cast<unsigned char>(f[i])) || f[i] == ':');
    if (digits) return true;
  }
  // "customer_id", "customer id", "customerId", "CustomerID" (but not "paid", "valid", "fluid").
  const std::size_t n = name.size();
  if (n > 3) {
    const std::string tail = name.substr(n - 3);
    if (tail == "_id" || tail == " id" || tail == "-id" || tail == ".id" || tail == "_ID" || tail == " ID" ||
        tail == "-ID" || tail == ".ID") {
      return true;
    }
  }
  if (n > 2) {
    const char a = name[n - 2], b = name[n - 1];
    const char before = name[n - 3];
    if (a == 'I' && (b == 'd' || b == 'D') && std::islower(static_cast<unsigned char>(before))) return true;
  }
  return false;
}

namespace {

// The one resolver: the public decisions from the header and the options, and the others from
// `evidence` (exact or noisy counts); with `evidence` null it only finds the questions (what is
// read off the cells) and stops before the decisions.
Schema resolve(const CsvScan& scan, const TableOptions& o, SchemaPurpose purpose,
               const SchemaEvidence* evidence, SchemaQuestions* questions) {
  validateTableOptions(o);
  Schema s;
  s.csv = scan.options;
  s.csv.delimiter = scan.dialect.delimiter;
  s.csv.decimal = scan.dialect.decimal;
  s.csv.encoding = scan.dialect.encoding;
  s.maxLevels = o.maxLevels.value_or(kDefaultMaxLevels);
  const std::uint64_t buckets = o.hashBuckets.value_or(kDefaultHashBuckets);
  s.hashBuckets = buckets;
  std::vector<std::string> header;
  std::unordered_map<std::string, std::size_t> position;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) {
    header.push_back(scan.columns[j].name);
    position.emplace(scan.columns[j].name, j);
  }
  auto listHeader = [&]() { return listColumns(header); };
  auto require = [&](const std::string& name, const std::string& parameter) {
    auto it = position.find(name);
    if (it == position.end()) {
      bad(parameter, parameter + " must be columns of the header (" + listHeader() + "), but names " + quoted(name) +
                         didYouMean(name, header));
    }
    return it->second;
  };

  // The label: named, or proposed by its header name.
  if (o.label) {
    s.label = static_cast<std::int64_t>(requireColumn(header, *o.label, "label", "label column"));
    s.labelReason = "named";
  } else if (purpose == SchemaPurpose::kTrain || purpose == SchemaPurpose::kSummary) {
    s.label = proposeLabel(header);
    s.labelReason = s.label >= 0 ? "header name" : "";
    if (s.label < 0 && purpose == SchemaPurpose::kTrain) {
      const std::vector<std::size_t> several = labelLikeColumns(header);
      if (several.size() >= 2) {
        std::string names;
        for (std::size_t k = 0; k < several.size(); ++k) names += (k ? ", " : "") + quoted(header[several[k]]);
        throw Error(ErrorCode::kLabelNotFound, "label",
                    "name the label column (label, --label): " + std::to_string(several.size()) +
                        " header names read like a label (" + names + "), so none is chosen");
      }
      throw Error(ErrorCode::kLabelNotFound, "label",
                  "name the label column (label, --label): no header name says which column it is "
                  "(label, target, class, y, outcome, …); the columns are " + listHeader());
    }
  }
  if (s.label < 0 && (o.classes || o.positive || o.discoverClasses)) {
    const char* which = o.classes ? "classes" : o.positive ? "positive" : "discoverClasses";
    bad(which, std::string(which) + " must be given only with a label column, but no label column is named or proposed");
  }

  std::unordered_map<std::string, const ColumnChoice*> choice;
  for (const ColumnChoice& c : o.columns) {
    require(c.name, "columns");
    choice.emplace(c.name, &c);
  }
  for (const std::string& name : o.ignore) {
    const std::size_t j = require(name, "ignore");
    if (static_cast<std::int64_t>(j) == s.label) bad("ignore", "ignore must be columns other than the label, but names " + quoted(name));
  }
  std::unordered_set<std::string> features;
  if (o.features) {
    for (const std::string& name : *o.features) {
      const std::size_t j = require(name, "features");
      if (static_cast<std::int64_t>(j) == s.label) bad("features", "features must be columns other than the label, but names " + quoted(name));
      if (std::find(o.ignore.begin(), o.ignore.end(), name) != o.ignore.end()) {
        bad("ignore", "ignore must be columns not listed in features, but names " + quoted(name));
      }
      features.insert(name);
    }
  }

  if (questions) {
    questions->kind.assign(scan.columns.size(), false);
    questions->nullable.assign(scan.columns.size(), false);
    questions->label = s.label;
    questions->labelClasses = s.label >= 0 && !o.classes && !o.positive && !o.discoverClasses;
  }
  const double n = evidence ? evidence->rows : 0.0;
  const std::string decided = evidence == nullptr ? "" : evidence->exact ? "local" : "private";
  for (std::size_t j = 0; j < scan.columns.size(); ++j) {
    ColumnSchema c;
    c.name = scan.columns[j].name;
    c.file = j;
    const auto found = choice.find(c.name);
    const ColumnChoice* ch = found == choice.end() ? nullptr : found->second;
    if (static_cast<std::int64_t>(j) == s.label) {
      c.kind = ColumnKind::kLabel;
      c.reason = s.labelReason;
      c.decision = "public";
      c.missing = MissingStrategy::kError;
      if (ch && ch->kind && *ch->kind != ColumnKind::kLabel) {
        bad("columns." + c.name + ".kind", "columns." + c.name + ".kind must be unset for the label column, but is " + quoted(toString(*ch->kind)));
      }
      s.columns.push_back(std::move(c));
      continue;
    }
    // The kind: the caller's choice, else header rules (public), else the cells (evidence).
    bool fromCells = false;
    if (ch && ch->kind) {
      c.kind = *ch->kind;
      c.reason = "declared";
      c.decision = "declared";
    } else if (std::find(o.ignore.begin(), o.ignore.end(), c.name) != o.ignore.end()) {
      c.kind = ColumnKind::kIgnore;
      c.reason = "ignore";
      c.decision = "declared";
    } else if (o.features && features.count(c.name) == 0) {
      c.kind = ColumnKind::kIgnore;
      c.reason = "not in features";
      c.decision = "declared";
    } else if (!o.features && identifierName(c.name)) {
      c.kind = ColumnKind::kIgnore;
      c.reason = "header name reads like an identifier";
      c.decision = "public";
    } else {
      fromCells = true;
      if (questions) questions->kind[j] = true;
    }
    const bool nullableFromCells = !(ch && ch->nullable) && (fromCells || c.kind == ColumnKind::kNumeric ||
                                                             c.kind == ColumnKind::kCategorical);
    if (questions && nullableFromCells) questions->nullable[j] = true;
    if (evidence == nullptr) {
      s.columns.push_back(std::move(c));
      continue;
    }
    const CellEvidence& e = evidence->columns.at(j);
    const double present = n - e.missing;
    if (fromCells) {
      c.decision = decided;
      // Left out only when the count says so beyond its noise (keeping an empty column costs
      // nothing but a constant feature; losing a real one costs its information).
      if (present < kEmptyShare * n - kNullableSds * evidence->sigma && !(o.features && features.count(c.name))) {
        c.kind = ColumnKind::kIgnore;
        c.reason = "almost no values";
      } else if (!(e.text - kTextShare * present > kTextSds * evidence->sigma * std::sqrt(1.0 + kTextShare * kTextShare))) {
        // Numeric unless text is most of the present cells by kTextSds sds of that statistic
        // (text − ½·present: two noisy counts): a nearly empty column, or noise alone, is
        // numbers (filled), never a category of noise. The margin leans to numeric because
        // a numeric column hashed into buckets costs more (its values lost, 16 noisy features
        // added) than a text column read as missing (its values lost).
        c.kind = ColumnKind::kNumeric;
        c.reason = "numbers";
      } else {
        c.kind = ColumnKind::kCategorical;
        c.reason = "text";
      }
    }
    if (c.kind == ColumnKind::kIgnore) {
      s.columns.push_back(std::move(c));
      continue;
    }
    const bool numeric = c.kind == ColumnKind::kNumeric;
    // A numeric column whose kind was read off the cells reads its text and non-finite cells
    // as missing (a public rule: the data never refuses or reshapes the run); a declared one
    // refuses them (the caller's contract).
    c.textAsMissing = numeric && fromCells;
    if (ch && ch->nullable) {
      c.nullable = *ch->nullable;
    } else {
      // Missing cells — text too, in a numeric column that reads it as missing — above the
      // noise: kNullableSds sds of that count (one noisy count, or the sum of two).
      const double missing = e.missing + (c.textAsMissing ? e.text : 0.0);
      const double sd = evidence->sigma * (c.textAsMissing ? std::sqrt(2.0) : 1.0);
      c.nullable = missing > kNullableSds * sd;
      if (c.decision == "declared" || c.decision == "public") c.decision += ", nullable " + decided;
    }
    if (numeric) {
      c.missing = ch && ch->missing ? *ch->missing : o.missing.value_or(MissingStrategy::kIndicator);
      if (c.missing == MissingStrategy::kLevel) {
        bad("columns." + c.name + ".missing", "columns." + c.name + ".missing must be \"indicator\", \"constant\" or \"error\" for a numeric column, but is \"level\"");
      }
      c.fill = ch && ch->fill ? *ch->fill : o.fill.value_or(0.0);
      if (ch && ch->range) c.range = ch->range;
      if (ch && (ch->levels || ch->categories)) {
        bad("columns." + c.name + ".categories", "columns." + c.name + ".categories must be unset for a numeric column, but is set");
      }
    } else {
      c.missing = ch && ch->missing ? *ch->missing : MissingStrategy::kLevel;
      if (c.missing != MissingStrategy::kLevel && c.missing != MissingStrategy::kError) {
        bad("columns." + c.name + ".missing", "columns." + c.name + ".missing must be \"level\" or \"error\" for a categorical column, but is " + quoted(toString(c.missing)));
      }
      if (ch && ch->range) bad("columns." + c.name + ".range", "columns." + c.name + ".range must be unset for a categorical column, but is set");
      if (ch && ch->levels) {
        c.categories = CategorySource::kDeclared;
        c.levels = *ch->levels;
      } else {
        c.categories = ch && ch->categories ? *ch->categories : o.categories.value_or(CategorySource::kAuto);
      }
      c.buckets = buckets;
    }
    s.columns.push_back(std::move(c));
  }
  if (evidence == nullptr) return s;

  // Model order: `features` when given, else file order.
  if (o.features) {
    for (const std::string& name : *o.features) {
      const std::size_t j = position.at(name);
      if (s.columns[j].kind != ColumnKind::kIgnore) s.featureOrder.push_back(j);
    }
  } else {
    for (std::size_t j = 0; j < s.columns.size(); ++j) {
      if (s.columns[j].kind == ColumnKind::kNumeric || s.columns[j].kind == ColumnKind::kCategorical) {
        s.featureOrder.push_back(j);
      }
    }
  }
  if (s.featureOrder.empty() && purpose != SchemaPurpose::kSummary && !o.features && o.ignore.empty() &&
      o.columns.empty()) {
    // Nothing the user chose left the columns out: say what the defaults did (no option is at fault).
    if (s.columns.size() == 1 && s.label == 0) {
      throw Error(ErrorCode::kCsvParse, "",
                  "no feature columns: the file has only the label column " + quoted(s.columns[0].name));
    }
    std::string left;
    for (const ColumnSchema& c : s.columns) {
      if (c.kind != ColumnKind::kIgnore) continue;
      left += (left.empty() ? "" : ", ") + quoted(c.name) + " (" + c.reason + ")";
    }
    throw Error(ErrorCode::kCsvParse, "",
                "no feature columns: every column but the label is left out by default: " + left +
                    "; name the columns to use in features (--features)");
  }
  if (s.featureOrder.empty() && purpose != SchemaPurpose::kSummary) {
    bad(o.features ? "features" : "ignore",
        std::string(o.features ? "features" : "ignore") + " must leave at least one feature column, but none is left (header: " + listHeader() + ")");
  }

  // The classes: declared, one class against the rest, binary-coded (1 against the rest) when
  // the label's cells say so, else discovered under the budget.
  if (s.label >= 0) {
    const CellEvidence& e = evidence->columns.at(static_cast<std::size_t>(s.label));
    s.classDecision = "declared";
    if (o.classes) {
      s.classSource = ClassSource::kDeclared;
      s.classes = *o.classes;
      s.positive = o.positive ? *o.positive : (s.classes.size() == 2 ? s.classes[1] : "");
      s.positiveRule = o.positive ? "named" : s.classes.size() == 2 ? "second-declared" : "";
    } else if (o.positive) {
      s.classSource = ClassSource::kPositive;
      s.positive = *o.positive;
      s.positiveRule = "named";
    } else if (o.discoverClasses) {
      s.classSource = *o.discoverClasses ? ClassSource::kDiscover : ClassSource::kBinary01;
    } else {
      s.classDecision = decided;
      s.classSource = e.notBinary < kLabelShare * n ? ClassSource::kBinary01 : ClassSource::kDiscover;
    }
    if (s.classSource == ClassSource::kBinary01) {
      s.classes = {"0", "1"};
      s.positive = "1";
      s.positiveRule = "binary01";
    }
  }
  return s;
}

}  // namespace

const std::vector<std::string>& binaryPositiveSpellings() {
  static const std::vector<std::string> spellings = {"1", "+1", "1.0", "1.00", "1,0"};
  return spellings;
}

std::size_t SchemaQuestions::coordinates() const {
  std::size_t k = labelClasses ? 1 : 0;
  for (std::size_t j = 0; j < kind.size(); ++j) k += kind[j] || nullable[j] ? 2 : 0;
  return k;
}

SchemaQuestions schemaQuestions(const CsvScan& scan, const TableOptions& o, SchemaPurpose purpose) {
  SchemaQuestions q;
  resolve(scan, o, purpose, nullptr, &q);
  return q;
}

SchemaEvidence exactEvidence(const CsvScan& scan) {
  SchemaEvidence e;
  e.exact = true;
  e.sigma = 0;
  std::uint64_t rows = 0;
  for (const ColumnSummary& c : scan.columns) {
    const CellCounts& t = c.training;
    rows = std::max(rows, t.numbers + t.missing + t.nonFinite + t.text);
    e.columns.push_back({double(t.text + t.nonFinite), double(t.missing),
                         double(t.numbers + t.nonFinite + t.text - t.binary)});
  }
  e.rows = double(rows);
  return e;
}

Schema resolveSchema(const CsvScan& scan, const TableOptions& o, SchemaPurpose purpose,
                     const SchemaEvidence& evidence) {
  if (evidence.columns.size() != scan.columns.size()) {
    throw Error(ErrorCode::kInternal, "", "resolveSchema: evidence for " + std::to_string(evidence.columns.size()) +
                                              " columns, the scan has " + std::to_string(scan.columns.size()));
  }
  return resolve(scan, o, purpose, &evidence, nullptr);
}

Schema resolveSchema(const CsvScan& scan, const TableOptions& o, SchemaPurpose purpose) {
  return resolveSchema(scan, o, purpose, exactEvidence(scan));
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
