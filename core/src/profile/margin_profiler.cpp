// The removal–margin curve of SPEC §2.8 as a resumable state machine (see the header for the
// algorithm). Not differentially private.
#include "dpmargin/profile/margin_profiler.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "dpmargin/error.hpp"

namespace dpmargin::profile {

std::vector<double> defaultRemovalFractions() {
  return {0.0,   0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075,
          0.01,  0.015,  0.02,  0.03,  0.04,  0.05};
}

ProfileOptions resolveProfileOptions(std::optional<double> maxRemoved, std::optional<double> C,
                                     std::optional<std::uint64_t> maxRefitsPerStep) {
  ProfileOptions options;
  options.fractions = removalFractionsUpTo(maxRemoved.value_or(kDefaultMaxRemoved));
  if (C) options.C = *C;
  if (maxRefitsPerStep) options.maxRefitsPerStep = static_cast<std::size_t>(*maxRefitsPerStep);
  validate(options);
  return options;
}

std::vector<double> removalFractionsUpTo(double maxRemoved) {
  requireOpenUnit("maxRemoved", maxRemoved);
  std::vector<double> fractions;
  for (double f : defaultRemovalFractions()) {
    if (f < maxRemoved) fractions.push_back(f);
  }
  fractions.push_back(maxRemoved);
  return fractions;
}

void validate(const ProfileOptions& options) {
  if (options.fractions.empty()) {
    throw Error(ErrorCode::kBadParameter, "fractions",
                "fractions must be a non-empty list of removal fractions, but is empty");
  }
  double previous = -1.0;
  for (double f : options.fractions) {
    if (!(f >= 0.0 && f < 1.0)) throwBadParameter("fractions", "in [0, 1) (each entry)", f);
    if (!(f > previous)) throwBadParameter("fractions", "strictly increasing (entry)", f);
    previous = f;
  }
  if (options.maxRefitsPerStep == 0) throwBadParameter("maxRefitsPerStep", "at least 1", 0.0);
  if (!(options.C > 0.0 && std::isfinite(options.C))) {
    throwBadParameter("C", "finite and positive (soft margin while not separable)", options.C);
  }
  requirePositive("tolerance", options.tolerance);
  requireNonNegative("gapTolerance", options.gapTolerance);
  requireNonNegative("softGapTolerance", options.softGapTolerance);
  if (options.maxIterationsPerFit == 0) throwBadParameter("maxIterationsPerFit", "at least 1", 0.0);
}

namespace {

SvmOptions solverOptions(const ProfileOptions& options) {
  SvmOptions svm;
  svm.C = options.C;
  svm.tolerance = options.tolerance;
  svm.gapTolerance = options.softGapTolerance;  // hard-margin fits switch to gapTolerance
  svm.maxIterations = options.maxIterationsPerFit;
  svm.unitNormRows = true;  // the SVM then maximises the normalized margin itself
  svm.shrinking = true;
  svm.seed = options.seed;
  return svm;
}

}  // namespace

struct MarginProfiler::State {
  State(const DataView& d, const ProfileOptions& o)
      : data(d), options(o), svm(d, solverOptions(o)) {}

  DataView data;
  ProfileOptions options;
  LinearSvm svm;
  std::vector<std::size_t> targets;  // rₖ = ⌊fₖ·n⌋
  std::size_t nextGrid = 0;          // first grid target not yet recorded
  std::size_t removed = 0;
  std::size_t refitsThisStep = 0;    // batches removed since the last grid target
  std::uint64_t fitIterations = 0;   // iterations of the current fit before a switch to hard
  std::uint64_t fitStartVisits = 0;  // result.rowVisits when the current fit started
  bool hard = false;
  bool done = false;
  double lastMargin = 0.0;
  ProfileResult result;
  std::vector<std::pair<double, std::size_t>> margins;  // (normalized margin, row), active rows

  // Normalized margins of the active rows under the current w; returns how many rows it read.
  std::size_t computeMargins() {
    margins.clear();
    const double wNorm = svm.w().norm();
    for (std::size_t i = 0; i < data.n; ++i) {
      if (!svm.isActive(i)) continue;
      // Rows are fitted at unit norm, so yᵢ⟨w, x̃ᵢ⟩ = yᵢ⟨w, xᵢ⟩/‖xᵢ‖.
      margins.emplace_back(wNorm > 0.0 ? svm.functionalMargin(i) / wNorm : 0.0, i);
    }
    return margins.size();
  }

  double minimumMargin() const {
    double m = std::numeric_limits<double>::infinity();
    for (const auto& entry : margins) m = std::min(m, entry.first);
    return margins.empty() ? 0.0 : m;
  }

