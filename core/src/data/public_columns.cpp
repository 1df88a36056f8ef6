// The columns a model may read, from a header alone (schema.hpp, publicColumns). The same public
// rules as resolveSchema's kind decision, in the same order (tests/cpp/names_test.cpp checks
// that they agree on resolved tables).
#include <algorithm>

#include "dpmargin/data/names.hpp"
#include "dpmargin/data/schema.hpp"

namespace dpmargin::data {

PublicColumns publicColumns(const std::vector<std::string>& header, const TableOptions& o) {
  PublicColumns out;
  if (o.label) {
    out.label = std::int64_t(requireColumn(header, *o.label, "label", "label column"));
  } else {
    out.label = proposeLabel(header);
  }
  const auto listed = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (std::int64_t(j) == out.label) continue;
    const std::string& name = header[j];
    const auto choice = std::find_if(o.columns.begin(), o.columns.end(),
                                     [&](const ColumnChoice& c) { return c.name == name; });
    bool feature;
    if (choice != o.columns.end() && choice->kind) {
      feature = *choice->kind != ColumnKind::kIgnore;  // declared
    } else if (listed(o.ignore, name)) {
      feature = false;
    } else if (o.features) {
      feature = listed(*o.features, name);
    } else {
      feature = !identifierName(name);
    }
    if (feature) out.features.push_back(j);
  }
  return out;
}

}  // namespace dpmargin::data
