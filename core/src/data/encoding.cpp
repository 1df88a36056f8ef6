// Category discovery and the encoding of a schema into model columns (encoding.hpp).
#include "dpmargin/data/encoding.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>

#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "dpmargin/testing/faults.hpp"

namespace dpmargin::data {

std::vector<std::vector<std::string>> discoverLevels(
    const std::vector<DiscoveryCounts>& columns, const std::vector<std::size_t>& maxLevels,
    const accounting::DiscoveryCalibration& calibration, random::Generator& generator) {
  if (columns.size() != calibration.columns || maxLevels.size() != columns.size()) {
    throw Error(ErrorCode::kInternal, "",
                "discovery over " + std::to_string(columns.size()) + " columns with a calibration for " +
                    std::to_string(calibration.columns));
  }
  // σ and τ of the plan (DPMARGIN_FAULTS: constants 1 outside the audit build; testing/faults.hpp).
  const double sd = calibration.sigma * DPMARGIN_FAULTS.discoveryNoise;
  const double threshold = 1.0 + (calibration.threshold - 1.0) * DPMARGIN_FAULTS.discoveryThreshold;
  std::vector<std::vector<std::string>> out(columns.size());
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const DiscoveryCounts& c = columns[j];
    if (c.values.size() != c.counts.size()) throw Error(ErrorCode::kInternal, "", "discovery: counts and values differ in length");
    std::vector<std::pair<double, std::size_t>> kept;  // (noisy count, value index)
    for (std::size_t k = 0; k < c.values.size(); ++k) {
      if (c.counts[k] == 0) continue;  // not among the training rows: not a partition
      const double noisy = double(c.counts[k]) + (sd > 0 ? random::gaussian(generator, sd) : 0.0);
      if (noisy > threshold) kept.emplace_back(noisy, k);
    }
    if (kept.size() > maxLevels[j]) {
      std::partial_sort(kept.begin(), kept.begin() + std::ptrdiff_t(maxLevels[j]), kept.end(),
                        [](const auto& a, const auto& b) { return a.first > b.first; });
      kept.resize(maxLevels[j]);
    }
    for (const auto& k : kept) out[j].push_back(c.values[k.second]);
    std::sort(out[j].begin(), out[j].end());
  }
  return out;
}

std::uint64_t categoryBucket(const std::string& value, std::uint64_t buckets) noexcept {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a offset basis
  const auto mix = [&h](unsigned char c) {
    h ^= c;
    h *= 1099511628211ULL;
  };
  for (char c : std::string("dpmargin/category/v1")) mix(static_cast<unsigned char>(c));
  mix(0);
  for (char c : value) mix(static_cast<unsigned char>(c));
  return buckets == 0 ? 0 : h % buckets;
}

std::vector<std::string> Encoding::names() const {
  std::vector<std::string> out;
  out.reserve(width);
  for (const EncodedBlock& b : blocks) {
    if (b.kind == ColumnKind::kNumeric) {
      out.push_back(b.column);
      if (b.indicator) out.push_back(b.column + ": missing");
      continue;
    }
    if (b.categories == CategorySource::kHash) {
      for (std::uint64_t k = 0; k < b.buckets; ++k) out.push_back(b.column + ": #" + std::to_string(k));
    } else if (b.binary) {
      out.push_back(b.column + ": " + b.levels[1]);
    } else {
      for (const std::string& level : b.levels) out.push_back(b.column + ": " + level);
      out.push_back(b.column + ": other");
    }
    if (b.missingLevel) out.push_back(b.column + ": missing");
  }
  return out;
}

std::vector<bool> Encoding::publicUnitColumns() const {
  std::vector<bool> out(width, false);
  for (const EncodedBlock& b : blocks) {
    const std::size_t first = b.kind == ColumnKind::kNumeric ? b.offset + 1 : b.offset;
    for (std::size_t j = first; j < b.offset + b.width; ++j) out[j] = true;
  }
  return out;
}

