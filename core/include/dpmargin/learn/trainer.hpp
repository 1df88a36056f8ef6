// The full learners (SPEC §2.7): M* (paper Algo 5: Iter over the margin grid), M′ (Algo 6:
// PrivTune) and a fixed-margin JL-GD run, as one resumable state machine so that callers can
// report progress and cancel between calls to advance().
//
// The trainer is the coordinator of docs/reference/SHARDING.md: it owns the plan, the schedule, the
// generator (Φ, gradient noise, score noise), the iterates and the selection, and reads rows
// only through sums it asks for — "set up this step", "the summed hinge gradients at W", "the
// error counts of these weights". advance() answers them with one local Shard over the whole
// prepared table; request()/answer*() let a caller answer them with sums over several shards
// (e.g. rows split over two workers). The sums, the noise and the accounting are the same.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/learn/projection.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

// A resolved run (run::resolve applies every default and validates; docs/ARCHITECTURE.md).
struct TrainSettings {
  // ε, δ, selector, calibration, score, E[K], β, maxIterations, margin, scales, pruning, range
  // share; n and d are the table's (checked against the data).
  plan::PlanRequest plan;
  Preprocessing preprocessing;  // normBound equals plan.normBound
  // With private ranges (plan.rangeShare > 0): columns whose range is public already (encoded
  // 0/1 columns, ranges declared in a schema) — the others are estimated. Empty: all estimated.
  std::vector<std::optional<ColumnRange>> knownRanges;
  OutputIterate output = OutputIterate::kLast;  // the released iterate
  std::optional<std::uint64_t> seed;            // set: a deterministic, NOT private run
};

// One base run: which candidate, and its released noisy score (Iter releases every one).
struct RunRecord {
  std::size_t candidate = 0;
  double noisyScore = 0;  // NaN for the fixed-margin learner (nothing is scored)
};

struct TrainResult {
  plan::Plan plan;
  std::vector<RunRecord> runs;  // Iter: one per candidate; PrivTune: K runs (not all released)
  std::size_t selectedRun = 0;
  std::size_t selectedCandidate = 0;
  std::vector<double> weights;  // w in the prepared feature space: ⟨w, x⟩ = ⟨w̃, Φx⟩
  // Column ranges used by the preprocessing (released with the model); `rangesPrivate` when the
  // trainer estimated them with μ_ranges.
  std::vector<ColumnRange> ranges;
  bool rangesPrivate = false;
  bool seeded = false;
};

struct Progress {
  std::size_t run = 0;        // base runs completed before the current step
  std::size_t runs = 0;       // m (Iter), K (PrivTune) or 1
  std::size_t batch = 1;      // base runs advancing together in the current step
  std::size_t candidate = 0;  // grid index being trained (the first of a batch)
  std::uint64_t iteration = 0, iterations = 0;
  // Candidate-iterations done and planned (a batch step of b candidates counts b per iteration);
  // PrivTune's total uses the mean T over the grid for runs not drawn yet.
  double workDone = 0, workTotal = 0;
  bool done = false;
  // One-vs-rest (one_vs_rest.hpp): the binary problem being trained (class `problem` against
  // the rest) of `problems`; the counts above are that problem's, the work is over all of them.
  std::size_t problem = 0, problems = 1;
};

// What the coordinator needs next (Trainer::request()). Pointers stay valid until the answer.
struct ShardRequest {
  enum class Kind {
    kSetup,      // every shard: Shard::setup(*setup); then answerSetup()
    kGradients,  // every shard: Shard::gradients(*weights) (k × m); answerGradients(Σ over shards)
    kErrors,     // every shard: Shard::countErrors(*candidates) (width × m); answerErrors(Σ)
    kDone,       // training finished: result() is ready
    // One-vs-rest (one_vs_rest.hpp) between two problems: every shard takes the new ±1 labels
    // of its rows, Shard::setLabels(labels + first row of the shard); then answerLabels().
    // The Trainer itself never asks for it.
    kLabels,
  };
  Kind kind = Kind::kDone;
  const StepSetup* setup = nullptr;
  const Eigen::MatrixXf* weights = nullptr;
  const Eigen::MatrixXd* candidates = nullptr;
  const std::int8_t* labels = nullptr;  // kLabels: one per row of the whole table (n)
};

