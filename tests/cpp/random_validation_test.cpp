// Every rejected sampler parameter throws dpmargin::Error with code BAD_PARAMETER, parameter()
// naming it, and the message "<name> must be <requirement>, but is <value>" (STYLE §4). Valid
// boundary values are accepted.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/random/generator.hpp"
#include "dpmargin/random/samplers.hpp"

namespace dpmargin::random {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using testing::expectBadParameter;
using testing::expectRejects;

TEST(RandomValidation, GaussianSd) {
  Generator g = Generator::seeded(1);
  double out[3] = {};
  const std::vector<double> bad = {kNaN, kInf, -kInf, -1.0, -1e-300};
  expectRejects(bad, "sd", [&](double sd) { gaussian(g, sd); });
  expectRejects(bad, "sd", [&](double sd) { addGaussian(g, sd, out, 3); });
  EXPECT_NO_THROW(gaussian(g, 0.0));
  EXPECT_NO_THROW(addGaussian(g, 1e-300, out, 3));
}

TEST(RandomValidation, IndexAndRademacherScale) {
  Generator g = Generator::seeded(2);
  expectBadParameter([&] { uniformIndex(g, 0); }, "n");
  float out[4];
  const float fInf = std::numeric_limits<float>::infinity();
  for (float s : {std::numeric_limits<float>::quiet_NaN(), fInf, -fInf, 0.0f, -1.0f}) {
    expectBadParameter([&] { fillRademacher(g, out, 4, s); }, "scale");
  }
}

TEST(RandomValidation, GammaShapeAndScale) {
  Generator g = Generator::seeded(3);
  const std::vector<double> bad = {kNaN, kInf, -kInf, 0.0, -0.0, -1.0};
  expectRejects(bad, "shape", [&](double a) { gamma(g, a, 1.0); });
  expectRejects(bad, "scale", [&](double s) { gamma(g, 1.0, s); });
  EXPECT_NO_THROW(gamma(g, 1e-300, 1.0));
}

TEST(RandomValidation, PoissonLambda) {
  Generator g = Generator::seeded(4);
  expectRejects({kNaN, kInf, -kInf, -1.0, -1e-300, 0x1p52 * 2.0}, "lambda",
                [&](double l) { poisson(g, l); });
  EXPECT_NO_THROW(poisson(g, 0.0));
  EXPECT_NO_THROW(poisson(g, 0x1p52));
}

TEST(RandomValidation, TnbEtaAndR) {
  Generator g = Generator::seeded(5);
  expectRejects({kNaN, kInf, -kInf, -1.0, -1.5}, "eta",
                [&](double eta) { sampleTnb(g, {eta, 0.5}); });
  expectRejects({kNaN, kInf, -kInf, 0.0, 1.0, -0.5, 1.5}, "r",
                [&](double r) { sampleTnb(g, {1.0, r}); });
  EXPECT_NO_THROW(sampleTnb(g, {-0.999, 0.5}));
}

}  // namespace
}  // namespace dpmargin::random
