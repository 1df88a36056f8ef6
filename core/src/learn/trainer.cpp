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
    case plan::Selector::kIter:  // every candidate once, in grid order
    case plan::Selector::kFixed:
      runCount_ = m;
      break;
    case plan::Selector::kPrivTune:  // K ~ TNB_{η,r}
      runCount_ = static_cast<std::size_t>(
          random::sampleTnb(generator_, {result_.plan.tnbEta, result_.plan.tnbR}));
      break;
  }
  result_.runs.reserve(std::min<std::size_t>(runCount_, 1u << 16));
}

Trainer::~Trainer() = default;

void Trainer::startRun() {
  const std::size_t m = result_.plan.candidates.size();
  const std::size_t candidate = options_.plan.selector == plan::Selector::kPrivTune
                                    ? static_cast<std::size_t>(random::uniformIndex(generator_, m))
                                    : run_;
  runCandidates_.push_back(candidate);
  const plan::CandidatePlan& c = result_.plan.candidates[candidate];
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
  NoisyGdParams params;
  params.c = c.c;
  params.sigma = c.sigma;
  params.stepSize = c.stepSize;
  params.iterations = c.iterations;
  params.output = options_.output;
  descent_ = std::make_unique<NoisyGd>(rows, params);
}

void Trainer::finishRun() {
  const std::size_t candidate = runCandidates_.back();
  const plan::CandidatePlan& c = result_.plan.candidates[candidate];
  const Eigen::VectorXd wTilde = descent_->output();
  descent_.reset();
  // Back to the prepared feature space: w = Φᵀ w̃, so ⟨w, x⟩ = ⟨w̃, Φx⟩.
  Eigen::VectorXd w = c.projected ? Eigen::VectorXd(phi_.transpose().cast<double>() * wTilde)
                                  : wTilde;
  std::vector<double> weights(w.data(), w.data() + w.size());
  if (observer_) observer_(run_, candidate, weights);
  RunRecord record;
  record.candidate = candidate;
  if (options_.plan.selector == plan::Selector::kFixed) {
    record.noisyScore = std::numeric_limits<double>::quiet_NaN();
    bestWeights_ = w;
    result_.selectedRun = run_;
  } else {
    // Score (sensitivity 1, replace-one) + public penalty + N(0, scoreSd²) (SPEC §2.5–2.6).
    record.noisyScore =
        noisyScore(data_, weights, c.scorePenalty, result_.plan.scoreSd, generator_);
    if (run_ == 0 || record.noisyScore < bestScore_) {
      bestScore_ = record.noisyScore;
      bestWeights_ = w;
      result_.selectedRun = run_;
    }
  }
  result_.runs.push_back(record);
  ++run_;
}

void Trainer::finish() {
  result_.selectedCandidate = result_.runs.empty() ? 0 : result_.runs[result_.selectedRun].candidate;
  if (result_.runs.empty()) {
    // PrivTune draws K ≥ 1, so this cannot happen; fail loudly rather than release nothing.
    throw Error(ErrorCode::kInternal, "", "no base run was made");
  }
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
    if (!descent_) startRun();
    budget -= descent_->advance(budget, generator_);
    if (descent_->done()) {
      finishRun();
      if (run_ == runCount_) finish();
    }
  }
  return done_;
}

Progress Trainer::progress() const {
  Progress p;
  p.done = done_;
  p.runs = runCount_;
  p.run = std::min(run_, runCount_ == 0 ? 0 : runCount_ - 1);
  if (descent_) {
    p.candidate = runCandidates_.back();
    p.iteration = descent_->iteration();
    p.iterations = result_.plan.candidates[p.candidate].iterations;
  } else if (!result_.runs.empty()) {
    p.candidate = result_.runs.back().candidate;
    p.iterations = p.iteration = result_.plan.candidates[p.candidate].iterations;
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
