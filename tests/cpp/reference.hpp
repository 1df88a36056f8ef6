// Loads the golden vectors (tests/reference/accounting-vectors.json, a copy of
// the project's 50-digit mpmath reference at the double nearest each decimal input).
#pragma once

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace dpmargin::testing {

inline const nlohmann::json& referenceVectors() {
  static const nlohmann::json vectors = [] {
    std::ifstream in(std::string(DPMARGIN_REFERENCE_DIR) + "/accounting-vectors.json");
    if (!in) throw std::runtime_error("cannot open accounting-vectors.json");
    return nlohmann::json::parse(in);
  }();
  return vectors;
}

// Decimal strings (and plain JSON numbers) → double, as the reference generator parsed them.
inline double num(const nlohmann::json& v) {
  if (v.is_string()) return std::strtod(v.get<std::string>().c_str(), nullptr);
  return v.get<double>();
}

}  // namespace dpmargin::testing
