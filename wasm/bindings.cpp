// Embind registrations of the core. Every entry point runs inside guard(): a C++ exception
// never crosses into JavaScript; the caller gets {ok: true, value} or {ok: false, code,
// parameter, message}, which the TypeScript layer turns into a DpMarginError.
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/accounting/scores.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/profile/margin_profiler.hpp"
#include "dpmargin/random/generator.hpp"

using emscripten::val;
namespace acc = dpmargin::accounting;
namespace pl = dpmargin::plan;
namespace ln = dpmargin::learn;
namespace pr = dpmargin::profile;

namespace {

val failure(const char* code, const std::string& parameter, const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("code", std::string(code));
  out.set("parameter", parameter);
  out.set("message", message);
  return out;
}

template <typename F>
val guard(F&& body) {
  try {
    val out = val::object();
    out.set("ok", true);
    out.set("value", body());
    return out;
  } catch (const dpmargin::Error& e) {
    return failure(dpmargin::errorCodeName(e.code()), e.parameter(), e.what());
  } catch (const std::bad_alloc&) {
    return failure("OUT_OF_MEMORY", "", "out of memory in the WebAssembly module");
  } catch (const std::exception& e) {
    return failure("INTERNAL", "", std::string("internal error: ") + e.what());
  } catch (...) {
    return failure("INTERNAL", "", "internal error: unknown exception");
  }
}

val toArray(const std::vector<double>& values) {
  val out = val::array();
  for (std::size_t i = 0; i < values.size(); ++i) out.set(i, values[i]);
  return out;
}

// 64-bit counts leave as doubles: exact up to 2^53; larger k_γ (≥ 10¹⁶, only for absurdly
// small margins) lose their last digits in JS, which only ever compares them with d.
double asNumber(std::uint64_t v) { return static_cast<double>(v); }

val candidateToJs(const pl::CandidatePlan& c) {
  val o = val::object();
  o.set("gamma", c.gamma);
  o.set("kJl", asNumber(c.kJl));
  o.set("projected", c.projected);
  o.set("k", asNumber(c.dim));
  o.set("c", c.c);
  o.set("clipRadius", c.clipRadius);
  o.set("sensitivity", c.sensitivity);
  o.set("T", asNumber(c.iterations));
  o.set("TUncapped", asNumber(c.iterationsUncapped));
  o.set("capped", c.capped);
  o.set("sigma", c.sigma);
  o.set("stepSize", c.stepSize);
  o.set("scorePenalty", c.scorePenalty);
  o.set("noiseFloorRatio", c.noiseFloorRatio);
  return o;
}

val planToJs(const pl::Plan& p) {
  const pl::PlanRequest& r = p.request;
  val o = val::object();
  o.set("epsilon", r.epsilon);
  o.set("delta", r.delta);
  o.set("n", asNumber(r.n));
  o.set("d", asNumber(r.d));
  o.set("normBound", r.normBound);
  o.set("selector", std::string(pl::toString(r.selector)));
  o.set("calibration", std::string(pl::toString(r.calibration)));
  o.set("score", std::string(pl::toString(r.score)));
  o.set("maxIterations", asNumber(r.maxIterations));
  o.set("jlFailure", p.beta);
  o.set("mu", p.muTotal);
  o.set("muRanges", p.muRanges);
  o.set("muTrain", p.muTrain);
  o.set("rangeShare", r.rangeShare);
  o.set("muRun", p.muRun);
  o.set("scoreSd", p.scoreSd);
  o.set("epsilonSpent", p.epsilonSpent);
  o.set("neighbouring", std::string("replace-one"));
  if (r.selector == pl::Selector::kPrivTune) {
    o.set("expectedRuns", r.expectedRuns);
    o.set("tnbEta", p.tnbEta);
    o.set("tnbR", p.tnbR);
    o.set("probabilityMiss", p.probabilityMiss);
  }
  o.set("stepScale", p.stepScale);
  o.set("hingeScale", p.hingeScale);
  o.set("pruning", std::string(pl::toString(p.pruning)));
  o.set("pruneRatio", r.pruneRatio);
  o.set("gridSize", asNumber(p.gridSize));
  o.set("pruned", toArray(p.pruned));
  val rows = val::array();
  for (std::size_t i = 0; i < p.candidates.size(); ++i) rows.set(i, candidateToJs(p.candidates[i]));
  o.set("candidates", rows);
  return o;
}

// ---- entry points (all guarded) ----
// The core's defaults, so the TS layer's exported constants can be checked against them.
val defaults() {
  val o = val::object();
  o.set("maxIterations", asNumber(pl::kDefaultMaxIterations));
  o.set("pruneRatio", pl::kDefaultPruneRatio);
  o.set("tightStepScale", pl::kTightStepScale);
  o.set("tightOutput", std::string(pl::defaultOutputName(pl::Calibration::kTight)));
  o.set("paperOutput", std::string(pl::defaultOutputName(pl::Calibration::kPaper)));
  return o;
}
val plan(const pl::PlanInput& input) {
  return guard([&] { return planToJs(pl::makePlan(pl::toPlanRequest(input))); });
}
val gdpDelta(double eps, double mu) { return guard([&] { return val(acc::gdpDelta(eps, mu)); }); }
val gdpLogDelta(double eps, double mu) {
  return guard([&] { return val(acc::gdpLogDelta(eps, mu)); });
}
val gdpEpsilon(double mu, double delta) {
  return guard([&] { return val(acc::gdpEpsilon(mu, delta)); });
}
val gdpMu(double eps, double delta) { return guard([&] { return val(acc::gdpMu(eps, delta)); }); }
val composeGdp(val mus) {
  return guard([&] { return val(acc::composeGdp(emscripten::vecFromJSArray<double>(mus))); });
}
val paperMuMstar(double eps, double delta) {
  return guard([&] { return val(acc::paperMuMstar(eps, delta)); });
}
val paperEpsilonLemma(double mu, double delta) {
  return guard([&] { return val(acc::paperEpsilonLemma(mu, delta)); });
}
val marginGrid(double n, double b) {
  return guard([&] {
    return toArray(acc::marginGrid(dpmargin::requireCount("n", n, 2), b));
  });
}
val tnbSummary(double eta, double r, double candidates) {
  return guard([&] {
    const acc::Tnb t{eta, r};
    acc::validateTnb(t);
    const std::uint64_t m = dpmargin::requireCount("candidates", candidates, 1);
    val o = val::object();
    o.set("mean", acc::tnbMean(t));
    o.set("probabilityMiss", acc::tnbProbabilityMiss(t, m));
    val pmf = val::array();
    for (std::uint64_t k = 1; k <= 10; ++k) pmf.set(k - 1, acc::tnbPmf(t, k));
    o.set("pmf1to10", pmf);
    return o;
  });
}
val tnbPgf(double eta, double r, double s) {
  return guard([&] { return val(acc::tnbPgf({eta, r}, s)); });
}
val ps22Epsilon(double mu, double eta, double gamma, double delta) {
  return guard([&] { return val(acc::ps22Epsilon(mu, eta, gamma, delta)); });
}
val ps22Mu(double eps, double eta, double gamma, double delta) {
  return guard([&] { return val(acc::ps22Mu(eps, eta, gamma, delta)); });
}
val privtunePaperEpsilon(double mu, double r, double delta) {
  return guard([&] { return val(acc::privtunePaperEpsilon(mu, r, delta)); });
}
// ---- data and training (objects owned by the JS layer, which always calls .delete()) ----

// A table in wasm memory. JS writes raw values straight into features()/labels() views (no
// intermediate copy), then prepare() validates and preprocesses in place.
class WasmDataset {
 public:
  val allocate(double rows, double features, bool intercept, const std::string& rowNorm,
               double normBound, bool labelled) {
    return guard([&] {
      ln::Preprocessing p;
      p.intercept = intercept;
      if (rowNorm == "unit-norm") {
        p.rows = ln::RowNormalization::kUnitNorm;
      } else if (rowNorm == "clip") {
        p.rows = ln::RowNormalization::kClip;
      } else {
        throw dpmargin::Error(dpmargin::ErrorCode::kBadParameter, "rowNormalization",
                              "rowNormalization must be one of \"unit-norm\", \"clip\", but is \"" +
                                  rowNorm + "\"");
      }
      p.normBound = normBound;
      data_.reset();
      data_ = std::make_unique<ln::Dataset>(dpmargin::requireCount("rows", rows, 1),
                                            dpmargin::requireCount("features", features, 1), p,
                                            labelled);
      return val(data_->width());
    });
  }
  // Views into the heap: re-fetch after anything that may grow memory.
  val features() {
    return val(emscripten::typed_memory_view(data_->rows() * data_->width(), data_->rowMajor()));
  }
  val labels() { return val(emscripten::typed_memory_view(data_->rows(), data_->labels())); }
  double width() const { return data_ ? double(data_->width()) : 0; }
  val declareRanges(val lo, val hi) {
    return guard([&] {
      const auto l = emscripten::convertJSArrayToNumberVector<double>(lo);
      const auto h = emscripten::convertJSArrayToNumberVector<double>(hi);
      if (l.size() != h.size()) dpmargin::throwBadParameter("columnRanges", "pairs", double(l.size()));
      std::vector<ln::ColumnRange> ranges(l.size());
      for (std::size_t j = 0; j < l.size(); ++j) ranges[j] = {l[j], h[j]};
      data_->declareRanges(std::move(ranges));
      return val(true);
    });
  }
  val validate(bool requireBothClasses) {
    return guard([&] {
      data_->validate(requireBothClasses);
      return val(true);
    });
  }
  val preprocess() {
    return guard([&] {
      data_->preprocess();
      return val(true);
    });
  }
  val scores(val weights) {
    return guard([&] {
      const std::vector<double> w = emscripten::convertJSArrayToNumberVector<double>(weights);
      return toFloat64Array(ln::decisionScores(data_->view(), w));
    });
  }
  ln::Dataset& dataset() {
    if (!data_ || !data_->validated()) {
      throw dpmargin::Error(dpmargin::ErrorCode::kInternal, "", "dataset not validated");
    }
    return *data_;
  }
  void release() { data_.reset(); }