class Trainer {
 public:
  // Validates `data` and prepares it in place with the settings' preprocessing (estimating
  // private column ranges first when settings.plan.rangeShare > 0), unless it is prepared
  // already with the same norm bound. `data` must stay alive and unchanged while training.
  // Throws BAD_PARAMETER for settings that do not fit the data.
  Trainer(Dataset& data, const TrainSettings& settings, random::Generator generator);
  // The same with its plan computed already (many runs of one configuration, e.g. the privacy
  // audit): `plan` must be makePlan of the settings' request with the data's n and d
  // (INTERNAL otherwise).
  Trainer(Dataset& data, const TrainSettings& settings, random::Generator generator,
          const plan::Plan& plan);
  // A later problem of a one-vs-rest run (one_vs_rest.hpp) on rows that an earlier problem of
  // the same run prepared: nothing is validated, estimated or prepared again — the private
  // column ranges (μ_ranges, spent once for the whole run) are `prepared.ranges`
  // (`rangesPrivate`) — and the labels are the new problem's. `plan` is the run's (makePlan of
  // the settings' request, INTERNAL otherwise). `rows` may be empty (DataView{}) when shards
  // hold the rows: the trainer is then driven by request()/answer*() only.
  Trainer(const DataView& rows, const Preprocessing& prepared, bool rangesPrivate,
          const TrainSettings& settings, random::Generator generator, const plan::Plan& plan);
  ~Trainer();

  // Runs up to `iterationBudget` noisy-GD iterations (≥ 1) on the local table (one shard over
  // every row); returns true when training is done. Not after detachRows().
  bool advance(std::uint64_t iterationBudget);

  // Pull-style driving by an external set of shards holding the prepared rows (data().x split
  // into contiguous blocks, in any number of shards). Starts the next step when needed (which
  // draws Φ or PrivTune's θ from the generator). Sums must be over all n rows.
  const ShardRequest& request();
  void answerSetup();
  void answerGradients(const Eigen::MatrixXd& sum);         // k × m
  void answerErrors(const std::vector<std::uint64_t>& errors);  // m counts
  // The same from per-shard partials (each k × m column-major, or m counts given as exact
  // integral doubles), added in shard order: what a caller with shards in other threads sends.
  void answerGradientPartials(const std::vector<std::vector<double>>& partials);
  void answerErrorPartials(const std::vector<std::vector<double>>& partials);
  // The prepared rows (valid until the Dataset dies; the caller copies them into shards).
  const DataView& data() const noexcept { return data_; }
  // The caller drives the trainer with request()/answer*() only and may free the rows.
  void detachRows() noexcept;
  Progress progress() const;
  const TrainResult& result() const;  // once done
  const plan::Plan& plan() const noexcept { return result_.plan; }  // known before training
  // Once done: the generator moves on (to the next problem of a one-vs-rest run, so that every
  // draw of a run comes from one stream). The trainer draws nothing afterwards.
  random::Generator takeGenerator();

  // Instrumentation for tests and benchmarks only: sees every base run's weights before
  // selection. What it sees is NOT private and is never part of a released result.
  using RunObserver = std::function<void(std::size_t run, std::size_t candidate,
                                         const std::vector<double>& weights)>;
  void setRunObserver(RunObserver observer) { observer_ = std::move(observer); }

 private:
  Trainer(Dataset& data, const TrainSettings& settings, random::Generator generator,
          const plan::Plan* plan);
  enum class Phase { kIdle, kSetup, kIterate, kScore, kDone };
  void planRuns();  // the run count (PrivTune: K drawn) and the schedule
  void buildSchedule();
  void startStep();
  void beginIteration();
  void endIterations();
  void recordRun(std::size_t candidate, const Eigen::VectorXd& w, double score);
  void finishStep();
  void finish();
  void expect(Phase phase, const char* what) const;

