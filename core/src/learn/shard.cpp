#include "dpmargin/learn/shard.hpp"

#include <algorithm>
#include <new>
#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/learn/kernels.hpp"
#include "dpmargin/learn/multiclass_kernel.hpp"
#include "dpmargin/learn/trainer.hpp"

namespace dpmargin::learn {

std::vector<std::size_t> shardBounds(std::size_t n, std::size_t shards) {
  if (shards < 1) throwBadParameter("shards", "at least 1", 0.0);
  if (n < shards) throwBadParameter("shards", "at most n", double(shards));
  std::size_t align = 1;
  for (std::size_t a : {kShardRowAlignment, std::size_t{128}}) {
    if (n >= 2 * a * shards) {
      align = a;
      break;
    }
  }
  std::vector<std::size_t> bounds(shards + 1, 0);
  bounds[shards] = n;
  for (std::size_t i = 1; i < shards; ++i) {
    // Nearest multiple of `align` to i·n/shards (with n ≥ 2·align·shards every shard keeps ≥ align
    // rows: the boundaries are strictly increasing).
    const double target = double(n) * double(i) / double(shards);
    bounds[i] = static_cast<std::size_t>(target / double(align) + 0.5) * align;
    if (bounds[i] <= bounds[i - 1]) bounds[i] = bounds[i - 1] + 1;
  }
  return bounds;
}

Shard::Shard(std::size_t rows, std::size_t width) {
  if (rows < 1) throwBadParameter("rows", "at least 1", 0.0);
  if (width < 1) throwBadParameter("width", "at least 1", 0.0);
  if (width > kMaxTableValues / rows) {
    throw Error(ErrorCode::kOutOfMemory, "",
                "a shard of " + std::to_string(rows) + " x " + std::to_string(width) +
                    " values exceeds the table limit");
  }
  try {
    x_.resize(rows * width);
    y_.resize(rows);
  } catch (const std::bad_alloc&) {
    throw Error(ErrorCode::kOutOfMemory, "",
                "out of memory for a shard of " + std::to_string(rows) + " x " +
                    std::to_string(width) + " floats");
  }
  view_.x = x_.data();
  view_.y = y_.data();
  view_.n = rows;
  view_.width = width;
}

Shard::Shard(const DataView& rows) : view_(rows) {}

void Shard::setLabels(const std::int8_t* labels) {
  if (y_.empty() || view_.y != y_.data()) {
    throw Error(ErrorCode::kInternal, "", "labels set on a shard that does not own its rows");
  }
  for (std::size_t i = 0; i < y_.size(); ++i) {
    if (labels[i] != 1 && labels[i] != -1) {
      throw Error(ErrorCode::kBadLabel, "",
                  "label at shard row " + std::to_string(i) + " (0-based) must be -1 or +1, but is " +
                      std::to_string(int(labels[i])));
    }
  }
  std::copy(labels, labels + y_.size(), y_.begin());
  ready_ = false;  // a new problem starts with setup()
}

void Shard::setup(const StepSetup& s) {
  if (view_.x == nullptr || view_.y == nullptr) {
    throw Error(ErrorCode::kInternal, "", "shard has no rows");
  }
  const bool projected = s.phi.size() > 0;
  if (projected && (static_cast<std::size_t>(s.phi.cols()) != view_.width ||
                    static_cast<std::size_t>(s.phi.rows()) != s.k)) {
    throwBadParameter("phi", "k x width", double(s.phi.size()));
  }
  if (!projected && s.k != view_.width) throwBadParameter("k", "the width when unprojected", double(s.k));
  if (s.c.size() < 1) throwBadParameter("c", "at least one hinge scale", 0.0);
  rows_ = ClippedRows{};
  rows_.y = view_.y;
  rows_.n = view_.n;
  rows_.k = s.k;
  if (projected) {
    projectRows(view_, s.phi, projected_);  // z_i = Φ x_i for this shard's rows
    rows_.z = projected_.data();
    rows_.stride = s.k;
  } else {
    projected_ = {};
    rows_.z = view_.x;
    rows_.stride = view_.width;
  }
  clipFactors(rows_.z, rows_.stride, rows_.n, rows_.k, s.clipRadius, scale_);
  rows_.scale = scale_.data();
  c_ = s.c;
  if (s.classes != 0 && (s.classes < 3 || s.classes > plan::kMaxClasses)) {
    throwBadParameter("classes", "0 (binary) or 3 to 50", double(s.classes));
  }
  classes_ = s.classes;
  loss_ = s.loss;
  const std::size_t columns = static_cast<std::size_t>(c_.size()) * (classes_ > 0 ? classes_ : 1);
  partial_.assign(s.k * columns, 0.0f);
  compensation_.assign(partial_.size(), 0.0);
  wt_.assign(classes_ > 0 ? s.k * classes_ : 0, 0.0f);
  ready_ = true;
}

void Shard::gradients(const Eigen::MatrixXf& w, Eigen::MatrixXd& out) {
  if (!ready_) throw Error(ErrorCode::kInternal, "", "shard gradients before setup");
  const Eigen::Index perCandidate = classes_ > 0 ? Eigen::Index(classes_) : 1;
  if (w.rows() != static_cast<Eigen::Index>(rows_.k) || w.cols() != c_.size() * perCandidate) {
    throwBadParameter("weights", "k x m for the current step", double(w.size()));
  }
  out.resize(w.rows(), w.cols());
  if (classes_ > 0) {
    kernels::multiclassGradients(rows_, classes_, loss_, c_.data(), w.data(), rows_.k,
                                 static_cast<std::size_t>(c_.size()), partial_.data(), compensation_.data(),
                                 wt_.data(), out.data());
    return;
  }
  kernels::hingeGradients(rows_, c_.data(), w.data(), rows_.k, static_cast<std::size_t>(w.cols()),
                          partial_.data(), compensation_.data(), out.data());
}

void Shard::countErrors(const Eigen::MatrixXd& w, std::uint64_t* out) const {
  if (static_cast<std::size_t>(w.rows()) != view_.width) {
    throwBadParameter("weights", "of length " + std::to_string(view_.width), double(w.rows()));
  }
  if (classes_ > 0) {
    if (w.cols() % Eigen::Index(classes_) != 0) {
      throwBadParameter("weights", "K columns per candidate", double(w.cols()));
    }
    kernels::multiclassErrors(view_, classes_, w.data(), static_cast<std::size_t>(w.cols()) / classes_, out);
    return;
  }
  std::vector<double> column(view_.width);
  for (Eigen::Index j = 0; j < w.cols(); ++j) {
    Eigen::Map<Eigen::VectorXd>(column.data(), w.rows()) = w.col(j);
    out[j] = learn::countErrors(view_, column);
  }
}

}  // namespace dpmargin::learn