 private:
  static val toFloat64Array(const std::vector<double>& v) {
    val copy = val::global("Float64Array").new_(v.size());
    copy.call<void>("set", val(emscripten::typed_memory_view(v.size(), v.data())));
    return copy;
  }
  std::unique_ptr<ln::Dataset> data_;
};

class WasmTrainer {
 public:
  // seed < 0: secure generator (CSPRNG); otherwise a deterministic, NOT private, seeded run.
  val start(WasmDataset& data, const pl::PlanInput& input, const std::string& output,
            double seed) {
    return guard([&] {
      ln::TrainOptions options;
      pl::PlanInput completed = input;
      completed.n = 2;  // placeholders: the trainer takes n and d from the data
      completed.d = 1;
      options.plan = pl::toPlanRequest(completed);
      if (output == "average") {
        options.output = ln::OutputIterate::kAverage;
      } else if (output == "last") {
        options.output = ln::OutputIterate::kLast;
      } else {
        throw dpmargin::Error(dpmargin::ErrorCode::kBadParameter, "output",
                              "output must be one of \"average\", \"last\", but is \"" + output + "\"");
      }
      auto generator = seed < 0 ? dpmargin::random::Generator::secure()
                                : dpmargin::random::Generator::seeded(
                                      dpmargin::requireCount("seed", seed, 0));
      trainer_.reset();
      trainer_ = std::make_unique<ln::Trainer>(data.dataset(), options, std::move(generator));
      return planToJs(trainer_->plan());
    });
  }
  val advance(double budget) {
    return guard([&] {
      return val(trainer_->advance(dpmargin::requireCount("iterationBudget", budget, 1)));
    });
  }
  val progress() const {
    const ln::Progress p = trainer_->progress();
    val o = val::object();
    o.set("run", double(p.run));
    o.set("runs", double(p.runs));
    o.set("candidate", double(p.candidate));
    o.set("iteration", double(p.iteration));
    o.set("iterations", double(p.iterations));
    o.set("batch", double(p.batch));
    o.set("workDone", p.workDone);
    o.set("workTotal", p.workTotal);
    o.set("done", p.done);
    return o;
  }
  val result() const {
    return guard([&] {
      const ln::TrainResult& r = trainer_->result();
      val o = val::object();
      val runs = val::array();
      for (std::size_t i = 0; i < r.runs.size(); ++i) {
        val run = val::object();
        run.set("candidate", double(r.runs[i].candidate));
        run.set("noisyScore", r.runs[i].noisyScore);
        runs.set(i, run);
      }
      o.set("runs", runs);
      o.set("selectedRun", double(r.selectedRun));
      o.set("selectedCandidate", double(r.selectedCandidate));
      val w = val::global("Float64Array").new_(r.weights.size());
      w.call<void>("set", val(emscripten::typed_memory_view(r.weights.size(), r.weights.data())));
      o.set("weights", w);
      o.set("seeded", r.seeded);
      o.set("plan", planToJs(r.plan));
      val ranges = val::array();
      for (std::size_t j = 0; j < r.ranges.size(); ++j) {
        val range = val::array();
        range.set(0, r.ranges[j].lo);
        range.set(1, r.ranges[j].hi);
        ranges.set(j, range);
      }
      o.set("columnRanges", ranges);
      o.set("rangesPrivate", r.rangesPrivate);
      return o;
    });
  }
  void release() { trainer_.reset(); }

