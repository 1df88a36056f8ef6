// The option table and the resolver (run.hpp): every option's name, type, default and help,
// and the one function that turns a caller's options into a resolved run. A new option is a
// field in run.hpp, an entry in kSpecs below and its resolution in resolveCommon/resolve here,
// and its line in wasm/src/types.ts (docs/ARCHITECTURE.md, "How to add an option").
#include "dpmargin/run/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "dpmargin/error.hpp"

namespace dpmargin::run {
namespace {

// ---- The defaults, each chosen by measurement or by the paper (docs/ACCURACY.md) ----
// Iterations cap: T changes utility and time, never privacy (σ scales with √T); over 10 public
// tables at ε = 1, T = 200 is within 0.2 points (mean) of T = 400 and of 1000, at a fifth of
// the time.
constexpr std::uint64_t kMaxIterations = 200;
// Selector "auto" (the default with calibration tight; docs/ACCURACY.md, "auto"): unprojected
// runs at the public margin γ₀ = b·max(1, √(kAutoMuKnee/μ_run))/√n, for
// T = max(kAutoMinIterations, ⌈kAutoIterationsPerMu·μ_run⌉) iterations up to kAutoMaxIterations:
// one run with the whole training budget (μ_run = μ_class), or on a large table the selection
// below. Over 10 public tables at ε ∈ {0.5, 1, 2} it beats Iter, which pays for its choice among
// ~10 margins with μ/√(2m) per run (docs/ACCURACY.md).
constexpr double kAutoMuKnee = 0.25;
constexpr std::uint64_t kAutoMinIterations = 200;
constexpr double kAutoIterationsPerMu = 800.0;
constexpr std::uint64_t kAutoMaxIterations = 600;
// Auto's selection (docs/ACCURACY.md, "Round 2", the selection): among {γ₀/3, γ₀, 3γ₀}, the runs
// sharing 97% of μ², when the score-noise sd is at most 0.125% of n (n·μ_class ≥ 8,000: the
// middle of the 6,000–10,000 plateau measured over 16 tables at ε ∈ {0.5, 1, 2, 8}). The factor
// 3 (4 until 2026-11-27): +0.12 points over the 11 selecting cells, 10 seeds, none below −0.3.
constexpr double kAutoSelectNoise = 0.00125;
constexpr double kAutoSelectRunShare = 0.97;
constexpr double kAutoSelectFactor = 3.0;
// Noise-floor pruning ratio (docs/ACCURACY.md: +0.2 points mean over 10 tables at ε = 1).
constexpr double kPruneRatio = 100.0;
// PrivTune's E[K].
constexpr double kExpectedRuns = 10.0;
// Share of the GDP budget spent on private column ranges with "iter", "fixed" and "auto" when no
// ranges are declared (+5.8 points mean over 10 tables at ε = 1 against unit-norm rows alone).
constexpr double kRangeShare = 0.1;
// D of the step size in tight calibration (the paper's D = 1 measured best of {1, 2, 4, 8}).
constexpr double kTightStepScale = 1.0;
constexpr double kNormBound = 1.0;

// The rules (defaults that depend on other options).
learn::OutputIterate defaultOutput(plan::Calibration c) {
  // Tight: the last iterate (+0.7 points mean over 10 tables at ε = 1; +1.2 with pruning);
  // paper: the paper's averaged iterate.
  return c == plan::Calibration::kPaper ? learn::OutputIterate::kAverage
                                        : learn::OutputIterate::kLast;
}
plan::Selector defaultSelector(plan::Calibration c) {
  // "paper" reproduces the paper (M*, Iter); tight: auto (no or a cheap selection).
  return c == plan::Calibration::kPaper ? plan::Selector::kIter : plan::Selector::kAuto;
}
std::uint64_t defaultMaxIterations(plan::Selector s) {
  return s == plan::Selector::kAuto ? kAutoMaxIterations : kMaxIterations;
}
plan::Pruning defaultPruning(plan::Calibration c, plan::Selector s) {
  // "paper" reproduces the paper (the whole grid); a fixed margin has nothing to prune.
  return c == plan::Calibration::kTight && plan::searchesGrid(s) ? plan::Pruning::kNoiseFloor
                                                                  : plan::Pruning::kNone;
}
double defaultRangeShare(plan::Selector s, bool rangesDeclared) {
  // PrivTune's accounting is not GDP, so it cannot compose with the ranges' Gaussian mechanism.
  return rangesDeclared || s == plan::Selector::kPrivTune ? 0.0 : kRangeShare;
}

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

[[noreturn]] void required(const char* name, const char* what = "a number") {
  throw Error(ErrorCode::kBadParameter, name,
              std::string(name) + " must be " + what + " (it is required), but is unset");
}

std::string show(double v) { return formatValue(v); }

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
       "classes of the label: 2, or 3 to 50 trained one-vs-rest (data-free plans only)",
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
       show(kDiscoveryShare) + " when some categories or classes are discovered, else 0",
       "share of the GDP budget for private category discovery",
       [](Options& o, const Value& v) { o.discoveryShare = number("discoveryShare", v); }},
      // ---- The table (CSV input) ----
      {"label", K::kText, S::kTable, "data", "", none,
       "the column whose header says so (label, target, class, y, outcome, …)",
       "label column",
       [](Options& o, const Value& v) { o.table.label = textValue("label", v); }},
      {"classes", K::kTexts, S::kTable, "data", "", none,
       "0 and 1 for a numeric label; discovered privately for a text label",
       "the label's classes, declared public (2 to 50; with 3 or more, one-vs-rest)",
       [](Options& o, const Value& v) { o.table.classes = texts("classes", v); }},
      {"positive", K::kText, S::kTable, "data", "", none, "none",
       "train this class against all the others (a binary model)",
       [](Options& o, const Value& v) { o.table.positive = textValue("positive", v); }},
      {"discoverClasses", K::kBoolean, S::kTable, "data", "", none, "true for a text label",
       "discover the label's classes under the budget (false: a numeric label must be 0/1)",
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
       "text columns' levels: discovered under the budget, hashed into buckets, or auto (discover when the budget can find levels held by 5% of the rows)",
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
      {"delimiter", K::kText, S::kTable, "data", "", none, "detected among , ; tab |",
       "field delimiter",
       [](Options& o, const Value& v) { o.table.delimiter = character("delimiter", v, ",;\t|"); }},
      {"decimal", K::kText, S::kTable, "data", "", none, "detected (\",\" only when the delimiter is not)",
       "decimal mark of numbers",
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

plan::PlanRequest resolveCommon(const Options& o, std::uint64_t n, std::uint64_t d,
                                bool rangesDeclared) {
  if (!o.epsilon) required("epsilon");
  if (!o.delta) required("delta");
  plan::PlanRequest r;
  r.epsilon = *o.epsilon;
  r.delta = *o.delta;
  r.n = n;
  r.d = d;
  r.normBound = o.normBound.value_or(kNormBound);
  r.calibration = o.calibration.value_or(plan::Calibration::kTight);
  r.selector = o.selector.value_or(defaultSelector(r.calibration));
  r.score = o.score.value_or(plan::ScoreKind::kEmpirical);
  r.expectedRuns = o.expectedRuns.value_or(kExpectedRuns);
  if (o.jlFailure) {
    r.jlFailure = *o.jlFailure;
    requireOpenUnit("jlFailure", r.jlFailure);
  } else {
    const double nd = static_cast<double>(n);
    r.jlFailure = 1.0 / (nd * nd);  // the paper's theorems
  }
  r.maxIterations = o.maxIterations.value_or(defaultMaxIterations(r.selector));
  r.autoMuKnee = kAutoMuKnee;
  r.autoMinIterations = kAutoMinIterations;
  r.autoIterationsPerMu = kAutoIterationsPerMu;
  r.autoSelectNoise = kAutoSelectNoise;
  r.autoSelectRunShare = kAutoSelectRunShare;
  r.autoSelectFactor = kAutoSelectFactor;
  if (r.selector == plan::Selector::kFixed && !o.margin) {
    required("margin", "a number with selector \"fixed\"");
  }
  r.margin = o.margin.value_or(0.0);
  r.rangeShare = o.rangeShare.value_or(defaultRangeShare(r.selector, rangesDeclared));
  r.stepScale = o.stepScale.value_or(r.calibration == plan::Calibration::kTight ? kTightStepScale : 1.0);
  r.hingeScale = o.hingeScale.value_or(1.0);
  // Pruning applies to the paper's margin grid: fixed and auto (one run, or auto's three public
  // margins) have none, whatever was asked.
  r.pruning = plan::searchesGrid(r.selector)
                  ? o.pruning.value_or(defaultPruning(r.calibration, r.selector))
                  : plan::Pruning::kNone;
  r.pruneRatio = o.pruneRatio.value_or(kPruneRatio);
  return r;
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

learn::Preprocessing resolvePreprocessing(const Options& o) {
  learn::Preprocessing p;
  p.intercept = o.intercept.value_or(true);
  p.rows = o.rowNormalization.value_or(learn::RowNormalization::kUnitNorm);
  p.normBound = o.normBound.value_or(kNormBound);
  p.ranges = o.columnRanges.value_or(std::vector<learn::ColumnRange>{});
  if (o.columnMaps) {
    if (p.ranges.empty()) {
      throw Error(ErrorCode::kBadParameter, "columnMaps",
                  "columnMaps must be unset unless columnRanges are declared, but is set");
    }
    if (o.columnMaps->size() != p.ranges.size()) {
      throwBadParameter("columnMaps", "one map per columnRanges entry (" + std::to_string(p.ranges.size()) + ")",
                        double(o.columnMaps->size()));
    }
    for (std::size_t j = 0; j < p.ranges.size(); ++j) p.ranges[j].map = (*o.columnMaps)[j];
  }
  learn::validateRanges(p.ranges, p.ranges.size());  // each range for its map; the count later
  learn::validatePreprocessing(p);
  return p;
}

learn::TrainSettings resolve(const Options& o, std::uint64_t n, std::uint64_t features,
                             std::uint64_t classes) {
  if (o.n || o.d) {
    throwBadParameter(o.n ? "n" : "d", "unset for training (the data give n and d)",
                      double(o.n ? *o.n : *o.d));
  }
  if (o.classCount) {
    throwBadParameter("classCount", "unset for training (the data give the label's classes)",
                      double(*o.classCount));
  }
  learn::TrainSettings s;
  s.preprocessing = resolvePreprocessing(o);
  // Empty declared ranges mean none (so private ranges stay on by default).
  const bool declared = !s.preprocessing.ranges.empty();
  const std::uint64_t d = features + (s.preprocessing.intercept ? 1 : 0);
  s.plan = resolveCommon(o, n, d, declared);
  s.plan.classes = plan::oneVsRestProblems(classes);
  s.output = o.output.value_or(defaultOutput(s.plan.calibration));
  s.seed = o.seed;
  if (declared) learn::validateRanges(s.preprocessing.ranges, features);
  if (declared && s.plan.rangeShare > 0) {
    throwBadParameter("rangeShare", "0 when columnRanges are declared", s.plan.rangeShare);
  }
  plan::validateRequest(s.plan);
  return s;
}

void validate(const Options& o) {
  // The smallest table: every check that does not depend on the data runs here, before a
  // byte is read. Declared ranges are checked against the data's columns later.
  data::validateTableOptions(o.table);
  if (o.discoveryShare) requireOpenUnit("discoveryShare", *o.discoveryShare);
  if (o.maxBytes) requirePositive("maxBytes", *o.maxBytes);
  Options copy = o;
  const std::size_t features = o.columnRanges && !o.columnRanges->empty() ? o.columnRanges->size() : 1;
  (void)resolve(copy, 2, features);
}

plan::Plan account(const Options& o) {
  if (!o.n) required("n");
  if (!o.d) required("d");
  if (*o.n < 2) throwBadParameter("n", "at least 2", double(*o.n));
  if (*o.d < 1) throwBadParameter("d", "at least 1", double(*o.d));
  if (o.columnRanges || o.intercept || o.rowNormalization || o.output || o.seed) {
    const char* name = o.columnRanges ? "columnRanges" : o.intercept ? "intercept"
                       : o.rowNormalization ? "rowNormalization" : o.output ? "output" : "seed";
    throw Error(ErrorCode::kBadParameter, name,
                std::string(name) + " must be unset for a data-free plan (it applies to training only), but is set");
  }
  plan::PlanRequest r = resolveCommon(o, *o.n, *o.d, false);
  if (o.classCount && (*o.classCount < 2 || *o.classCount > 50)) {
    throwBadParameter("classCount", "2 (a binary label) or 3 to 50", double(*o.classCount));
  }
  r.classes = plan::oneVsRestProblems(o.classCount.value_or(2));
  return plan::makePlan(r);
}

plan::Plan planForTable(const Options& options, std::uint64_t n, std::uint64_t features,
                        std::uint64_t classes) {
  if (n < 2) throwBadParameter("n", "at least 2", double(n));
  if (features < 1) throwBadParameter("features", "at least 1", double(features));
  return plan::makePlan(resolve(options, n, features, classes).plan);
}

random::Generator makeGenerator(const learn::TrainSettings& settings) {
  return settings.seed ? random::Generator::seeded(*settings.seed) : random::Generator::secure();
}

// ---- CsvRun ----

namespace {
const Options& validated(const Options& o, CsvRun::Mode mode) {
  if (mode == CsvRun::Mode::kPrivate) {
    validate(o);
  } else {
    data::validateTableOptions(o.table);
    if (o.maxBytes) requirePositive("maxBytes", *o.maxBytes);
  }
  return o;
}
}  // namespace

CsvRun::CsvRun(Options options, std::optional<std::vector<std::uint64_t>> rows, Mode mode)
    : options_(std::move(options)),
      mode_(mode),
      reader_(data::csvOptionsFor(validated(options_, mode_).table), std::move(rows)) {
  reader_.setMaxBytes(options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0));
}

CsvRun::~CsvRun() = default;

void CsvRun::feed(const char* data, std::size_t size) {
  if (pass_ == Pass::kDone) throw Error(ErrorCode::kInternal, "", "CsvRun: feed() after the last pass");
  reader_.feed(data, size);
}

void CsvRun::expectBytes(std::uint64_t sourceBytes) {
  if (pass_ != Pass::kScan || reader_.bytes() > 0) {
    throw Error(ErrorCode::kInternal, "", "CsvRun: expectBytes() after the first feed");
  }
  reader_.keepScanValues(sourceBytes);
}

std::uint64_t CsvRun::bytes() const { return reader_.bytes(); }
std::uint64_t CsvRun::rows() const { return reader_.rowsRead(); }

void CsvRun::endPass() {
  switch (pass_) {
    case Pass::kScan:
      reader_.finishScan();
      return afterScan();
    case Pass::kCount:
      return afterCount();
    case Pass::kFill:
      return afterFill();
    case Pass::kDone:
      throw Error(ErrorCode::kInternal, "", "CsvRun: endPass() after the last pass");
  }
}

const data::CsvScan& CsvRun::scan() const { return reader_.scan(); }
const data::Schema& CsvRun::schema() const { return schema_; }

namespace {
void requireDone(bool done, const char* what) {
  if (!done) throw Error(ErrorCode::kInternal, "", std::string("CsvRun: ") + what + " before the last pass");
}
}  // namespace

const data::Encoding& CsvRun::encoding() const { return encoding_; }
const learn::TrainSettings& CsvRun::settings() const {
  requireDone(pass_ == Pass::kDone && mode_ == Mode::kPrivate, "settings()");
  return settings_;
}
learn::Dataset& CsvRun::dataset() {
  requireDone(pass_ == Pass::kDone && dataset_, "dataset()");
  return *dataset_;
}
std::unique_ptr<learn::Dataset> CsvRun::takeDataset() {
  requireDone(pass_ == Pass::kDone && dataset_, "takeDataset()");
  return std::move(dataset_);
}
const std::vector<std::int32_t>& CsvRun::classCodes() const { return codes_; }
std::size_t CsvRun::classCount() const {
  if (schema_.label < 0) return 0;
  return schema_.classSource == data::ClassSource::kPositive ? 2 : schema_.classes.size();
}
const data::FillResult& CsvRun::fillResult() const { return fill_; }
std::uint64_t CsvRun::labelOutsideClasses() const { return outside_; }
random::Generator CsvRun::takeGenerator() {
  requireDone(pass_ == Pass::kDone && generator_, "takeGenerator()");
  random::Generator g = std::move(*generator_);
  generator_.reset();
  return g;
}

plan::PlanRequest CsvRun::budgetRequest(std::uint64_t m) const {
  // The budget does not depend on the table's width: d = 1 stands in until it is known.
  plan::PlanRequest r = resolveCommon(options_, reader_.selectedRows(), 1, false);
  r.discoveryColumns = m;
  r.discoveryShare = m > 0 ? options_.discoveryShare.value_or(kDiscoveryShare) : 0.0;
  return r;
}

plan::Plan CsvRun::budget() const {
  if (pass_ == Pass::kScan || mode_ != Mode::kPrivate) {
    throw Error(ErrorCode::kInternal, "", "CsvRun: budget() before the scan or in a local read");
  }
  return plan::makeBudget(budgetRequest(m_));
}

void CsvRun::afterScan() {
  // Local reads (readCsv, the profile) take the label when named or proposed, else none.
  schema_ = data::resolveSchema(reader_.scan(), options_.table,
                                mode_ == Mode::kLocal ? data::SchemaPurpose::kSummary : data::SchemaPurpose::kTrain);
  const std::uint64_t n = reader_.selectedRows();
  if (n < 2) throwBadParameter("rows", "at least 2 data rows for training", double(n));
  generator_ = std::make_unique<random::Generator>(
      options_.seed || mode_ == Mode::kLocal ? random::Generator::seeded(options_.seed.value_or(0))
                                             : random::Generator::secure());
  // "auto" categories: discovered when the budget's threshold finds levels held by a
  // twentieth of the rows, else hashed — a decision from (ε, δ, n, the share, m) only.
  std::vector<std::size_t> discover, automatic;
  for (std::size_t j : schema_.featureOrder) {
    const data::ColumnSchema& c = schema_.columns[j];
    if (c.kind != data::ColumnKind::kCategorical) continue;
    if (c.categories == data::CategorySource::kDiscover) discover.push_back(j);
    if (c.categories == data::CategorySource::kAuto) automatic.push_back(j);
  }
  const std::uint64_t label = schema_.discoversClasses() ? 1 : 0;
  if (!automatic.empty() && mode_ == Mode::kLocal) {
    // Local: every text column's levels are read exactly (up to maxLevels).
    for (std::size_t j : automatic) schema_.columns[j].categories = data::CategorySource::kDiscover;
    discover.insert(discover.end(), automatic.begin(), automatic.end());
    std::sort(discover.begin(), discover.end());
  } else if (!automatic.empty()) {
    const plan::Plan budget = plan::makeBudget(budgetRequest(discover.size() + automatic.size() + label));
    const bool found = budget.request.selector != plan::Selector::kPrivTune &&
                       budget.discovery.threshold <= kAutoDiscoverRowShare * double(n);
    for (std::size_t j : automatic) {
      data::ColumnSchema& c = schema_.columns[j];
      c.categories = found ? data::CategorySource::kDiscover : data::CategorySource::kHash;
      if (found) discover.push_back(j);
    }
    std::sort(discover.begin(), discover.end());
  }
  discovered_ = discover;
  if (label) discovered_.push_back(schema_.columns[std::size_t(schema_.label)].file);
  m_ = discovered_.size();
  if (m_ > 0) {
    reader_.beginCount(discovered_);
    pass_ = Pass::kCount;
  } else {
    beginFill();
  }
}

void CsvRun::afterCount() {
  const std::vector<data::DiscoveryCounts> counts = reader_.finishCount();
  std::vector<std::size_t> maxLevels(m_, std::size_t(schema_.maxLevels));
  const bool label = schema_.discoversClasses();
  if (label) maxLevels.back() = data::kMaxClasses;
  accounting::DiscoveryCalibration calibration;
  if (mode_ == Mode::kPrivate) {
    calibration = plan::makeBudget(budgetRequest(m_)).discovery;
  } else {
    // Local: no noise, every value present kept (the largest counts up to the cap).
    calibration.columns = m_;
    calibration.sigma = 0.0;
    calibration.threshold = 0.5;
  }
  const plan::Plan budget = [&] {
    plan::Plan p;
    p.discovery = calibration;
    return p;
  }();
  const std::vector<std::vector<std::string>> levels =
      data::discoverLevels(counts, maxLevels, calibration, *generator_);
  for (std::size_t k = 0; k < m_; ++k) {
    const bool isLabel = label && k + 1 == m_;
    if (isLabel) {
      schema_.classes = levels[k];
    } else {
      schema_.columns[discovered_[k]].levels = levels[k];
    }
  }
  if (label) {
    if (schema_.classes.size() < 2) {
      const data::ColumnSchema& c = *schema_.labelColumn();
      throw Error(ErrorCode::kOneClass, "classes",
                  "private class discovery found " + std::to_string(schema_.classes.size()) +
                      " class(es) of label column " + Node::ofText(c.name).shown() +
                      " (a class needs about " + formatValue(std::ceil(budget.discovery.threshold)) +
                      " rows to be found at this budget); declare the classes (classes, --classes), "
                      "name the positive class (positive, --positive), or raise epsilon");
    }
    if (schema_.classes.size() == 2) {
      schema_.positive = schema_.classes[1];
      schema_.positiveRule = "second-discovered";
    }
  }
  beginFill();
}

void CsvRun::beginFill() {
  encoding_ = data::makeEncoding(schema_);
  std::vector<std::string> classes;
  bool refuse = false;
  if (schema_.label >= 0) switch (schema_.classSource) {
    case data::ClassSource::kDeclared:
      classes = schema_.classes;
      refuse = true;
      break;
    case data::ClassSource::kBinary01:
      classes = {"0", "1", "0.0", "1.0"};  // 0.0 and 1.0 as 0 and 1 (float-typed exports)
      refuse = true;
      break;
    case data::ClassSource::kPositive:
      classes = {schema_.positive};
      break;
    case data::ClassSource::kDiscover:
      classes = schema_.classes;
      break;
  }
  const double maxBytes = options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0);
  reader_.beginFill(schema_, encoding_, classes, refuse, maxBytes);
  pass_ = Pass::kFill;
  if (reader_.filledFromScan()) afterFill();  // a plain numeric table: the scan's values
}

void CsvRun::afterFill() {
  fill_ = reader_.finishFill();
  dataset_ = reader_.takeDataset();
  codes_ = reader_.labelCodes();
  if (schema_.label < 0) {  // a local read without a label
    pass_ = Pass::kDone;
    return;
  }
  outside_ = 0;
  if (schema_.classSource == data::ClassSource::kDiscover) {
    for (std::int32_t c : codes_) outside_ += c == data::kOtherCode ? 1 : 0;
  }
  if (schema_.classSource == data::ClassSource::kBinary01) {
    for (std::int32_t& c : codes_) c = c >= 2 ? c - 2 : c;
  } else if (schema_.classSource == data::ClassSource::kPositive) {
    for (std::int32_t& c : codes_) c = c == 0 ? 1 : 0;  // index in {rest, positive}
  }
  const std::size_t classes = classCount();
  if (classes == 2) {
    // The positive class's index: classes[1] unless `positive` names the other one.
    std::int32_t positive = 1;
    if (schema_.classSource == data::ClassSource::kDeclared && schema_.positive == schema_.classes[0]) positive = 0;
    std::int8_t* y = dataset_->labels();
    for (std::size_t i = 0; i < codes_.size(); ++i) y[i] = codes_[i] == positive ? 1 : -1;
  } else {
    // One-vs-rest: the trainer writes each class's labels; until then all negative.
    std::fill(dataset_->labels(), dataset_->labels() + dataset_->rows(), std::int8_t{-1});
  }
  if (mode_ == Mode::kLocal) {
    pass_ = Pass::kDone;
    return;
  }
  settings_ = resolve(options_, dataset_->rows(), encoding_.width, classes);
  settings_.plan.discoveryColumns = m_;
  settings_.plan.discoveryShare = m_ > 0 ? options_.discoveryShare.value_or(kDiscoveryShare) : 0.0;
  if (settings_.plan.rangeShare > 0) {
    // Encoded 0/1 columns and declared ranges are public: only the others are estimated.
    const std::vector<bool> unit = encoding_.publicUnitColumns();
    settings_.knownRanges.assign(encoding_.width, std::nullopt);
    bool estimate = false;
    for (const data::EncodedBlock& b : encoding_.blocks) {
      if (b.kind == data::ColumnKind::kNumeric) {
        if (b.range) settings_.knownRanges[b.offset] = learn::ColumnRange{(*b.range)[0], (*b.range)[1]};
        else estimate = true;
      }
    }
    for (std::size_t j = 0; j < unit.size(); ++j) {
      if (unit[j]) settings_.knownRanges[j] = learn::ColumnRange{0.0, 1.0};
    }
    if (!estimate) {
      // Every range is public: no budget for private ones.
      settings_.preprocessing.ranges.clear();
      for (const auto& r : settings_.knownRanges) settings_.preprocessing.ranges.push_back(*r);
      settings_.knownRanges.clear();
      if (options_.rangeShare && *options_.rangeShare > 0) {
        throwBadParameter("rangeShare", "0 when every column's range is public", *options_.rangeShare);
      }
      settings_.plan.rangeShare = 0.0;
    }
  }
  plan::validateRequest(settings_.plan);
  if (classes == 2 && dataset_->rows() >= 2) {
    // Both classes among the rows, said in the table's words (the dataset's check names neither
    // the class nor the column).
    const std::int8_t* y = dataset_->labels();
    const std::size_t positives = std::size_t(std::count(y, y + dataset_->rows(), std::int8_t{1}));
    if (positives == 0 || positives == dataset_->rows()) {
      const std::string positive = schema_.classSource == data::ClassSource::kPositive ? schema_.positive
                                   : schema_.classSource == data::ClassSource::kBinary01 ? std::string("1")
                                   : schema_.classSource == data::ClassSource::kDeclared && schema_.positive == schema_.classes[0]
                                       ? schema_.classes[0] : schema_.classes[1];
      throw Error(ErrorCode::kOneClass, "",
                  "all " + std::to_string(dataset_->rows()) + " rows are " + (positives == 0 ? "negative" : "positive") +
                      " for positive class " + Node::ofText(positive).shown() + " of label column " +
                      Node::ofText(schema_.labelColumn()->name).shown() + ": training needs both classes");
    }
  }
  if (classes == 2) dataset_->validate(true);
  pass_ = Pass::kDone;
}

}  // namespace dpmargin::run

namespace dpmargin::run {

// ---- CsvRead ----

CsvRead::CsvRead(const Options& options, data::Encoding encoding, std::vector<std::string> classes,
                 std::optional<std::vector<std::uint64_t>> rows)
    : options_(options),
      encoding_(std::move(encoding)),
      classes_(std::move(classes)),
      reader_((data::validateTableOptions(options.table), data::csvOptionsFor(options.table)), std::move(rows)) {
  if (options_.maxBytes) requirePositive("maxBytes", *options_.maxBytes);
  reader_.setMaxBytes(options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0));
}

void CsvRead::expectBytes(std::uint64_t sourceBytes) {
  if (pass_ != Pass::kScan || reader_.bytes() > 0) {
    throw Error(ErrorCode::kInternal, "", "CsvRead: expectBytes() after the first feed");
  }
  reader_.keepScanValues(sourceBytes);
}

void CsvRead::feed(const char* data, std::size_t size) {
  if (pass_ == Pass::kDone) throw Error(ErrorCode::kInternal, "", "CsvRead: feed() after the last pass");
  reader_.feed(data, size);
}
std::uint64_t CsvRead::bytes() const { return reader_.bytes(); }
std::uint64_t CsvRead::rows() const { return reader_.rowsRead(); }
const data::CsvScan& CsvRead::scan() const { return reader_.scan(); }

void CsvRead::endPass() {
  if (pass_ == Pass::kScan) {
    const data::CsvScan& scan = reader_.finishScan();
    schema_ = data::schemaForEncoding(scan, encoding_, options_.table.label);
    // A label column absent from the file is not an error here: prediction needs none (the
    // caller refuses it when the user named the column).
    labelled_ = schema_.label >= 0 && !classes_.empty();
    const double maxBytes = options_.maxBytes.value_or(double(learn::kMaxTableValues) * 4.0);
    reader_.beginFill(schema_, encoding_, labelled_ ? classes_ : std::vector<std::string>{}, false, maxBytes);
    pass_ = Pass::kFill;
    if (reader_.filledFromScan()) endPass();  // a plain numeric table: the scan's values
    return;
  }
  if (pass_ == Pass::kFill) {
    fill_ = reader_.finishFill();
    dataset_ = reader_.takeDataset();
    codes_ = reader_.labelCodes();
    if (labelled_) {
      // ±1 against the first class (the positive one of a binary model); the codes hold all.
      std::int8_t* y = dataset_->labels();
      for (std::size_t i = 0; i < codes_.size(); ++i) y[i] = codes_[i] == 0 ? 1 : -1;
    }
    pass_ = Pass::kDone;
    return;
  }
  throw Error(ErrorCode::kInternal, "", "CsvRead: endPass() after the last pass");
}

std::unique_ptr<learn::Dataset> CsvRead::takeDataset() {
  if (pass_ != Pass::kDone || !dataset_) throw Error(ErrorCode::kInternal, "", "CsvRead: takeDataset() before the last pass");
  return std::move(dataset_);
}
const std::vector<std::int32_t>& CsvRead::labelCodes() const { return codes_; }

// ---- summary ----

Node summarizeColumn(const data::CsvScan& scan, std::size_t column, std::size_t maxValues) {
  if (column >= scan.columns.size()) {
    throw Error(ErrorCode::kInternal, "", "summarizeColumn: no column " + std::to_string(column));
  }
  const data::ColumnSummary& c = scan.columns[column];
  std::vector<std::pair<std::string, Node>> f;
  f.emplace_back("name", Node::ofText(c.name));
  f.emplace_back("numbers", Node::ofNumber(double(c.numbers)));
  f.emplace_back("missing", Node::ofNumber(double(c.missing)));
  f.emplace_back("nonFinite", Node::ofNumber(double(c.nonFinite)));
  f.emplace_back("text", Node::ofNumber(double(c.text)));
  f.emplace_back("distinct", Node::ofNumber(double(c.distinct.size())));
  f.emplace_back("distinctCapped", Node::ofBoolean(c.distinctCapped));
  // Most frequent first (ties in order of appearance), at most maxValues.
  std::vector<const data::DistinctValue*> order;
  for (const auto& v : c.distinct) order.push_back(&v);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->count > b->count; });
  std::vector<Node> values;
  for (std::size_t k = 0; k < order.size() && k < maxValues; ++k) {
    values.push_back(Node::ofObject({{"value", Node::ofText(order[k]->value)},
                                     {"count", Node::ofNumber(double(order[k]->count))}}));
  }
  f.emplace_back("values", Node::ofList(std::move(values)));
  const auto cell = [](const data::CellSample& s) {
    return s.line < 0 ? Node::null()
                      : Node::ofObject({{"value", Node::ofText(s.value)}, {"line", Node::ofNumber(double(s.line))}});
  };
  f.emplace_back("firstText", cell(c.firstText));
  f.emplace_back("firstMissing", cell(c.firstMissing));
  f.emplace_back("firstNonFinite", cell(c.firstNonFinite));
  return Node::ofObject(std::move(f));
}

