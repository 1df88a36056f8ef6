#include "dpmargin/learn/one_vs_rest.hpp"

#include <algorithm>
#include <string>

#include "dpmargin/error.hpp"

namespace dpmargin::learn {

namespace {

// Codes given: the rows must hold two different classes (a code outside 0…K−1 counts as the
// "rest"), as a binary label must hold both signs — checked before anything is drawn.
void requireTwoClasses(const std::vector<std::int32_t>& codes, std::size_t classes) {
  if (codes.size() < 2) throwBadParameter("rows", "at least 2 for training", double(codes.size()));
  const auto group = [&](std::int32_t c) -> long {
    if (classes == 2) return c == 1 ? 1 : 0;  // one problem: code 1 against the rest
    return c >= 0 && static_cast<std::size_t>(c) < classes ? c : -1;
  };
  const long first = group(codes.front());
  for (std::int32_t c : codes) {
    if (group(c) != first) return;
  }
  throw Error(ErrorCode::kOneClass, "",
              "all " + std::to_string(codes.size()) + " rows have " +
                  (first < 0 ? std::string("a class code outside 0…") + std::to_string(classes - 1)
                             : "class code " + std::to_string(first)) +
                  ": training needs at least two classes");
}

}  // namespace

OneVsRest::OneVsRest(Dataset& data, const std::int32_t* codes, std::size_t classes,
                     const TrainSettings& settings, random::Generator generator)
    : dataset_(&data), classes_(classes), problems_(0), settings_(settings) {
  problems_ = static_cast<std::size_t>(plan::oneVsRestProblems(classes));
  if (codes == nullptr && classes != 2) {
    throwBadParameter("classes", "2 (a binary label in the dataset's labels) when no class codes are given",
                      double(classes));
  }
  // The joint learner (settings.plan.jointClasses = K): one problem whose labels are the codes.
  joint_ = settings.plan.jointClasses > 0;
  if (joint_) {
    if (settings.plan.jointClasses != classes || classes < 3) {
      throw Error(ErrorCode::kInternal, "", "one-vs-rest: the joint learner's classes are not the label's");
    }
    problems_ = 1;
  }
  if (!data.labelled()) throwBadParameter("labels", "present for training", 0.0);
  if (codes != nullptr) {
    codes_.assign(codes, codes + data.rows());
    requireTwoClasses(codes_, classes_);
    writeLabels(0, data.labels());
    data.validate(false);  // the values (NON_FINITE); the labels are ±1 by construction
    if (joint_) {
      // The joint learner's rows carry their class code (−1: none of the classes) in the labels.
      std::int8_t* y = data.labels();
      for (std::size_t i = 0; i < codes_.size(); ++i) {
        y[i] = codes_[i] >= 0 && static_cast<std::size_t>(codes_[i]) < classes_ ? static_cast<std::int8_t>(codes_[i])
                                                                              : std::int8_t{-1};
      }
    }
  }
  settings_.plan.classes = problems_;
  // The first problem: exactly a binary run (validation, plan, private ranges with μ_ranges,
  // preparation), with the budget per problem of the plan (μ_class).
  trainer_ = std::make_unique<Trainer>(data, settings_, std::move(generator));
  plan_ = trainer_->plan();
  prepared_ = data.preprocessing();
  rows_ = trainer_->data();
  workPerProblem_ = trainer_->progress().workTotal;
  if (problems_ > 1) labels_.resize(data.rows());
}

OneVsRest::~OneVsRest() = default;

void OneVsRest::writeLabels(std::size_t problem, std::int8_t* out) const {
  const std::int32_t positive = classes_ == 2 ? 1 : static_cast<std::int32_t>(problem);
  for (std::size_t i = 0; i < codes_.size(); ++i) out[i] = codes_[i] == positive ? 1 : -1;
}

Trainer& OneVsRest::trainer() {
  if (done_ || !trainer_) throw Error(ErrorCode::kInternal, "", "one-vs-rest: training is finished");
  return *trainer_;
}

void OneVsRest::completeProblem() {
  result_.problems.push_back(trainer_->result());
  if (result_.problems.size() == problems_) {
    last_ = trainer_->progress();
    const TrainResult& first = result_.problems.front();
    result_.plan = plan_;
    result_.classes = classes_;
    result_.ranges = first.ranges;
    result_.rangesPrivate = first.rangesPrivate;
    result_.seeded = first.seeded;
    trainer_.reset();
    done_ = true;
    return;
  }
  // The next problem: same rows, same plan, its own labels; the generator carries on.
  random::Generator generator = trainer_->takeGenerator();
  trainer_.reset();
  ++problem_;
  writeLabels(problem_, labels_.data());
  if (!detached_) std::copy(labels_.begin(), labels_.end(), dataset_->labels());
  trainer_ = std::make_unique<Trainer>(detached_ ? DataView{} : rows_, prepared_, plan_.muRanges > 0,
                                       settings_, std::move(generator), plan_);
  labelsPending_ = true;
}

bool OneVsRest::advance(std::uint64_t iterationBudget) {
  if (detached_) throw Error(ErrorCode::kInternal, "", "advance() on a one-vs-rest run driven by shards");
  if (done_) return true;
  // The local table holds the new labels already (completeProblem wrote them).
  if (labelsPending_) answerLabels();
  if (trainer().advance(iterationBudget)) {
    completeProblem();
    if (labelsPending_) answerLabels();
  }
  return done_;
}

const ShardRequest& OneVsRest::request() {
  request_ = ShardRequest{};
  if (!done_ && !labelsPending_) {
    const ShardRequest& r = trainer_->request();
    if (r.kind != ShardRequest::Kind::kDone) return r;
    completeProblem();
  }
  if (labelsPending_) {
    request_.kind = ShardRequest::Kind::kLabels;
    request_.labels = labels_.data();
  }
  return request_;
}

void OneVsRest::answerLabels() {
  if (!labelsPending_) throw Error(ErrorCode::kInternal, "", "one-vs-rest: unexpected answer (labels)");
  labelsPending_ = false;
}

namespace {
[[noreturn]] void labelsFirst() {
  throw Error(ErrorCode::kInternal, "", "one-vs-rest: the new labels must be answered first");
}
}  // namespace

void OneVsRest::answerSetup() {
  if (labelsPending_) labelsFirst();
  trainer().answerSetup();
}
void OneVsRest::answerGradients(const Eigen::MatrixXd& sum) {
  if (labelsPending_) labelsFirst();
  trainer().answerGradients(sum);
}
void OneVsRest::answerErrors(const std::vector<std::uint64_t>& errors) {
  if (labelsPending_) labelsFirst();
  trainer().answerErrors(errors);
}
void OneVsRest::answerGradientPartials(const std::vector<std::vector<double>>& partials) {
  if (labelsPending_) labelsFirst();
  trainer().answerGradientPartials(partials);
}
void OneVsRest::answerErrorPartials(const std::vector<std::vector<double>>& partials) {
  if (labelsPending_) labelsFirst();
  trainer().answerErrorPartials(partials);
}

void OneVsRest::detachRows() noexcept {
  detached_ = true;
  dataset_ = nullptr;
  rows_ = DataView{};
  if (trainer_) trainer_->detachRows();
}

Progress OneVsRest::progress() const {
  // The current problem's (or, once done, the last one's final) progress; the work of the
  // other problems added (Iter and fixed plan the same work for every problem; PrivTune trains
  // one problem only, so nothing is added to its estimate).
  Progress p = done_ ? last_ : trainer_->progress();
  p.workDone += workPerProblem_ * double(done_ ? problems_ - 1 : problem_);
  p.workTotal += workPerProblem_ * double(problems_ - 1);
  p.problem = done_ ? problems_ - 1 : problem_;
  p.problems = problems_;
  return p;
}

const OneVsRestResult& OneVsRest::result() const {
  if (!done_) throw Error(ErrorCode::kInternal, "", "training result requested before it finished");
  return result_;
}

Predictions predict(const DataView& data, const std::vector<double>& weights, std::size_t problems) {
  if (problems < 1 || weights.size() != problems * data.width) {
    throwBadParameter("weights", "of length problems x " + std::to_string(data.width),
                      double(weights.size()));
  }
  Predictions out;
  if (problems == 1) {
    out.scores = decisionScores(data, weights);
    out.labels.resize(data.n);
    for (std::size_t i = 0; i < data.n; ++i) out.labels[i] = out.scores[i] > 0 ? 1 : -1;
    return out;
  }
  const auto width = static_cast<Eigen::Index>(data.width);
  Eigen::Map<const RowMatrixXf> x(data.x, static_cast<Eigen::Index>(data.n), width);
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> w(
      weights.data(), static_cast<Eigen::Index>(problems), width);
  out.scores.resize(data.n * problems);
  out.labels.resize(data.n);
  for (std::size_t i = 0; i < data.n; ++i) {
    const Eigen::RowVectorXd row = x.row(static_cast<Eigen::Index>(i)).cast<double>();
    std::int32_t best = 0;
    for (std::size_t k = 0; k < problems; ++k) {
      const double s = row.dot(w.row(static_cast<Eigen::Index>(k)));
      out.scores[i * problems + k] = s;
      if (s > out.scores[i * problems + static_cast<std::size_t>(best)]) best = static_cast<std::int32_t>(k);
    }
    out.labels[i] = best;
  }
  return out;
}

}  // namespace dpmargin::learn