  // ---- pull-style driving by shards in other workers (docs/SHARDING.md) ----
  // The next request, with COPIES of its arrays (they are posted to workers): {kind: "setup",
  // k, clipRadius, phi: Float32Array k×width row-major | null, c: Float64Array m} |
  // {kind: "gradients", k, m, weights: Float32Array k×m column-major} | {kind: "errors", m,
  // weights: Float64Array width×m column-major} | {kind: "done"}.
  val request() {
    return guard([&] {
      const ln::ShardRequest& r = trainer_->request();
      val o = val::object();
      switch (r.kind) {
        case ln::ShardRequest::Kind::kSetup: {
          o.set("kind", std::string("setup"));
          o.set("k", double(r.setup->dim));
          o.set("clipRadius", r.setup->clipRadius);
          o.set("phi", r.setup->phi.size() ? copyOf(r.setup->phi.data(), std::size_t(r.setup->phi.size()))
                                           : val::null());
          o.set("c", copyOf(r.setup->c.data(), std::size_t(r.setup->c.size())));
          break;
        }
        case ln::ShardRequest::Kind::kGradients:
          o.set("kind", std::string("gradients"));
          o.set("k", double(r.weights->rows()));
          o.set("m", double(r.weights->cols()));
          o.set("weights", copyOf(r.weights->data(), std::size_t(r.weights->size())));
          break;
        case ln::ShardRequest::Kind::kErrors:
          o.set("kind", std::string("errors"));
          o.set("m", double(r.candidates->cols()));
          o.set("weights", copyOf(r.candidates->data(), std::size_t(r.candidates->size())));
          break;
        case ln::ShardRequest::Kind::kDone:
          o.set("kind", std::string("done"));
          break;
      }
      return o;
    });
  }
  val answerSetup() {
    return guard([&] {
      trainer_->answerSetup();
      return val(true);
    });
  }
  // partials: one Float64Array (k×m, column-major) per shard, added in shard order.
  val answerGradients(val partials) {
    return guard([&] {
      const ln::ShardRequest& r = trainer_->request();
      if (r.kind != ln::ShardRequest::Kind::kGradients) {
        throw dpmargin::Error(dpmargin::ErrorCode::kInternal, "", "gradients were not requested");
      }
      sum_.setZero(r.weights->rows(), r.weights->cols());
      const unsigned shards = partials["length"].as<unsigned>();
      if (shards < 1) dpmargin::throwBadParameter("gradients", "one partial sum per shard (at least 1)", 0.0);
      for (unsigned s = 0; s < shards; ++s) {
        const std::vector<double> part = emscripten::convertJSArrayToNumberVector<double>(partials[s]);
        if (part.size() != std::size_t(sum_.size())) {
          dpmargin::throwBadParameter("gradients", "k x m values per shard", double(part.size()));
        }
        sum_ += Eigen::Map<const Eigen::MatrixXd>(part.data(), sum_.rows(), sum_.cols());
      }
      trainer_->answerGradients(sum_);
      return val(true);
    });
  }
  // partials: one Float64Array of m error counts per shard (exact integers), summed.
  val answerErrors(val partials) {
    return guard([&] {
      std::vector<std::uint64_t> total;
      const unsigned shards = partials["length"].as<unsigned>();
      if (shards < 1) dpmargin::throwBadParameter("errors", "one partial count per shard (at least 1)", 0.0);
      for (unsigned s = 0; s < shards; ++s) {
        const std::vector<double> part = emscripten::convertJSArrayToNumberVector<double>(partials[s]);
        if (s == 0) total.assign(part.size(), 0);
        if (part.size() != total.size()) dpmargin::throwBadParameter("errors", "m counts per shard", double(part.size()));
        for (std::size_t j = 0; j < part.size(); ++j) {
          total[j] += dpmargin::requireCount("errors", part[j], 0);
        }
      }
      trainer_->answerErrors(total);
      return val(true);
    });
  }
  // The rows now live in shards: advance() is refused and the dataset may be released.
  void detachRows() { trainer_->detachRows(); }

