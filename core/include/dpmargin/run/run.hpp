// One owner for every decision about a run (docs/ARCHITECTURE.md). A caller — the JS API, the
// command line, the web app, a native tool — says only what it wants (`Options`, every field
// optional: unset is not 0); `resolve()` applies every default, parses every name, validates
// every value once and returns the resolved run (`learn::TrainSettings`) from which training,
// the plan, the reports, the CLI and the app all read. The option table (`optionSpecs()`) is
// the one declaration of the options: their names, types, defaults and help, which the JS
// layer, the CLI's --help and the app's advanced form read instead of restating them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/plan/plan.hpp"

namespace dpmargin::run {

// What a caller asks for. Names are the public ones (JS option names; CLI flags in kebab case).
struct Options {
  // The privacy budget: (ε, δ)-DP for replace-one neighbours.
  std::optional<double> epsilon, delta;
  // The method (SPEC §2).
  std::optional<plan::Selector> selector;
  std::optional<plan::Calibration> calibration;
  std::optional<plan::ScoreKind> score;
  std::optional<learn::OutputIterate> output;
  std::optional<double> margin;        // γ of selector "fixed"
  std::optional<double> expectedRuns;  // E[K] of PrivTune
  std::optional<double> jlFailure;     // β
  std::optional<std::uint64_t> maxIterations;
  std::optional<double> stepScale, hingeScale;
  std::optional<plan::Pruning> pruning;
  std::optional<double> pruneRatio;
  // Preprocessing (per row, public constants; or private column ranges).
  std::optional<bool> intercept;
  std::optional<learn::RowNormalization> rowNormalization;
  std::optional<double> normBound;
  std::optional<std::vector<learn::ColumnRange>> columnRanges;
  std::optional<double> rangeShare;
  // A seed makes the run deterministic and NOT private (every output says so).
  std::optional<std::uint64_t> seed;
  // The table's shape, for a data-free plan only (account): n rows, d model dimensions
  // (the intercept included). Training takes both from the data.
  std::optional<std::uint64_t> n, d;
  // The label's number of classes, for a data-free plan only: 2 (binary, the default) or 3…50
  // (one-vs-rest). Training takes it from the data (resolve's `classes`).
  std::optional<std::uint64_t> classes;
};

// A value as it arrives from JavaScript or a command line, before the option table parses it.
struct Value {
  // kOther: any other JavaScript value (an object, null, a function …): the wrong type for
  // every option.
  enum class Kind { kNumber, kBoolean, kText, kPairs, kOther };
  Kind kind = Kind::kNumber;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<std::array<double, 2>> pairs;
  // How the caller's value reads in an error message (e.g. "\"abc\"", "true", "[object]").
  std::string shown;

  static Value ofNumber(double v);
  static Value ofBoolean(bool v);
  static Value ofText(std::string v);
  static Value ofPairs(std::vector<std::array<double, 2>> v);
  static Value ofOther(std::string shown);
};

enum class OptionType {
  kNumber,   // finite double (range checked by resolve)
  kCount,    // non-negative integer ≤ 2^53, given as a number
  kBoolean,
  kChoice,   // one of `choices`
  kRanges,   // [[lo, hi], …], one pair per feature column
};

// Where an option applies: training and data-free plans, training only, or plans only.
enum class OptionScope { kBoth, kTrain, kPlan };

struct OptionSpec {
  const char* name;      // the API name; the CLI flag is its kebab case (--max-iterations)
  OptionType type;
  OptionScope scope;
  const char* group;     // "budget", "method", "preprocessing", "randomness", "table"
  const char* choices;   // kChoice: "iter|privtune|fixed"; else ""
  // The default: a value when it is a constant (e.g. 200), and always a text that says what
  // an unset option means (e.g. "last with calibration tight, average with paper").
  std::optional<Value> defaultValue;
  std::string defaultText;
  const char* help;      // one line, for --help and the app
  // Parses `value` (its type and names; ranges are checked by resolve) into `options`.
  void (*set)(Options& options, const Value& value);
};

// The option table, in the order the CLI's --help lists them.
const std::vector<OptionSpec>& optionSpecs();
const OptionSpec* findOption(std::string_view name);
// Sets option `name` from `value`: BAD_PARAMETER for an unknown name (listing the known ones)
// or a value of the wrong type or an unknown choice (naming the option and the value).
void setOption(Options& options, std::string_view name, const Value& value);
// The same from text as typed on a command line ("1e-5", "true", "iter"), read by the option's
// declared type (native tools and benchmarks: key=value arguments). Ranges are not accepted.
void setOptionFromText(Options& options, std::string_view name, const std::string& text);

// The resolved run for a table of `n` rows and `features` feature columns: every default
// applied (the range policy, the iterate by calibration, the intercept, the row operation, the
// norm bound, pruning, the iteration cap, the step and hinge scales, β), every value validated
// (BAD_PARAMETER naming the option). Training options only (n, d and classes must be unset).
// `classes` is the label's number of classes (the data's): 2 for a binary label, 3…50 for one
// trained one-vs-rest (plan.classes = plan::oneVsRestProblems(classes); BAD_PARAMETER naming
// "classes" otherwise, or naming "selector" for PrivTune with 3 or more classes).
learn::TrainSettings resolve(const Options& options, std::uint64_t n, std::uint64_t features,
                             std::uint64_t classes = 2);
// The preprocessing options alone (intercept, rowNormalization, normBound, columnRanges) with
// their defaults: what a model file or the margin profile prepares rows with.
learn::Preprocessing resolvePreprocessing(const Options& options);
// The same checks without a table, before any data is read (what train() does first).
void validate(const Options& options);
// The data-free plan of a run (n and d required: d is the model's dimension, intercept
// included). Preprocessing options do not apply; rangeShare defaults as for training.
plan::Plan account(const Options& options);
// The plan training would make with `options` on a table of n rows and `features` feature
// columns and a label of `classes` classes, before reading it (what an app previews).
plan::Plan planForTable(const Options& options, std::uint64_t n, std::uint64_t features,
                        std::uint64_t classes = 2);

// The generator a resolved run uses: seeded (NOT private) when it has a seed, else the CSPRNG.
random::Generator makeGenerator(const learn::TrainSettings& settings);

}  // namespace dpmargin::run