Encoding makeEncoding(const Schema& schema) {
  Encoding e;
  for (std::size_t j : schema.featureOrder) {
    const ColumnSchema& c = schema.columns[j];
    EncodedBlock b;
    b.column = c.name;
    b.file = c.file;
    b.kind = c.kind;
    b.offset = e.width;
    b.missing = c.missing;
    b.nullable = c.nullable;
    if (c.kind == ColumnKind::kNumeric) {
      b.fill = c.fill;
      b.textAsMissing = c.textAsMissing;
      b.range = c.range;
      b.indicator = c.nullable && c.missing == MissingStrategy::kIndicator;
      b.width = 1 + (b.indicator ? 1 : 0);
    } else if (c.kind == ColumnKind::kCategorical) {
      if (c.categories == CategorySource::kAuto) {
        throw Error(ErrorCode::kInternal, "", "encoding: column " + c.name + " has categories \"auto\" unresolved");
      }
      b.categories = c.categories;
      b.missingLevel = c.nullable && c.missing == MissingStrategy::kLevel;
      if (c.categories == CategorySource::kHash) {
        b.buckets = c.buckets;
        b.width = std::size_t(c.buckets);
      } else {
        b.levels = c.levels;
        b.binary = b.levels.size() == 2;
        b.width = b.binary ? 1 : b.levels.size() + 1;  // one 0/1 column, or the levels + other
      }
      b.width += b.missingLevel ? 1 : 0;
    } else {
      continue;
    }
    e.width += b.width;
    e.blocks.push_back(std::move(b));
  }
  return e;
}

FillPlan encodingFillPlan(const Schema& schema, const Encoding& encoding,
                          const std::vector<std::string>& labelClasses, bool refuseOtherClasses) {
  FillPlan plan;
  plan.columns.resize(schema.columns.size());
  for (const EncodedBlock& b : encoding.blocks) {
    if (b.file >= plan.columns.size()) throw Error(ErrorCode::kInternal, "", "encoding: file column out of range");
    ColumnPlan& p = plan.columns[b.file];
    p.output = b.offset;
    if (b.kind == ColumnKind::kNumeric) {
      p.role = ColumnRole::kNumeric;
      p.textAsMissing = b.textAsMissing;
      switch (b.missing) {
        case MissingStrategy::kError:
          p.missing = MissingPolicy::kError;
          break;
        case MissingStrategy::kIndicator:
          p.missing = b.indicator ? MissingPolicy::kMark : MissingPolicy::kConstant;
          p.fill = static_cast<float>(b.fill);
          break;
        default:  // kConstant
          p.missing = MissingPolicy::kConstant;
          p.fill = static_cast<float>(b.fill);
      }
    } else {
      p.role = ColumnRole::kCategorical;
      p.missing = b.missing == MissingStrategy::kError ? MissingPolicy::kError : MissingPolicy::kMark;
      if (b.categories != CategorySource::kHash) {
        p.categories = b.levels;
        p.closed = true;
      }
    }
  }
  if (!labelClasses.empty()) {
    const ColumnSchema* label = schema.labelColumn();
    if (label == nullptr) throw Error(ErrorCode::kInternal, "", "encoding: classes without a label column");
    ColumnPlan& p = plan.columns[label->file];
    p.role = ColumnRole::kLabel;
    p.missing = MissingPolicy::kError;
    p.categories = labelClasses;
    p.closed = true;
    p.refuseOther = refuseOtherClasses;
  }
  return plan;
}