  DataView data_;
  bool detached_ = false;
  std::unique_ptr<Shard> local_;  // advance(): one shard over the whole local table
  TrainSettings settings_;
  random::Generator generator_;
  TrainResult result_;
  std::size_t runCount_ = 0;
  // Iter/fixed: the candidates of each step (a step of several candidates is one batch: Φ = I,
  // equal T and R). PrivTune: one step per run, its θ_t drawn when the step starts.
  std::vector<std::vector<std::size_t>> schedule_;
  std::size_t step_ = 0;
  double completedWork_ = 0;
  std::vector<std::size_t> current_;  // candidates of the step in progress
  Phase phase_ = Phase::kIdle;
  ShardRequest request_;
  // The step in progress: noisy GD for its m candidates in lockstep (w₀ = 0; per iteration
  // g = Σ_shards Σ_rows ∇ℓ + N(0, σ_j² I_k), w_j ← w_j − η_j g_j; SPEC §2.4): the only
  // noisy-GD loop of the library.
  StepSetup setup_;  // setup_.phi: Φ of a projected step
  std::vector<NoisyGdParams> params_;
  std::uint64_t t_ = 0, iterations_ = 0;
  Eigen::MatrixXd w_, sum_, gradient_;
  Eigen::MatrixXf wFloat_;
  Eigen::MatrixXd outputs_;  // width × m: the step's candidates in the prepared feature space
  Eigen::VectorXd bestWeights_;
  double bestScore_ = 0;
  bool done_ = false;
  RunObserver observer_;
};

// The public fields of a result and of a progress report (names as in the JS API and the CLI's
// JSON; the field writer of plan::describePlan, plus v.numberPairs(name, pairs)). The result's
// plan is written by the caller (plan::describePlan) where it is wanted.
// The released column scalings: columnRanges [lo, hi] per feature (what a model file declares
// back), columnScalings {lo, hi, map, path} per feature (the map is needed to predict; the path
// says how each was chosen: declared, private, fallback), rangesPrivate.
template <class Writer>
void describeScalings(const std::vector<ColumnScaling>& scalings, bool rangesPrivate, Writer& v) {
  std::vector<std::array<double, 2>> ranges;
  ranges.reserve(scalings.size());
  for (const ColumnScaling& c : scalings) ranges.push_back({c.lo, c.hi});
  v.numberPairs("columnRanges", ranges);
  v.list("columnScalings", scalings.size(), [&](std::size_t j, Writer& w) {
    w.number("lo", scalings[j].lo);
    w.number("hi", scalings[j].hi);
    w.text("map", scalingMapName(scalings[j].map));
    w.text("path", scalingPathName(scalings[j].path));
  });
  v.boolean("rangesPrivate", rangesPrivate);
}

template <class Writer>
void describeResult(const TrainResult& r, Writer& v) {
  v.list("runs", r.runs.size(), [&](std::size_t i, Writer& w) {
    w.count("candidate", r.runs[i].candidate);
    w.number("noisyScore", r.runs[i].noisyScore);
  });
  v.count("selectedRun", r.selectedRun);
  v.count("selectedCandidate", r.selectedCandidate);
  v.numbers("weights", r.weights);
  v.boolean("seeded", r.seeded);
  describeScalings(r.ranges, r.rangesPrivate, v);
}

template <class Writer>
void describeProgress(const Progress& p, Writer& v) {
  v.count("run", p.run);
  v.count("runs", p.runs);
  v.count("candidate", p.candidate);
  v.count("iteration", p.iteration);
  v.count("iterations", p.iterations);
  v.count("batch", p.batch);
  v.number("workDone", p.workDone);
  v.number("workTotal", p.workTotal);
  v.boolean("done", p.done);
  v.count("problem", p.problem);
  v.count("problems", p.problems);
}

// Scores ⟨w, x_i⟩ of prepared rows (what predict returns; sign > 0 → positive class).
std::vector<double> decisionScores(const DataView& data, const std::vector<double>& weights);
// #{i : y_i⟨w, x_i⟩ ≤ 0} (SPEC §2.5: ≤, so the zero vector scores n, not 0).
std::uint64_t countErrors(const DataView& data, const std::vector<double>& weights);
// The released score of one candidate (SPEC §2.5–2.6): its error count over all rows
// (sensitivity 1, replace-one) + the public penalty + N(0, scoreSd²). The one place score
// noise is drawn; the trainer calls it once per scored run.
double noisyScore(std::uint64_t errors, double penalty, double scoreSd, random::Generator& generator);

}  // namespace dpmargin::learn
