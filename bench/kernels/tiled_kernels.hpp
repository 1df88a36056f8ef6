// The register-tiled gradient kernel that was measured and not landed (tiled_kernels.cpp):
// same contract as dpmargin::learn::kernels::hingeGradients.
#pragma once

#include <cstddef>

#include "dpmargin/learn/noisy_gd.hpp"

namespace dpmargin::bench::tiled {

void hingeGradients(const learn::ClippedRows& rows, const double* c, const float* w, std::size_t ldw,
                    std::size_t m, float* partial, double* compensation, double* out);

}  // namespace dpmargin::bench::tiled