Node summarizeScan(const data::CsvScan& scan, const Options& options, std::size_t maxValues) {
  std::vector<Node> columns;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) columns.push_back(summarizeColumn(scan, j, maxValues));
  std::vector<std::pair<std::string, Node>> top;
  top.emplace_back("rows", Node::ofNumber(double(scan.rows)));
  top.emplace_back("bytes", Node::ofNumber(double(scan.bytes)));
  top.emplace_back("headerLine", Node::ofNumber(double(scan.headerLine)));
  top.emplace_back("delimiter", Node::ofText(std::string(1, scan.dialect.delimiter)));
  top.emplace_back("decimal", Node::ofText(std::string(1, scan.dialect.decimal)));
  top.emplace_back("encoding", Node::ofText(scan.dialect.encoding == data::CsvEncoding::kUtf8 ? "utf-8" : "latin1"));
  top.emplace_back("newline", Node::ofText(scan.dialect.newline == data::CsvNewline::kLf ? "\n"
                                           : scan.dialect.newline == data::CsvNewline::kCrLf ? "\r\n" : "\r"));
  top.emplace_back("columns", Node::ofList(std::move(columns)));
  std::vector<Node> preview;
  for (const auto& row : scan.preview) preview.push_back(Node::ofTexts(row));
  top.emplace_back("preview", Node::ofList(std::move(preview)));
  std::vector<Node> lines;
  for (std::int64_t line : scan.previewLines) lines.push_back(Node::ofNumber(double(line)));
  top.emplace_back("previewLines", Node::ofList(std::move(lines)));
  // The schema training would use; a choice that does not fit the table is reported, not thrown.
  try {
    top.emplace_back("schema", data::describeSchema(data::resolveSchema(scan, options.table, data::SchemaPurpose::kSummary)));
    top.emplace_back("schemaError", Node::null());
  } catch (const Error& e) {
    top.emplace_back("schema", Node::null());
    top.emplace_back("schemaError", Node::ofObject({{"code", Node::ofText(errorCodeName(e.code()))},
                                                    {"parameter", Node::ofText(e.parameter())},
                                                    {"message", Node::ofText(e.what())}}));
  }
  return Node::ofObject(std::move(top));
}

}  // namespace dpmargin::run
