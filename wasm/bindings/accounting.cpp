// Registrations: the accountant's pure functions, the option table and data-free plans.
#include <emscripten/bind.h>

#include <string>
#include <vector>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/ledger.hpp"
#include "dpmargin/error.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/plan/plan.hpp"
#include "dpmargin/run/run.hpp"
#include "guard.hpp"
#include "marshal.hpp"

namespace dpmargin::wasm {
namespace {

namespace acc = dpmargin::accounting;

val optionTable() {
  val rows = val::array();
  const auto& specs = run::optionSpecs();
  const auto toJs = [](const run::Value& v) -> val {
    switch (v.kind) {
      case run::Value::Kind::kNumber: return val(v.number);
      case run::Value::Kind::kBoolean: return val(v.boolean);
      case run::Value::Kind::kText: return val(v.text);
      default: return val::null();
    }
  };
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const run::OptionSpec& s = specs[i];
    val row = val::object();
    row.set("name", std::string(s.name));
    row.set("type", std::string(run::toString(s.type)));
    row.set("scope", std::string(run::toString(s.scope)));
    row.set("group", std::string(s.group));
    val choices = val::array();
    std::string c;
    int k = 0;
    for (const char* p = s.choices; *p != '\0' || !c.empty(); ++p) {
      if (*p == '|' || *p == '\0') {
        choices.set(k++, c);
        c.clear();
        if (*p == '\0') break;
      } else {
        c += *p;
      }
    }
    row.set("choices", choices);
    row.set("default", s.defaultValue ? toJs(*s.defaultValue) : val::null());
    row.set("defaultText", s.defaultText);
    row.set("help", std::string(s.help));
    rows.set(i, row);
  }
  return rows;
}

val plan(val options) {
  return describe(run::account(toOptions(options)), plan::describePlan<JsWriter>);
}
// classes: the label's number of classes, or unset (the core's default: a binary label).
val planForTable(val options, val rows, val features, val classes) {
  const run::Options o = toOptions(options);
  const std::uint64_t n = toCount(rows, "n", 0), d = toCount(features, "features", 0);
  return describe(isUnset(classes) ? run::planForTable(o, n, d)
                                   : run::planForTable(o, n, d, toCount(classes, "classes", 0)),
                  plan::describePlan<JsWriter>);
}
// train() checks its options with this before it reads a byte of data.
bool validateOptions(val options) {
  run::validate(toOptions(options));
  return true;
}

double gdpDelta(val e, val mu) { return acc::gdpDelta(toNumber(e, "epsilon"), toNumber(mu, "mu")); }
double gdpLogDelta(val e, val mu) { return acc::gdpLogDelta(toNumber(e, "epsilon"), toNumber(mu, "mu")); }
double gdpEpsilon(val mu, val d) { return acc::gdpEpsilon(toNumber(mu, "mu"), toNumber(d, "delta")); }
double gdpMu(val e, val d) { return acc::gdpMu(toNumber(e, "epsilon"), toNumber(d, "delta")); }
double composeGdp(val mus) { return acc::composeGdp(toDoubles(mus, "mus")); }
double paperMuMstar(val e, val d) { return acc::paperMuMstar(toNumber(e, "epsilon"), toNumber(d, "delta")); }
double paperEpsilonLemma(val mu, val d) { return acc::paperEpsilonLemma(toNumber(mu, "mu"), toNumber(d, "delta")); }
val marginGrid(val n, val b) {
  return numberArray(acc::marginGrid(toCount(n, "n", 2), isUnset(b) ? 1.0 : toNumber(b, "b")));
}
val tnbSummary(val eta, val r, val candidates) {
  const acc::Tnb t{toNumber(eta, "eta"), toNumber(r, "r")};
  acc::validateTnb(t);
  const std::uint64_t m = toCount(candidates, "candidates", 1);
  val o = val::object();
  o.set("mean", acc::tnbMean(t));
  o.set("probabilityMiss", acc::tnbProbabilityMiss(t, m));
  val pmf = val::array();
  for (std::uint64_t k = 1; k <= 10; ++k) pmf.set(k - 1, acc::tnbPmf(t, k));
  o.set("pmf1to10", pmf);
  return o;
}
double tnbPgf(val eta, val r, val s) { return acc::tnbPgf({toNumber(eta, "eta"), toNumber(r, "r")}, toNumber(s, "s")); }
double ps22Epsilon(val mu, val eta, val gamma, val delta) {
  return acc::ps22Epsilon(toNumber(mu, "mu"), toNumber(eta, "eta"), toNumber(gamma, "r"), toNumber(delta, "delta"));
}
double ps22Mu(val e, val eta, val gamma, val delta) {
  return acc::ps22Mu(toNumber(e, "epsilon"), toNumber(eta, "eta"), toNumber(gamma, "r"), toNumber(delta, "delta"));
}
// The privacy ledger (accounting/ledger.hpp): entries [{epsilon, delta, gdp, mu?, deltaGdp?}],
// cap {epsilon, delta} or unset; BUDGET_EXCEEDED when the total is beyond the cap.
val composeLedger(val entries, val cap) {
  if (!entries.isArray()) {
    throw Error(ErrorCode::kBadParameter, "entries", "entries must be an array of run records, but is not an array");
  }
  std::vector<acc::LedgerEntry> list;
  const std::uint64_t n = toCount(entries["length"], "entries.length", 0);
  for (unsigned i = 0; i < n; ++i) {  // embind indexes with 32-bit integers
    const std::string at = "entries[" + std::to_string(i) + "]";
    const val e = toObject(entries[i], at.c_str());
    acc::LedgerEntry r;
    r.epsilon = toNumber(e["epsilon"], (at + ".epsilon").c_str());
    r.delta = toNumber(e["delta"], (at + ".delta").c_str());
    r.gdp = toBoolean(e["gdp"], (at + ".gdp").c_str());
    if (r.gdp) {
      r.mu = toNumber(e["mu"], (at + ".mu").c_str());
      r.deltaGdp = toNumber(e["deltaGdp"], (at + ".deltaGdp").c_str());
    }
    list.push_back(r);
  }
  const acc::LedgerTotal t = acc::composeLedger(list);
  if (!isUnset(cap)) {
    const val c = toObject(cap, "cap");
    acc::requireWithinCap(t, {toNumber(c["epsilon"], "cap.epsilon"), toNumber(c["delta"], "cap.delta")});
  }
  val o = val::object();
  o.set("epsilon", t.epsilon);
  o.set("delta", t.delta);
  o.set("mu", t.mu);
  o.set("basicEpsilon", t.basicEpsilon);
  o.set("runs", double(t.runs));
  o.set("gdpRuns", double(t.gdpRuns));
  return o;
}
double privtunePaperEpsilon(val mu, val r, val delta) {
  return acc::privtunePaperEpsilon(toNumber(mu, "mu"), toNumber(r, "r"), toNumber(delta, "delta"));
}

}  // namespace
}  // namespace dpmargin::wasm

EMSCRIPTEN_BINDINGS(dpmargin_accounting) {
  using namespace dpmargin::wasm;
  registerFunction<&optionTable>("optionTable");
  registerFunction<&plan>("plan");
  registerFunction<&planForTable>("planForTable");
  registerFunction<&validateOptions>("validateOptions");
  registerFunction<&gdpDelta>("gdpDelta");
  registerFunction<&gdpLogDelta>("gdpLogDelta");
  registerFunction<&gdpEpsilon>("gdpEpsilon");
  registerFunction<&gdpMu>("gdpMu");
  registerFunction<&composeGdp>("composeGdp");
  registerFunction<&paperMuMstar>("paperMuMstar");
  registerFunction<&paperEpsilonLemma>("paperEpsilonLemma");
  registerFunction<&marginGrid>("marginGrid");
  registerFunction<&tnbSummary>("tnbSummary");
  registerFunction<&tnbPgf>("tnbPgf");
  registerFunction<&ps22Epsilon>("ps22Epsilon");
  registerFunction<&ps22Mu>("ps22Mu");
  registerFunction<&privtunePaperEpsilon>("privtunePaperEpsilon");
  registerFunction<&composeLedger>("composeLedger");
}
