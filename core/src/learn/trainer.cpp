#include "dpmargin/learn/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"

namespace dpmargin::learn {

Trainer::Trainer(Dataset& data, const TrainOptions& options, random::Generator generator)
    : options_(options), generator_(std::move(generator)) {
  if (!data.labelled()) throwBadParameter("labels", "present for training", 0.0);
  if (options_.plan.normBound != data.preprocessing().normBound) {
    throwBadParameter("normBound", "the preprocessing's norm bound b", options_.plan.normBound);
  }
  data.validate(true);
  options_.plan.n = data.rows();
  options_.plan.d = data.width();
  result_.plan = plan::makePlan(options_.plan);  // public numbers only, before any data is read
  result_.seeded = generator_.isSeeded();
  if (result_.plan.muRanges > 0) {
    if (data.prepared() || !data.preprocessing().ranges.empty()) {
      throwBadParameter("rangeShare", "0 when column ranges are declared or data are prepared",
                        options_.plan.rangeShare);
    }
    const std::vector<ColumnRange> ranges = estimatePrivateRanges(
        data.raw(), data.rows(), data.width(), data.features(), result_.plan.muRanges, generator_);
    data.preprocess(&ranges);
    result_.rangesPrivate = true;
  } else if (!data.prepared()) {
    data.preprocess();
  }
  data_ = data.view();
  result_.ranges = data.preprocessing().ranges;
  const std::size_t m = result_.plan.candidates.size();
  switch (options_.plan.selector) {
    case plan::Selector::kIter:  // every candidate once
    case plan::Selector::kFixed:
      runCount_ = m;
      break;
    case plan::Selector::kPrivTune:  // K ~ TNB_{η,r}
      runCount_ = static_cast<std::size_t>(
          random::sampleTnb(generator_, {result_.plan.tnbEta, result_.plan.tnbR}));
      break;
  }
  result_.runs.reserve(std::min<std::size_t>(runCount_, 1u << 16));
  buildSchedule();
}

Trainer::~Trainer() = default;

void Trainer::buildSchedule() {
  if (options_.plan.selector == plan::Selector::kPrivTune) return;  // drawn run by run
  // Unprojected candidates read the same rows; with equal T and clip radius they train in one
  // batch (one data pass per iteration for all). Projected ones each need their own Φ.
  std::vector<std::size_t> batch;
  const auto& candidates = result_.plan.candidates;
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    const auto& c = candidates[j];
    const bool joins = !c.projected && (batch.empty() ||
                                        (candidates[batch.front()].iterations == c.iterations &&
                                         candidates[batch.front()].clipRadius == c.clipRadius));
    if (joins) {
      batch.push_back(j);
    } else if (!c.projected) {
      schedule_.push_back(batch);
      batch = {j};
    } else {
      schedule_.push_back({j});
    }
  }
  if (!batch.empty()) schedule_.push_back(batch);
}

void Trainer::startStep() {
  if (options_.plan.selector == plan::Selector::kPrivTune) {
    current_ = {static_cast<std::size_t>(
        random::uniformIndex(generator_, result_.plan.candidates.size()))};
  } else {
    current_ = schedule_[step_];
  }
  const plan::CandidatePlan& c = result_.plan.candidates[current_.front()];
  ClippedRows rows;
  rows.y = data_.y;
  rows.n = data_.n;
  rows.k = c.dim;
  if (c.projected) {
    // A fresh Φ for every base run: it is part of the randomised base mechanism (paper Algo 1).
    phi_ = drawJlMatrix(generator_, c.dim, data_.width);
    projectRows(data_, phi_, projected_);
    rows.z = projected_.data();
    rows.stride = c.dim;
  } else {
    rows.z = data_.x;
    rows.stride = data_.width;
  }
  clipFactors(rows.z, rows.stride, rows.n, rows.k, c.clipRadius, scale_);
  rows.scale = scale_.data();
  std::vector<NoisyGdParams> params;
  for (std::size_t j : current_) {
    const plan::CandidatePlan& cj = result_.plan.candidates[j];
    NoisyGdParams p;
    p.c = cj.c;
    p.sigma = cj.sigma;
    p.stepSize = cj.stepSize;
    p.iterations = cj.iterations;
    p.output = options_.output;
    params.push_back(p);
  }
  if (params.size() == 1) {
    descent_ = std::make_unique<NoisyGd>(rows, params.front());
  } else {
    batch_ = std::make_unique<BatchedNoisyGd>(rows, params);
  }
}

