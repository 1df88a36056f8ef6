// key=value command-line options of the native benchmark runners (experiment, perf_native).
#pragma once

#include <cstdio>
#include <map>
#include <string>

namespace dpmargin::bench {

// Overrides `options` (the defaults) with argv's key=value pairs; false (after a message on
// stderr) on an argument without '='.
inline bool parseArgs(int argc, char** argv, std::map<std::string, std::string>& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "bad argument %s\n", argv[i]);
      return false;
    }
    options[a.substr(0, eq)] = a.substr(eq + 1);
  }
  return true;
}

}  // namespace dpmargin::bench
