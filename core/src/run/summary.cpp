// What a preview shows before training (run.hpp): the scan's columns, local and never
// released, and the schema training would resolve.
#include <algorithm>

#include "dpmargin/error.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::run {

// ---- summary ----

Node summarizeColumn(const data::CsvScan& scan, std::size_t column, std::size_t maxValues) {
  if (column >= scan.columns.size()) {
    throw Error(ErrorCode::kInternal, "", "summarizeColumn: no column " + std::to_string(column));
  }
  const data::ColumnSummary& c = scan.columns[column];
  std::vector<std::pair<std::string, Node>> f;
  f.emplace_back("name", Node::ofText(c.name));
  f.emplace_back("numbers", Node::ofNumber(double(c.numbers)));
  f.emplace_back("missing", Node::ofNumber(double(c.missing)));
  f.emplace_back("nonFinite", Node::ofNumber(double(c.nonFinite)));
  f.emplace_back("text", Node::ofNumber(double(c.text)));
  f.emplace_back("distinct", Node::ofNumber(double(c.distinct.size())));
  f.emplace_back("distinctCapped", Node::ofBoolean(c.distinctCapped));
  // Most frequent first (ties in order of appearance), at most maxValues.
  std::vector<const data::DistinctValue*> order;
  for (const auto& v : c.distinct) order.push_back(&v);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->count > b->count; });
  std::vector<Node> values;
  for (std::size_t k = 0; k < order.size() && k < maxValues; ++k) {
    values.push_back(Node::ofObject({{"value", Node::ofText(order[k]->value)},
                                     {"count", Node::ofNumber(double(order[k]->count))}}));
  }
  f.emplace_back("values", Node::ofList(std::move(values)));
  const auto cell = [](const data::CellSample& s) {
    return s.line < 0 ? Node::null()
                      : Node::ofObject({{"value", Node::ofText(s.value)}, {"line", Node::ofNumber(double(s.line))}});
  };
  f.emplace_back("firstText", cell(c.firstText));
  f.emplace_back("firstMissing", cell(c.firstMissing));
  f.emplace_back("firstNonFinite", cell(c.firstNonFinite));
  return Node::ofObject(std::move(f));
}

Node summarizeScan(const data::CsvScan& scan, const Options& options, std::size_t maxValues) {
  std::vector<Node> columns;
  for (std::size_t j = 0; j < scan.columns.size(); ++j) columns.push_back(summarizeColumn(scan, j, maxValues));
  std::vector<std::pair<std::string, Node>> top;
  top.emplace_back("rows", Node::ofNumber(double(scan.rows)));
  top.emplace_back("bytes", Node::ofNumber(double(scan.bytes)));
  top.emplace_back("headerLine", Node::ofNumber(double(scan.headerLine)));
  top.emplace_back("delimiter", Node::ofText(std::string(1, scan.dialect.delimiter)));
  top.emplace_back("decimal", Node::ofText(scan.dialect.decimal == data::kEitherDecimal ? "either"
                                                                                     : std::string(1, scan.dialect.decimal)));
  top.emplace_back("encoding", Node::ofText(scan.dialect.encoding == data::CsvEncoding::kUtf8 ? "utf-8" : "latin1"));
  top.emplace_back("newline", Node::ofText(scan.dialect.newline == data::CsvNewline::kLf ? "\n"
                                           : scan.dialect.newline == data::CsvNewline::kCrLf ? "\r\n" : "\r"));
  top.emplace_back("columns", Node::ofList(std::move(columns)));
  std::vector<Node> preview;
  for (const auto& row : scan.preview) preview.push_back(Node::ofTexts(row));
  top.emplace_back("preview", Node::ofList(std::move(preview)));
  std::vector<Node> lines;
  for (std::int64_t line : scan.previewLines) lines.push_back(Node::ofNumber(double(line)));
  top.emplace_back("previewLines", Node::ofList(std::move(lines)));
  // The schema training would use; a choice that does not fit the table is reported, not thrown.
  try {
    top.emplace_back("schema", data::describeSchema(data::resolveSchema(scan, options.table, data::SchemaPurpose::kSummary)));
    top.emplace_back("schemaError", Node::null());
  } catch (const Error& e) {
    top.emplace_back("schema", Node::null());
    top.emplace_back("schemaError", Node::ofObject({{"code", Node::ofText(errorCodeName(e.code()))},
                                                    {"parameter", Node::ofText(e.parameter())},
                                                    {"message", Node::ofText(e.what())}}));
  }
  return Node::ofObject(std::move(top));
}

}  // namespace dpmargin::run