 private:
  template <typename T>
  static val copyOf(const T* data, std::size_t size) {
    const char* type = std::is_same<T, float>::value ? "Float32Array" : "Float64Array";
    val copy = val::global(type).new_(size);
    copy.call<void>("set", val(emscripten::typed_memory_view(size, data)));
    return copy;
  }
  std::unique_ptr<ln::Trainer> trainer_;
  Eigen::MatrixXd sum_;
};

// A shard of prepared rows in a worker: the coordinator's trainer asks it for sums over its rows.
class WasmShard {
 public:
  val allocate(double rows, double width) {
    return guard([&] {
      shard_.reset();
      shard_ = std::make_unique<ln::Shard>(dpmargin::requireCount("rows", rows, 1),
                                           dpmargin::requireCount("width", width, 1));
      return val(true);
    });
  }
  // Views into the heap to write the rows into (re-fetch after anything that may grow memory).
  val features() {
    return val(emscripten::typed_memory_view(shard_->rows() * shard_->width(), shard_->rowMajor()));
  }
  val labels() { return val(emscripten::typed_memory_view(shard_->rows(), shard_->labels())); }
  val setup(double k, double clipRadius, val phi, val c) {
    return guard([&] {
      requireShard();
      ln::StepSetup s;
      s.dim = dpmargin::requireCount("k", k, 1);
      s.clipRadius = clipRadius;
      dpmargin::requirePositive("clipRadius", clipRadius);
      const std::vector<double> cs = emscripten::convertJSArrayToNumberVector<double>(c);
      s.c = Eigen::Map<const Eigen::VectorXd>(cs.data(), Eigen::Index(cs.size()));
      for (double v : cs) dpmargin::requirePositive("c", v);
      if (!phi.isNull() && !phi.isUndefined()) {
        const std::vector<float> p = emscripten::convertJSArrayToNumberVector<float>(phi);
        if (p.size() != s.dim * shard_->width()) dpmargin::throwBadParameter("phi", "k x width values", double(p.size()));
        s.phi = Eigen::Map<const ln::RowMatrixXf>(p.data(), Eigen::Index(s.dim), Eigen::Index(shard_->width()));
      }
      shard_->setup(s);
      w_.resize(Eigen::Index(s.dim), s.c.size());
      return val(true);
    });
  }
  // weights: Float32Array k×m column-major → Float64Array k×m (a view: copy it at once).
  val gradients(val weights) {
    return guard([&] {
      requireShard();
      const std::vector<float> w = emscripten::convertJSArrayToNumberVector<float>(weights);
      if (w.size() != std::size_t(w_.size())) dpmargin::throwBadParameter("weights", "k x m values", double(w.size()));
      w_ = Eigen::Map<const Eigen::MatrixXf>(w.data(), w_.rows(), w_.cols());
      shard_->gradients(w_, out_);
      return val(emscripten::typed_memory_view(std::size_t(out_.size()), out_.data()));
    });
  }
  // weights: Float64Array width×m column-major → Float64Array of m error counts.
  val countErrors(val weights, double m) {
    return guard([&] {
      requireShard();
      const std::vector<double> w = emscripten::convertJSArrayToNumberVector<double>(weights);
      const std::size_t cols = dpmargin::requireCount("m", m, 1);
      if (w.size() != cols * shard_->width()) dpmargin::throwBadParameter("weights", "width x m values", double(w.size()));
      const Eigen::Map<const Eigen::MatrixXd> wm(w.data(), Eigen::Index(shard_->width()), Eigen::Index(cols));
      std::vector<std::uint64_t> counts(cols);
      shard_->countErrors(wm, counts.data());
      val out = val::global("Float64Array").new_(cols);
      for (std::size_t j = 0; j < cols; ++j) out.set(j, double(counts[j]));
      return out;
    });
  }
  void release() { shard_.reset(); }

