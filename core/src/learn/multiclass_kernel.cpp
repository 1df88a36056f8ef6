#include "dpmargin/learn/multiclass_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpmargin/learn/kernels.hpp"

namespace dpmargin::learn::kernels {

namespace {

// Adds a block's float sums to the double totals with Kahan compensation, then clears them.
void flush(float* partial, double* compensation, double* total, std::size_t count) {
  for (std::size_t e = 0; e < count; ++e) {
    const double y = double(partial[e]) - compensation[e];
    const double t = total[e] + y;
    compensation[e] = (t - total[e]) - y;
    total[e] = t;
    partial[e] = 0.0f;
  }
}

}  // namespace

void multiclassGradients(const ClippedRows& rows, std::size_t classes, plan::JointLoss loss, const double* c,
                         const float* w, std::size_t ldw, std::size_t m, float* partial, double* compensation,
                         float* wt, double* out) {
  const std::size_t k = rows.k, K = classes;
  const std::size_t cols = m * K;
  std::fill(out, out + k * cols, 0.0);
  std::fill(partial, partial + k * cols, 0.0f);
  std::fill(compensation, compensation + k * cols, 0.0);
  std::vector<float> a(K), g(K), zs(k);
  std::vector<double> p(K);
  for (std::size_t j = 0; j < m; ++j) {
    // W_j transposed: wt[t·K + l] = w[(jK + l)·ldw + t], so that the K scores of a row are K
    // independent chains over t (each summed in the same order whatever the vector width).
    for (std::size_t l = 0; l < K; ++l) {
      for (std::size_t t = 0; t < k; ++t) wt[t * K + l] = w[(j * K + l) * ldw + t];
    }
    const float cj = static_cast<float>(c[j]);
    float* part = partial + j * K * k;
    double* comp = compensation + j * K * k;
    double* total = out + j * K * k;
    for (std::size_t start = 0; start < rows.n; start += kRowsPerBlock) {
      const std::size_t end = std::min(rows.n, start + kRowsPerBlock);
      for (std::size_t i = start; i < end; ++i) {
        const int y = rows.y[i];
        if (y < 0 || static_cast<std::size_t>(y) >= K) continue;  // not a class: no term
        const float* z = rows.z + i * rows.stride;
        const float s = rows.scale[i];
        for (std::size_t t = 0; t < k; ++t) zs[t] = s * z[t];
        std::fill(a.begin(), a.end(), 0.0f);
        for (std::size_t t = 0; t < k; ++t) {
          const float zt = zs[t];
          const float* wrow = wt + t * K;
          for (std::size_t l = 0; l < K; ++l) a[l] += zt * wrow[l];
        }
        if (loss == plan::JointLoss::kHinge) {
          std::size_t best = y == 0 ? 1 : 0;
          for (std::size_t l = 0; l < K; ++l) {
            if (l != static_cast<std::size_t>(y) && a[l] > a[best]) best = l;
          }
          if (!(a[static_cast<std::size_t>(y)] - a[best] < cj)) continue;  // margin met: no gradient
          float* gy = part + static_cast<std::size_t>(y) * k;
          float* gb = part + best * k;
          for (std::size_t t = 0; t < k; ++t) {
            gy[t] -= zs[t];
            gb[t] += zs[t];
          }
        } else {
          // p = softmax(a/c) in double, stabilised by the largest score.
          double top = a[0];
          for (std::size_t l = 1; l < K; ++l) top = std::max(top, double(a[l]));
          double sum = 0;
          for (std::size_t l = 0; l < K; ++l) {
            p[l] = std::exp((double(a[l]) - top) / c[j]);
            sum += p[l];
          }
          for (std::size_t l = 0; l < K; ++l) {
            g[l] = static_cast<float>(p[l] / sum - (l == static_cast<std::size_t>(y) ? 1.0 : 0.0));
          }
          for (std::size_t l = 0; l < K; ++l) {
            const float gl = g[l];
            float* gp = part + l * k;
            for (std::size_t t = 0; t < k; ++t) gp[t] += gl * zs[t];
          }
        }
      }
      flush(part, comp, total, K * k);
    }
    const double scale = 1.0 / c[j];
    for (std::size_t e = 0; e < K * k; ++e) total[e] *= scale;
  }
}

void multiclassErrors(const DataView& data, std::size_t classes, const double* w, std::size_t m,
                      std::uint64_t* out) {
  const std::size_t width = data.width, K = classes;
  std::vector<double> score(K);
  for (std::size_t j = 0; j < m; ++j) {
    const double* wj = w + j * K * width;
    std::uint64_t errors = 0;
    for (std::size_t i = 0; i < data.n; ++i) {
      const int y = data.y[i];
      if (y < 0 || static_cast<std::size_t>(y) >= K) continue;
      const float* x = data.x + i * width;
      for (std::size_t l = 0; l < K; ++l) {
        double sum = 0;
        for (std::size_t t = 0; t < width; ++t) sum += double(x[t]) * wj[l * width + t];
        score[l] = sum;
      }
      const double own = score[static_cast<std::size_t>(y)];
      bool wrong = false;
      for (std::size_t l = 0; l < K && !wrong; ++l) wrong = l != static_cast<std::size_t>(y) && score[l] >= own;
      errors += wrong ? 1 : 0;
    }
    out[j] = errors;
  }
}

}  // namespace dpmargin::learn::kernels
