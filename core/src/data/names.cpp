#include "dpmargin/data/names.hpp"

#include <algorithm>
#include <cctype>
#include <tuple>

#include "dpmargin/error.hpp"

namespace dpmargin::data {

namespace {
// Whole, so that a suggested name can be copied (Node::shown cuts long texts).
std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// Optimal string alignment distance (Levenshtein plus adjacent transpositions: "lable" is one
// edit from "label").
std::size_t editDistance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}
}  // namespace

std::string foldName(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '_' || c == '-' || c == '.') continue;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::vector<std::string> similarNames(const std::string& name, const std::vector<std::string>& header,
                                      std::size_t limit) {
  const std::string f = foldName(name);
  // (rank, distance, position): rank 0 the same folded, 1 a few edits away, 2 containment.
  std::vector<std::tuple<int, std::size_t, std::size_t>> found;
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (header[j] == name) continue;
    const std::string g = foldName(header[j]);
    if (g == f) {
      found.emplace_back(0, 0, j);
      continue;
    }
    if (f.size() < 3 || g.size() < 3) continue;  // "x1" is one edit from "x2": no hint
    const std::size_t distance = editDistance(f, g);
    if (distance <= std::max<std::size_t>(1, std::min(f.size(), g.size()) / 3)) {
      found.emplace_back(1, distance, j);
    } else if (std::min(f.size(), g.size()) >= 3 &&
               (g.find(f) != std::string::npos || f.find(g) != std::string::npos)) {
      found.emplace_back(2, distance, j);
    }
  }
  std::sort(found.begin(), found.end());
  // The same name but for case and separators: that one (or those) alone.
  if (!found.empty() && std::get<0>(found.front()) == 0) {
    found.erase(std::find_if(found.begin(), found.end(), [](const auto& t) { return std::get<0>(t) != 0; }), found.end());
  }
  std::vector<std::string> out;
  for (std::size_t k = 0; k < found.size() && k < limit; ++k) out.push_back(header[std::get<2>(found[k])]);
  return out;
}

std::string didYouMean(const std::string& name, const std::vector<std::string>& header) {
  const std::vector<std::string> similar = similarNames(name, header);
  if (similar.empty()) return "";
  std::string out = "; did you mean ";
  for (std::size_t k = 0; k < similar.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == similar.size() ? " or " : ", ") + quoted(similar[k]);
  }
  return out + "?";
}

std::string listColumns(const std::vector<std::string>& header) {
  constexpr std::size_t kAll = 60, kHead = 40, kTail = 10;
  std::string out;
  const bool shorten = header.size() > kAll;
  for (std::size_t j = 0; j < header.size(); ++j) {
    if (shorten && j == kHead) {
      out += ", …, " + std::to_string(header.size() - kHead - kTail) + " more, …";
      j = header.size() - kTail - 1;
      continue;
    }
    out += (j ? ", " : "") + quoted(header[j]);
  }
  if (shorten) out += " (" + std::to_string(header.size()) + " columns)";
  return out;
}

std::size_t requireColumn(const std::vector<std::string>& header, const std::string& name,
                          const std::string& parameter, const std::string& what) {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it != header.end()) return std::size_t(it - header.begin());
  throw Error(parameter == "label" ? ErrorCode::kLabelNotFound : ErrorCode::kBadParameter, parameter,
              what + " " + quoted(name) + " is not in the header (" + listColumns(header) + ")" + didYouMean(name, header));
}

}  // namespace dpmargin::data
