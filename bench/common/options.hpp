// The core's run options from a benchmark's key=value arguments: every key the core knows
// (run::optionSpecs, e.g. maxIterations=50 selector=privtune) is parsed by the core
// (run::setOptionFromText); keys in `own` belong to the benchmark; anything else is an error.
// Unset options take the core's defaults (run::resolve), as in the package.
#pragma once

#include <map>
#include <set>
#include <string>

#include "dpmargin/run/run.hpp"

namespace dpmargin::bench {

inline run::Options coreOptions(const std::map<std::string, std::string>& args,
                                const std::set<std::string>& own) {
  run::Options options;
  for (const auto& [key, value] : args) {
    if (own.count(key)) continue;
    run::setOptionFromText(options, key, value);  // BAD_PARAMETER names an unknown key
  }
  return options;
}

}  // namespace dpmargin::bench
