// The field writer of the core's describe*() visitors (plan::describePlan, …) that builds a
// Node: so a core result that holds a plan (run::previewCsv) writes it under the same names the
// bindings' JsWriter gives JavaScript.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dpmargin/node.hpp"

namespace dpmargin {

class NodeWriter {
 public:
  void number(const char* key, double v) { fields_.emplace_back(key, Node::ofNumber(v)); }
  void count(const char* key, std::uint64_t v) { fields_.emplace_back(key, Node::ofNumber(double(v))); }
  void boolean(const char* key, bool v) { fields_.emplace_back(key, Node::ofBoolean(v)); }
  void text(const char* key, const char* v) { fields_.emplace_back(key, Node::ofText(v)); }
  void text(const char* key, const std::string& v) { fields_.emplace_back(key, Node::ofText(v)); }
  void numbers(const char* key, const std::vector<double>& v) {
    std::vector<Node> items;
    for (double x : v) items.push_back(Node::ofNumber(x));
    fields_.emplace_back(key, Node::ofList(std::move(items)));
  }
  void numberPairs(const char* key, const std::vector<std::array<double, 2>>& v) {
    std::vector<Node> items;
    for (const auto& p : v) items.push_back(Node::ofList({Node::ofNumber(p[0]), Node::ofNumber(p[1])}));
    fields_.emplace_back(key, Node::ofList(std::move(items)));
  }
  template <class Each>
  void list(const char* key, std::size_t size, Each&& each) {
    std::vector<Node> items;
    for (std::size_t i = 0; i < size; ++i) {
      NodeWriter w;
      each(i, w);
      items.push_back(w.take());
    }
    fields_.emplace_back(key, Node::ofList(std::move(items)));
  }
  template <class Fill>
  void object(const char* key, Fill&& fill) {
    NodeWriter w;
    fill(w);
    fields_.emplace_back(key, w.take());
  }
  Node take() { return Node::ofObject(std::move(fields_)); }

 private:
  std::vector<std::pair<std::string, Node>> fields_;
};

// A describe*() visitor's fields as a Node: describe(value, plan::describePlan<NodeWriter>).
template <class T, class Describe>
Node describeToNode(const T& value, Describe&& describe) {
  NodeWriter w;
  describe(value, w);
  return w.take();
}

}  // namespace dpmargin
