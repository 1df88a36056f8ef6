#include "marshal.hpp"

#include <emscripten/bind.h>

#include <cmath>

#include "dpmargin/error.hpp"

namespace dpmargin::wasm {
namespace {

std::string typeOf(const val& v) { return v.typeOf().as<std::string>(); }
bool isArray(const val& v) { return val::global("Array").call<bool>("isArray", v); }

// How a value reads in an error message, without calling into user code (a toString could
// throw a JS exception past the guard).
std::string shown(const val& v) {
  const std::string t = typeOf(v);
  if (t == "number") return run::Value::ofNumber(v.as<double>()).shown;
  if (t == "string") return "\"" + v.as<std::string>() + "\"";
  if (t == "boolean") return v.as<bool>() ? "true" : "false";
  if (t == "undefined") return "undefined";
  if (v.isNull()) return "null";
  if (t == "object") return isArray(v) ? "an array" : "an object";
  return "a " + t;
}

[[noreturn]] void wrongType(const char* name, const char* expected, const val& v) {
  throw Error(ErrorCode::kBadParameter, name,
              std::string(name) + " must be " + expected + ", but is " + shown(v));
}

// An Array or a typed array — checked without instanceof, which fails for arrays from another
// realm (a worker's message, a Jest VM context, an iframe).
bool isNumberArray(const val& v) {
  if (typeOf(v) != "object" || v.isNull()) return false;
  if (isArray(v)) return true;
  return val::global("ArrayBuffer").call<bool>("isView", v) && !v.instanceof(val::global("DataView"));
}

}  // namespace

bool isUnset(const val& v) { return v.isUndefined() || v.isNull(); }

double toNumber(const val& v, const char* name) {
  if (typeOf(v) != "number") wrongType(name, "a number", v);
  return v.as<double>();
}

std::uint64_t toCount(const val& v, const char* name, double minimum) {
  return requireCount(name, toNumber(v, name), minimum);
}

bool toBoolean(const val& v, const char* name) {
  if (typeOf(v) != "boolean") wrongType(name, "a boolean", v);
  return v.as<bool>();
}

std::string toText(const val& v, const char* name) {
  if (typeOf(v) != "string") wrongType(name, "a string", v);
  return v.as<std::string>();
}

std::vector<double> toDoubles(const val& v, const char* name) {
  if (!isNumberArray(v)) wrongType(name, "an array of numbers", v);
  // Elements that are not numbers become NaN, which the core rejects by name.
  return emscripten::convertJSArrayToNumberVector<double>(v);
}

std::vector<float> toFloats(const val& v, const char* name) {
  if (!isNumberArray(v)) wrongType(name, "an array of numbers", v);
  return emscripten::convertJSArrayToNumberVector<float>(v);
}

std::vector<std::int8_t> toLabels(const val& v, const char* name) {
  const std::vector<double> d = toDoubles(v, name);
  std::vector<std::int8_t> out(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) out[i] = d[i] == 1.0 ? 1 : d[i] == -1.0 ? -1 : 0;
  return out;
}

val toObject(const val& v, const char* name, bool optional) {
  if (optional && v.isUndefined()) return val::object();
  if (typeOf(v) != "object" || v.isNull() || isArray(v)) wrongType(name, "an object", v);
  return v;
}

void addOptionsImpl(run::Options& options, const val& object, const char* name, bool tableObject, bool scoped);

namespace {
bool allStrings(const val& v) {
  const unsigned n = v["length"].as<unsigned>();
  for (unsigned j = 0; j < n; ++j) {
    if (typeOf(v[j]) != "string") return false;
  }
  return true;
}
}  // namespace

Node toNode(const val& v, const char* name) {
  struct Walk {
    const char* name;
    Node operator()(const val& x, int depth) const {
      if (depth > 64) throw Error(ErrorCode::kBadParameter, name, std::string(name) + " must be nested at most 64 deep");
      const std::string t = typeOf(x);
      if (t == "undefined" || x.isNull()) return Node::null();
      if (t == "boolean") return Node::ofBoolean(x.as<bool>());
      if (t == "number") return Node::ofNumber(x.as<double>());
      if (t == "string") return Node::ofText(x.as<std::string>());
      if (t == "object" && isArray(x)) {
        std::vector<Node> items;
        const unsigned n = x["length"].as<unsigned>();
        items.reserve(n);
        for (unsigned j = 0; j < n; ++j) items.push_back((*this)(x[j], depth + 1));
        return Node::ofList(std::move(items));
      }
      if (t == "object") {
        const val keys = val::global("Object").call<val>("keys", x);
        const unsigned n = keys["length"].as<unsigned>();
        std::vector<std::pair<std::string, Node>> fields;
        for (unsigned j = 0; j < n; ++j) {
          const std::string key = keys[j].as<std::string>();
          fields.emplace_back(key, (*this)(x[key], depth + 1));
        }
        return Node::ofObject(std::move(fields));
      }
      return Node::ofOther(shown(x));
    }
  };
  return Walk{name}(v, 0);
}

val fromNode(const Node& node) {
  switch (node.kind) {
    case Node::Kind::kNull:
      return val::null();
    case Node::Kind::kBoolean:
      return val(node.boolean);
    case Node::Kind::kNumber:
      return val(node.number);
    case Node::Kind::kText:
    case Node::Kind::kOther:
      return val(node.text);
    case Node::Kind::kList: {
      val items = val::array();
      for (std::size_t i = 0; i < node.list.size(); ++i) items.set(i, fromNode(node.list[i]));
      return items;
    }
    case Node::Kind::kObject: {
      val o = val::object();
      for (const auto& f : node.fields) o.set(f.first, fromNode(f.second));
      return o;
    }
  }
  return val::null();
}

std::optional<std::vector<std::uint64_t>> toRows(const val& v, const char* name) {
  if (isUnset(v)) return std::nullopt;
  const std::vector<double> raw = toDoubles(v, name);
  std::vector<std::uint64_t> rows;
  rows.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) rows.push_back(requireCount(name, raw[i], 0));
  return rows;
}

