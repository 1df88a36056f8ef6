// A training or prediction table in the layout the learners read: row-major float32, one
// optional intercept column appended, every row preprocessed on its own (SPEC §3: per-row
// operations with public constants only — no budget needed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpmargin/learn/ranges.hpp"

namespace dpmargin::learn {

enum class RowNormalization {
  kUnitNorm,  // x ← b·x/‖x‖ (zero rows stay 0): the default
  kClip,      // x ← x·min(1, b/‖x‖)
};
inline const char* toString(RowNormalization r) noexcept {
  return r == RowNormalization::kUnitNorm ? "unit-norm" : "clip";
}

struct Preprocessing {
  // Optional min–max scaling of each raw column to [0, 1] with clamping, first. Public ranges
  // are declared by the user; private ones are estimated by the trainer (ranges.hpp) and stored
  // here afterwards. Empty: no column scaling.
  std::vector<ColumnRange> ranges;
  bool intercept = true;  // append the constant feature 1 before the row operation
  RowNormalization rows = RowNormalization::kUnitNorm;
  double normBound = 1.0;  // b, public
};

// Read-only view of prepared data. y ∈ {−1, +1} (null for unlabelled prediction data).
struct DataView {
  const float* x = nullptr;
  std::size_t n = 0;
  std::size_t width = 0;  // columns per row, intercept included
  const std::int8_t* y = nullptr;
};

class Dataset {
 public:
  // Storage for n rows × `features` raw columns, with room for an intercept column (row stride
  // features + 1), so the preprocessing can be chosen later (by the run's resolved settings or
  // a model file). Throws OUT_OF_MEMORY (with the size) before allocating more than the
  // platform can hold, and BAD_PARAMETER for n = 0 or features = 0.
  Dataset(std::size_t n, std::size_t features, bool labelled = true);
  // The same table over storage the caller filled: `rows` holds at least n × (features + 1)
  // floats in that layout (raw features, then one slot the preprocessing uses); it is adopted,
  // not copied, and cut to that size.
  Dataset(std::vector<float>&& rows, std::size_t n, std::size_t features, bool labelled = true);

  std::size_t rows() const noexcept { return n_; }
  std::size_t features() const noexcept { return features_; }
  // Floats per row in rowMajor(): features + 1 before prepare(), width() after it.
  std::size_t stride() const noexcept { return stride_; }
  // Columns the model sees: features + intercept (known once prepared).
  std::size_t width() const noexcept { return width_; }
  const Preprocessing& preprocessing() const noexcept { return preprocessing_; }
  bool labelled() const noexcept { return !labels_.empty(); }
  bool prepared() const noexcept { return prepared_; }

  // Raw features go to columns [0, features) of each row (stride()); labels ±1.
  float* rowMajor() noexcept { return x_.data(); }
  std::int8_t* labels() noexcept { return labels_.data(); }

  // Validates (every value finite — NON_FINITE names row and column; labels ±1 — BAD_LABEL;
  // training data needs both classes — ONE_CLASS, and n ≥ 2). Idempotent.
  void validate(bool requireBothClasses = true);
  bool validated() const noexcept { return validated_; }
  // Applies `preprocessing` in place (column ranges, intercept, row operation; SPEC §3) and
  // packs rows to width(). Once only, after validate(); the data are then read-only.
  void prepare(const Preprocessing& preprocessing);
  // Raw (validated, not yet prepared) values, stride(), e.g. for private range estimation.
  const float* raw() const noexcept { return x_.data(); }

  DataView view() const;  // requires prepare()

 private:
  std::size_t n_, features_, stride_, width_;
  Preprocessing preprocessing_;
  std::vector<float> x_;
  std::vector<std::int8_t> labels_;
  bool validated_ = false;
  bool prepared_ = false;
};

// Largest number of float32 values one table may hold: 2^31 − 1 bytes / 4 keeps every index
// and byte count within wasm32's signed 32-bit range.
inline constexpr std::size_t kMaxTableValues = (std::size_t{1} << 29) - 1;

// Range of the public norm bound b: prepared rows (norm b, float32), their products with O(1)
// weights and the hinge's 1/c (c ≥ b·2⁻⁵³/3) must stay finite and normal.
inline constexpr double kMinNormBound = 1e-30;
inline constexpr double kMaxNormBound = 1e30;

void validatePreprocessing(const Preprocessing& p);  // kMinNormBound ≤ normBound ≤ kMaxNormBound

}  // namespace dpmargin::learn
