// One-dimensional root bracketing and minimisation on doubles, for monotone accounting
// inverses (μ from ε, δ; r from E[K]) and for the RDP order optimisation.
#pragma once

#include <cmath>
#include <utility>

namespace dpmargin::math {

// Given a predicate that is true at `lo` and false at `hi` (monotone in between), shrink the
// bracket until lo and hi are adjacent doubles and return it: `first` is the last point known
// to satisfy the predicate, `second` the first known to fail. Positive brackets spanning more
// than a factor 4 are split geometrically, so any range of magnitudes costs ~100 evaluations.
template <class Pred>
std::pair<double, double> bisectBoundary(Pred&& satisfied, double lo, double hi) {
  for (int iteration = 0; iteration < 4096; ++iteration) {
    double mid;
    if (lo > 0.0 && hi > 4.0 * lo) {
      mid = std::sqrt(lo) * std::sqrt(hi);
    } else if (hi < 0.0 && lo < 4.0 * hi) {
      mid = -std::sqrt(-lo) * std::sqrt(-hi);
    } else {
      mid = lo + 0.5 * (hi - lo);
    }
    if (!(mid > lo && mid < hi)) {
      // No double strictly inside: the bracket is tight (or mid rounded onto an end).
      const double next = std::nextafter(lo, hi);
      if (next >= hi) break;
      mid = next;
    }
    if (satisfied(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return {lo, hi};
}

struct Minimum {
  double x;
  double value;
};

// Brent's method (Brent 1973, "Algorithms for Minimization without Derivatives", ch. 5):
// golden-section steps safeguarded with parabolic interpolation, minimising f on [a, b].
// The location is found to ~sqrt(machine ε) relative, hence the value to ~machine ε.
// Returns the best point actually evaluated, so `value` is always f at a real argument.
template <class F>
Minimum minimizeBrent(F&& f, double a, double b, int maxIterations = 200) {
  constexpr double kGolden = 0.3819660112501051;  // (3 − √5)/2
  constexpr double kRelTol = 1.4901161193847656e-08;  // sqrt(2⁻⁵²)
  constexpr double kAbsTol = 1e-300;
  double x = a + kGolden * (b - a);
  double w = x, v = x;
  double fx = f(x);
  double fw = fx, fv = fx;
  double d = 0.0, e = 0.0;
  for (int iteration = 0; iteration < maxIterations; ++iteration) {
    const double m = 0.5 * (a + b);
    const double tol = kRelTol * std::fabs(x) + kAbsTol;
    const double tol2 = 2.0 * tol;
    if (std::fabs(x - m) <= tol2 - 0.5 * (b - a)) break;
    bool golden = true;
    if (std::fabs(e) > tol) {
      // Parabola through (v, fv), (w, fw), (x, fx).
      double r = (x - w) * (fx - fv);
      double q = (x - v) * (fx - fw);
      double p = (x - v) * q - (x - w) * r;
      q = 2.0 * (q - r);
      if (q > 0.0) p = -p;
      q = std::fabs(q);
      const double eOld = e;
      e = d;
      if (std::fabs(p) < std::fabs(0.5 * q * eOld) && p > q * (a - x) && p < q * (b - x)) {
        d = p / q;
        const double u = x + d;
        if (u - a < tol2 || b - u < tol2) d = (x < m) ? tol : -tol;
        golden = false;
      }
    }
    if (golden) {
      e = (x < m) ? b - x : a - x;
      d = kGolden * e;
    }
    const double u = (std::fabs(d) >= tol) ? x + d : x + (d > 0.0 ? tol : -tol);
    const double fu = f(u);
    if (fu <= fx) {
      if (u < x) b = x; else a = x;
      v = w; fv = fw;
      w = x; fw = fx;
      x = u; fx = fu;
    } else {
      if (u < x) a = u; else b = u;
      if (fu <= fw || w == x) {
        v = w; fv = fw;
        w = u; fw = fu;
      } else if (fu <= fv || v == x || v == w) {
        v = u; fv = fu;
      }
    }
  }
  return {x, fx};
}

}  // namespace dpmargin::math
