// The full learners (SPEC §2.7): M* (paper Algo 5: Iter over the margin grid), M′ (Algo 6:
// PrivTune) and a fixed-margin JL-GD run, as one resumable state machine so that callers can
// report progress and cancel between calls to advance().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "dpmargin/learn/batched_gd.hpp"
#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/learn/projection.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

struct TrainOptions {
  // ε, δ, selector, calibration, score, E[K], β, maxIterations, margin. n and d are taken from
  // the data; normBound must equal the preprocessing's b (checked).
  plan::PlanRequest plan;
  OutputIterate output = OutputIterate::kAverage;
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
};

class Trainer {
 public:
  // Validates `data` and preprocesses it in place if it is not prepared yet (estimating private
  // column ranges first when options.plan.rangeShare > 0). `data` must stay alive and unchanged
  // while training. Throws BAD_PARAMETER for bad options.
  Trainer(Dataset& data, const TrainOptions& options, random::Generator generator);
  ~Trainer();

  // Runs up to `iterationBudget` noisy-GD iterations (≥ 1); returns true when training is done.
  bool advance(std::uint64_t iterationBudget);
  Progress progress() const;
  const TrainResult& result() const;  // once done
  const plan::Plan& plan() const noexcept { return result_.plan; }  // known before training

  // Instrumentation for tests and benchmarks only: sees every base run's weights before
  // selection. What it sees is NOT private and is never part of a released result.
  using RunObserver = std::function<void(std::size_t run, std::size_t candidate,
                                         const std::vector<double>& weights)>;
  void setRunObserver(RunObserver observer) { observer_ = std::move(observer); }

 private:
  void buildSchedule();
  void startStep();
  void finishStep();
  void recordRun(std::size_t candidate, const Eigen::VectorXd& wTilde);
  void finish();

  DataView data_;
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
  RowMatrixXf phi_;
  std::vector<float> projected_, scale_;
  std::unique_ptr<NoisyGd> descent_;
  std::unique_ptr<BatchedNoisyGd> batch_;
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
