// Every entry point of the module is registered through this file: registerFunction<F>() and
// GuardedClass<C>::method<M>() wrap the call in guard(), so a C++ exception never crosses into
// JavaScript — the caller gets {ok: true, value} or {ok: false, code, parameter, message},
// which the TypeScript layer turns into a DpMarginError. Entry points take `val` arguments
// and convert them inside the guard (marshal.hpp), so a wrong argument type is a typed error
// too. tests/jest/bindings.test.js enumerates the module's exports and checks each one.
#pragma once

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "dpmargin/error.hpp"

namespace dpmargin::wasm {

using emscripten::val;

val failure(const char* code, const std::string& parameter, const std::string& message);

// Test instrumentation: when armed, the next guarded call fails with BAD_PARAMETER "fault"
// before doing anything, which proves that the call went through the guard.
bool takeArmedFault() noexcept;

template <typename F>
val guard(F&& body) {
  try {
    if (takeArmedFault()) throw Error(ErrorCode::kBadParameter, "fault", "fault injected by a test");
    val out = val::object();
    out.set("ok", true);
    out.set("value", body());
    return out;
  } catch (const Error& e) {
    return failure(errorCodeName(e.code()), e.parameter(), e.what());
  } catch (const std::bad_alloc&) {
    return failure("OUT_OF_MEMORY", "", "out of memory in the WebAssembly module");
  } catch (const std::exception& e) {
    return failure("INTERNAL", "", std::string("internal error: ") + e.what());
  } catch (...) {
    return failure("INTERNAL", "", "internal error: unknown exception");
  }
}

// Names registered through the helpers below ("gdpMu", "Trainer.advance"), for the test that
// checks the module exports nothing else.
std::vector<std::string>& registeredEntries();

namespace detail {
template <class R>
val toVal(R&& r) {
  return val(std::forward<R>(r));
}
template <auto F, class = decltype(F)>
struct GuardedFunction;
template <auto F, class R, class... A>
struct GuardedFunction<F, R (*)(A...)> {
  static val call(A... a) {
    return guard([&]() -> val {
      if constexpr (std::is_void_v<R>) {
        F(a...);
        return val(true);
      } else {
        return toVal(F(a...));
      }
    });
  }
};
template <auto M, class = decltype(M)>
struct GuardedMethod;
template <auto M, class C, class R, class... A>
struct GuardedMethod<M, R (C::*)(A...)> {
  static val call(C& self, A... a) {
    return guard([&]() -> val {
      if constexpr (std::is_void_v<R>) {
        (self.*M)(a...);
        return val(true);
      } else {
        return toVal((self.*M)(a...));
      }
    });
  }
};
}  // namespace detail

template <auto F>
void registerFunction(const char* name) {
  registeredEntries().push_back(name);
  emscripten::function(name, &detail::GuardedFunction<F>::call);
}

// embind's class_ with every method guarded. The constructor takes no argument and cannot
// fail (objects are empty until their first guarded call).
template <class C>
class GuardedClass {
 public:
  explicit GuardedClass(const char* name) : name_(name), class_(name) { class_.template constructor<>(); }
  template <auto M>
  GuardedClass& method(const char* name) {
    registeredEntries().push_back(std::string(name_) + "." + name);
    class_.function(name, &detail::GuardedMethod<M>::call);
    return *this;
  }

 private:
  const char* name_;
  emscripten::class_<C> class_;
};

}  // namespace dpmargin::wasm