void encodeRows(const Encoding& encoding, float* table, std::size_t rows, std::size_t stride,
                const std::vector<CategoryDictionary>& dictionaries) {
  // Hashed columns: the bucket of every dictionary code, once.
  std::vector<std::vector<std::uint32_t>> buckets(encoding.blocks.size());
  for (std::size_t k = 0; k < encoding.blocks.size(); ++k) {
    const EncodedBlock& b = encoding.blocks[k];
    if (b.kind != ColumnKind::kCategorical || b.categories != CategorySource::kHash) continue;
    const CategoryDictionary* dictionary = nullptr;
    for (const CategoryDictionary& d : dictionaries) {
      if (d.column == b.file) dictionary = &d;
    }
    if (dictionary == nullptr) throw Error(ErrorCode::kInternal, "", "encoding: no dictionary for hashed column " + b.column);
    buckets[k].reserve(dictionary->values.size());
    for (const std::string& v : dictionary->values) {
      buckets[k].push_back(static_cast<std::uint32_t>(categoryBucket(v, b.buckets)));
    }
  }
  // Only the blocks with something to do: a plain numeric column (no indicator) is already
  // final, and an all-numeric table then needs no pass over its rows at all.
  std::vector<std::size_t> active;
  for (std::size_t k = 0; k < encoding.blocks.size(); ++k) {
    const EncodedBlock& b = encoding.blocks[k];
    if (b.kind != ColumnKind::kNumeric || b.indicator) active.push_back(k);
  }
  if (active.empty()) return;
  for (std::size_t i = 0; i < rows; ++i) {
    float* row = table + i * stride;
    for (const std::size_t k : active) {
      const EncodedBlock& b = encoding.blocks[k];
      float* x = row + b.offset;
      if (b.kind == ColumnKind::kNumeric) {
        if (!b.indicator) continue;
        const bool missing = std::isnan(x[0]);
        if (missing) x[0] = static_cast<float>(b.fill);
        x[1] = missing ? 1.0f : 0.0f;
        continue;
      }
      const std::int32_t code = static_cast<std::int32_t>(x[0]);
      std::fill(x, x + b.width, 0.0f);
      if (b.binary) {  // 1 for the second level; the first, other values and missing cells 0
        if (code == 1) x[0] = 1.0f;
        if (code == kMissingCode && b.missingLevel) x[b.width - 1] = 1.0f;
        continue;
      }
      if (code == kMissingCode) {
        // A missing cell: its own level when the column has one, else "other" (a hashed column
        // without a missing level leaves the row's block at 0).
        if (b.missingLevel) {
          x[b.width - 1] = 1.0f;
        } else if (b.categories != CategorySource::kHash) {
          x[b.levels.size()] = 1.0f;
        }
      } else if (b.categories == CategorySource::kHash) {
        x[buckets[k].at(static_cast<std::size_t>(code))] = 1.0f;
      } else if (code == kOtherCode || code < 0 || std::size_t(code) >= b.levels.size()) {
        x[b.levels.size()] = 1.0f;
      } else {
        x[code] = 1.0f;
      }
    }
  }
}

namespace {

[[noreturn]] void badModel(const std::string& field, const std::string& message) {
  throw Error(ErrorCode::kBadModel, field, "invalid model file: " + field + " " + message);
}

// Model-file errors are BAD_MODEL, whatever the Node readers call them.
template <class F>
auto modelField(F&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::kBadParameter) throw;
    throw Error(ErrorCode::kBadModel, e.parameter(), std::string("invalid model file: ") + e.what());
  }
}

}  // namespace

Node describeEncoding(const Encoding& e) {
  std::vector<Node> blocks;
  for (const EncodedBlock& b : e.blocks) {
    std::vector<std::pair<std::string, Node>> f;
    f.emplace_back("column", Node::ofText(b.column));
    f.emplace_back("kind", Node::ofText(toString(b.kind)));
    f.emplace_back("missing", Node::ofText(toString(b.missing)));
    f.emplace_back("nullable", Node::ofBoolean(b.nullable));
    if (b.kind == ColumnKind::kNumeric) {
      f.emplace_back("fill", Node::ofNumber(b.fill));
      f.emplace_back("indicator", Node::ofBoolean(b.indicator));
      f.emplace_back("textAsMissing", Node::ofBoolean(b.textAsMissing));
    } else {
      f.emplace_back("categories", Node::ofText(toString(b.categories)));
      if (b.categories == CategorySource::kHash) {
        f.emplace_back("buckets", Node::ofNumber(double(b.buckets)));
      } else {
        f.emplace_back("levels", Node::ofTexts(b.levels));
        if (b.binary) f.emplace_back("binary", Node::ofBoolean(true));
      }
      f.emplace_back("missingLevel", Node::ofBoolean(b.missingLevel));
    }
    blocks.push_back(Node::ofObject(std::move(f)));
  }
  return Node::ofObject({{"blocks", Node::ofList(std::move(blocks))}, {"width", Node::ofNumber(double(e.width))}});
}

