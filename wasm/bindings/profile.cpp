// Registrations: the margin profile (SPEC §2.8) — NOT differentially private, a local
// diagnostic. Its options and defaults are the core's (profile::resolveProfileOptions); the
// rows get the same per-row preprocessing as training (run::resolvePreprocessing).
#include <emscripten/bind.h>

#include <memory>
#include <optional>

#include "dataset.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/profile/advice.hpp"
#include "dpmargin/profile/margin_profiler.hpp"
#include "dpmargin/run/run.hpp"
#include "guard.hpp"
#include "marshal.hpp"

namespace dpmargin::wasm {
namespace {

class WasmProfiler {
 public:
  // options: {maxRemoved?, C?, maxRefitsPerStep?}, the preprocessing options (intercept,
  // rowNormalization, normBound) and, for the advice, the budget of the run to compare with
  // (epsilon and delta, and any other training option): its plan is resolved here, before the
  // profile runs, as training would resolve it for this table (run::planForTable).
  // The dataset is prepared here unless it is already.
  void start(val dataset, val options) {
    learn::Dataset& d = toDataset(dataset, "dataset").dataset();
    const val o = toObject(options, "options", true);
    const auto number = [&](const char* key) -> std::optional<double> {
      const val v = o[key];
      return isUnset(v) ? std::nullopt : std::optional<double>(toNumber(v, key));
    };
    std::optional<std::uint64_t> refits;
    if (!isUnset(o["maxRefitsPerStep"])) refits = toCount(o["maxRefitsPerStep"], "maxRefitsPerStep", 1);
    const profile::ProfileOptions p = profile::resolveProfileOptions(number("maxRemoved"), number("C"), refits);
    val rest = val::object();
    const val keys = val::global("Object").call<val>("keys", o);
    for (unsigned i = 0; i < keys["length"].as<unsigned>(); ++i) {
      const std::string key = keys[i].as<std::string>();
      if (key != "maxRemoved" && key != "C" && key != "maxRefitsPerStep") rest.set(key, o[key]);
    }
    const run::Options runOptions = toOptions(rest);
    const learn::Preprocessing pre = run::resolvePreprocessing(runOptions);
    plan_.reset();
    if (runOptions.epsilon || runOptions.delta) {
      plan_ = run::planForTable(runOptions, d.rows(), d.features());
    }
    if (!pre.ranges.empty()) throwBadParameter("columnRanges", "unset for the margin profile", 0.0);
    if (!d.prepared()) d.prepare(pre);
    const learn::DataView v = d.view();
    profiler_.reset();
    profiler_ = std::make_unique<profile::MarginProfiler>(profile::DataView{v.x, v.y, v.n, v.width}, p);
  }
  bool advance(val budget) { return profiler().advance(toCount(budget, "workBudget", 1)); }
  val progress() { return describe(profiler().progress(), profile::describeProfileProgress<JsWriter>); }
  // The result with its advice (profile/advice.hpp; `advice.learner` only with a budget).
  val result() {
    val r = describe(profiler().result(), profile::describeProfile<JsWriter>);
    const profile::ProfileAdvice advice =
        profile::adviseProfile(profiler().result(), plan_ ? &*plan_ : nullptr);
    r.set("advice", describe(advice, profile::describeProfileAdvice<JsWriter>));
    return r;
  }
  void release() { profiler_.reset(); }

 private:
  profile::MarginProfiler& profiler() {
    if (!profiler_) throw Error(ErrorCode::kInternal, "", "profiler used before start()");
    return *profiler_;
  }
  std::unique_ptr<profile::MarginProfiler> profiler_;
  std::optional<plan::Plan> plan_;
};

}  // namespace
}  // namespace dpmargin::wasm

EMSCRIPTEN_BINDINGS(dpmargin_profile) {
  using namespace dpmargin::wasm;
  GuardedClass<WasmProfiler>("Profiler")
      .method<&WasmProfiler::start>("start")
      .method<&WasmProfiler::advance>("advance")
      .method<&WasmProfiler::progress>("progress")
      .method<&WasmProfiler::result>("result")
      .method<&WasmProfiler::release>("release");
}
