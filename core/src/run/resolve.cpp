// The resolver (run.hpp): the one function that turns a caller's options into a resolved run,
// and the data-free plans built on it.
#include <cmath>

#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"
#include "run/rules.hpp"

namespace dpmargin::run {
namespace detail {

plan::PlanRequest resolveCommon(const Options& o, std::uint64_t n, std::uint64_t d,
                                bool rangesDeclared) {
  if (!o.epsilon) required("epsilon");
  if (!o.delta) required("delta");
  plan::PlanRequest r;
  r.epsilon = *o.epsilon;
  r.delta = *o.delta;
  r.n = n;
  r.d = d;
  r.normBound = o.normBound.value_or(kNormBound);
  r.calibration = o.calibration.value_or(plan::Calibration::kTight);
  r.selector = o.selector.value_or(defaultSelector(r.calibration));
  r.score = o.score.value_or(plan::ScoreKind::kEmpirical);
  r.expectedRuns = o.expectedRuns.value_or(kExpectedRuns);
  if (o.jlFailure) {
    r.jlFailure = *o.jlFailure;
    requireOpenUnit("jlFailure", r.jlFailure);
  } else {
    const double nd = static_cast<double>(n);
    r.jlFailure = 1.0 / (nd * nd);  // the paper's theorems
  }
  r.maxIterations = o.maxIterations.value_or(defaultMaxIterations(r.selector));
  r.autoMuKnee = kAutoMuKnee;
  r.autoMinIterations = kAutoMinIterations;
  r.autoIterationsPerMu = kAutoIterationsPerMu;
  r.autoSelectNoise = kAutoSelectNoise;
  r.autoSelectRunShare = kAutoSelectRunShare;
  r.autoSelectFactor = kAutoSelectFactor;
  if (r.selector == plan::Selector::kFixed && !o.margin) {
    required("margin", "a number with selector \"fixed\"");
  }
  r.margin = o.margin.value_or(0.0);
  r.rangeShare = o.rangeShare.value_or(defaultRangeShare(r.selector, rangesDeclared));
  r.stepScale = o.stepScale.value_or(r.calibration == plan::Calibration::kTight ? kTightStepScale : 1.0);
  r.hingeScale = o.hingeScale.value_or(1.0);
  // Pruning applies to the paper's margin grid: fixed and auto (one run, or auto's three public
  // margins) have none, whatever was asked.
  r.pruning = plan::searchesGrid(r.selector)
                  ? o.pruning.value_or(defaultPruning(r.calibration, r.selector))
                  : plan::Pruning::kNone;
  r.pruneRatio = o.pruneRatio.value_or(kPruneRatio);
  return r;
}

void setClasses(const Options& o, std::uint64_t classes, plan::PlanRequest& r) {
  const std::uint64_t problems = plan::oneVsRestProblems(classes);  // BAD_PARAMETER naming classes
  if (problems > 1 && o.multiclass.value_or(kMulticlass) == plan::Multiclass::kJoint) {
    r.classes = 1;
    r.jointClasses = classes;
    r.jointLoss = o.multiclassLoss.value_or(kMulticlassLoss);
  } else {
    r.classes = problems;
  }
}

}  // namespace detail

using namespace detail;

learn::Preprocessing resolvePreprocessing(const Options& o) {
  learn::Preprocessing p;
  p.intercept = o.intercept.value_or(true);
  p.rows = o.rowNormalization.value_or(learn::RowNormalization::kUnitNorm);
  p.normBound = o.normBound.value_or(kNormBound);
  p.ranges = o.columnRanges.value_or(std::vector<learn::ColumnRange>{});
  if (o.columnMaps) {
    if (p.ranges.empty()) {
      throw Error(ErrorCode::kBadParameter, "columnMaps",
                  "columnMaps must be unset unless columnRanges are declared, but is set");
    }
    if (o.columnMaps->size() != p.ranges.size()) {
      throwBadParameter("columnMaps", "one map per columnRanges entry (" + std::to_string(p.ranges.size()) + ")",
                        double(o.columnMaps->size()));
    }
    for (std::size_t j = 0; j < p.ranges.size(); ++j) p.ranges[j].map = (*o.columnMaps)[j];
  }
  learn::validateRanges(p.ranges, p.ranges.size());  // each range for its map; the count later
  learn::validatePreprocessing(p);
  return p;
}

learn::TrainSettings resolve(const Options& o, std::uint64_t n, std::uint64_t features,
                             std::uint64_t classes) {
  if (o.n || o.d) {
    throwBadParameter(o.n ? "n" : "d", "unset for training (the data give n and d)",
                      double(o.n ? *o.n : *o.d));
  }
  if (o.classCount) {
    throwBadParameter("classCount", "unset for training (the data give the label's classes)",
                      double(*o.classCount));
  }
  learn::TrainSettings s;
  s.preprocessing = resolvePreprocessing(o);
  // Empty declared ranges mean none (so private ranges stay on by default).
  const bool declared = !s.preprocessing.ranges.empty();
  const std::uint64_t d = features + (s.preprocessing.intercept ? 1 : 0);
  s.plan = resolveCommon(o, n, d, declared);
  setClasses(o, classes, s.plan);
  s.output = o.output.value_or(defaultOutput(s.plan.calibration));
  s.seed = o.seed;
  if (declared) learn::validateRanges(s.preprocessing.ranges, features);
  if (declared && s.plan.rangeShare > 0) {
    throwBadParameter("rangeShare", "0 when columnRanges are declared", s.plan.rangeShare);
  }
  plan::validateRequest(s.plan);
  return s;
}

void validate(const Options& o) {
  // The smallest table: every check that does not depend on the data runs here, before a
  // byte is read. Declared ranges are checked against the data's columns later.
  data::validateTableOptions(o.table);
  if (o.discoveryShare) requireOpenUnit("discoveryShare", *o.discoveryShare);
  if (o.schemaShare) requireOpenUnit("schemaShare", *o.schemaShare);
  if (o.maxBytes) requirePositive("maxBytes", *o.maxBytes);
  Options copy = o;
  const std::size_t features = o.columnRanges && !o.columnRanges->empty() ? o.columnRanges->size() : 1;
  (void)resolve(copy, 2, features);
}

plan::Plan account(const Options& o) {
  if (!o.n) required("n");
  if (!o.d) required("d");
  if (*o.n < 2) throwBadParameter("n", "at least 2", double(*o.n));
  if (*o.d < 1) throwBadParameter("d", "at least 1", double(*o.d));
  if (o.columnRanges || o.intercept || o.rowNormalization || o.output || o.seed) {
    const char* name = o.columnRanges ? "columnRanges" : o.intercept ? "intercept"
                       : o.rowNormalization ? "rowNormalization" : o.output ? "output" : "seed";
    throw Error(ErrorCode::kBadParameter, name,
                std::string(name) + " must be unset for a data-free plan (it applies to training only), but is set");
  }
  plan::PlanRequest r = resolveCommon(o, *o.n, *o.d, false);
  if (o.classCount && (*o.classCount < 2 || *o.classCount > 50)) {
    throwBadParameter("classCount", "2 (a binary label) or 3 to 50", double(*o.classCount));
  }
  setClasses(o, o.classCount.value_or(2), r);
  return plan::makePlan(r);
}

plan::Plan planForTable(const Options& options, std::uint64_t n, std::uint64_t features,
                        std::uint64_t classes) {
  if (n < 2) throwBadParameter("n", "at least 2", double(n));
  if (features < 1) throwBadParameter("features", "at least 1", double(features));
  return plan::makePlan(resolve(options, n, features, classes).plan);
}

random::Generator makeGenerator(const learn::TrainSettings& settings) {
  return settings.seed ? random::Generator::seeded(*settings.seed) : random::Generator::secure();
}

}  // namespace dpmargin::run
