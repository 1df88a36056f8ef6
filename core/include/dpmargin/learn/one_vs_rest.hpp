// Training a label of K classes under ONE (ε, δ) — the one training object of every label
// (docs/reference/MULTICLASS.md):
//  - the joint learner (settings.plan.jointClasses = K, the default for K ≥ 3): ONE run of the
//    Trainer on the K × k weight matrix, the rows' labels holding their class codes (−1: none of
//    the classes); the shards run the multiclass kernel (multiclass_kernel.hpp);
//  - one-vs-rest (multiclass "one-vs-rest"): one binary problem per class (class k against the
//    rest), each a full run of the Trainer (M*, or a fixed margin) on the same prepared rows;
//  - a binary label as the case of one problem, exactly the Trainer's run.
// The rest of this comment is about one-vs-rest; the joint learner's privacy is in
// docs/reference/LEARNERS.md ("The joint multiclass learner").
//
// Privacy (docs/reference/PRIVACY.md, "Multiclass"): replacing one row can change that row in every one
// of the K problems, so the K runs are K mechanisms on the same data, and they compose exactly
// in GDP: μ_train² = Σ_k μ_class² = K·μ_class². The plan (plan.request.classes = K) gives each
// problem μ_class = μ_train/√K; the private column ranges are estimated once, for the whole run,
// with μ_ranges (μ² = μ_ranges² + μ_train²), on the first problem, and reused by the others.
//
// Driving is the Trainer's (docs/reference/SHARDING.md): advance() on the local table, or request() /
// answer*() with the rows in shards. Between two problems the request is kLabels: the shards
// take the new ±1 labels of their rows (the rows themselves stay where they are).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/random/generator.hpp"

namespace dpmargin::learn {

struct OneVsRestResult {
  plan::Plan plan;           // the run's plan: plan.request.classes problems, each at μ_class
  std::size_t classes = 2;   // K of the label (2: a binary label, one problem)
  // The joint learner (plan.request.jointClasses = K): ONE problem whose weights are K blocks of
  // the width, class k's at weights[k·width …] (learn::predict's layout).
  // One per problem, in class order: problem k is class k against the rest (a binary label:
  // its positive class against the rest). Each has its own runs, selection and weights (in the
  // prepared feature space), and the run's plan, ranges and seeded flag.
  std::vector<TrainResult> problems;
  // The column ranges every problem used (private when rangesPrivate: estimated once).
  std::vector<ColumnRange> ranges;
  bool rangesPrivate = false;
  bool seeded = false;
};

class OneVsRest {
 public:
  // `classes` is K, the label's number of classes (2…50; BAD_PARAMETER naming "classes"):
  //  - codes == nullptr: a binary label (K must be 2) held in the dataset's ±1 labels; exactly
  //    the Trainer's run (same draws, same result).
  //  - codes: one int32 class code per row (0…K−1). K ≥ 3: problem k labels a row +1 where its
  //    code is k, else −1; K = 2: one problem, code 1 positive. A code outside 0…K−1 is
  //    negative in every problem (e.g. a value outside a declared class list). The problems'
  //    labels are written into the dataset's labels (they are overwritten) as each starts.
  //    Both the codes and the rows are validated here: at least 2 rows and two different
  //    classes (ONE_CLASS); a class may have no row (its problem trains on negatives only).
  // `settings` as for the Trainer (run::resolve with the data's classes); its plan's `classes`
  // is set from K. `data` must stay alive until the run is done or detachRows() is called.
  OneVsRest(Dataset& data, const std::int32_t* codes, std::size_t classes,
            const TrainSettings& settings, random::Generator generator);
  ~OneVsRest();
  OneVsRest(const OneVsRest&) = delete;
  OneVsRest& operator=(const OneVsRest&) = delete;

  // The Trainer's interface (trainer.hpp), over all problems in turn.
  bool advance(std::uint64_t iterationBudget);  // true when every problem is done
  // The next request: the current problem's, or kLabels between two problems (then
  // answerLabels()), or kDone after the last one.
  const ShardRequest& request();
  void answerLabels();
  void answerSetup();
  void answerGradients(const Eigen::MatrixXd& sum);
  void answerErrors(const std::vector<std::uint64_t>& errors);
  void answerGradientPartials(const std::vector<std::vector<double>>& partials);
  void answerErrorPartials(const std::vector<std::vector<double>>& partials);
  // The prepared rows with the first problem's labels (what shards are loaded with).
  const DataView& data() const noexcept { return rows_; }
  void detachRows() noexcept;
  // The current problem's progress, with `problem`/`problems` set and the work counted over
  // every problem.
  Progress progress() const;
  const OneVsRestResult& result() const;  // once done
  const plan::Plan& plan() const noexcept { return plan_; }
  std::size_t problems() const noexcept { return problems_; }
  // The joint multiclass learner (plan.request.jointClasses = K): one problem whose weights are
  // K blocks of width (class after class) and whose rows hold class codes instead of ±1.
  bool joint() const noexcept { return joint_; }

 private:
  void writeLabels(std::size_t problem, std::int8_t* out) const;
  void completeProblem();  // the current trainer is done: record it, then next problem or finish
  Trainer& trainer();

  Dataset* dataset_;  // null once detached
  bool joint_ = false;  // the joint multiclass learner: one problem, class codes as labels
  std::vector<std::int32_t> codes_;  // empty: binary labels from the dataset
  std::size_t classes_, problems_;
  TrainSettings settings_;
  plan::Plan plan_;
  Preprocessing prepared_;
  DataView rows_;
  std::unique_ptr<Trainer> trainer_;
  std::size_t problem_ = 0;
  std::vector<std::int8_t> labels_;  // the labels of the current problem (kLabels)
  bool labelsPending_ = false;
  bool detached_ = false;
  bool done_ = false;
  double workPerProblem_ = 0;
  Progress last_;  // the last problem's final progress
  ShardRequest request_;
  OneVsRestResult result_;
};

// Scores of prepared rows for `problems` weight vectors (problem k's at weights[k·width …]):
// n × problems row-major, ⟨w_k, x_i⟩ (for one problem exactly decisionScores), and the
// predicted label of each row: for one problem +1 where the score is > 0, else −1 (the binary
// label); for several, the index of the largest score (the first of equal ones).
struct Predictions {
  std::vector<double> scores;
  std::vector<std::int32_t> labels;
};
Predictions predict(const DataView& data, const std::vector<double>& weights, std::size_t problems);

// The public fields of a one-vs-rest result (names as in the JS API; the field writer of
// plan::describePlan). Each problem's selection record as describeResult's.
template <class Writer>
void describeOneVsRestResult(const OneVsRestResult& r, Writer& v) {
  v.count("classes", r.classes);
  v.list("problems", r.problems.size(), [&](std::size_t k, Writer& p) {
    const TrainResult& t = r.problems[k];
    p.list("runs", t.runs.size(), [&](std::size_t i, Writer& w) {
      w.count("candidate", t.runs[i].candidate);
      w.number("noisyScore", t.runs[i].noisyScore);
    });
    p.count("selectedRun", t.selectedRun);
    p.count("selectedCandidate", t.selectedCandidate);
    p.numbers("weights", t.weights);
  });
  v.boolean("seeded", r.seeded);
  describeScalings(r.ranges, r.rangesPrivate, v);
}

}  // namespace dpmargin::learn
