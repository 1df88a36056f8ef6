// A shard of prepared training rows (docs/reference/SHARDING.md). The trainer (the coordinator) never
// reads rows itself: it asks one or more shards for sums over their rows — the hinge gradient
// sums of noisy GD and the error counts of the selection scores — and adds them up. Noise,
// randomness, selection and everything released stay in the coordinator; a shard only computes
// exact (noise-free) sums over the rows it holds, with the same kernels as a one-shard run.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpmargin/learn/dataset.hpp"
#include "dpmargin/learn/noisy_gd.hpp"
#include "dpmargin/learn/projection.hpp"
#include "dpmargin/plan/plan.hpp"

namespace dpmargin::learn {

// What a shard must know to compute gradients for one step (a base run or a batch of runs):
// the dimension k trained in, the clip radius R, Φ (k × width; empty when Φ = I) and the hinge
// scale c of each of the m candidates advancing together. Φ is public randomness of the
// mechanism (drawn by the coordinator); sending it to a shard reveals nothing the shard's own
// rows do not already hold.
struct StepSetup {
  std::size_t k = 0;
  double clipRadius = 0;
  RowMatrixXf phi;  // empty: unprojected (k = width)
  Eigen::VectorXd c;
  // The joint multiclass learner (multiclass_kernel.hpp): K ≥ 3 classes, each candidate's
  // weights are K columns and the rows' labels are class codes; 0: the binary hinge (±1 labels).
  std::size_t classes = 0;
  plan::JointLoss loss = plan::JointLoss::kSoftmax;
};

// Row boundaries of `shards` contiguous shards of n rows: bounds[0] = 0 < bounds[1] < … <
// bounds[shards] = n. Inner boundaries are multiples of kShardRowAlignment when n allows it
// (else of 128, else plain n·i/shards): the gradient kernels sum rows in float blocks of 128
// (a divisor of the alignment) and add the blocks in double, so aligned shards compute exactly
// the float block sums of a one-shard run and only the order of the double additions differs.
inline constexpr std::size_t kShardRowAlignment = 1024;
std::vector<std::size_t> shardBounds(std::size_t n, std::size_t shards);

class Shard {
 public:
  // An empty shard that owns storage for `rows` prepared rows of `width` columns: fill
  // rowMajor() and labels() (±1), then setup(). Throws OUT_OF_MEMORY with the size.
  Shard(std::size_t rows, std::size_t width);
  // A shard over rows owned by someone else (the one-shard trainer reads the prepared table in
  // place). `rows` must stay alive and unchanged while the shard is used.
  explicit Shard(const DataView& rows);

  std::size_t rows() const noexcept { return view_.n; }
  std::size_t width() const noexcept { return view_.width; }
  float* rowMajor() noexcept { return x_.data(); }          // owning shards only
  std::int8_t* labels() noexcept { return y_.data(); }      // owning shards only
  const DataView& view() const noexcept { return view_; }
  // One-vs-rest between two problems (ShardRequest::Kind::kLabels): copies rows() new labels
  // (±1; BAD_LABEL otherwise) over the held ones. Owning shards only; call setup() afterwards.
  // (A joint multiclass run loads its shards with class codes, −1 for a row of no class, and
  // never sets labels.)
  void setLabels(const std::int8_t* labels);

  // Prepares one step: projects the rows with Φ when given (an n_shard × k copy) and computes
  // the per-row clip factors s_i = min(1, R'/‖z_i‖) (projection.hpp) — per row, so a row gets
  // the same s_i whichever shard holds it.
  void setup(const StepSetup& setup);
  // out(:, j) = Σ_{i in shard} ∇ℓ_{c_j}(w_j; s_i z_i, y_i) for each column w_j of `w` (k × m):
  // the gradient kernel (kernels.hpp) over this shard's rows. `out` is
  // resized to k × m. No allocation after the first call of a step.
  // Joint multiclass steps (setup's classes = K): `w` is k × m·K (K columns per candidate) and
  // so is `out`, from kernels::multiclassGradients.
  void gradients(const Eigen::MatrixXf& w, Eigen::MatrixXd& out);
  // out[j] = #{i in shard : y_i⟨w_j, x_i⟩ ≤ 0} for each column of `w` (width × m), in the
  // prepared feature space (countErrors of trainer.hpp). Joint multiclass (the last setup's
  // classes = K): `w` is width × m·K and out[j], j < m, the multiclass errors of candidate j.
  void countErrors(const Eigen::MatrixXd& w, std::uint64_t* out) const;
  // K of the last setup (0: binary): a joint step's error request has width × m·K weights.
  std::size_t classes() const noexcept { return classes_; }

 private:
  std::vector<float> x_;
  std::vector<std::int8_t> y_;
  DataView view_;
  ClippedRows rows_;
  Eigen::VectorXd c_;
  std::size_t classes_ = 0;
  plan::JointLoss loss_ = plan::JointLoss::kSoftmax;
  std::vector<float> wt_;  // the multiclass kernel's transposed weights
  std::vector<float> projected_, scale_;
  bool ready_ = false;
  std::vector<float> partial_;         // the kernel's k × m float block sums and
  std::vector<double> compensation_;   // Kahan compensations (allocated by setup())
};

}  // namespace dpmargin::learn
