#include "dpmargin/node.hpp"

#include <cmath>

#include "dpmargin/error.hpp"

namespace dpmargin {

Node Node::ofBoolean(bool v) {
  Node n;
  n.kind = Kind::kBoolean;
  n.boolean = v;
  return n;
}
Node Node::ofNumber(double v) {
  Node n;
  n.kind = Kind::kNumber;
  n.number = v;
  return n;
}
Node Node::ofText(std::string v) {
  Node n;
  n.kind = Kind::kText;
  n.text = std::move(v);
  return n;
}
Node Node::ofList(std::vector<Node> v) {
  Node n;
  n.kind = Kind::kList;
  n.list = std::move(v);
  return n;
}
Node Node::ofObject(std::vector<std::pair<std::string, Node>> v) {
  Node n;
  n.kind = Kind::kObject;
  n.fields = std::move(v);
  return n;
}
Node Node::ofOther(std::string shown) {
  Node n;
  n.kind = Kind::kOther;
  n.text = std::move(shown);
  return n;
}
Node Node::ofTexts(const std::vector<std::string>& v) {
  std::vector<Node> list;
  list.reserve(v.size());
  for (const std::string& s : v) list.push_back(ofText(s));
  return ofList(std::move(list));
}

const Node* Node::field(std::string_view name) const noexcept {
  if (kind != Kind::kObject) return nullptr;
  for (const auto& f : fields) {
    if (f.first == name) return f.second.isNull() ? nullptr : &f.second;
  }
  return nullptr;
}

std::string Node::shown() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBoolean:
      return boolean ? "true" : "false";
    case Kind::kNumber:
      return formatValue(number);
    case Kind::kText: {
      // Cut at 40 code points (never inside a UTF-8 sequence).
      std::size_t end = 0, points = 0;
      while (end < text.size() && points < 40) {
        ++end;
        while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
        ++points;
      }
      return "\"" + text.substr(0, end) + (end < text.size() ? "…" : "") + "\"";
    }
    case Kind::kList:
      return "an array";
    case Kind::kObject:
      return "an object";
    case Kind::kOther:
      return text;
  }
  return "a value";
}

namespace {
[[noreturn]] void wrong(const std::string& name, const char* expected, const Node& node) {
  throw Error(ErrorCode::kBadParameter, name, name + " must be " + expected + ", but is " + node.shown());
}
}  // namespace

const std::string& nodeText(const Node& node, const std::string& name) {
  if (node.kind != Node::Kind::kText) wrong(name, "a string", node);
  return node.text;
}

double nodeNumber(const Node& node, const std::string& name) {
  if (node.kind != Node::Kind::kNumber || !std::isfinite(node.number)) wrong(name, "a finite number", node);
  return node.number;
}

bool nodeBoolean(const Node& node, const std::string& name) {
  if (node.kind != Node::Kind::kBoolean) wrong(name, "a boolean", node);
  return node.boolean;
}

const std::vector<Node>& nodeList(const Node& node, const std::string& name) {
  if (node.kind != Node::Kind::kList) wrong(name, "an array", node);
  return node.list;
}

std::vector<std::string> nodeTexts(const Node& node, const std::string& name) {
  if (node.kind != Node::Kind::kList) wrong(name, "an array of strings", node);
  std::vector<std::string> out;
  out.reserve(node.list.size());
  for (std::size_t i = 0; i < node.list.size(); ++i) {
    out.push_back(nodeText(node.list[i], name + "[" + std::to_string(i) + "]"));
  }
  return out;
}

const Node& nodeObject(const Node& node, const std::string& name,
                       std::initializer_list<std::string_view> known) {
  if (node.kind != Node::Kind::kObject) wrong(name, "an object", node);
  for (const auto& f : node.fields) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || f.first == k;
    if (!ok) {
      std::string list;
      for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      throw Error(ErrorCode::kBadParameter, name + "." + f.first,
                  name + "." + f.first + " must be a known field (" + list + "), but is set");
    }
  }
  return node;
}

}  // namespace dpmargin
