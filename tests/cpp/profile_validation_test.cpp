// Every rejected input of the margin profile (data view, solver options, profile options,
// work budgets) throws dpmargin::Error with code BAD_PARAMETER naming the parameter, with the
// message "<name> must be …". Valid boundary values are accepted.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/profile/linear_svm.hpp"
#include "dpmargin/profile/margin.hpp"
#include "dpmargin/profile/margin_profiler.hpp"

namespace dpmargin::profile {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using dpmargin::testing::expectBadParameter;

struct Small {
  std::vector<float> x = {1, 0, 0, 1, -1, 0.5f, 0.2f, -1};
  std::vector<std::int8_t> y = labels();
  // (push_back rather than an initializer list: g++ 12 -O2 warns falsely on int8 lists here)
  static std::vector<std::int8_t> labels() {
    std::vector<std::int8_t> v;
    for (int label : {1, 1, -1, -1}) v.push_back(static_cast<std::int8_t>(label));
    return v;
  }
  DataView view() const { return {x.data(), y.data(), 4, 2}; }
};

// Each entry point that takes a DataView.
const std::vector<std::pair<std::string, std::function<void(const DataView&)>>> kDataEntries = {
    {"validate", [](const DataView& d) { validate(d); }},
    {"LinearSvm", [](const DataView& d) { LinearSvm svm(d, SvmOptions{}); }},
    {"fitLinearSvm", [](const DataView& d) { fitLinearSvm(d, SvmOptions{}); }},
    {"MarginProfiler", [](const DataView& d) { MarginProfiler p(d, ProfileOptions{}); }},
    {"normalizedMargins", [](const DataView& d) { normalizedMargins(d, {1.0, 0.0}); }},
};

TEST(ProfileValidationTest, DataViewRejections) {
  for (const auto& item : kDataEntries) {
    // Not a structured binding: C++17 does not let lambdas capture those (clang rejects it).
    const auto& name = item.first;
    const auto& entry = item.second;
    SCOPED_TRACE(name);
    Small s;
    DataView d = s.view();
    d.n = 0;
    expectBadParameter([&] { entry(d); }, "n");
    d = s.view();
    d.d = 0;
    expectBadParameter([&] { entry(d); }, "d");
    d = s.view();
    d.d = std::numeric_limits<std::size_t>::max() / 2;
    expectBadParameter([&] { entry(d); }, "d");  // n·d overflows
    d = s.view();
    d.x = nullptr;
    expectBadParameter([&] { entry(d); }, "x");
    d = s.view();
    d.y = nullptr;
    expectBadParameter([&] { entry(d); }, "y");
    for (std::int8_t bad : {std::int8_t{0}, std::int8_t{2}, std::int8_t{-2}}) {
      Small t;
      t.y[2] = bad;
      expectBadParameter([&] { entry(t.view()); }, "y");
    }
    for (float bad : {std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity()}) {
      Small t;
      t.x[5] = bad;
      expectBadParameter([&] { entry(t.view()); }, "x");
    }
  }
}

TEST(ProfileValidationTest, MessagesNameTheRow) {
  Small t;
  t.y[2] = 0;
  try {
    validate(t.view());
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "y must be -1 or +1, but row 2 is 0");
  }
  Small u;
  u.x[5] = std::numeric_limits<float>::quiet_NaN();
  try {
    validate(u.view());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("x must be finite, but row 2 column 1 is ", 0), 0u);
  }
}

TEST(ProfileValidationTest, AllZeroRowsRejectedByTheProfiler) {
  const std::vector<float> x(6, 0.0f);
  const std::vector<std::int8_t> y = {1, -1, 1};
  expectBadParameter([&] { MarginProfiler p({x.data(), y.data(), 3, 2}, ProfileOptions{}); }, "x");
}

