// Special functions the accounting needs beyond <cmath>, accurate to a few ulps.
#pragma once

namespace dpmargin::math {

inline constexpr double kSqrt2 = 1.41421356237309504880;
inline constexpr double kInvSqrt2 = 0.70710678118654752440;
inline constexpr double kInvSqrtPi = 0.56418958354775628695;
inline constexpr double kInvSqrt2Pi = 0.39894228040143267794;
inline constexpr double kLn2 = 0.69314718055994530942;

// Scaled complementary error function erfcx(z) = e^(z²) erfc(z), relative error ~1e-15.
// Finite for all z ≥ 0 (≈ 1/(z√π) for large z); overflows to +inf for z < −26.6.
double erfcx(double z);

// −erfcx′(z) = 2/√π − 2z·erfcx(z) for z ≥ 0 (≈ 1/(√π z²) for large z). From z = 10 on it is
// summed from the asymptotic series, avoiding the cancellation; below, the direct difference
// loses at most a factor 2z² < 200 (≤ 3e-14 relative). Integrand for erfcx(a) − erfcx(b).
double erfcxNegDerivative(double z);

// ∫ f(t) dt over [mid − half, mid + half] by 10-point Gauss–Legendre: exact for polynomials of
// degree ≤ 19, so for the smooth integrands used here (φ, −erfcx′) on short intervals it is
// accurate to rounding. The interval is given by its midpoint and half-width, so a short
// interval far from 0 keeps its width exactly (b − a would carry the rounding of b).
template <class F>
double gaussLegendre10(F&& f, double mid, double half) {
  static constexpr double kNodes[5] = {0.14887433898163121088, 0.43339539412924719080,
                                       0.67940956829902440623, 0.86506336668898451073,
                                       0.97390652851717172008};
  static constexpr double kWeights[5] = {0.29552422471475287017, 0.26926671930999635509,
                                         0.21908636251598204400, 0.14945134915058059315,
                                         0.06667134430868813759};
  double sum = 0.0;
  for (int i = 4; i >= 0; --i) {  // smallest weights first
    const double dx = half * kNodes[i];
    sum += kWeights[i] * (f(mid - dx) + f(mid + dx));
  }
  return half * sum;
}

}  // namespace dpmargin::math
