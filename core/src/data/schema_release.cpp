// The private schema release (schema.hpp): noisy cell counts for the decisions a run reads off
// the cells. The proof is in docs/reference/PRIVACY_SCHEMA.md ("The schema"); the audit's (k) checks it on the
// production path (docs/reference/AUDIT.md).
#include <cmath>
#include <limits>

#include "dpmargin/data/schema.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/random/samplers.hpp"
#include "dpmargin/testing/faults.hpp"

namespace dpmargin::data {

SchemaEvidence releaseEvidence(const SchemaEvidence& exact, const SchemaQuestions& q,
                               double sigma, random::Generator& generator) {
  if (q.kind.size() != exact.columns.size() || q.nullable.size() != exact.columns.size() ||
      !(sigma > 0) || !std::isfinite(sigma)) {
    throw Error(ErrorCode::kInternal, "", "releaseEvidence: questions, evidence or sigma do not fit");
  }
  // The plan's σ (DPMARGIN_FAULTS: 1 outside the audit build; testing/faults.hpp). A factor of
  // 0 is the old behaviour: decisions on the exact counts.
  const double sd = sigma * DPMARGIN_FAULTS.schemaNoise;
  const double none = std::numeric_limits<double>::quiet_NaN();
  const auto noisy = [&](double count) { return sd > 0 ? count + random::gaussian(generator, sd) : count; };
  SchemaEvidence out;
  out.exact = false;
  out.sigma = sd;  // 0 only in the audit's broken variant: the old decisions on exact counts
  out.rows = exact.rows;
  out.columns.assign(exact.columns.size(), CellEvidence{none, none, none});
  for (std::size_t j = 0; j < exact.columns.size(); ++j) {
    if (q.kind[j] || q.nullable[j]) {
      out.columns[j].text = noisy(exact.columns[j].text);
      out.columns[j].missing = noisy(exact.columns[j].missing);
    }
  }
  if (q.labelClasses) {
    const std::size_t label = static_cast<std::size_t>(q.label);
    out.columns.at(label).notBinary = noisy(exact.columns.at(label).notBinary);
  }
  return out;
}

}  // namespace dpmargin::data
