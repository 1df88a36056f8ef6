// Double-double ("dd") arithmetic: an unevaluated sum hi + lo carrying ~106 bits.
// Error-free transformations of Knuth (TwoSum) and Dekker (TwoProduct, here via std::fma, which
// is correctly rounded on every target including wasm, where musl emulates it in software).
// Used where a result must be exact beyond double precision: ceilings of real products
// (T = ⌈n²μ²⌉) and exponents such as x²/2 whose rounding error would be amplified by exp().
#pragma once

#include <cmath>

namespace dpmargin::math {

struct DD {
  double hi;
  double lo;
};

// a + b = s + e exactly (Knuth).
inline DD twoSum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  const double e = (a - (s - bb)) + (b - bb);
  return {s, e};
}

// a + b = s + e exactly, requires |a| ≥ |b| or a == 0 (Dekker).
inline DD quickTwoSum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// a · b = p + e exactly (barring overflow/underflow).
inline DD twoProduct(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

inline DD ddAdd(DD a, DD b) {
  DD s = twoSum(a.hi, b.hi);
  const DD t = twoSum(a.lo, b.lo);
  s.lo += t.hi;
  s = quickTwoSum(s.hi, s.lo);
  s.lo += t.lo;
  return quickTwoSum(s.hi, s.lo);
}

inline DD ddNeg(DD a) { return {-a.hi, -a.lo}; }

inline DD ddMul(DD a, DD b) {
  DD p = twoProduct(a.hi, b.hi);
  p.lo += a.hi * b.lo + a.lo * b.hi;
  return quickTwoSum(p.hi, p.lo);
}

inline DD ddMul(DD a, double b) {
  DD p = twoProduct(a.hi, b);
  p.lo += a.lo * b;
  return quickTwoSum(p.hi, p.lo);
}

// a / b with one Newton correction of the double quotient (relative error ~2⁻¹⁰⁴).
inline DD ddDiv(DD a, DD b) {
  const double q1 = a.hi / b.hi;
  const DD r = ddAdd(a, ddNeg(ddMul(b, q1)));
  const double q2 = r.hi / b.hi;
  return quickTwoSum(q1, q2);
}

inline DD ddDiv(double a, double b) { return ddDiv(DD{a, 0.0}, DD{b, 0.0}); }

// Smallest integer ≥ hi + lo, decided on the exact sum (|lo| ≤ ulp(hi)/2 after normalisation).
inline double ddCeil(DD a) {
  if (std::fabs(a.hi) >= 0x1p52) return a.hi + std::ceil(a.lo);  // hi is an integer already
  const double c = std::ceil(a.hi);
  if (c != a.hi) return c;  // hi is not an integer: lo cannot carry the sum past an integer
  return a.lo > 0.0 ? c + 1.0 : c;
}

}  // namespace dpmargin::math
