// The gradient kernels as they were before core/src/learn/kernels.cpp (commit 8623458), kept
// verbatim under benchmark-only names so bench/kernels/run.sh can time old against new.
#pragma once

#include <Eigen/Core>

#include "dpmargin/learn/noisy_gd.hpp"

namespace dpmargin::bench::old {

// Was learn::hingeGradientSum: fused matrix–vector pass, Eigen dot + axpy per row.
void hingeGradientSum(const learn::ClippedRows& rows, double c, const Eigen::VectorXf& w,
                      Eigen::VectorXf& scratch, Eigen::VectorXd& out);

// Was learn::BatchedNoisyGd::gradients: per 128-row block, two Eigen GEMMs.
void batchedGradients(const learn::ClippedRows& rows, const Eigen::VectorXd& c,
                      const Eigen::MatrixXf& w, Eigen::MatrixXf& margins,
                      Eigen::MatrixXf& coefficients, Eigen::MatrixXf& blockGradient,
                      Eigen::MatrixXd& out);

}  // namespace dpmargin::bench::old