void Trainer::recordRun(std::size_t candidate, const Eigen::VectorXd& wTilde) {
  const plan::CandidatePlan& c = result_.plan.candidates[candidate];
  // Back to the prepared feature space: w = Φᵀ w̃, so ⟨w, x⟩ = ⟨w̃, Φx⟩.
  Eigen::VectorXd w = c.projected ? Eigen::VectorXd(phi_.transpose().cast<double>() * wTilde)
                                  : wTilde;
  std::vector<double> weights(w.data(), w.data() + w.size());
  if (observer_) observer_(result_.runs.size(), candidate, weights);
  RunRecord record;
  record.candidate = candidate;
  const std::size_t run = result_.runs.size();
  if (options_.plan.selector == plan::Selector::kFixed) {
    record.noisyScore = std::numeric_limits<double>::quiet_NaN();
    bestWeights_ = w;
    result_.selectedRun = run;
  } else {
    record.noisyScore =
        noisyScore(data_, weights, c.scorePenalty, result_.plan.scoreSd, generator_);
    // Argmin of the noisy scores; runs are recorded in grid order (Iter) or draw order
    // (PrivTune), and the first of equal scores wins.
    if (run == 0 || record.noisyScore < bestScore_) {
      bestScore_ = record.noisyScore;
      bestWeights_ = w;
      result_.selectedRun = run;
    }
  }
  result_.runs.push_back(record);
  completedWork_ += double(c.iterations);
}

void Trainer::finishStep() {
  if (descent_) {
    recordRun(current_.front(), descent_->output());
    descent_.reset();
  } else {
    for (std::size_t i = 0; i < current_.size(); ++i) recordRun(current_[i], batch_->output(i));
    batch_.reset();
  }
  ++step_;
}

void Trainer::finish() {
  if (result_.runs.empty()) {
    // PrivTune draws K ≥ 1, so this cannot happen; fail loudly rather than release nothing.
    throw Error(ErrorCode::kInternal, "", "no base run was made");
  }
  result_.selectedCandidate = result_.runs[result_.selectedRun].candidate;
  result_.weights.assign(bestWeights_.data(), bestWeights_.data() + bestWeights_.size());
  phi_.resize(0, 0);
  projected_ = {};
  scale_ = {};
  done_ = true;
}

bool Trainer::advance(std::uint64_t iterationBudget) {
  if (iterationBudget < 1) throwBadParameter("iterationBudget", "at least 1", 0.0);
  std::uint64_t budget = iterationBudget;
  while (!done_ && budget > 0) {
    if (!descent_ && !batch_) startStep();
    if (descent_) {
      budget -= descent_->advance(budget, generator_);
      if (descent_->done()) finishStep();
    } else {
      budget -= batch_->advance(budget, generator_);
      if (batch_->done()) finishStep();
    }
    if (result_.runs.size() == runCount_) finish();
  }
  return done_;
}

Progress Trainer::progress() const {
  Progress p;
  p.done = done_;
  p.runs = runCount_;
  p.run = result_.runs.size();
  if (descent_ || batch_) {
    p.candidate = current_.front();
    p.batch = current_.size();
    p.iteration = descent_ ? descent_->iteration() : batch_->iteration();
    p.iterations = result_.plan.candidates[p.candidate].iterations;
  } else if (!result_.runs.empty()) {  // between steps, or done: the last run, fully iterated
    p.candidate = result_.runs.back().candidate;
    p.batch = 0;
    p.iterations = p.iteration = result_.plan.candidates[p.candidate].iterations;
  }
  p.workDone = completedWork_ + double(p.iteration) * double(p.batch);
  double planned = 0;
  for (const auto& c : result_.plan.candidates) planned += double(c.iterations);
  if (options_.plan.selector == plan::Selector::kPrivTune) {
    // Runs not finished yet are estimated at the grid's mean T.
    const double meanT = planned / double(result_.plan.candidates.size());
    p.workTotal = completedWork_ + meanT * double(runCount_ - p.run);
  } else {
    p.workTotal = planned;
  }
  return p;
}

const TrainResult& Trainer::result() const {
  if (!done_) throw Error(ErrorCode::kInternal, "", "training result requested before it finished");
  return result_;
}

std::vector<double> decisionScores(const DataView& data, const std::vector<double>& weights) {
  if (weights.size() != data.width) {
    throwBadParameter("weights", "of length " + std::to_string(data.width), double(weights.size()));
  }
  Eigen::Map<const RowMatrixXf> x(data.x, static_cast<Eigen::Index>(data.n),
                                  static_cast<Eigen::Index>(data.width));
  const Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(weights.data(), static_cast<Eigen::Index>(weights.size()));
  std::vector<double> out(data.n);
  for (std::size_t i = 0; i < data.n; ++i) {
    out[i] = x.row(static_cast<Eigen::Index>(i)).cast<double>().dot(w.transpose());
  }
  return out;
}

double noisyScore(const DataView& data, const std::vector<double>& weights, double penalty,
                  double scoreSd, random::Generator& generator) {
  return static_cast<double>(countErrors(data, weights)) + penalty +
         random::gaussian(generator, scoreSd);
}

std::uint64_t countErrors(const DataView& data, const std::vector<double>& weights) {
  const std::vector<double> scores = decisionScores(data, weights);
  std::uint64_t errors = 0;
  for (std::size_t i = 0; i < data.n; ++i) errors += double(data.y[i]) * scores[i] <= 0.0;
  return errors;
}

}  // namespace dpmargin::learn
