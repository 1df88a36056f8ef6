// One owner for every decision about a run (docs/ARCHITECTURE.md). A caller — the JS API, the
// command line, the web app, a native tool — says only what it wants (`Options`, every field
// optional: unset is not 0); `resolve()` applies every default, parses every name, validates
// every value once and returns the resolved run (`learn::TrainSettings`) from which training,
// the plan, the reports, the CLI and the app all read. The option table (`optionSpecs()`) is
// the one declaration of the options: their names, types, defaults and help, which the JS
// layer, the CLI's --help and the app's advanced form read instead of restating them.
#pragma once

#include <array>
#include <memory>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dpmargin/data/encoding.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/data/table.hpp"
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
  // A label of 3 or more classes: one joint learner or one-vs-rest, and the joint loss.
  std::optional<plan::Multiclass> multiclass;
  std::optional<plan::JointLoss> multiclassLoss;
  // Preprocessing (per row, public constants; or private column ranges).
  std::optional<bool> intercept;
  std::optional<learn::RowNormalization> rowNormalization;
  std::optional<double> normBound;
  std::optional<std::vector<learn::ColumnRange>> columnRanges;
  // The per-value map of each declared range (default min-max); a model file's released
  // scalings come back through it (docs/design/SCALING.md).
  std::optional<std::vector<learn::ScalingMap>> columnMaps;
  std::optional<double> rangeShare;
  // Private category discovery: its share of the GDP budget (docs/reference/DATA_PIPELINE.md).
  std::optional<double> discoveryShare;
  // The private schema decisions of a CSV run: their share of the budget (docs/reference/PRIVACY.md).
  std::optional<double> schemaShare;
  // The table (CSV input only): label, classes, columns, missing values, dialect, schema.
  data::TableOptions table;
  std::optional<double> maxBytes;  // largest table to allocate, rows × (width + 1) × 4 bytes
  // A seed makes the run deterministic and NOT private (every output says so).
  std::optional<std::uint64_t> seed;
  // The table's shape, for a data-free plan only (account): n rows, d model dimensions
  // (the intercept included). Training takes both from the data.
  std::optional<std::uint64_t> n, d;
  // The label's number of classes, for a data-free plan only: 2 (binary, the default) or 3…50
  // (one-vs-rest). Training takes it from the data (resolve's `classes`).
  std::optional<std::uint64_t> classCount;
};

// A value as it arrives from JavaScript or a command line, before the option table parses it.
struct Value {
  // kOther: any other JavaScript value (an object, null, a function …): the wrong type for
  // every option.
  enum class Kind { kNumber, kBoolean, kText, kPairs, kTexts, kNode, kOther };
  Kind kind = Kind::kNumber;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<std::array<double, 2>> pairs;
  std::vector<std::string> texts;  // kTexts: an array of strings
  Node node;                       // kNode: any object (a schema)
  // How the caller's value reads in an error message (e.g. "\"abc\"", "true", "[object]").
  std::string shown;

  static Value ofNumber(double v);
  static Value ofBoolean(bool v);
  static Value ofText(std::string v);
  static Value ofPairs(std::vector<std::array<double, 2>> v);
  static Value ofTexts(std::vector<std::string> v);
  static Value ofNode(Node v);
  static Value ofOther(std::string shown);
};

enum class OptionType {
  kNumber,   // finite double (range checked by resolve)
  kCount,    // non-negative integer ≤ 2^53, given as a number
  kBoolean,
  kChoice,   // one of `choices`
  kRanges,   // [[lo, hi], …], one pair per feature column
  kText,     // a string
  kTexts,    // an array of strings (a command line: comma-separated)
  kSchema,   // a schema object (a command line: a JSON file)
};

// Where an option applies: training and data-free plans, training only, plans only, or reading
// a table (the CSV options of trainCsv/predictCsv; the CLI's data flags).
enum class OptionScope { kBoth, kTrain, kPlan, kTable };

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

// Public names of the types and scopes ("number", …, "schema"; "both", "train", "plan", "table").
const char* toString(OptionType type) noexcept;
const char* toString(OptionScope scope) noexcept;

// The option table, in the order the CLI's --help lists them.
const std::vector<OptionSpec>& optionSpecs();
const OptionSpec* findOption(std::string_view name);
// Sets option `name` from `value`: BAD_PARAMETER for an unknown name (listing the known ones)
// or a value of the wrong type or an unknown choice (naming the option and the value).
void setOption(Options& options, std::string_view name, const Value& value);
// The same for one of the two objects of the JS API: table options (scope kTable) only in the
// CSV options, the others only in the training options (BAD_PARAMETER saying where it goes).
void setOption(Options& options, std::string_view name, const Value& value, bool tableObject);
// The same from text as typed on a command line ("1e-5", "true", "iter"), read by the option's
// declared type (native tools and benchmarks: key=value arguments). Ranges are not accepted.
void setOptionFromText(Options& options, std::string_view name, const std::string& text);

