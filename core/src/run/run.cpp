// The option table and the resolver (run.hpp): every option's name, type, default and help,
// and the one function that turns a caller's options into a resolved run. A new option is a
// field in run.hpp, an entry in kSpecs below and its resolution in resolveCommon/resolve here,
// and its line in wasm/src/types.ts (docs/ARCHITECTURE.md, "How to add an option").
#include "dpmargin/run/run.hpp"

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
// Noise-floor pruning ratio (docs/ACCURACY.md: +0.2 points mean over 10 tables at ε = 1).
constexpr double kPruneRatio = 100.0;
// PrivTune's E[K].
constexpr double kExpectedRuns = 10.0;
// Share of the GDP budget spent on private column ranges with "iter" and "fixed" when no
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
plan::Pruning defaultPruning(plan::Calibration c, plan::Selector s) {
  // "paper" reproduces the paper (the whole grid); a fixed margin has nothing to prune.
  return c == plan::Calibration::kTight && s != plan::Selector::kFixed ? plan::Pruning::kNoiseFloor
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
      {"classes", K::kCount, S::kPlan, "table", "", num(2.0), "2 (a binary label)",
       "classes of the label: 2, or 3 to 50 trained one-vs-rest (data-free plans only)",
       [](Options& o, const Value& v) { o.classes = count("classes", v, 0); }},
      {"selector", K::kChoice, S::kBoth, "method", "iter|privtune|fixed", txt("iter"), "iter",
       "private selection: iter (M*, paper Algo 2), privtune (M', Algo 3), fixed (one margin)",
       [](Options& o, const Value& v) { o.selector = plan::parseSelector(text("selector", "iter|privtune|fixed", v)); }},
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
      {"maxIterations", K::kCount, S::kBoth, "method", "", num(double(kMaxIterations)),
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
       show(kRangeShare) + " with iter and fixed when no columnRanges are declared, else 0",
       "share s of the GDP budget for private column ranges (0: none)",
       [](Options& o, const Value& v) { o.rangeShare = number("rangeShare", v); }},
      {"columnRanges", K::kRanges, S::kTrain, "preprocessing", "", none, "none",
       "public per-column ranges [lo, hi], one per feature (declare only public ranges)",
       [](Options& o, const Value& v) { o.columnRanges = ranges("columnRanges", v); }},
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
  r.selector = o.selector.value_or(plan::Selector::kIter);
  r.calibration = o.calibration.value_or(plan::Calibration::kTight);
  r.score = o.score.value_or(plan::ScoreKind::kEmpirical);
  r.expectedRuns = o.expectedRuns.value_or(kExpectedRuns);
  if (o.jlFailure) {
    r.jlFailure = *o.jlFailure;
    requireOpenUnit("jlFailure", r.jlFailure);
  } else {
    const double nd = static_cast<double>(n);
    r.jlFailure = 1.0 / (nd * nd);  // the paper's theorems
  }
  r.maxIterations = o.maxIterations.value_or(kMaxIterations);
  if (r.selector == plan::Selector::kFixed && !o.margin) {
    required("margin", "a number with selector \"fixed\"");
  }
  r.margin = o.margin.value_or(0.0);
  r.rangeShare = o.rangeShare.value_or(defaultRangeShare(r.selector, rangesDeclared));
  r.stepScale = o.stepScale.value_or(r.calibration == plan::Calibration::kTight ? kTightStepScale : 1.0);
  r.hingeScale = o.hingeScale.value_or(1.0);
  // Pruning applies to a choice among margins: a fixed margin has none, whatever was asked.
  r.pruning = r.selector == plan::Selector::kFixed
                  ? plan::Pruning::kNone
                  : o.pruning.value_or(defaultPruning(r.calibration, r.selector));
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

Value Value::ofOther(std::string shown) {
  Value out;
  out.kind = Kind::kOther;
  out.shown = std::move(shown);
  return out;
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
    case OptionType::kChoice:
    case OptionType::kRanges:
      return setOption(options, name, Value::ofText(text));
  }
}

learn::Preprocessing resolvePreprocessing(const Options& o) {
  learn::Preprocessing p;
  p.intercept = o.intercept.value_or(true);
  p.rows = o.rowNormalization.value_or(learn::RowNormalization::kUnitNorm);
  p.normBound = o.normBound.value_or(kNormBound);
  p.ranges = o.columnRanges.value_or(std::vector<learn::ColumnRange>{});
  learn::validatePreprocessing(p);
  return p;
}

learn::TrainSettings resolve(const Options& o, std::uint64_t n, std::uint64_t features,
                             std::uint64_t classes) {
  if (o.n || o.d) {
    throwBadParameter(o.n ? "n" : "d", "unset for training (the data give n and d)",
                      double(o.n ? *o.n : *o.d));
  }
  if (o.classes) {
    throwBadParameter("classes", "unset for training (the data give the label's classes)",
                      double(*o.classes));
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
  r.classes = plan::oneVsRestProblems(o.classes.value_or(2));
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

}  // namespace dpmargin::run
