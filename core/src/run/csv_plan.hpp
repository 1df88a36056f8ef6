// What a CSV run decides about its budget and its plan between the passes, shared by the run
// (csv_run.cpp) and its preview (preview.cpp), so that the preview is the run's own resolution
// and not a copy of it (docs/reference/PRIVACY_SCHEMA.md "The schema", docs/ARCHITECTURE.md). Internal.
#pragma once

#include <cstdint>
#include <vector>

#include "dpmargin/data/encoding.hpp"
#include "dpmargin/data/schema.hpp"
#include "dpmargin/learn/trainer.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"

namespace dpmargin::run::detail {

// detail::CsvBudget (run.hpp): the budget fixed after the scan.

// BAD_PARAMETER naming "rows" below 2 training rows.
void requireTrainingRows(std::uint64_t n);

// The options with the rules a selector imposes on the table: PrivTune discovers nothing (its
// accounting is not GDP), so a label whose classes are not declared is binary-coded by the
// public rule (discoverClasses = false) instead of asking the schema release whether to
// discover them — a noisy answer "discover" would refuse the run.
Options withSelectorRules(Options options);

// The budget of a private run for these questions (SchemaQuestions: what is read off the cells):
// the schema share from the option or plan::defaultSchemaShare; BAD_PARAMETER naming
// "schemaShare" when it is set but nothing is read off the cells, and the budget options' own.
CsvBudget csvBudget(const Options& options, const data::SchemaQuestions& questions, std::uint64_t n);

// The budget's request before the table's width is known (d = 1 stands in: the budget does not
// depend on it), with `m` columns discovered — the label's classes the last of them when
// `discoveryLabel`.
plan::PlanRequest csvBudgetRequest(const Options& options, const CsvBudget& budget, std::uint64_t m,
                                   bool discoveryLabel);

// The "auto" categorical features of `schema`: discovered when the budget's threshold finds
// levels held by a tenth of the rows (run::kAutoDiscoverRowShare), else hashed — decided from
// (ε, δ, n, the shares, m) only, never from a count. Sets their source; returns the file columns
// whose levels are discovered (the declared "discover" ones in model order; with auto ones among
// them, all in file order — the count pass's order, which the noise is drawn in); the label is
// not among them.
std::vector<std::size_t> discoverOrHash(data::Schema& schema, const Options& options, const CsvBudget& budget);

// The resolved run of a CSV once its encoding and its number of classes are known: resolve()
// with the budget's fields (discovery, schema) and the public ranges of the encoded 0/1 columns
// and of declared ranges (no private range budget when every range is public).
learn::TrainSettings csvSettings(const Options& options, const CsvBudget& budget, std::uint64_t m,
                                 bool discoveryLabel, const data::Encoding& encoding, std::size_t classes);

}  // namespace dpmargin::run::detail