run::Options toOptions(const val& object) {
  run::Options options;
  toObject(object, "options");  // undefined is not options here
  addOptionsImpl(options, object, "options", false, false);
  return options;
}

void addOptions(run::Options& options, const val& object, const char* name, bool tableObject) {
  addOptionsImpl(options, object, name, tableObject, true);
}

void addOptionsImpl(run::Options& options, const val& object, const char* name, bool tableObject, bool scoped) {
  const val o = toObject(object, name, true);
  const val keys = val::global("Object").call<val>("keys", o);
  const unsigned count = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val v = o[key];
    if (isUnset(v)) continue;  // unset: the default
    const std::string t = typeOf(v);
    run::Value value;
    if (t == "number") {
      value = run::Value::ofNumber(v.as<double>());
    } else if (t == "boolean") {
      value = run::Value::ofBoolean(v.as<bool>());
    } else if (t == "string") {
      value = run::Value::ofText(v.as<std::string>());
    } else if (t == "object" && isArray(v) && v["length"].as<unsigned>() > 0 && allStrings(v)) {
      std::vector<std::string> texts;
      const unsigned n = v["length"].as<unsigned>();
      for (unsigned j = 0; j < n; ++j) texts.push_back(v[j].as<std::string>());
      value = run::Value::ofTexts(std::move(texts));
    } else if (t == "object" && isArray(v) && v["length"].as<unsigned>() == 0 &&
               run::findOption(key) && (run::findOption(key)->type == run::OptionType::kTexts)) {
      value = run::Value::ofTexts({});
    } else if (t == "object" && isArray(v)) {
      // [[lo, hi], …]: every element a pair of numbers, else the wrong type.
      std::vector<std::array<double, 2>> pairs;
      const unsigned n = v["length"].as<unsigned>();
      bool ok = true;
      for (unsigned j = 0; ok && j < n; ++j) {
        const val p = v[j];
        ok = typeOf(p) == "object" && !p.isNull() && isArray(p) && p["length"].as<unsigned>() == 2 &&
             typeOf(p[0]) == "number" && typeOf(p[1]) == "number";
        if (ok) pairs.push_back({p[0].as<double>(), p[1].as<double>()});
      }
      value = ok ? run::Value::ofPairs(std::move(pairs)) : run::Value::ofOther("an array");
    } else if (t == "object" && !isArray(v)) {
      value = run::Value::ofNode(toNode(v, key.c_str()));
    } else {
      value = run::Value::ofOther(shown(v));
    }
    if (scoped) {
      run::setOption(options, key, value, tableObject);
    } else {
      run::setOption(options, key, value);
    }
  }
}

val float64Array(const double* data, std::size_t size) {
  val copy = val::global("Float64Array").new_(size);
  copy.call<void>("set", val(emscripten::typed_memory_view(size, data)));
  return copy;
}

val float32Array(const float* data, std::size_t size) {
  val copy = val::global("Float32Array").new_(size);
  copy.call<void>("set", val(emscripten::typed_memory_view(size, data)));
  return copy;
}

val int8Array(const std::int8_t* data, std::size_t size) {
  val copy = val::global("Int8Array").new_(size);
  copy.call<void>("set", val(emscripten::typed_memory_view(size, data)));
  return copy;
}

val int32Array(const std::int32_t* data, std::size_t size) {
  val copy = val::global("Int32Array").new_(size);
  copy.call<void>("set", val(emscripten::typed_memory_view(size, data)));
  return copy;
}

val numberArray(const std::vector<double>& v) {
  val items = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) items.set(i, v[i]);
  return items;
}

void JsWriter::numbers(const char* key, const std::vector<double>& v) { target_.set(key, numberArray(v)); }

void JsWriter::numberPairs(const char* key, const std::vector<std::array<double, 2>>& v) {
  val items = val::array();
  for (std::size_t i = 0; i < v.size(); ++i) {
    val pair = val::array();
    pair.set(0, v[i][0]);
    pair.set(1, v[i][1]);
    items.set(i, pair);
  }
  target_.set(key, items);
}

}  // namespace dpmargin::wasm
