// Registrations: the module itself — its version, test instrumentation — and the guard's
// shared pieces (guard.hpp).
#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <malloc.h>

#include "guard.hpp"
#include "marshal.hpp"

namespace dpmargin::wasm {

val failure(const char* code, const std::string& parameter, const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("code", std::string(code));
  out.set("parameter", parameter);
  out.set("message", message);
  return out;
}

namespace {
bool armed = false;
}  // namespace

bool takeArmedFault() noexcept {
  const bool was = armed;
  armed = false;
  return was;
}

std::vector<std::string>& registeredEntries() {
  static std::vector<std::string> names;
  return names;
}

namespace {

std::string version() { return DPMARGIN_VERSION; }

// Test instrumentation (tests/jest/limits.test.js): the wasm memory size and the bytes malloc
// has handed out and not freed (dlmalloc's mallinfo). Reads only; no allocation.
val heapBytes() {
  val o = val::object();
  o.set("total", double(emscripten_get_heap_size()));
  o.set("inUse", double(static_cast<unsigned>(mallinfo().uordblks)));  // an int: > 2 GB wraps
  return o;
}

// Test instrumentation (tests/jest/bindings.test.js): the entries registered through the guard,
// and a fault the next guarded call reports instead of running.
val guardedEntries() {
  val out = val::array();
  const auto& names = registeredEntries();
  for (std::size_t i = 0; i < names.size(); ++i) out.set(i, names[i]);
  return out;
}
void armFaultForTest() { armed = true; }

}  // namespace
}  // namespace dpmargin::wasm

EMSCRIPTEN_BINDINGS(dpmargin_module) {
  using namespace dpmargin::wasm;
  registerFunction<&version>("version");
  registerFunction<&heapBytes>("heapBytes");
  registerFunction<&guardedEntries>("guardedEntries");
  // Not through the guard on purpose: the guard would consume the fault it arms.
  registeredEntries().push_back("armFaultForTest");
  emscripten::function("armFaultForTest", &armFaultForTest);
}
