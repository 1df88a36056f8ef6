// The option table (run.hpp): every option's name, type, default and help, and its typed
// setter. A new option is a field in run.hpp, an entry in makeSpecs below, its default in
// rules.hpp and its resolution in resolve.cpp, and its line in wasm/src/types.ts
// (docs/ARCHITECTURE.md, "How a new option travels").
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"
#include "run/rules.hpp"

namespace dpmargin::run {
namespace {

using namespace detail;

// ---- Typed setters: the value's type, then the name of a choice ----
[[noreturn]] void wrongType(const char* name, const char* expected, const Value& v) {
  throw Error(ErrorCode::kBadParameter, name,
              std::string(name) + " must be " + expected + ", but is " + v.shown);
}

double number(const char* name, const Value& v) {
  if (v.kind != Value::Kind::kNumber) wrongType(name, "a number", v);
  return v.number;  // ranges are checked by resolve(), so every caller gets the same message
}
std::uint64_t count(const char* name, const Value& v, double minimum) {
  return requireCount(name, number(name, v), minimum);
}
bool boolean(const char* name, const Value& v) {
  if (v.kind != Value::Kind::kBoolean) wrongType(name, "a boolean", v);
  return v.boolean;
}
const std::string& text(const char* name, const char* choices, const Value& v) {
  if (v.kind != Value::Kind::kText) {
    wrongType(name, (std::string("one of ") + choices).c_str(), v);
  }
  return v.text;
}
[[noreturn]] void unknownChoice(const char* name, const char* choices, const Value& v) {
  std::string list;
  std::stringstream in(choices);
  for (std::string c; std::getline(in, c, '|');) list += (list.empty() ? "\"" : ", \"") + c + "\"";
  throw Error(ErrorCode::kBadParameter, name,
              std::string(name) + " must be one of " + list + ", but is " + v.shown);
}

std::vector<learn::ColumnRange> ranges(const char* name, const Value& v) {
  if (v.kind != Value::Kind::kPairs) wrongType(name, "an array of [lo, hi] number pairs", v);
  std::vector<learn::ColumnRange> out;
  out.reserve(v.pairs.size());
  for (const auto& p : v.pairs) out.push_back({p[0], p[1]});
  return out;
}

std::vector<learn::ScalingMap> scalingMaps(const char* name, const Value& v) {
  if (v.kind != Value::Kind::kTexts) wrongType(name, "an array of strings", v);
  std::vector<learn::ScalingMap> out;
  out.reserve(v.texts.size());
  for (std::size_t j = 0; j < v.texts.size(); ++j) {
    out.push_back(learn::parseScalingMap(v.texts[j], std::string(name) + "[" + std::to_string(j) + "]"));
  }
  return out;
}

std::string textValue(const char* name, const Value& v) {
  if (v.kind != Value::Kind::kText) wrongType(name, "a string", v);
  return v.text;
}
std::vector<std::string> texts(const char* name, const Value& v) {
  if (v.kind == Value::Kind::kTexts) return v.texts;
  wrongType(name, "an array of strings", v);
}
char character(const char* name, const Value& v, const char* allowed) {
  std::string t = textValue(name, v);
  if (t == "tab" || t == "\\t") t = "\t";
  if (t.size() != 1 || std::string(allowed).find(t[0]) == std::string::npos) {
    std::string list;
    for (const char* a = allowed; *a; ++a) {
      list += std::string(list.empty() ? "" : ", ") + (*a == '\t' ? "\"\\t\"" : "\"" + std::string(1, *a) + "\"");
    }
    throw Error(ErrorCode::kBadParameter, name, std::string(name) + " must be one of " + list + ", but is " + v.shown);
  }
  return t[0];
}



// The table: one entry per option. `defaultValue` is set where the default is a constant.
std::vector<OptionSpec> makeSpecs() {
  using K = OptionType;
  using S = OptionScope;
  const auto num = [](double v) { return std::optional<Value>(Value::ofNumber(v)); };
  const auto txt = [](const char* v) { return std::optional<Value>(Value::ofText(v)); };
  const auto flag = [](bool v) { return std::optional<Value>(Value::ofBoolean(v)); };
  const std::optional<Value> none;
  return {
      {"epsilon", K::kNumber, S::kBoth, "budget", "", none, "required",
       "privacy budget ε > 0 (replace-one neighbours)",
       [](Options& o, const Value& v) { o.epsilon = number("epsilon", v); }},
      {"delta", K::kNumber, S::kBoth, "budget", "", none, "required",
       "privacy budget δ in (0, 1); keep it well below 1/n",
       [](Options& o, const Value& v) { o.delta = number("delta", v); }},
      {"n", K::kCount, S::kPlan, "table", "", none, "required",
       "number of training rows (data-free plans only)",
       [](Options& o, const Value& v) { o.n = count("n", v, 0); }},
      {"d", K::kCount, S::kPlan, "table", "", none, "required",
       "model dimension, the intercept included (data-free plans only)",
       [](Options& o, const Value& v) { o.d = count("d", v, 0); }},
      {"classCount", K::kCount, S::kPlan, "table", "", num(2.0), "2 (a binary label)",
       "classes of the label: 2, or 3 to 50 (see multiclass; data-free plans only)",
       [](Options& o, const Value& v) { o.classCount = count("classCount", v, 0); }},
      {"selector", K::kChoice, S::kBoth, "method", "iter|privtune|fixed|auto", none,
       "auto with calibration tight, iter with paper",
       "private selection: auto (one run at a public margin; on a large table a cheap choice among "
       "three), iter (M*, paper Algo 2), privtune (M', Algo 3), fixed (one given margin)",
       [](Options& o, const Value& v) { o.selector = plan::parseSelector(text("selector", "iter|privtune|fixed|auto", v)); }},
      {"calibration", K::kChoice, S::kBoth, "method", "tight|paper", txt("tight"), "tight",
       "tight: exact GDP accounting, less noise for the same (ε, δ); paper: the paper's constants",
       [](Options& o, const Value& v) { o.calibration = plan::parseCalibration(text("calibration", "tight|paper", v)); }},
      {"score", K::kChoice, S::kBoth, "method", "empirical|population", txt("empirical"), "empirical",
       "candidate score: training errors, or errors plus the public VC penalty",
       [](Options& o, const Value& v) { o.score = plan::parseScoreKind(text("score", "empirical|population", v)); }},
      {"output", K::kChoice, S::kTrain, "method", "last|average", none,
       "last with calibration tight, average with paper",
       "released noisy-GD iterate",
       [](Options& o, const Value& v) {
         const std::string& s = text("output", "last|average", v);
         if (s == "last") o.output = learn::OutputIterate::kLast;
         else if (s == "average") o.output = learn::OutputIterate::kAverage;
         else unknownChoice("output", "last|average", v);
       }},
      {"margin", K::kNumber, S::kBoth, "method", "", none, "required with selector fixed",
       "margin γ of selector fixed (0 < γ ≤ normBound)",
       [](Options& o, const Value& v) { o.margin = number("margin", v); }},
      {"expectedRuns", K::kNumber, S::kBoth, "method", "", num(kExpectedRuns), show(kExpectedRuns),
       "E[K] of PrivTune's geometric number of runs (> 1)",
       [](Options& o, const Value& v) { o.expectedRuns = number("expectedRuns", v); }},
      {"jlFailure", K::kNumber, S::kBoth, "method", "", none, "1/n² (the paper's)",
       "total failure probability β of the JL projections, in (0, 1)",
       [](Options& o, const Value& v) { o.jlFailure = number("jlFailure", v); }},
      {"maxIterations", K::kCount, S::kBoth, "method", "", none,
       std::to_string(kAutoMaxIterations) + " with selector auto (which runs max(" +
           std::to_string(kAutoMinIterations) + ", ⌈" + show(kAutoIterationsPerMu) + "·μ_run⌉) up to it), else " +
           std::to_string(kMaxIterations),
       "cap on noisy-GD iterations per candidate (utility and time, never privacy)",
       [](Options& o, const Value& v) { o.maxIterations = count("maxIterations", v, 0); }},
      {"stepScale", K::kNumber, S::kBoth, "method", "", num(kTightStepScale), show(kTightStepScale),
       "D in the step size η = D/√(T(n²Δ² + kσ²)) (utility only)",
       [](Options& o, const Value& v) { o.stepScale = number("stepScale", v); }},
      {"hingeScale", K::kNumber, S::kBoth, "method", "", num(1.0), "1",
       "multiplier of the calibration's hinge scale c (utility only)",
       [](Options& o, const Value& v) { o.hingeScale = number("hingeScale", v); }},
      {"pruning", K::kChoice, S::kBoth, "method", "auto|none|noise-floor", txt("auto"),
       "auto: noise-floor with calibration tight, none with paper",
       "data-independent pruning of margins whose noise floor makes them hopeless",
       [](Options& o, const Value& v) {
         const std::string& s = text("pruning", "auto|none|noise-floor", v);
         if (s == "auto") o.pruning.reset();  // "auto" is the rule, i.e. unset
         else o.pruning = plan::parsePruning(s);
       }},
      {"pruneRatio", K::kNumber, S::kBoth, "method", "", num(kPruneRatio), show(kPruneRatio),
       "noise-floor pruning keeps γ only if 2Δ√k/(n·μ_run) ≤ pruneRatio",
       [](Options& o, const Value& v) { o.pruneRatio = number("pruneRatio", v); }},
      {"multiclass", K::kChoice, S::kBoth, "method", "joint|one-vs-rest", txt(plan::toString(kMulticlass)),
       plan::toString(kMulticlass),
       "a label of 3 or more classes: one joint model on K × d weights at the whole budget, or K "
       "binary one-vs-rest problems at μ/√K each",
       [](Options& o, const Value& v) { o.multiclass = plan::parseMulticlass(text("multiclass", "joint|one-vs-rest", v)); }},
      {"multiclassLoss", K::kChoice, S::kBoth, "method", "hinge|softmax", txt(plan::toString(kMulticlassLoss)),
       plan::toString(kMulticlassLoss),
       "the joint multiclass loss: the multiclass hinge (Crammer–Singer) or multinomial logistic (softmax)",
       [](Options& o, const Value& v) { o.multiclassLoss = plan::parseJointLoss(text("multiclassLoss", "hinge|softmax", v)); }},
      // The value is the rule's usual case (iter or fixed, no declared ranges).
      {"rangeShare", K::kNumber, S::kBoth, "preprocessing", "", num(kRangeShare),
       show(kRangeShare) + " with iter, fixed and auto when no columnRanges are declared, else 0",
       "share s of the GDP budget for private column ranges (0: none)",
       [](Options& o, const Value& v) { o.rangeShare = number("rangeShare", v); }},
      {"columnRanges", K::kRanges, S::kTrain, "preprocessing", "", none, "none",
       "public per-column ranges [lo, hi], one per feature (declare only public ranges)",
       [](Options& o, const Value& v) { o.columnRanges = ranges("columnRanges", v); }},
      {"columnMaps", K::kTexts, S::kTrain, "preprocessing", "min-max|symmetric|signed-log", none,
       "min-max for every declared range",
       "per-value map of each columnRanges entry: min-max clamp((x − lo)/(hi − lo), 0, 1), "
       "symmetric clamp(x/hi, −1, 1) or signed-log sign(x)·log1p(|x|)/hi (lo = −hi for both)",
       [](Options& o, const Value& v) { o.columnMaps = scalingMaps("columnMaps", v); }},
      {"intercept", K::kBoolean, S::kTrain, "preprocessing", "", flag(true), "true",
       "append the constant feature 1 before the row operation",
       [](Options& o, const Value& v) { o.intercept = boolean("intercept", v); }},
      {"rowNormalization", K::kChoice, S::kTrain, "preprocessing", "unit-norm|clip",
       txt("unit-norm"), "unit-norm",
       "unit-norm: x ← b·x/‖x‖; clip: x ← x·min(1, b/‖x‖)",
       [](Options& o, const Value& v) {
         const std::string& s = text("rowNormalization", "unit-norm|clip", v);
         if (s == "unit-norm") o.rowNormalization = learn::RowNormalization::kUnitNorm;
         else if (s == "clip") o.rowNormalization = learn::RowNormalization::kClip;
         else unknownChoice("rowNormalization", "unit-norm|clip", v);
       }},
      {"normBound", K::kNumber, S::kBoth, "preprocessing", "", num(kNormBound), show(kNormBound),
       "public bound b on ‖x‖₂ after preprocessing",
       [](Options& o, const Value& v) { o.normBound = number("normBound", v); }},
      {"discoveryShare", K::kNumber, S::kBoth, "preprocessing", "", num(kDiscoveryShare),
       show(kDiscoveryShare) + " when some categories are discovered, " + show(kClassDiscoveryShare) +
           " when the label's classes are (their own histogram: ⅔ of it with other columns, all alone), else 0",
       "share of the GDP budget for private category discovery",
       [](Options& o, const Value& v) { o.discoveryShare = number("discoveryShare", v); }},
      {"schemaShare", K::kNumber, S::kTrain, "preprocessing", "", none,
       "1% to 10% of μ² by the rule (enough to tell numbers from text at 5 noise sds), when a CSV's schema is read off its cells",
       "share of the budget for the private schema decisions of a CSV (kinds, missing columns, the label's classes)",
       [](Options& o, const Value& v) { o.schemaShare = number("schemaShare", v); }},
      // ---- The table (CSV input) ----
      {"label", K::kText, S::kTable, "data", "", none,
       "the column whose header says so (label, target, class, y, outcome, …)",
       "label column",
       [](Options& o, const Value& v) { o.table.label = textValue("label", v); }},
      {"classes", K::kTexts, S::kTable, "data", "", none,
       "decided privately: 0/1 (1 against the rest) when most cells are 0, 1 or -1, else discovered",
       "the label's classes, declared public (2 to 50; with 3 or more, see multiclass)",
       [](Options& o, const Value& v) { o.table.classes = texts("classes", v); }},
      {"positive", K::kText, S::kTable, "data", "", none, "none",
       "train this class against all the others (a binary model)",
       [](Options& o, const Value& v) { o.table.positive = textValue("positive", v); }},
      {"discoverClasses", K::kBoolean, S::kTable, "data", "", none, "decided privately from the label's cells",
       "discover the label's classes under the budget (false: the label is 0/1, 1 against the rest)",
       [](Options& o, const Value& v) { o.table.discoverClasses = boolean("discoverClasses", v); }},
      {"features", K::kTexts, S::kTable, "data", "", none, "every column but the label, the ignored ones and identifiers",
       "feature columns, in this order",
       [](Options& o, const Value& v) { o.table.features = texts("features", v); }},
      {"ignore", K::kTexts, S::kTable, "data", "", none, "none",
       "columns to leave out",
       [](Options& o, const Value& v) { o.table.ignore = texts("ignore", v); }},
      {"missing", K::kChoice, S::kTable, "data", "indicator|constant|error", txt("indicator"), "indicator",
       "missing numeric cells: fill plus a 0/1 missing column, fill only, or refuse",
       [](Options& o, const Value& v) {
         const std::string& s = text("missing", "indicator|constant|error", v);
         if (s != "indicator" && s != "constant" && s != "error") unknownChoice("missing", "indicator|constant|error", v);
         o.table.missing = data::parseMissingStrategy(s, "missing");
       }},
      {"fill", K::kNumber, S::kTable, "data", "", num(0.0), "0",
       "the public constant a missing numeric cell becomes",
       [](Options& o, const Value& v) { o.table.fill = number("fill", v); }},
      {"categories", K::kChoice, S::kTable, "data", "auto|discover|hash", txt("auto"), "auto",
       "text columns' levels: discovered under the budget, hashed into buckets, or auto (discover when the budget can find levels held by 10% of the rows)",
       [](Options& o, const Value& v) {
         const std::string& s = text("categories", "auto|discover|hash", v);
         if (s != "auto" && s != "discover" && s != "hash") unknownChoice("categories", "auto|discover|hash", v);
         o.table.categories = data::parseCategorySource(s, "categories");
       }},
      {"maxLevels", K::kCount, S::kTable, "data", "", num(double(data::kDefaultMaxLevels)),
       std::to_string(data::kDefaultMaxLevels), "most discovered levels kept per column (public cap)",
       [](Options& o, const Value& v) { o.table.maxLevels = count("maxLevels", v, 0); }},
      {"hashBuckets", K::kCount, S::kTable, "data", "", num(double(data::kDefaultHashBuckets)),
       std::to_string(data::kDefaultHashBuckets), "columns per hashed text column",
       [](Options& o, const Value& v) { o.table.hashBuckets = count("hashBuckets", v, 0); }},
      {"delimiter", K::kText, S::kTable, "data", "", none, "the one of , ; tab | that splits the header line into the most fields",
       "field delimiter",
       [](Options& o, const Value& v) { o.table.delimiter = character("delimiter", v, ",;\t|"); }},
      {"decimal", K::kText, S::kTable, "data", "", none,
       "\".\" when the header is delimited by \",\", else either mark per cell (1.5 and 1,5 alike)",
       "decimal mark of numbers (declared: only that mark)",
       [](Options& o, const Value& v) { o.table.decimal = character("decimal", v, ".,"); }},
      {"encoding", K::kChoice, S::kTable, "data", "utf-8|latin1", txt("utf-8"), "utf-8",
       "text encoding of the file (latin1: Windows-1252)",
       [](Options& o, const Value& v) {
         const std::string& s = text("encoding", "utf-8|latin1", v);
         if (s == "utf-8") o.table.encoding = data::CsvEncoding::kUtf8;
         else if (s == "latin1") o.table.encoding = data::CsvEncoding::kLatin1;
         else unknownChoice("encoding", "utf-8|latin1", v);
       }},
      {"missingTokens", K::kTexts, S::kTable, "data", "", none,
       "\"\", NA, N/A, n/a, #N/A, NaN, nan, -nan, -NaN, NULL, null, ?",
       "cell texts read as missing",
       [](Options& o, const Value& v) { o.table.missingTokens = texts("missingTokens", v); }},
      {"schema", K::kSchema, S::kTable, "data", "", none, "none",
       "a schema (as the CLI's --json writes it, or the app exports): every column's role and handling",
       [](Options& o, const Value& v) {
         if (v.kind != Value::Kind::kNode) wrongType("schema", "a schema object", v);
         data::mergeSchemaNode(o.table, v.node);
       }},
      {"maxBytes", K::kNumber, S::kTable, "data", "", none, "2^31 − 4 bytes",
       "largest table to allocate, rows × (model columns + 1) × 4 bytes",
       [](Options& o, const Value& v) { o.maxBytes = number("maxBytes", v); }},
      {"seed", K::kCount, S::kTrain, "randomness", "", none, "none (the CSPRNG)",
       "deterministic run for tests and demos: NOT private",
       [](Options& o, const Value& v) { o.seed = count("seed", v, 0); }},
  };
}

}  // namespace

Value Value::ofNumber(double v) {
  Value out;
  out.kind = Kind::kNumber;
  out.number = v;
  out.shown = std::isnan(v) ? "NaN" : std::isinf(v) ? (v > 0 ? "Infinity" : "-Infinity") : show(v);
  return out;
}
Value Value::ofBoolean(bool v) {
  Value out;
  out.kind = Kind::kBoolean;
  out.boolean = v;
  out.shown = v ? "true" : "false";
  return out;
}
Value Value::ofText(std::string v) {
  Value out;
  out.kind = Kind::kText;
  out.shown = "\"" + v + "\"";
  out.text = std::move(v);
  return out;
}
Value Value::ofPairs(std::vector<std::array<double, 2>> v) {
  Value out;
  out.kind = Kind::kPairs;
  out.pairs = std::move(v);
  out.shown = "an array of " + std::to_string(out.pairs.size()) + " pairs";
  return out;
}

Value Value::ofTexts(std::vector<std::string> v) {
  Value out;
  out.kind = Kind::kTexts;
  out.shown = "an array of " + std::to_string(v.size()) + " strings";
  out.texts = std::move(v);
  return out;
}
Value Value::ofNode(Node v) {
  Value out;
  out.kind = Kind::kNode;
  out.shown = v.shown();
  out.node = std::move(v);
  return out;
}

Value Value::ofOther(std::string shown) {
  Value out;
  out.kind = Kind::kOther;
  out.shown = std::move(shown);
  return out;
}

const char* toString(OptionType type) noexcept {
  switch (type) {
    case OptionType::kNumber: return "number";
    case OptionType::kCount: return "count";
    case OptionType::kBoolean: return "boolean";
    case OptionType::kChoice: return "choice";
    case OptionType::kRanges: return "ranges";
    case OptionType::kText: return "text";
    case OptionType::kTexts: return "texts";
    case OptionType::kSchema: return "schema";
  }
  return "number";
}

const char* toString(OptionScope scope) noexcept {
  switch (scope) {
    case OptionScope::kBoth: return "both";
    case OptionScope::kTrain: return "train";
    case OptionScope::kPlan: return "plan";
    case OptionScope::kTable: return "table";
  }
  return "both";
}

const std::vector<OptionSpec>& optionSpecs() {
  static const std::vector<OptionSpec> specs = makeSpecs();
  return specs;
}

const OptionSpec* findOption(std::string_view name) {
  for (const OptionSpec& s : optionSpecs()) {
    if (name == s.name) return &s;
  }
  return nullptr;
}

void setOption(Options& options, std::string_view name, const Value& value) {
  const OptionSpec* spec = findOption(name);
  if (spec == nullptr) {
    std::string known;
    for (const OptionSpec& s : optionSpecs()) known += (known.empty() ? "" : ", ") + std::string(s.name);
    const std::string n(name);
    throw Error(ErrorCode::kBadParameter, n, n + " must be a known option (" + known + "), but is set");
  }
  spec->set(options, value);
}

void setOption(Options& options, std::string_view name, const Value& value, bool tableObject) {
  const OptionSpec* spec = findOption(name);
  if (spec != nullptr && (spec->scope == OptionScope::kTable) != tableObject) {
    const std::string n(name);
    throw Error(ErrorCode::kBadParameter, n,
                n + (tableObject ? " must be given with the training options (it is not a CSV option), but is set"
                                 : " must be given with the CSV options (it is not a training option), but is set"));
  }
  setOption(options, name, value);
}

void setOptionFromText(Options& options, std::string_view name, const std::string& text) {
  const OptionSpec* spec = findOption(name);
  if (spec == nullptr) return setOption(options, name, Value::ofText(text));  // names the error
  switch (spec->type) {
    case OptionType::kNumber:
    case OptionType::kCount: {
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) {
        return setOption(options, name, Value::ofText(text));  // "must be a number, but is …"
      }
      return setOption(options, name, Value::ofNumber(v));
    }
    case OptionType::kBoolean:
      if (text == "true" || text == "false") return setOption(options, name, Value::ofBoolean(text == "true"));
      return setOption(options, name, Value::ofText(text));
    case OptionType::kTexts: {
      // Comma-separated (a value holding a comma is declared in a schema file instead).
      std::vector<std::string> parts;
      std::string part;
      std::stringstream in(text);
      while (std::getline(in, part, ',')) parts.push_back(part);
      if (!text.empty() && text.back() == ',') parts.emplace_back();
      return setOption(options, name, Value::ofTexts(std::move(parts)));
    }
    case OptionType::kChoice:
    case OptionType::kRanges:
    case OptionType::kText:
    case OptionType::kSchema:
      return setOption(options, name, Value::ofText(text));
  }
}

}  // namespace dpmargin::run
