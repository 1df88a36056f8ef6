// Registrations: the Trainer (the coordinator of a run, a learn::OneVsRest: one binary problem
// for a binary label, one per class for a multiclass one; docs/reference/SHARDING.md, docs/reference/MULTICLASS.md),
// the Shard (rows in another worker) and the shard boundaries. All decisions are the core's: the
// options are resolved by run::resolve, the partial sums reduced by the core's trainer.
#include <emscripten/bind.h>

#include <memory>

#include "dataset.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/learn/shard.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "guard.hpp"
#include "marshal.hpp"

namespace dpmargin::wasm {

run::CsvRun& toCsvRun(const val& v, const char* name);  // csv.cpp

namespace {

std::vector<std::vector<double>> partialsOf(const val& partials, const char* name) {
  if (!partials.isArray()) throw Error(ErrorCode::kBadParameter, name, std::string(name) + " must be an array");
  std::vector<std::vector<double>> out;
  const unsigned count = partials["length"].as<unsigned>();
  for (unsigned s = 0; s < count; ++s) out.push_back(toDoubles(partials[s], name));
  return out;
}

class WasmTrainer {
 public:
  // Resolves the options for the dataset's table, draws nothing yet, and returns the plan:
  // every number of the run is known before the first iteration.
  // A dataset with class codes (Dataset.codes) trains one-vs-rest over its classes.
  val start(val dataset, val options) {
    WasmDataset& table = toDataset(dataset, "dataset");
    learn::Dataset& data = table.data();
    const learn::TrainSettings settings =
        run::resolve(toOptions(options), data.rows(), data.features(), table.classes());
    trainer_.reset();
    trainer_ = std::make_unique<learn::OneVsRest>(data, table.classCodes(), table.classes(), settings,
                                                  run::makeGenerator(settings));
    val out = val::object();
    out.set("plan", describe(trainer_->plan(), plan::describePlan<JsWriter>));
    out.set("output", std::string(learn::toString(settings.output)));
    out.set("preprocessing", preprocessingOf(data.preprocessing()));
    return out;
  }
  // A CSV run's table (moved into `dataset` by CsvRun.takeDataset): its resolved settings —
  // discovery's share of the plan, the public ranges of encoded columns — and its generator,
  // which category discovery has drawn from already.
  val startRun(val dataset, val csvRun) {
    learn::Dataset& data = toDataset(dataset, "dataset").table();
    run::CsvRun& r = toCsvRun(csvRun, "csvRun");
    const learn::TrainSettings& settings = r.settings();
    const std::size_t classes = r.classCount();
    trainer_.reset();
    trainer_ = std::make_unique<learn::OneVsRest>(data, classes > 2 ? r.classCodes().data() : nullptr, classes,
                                                  settings, r.takeGenerator());
    val out = val::object();
    out.set("plan", describe(trainer_->plan(), plan::describePlan<JsWriter>));
    out.set("output", std::string(learn::toString(settings.output)));
    out.set("preprocessing", preprocessingOf(data.preprocessing()));
    return out;
  }
  bool advance(val budget) { return trainer().advance(toCount(budget, "iterationBudget", 1)); }
  val progress() { return describe(trainer().progress(), learn::describeProgress<JsWriter>); }
  val result() {
    return describe(trainer().result(), learn::describeOneVsRestResult<JsWriter>);
  }
  void release() { trainer_.reset(); }