// The resolved run for a table of `n` rows and `features` feature columns: every default
// applied (the range policy, the iterate by calibration, the intercept, the row operation, the
// norm bound, pruning, the iteration cap, the step and hinge scales, β), every value validated
// (BAD_PARAMETER naming the option). Training options only (n, d and classCount must be unset).
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

// Share of the budget for category discovery when some is needed (docs/reference/DATA_PIPELINE.md), and when the
// label's classes are discovered (its own histogram gets ⅔ of it with other columns, all of it
// alone). A larger share finds more small classes but costs every binary text label its part of
// μ_train, and the class count is not known before the discovery (docs/reference/MULTICLASS.md, "Class
// lists at small n"): the default stays 0.1; `discoveryShare` raises it.
inline constexpr double kDiscoveryShare = 0.1;
inline constexpr double kClassDiscoveryShare = 0.1;
// "auto" categories are discovered when the threshold τ is at most this share of the rows.
inline constexpr double kAutoDiscoverRowShare = 0.1;

namespace detail {
// The budget of a CSV run fixed after the scan by the header and the options alone (public):
// the training rows, the private schema release's coordinates and share, and whether the run
// may discover categories or classes (then μ is read with discovery's δ reserved). The rules
// that set it are shared by the run and its preview (src/run/csv_plan.hpp).
struct CsvBudget {
  std::uint64_t n = 0;
  std::uint64_t schemaCoordinates = 0;
  double schemaShare = 0;
  bool discoveryPossible = false;
};
}  // namespace detail

// A training run on a CSV (docs/reference/DATA_PIPELINE.md, "One run"): the caller feeds the file's bytes once per
// pass — while (pass() != kDone) { feed(…)…; endPass(); } — and the run decides everything in
// between: the schema after the scan, category discovery (under the budget) after the counting
// pass, the encoding and the Dataset for the fill. Then settings(), dataset() and the label
// codes are what training takes. Each step throws the typed errors of the core.
class CsvRun {
 public:
  enum class Pass { kScan, kCount, kFill, kDone };
  // kPrivate: a training run (the budget is required; categories and classes are discovered
  // under it). kLocal: the same table for the user's own eyes only — the margin profile, a
  // table read into JavaScript — with categories and classes taken exactly from the data; its
  // outputs are NOT private and are never part of a released model.
  enum class Mode { kPrivate, kLocal };
  // `rows`: the data rows to train on (a split), strictly increasing; unset: all. The options
  // are validated at once (before any byte is read).
  CsvRun(Options options, std::optional<std::vector<std::uint64_t>> rows = std::nullopt,
         Mode mode = Mode::kPrivate);
  ~CsvRun();

  Pass pass() const noexcept { return pass_; }
  // The source's size in bytes, when known, before the first feed: a plain numeric table is
  // then read in one pass (data::TableReader::keepScanValues; the same table either way).
  void expectBytes(std::uint64_t sourceBytes);
  void feed(const char* data, std::size_t size);
  void endPass();
  std::uint64_t bytes() const;  // of the current pass
  std::uint64_t rows() const;

  // Once scanned:
  const data::CsvScan& scan() const;
  // The run's budget (μ and its split, the schema release's σ, discovery's σ and τ once the
  // discovered columns are known): public numbers, the same the training's plan holds.
  plan::Plan budget() const;
  const data::Schema& schema() const;  // levels and classes filled in once discovered
  // Once done:
  const data::Encoding& encoding() const;
  const learn::TrainSettings& settings() const;
  learn::Dataset& dataset();
  std::unique_ptr<learn::Dataset> takeDataset();
  // Per row: the class index (in schema().classes; kOtherCode: none of them).
  const std::vector<std::int32_t>& classCodes() const;
  std::size_t classCount() const;  // binary problems: 2
  // Training rows whose label is none of the discovered classes (they are negatives for every
  // class): a local fact for the caller's warning, never released. 0 unless discovered.
  std::uint64_t labelOutsideClasses() const;
  const data::FillResult& fillResult() const;
  random::Generator takeGenerator();

 private:
  void afterScan();
  void afterCount();
  void beginFill();
  void afterFill();
  plan::PlanRequest budgetRequest(std::uint64_t m) const;

  Options options_;
  Mode mode_;
  data::TableReader reader_;
  Pass pass_ = Pass::kScan;
  data::Schema schema_;
  data::Encoding encoding_;
  std::vector<std::size_t> discovered_;  // file columns discovered (the label last)
  std::uint64_t m_ = 0;
  // The budget fixed after the scan (the private schema release's coordinates and share,
  // whether the run may discover): public, from the header and the options.
  detail::CsvBudget budget_;
  std::unique_ptr<random::Generator> generator_;
  std::unique_ptr<learn::Dataset> dataset_;
  learn::TrainSettings settings_;
  std::vector<std::int32_t> codes_;
  std::uint64_t outside_ = 0;
  data::FillResult fill_;
};