Encoding parseEncoding(const Node& node, const std::string& name) {
  return modelField([&]() {
    nodeObject(node, name, {"blocks", "width"});
    Encoding e;
    const Node* blocks = node.field("blocks");
    if (!blocks) badModel(name + ".blocks", "is missing");
    const std::vector<Node>& list = nodeList(*blocks, name + ".blocks");
    std::unordered_set<std::string> columns;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string p = name + ".blocks[" + std::to_string(i) + "]";
      const Node& n = nodeObject(list[i], p, {"column", "kind", "missing", "nullable", "fill", "indicator",
                                              "textAsMissing", "categories", "buckets", "levels", "binary",
                                              "missingLevel"});
      const auto required = [&](const char* key) -> const Node& {
        const Node* v = n.field(key);
        if (!v) badModel(p + "." + key, "is missing");
        return *v;
      };
      EncodedBlock b;
      b.column = nodeText(required("column"), p + ".column");
      if (!columns.insert(b.column).second) badModel(p + ".column", "repeats " + Node::ofText(b.column).shown());
      b.kind = parseColumnKind(nodeText(required("kind"), p + ".kind"), p + ".kind");
      b.missing = parseMissingStrategy(nodeText(required("missing"), p + ".missing"), p + ".missing");
      b.nullable = nodeBoolean(required("nullable"), p + ".nullable");
      b.offset = e.width;
      if (b.kind == ColumnKind::kNumeric) {
        if (b.missing == MissingStrategy::kLevel) badModel(p + ".missing", "must not be \"level\" for a numeric column");
        b.fill = nodeNumber(required("fill"), p + ".fill");
        b.indicator = nodeBoolean(required("indicator"), p + ".indicator");
        if (const Node* t = n.field("textAsMissing")) b.textAsMissing = nodeBoolean(*t, p + ".textAsMissing");
        b.width = b.indicator ? 2 : 1;
      } else if (b.kind == ColumnKind::kCategorical) {
        if (b.missing != MissingStrategy::kLevel && b.missing != MissingStrategy::kError) {
          badModel(p + ".missing", "must be \"level\" or \"error\" for a categorical column");
        }
        b.categories = parseCategorySource(nodeText(required("categories"), p + ".categories"), p + ".categories");
        b.missingLevel = nodeBoolean(required("missingLevel"), p + ".missingLevel");
        if (b.categories == CategorySource::kHash) {
          const double k = nodeNumber(required("buckets"), p + ".buckets");
          if (!(k >= 2 && k <= double(kMaxHashBuckets) && k == std::floor(k))) {
            badModel(p + ".buckets", "must be an integer from 2 to " + std::to_string(kMaxHashBuckets));
          }
          b.buckets = std::uint64_t(k);
          b.width = std::size_t(b.buckets);
        } else if (b.categories == CategorySource::kAuto) {
          badModel(p + ".categories", "must be \"declared\", \"discover\" or \"hash\"");
        } else {
          b.levels = nodeTexts(required("levels"), p + ".levels");
          std::unordered_set<std::string> seen;
          for (const std::string& v : b.levels) {
            if (!seen.insert(v).second) badModel(p + ".levels", "repeats " + Node::ofText(v).shown());
          }
          if (b.levels.size() > kMaxDeclaredCategories) badModel(p + ".levels", "has too many levels");
          // "binary" (version 3): two levels in one 0/1 column; older files one per level + other.
          if (const Node* v = n.field("binary")) b.binary = nodeBoolean(*v, p + ".binary");
          if (b.binary && b.levels.size() != 2) badModel(p + ".binary", "is true for a column of " + std::to_string(b.levels.size()) + " levels");
          b.width = b.binary ? 1 : b.levels.size() + 1;
        }
        b.width += b.missingLevel ? 1 : 0;
      } else {
        badModel(p + ".kind", "must be \"numeric\" or \"categorical\"");
      }
      e.width += b.width;
      e.blocks.push_back(std::move(b));
    }
    if (const Node* w = node.field("width")) {
      if (nodeNumber(*w, name + ".width") != double(e.width)) {
        badModel(name + ".width", "must be " + std::to_string(e.width) + " (the blocks' columns)");
      }
    }
    return e;
  });
}

}  // namespace dpmargin::data