 private:
  void requireShard() const {
    if (!shard_) throw dpmargin::Error(dpmargin::ErrorCode::kInternal, "", "shard has no rows");
  }
  std::unique_ptr<ln::Shard> shard_;
  Eigen::MatrixXf w_;
  Eigen::MatrixXd out_;
};

val shardBounds(double n, double shards) {
  return guard([&] {
    const auto bounds = ln::shardBounds(dpmargin::requireCount("n", n, 1),
                                        dpmargin::requireCount("shards", shards, 1));
    val out = val::array();
    for (std::size_t i = 0; i < bounds.size(); ++i) out.set(i, double(bounds[i]));
    return out;
  });
}

// The margin profile (SPEC §2.8): NOT differentially private — a local diagnostic. It reads the
// dataset after the same per-row preprocessing as training (intercept, unit-norm rows).
class WasmProfiler {
 public:
  val start(WasmDataset& data, double maxRemoved, double C, double maxRefitsPerStep) {
    return guard([&] {
      ln::Dataset& d = data.dataset();
      if (!d.prepared()) d.preprocess();
      const ln::DataView v = d.view();
      pr::ProfileOptions options;
      dpmargin::requireOpenUnit("maxRemoved", maxRemoved);
      // The default grid up to maxRemoved, ending exactly at it.
      std::vector<double> fractions;
      for (double f : pr::defaultRemovalFractions()) {
        if (f < maxRemoved) fractions.push_back(f);
      }
      fractions.push_back(maxRemoved);
      options.fractions = fractions;
      options.C = C;
      options.maxRefitsPerStep = dpmargin::requireCount("maxRefitsPerStep", maxRefitsPerStep, 1);
      profiler_.reset();
      profiler_ = std::make_unique<pr::MarginProfiler>(pr::DataView{v.x, v.y, v.n, v.width}, options);
      return val(true);
    });
  }
  val advance(double budget) {
    return guard([&] { return val(profiler_->advance(dpmargin::requireCount("workBudget", budget, 1))); });
  }
  val progress() const {
    const pr::ProfileProgress p = profiler_->progress();
    val o = val::object();
    o.set("gridDone", double(p.gridDone));
    o.set("gridSize", double(p.gridSize));
    o.set("removed", double(p.removed));
    o.set("n", double(p.n));
    o.set("fits", double(p.fits));
    o.set("lastMargin", p.lastMargin);
    o.set("done", p.done);
    return o;
  }
  val result() const {
    return guard([&] {
      const pr::ProfileResult& r = profiler_->result();
      val o = val::object();
      o.set("private", false);
      o.set("note", std::string(pr::ProfileResult::kPrivacyNote));
      o.set("n", double(r.n));
      o.set("zeroRows", double(r.zeroRows));
      o.set("separable", r.separable);
      o.set("firstSeparableFraction", r.firstSeparableFraction);
      o.set("firstSeparableRemoved", double(r.firstSeparableRemoved));
      o.set("fits", double(r.fits));
      o.set("allConverged", r.allConverged);
      val curve = val::array();
      for (std::size_t i = 0; i < r.curve.size(); ++i) {
        const pr::CurvePoint& c = r.curve[i];
        val p = val::object();
        p.set("fraction", c.fraction);
        p.set("removed", double(c.removed));
        p.set("margin", c.margin);
        p.set("minimumMargin", c.minimumMargin);
        p.set("onGrid", c.gridIndex >= 0);
        p.set("hardMargin", c.hardMargin);
        p.set("converged", c.converged);
        curve.set(i, p);
      }
      o.set("curve", curve);
      return o;
    });
  }
  void release() { profiler_.reset(); }

