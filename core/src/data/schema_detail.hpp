// Internal to core/src/data: the two error helpers of the schema's files (schema.cpp resolves a
// schema, schema_options.cpp reads and writes its JSON and checks the options).
#pragma once

#include <string>

#include "dpmargin/error.hpp"
#include "dpmargin/node.hpp"

namespace dpmargin::data::detail {

inline std::string quoted(const std::string& s) { return Node::ofText(s).shown(); }

[[noreturn]] inline void bad(const std::string& parameter, const std::string& message) {
  throw Error(ErrorCode::kBadParameter, parameter, message);
}

}  // namespace dpmargin::data::detail
