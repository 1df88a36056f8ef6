// The Dataset object: a table in wasm memory. JS writes raw values straight into heap views
// (features()/labels()); the core validates it and prepares it in place (for training, by the
// Trainer with the run's resolved preprocessing; for prediction, with a model's).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "guard.hpp"

namespace dpmargin::wasm {

class WasmDataset {
 public:
  val allocate(val rows, val features, val labelled);  // → {stride}
  val features();  // Float32Array view (re-fetch after anything that may grow memory)
  val labels();    // Int8Array view
  // A multiclass label: room for one int32 class code per row (0…classes−1; one-vs-rest,
  // core/include/dpmargin/learn/one_vs_rest.hpp) → an Int32Array view to write them into.
  // `classes` is checked by the core when training starts.
  val codes(val classes);
  val validate(val requireBothClasses);
  val prepare(val preprocessing);  // {intercept, rowNormalization, normBound, columnRanges}
  val scores(val weights);         // Float64Array of ⟨w, x_i⟩ (prepared rows)
  // learn::predict: {scores: Float64Array n × problems row-major, labels: Int32Array n}.
  val predict(val weights, val problems);
  val shape();                     // {rows, features, stride, width, prepared}
  void release();
  learn::Dataset& dataset();       // validated (INTERNAL otherwise)
  learn::Dataset& data();          // allocated, maybe not validated (INTERNAL otherwise)
  learn::Dataset& table() { return data(); }
  // A table read by the core (CsvRun, CsvRead), with its class codes when the label has more
  // than two classes (empty: a binary label in labels()).
  void adopt(std::unique_ptr<learn::Dataset> data, std::vector<std::int32_t> codes = {}, std::size_t classes = 2) {
    data_ = std::move(data);
    codes_ = std::move(codes);
    classes_ = classes;
  }
  // The class codes written through codes(), or null (a binary label in labels()), and K.
  const std::int32_t* classCodes() const noexcept { return codes_.empty() ? nullptr : codes_.data(); }
  std::size_t classes() const noexcept { return classes_; }

 private:
  std::unique_ptr<learn::Dataset> data_;
  std::vector<std::int32_t> codes_;
  std::size_t classes_ = 2;
};

// The Dataset a JS argument holds (BAD_PARAMETER naming `name` if it is not one).
WasmDataset& toDataset(const val& v, const char* name);

}  // namespace dpmargin::wasm