// Reading a CSV with a released model's encoding (prediction and evaluation): the same passes
// (scan, fill), the model's columns found by name, its categories closed (an unknown value →
// "other"), the label read when `label` is given and present (an unknown class → kOtherCode:
// counted as an error by an evaluation, never refused).
class CsvRead {
 public:
  enum class Pass { kScan, kFill, kDone };
  // `options`: only the table options are read (dialect, missing tokens, label, maxBytes).
  CsvRead(const Options& options, data::Encoding encoding, std::vector<std::string> classes,
          std::optional<std::vector<std::uint64_t>> rows = std::nullopt);
  Pass pass() const noexcept { return pass_; }
  // As CsvRun::expectBytes: a plain numeric file of known size is read in one pass.
  void expectBytes(std::uint64_t sourceBytes);
  void feed(const char* data, std::size_t size);
  void endPass();
  std::uint64_t bytes() const;
  std::uint64_t rows() const;
  const data::CsvScan& scan() const;
  bool labelled() const noexcept { return labelled_; }  // the label column was read
  std::unique_ptr<learn::Dataset> takeDataset();
  const std::vector<std::int32_t>& labelCodes() const;
  const data::FillResult& fillResult() const { return fill_; }

 private:
  Options options_;
  data::Encoding encoding_;
  std::vector<std::string> classes_;
  data::TableReader reader_;
  data::Schema schema_;
  Pass pass_ = Pass::kScan;
  bool labelled_ = false;
  std::unique_ptr<learn::Dataset> dataset_;
  std::vector<std::int32_t> codes_;
  data::FillResult fill_;
};

// What a preview shows before training (local, never released): per column its cell classes,
// its first values with counts, its first text / missing cell; and the schema training would
// resolve with `options` (the label proposed by its header name when none is given).
Node summarizeScan(const data::CsvScan& scan, const Options& options, std::size_t maxValues);
// One column of that summary: the scan's column `column` (file order; INTERNAL beyond the last).
// E.g. a training run's label column, from the run's own scan (CsvRun::scan).
Node summarizeColumn(const data::CsvScan& scan, std::size_t column, std::size_t maxValues);

// ---- The preview of a CSV run (docs/PRIVACY.md "The schema"; the app's Data tab) ----
//
// From one scan, what a training run with `options` would decide, and how — by the run's own
// functions (data::schemaQuestions, data::resolveSchema, the budget and plan of csv_plan.hpp):
// - public facts: the header, n, the dialect, the label the core proposes and why, the
//   identifier columns, the positive-class rule;
// - per column: its kind and nullable, each with its decision — "declared" (the caller's
//   choice), "public" (a rule of the header and the options) or "private" (decided in the run on
//   noisy counts: the value shown is then the LOCAL expectation, from the exact counts) — the
//   core's reason, and the local exact facts (cell counts, top values) under `local`;
// - the model's columns (the encoding's width, its feature names) under that expectation (discovered levels and
//   classes: the local values whose count exceeds the budget's threshold, up to maxLevels — an
//   estimate, said so);
// - with `planned` (run options given: ε, δ, …): the plan the run would make (the schema
//   release, the discovery reservation and columns, d, μ and its split, the candidates), equal
//   to the run's whenever its private decisions agree with the exact counts and nothing is
//   discovered; an option or a table that the run would refuse gives `planError` instead.
// The preview is local and NOT private: it is for the data owner's eyes, never part of a model
// file or a report. `n`: the training rows (the scan's rows, or a split's).
Node previewCsv(const data::CsvScan& scan, std::uint64_t n, const Options& options, bool planned,
                std::size_t maxValues);

// The one pass of a preview: the scan of the rows a run would train on.
class CsvPreview {
 public:
  // `options`: the table options and, when `planned`, the run's (validated by the preview, which
  // reports what the run would refuse as planError); `rows`: the training rows (a split),
  // strictly increasing; `previewRows`: data rows kept as text (at most 1000).
  CsvPreview(Options options, bool planned, std::optional<std::vector<std::uint64_t>> rows,
             std::size_t previewRows);
  ~CsvPreview();
  bool done() const noexcept { return done_; }
  void feed(const char* data, std::size_t size);
  void endPass();
  std::uint64_t bytes() const;
  std::uint64_t rows() const;
  // Once scanned: previewCsv of the scan (INTERNAL before).
  Node preview(std::size_t maxValues) const;

 private:
  Options options_;
  bool planned_;
  data::TableReader reader_;
  bool done_ = false;
};

}  // namespace dpmargin::run
