// A JSON-like value as it crosses into the core from JavaScript, a schema file or a model file.
// The bindings convert any JavaScript value into a Node without knowing what it means; the core
// parses it (names, types, ranges) and names the offending field in a BAD_PARAMETER error, so
// the rules for every object live in one place (docs/ARCHITECTURE.md).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dpmargin {

struct Node {
  enum class Kind { kNull, kBoolean, kNumber, kText, kList, kObject, kOther };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;  // kText; kOther: how the value reads ("a function", …)
  std::vector<Node> list;
  std::vector<std::pair<std::string, Node>> fields;  // kObject, in their order

  static Node null() { return {}; }
  static Node ofBoolean(bool v);
  static Node ofNumber(double v);
  static Node ofText(std::string v);
  static Node ofList(std::vector<Node> v);
  static Node ofObject(std::vector<std::pair<std::string, Node>> v);
  static Node ofOther(std::string shown);
  static Node ofTexts(const std::vector<std::string>& v);

  bool isNull() const noexcept { return kind == Kind::kNull; }
  // The field `name` of an object, or nullptr (also for a field whose value is null).
  const Node* field(std::string_view name) const noexcept;
  // How the value reads in an error message: numbers as formatValue, texts quoted and cut to
  // 40 characters, "an array", "an object", "null".
  std::string shown() const;
};

// Checked readers: each throws BAD_PARAMETER naming `name` ("schema.columns[2].kind") with what
// was expected and what was found.
const std::string& nodeText(const Node& node, const std::string& name);
double nodeNumber(const Node& node, const std::string& name);  // finite
bool nodeBoolean(const Node& node, const std::string& name);
std::vector<std::string> nodeTexts(const Node& node, const std::string& name);
const std::vector<Node>& nodeList(const Node& node, const std::string& name);
// An object whose fields are all in `known` (a BAD_PARAMETER names the first unknown one).
const Node& nodeObject(const Node& node, const std::string& name,
                       std::initializer_list<std::string_view> known);

}  // namespace dpmargin
