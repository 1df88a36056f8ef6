// Shared assertions for "every rejected parameter has a test": a call must throw
// dpmargin::Error(BAD_PARAMETER) naming the parameter, with the "<name> must be …" message.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "dpmargin/error.hpp"

namespace dpmargin::testing {

inline void expectBadParameter(const std::function<void()>& call, const std::string& parameter) {
  try {
    call();
    ADD_FAILURE() << "no error; expected BAD_PARAMETER naming " << parameter;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kBadParameter) << e.what();
    EXPECT_EQ(e.parameter(), parameter) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(parameter + " must be ", 0), 0u) << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception type: " << e.what();
  }
}

// Calls `call(v)` for every bad value and expects BAD_PARAMETER naming `parameter`.
inline void expectRejects(const std::vector<double>& bad, const std::string& parameter,
                          const std::function<void(double)>& call) {
  for (double v : bad) {
    SCOPED_TRACE(parameter + " = " + std::to_string(v));
    expectBadParameter([&] { call(v); }, parameter);
  }
}

}  // namespace dpmargin::testing