  // The next request, with COPIES of its arrays (they are posted to workers): {kind: "setup",
  // k, clipRadius, phi: Float32Array k×width row-major | null, c: Float64Array m, classes: 0 or K
  // (a joint multiclass step: K weight columns per candidate, labels are class codes), loss} |
  // {kind: "gradients", k, m, weights: Float32Array k×m column-major} | {kind: "errors", m,
  // weights: Float64Array width×m column-major} | {kind: "labels", labels: Int8Array n (every
  // row; a shard takes its own)} | {kind: "done"}.
  val request() {
    const learn::ShardRequest& r = trainer().request();
    val o = val::object();
    switch (r.kind) {
      case learn::ShardRequest::Kind::kSetup:
        o.set("kind", std::string("setup"));
        o.set("k", double(r.setup->k));
        o.set("clipRadius", r.setup->clipRadius);
        o.set("phi", r.setup->phi.size() ? float32Array(r.setup->phi.data(), std::size_t(r.setup->phi.size()))
                                         : val::null());
        o.set("c", float64Array(r.setup->c.data(), std::size_t(r.setup->c.size())));
        o.set("classes", double(r.setup->classes));
        o.set("loss", std::string(plan::toString(r.setup->loss)));
        break;
      case learn::ShardRequest::Kind::kGradients:
        o.set("kind", std::string("gradients"));
        o.set("k", double(r.weights->rows()));
        o.set("m", double(r.weights->cols()));
        o.set("weights", float32Array(r.weights->data(), std::size_t(r.weights->size())));
        break;
      case learn::ShardRequest::Kind::kErrors:
        o.set("kind", std::string("errors"));
        o.set("m", double(r.candidates->cols()));
        o.set("weights", float64Array(r.candidates->data(), std::size_t(r.candidates->size())));
        break;
      case learn::ShardRequest::Kind::kDone:
        o.set("kind", std::string("done"));
        break;
      case learn::ShardRequest::Kind::kLabels:
        o.set("kind", std::string("labels"));
        o.set("labels", int8Array(r.labels, trainer().plan().request.n));
        break;
    }
    return o;
  }
  void answerLabels() { trainer().answerLabels(); }
  void answerSetup() { trainer().answerSetup(); }
  // One Float64Array per shard (k×m column-major sums; m exact counts), reduced by the core.
  void answerGradients(val partials) { trainer().answerGradientPartials(partialsOf(partials, "gradients")); }
  void answerErrors(val partials) { trainer().answerErrorPartials(partialsOf(partials, "errors")); }
  // The rows now live in shards: advance() is refused and the dataset may be released.
  void detachRows() { trainer().detachRows(); }

 private:
  static val preprocessingOf(const learn::Preprocessing& p) {
    val o = val::object();
    o.set("intercept", p.intercept);
    o.set("rowNormalization", std::string(learn::toString(p.rows)));
    o.set("normBound", p.normBound);
    return o;
  }
  learn::OneVsRest& trainer() {
    if (!trainer_) throw Error(ErrorCode::kInternal, "", "trainer used before start()");
    return *trainer_;
  }
  std::unique_ptr<learn::OneVsRest> trainer_;
};

// A shard of prepared rows in a worker: the coordinator's trainer asks it for sums over its rows.
class WasmShard {
 public:
  void allocate(val rows, val width) {
    shard_.reset();
    shard_ = std::make_unique<learn::Shard>(toCount(rows, "rows", 1), toCount(width, "width", 1));
  }
  // Views into the heap to write the rows into (re-fetch after anything that may grow memory).
  val features() { return val(emscripten::typed_memory_view(shard().rows() * shard().width(), shard().rowMajor())); }
  val labels() { return val(emscripten::typed_memory_view(shard().rows(), shard().labels())); }
  // One-vs-rest: the next problem's labels of this shard's rows (±1, one per row).
  void setLabels(val labels) {
    const std::vector<std::int8_t> y = toLabels(labels, "labels");
    if (y.size() != shard().rows()) throwBadParameter("labels", "one per shard row", double(y.size()));
    shard().setLabels(y.data());
  }
  // classes: 0 (binary) or K of a joint multiclass step; loss: its name (the core's parser).
  void setup(val k, val clipRadius, val phi, val c, val classes, val loss) {
    learn::StepSetup s;
    s.k = toCount(k, "k", 1);
    s.classes = toCount(classes, "classes", 0);
    s.loss = plan::parseJointLoss(toText(loss, "loss"), "loss");
    s.clipRadius = toNumber(clipRadius, "clipRadius");
    requirePositive("clipRadius", s.clipRadius);
    const std::vector<double> cs = toDoubles(c, "c");
    for (double v : cs) requirePositive("c", v);
    s.c = Eigen::Map<const Eigen::VectorXd>(cs.data(), Eigen::Index(cs.size()));
    if (!isUnset(phi)) {
      const std::vector<float> p = toFloats(phi, "phi");
      if (p.size() != s.k * shard().width()) throwBadParameter("phi", "k x width values", double(p.size()));
      s.phi = Eigen::Map<const learn::RowMatrixXf>(p.data(), Eigen::Index(s.k), Eigen::Index(shard().width()));
    }
    shard().setup(s);
    w_.resize(Eigen::Index(s.k), s.c.size() * Eigen::Index(s.classes > 0 ? s.classes : 1));
  }
  // weights: Float32Array k×m column-major → a Float64Array k×m (a view: copy it at once).
  val gradients(val weights) {
    const std::vector<float> w = toFloats(weights, "weights");
    if (w.size() != std::size_t(w_.size())) throwBadParameter("weights", "k x m values", double(w.size()));
    w_ = Eigen::Map<const Eigen::MatrixXf>(w.data(), w_.rows(), w_.cols());
    shard().gradients(w_, out_);
    return val(emscripten::typed_memory_view(std::size_t(out_.size()), out_.data()));
  }
  // weights: Float64Array width×m column-major → a Float64Array of error counts, one per
  // candidate (a joint multiclass step: m = candidates × K columns, K per candidate).
  val countErrors(val weights, val m) {
    const std::vector<double> w = toDoubles(weights, "weights");
    const std::size_t cols = toCount(m, "m", 1);
    if (w.size() != cols * shard().width()) throwBadParameter("weights", "width x m values", double(w.size()));
    const Eigen::Map<const Eigen::MatrixXd> wm(w.data(), Eigen::Index(shard().width()), Eigen::Index(cols));
    std::vector<std::uint64_t> counts(shard().classes() > 0 ? cols / shard().classes() : cols);
    shard().countErrors(wm, counts.data());
    std::vector<double> out(counts.begin(), counts.end());
    return float64Array(out);
  }
  // learn::predict over this shard's prepared rows (the training predictions of a sharded run):
  // {scores: Float64Array rows × problems row-major, labels: Int32Array rows}, as Dataset.predict.
  val predict(val weights, val problems) {
    const learn::Predictions p =
        learn::predict(shard().view(), toDoubles(weights, "weights"), toCount(problems, "problems", 1));
    val o = val::object();
    o.set("scores", float64Array(p.scores));
    o.set("labels", int32Array(p.labels.data(), p.labels.size()));
    return o;
  }
  void release() { shard_.reset(); }

