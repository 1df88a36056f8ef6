// The schema of a table (schema.hpp, docs/reference/DATA_PIPELINE.md).
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

std::string folded(const std::string& name) { return foldName(name); }

}  // namespace

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

}  // namespace dpmargin::data
