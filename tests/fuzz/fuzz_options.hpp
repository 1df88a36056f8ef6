// Bytes → run options the way JavaScript or a command line hands them to the core: every option
// of the table (run::optionSpecs) unset or set, mostly with a value of its declared type in or
// near its domain, sometimes with the awkward doubles of fuzz_input.hpp, a wrong type or an
// unknown choice. Shared by plan_fuzz (data-free plans) and train_fuzz (training).
#pragma once

#include <string>
#include <vector>

#include "dpmargin/run/run.hpp"
#include "fuzz_input.hpp"

namespace dpmargin::fuzz {

inline std::vector<std::string> choicesOf(const run::OptionSpec& spec) {
  std::vector<std::string> out;
  std::string c;
  for (const char* p = spec.choices;; ++p) {
    if (*p == '|' || *p == '\0') {
      out.push_back(c);
      c.clear();
      if (*p == '\0') break;
    } else {
      c += *p;
    }
  }
  return out;
}

// An "ordinary" upper end per option, so most draws land where the option means something.
inline double typicalHigh(const std::string& name) {
  if (name == "epsilon") return 20.0;
  if (name == "delta" || name == "jlFailure" || name == "rangeShare" || name == "margin") return 1.0;
  if (name == "n") return double(1 << 24);
  if (name == "d") return double(1 << 16);
  if (name == "maxIterations") return double(1 << 20);
  if (name == "pruneRatio") return 1000.0;
  return 10.0;
}

inline run::Value anyValue(FuzzedDataProvider& in, const run::OptionSpec& spec, std::size_t features) {
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {  // the wrong type
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
      case 0: return run::Value::ofText(in.ConsumeRandomLengthString(8));
      case 1: return run::Value::ofBoolean(in.ConsumeBool());
      default: return run::Value::ofNumber(anyDouble(in));
    }
  }
  const std::string name = spec.name;
  switch (spec.type) {
    case run::OptionType::kNumber:
      return run::Value::ofNumber(anyDouble(in, 0.0, typicalHigh(name)));
    case run::OptionType::kCount:
      return run::Value::ofNumber(anyCount(in, -2, std::int64_t(typicalHigh(name))));
    case run::OptionType::kBoolean:
      return run::Value::ofBoolean(in.ConsumeBool());
    case run::OptionType::kChoice: {
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0) return run::Value::ofText(in.ConsumeRandomLengthString(16));
      const std::vector<std::string> choices = choicesOf(spec);
      return run::Value::ofText(choices[in.ConsumeIntegralInRange<std::size_t>(0, choices.size() - 1)]);
    }
    case run::OptionType::kRanges: {
      std::vector<std::array<double, 2>> pairs(in.ConsumeBool() ? features
                                                                : in.ConsumeIntegralInRange<std::size_t>(0, 9));
      for (auto& p : pairs) p = {anyDouble(in, -5.0, 0.0), anyDouble(in, 0.0, 5.0)};
      return run::Value::ofPairs(std::move(pairs));
    }
  }
  return run::Value::ofNumber(0);
}

// Sets some options of `scope` (and kBoth); `required` are set more often. Bad values throw
// typed errors, which the caller lets escape (only dpmargin::Error may).
inline run::Options anyOptions(FuzzedDataProvider& in, run::OptionScope scope, std::size_t features) {
  run::Options options;
  for (const run::OptionSpec& spec : run::optionSpecs()) {
    if (spec.scope != run::OptionScope::kBoth && spec.scope != scope) continue;
    const bool required = spec.defaultText == "required";
    if (in.ConsumeIntegralInRange<int>(0, required ? 15 : 2) == 0) continue;  // unset
    const run::Value v = anyValue(in, spec, features);
    if (verbose()) std::fprintf(stderr, "  option %s = %s\n", spec.name, v.shown.c_str());
    run::setOption(options, spec.name, v);
  }
  return options;
}

}  // namespace dpmargin::fuzz
