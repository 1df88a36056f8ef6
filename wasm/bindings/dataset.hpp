// The Dataset object: a table in wasm memory. JS writes raw values straight into heap views
// (features()/labels()); the core validates it and prepares it in place (for training, by the
// Trainer with the run's resolved preprocessing; for prediction, with a model's).
#pragma once

#include <memory>

#include "dpmargin/learn/dataset.hpp"
#include "guard.hpp"

namespace dpmargin::wasm {

class WasmDataset {
 public:
  val allocate(val rows, val features, val labelled);  // → {stride}
  val features();  // Float32Array view (re-fetch after anything that may grow memory)
  val labels();    // Int8Array view
  val validate(val requireBothClasses);
  val prepare(val preprocessing);  // {intercept, rowNormalization, normBound, columnRanges}
  val scores(val weights);         // Float64Array of ⟨w, x_i⟩ (prepared rows)
  val shape();                     // {rows, features, stride, width, prepared}
  void release();
  learn::Dataset& dataset();       // validated (INTERNAL otherwise)
  learn::Dataset& table();         // allocated, maybe not validated (INTERNAL otherwise)
  void adopt(std::unique_ptr<learn::Dataset> data) { data_ = std::move(data); }

 private:
  learn::Dataset& data();          // allocated (INTERNAL otherwise)
  std::unique_ptr<learn::Dataset> data_;
};

// The Dataset a JS argument holds (BAD_PARAMETER naming `name` if it is not one).
WasmDataset& toDataset(const val& v, const char* name);

}  // namespace dpmargin::wasm
