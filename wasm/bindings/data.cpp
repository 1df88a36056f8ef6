// Registrations: the Dataset object (dataset.hpp).
#include <emscripten/bind.h>

#include "dataset.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/learn/one_vs_rest.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/run/run.hpp"
#include "marshal.hpp"

namespace dpmargin::wasm {

learn::Dataset& WasmDataset::data() {
  if (!data_) throw Error(ErrorCode::kInternal, "", "dataset used before allocate()");
  return *data_;
}


learn::Dataset& WasmDataset::dataset() {
  if (!data().validated()) throw Error(ErrorCode::kInternal, "", "dataset not validated");
  return *data_;
}

val WasmDataset::allocate(val rows, val features, val labelled) {
  data_.reset();
  codes_ = {};
  classes_ = 2;
  data_ = std::make_unique<learn::Dataset>(toCount(rows, "rows", 1), toCount(features, "features", 1),
                                           toBoolean(labelled, "labelled"));
  return shape();
}

val WasmDataset::features() {
  learn::Dataset& d = data();
  return val(emscripten::typed_memory_view(d.rows() * d.stride(), d.rowMajor()));
}

val WasmDataset::labels() {
  learn::Dataset& d = data();
  return val(emscripten::typed_memory_view(d.labelled() ? d.rows() : 0, d.labels()));
}

val WasmDataset::codes(val classes) {
  learn::Dataset& d = data();
  classes_ = toCount(classes, "classes", 0);
  codes_.assign(d.rows(), -1);
  return val(emscripten::typed_memory_view(codes_.size(), codes_.data()));
}

val WasmDataset::validate(val requireBothClasses) {
  data().validate(toBoolean(requireBothClasses, "requireBothClasses"));
  return val(true);
}

val WasmDataset::prepare(val preprocessing) {
  const learn::Preprocessing p = run::resolvePreprocessing(toOptions(preprocessing));
  dataset().prepare(p);
  return shape();
}

val WasmDataset::scores(val weights) {
  learn::Dataset& d = dataset();
  return float64Array(learn::decisionScores(d.view(), toDoubles(weights, "weights")));
}

val WasmDataset::predict(val weights, val problems) {
  learn::Dataset& d = dataset();
  const learn::Predictions p = learn::predict(d.view(), toDoubles(weights, "weights"), toCount(problems, "problems", 1));
  val o = val::object();
  o.set("scores", float64Array(p.scores));
  o.set("labels", int32Array(p.labels.data(), p.labels.size()));
  return o;
}

val WasmDataset::shape() {
  const learn::Dataset& d = data();
  val o = val::object();
  o.set("rows", double(d.rows()));
  o.set("features", double(d.features()));
  o.set("stride", double(d.stride()));
  o.set("width", d.prepared() ? double(d.width()) : 0.0);
  o.set("prepared", d.prepared());
  return o;
}

void WasmDataset::release() {
  data_.reset();
  codes_ = {};
}

WasmDataset& toDataset(const val& v, const char* name) {
  if (!v.instanceof(val::module_property("Dataset"))) {
    throw Error(ErrorCode::kBadParameter, name, std::string(name) + " must be a Dataset");
  }
  return *v.as<WasmDataset*>(emscripten::allow_raw_pointers());
}

}  // namespace dpmargin::wasm

EMSCRIPTEN_BINDINGS(dpmargin_data) {
  using namespace dpmargin::wasm;
  GuardedClass<WasmDataset>("Dataset")
      .method<&WasmDataset::allocate>("allocate")
      .method<&WasmDataset::features>("features")
      .method<&WasmDataset::labels>("labels")
      .method<&WasmDataset::codes>("codes")
      .method<&WasmDataset::validate>("validate")
      .method<&WasmDataset::prepare>("prepare")
      .method<&WasmDataset::scores>("scores")
      .method<&WasmDataset::predict>("predict")
      .method<&WasmDataset::shape>("shape")
      .method<&WasmDataset::release>("release");
}