 private:
  std::unique_ptr<pr::MarginProfiler> profiler_;
};

std::string version() { return DPMARGIN_VERSION; }

// Test instrumentation (tests/jest/limits.test.js): the wasm memory size and the bytes malloc
// has handed out and not freed (dlmalloc's mallinfo). Reads only; no allocation.
val heapBytes() {
  val o = val::object();
  o.set("total", double(emscripten_get_heap_size()));
  o.set("inUse", double(static_cast<unsigned>(mallinfo().uordblks)));  // an int: > 2 GB wraps
  return o;
}

}  // namespace

EMSCRIPTEN_BINDINGS(dpmargin_core) {
  using namespace emscripten;
  value_object<pl::PlanInput>("PlanInput")
      .field("epsilon", &pl::PlanInput::epsilon)
      .field("delta", &pl::PlanInput::delta)
      .field("n", &pl::PlanInput::n)
      .field("d", &pl::PlanInput::d)
      .field("normBound", &pl::PlanInput::normBound)
      .field("selector", &pl::PlanInput::selector)
      .field("calibration", &pl::PlanInput::calibration)
      .field("score", &pl::PlanInput::score)
      .field("expectedRuns", &pl::PlanInput::expectedRuns)
      .field("jlFailure", &pl::PlanInput::jlFailure)
      .field("maxIterations", &pl::PlanInput::maxIterations)
      .field("margin", &pl::PlanInput::margin)
      .field("rangeShare", &pl::PlanInput::rangeShare)
      .field("stepScale", &pl::PlanInput::stepScale)
      .field("hingeScale", &pl::PlanInput::hingeScale)
      .field("pruning", &pl::PlanInput::pruning)
      .field("pruneRatio", &pl::PlanInput::pruneRatio);
  function("defaults", &defaults);
  function("plan", &plan);
  function("gdpDelta", &gdpDelta);
  function("gdpLogDelta", &gdpLogDelta);
  function("gdpEpsilon", &gdpEpsilon);
  function("gdpMu", &gdpMu);
  function("composeGdp", &composeGdp);
  function("paperMuMstar", &paperMuMstar);
  function("paperEpsilonLemma", &paperEpsilonLemma);
  function("marginGrid", &marginGrid);
  function("tnbSummary", &tnbSummary);
  function("tnbPgf", &tnbPgf);
  function("ps22Epsilon", &ps22Epsilon);
  function("ps22Mu", &ps22Mu);
  function("privtunePaperEpsilon", &privtunePaperEpsilon);
  function("version", &version);
  function("heapBytes", &heapBytes);
  class_<WasmDataset>("Dataset")
      .constructor<>()
      .function("allocate", &WasmDataset::allocate)
      .function("features", &WasmDataset::features)
      .function("labels", &WasmDataset::labels)
      .function("width", &WasmDataset::width)
      .function("declareRanges", &WasmDataset::declareRanges)
      .function("validate", &WasmDataset::validate)
      .function("preprocess", &WasmDataset::preprocess)
      .function("scores", &WasmDataset::scores)
      .function("release", &WasmDataset::release);
  class_<WasmProfiler>("Profiler")
      .constructor<>()
      .function("start", &WasmProfiler::start)
      .function("advance", &WasmProfiler::advance)
      .function("progress", &WasmProfiler::progress)
      .function("result", &WasmProfiler::result)
      .function("release", &WasmProfiler::release);
  class_<WasmTrainer>("Trainer")
      .constructor<>()
      .function("start", &WasmTrainer::start)
      .function("advance", &WasmTrainer::advance)
      .function("progress", &WasmTrainer::progress)
      .function("result", &WasmTrainer::result)
      .function("release", &WasmTrainer::release)
      .function("request", &WasmTrainer::request)
      .function("answerSetup", &WasmTrainer::answerSetup)
      .function("answerGradients", &WasmTrainer::answerGradients)
      .function("answerErrors", &WasmTrainer::answerErrors)
      .function("detachRows", &WasmTrainer::detachRows);
  class_<WasmShard>("Shard")
      .constructor<>()
      .function("allocate", &WasmShard::allocate)
      .function("features", &WasmShard::features)
      .function("labels", &WasmShard::labels)
      .function("setup", &WasmShard::setup)
      .function("gradients", &WasmShard::gradients)
      .function("countErrors", &WasmShard::countErrors)
      .function("release", &WasmShard::release);
  function("shardBounds", &shardBounds);
}
