#include "dpmargin/learn/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "dpmargin/testing/faults.hpp"

#ifdef DPMARGIN_AUDIT_FAULTS
namespace dpmargin::testing {
Faults auditFaults;  // the audit build only (testing/faults.hpp)
}  // namespace dpmargin::testing
#endif

namespace dpmargin::learn {

Trainer::Trainer(Dataset& data, const TrainSettings& settings, random::Generator generator)
    : Trainer(data, settings, std::move(generator), nullptr) {}

Trainer::Trainer(Dataset& data, const TrainSettings& settings, random::Generator generator,
                 const plan::Plan& plan)
    : Trainer(data, settings, std::move(generator), &plan) {}

Trainer::Trainer(Dataset& data, const TrainSettings& settings, random::Generator generator,
                 const plan::Plan* plan)
    : settings_(settings), generator_(std::move(generator)) {
  if (!data.labelled()) throwBadParameter("labels", "present for training", 0.0);
  const double b = data.prepared() ? data.preprocessing().normBound : settings_.preprocessing.normBound;
  if (settings_.plan.normBound != b) {
    throwBadParameter("normBound", "the preprocessing's norm bound b", settings_.plan.normBound);
  }
  data.validate(true);
  settings_.plan.n = data.rows();
  settings_.plan.d = data.prepared() ? data.width()
                                     : data.features() + (settings_.preprocessing.intercept ? 1 : 0);
  // Public numbers only, before any data is read.
  if (plan == nullptr) {
    result_.plan = plan::makePlan(settings_.plan);
  } else if (plan->request != settings_.plan) {
    throw Error(ErrorCode::kInternal, "", "trainer: the given plan is not the settings' plan");
  } else {
    result_.plan = *plan;
  }
  result_.seeded = generator_.isSeeded();
  if (result_.plan.muRanges > 0) {
    if (data.prepared() || !settings_.preprocessing.ranges.empty()) {
      throwBadParameter("rangeShare", "0 when column ranges are declared or data are prepared",
                        settings_.plan.rangeShare);
    }
    Preprocessing p = settings_.preprocessing;
    const double mu = result_.plan.muRanges;
    const std::vector<std::optional<ColumnRange>>& known = settings_.knownRanges;
    if (known.empty()) {
      p.ranges = estimatePrivateRanges(data.raw(), data.rows(), data.stride(), data.features(), mu,
                                       generator_);
    } else {
      // Columns with a public range (encoded 0/1 columns, declared ranges) keep it; the others'
      // are estimated together (the histograms' sensitivity counts those columns only).
      if (known.size() != data.features()) {
        throw Error(ErrorCode::kInternal, "", "trainer: knownRanges must have one entry per feature");
      }
      std::vector<std::size_t> estimated;
      for (std::size_t j = 0; j < known.size(); ++j) {
        if (!known[j]) estimated.push_back(j);
      }
      if (estimated.empty()) throw Error(ErrorCode::kInternal, "", "trainer: rangeShare > 0 with every range known");
      // Read in place (no copy of those columns: it was a second table's worth of memory).
      const std::vector<ColumnRange> found =
          estimatePrivateScalings(data.raw(), data.rows(), data.stride(), estimated, mu, generator_);
      p.ranges.resize(known.size());
      for (std::size_t j = 0; j < known.size(); ++j) {
        if (known[j]) p.ranges[j] = *known[j];
      }
      for (std::size_t k = 0; k < estimated.size(); ++k) p.ranges[estimated[k]] = found[k];
    }
    data.prepare(p);
    result_.rangesPrivate = true;
  } else if (!data.prepared()) {
    data.prepare(settings_.preprocessing);
  }
  data_ = data.view();
  result_.ranges = data.preprocessing().ranges;
  planRuns();
}

Trainer::Trainer(const DataView& rows, const Preprocessing& prepared, bool rangesPrivate,
                 const TrainSettings& settings, random::Generator generator, const plan::Plan& plan)
    : settings_(settings), generator_(std::move(generator)) {
  settings_.plan.n = plan.request.n;
  settings_.plan.d = plan.request.d;
  if (plan.request != settings_.plan || prepared.normBound != settings_.plan.normBound) {
    throw Error(ErrorCode::kInternal, "", "trainer: the given plan is not the settings' plan");
  }
  if (rows.x != nullptr && (rows.n != plan.request.n || rows.width != plan.request.d || rows.y == nullptr)) {
    throw Error(ErrorCode::kInternal, "", "trainer: the prepared rows do not fit the plan");
  }
  result_.plan = plan;
  result_.seeded = generator_.isSeeded();
  result_.ranges = prepared.ranges;
  result_.rangesPrivate = rangesPrivate;
  data_ = rows;
  detached_ = rows.x == nullptr;
  planRuns();
}

void Trainer::planRuns() {
  const std::size_t m = result_.plan.candidates.size();
  switch (settings_.plan.selector) {
    case plan::Selector::kIter:  // every candidate once
    case plan::Selector::kFixed:
    case plan::Selector::kAuto:
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
  if (settings_.plan.selector == plan::Selector::kPrivTune) return;  // drawn run by run
  // Unprojected candidates read the same rows; with equal T and clip radius they train in one
  // batch (one data pass per iteration for all). Projected ones each need their own Φ.
  std::vector<std::size_t> batch;
  const auto& candidates = result_.plan.candidates;
  for (std::size_t j = 0; j < candidates.size(); ++j) {
    const auto& c = candidates[j];
    const bool joins = !c.projected && (batch.empty() ||
                                        (candidates[batch.front()].T == c.T &&
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
  if (settings_.plan.selector == plan::Selector::kPrivTune) {
    current_ = {static_cast<std::size_t>(
        random::uniformIndex(generator_, result_.plan.candidates.size()))};
  } else {
    current_ = schedule_[step_];
  }
  const plan::CandidatePlan& c = result_.plan.candidates[current_.front()];
  setup_.k = c.k;
  setup_.clipRadius = c.clipRadius;
  // The joint multiclass learner: K columns of W per candidate (one noise draw and one step per
  // column, all at the candidate's σ and η), the shards' multiclass kernel.
  const std::size_t classes = result_.plan.request.jointClasses;
  setup_.classes = classes;
  setup_.loss = result_.plan.request.jointLoss;
  if (c.projected) {
    // A fresh Φ for every base run: it is part of the randomised base mechanism (paper Algo 1).
    setup_.phi = drawJlMatrix(generator_, c.k, result_.plan.request.d);
  } else {
    setup_.phi.resize(0, 0);
  }
  params_.clear();
  for (std::size_t j : current_) {
    const plan::CandidatePlan& cj = result_.plan.candidates[j];
    NoisyGdParams p;
    p.c = cj.c;
    // σ from the plan (the fault factors are constants 1 outside the audit build).
    p.sigma = cj.sigma * DPMARGIN_FAULTS.gradientNoise * (DPMARGIN_FAULTS.addRemoveSensitivity ? 0.5 : 1.0);
    // A joint step's σ computed for the binary Δ = 2R/c, without the √2 (audit fault only).
    if (classes > 0 && DPMARGIN_FAULTS.jointWithoutSqrt2) p.sigma /= plan::kJointSensitivityFactor;
    p.stepSize = cj.stepSize;
    p.iterations = cj.T;
    if (p.iterations < 1) throwBadParameter("iterations", "at least 1", 0.0);
    requirePositive("c", p.c);
    requireNonNegative("sigma", p.sigma);
    requireNonNegative("stepSize", p.stepSize);
    for (std::size_t l = 0; l < std::max<std::size_t>(classes, 1); ++l) params_.push_back(p);
  }
  iterations_ = params_.front().iterations;
  for (const NoisyGdParams& p : params_) {
    if (p.iterations != iterations_) {
      throwBadParameter("iterations", "equal for every batched candidate", double(p.iterations));
    }
  }
  const auto k = static_cast<Eigen::Index>(c.k);
  const auto m = static_cast<Eigen::Index>(params_.size());  // columns: candidates × max(K, 1)
  const auto perCandidate = static_cast<Eigen::Index>(std::max<std::size_t>(classes, 1));
  setup_.c.resize(m / perCandidate);
  for (Eigen::Index j = 0; j < setup_.c.size(); ++j) {
    setup_.c[j] = params_[static_cast<std::size_t>(j * perCandidate)].c;
  }
  w_ = Eigen::MatrixXd::Zero(k, m);
  sum_ = Eigen::MatrixXd::Zero(k, m);
  gradient_ = Eigen::MatrixXd::Zero(k, m);
  wFloat_ = Eigen::MatrixXf::Zero(k, m);
  t_ = 0;
  phase_ = Phase::kSetup;
}

void Trainer::expect(Phase phase, const char* what) const {
  if (phase_ != phase) {
    throw Error(ErrorCode::kInternal, "", std::string("trainer: unexpected answer (") + what + ")");
  }
}

void Trainer::answerSetup() {
  expect(Phase::kSetup, "setup");
  phase_ = Phase::kIterate;
  beginIteration();
}

// Before each gradient request, as NoisyGd::advance: w̄ accumulates w₀ … w_{T−1}, and the
// kernels read w in float.
void Trainer::beginIteration() {
  sum_ += w_;
  wFloat_ = w_.cast<float>();
}

void Trainer::answerGradients(const Eigen::MatrixXd& sum) {
  expect(Phase::kIterate, "gradients");
  if (sum.rows() != w_.rows() || sum.cols() != w_.cols()) {
    throwBadParameter("gradients", "k x m for the current step", double(sum.size()));
  }
  if (&sum != &gradient_) gradient_ = sum;
  // The noise is added once, here, to the sum over all shards (σ_j from the plan).
  noisyStep(params_.data(), params_.size(), gradient_, w_, generator_);
  ++t_;
  if (t_ < iterations_) {
    beginIteration();
  } else {
    endIterations();
  }
}

void Trainer::endIterations() {
  const plan::CandidatePlan& c = result_.plan.candidates[current_.front()];
  const auto m = static_cast<Eigen::Index>(params_.size());
  outputs_.resize(static_cast<Eigen::Index>(result_.plan.request.d), m);
  const auto perCandidate = static_cast<Eigen::Index>(std::max<std::uint64_t>(result_.plan.request.jointClasses, 1));
  for (Eigen::Index j = 0; j < m; ++j) {
    // The released iterate: w̄ = (1/T) Σ_{t<T} w_t or w_T (NoisyGd::output).
    const Eigen::VectorXd wTilde = settings_.output == OutputIterate::kLast
                                       ? Eigen::VectorXd(w_.col(j))
                                       : Eigen::VectorXd(sum_.col(j) / static_cast<double>(iterations_));
    // Back to the prepared feature space: w = Φᵀ w̃, so ⟨w, x⟩ = ⟨w̃, Φx⟩.
    outputs_.col(j) = c.projected ? Eigen::VectorXd(setup_.phi.transpose().cast<double>() * wTilde)
                                  : wTilde;
  }
  // A candidate's weights: its column, or (joint) its K columns, class after class — the layout
  // of TrainResult::weights (K blocks of width).
  const auto weightsOf = [&](Eigen::Index j) {
    return Eigen::Map<const Eigen::VectorXd>(outputs_.col(j * perCandidate).data(), outputs_.rows() * perCandidate);
  };
  if (observer_) {
    for (Eigen::Index j = 0; j < m / perCandidate; ++j) {
      const Eigen::VectorXd w = weightsOf(j);
      const std::vector<double> weights(w.data(), w.data() + w.size());
      observer_(result_.runs.size() + static_cast<std::size_t>(j), current_[static_cast<std::size_t>(j)],
                weights);
    }
  }
  if (!result_.plan.selects) {
    // Nothing is scored: no error counts are needed.
    for (Eigen::Index j = 0; j < m / perCandidate; ++j) {
      recordRun(current_[static_cast<std::size_t>(j)], weightsOf(j),
                std::numeric_limits<double>::quiet_NaN());
    }
    finishStep();
  } else {
    phase_ = Phase::kScore;
  }
}

void Trainer::answerErrors(const std::vector<std::uint64_t>& errors) {
  expect(Phase::kScore, "errors");
  if (errors.size() != current_.size()) {
    throwBadParameter("errors", "one count per candidate of the step", double(errors.size()));
  }
  // A count above n would mean the shards double-counted rows: refuse rather than release it.
  for (std::uint64_t e : errors) {
    if (e > result_.plan.request.n) throwBadParameter("errors", "at most n per candidate", double(e));
  }
  for (std::size_t j = 0; j < current_.size(); ++j) {
    const plan::CandidatePlan& c = result_.plan.candidates[current_[j]];
    // The released score (SPEC §2.5–2.6): errors (sensitivity 1, replace-one; summed over the
    // shards, exact) + the public penalty + N(0, scoreSd²), noised once, here.
    const double score = noisyScore(errors[j], c.scorePenalty,
                                    result_.plan.scoreSd * DPMARGIN_FAULTS.scoreNoise, generator_);
    const auto perCandidate = static_cast<Eigen::Index>(std::max<std::uint64_t>(result_.plan.request.jointClasses, 1));
    recordRun(current_[j],
              Eigen::Map<const Eigen::VectorXd>(outputs_.col(static_cast<Eigen::Index>(j) * perCandidate).data(),
                                                outputs_.rows() * perCandidate),
              score);
  }
  finishStep();
}

void Trainer::answerGradientPartials(const std::vector<std::vector<double>>& partials) {
  expect(Phase::kIterate, "gradients");
  if (partials.empty()) throwBadParameter("gradients", "one partial sum per shard (at least 1)", 0.0);
  gradient_.setZero(w_.rows(), w_.cols());
  for (const std::vector<double>& part : partials) {
    if (part.size() != static_cast<std::size_t>(gradient_.size())) {
      throwBadParameter("gradients", "k x m values per shard", double(part.size()));
    }
    gradient_ += Eigen::Map<const Eigen::MatrixXd>(part.data(), gradient_.rows(), gradient_.cols());
  }
  answerGradients(gradient_);
}

void Trainer::answerErrorPartials(const std::vector<std::vector<double>>& partials) {
  expect(Phase::kScore, "errors");
  if (partials.empty()) throwBadParameter("errors", "one partial count per shard (at least 1)", 0.0);
  std::vector<std::uint64_t> total(partials.front().size(), 0);
  for (const std::vector<double>& part : partials) {
    if (part.size() != total.size()) throwBadParameter("errors", "m counts per shard", double(part.size()));
    for (std::size_t j = 0; j < part.size(); ++j) total[j] += requireCount("errors", part[j], 0);
  }
  answerErrors(total);
}

void Trainer::recordRun(std::size_t candidate, const Eigen::VectorXd& w, double score) {
  const plan::CandidatePlan& c = result_.plan.candidates[candidate];
  RunRecord record;
  record.candidate = candidate;
  record.noisyScore = score;
  const std::size_t run = result_.runs.size();
  if (!result_.plan.selects) {
    bestWeights_ = w;
    result_.selectedRun = run;
  } else if (run == 0 || record.noisyScore < bestScore_) {
    // Argmin of the noisy scores; runs are recorded in grid order (Iter) or draw order
    // (PrivTune), and the first of equal scores wins.
    bestScore_ = record.noisyScore;
    bestWeights_ = w;
    result_.selectedRun = run;
  }
  result_.runs.push_back(record);
  completedWork_ += double(c.T);
}

void Trainer::finishStep() {
  ++step_;
  phase_ = Phase::kIdle;
  w_.resize(0, 0);
  sum_.resize(0, 0);
  gradient_.resize(0, 0);
  wFloat_.resize(0, 0);
  if (result_.runs.size() == runCount_) finish();
}

void Trainer::finish() {
  if (result_.runs.empty()) {
    // PrivTune draws K ≥ 1, so this cannot happen; fail loudly rather than release nothing.
    throw Error(ErrorCode::kInternal, "", "no base run was made");
  }
  result_.selectedCandidate = result_.runs[result_.selectedRun].candidate;
  result_.weights.assign(bestWeights_.data(), bestWeights_.data() + bestWeights_.size());
  setup_ = StepSetup{};
  outputs_.resize(0, 0);
  local_.reset();
  phase_ = Phase::kDone;
  done_ = true;
}

const ShardRequest& Trainer::request() {
  if (phase_ == Phase::kIdle && !done_) startStep();
  request_ = ShardRequest{};
  switch (phase_) {
    case Phase::kSetup:
      request_.kind = ShardRequest::Kind::kSetup;
      request_.setup = &setup_;
      break;
    case Phase::kIterate:
      request_.kind = ShardRequest::Kind::kGradients;
      request_.weights = &wFloat_;
      break;
    case Phase::kScore:
      request_.kind = ShardRequest::Kind::kErrors;
      request_.candidates = &outputs_;
      break;
    case Phase::kIdle:
    case Phase::kDone:
      request_.kind = ShardRequest::Kind::kDone;
      break;
  }
  return request_;
}

void Trainer::detachRows() noexcept {
  detached_ = true;
  local_.reset();
  data_ = DataView{};
}

bool Trainer::advance(std::uint64_t iterationBudget) {
  if (iterationBudget < 1) throwBadParameter("iterationBudget", "at least 1", 0.0);
  if (detached_) throw Error(ErrorCode::kInternal, "", "advance() on a trainer driven by shards");
  if (!local_ && !done_) local_ = std::make_unique<Shard>(data_);
  std::uint64_t budget = iterationBudget;
  std::vector<std::uint64_t> errors;
  // A step is started only with budget left; its scores are taken as soon as its last
  // iteration ran (as one synchronous step always did).
  while (!done_ && (budget > 0 || phase_ == Phase::kScore)) {
    const ShardRequest& r = request();
    switch (r.kind) {
      case ShardRequest::Kind::kSetup:
        local_->setup(*r.setup);
        answerSetup();
        break;
      case ShardRequest::Kind::kGradients:
        local_->gradients(*r.weights, gradient_);
        answerGradients(gradient_);
        --budget;
        break;
      case ShardRequest::Kind::kErrors:
        errors.resize(current_.size());
        local_->countErrors(*r.candidates, errors.data());
        answerErrors(errors);
        break;
      case ShardRequest::Kind::kDone:
        break;
      case ShardRequest::Kind::kLabels:  // one-vs-rest's request, never the trainer's
        throw Error(ErrorCode::kInternal, "", "trainer: unexpected label request");
    }
  }
  return done_;
}

Progress Trainer::progress() const {
  Progress p;
  p.done = done_;
  p.runs = runCount_;
  p.run = result_.runs.size();
  if (phase_ == Phase::kSetup || phase_ == Phase::kIterate || phase_ == Phase::kScore) {
    p.candidate = current_.front();
    p.batch = current_.size();
    p.iteration = t_;
    p.iterations = result_.plan.candidates[p.candidate].T;
  } else if (!result_.runs.empty()) {  // between steps, or done: the last run, fully iterated
    p.candidate = result_.runs.back().candidate;
    p.batch = 0;
    p.iterations = p.iteration = result_.plan.candidates[p.candidate].T;
  }
  p.workDone = completedWork_ + double(p.iteration) * double(p.batch);
  double planned = 0;
  for (const auto& c : result_.plan.candidates) planned += double(c.T);
  if (settings_.plan.selector == plan::Selector::kPrivTune) {
    // Runs not finished yet are estimated at the grid's mean T.
    const double meanT = planned / double(result_.plan.candidates.size());
    p.workTotal = completedWork_ + meanT * double(runCount_ - p.run);
  } else {
    p.workTotal = planned;
  }
  return p;
}

random::Generator Trainer::takeGenerator() {
  if (!done_) throw Error(ErrorCode::kInternal, "", "trainer: generator taken before training finished");
  return std::move(generator_);
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

double noisyScore(std::uint64_t errors, double penalty, double scoreSd, random::Generator& generator) {
  return static_cast<double>(errors) + penalty + random::gaussian(generator, scoreSd);
}

std::uint64_t countErrors(const DataView& data, const std::vector<double>& weights) {
  const std::vector<double> scores = decisionScores(data, weights);
  std::uint64_t errors = 0;
  for (std::size_t i = 0; i < data.n; ++i) errors += double(data.y[i]) * scores[i] <= 0.0;
  return errors;
}

}  // namespace dpmargin::learn
