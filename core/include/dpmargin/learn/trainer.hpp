// The full learners (SPEC §2.7): M* (paper Algo 5: Iter over the margin grid), M′ (Algo 6:
// PrivTune) and a fixed-margin JL-GD run, as one resumable state machine so that callers can
// report progress and cancel between calls to advance().
//
// The trainer is the coordinator of docs/SHARDING.md: it owns the plan, the schedule, the
// generator (Φ, gradient noise, score noise), the iterates and the selection, and reads rows
// only through sums it asks for — "set up this step", "the summed hinge gradients at W", "the
// error counts of these weights". advance() answers them with one local Shard over the whole
// prepared table; request()/answer*() let a caller answer them with sums over several shards
// (e.g. rows split over two workers). The sums, the noise and the accounting are the same.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "dpmargin/learn/batched_gd.hpp"
#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/learn/projection.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

struct TrainOptions {
  // ε, δ, selector, calibration, score, E[K], β, maxIterations, margin. n and d are taken from
  // the data; normBound must equal the preprocessing's b (checked).
  plan::PlanRequest plan;
  // The released iterate; unset: plan::defaultOutputName(calibration) — last with tight, the
  // paper's average with paper calibration (resolved by the Trainer; docs/ACCURACY.md).
  std::optional<OutputIterate> output;
};

// The iterate a calibration releases by default.
OutputIterate defaultOutput(plan::Calibration calibration) noexcept;

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
};

// What the coordinator needs next (Trainer::request()). Pointers stay valid until the answer.
struct ShardRequest {
  enum class Kind {
    kSetup,      // every shard: Shard::setup(*setup); then answerSetup()
    kGradients,  // every shard: Shard::gradients(*weights) (k × m); answerGradients(Σ over shards)
    kErrors,     // every shard: Shard::countErrors(*candidates) (width × m); answerErrors(Σ)
    kDone,       // training finished: result() is ready
  };
  Kind kind = Kind::kDone;
  const StepSetup* setup = nullptr;
  const Eigen::MatrixXf* weights = nullptr;
  const Eigen::MatrixXd* candidates = nullptr;
};

class Trainer {
 public:
  // Validates `data` and preprocesses it in place if it is not prepared yet (estimating private
  // column ranges first when options.plan.rangeShare > 0). `data` must stay alive and unchanged
  // while training. Throws BAD_PARAMETER for bad options.
  Trainer(Dataset& data, const TrainOptions& options, random::Generator generator);
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
  // The prepared rows (valid until the Dataset dies; the caller copies them into shards).
  const DataView& data() const noexcept { return data_; }
  // The caller drives the trainer with request()/answer*() only and may free the rows.
  void detachRows() noexcept;
  Progress progress() const;
  const TrainResult& result() const;  // once done
  const plan::Plan& plan() const noexcept { return result_.plan; }  // known before training

  // Instrumentation for tests and benchmarks only: sees every base run's weights before
  // selection. What it sees is NOT private and is never part of a released result.
  using RunObserver = std::function<void(std::size_t run, std::size_t candidate,
                                         const std::vector<double>& weights)>;
  void setRunObserver(RunObserver observer) { observer_ = std::move(observer); }

 private:
  enum class Phase { kIdle, kSetup, kIterate, kScore, kDone };
  void buildSchedule();
  void startStep();
  void beginIteration();
  void endIterations();
  void recordRun(std::size_t candidate, const Eigen::VectorXd& w, double noisyScore);
  void finishStep();
  void finish();
  void expect(Phase phase, const char* what) const;

  DataView data_;
  bool detached_ = false;
  std::unique_ptr<Shard> local_;  // advance(): one shard over the whole local table
  TrainOptions options_;
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
  // g = Σ_shards Σ_rows ∇ℓ + N(0, σ_j² I_k), w_j ← w_j − η_j g_j; SPEC §2.4), as NoisyGd
  // (m = 1) and BatchedNoisyGd (m > 1) compute it.
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

// Scores ⟨w, x_i⟩ of prepared rows (what predict returns; sign > 0 → positive class).
std::vector<double> decisionScores(const DataView& data, const std::vector<double>& weights);
// #{i : y_i⟨w, x_i⟩ ≤ 0} (SPEC §2.5: ≤, so the zero vector scores n, not 0).
std::uint64_t countErrors(const DataView& data, const std::vector<double>& weights);
// The released score of one candidate (SPEC §2.5–2.6): errors (sensitivity 1, replace-one) +
// the public penalty + N(0, scoreSd²).
double noisyScore(const DataView& data, const std::vector<double>& weights, double penalty,
                  double scoreSd, random::Generator& generator);

}  // namespace dpmargin::learn
