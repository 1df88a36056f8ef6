// The budget and the plan of a CSV run (csv_plan.hpp): one implementation for the run and its
// preview.
#include "run/csv_plan.hpp"

#include <algorithm>

#include "dpmargin/error.hpp"
#include "run/rules.hpp"

namespace dpmargin::run::detail {
namespace {

// Whether a run may discover categories or classes, from the questions and the declared
// choices alone (never from the cells): then μ is planned with discovery's δ reserved.
bool mayDiscover(const data::SchemaQuestions& q, const data::TableOptions& o, plan::Selector selector) {
  if (selector == plan::Selector::kPrivTune) return false;  // its categories are hashed or declared
  if (q.labelClasses || o.discoverClasses == true) return true;
  const bool hashAll = o.categories == data::CategorySource::kHash;
  for (std::size_t j = 0; j < q.kind.size(); ++j) {
    if (q.kind[j] && !hashAll) return true;
  }
  for (const data::ColumnChoice& c : o.columns) {
    const data::CategorySource s = c.categories.value_or(o.categories.value_or(data::CategorySource::kAuto));
    if (c.kind == data::ColumnKind::kCategorical && !c.levels && s != data::CategorySource::kHash) return true;
  }
  return false;
}

// The discovery and schema fields of a request (the budget's and the trained plan's alike).
// Nothing discovered (yet): only a share the user gave, so that it is checked before anything
// is drawn; the default is 0 until something is discovered.
void setCsvFields(plan::PlanRequest& r, const Options& o, const CsvBudget& b, std::uint64_t m, bool label) {
  r.discoveryColumns = m;
  r.discoveryLabel = m > 0 && label;
  r.discoveryShare = m > 0 ? o.discoveryShare.value_or(r.discoveryLabel ? kClassDiscoveryShare : kDiscoveryShare)
                     : b.discoveryPossible ? o.discoveryShare.value_or(0.0)
                                           : 0.0;
  r.discoveryPossible = b.discoveryPossible;
  r.schemaCoordinates = b.schemaCoordinates;
  r.schemaShare = b.schemaShare;
}

}  // namespace

Options withSelectorRules(Options o) {
  if (o.selector == plan::Selector::kPrivTune && !o.table.classes && !o.table.positive && !o.table.discoverClasses) {
    o.table.discoverClasses = false;
  }
  return o;
}

void requireTrainingRows(std::uint64_t n) {
  if (n < 2) throwBadParameter("rows", "at least 2 data rows for training", double(n));
}

plan::PlanRequest csvBudgetRequest(const Options& o, const CsvBudget& b, std::uint64_t m, bool discoveryLabel) {
  // The budget does not depend on the table's width: d = 1 stands in until it is known.
  plan::PlanRequest r = resolveCommon(o, b.n, 1, false);
  setCsvFields(r, o, b, m, discoveryLabel);
  return r;
}

CsvBudget csvBudget(const Options& o, const data::SchemaQuestions& questions, std::uint64_t n) {
  CsvBudget b;
  b.n = n;
  b.discoveryPossible = mayDiscover(questions, o.table, csvBudgetRequest(o, b, 0, false).selector);
  b.schemaCoordinates = questions.coordinates();
  if (b.schemaCoordinates > 0) {
    b.schemaShare = o.schemaShare.value_or(plan::defaultSchemaShare(csvBudgetRequest(o, b, 0, false)));
  } else if (o.schemaShare) {
    throwBadParameter("schemaShare", "unset when the schema reads nothing off the cells (every kind, nullable and the classes declared)",
                      *o.schemaShare);
  }
  return b;
}

std::vector<std::size_t> discoverOrHash(data::Schema& schema, const Options& o, const CsvBudget& b) {
  std::vector<std::size_t> discover, automatic;
  for (std::size_t j : schema.featureOrder) {
    const data::ColumnSchema& c = schema.columns[j];
    if (c.kind != data::ColumnKind::kCategorical) continue;
    if (c.categories == data::CategorySource::kDiscover) discover.push_back(j);
    if (c.categories == data::CategorySource::kAuto) automatic.push_back(j);
  }
  if (!automatic.empty()) {
    const bool label = schema.discoversClasses();
    // PrivTune discovers nothing (its accounting is not GDP): its "auto" categories are hashed,
    // without a discovery budget (which it would refuse).
    bool found = false;
    if (csvBudgetRequest(o, b, 0, label).selector != plan::Selector::kPrivTune) {
      const plan::Plan budget =
          plan::makeBudget(csvBudgetRequest(o, b, discover.size() + automatic.size() + (label ? 1 : 0), label));
      found = budget.discovery.threshold <= kAutoDiscoverRowShare * double(b.n);
    }
    for (std::size_t j : automatic) {
      schema.columns[j].categories = found ? data::CategorySource::kDiscover : data::CategorySource::kHash;
      if (found) discover.push_back(j);
    }
    std::sort(discover.begin(), discover.end());
  }
  return discover;
}

learn::TrainSettings csvSettings(const Options& o, const CsvBudget& b, std::uint64_t m, bool discoveryLabel,
                                 const data::Encoding& encoding, std::size_t classes) {
  learn::TrainSettings s = resolve(o, b.n, encoding.width, classes);
  setCsvFields(s.plan, o, b, m, discoveryLabel);
  if (s.plan.rangeShare > 0) {
    // Encoded 0/1 columns and declared ranges are public: only the others are estimated.
    const std::vector<bool> unit = encoding.publicUnitColumns();
    s.knownRanges.assign(encoding.width, std::nullopt);
    bool estimate = false;
    for (const data::EncodedBlock& block : encoding.blocks) {
      if (block.kind == data::ColumnKind::kNumeric) {
        if (block.range) s.knownRanges[block.offset] = learn::ColumnRange{(*block.range)[0], (*block.range)[1]};
        else estimate = true;
      }
    }
    for (std::size_t j = 0; j < unit.size(); ++j) {
      if (unit[j]) s.knownRanges[j] = learn::ColumnRange{0.0, 1.0};
    }
    if (!estimate) {
      // Every range is public: no budget for private ones.
      s.preprocessing.ranges.clear();
      for (const auto& r : s.knownRanges) s.preprocessing.ranges.push_back(*r);
      s.knownRanges.clear();
      if (o.rangeShare && *o.rangeShare > 0) {
        throwBadParameter("rangeShare", "0 when every column's range is public", *o.rangeShare);
      }
      s.plan.rangeShare = 0.0;
    }
  }
  plan::validateRequest(s.plan);
  return s;
}

}  // namespace dpmargin::run::detail