  void record(double minimum) {
    const SvmReport report = svm.report();
    CurvePoint point;
    point.removed = removed;
    point.fraction = static_cast<double>(removed) / static_cast<double>(result.n);
    point.minimumMargin = minimum;
    point.margin = minimum > 0.0 ? minimum : 0.0;
    point.hardMargin = hard;
    point.converged = report.converged;
    point.iterations = fitIterations + report.iterations;
    point.relativeGap = report.relativeGap;
    point.rowVisits = result.rowVisits - fitStartVisits;
    fitStartVisits = result.rowVisits;
    result.fits += 1;
    result.iterations += report.iterations;
    result.allConverged = result.allConverged && report.converged;
    result.w = report.w;
    result.lastViolators = 0;
    for (const auto& entry : margins) result.lastViolators += entry.first <= 0.0 ? 1 : 0;
    lastMargin = point.margin;
    if (point.margin > 0.0 && !result.separable) {
      result.separable = true;
      result.firstSeparableFraction = point.fraction;
      result.firstSeparableRemoved = removed;
    }
    // A fit at a grid target is recorded once per grid entry that maps to the same count.
    bool onGrid = false;
    while (nextGrid < targets.size() && targets[nextGrid] == removed) {
      point.gridIndex = static_cast<int>(nextGrid++);
      result.curve.push_back(point);
      onGrid = true;
    }
    if (onGrid) refitsThisStep = 0;
    else result.curve.push_back(point);
    fitIterations = 0;
  }

  // Removes the next batch towards the next grid target.
  void removeBatch() {
    const std::size_t remaining = targets[nextGrid] - removed;
    const std::size_t batchesLeft =
        options.maxRefitsPerStep > refitsThisStep ? options.maxRefitsPerStep - refitsThisStep : 1;
    std::size_t batch = (remaining + batchesLeft - 1) / batchesLeft;
    if (refitsThisStep < options.maxRefitsPerStep) {
      // Never past the rows the current fit does not separate: removing just those leaves the
      // rest separated by the current w, so the first separable count is not overshot.
      std::size_t violators = 0;
      for (const auto& entry : margins) violators += entry.first <= 0.0 ? 1 : 0;
      if (violators > 0) batch = std::min(batch, violators);
    }
    std::partial_sort(margins.begin(), margins.begin() + static_cast<std::ptrdiff_t>(batch),
                      margins.end());  // smallest margin first, ties by row index
    std::vector<std::size_t> rows(batch);
    for (std::size_t k = 0; k < batch; ++k) rows[k] = margins[k].second;
    svm.removeRows(rows);
    removed += batch;
    ++refitsThisStep;
  }
};

MarginProfiler::MarginProfiler(const DataView& data, const ProfileOptions& options) {
  validate(options);
  state_ = std::make_unique<State>(data, options);  // validates the data
  State& s = *state_;
  s.result.n = s.svm.activeRows();
  s.result.zeroRows = data.n - s.result.n;
  if (s.result.n == 0) {
    throw Error(ErrorCode::kBadParameter, "x",
                "x must be nonzero in at least one row, but every row is zero");
  }
  for (double f : options.fractions) {
    s.targets.push_back(static_cast<std::size_t>(std::floor(f * static_cast<double>(s.result.n))));
  }
}

MarginProfiler::~MarginProfiler() = default;

bool MarginProfiler::done() const noexcept { return state_->done; }

const ProfileResult& MarginProfiler::result() const noexcept { return state_->result; }

ProfileProgress MarginProfiler::progress() const {
  const State& s = *state_;
  ProfileProgress p;
  p.gridDone = s.nextGrid;
  p.gridSize = s.targets.size();
  p.removed = s.removed;
  p.n = s.result.n;
  p.fits = s.result.fits;
  // result.iterations already holds a soft fit's iterations before a switch to hard margin.
  p.iterations = s.result.iterations + (s.done ? 0 : s.svm.iterations());
  p.rowVisits = s.result.rowVisits;
  p.lastMargin = s.lastMargin;
  p.done = s.done;
  return p;
}

bool MarginProfiler::advance(std::uint64_t workBudget) {
  if (workBudget == 0) throwBadParameter("workBudget", "at least 1", 0.0);
  State& s = *state_;
  std::uint64_t spent = 0;
  while (!s.done && spent < workBudget) {
    if (!s.svm.finished()) {
      const std::uint64_t before = s.svm.rowVisits();
      s.svm.run(workBudget - spent);
      const std::uint64_t used = s.svm.rowVisits() - before;
      spent += used;
      s.result.rowVisits += used;
      if (!s.svm.finished()) break;  // budget spent mid-fit
    }
    const std::size_t read = s.computeMargins();
    spent += read;
    s.result.rowVisits += read;
    const double minimum = s.minimumMargin();
    if (!s.hard && s.options.hardMarginWhenSeparable && minimum > 0.0) {
      // Separable: refit as the hard-margin SVM from the current α (feasible for it).
      s.fitIterations += s.svm.iterations();
      s.result.iterations += s.svm.iterations();
      s.hard = true;
      s.svm.setC(kHardMargin, s.options.gapTolerance);
      continue;
    }
    s.record(minimum);
    if (s.nextGrid == s.targets.size()) {
      s.done = true;
      break;
    }
    s.removeBatch();
  }
  return s.done;
}

ProfileResult profileMargins(const DataView& data, const ProfileOptions& options) {
  MarginProfiler profiler(data, options);
  while (!profiler.advance(std::uint64_t{1} << 40)) {
  }
  return profiler.result();
}

}  // namespace dpmargin::profile
