// JavaScript ↔ core conversions, apart from the registrations: JS values read with named,
// typed errors (never a JS exception, so they stay inside the guard), run options through the
// core's option table, and a field writer for the core's describe*() visitors.
#pragma once

#include <emscripten/val.h>

#include <array>
#include <optional>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "dpmargin/node.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::wasm {

using emscripten::val;

// typeof-checked reads: BAD_PARAMETER naming `name` when the value has another type.
double toNumber(const val& v, const char* name);
std::uint64_t toCount(const val& v, const char* name, double minimum);
bool toBoolean(const val& v, const char* name);
std::string toText(const val& v, const char* name);
// A typed array or an array of numbers.
std::vector<double> toDoubles(const val& v, const char* name);
std::vector<float> toFloats(const val& v, const char* name);
// An array of labels −1 / +1 (an Int8Array); any other value becomes 0, which the core rejects.
std::vector<std::int8_t> toLabels(const val& v, const char* name);
// An object (not null, not an array); `undefined` gives an empty object when `optional`.
val toObject(const val& v, const char* name, bool optional = false);
bool isUnset(const val& v);  // undefined or null

// A JS object of options → run::Options, every key through the core's option table (unknown
// names and wrong types are BAD_PARAMETER naming the key). `into`: add to these options;
// tableObject: the CSV options object (table options only) or the training options (the
// others); without it any option is accepted.
run::Options toOptions(const val& object);
void addOptions(run::Options& into, const val& object, const char* name, bool tableObject);

// Any JS value → a Node (the core reads its meaning); nesting deeper than 64 is refused.
Node toNode(const val& v, const char* name);
// A Node → a fresh JS value.
val fromNode(const Node& node);
// An optional array of row indices (strictly increasing, checked by the core).
std::optional<std::vector<std::uint64_t>> toRows(const val& v, const char* name);

// Copies into fresh JS typed arrays (never views of the wasm heap, which may move).
val float64Array(const double* data, std::size_t size);
val float32Array(const float* data, std::size_t size);
inline val float64Array(const std::vector<double>& v) { return float64Array(v.data(), v.size()); }
val int8Array(const std::int8_t* data, std::size_t size);
val int32Array(const std::int32_t* data, std::size_t size);
val numberArray(const std::vector<double>& v);  // a plain JS array

// The field writer of the core's describe*() visitors (plan.hpp), writing a JS object.
class JsWriter {
 public:
  explicit JsWriter(val& target) : target_(target) {}
  void number(const char* key, double v) { target_.set(key, v); }
  void count(const char* key, std::uint64_t v) { target_.set(key, double(v)); }  // exact ≤ 2^53
  void boolean(const char* key, bool v) { target_.set(key, v); }
  void text(const char* key, const char* v) { target_.set(key, std::string(v)); }
  void numbers(const char* key, const std::vector<double>& v);
  void numberPairs(const char* key, const std::vector<std::array<double, 2>>& v);
  template <class Each>
  void list(const char* key, std::size_t size, Each&& each) {
    val items = val::array();
    for (std::size_t i = 0; i < size; ++i) {
      val item = val::object();
      JsWriter w(item);
      each(i, w);
      items.set(i, item);
    }
    target_.set(key, items);
  }
  template <class Fill>
  void object(const char* key, Fill&& fill) {
    val item = val::object();
    JsWriter w(item);
    fill(w);
    target_.set(key, item);
  }

 private:
  val& target_;
};

// A JS object from one of the core's describe*() visitors.
template <class T, class Describe>
val describe(const T& value, Describe&& describeFn) {
  val out = val::object();
  JsWriter w(out);
  describeFn(value, w);
  return out;
}

}  // namespace dpmargin::wasm