 private:
  learn::Shard& shard() {
    if (!shard_) throw Error(ErrorCode::kInternal, "", "shard has no rows");
    return *shard_;
  }
  std::unique_ptr<learn::Shard> shard_;
  Eigen::MatrixXf w_;
  Eigen::MatrixXd out_;
};

val shardBounds(val n, val shards) {
  const auto bounds = learn::shardBounds(toCount(n, "n", 1), toCount(shards, "shards", 1));
  return numberArray(std::vector<double>(bounds.begin(), bounds.end()));
}

}  // namespace
}  // namespace dpmargin::wasm

EMSCRIPTEN_BINDINGS(dpmargin_training) {
  using namespace dpmargin::wasm;
  GuardedClass<WasmTrainer>("Trainer")
      .method<&WasmTrainer::start>("start")
      .method<&WasmTrainer::startRun>("startRun")
      .method<&WasmTrainer::advance>("advance")
      .method<&WasmTrainer::progress>("progress")
      .method<&WasmTrainer::result>("result")
      .method<&WasmTrainer::release>("release")
      .method<&WasmTrainer::request>("request")
      .method<&WasmTrainer::answerLabels>("answerLabels")
      .method<&WasmTrainer::answerSetup>("answerSetup")
      .method<&WasmTrainer::answerGradients>("answerGradients")
      .method<&WasmTrainer::answerErrors>("answerErrors")
      .method<&WasmTrainer::detachRows>("detachRows");
  GuardedClass<WasmShard>("Shard")
      .method<&WasmShard::allocate>("allocate")
      .method<&WasmShard::features>("features")
      .method<&WasmShard::labels>("labels")
      .method<&WasmShard::setLabels>("setLabels")
      .method<&WasmShard::setup>("setup")
      .method<&WasmShard::gradients>("gradients")
      .method<&WasmShard::countErrors>("countErrors")
      .method<&WasmShard::predict>("predict")
      .method<&WasmShard::release>("release");
  registerFunction<&shardBounds>("shardBounds");
}