TEST(ProfileValidationTest, SvmOptionRejections) {
  const Small s;
  auto with = [&](auto set) {
    return [&s, set] {
      SvmOptions o;
      set(o);
      LinearSvm svm(s.view(), o);
    };
  };
  for (double bad : {kNaN, 0.0, -0.0, -1.0, -kInf}) {
    expectBadParameter(with([bad](SvmOptions& o) { o.C = bad; }), "C");
  }
  for (double bad : {kNaN, kInf, -kInf, 0.0, -1e-9}) {
    expectBadParameter(with([bad](SvmOptions& o) { o.tolerance = bad; }), "tolerance");
  }
  for (double bad : {kNaN, kInf, -kInf, -1e-9}) {
    expectBadParameter(with([bad](SvmOptions& o) { o.gapTolerance = bad; }), "gapTolerance");
  }
  expectBadParameter(with([](SvmOptions& o) { o.maxIterations = 0; }), "maxIterations");
  // Accepted boundaries: hard margin, gap test off, one iteration.
  SvmOptions ok;
  ok.C = kHardMargin;
  ok.gapTolerance = 0;
  ok.maxIterations = 1;
  EXPECT_NO_THROW(LinearSvm(s.view(), ok));

  LinearSvm svm(s.view(), SvmOptions{});
  expectBadParameter([&] { svm.run(0); }, "rowBudget");
  expectBadParameter([&] { svm.setC(0.0); }, "C");
  expectBadParameter([&] { svm.setC(kNaN); }, "C");
  expectBadParameter([&] { svm.removeRows({4}); }, "rows");
  expectBadParameter([&] { svm.setC(1.0, kNaN); }, "gapTolerance");
  expectBadParameter([&] { svm.setC(1.0, kInf); }, "gapTolerance");
  EXPECT_NO_THROW(svm.setC(kHardMargin));
  EXPECT_NO_THROW(svm.removeRows({0, 0, 3}));  // repeats are fine
  EXPECT_EQ(svm.activeRows(), 2u);
}

TEST(ProfileValidationTest, ProfileOptionRejections) {
  const Small s;
  auto with = [&](auto set) {
    return [&s, set] {
      ProfileOptions o;
      set(o);
      MarginProfiler p(s.view(), o);
    };
  };
  expectBadParameter(with([](ProfileOptions& o) { o.fractions.clear(); }), "fractions");
  for (double bad : {kNaN, kInf, -0.01, 1.0, 1.5}) {
    expectBadParameter(with([bad](ProfileOptions& o) { o.fractions = {0.0, bad}; }), "fractions");
  }
  expectBadParameter(with([](ProfileOptions& o) { o.fractions = {0.0, 0.01, 0.01}; }),
                     "fractions");  // not strictly increasing
  expectBadParameter(with([](ProfileOptions& o) { o.fractions = {0.02, 0.01}; }), "fractions");
  expectBadParameter(with([](ProfileOptions& o) { o.maxRefitsPerStep = 0; }), "maxRefitsPerStep");
  for (double bad : {kNaN, kInf, 0.0, -1.0}) {  // the soft phase needs a finite C
    expectBadParameter(with([bad](ProfileOptions& o) { o.C = bad; }), "C");
  }
  for (double bad : {kNaN, kInf, 0.0, -1.0}) {
    expectBadParameter(with([bad](ProfileOptions& o) { o.tolerance = bad; }), "tolerance");
  }
  for (double bad : {kNaN, kInf, -1.0}) {
    expectBadParameter(with([bad](ProfileOptions& o) { o.gapTolerance = bad; }), "gapTolerance");
  }
  for (double bad : {kNaN, kInf, -1.0}) {
    expectBadParameter(with([bad](ProfileOptions& o) { o.softGapTolerance = bad; }),
                       "softGapTolerance");
  }
  expectBadParameter(with([](ProfileOptions& o) { o.maxIterationsPerFit = 0; }),
                     "maxIterationsPerFit");
  // validate() alone rejects the same way.
  ProfileOptions bad;
  bad.maxRefitsPerStep = 0;
  expectBadParameter([&] { validate(bad); }, "maxRefitsPerStep");
  // Accepted boundaries.
  ProfileOptions ok;
  ok.fractions = {0.0};
  ok.gapTolerance = 0;
  ok.softGapTolerance = 0;
  ok.maxRefitsPerStep = 1;
  ok.maxIterationsPerFit = 1;
  EXPECT_NO_THROW(MarginProfiler(s.view(), ok));

  MarginProfiler profiler(s.view(), ok);
  expectBadParameter([&] { profiler.advance(0); }, "workBudget");
}

TEST(ProfileValidationTest, MarginWeightRejections) {
  const Small s;
  expectBadParameter([&] { normalizedMargins(s.view(), {1.0}); }, "w");
  expectBadParameter([&] { normalizedMargins(s.view(), {1.0, 0.0, 0.0}); }, "w");
  expectBadParameter([&] { margin(s.view(), {kNaN, 0.0}); }, "w");
  expectBadParameter([&] { margin(s.view(), {kInf, 0.0}); }, "w");
}

}  // namespace
}  // namespace dpmargin::profile
