#include "dpmargin/plan/plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpmargin/accounting/gdp.hpp"
#include "dpmargin/accounting/grid.hpp"
#include "dpmargin/accounting/jl.hpp"
#include "dpmargin/accounting/ngd.hpp"
#include "dpmargin/accounting/scores.hpp"
#include "dpmargin/accounting/selection.hpp"
#include "dpmargin/accounting/tnb.hpp"
#include "dpmargin/error.hpp"

namespace dpmargin::plan {
namespace {

using namespace dpmargin::accounting;

// A tiny ε (paper calibration: μ ∝ ε; ≲ 1e-290) makes a noise sd overflow, and the noise or a
// noisy score would be ±∞ (fuzzing). Named after ε, its cause, not deep inside training.
constexpr double kMaxNoiseSd = 1e300;
// At the other end, a huge ε with a huge hinge scale (Δ = 2R/c tiny, μ ~ 1e154) made σ underflow
// to 0 — a run without noise (fuzzing): every sd must be a normal double.
constexpr double kMinNoiseSd = 0x1p-1022;
void requireNoiseInRange(const PlanRequest& r, double sd) {
  if (!(sd <= kMaxNoiseSd)) {
    throwBadParameter("epsilon", "large enough that every noise sd is at most 1e300", r.epsilon);
  }
  if (!(sd >= kMinNoiseSd)) {
    throwBadParameter("epsilon",
                      "small enough (for the hinge scale) that every noise sd is at least 2^-1022", r.epsilon);
  }
}

}  // namespace

void validateRequest(const PlanRequest& r) {
  requirePositive("epsilon", r.epsilon);
  requireOpenUnit("delta", r.delta);
  if (r.n < 2) throwBadParameter("n", "at least 2", static_cast<double>(r.n));
  if (r.d < 1) throwBadParameter("d", "at least 1", static_cast<double>(r.d));
  requirePositive("normBound", r.normBound);
  if (r.maxIterations < 1) {
    throwBadParameter("maxIterations", "at least 1", static_cast<double>(r.maxIterations));
  }
  requireOpenUnit("jlFailure", r.jlFailure);
  if (r.selector == Selector::kPrivTune) {
    // E[K] = 1 would mean r = 1: a single run, no tuning; the TNB needs r ∈ (0, 1).
    requireFinite("expectedRuns", r.expectedRuns);
    if (!(r.expectedRuns > 1.0)) throwBadParameter("expectedRuns", "> 1", r.expectedRuns);
  } else if (!(r.expectedRuns >= 1.0) || !std::isfinite(r.expectedRuns)) {
    // Ignored by Iter, but a nonsensical value is still a caller bug worth reporting.
    throwBadParameter("expectedRuns", "finite and >= 1", r.expectedRuns);
  }
  if (r.selector == Selector::kAuto) {
    if (r.calibration != Calibration::kTight) {
      throw Error(ErrorCode::kBadParameter, "selector",
                  "selector must be \"iter\", \"privtune\" or \"fixed\" with calibration \"paper\" "
                  "(auto is a rule of the tight calibration), but is \"auto\"");
    }
    requirePositive("autoMuKnee", r.autoMuKnee);
    requireFinite("autoMuKnee", r.autoMuKnee);
    requireFinite("autoIterationsPerMu", r.autoIterationsPerMu);
    if (!(r.autoIterationsPerMu >= 0)) throwBadParameter("autoIterationsPerMu", ">= 0", r.autoIterationsPerMu);
    requireFinite("autoSelectNoise", r.autoSelectNoise);
    if (!(r.autoSelectNoise >= 0)) throwBadParameter("autoSelectNoise", ">= 0", r.autoSelectNoise);
    requireOpenUnit("autoSelectRunShare", r.autoSelectRunShare);
    requireFinite("autoSelectFactor", r.autoSelectFactor);
    if (!(r.autoSelectFactor > 1)) throwBadParameter("autoSelectFactor", "> 1", r.autoSelectFactor);
  }
  if (r.selector == Selector::kFixed) {
    requirePositive("margin", r.margin);
    if (r.margin > r.normBound) throwBadParameter("margin", "<= normBound", r.margin);
    // The grid's smallest margin is b/n ≥ b·2⁻⁵³; a far smaller fixed margin makes Δ = 2R/c and
    // the hinge's 1/c overflow (fuzzing: margin 1e-320 gave infinite weights).
    if (r.margin < r.normBound * 0x1p-53) {
      throwBadParameter("margin", ">= normBound * 2^-53", r.margin);
    }
  } else if (r.margin != 0.0) {
    throwBadParameter("margin", "unset unless selector is \"fixed\"", r.margin);
  }
  if (r.rangeShare != 0.0) {  // 0: no private ranges
    requireOpenUnit("rangeShare", r.rangeShare);
    if (r.selector == Selector::kPrivTune) {
      throwBadParameter("rangeShare", "0 with selector \"privtune\" (its accounting is not GDP)",
                        r.rangeShare);
    }
  }
  if (r.discoveryColumns > 0) {
    requireOpenUnit("discoveryShare", r.discoveryShare);
    if (r.selector == Selector::kPrivTune) {
      throwBadParameter("discoveryShare",
                        "0 with selector \"privtune\" (its accounting is not GDP; declare the categories)",
                        r.discoveryShare);
    }
    if (!(r.rangeShare + r.discoveryShare < 1.0)) {
      throwBadParameter("discoveryShare", "< 1 - rangeShare", r.discoveryShare);
    }
  } else if (r.discoveryShare != 0.0) {
    requireOpenUnit("discoveryShare", r.discoveryShare);  // a share with nothing to discover
    if (r.discoveryPossible && !(r.rangeShare + r.discoveryShare < 1.0)) {  // nothing yet, but may
      throwBadParameter("discoveryShare", "< 1 - rangeShare", r.discoveryShare);
    }
  }
  if (r.schemaCoordinates > 0) {
    requireOpenUnit("schemaShare", r.schemaShare);
    if (!(r.rangeShare + r.discoveryShare + r.schemaShare < 1.0)) {
      throwBadParameter("schemaShare", "< 1 - rangeShare - discoveryShare", r.schemaShare);
    }
  } else if (r.schemaShare != 0.0) {
    requireOpenUnit("schemaShare", r.schemaShare);  // a share with nothing to decide
  }
  if (r.discoveryLabel && r.discoveryColumns == 0) {
    throw Error(ErrorCode::kInternal, "", "plan: the label discovered with no discovery column");
  }
  if (r.classes != 1) {
    // Binary problems: a binary label trains 1 (oneVsRestProblems(2) = 1), K = 3…50 classes K.
    if (r.classes < 3 || r.classes > kMaxClasses) {
      throwBadParameter("classes",
                        "1 (a binary label) or 3 to " + std::to_string(kMaxClasses) +
                            " (one-vs-rest problems)",
                        static_cast<double>(r.classes));
    }
    if (r.jointClasses != 0) {
      throwBadParameter("classes", "1 with the joint multiclass learner (one mechanism)",
                        static_cast<double>(r.classes));
    }
    if (r.selector == Selector::kPrivTune) {
      throw Error(ErrorCode::kBadParameter, "selector",
                  "selector must be \"iter\" or \"fixed\" with a multiclass label of " +
                      std::to_string(r.classes) +
                      " classes (PrivTune's accounting is not GDP, so its one-vs-rest runs cannot "
                      "be composed exactly), but is \"privtune\"");
    }
  }
  if (r.jointClasses != 0) {
    if (r.jointClasses < 3 || r.jointClasses > kMaxClasses) {
      throwBadParameter("classes",
                        "3 to " + std::to_string(kMaxClasses) + " for the joint multiclass learner",
                        static_cast<double>(r.jointClasses));
    }
    if (r.selector == Selector::kPrivTune) {
      throw Error(ErrorCode::kBadParameter, "selector",
                  "selector must be \"auto\", \"iter\" or \"fixed\" with a multiclass label of " +
                      std::to_string(r.jointClasses) +
                      " classes (PrivTune's accounting is not GDP), but is \"privtune\"");
    }
  }
  requirePositive("stepScale", r.stepScale);
  requirePositive("hingeScale", r.hingeScale);
  requirePositive("pruneRatio", r.pruneRatio);
  if (r.calibration == Calibration::kPaper && r.selector != Selector::kPrivTune &&
      !(r.epsilon < 8.0 * std::log(1.0 / r.delta))) {
    // The paper's μ = ε/(2√(2 ln(1/δ))) is derived for ε < 8 ln(1/δ) only (SPEC §2.1).
    throwBadParameter("epsilon", "< 8 ln(1/delta) with calibration \"paper\"", r.epsilon);
  }
}

namespace {

// GDP composition of discovery, private ranges and training: μ² = μ_discovery² + μ_ranges² +
// μ_train² exactly (discovery's thresholds get their σ and τ here); and of the one-vs-rest
// problems: μ_train² = K·μ_class² (K = 1: μ_class = μ_train exactly).
void splitRanges(const PlanRequest& r, Plan& plan) {
  const double discovery = r.discoveryColumns > 0 ? r.discoveryShare : 0.0;
  const double schema = r.schemaCoordinates > 0 ? r.schemaShare : 0.0;
  plan.muRanges = std::sqrt(r.rangeShare) * plan.mu;
  plan.muDiscovery = std::sqrt(discovery) * plan.mu;
  plan.muSchema = std::sqrt(schema) * plan.mu;
  if (schema > 0) plan.schemaSigma = std::sqrt(double(r.schemaCoordinates)) / plan.muSchema;
  plan.muTrain = std::sqrt(1.0 - r.rangeShare - discovery - schema) * plan.mu;
  plan.muClass = plan.muTrain / std::sqrt(static_cast<double>(r.classes));
  if (r.discoveryColumns > 0) {
    const double deltaTau = accounting::discoveryDeltaThreshold(r.delta);
    if (!r.discoveryLabel) {
      plan.discovery = accounting::calibrateDiscovery(plan.muDiscovery, r.discoveryColumns, deltaTau);
    } else {
      // Two Gaussian mechanisms, μ_label² + μ_other² = μ_discovery² (GDP composition); each of the
      // m columns keeps a value held by one neighbour only with probability δ_τ/m, as before.
      const double m = static_cast<double>(r.discoveryColumns);
      const double share = r.discoveryColumns > 1 ? kLabelDiscoveryShare : 1.0;
      plan.labelDiscovery =
          accounting::calibrateDiscovery(std::sqrt(share) * plan.muDiscovery, 1, deltaTau / m);
      if (r.discoveryColumns > 1) {
        plan.discovery = accounting::calibrateDiscovery(std::sqrt(1.0 - share) * plan.muDiscovery,
                                                        r.discoveryColumns - 1, deltaTau * (m - 1.0) / m);
      }
    }
  }
}

bool reservesDiscovery(const PlanRequest& r) { return r.discoveryColumns > 0 || r.discoveryPossible; }

// δ of the GDP part: δ minus discovery's δ_τ (rounded so that the two add up to at most δ;
// accounting/discovery.hpp has the argument).
double deltaForGdp(const PlanRequest& r) {
  if (!reservesDiscovery(r)) return r.delta;
  const double charge = accounting::discoveryDeltaThreshold(r.delta);
  double delta = r.delta - charge;
  while (delta + charge > r.delta) delta = std::nextafter(delta, 0.0);
  return delta;
}

// ε of the GDP part: ε less discovery's ln(1/(1 − δ_τ)).
double epsilonForGdp(const PlanRequest& r) {
  if (!reservesDiscovery(r)) return r.epsilon;
  return r.epsilon - accounting::discoveryEpsilonCharge(accounting::discoveryDeltaThreshold(r.delta));
}

// ε recomputed from μ = gdpMu(ε_GDP, δ_GDP), plus discovery's ε charge. gdpMu checked
// δ(ε; μ) ≤ δ, so the requested ε is itself valid; where ln δ(·; μ) is flat to within its
// rounding (tiny ε) the bisection of gdpEpsilon can land a little above it (fuzzing: 0.6% at
// ε = 5e-14), hence the min.
double tightEpsilonSpent(const PlanRequest& r, double mu) {
  const double charge = r.epsilon - epsilonForGdp(r);
  return std::min(r.epsilon, gdpEpsilon(mu, deltaForGdp(r)) + charge);
}

// μ of the whole run and ε recomputed from it, by selector and calibration (SPEC §2.1, §2.6).
void setBudget(const PlanRequest& r, std::size_t gridSize, Plan& plan) {
  plan.deltaGdp = deltaForGdp(r);
  if (!searchesGrid(r.selector)) {
    plan.mu = r.calibration == Calibration::kTight ? gdpMu(epsilonForGdp(r), plan.deltaGdp)
                                                        : paperMuMstar(epsilonForGdp(r), plan.deltaGdp);
    plan.epsilonSpent = r.calibration == Calibration::kTight
                            ? tightEpsilonSpent(r, plan.mu)
                            : paperEpsilonCorollary(plan.mu, plan.deltaGdp) + (r.epsilon - epsilonForGdp(r));
    splitRanges(r, plan);
    if (r.selector == Selector::kAuto && autoSelects(r, plan.muClass)) {
      // Auto's selection: an Iter over its three public margins with the runs' share of μ².
      const IterSplit split =
          selectionSplit(plan.muClass, kAutoSelectCandidates, r.autoSelectRunShare, 1.0);
      plan.muRun = split.muRun;
      plan.scoreSd = split.scoreSd;
      plan.selects = true;
    } else {
      // One base run, no selection (fixed, auto): it gets the whole μ; nothing else is released.
      plan.muRun = plan.muClass;
      plan.scoreSd = 0.0;
      plan.selects = false;
    }
    if (r.selector == Selector::kAuto) plan.autoMargin = autoMargin(r, plan.muRun);
    return;
  }
  plan.selects = true;
  if (r.selector == Selector::kIter) {
    if (r.calibration == Calibration::kTight) {
      plan.mu = gdpMu(epsilonForGdp(r), plan.deltaGdp);
      plan.epsilonSpent = tightEpsilonSpent(r, plan.mu);
    } else {
      plan.mu = paperMuMstar(epsilonForGdp(r), plan.deltaGdp);
      plan.epsilonSpent = paperEpsilonCorollary(plan.mu, plan.deltaGdp) + (r.epsilon - epsilonForGdp(r));
    }
    splitRanges(r, plan);
    const IterSplit split = iterSplit(plan.muClass, gridSize, 1.0);
    plan.muRun = split.muRun;
    plan.scoreSd = split.scoreSd;
    return;
  }
  // PrivTune is Rényi-accounted, not GDP: a private schema (a CSV run) takes (s·ε, s·δ) of the
  // budget as its own exact GDP guarantee, PrivTune the rest; they add by basic composition.
  const double schema = r.schemaCoordinates > 0 ? r.schemaShare : 0.0;
  const double epsilon = (1.0 - schema) * r.epsilon;
  const double delta = (1.0 - schema) * r.delta;
  plan.tnbEta = kPrivTuneEta;
  plan.tnbR = tnbRForMean(kPrivTuneEta, r.expectedRuns);
  if (r.calibration == Calibration::kTight) {
    plan.mu = ps22Mu(epsilon, kPrivTuneEta, plan.tnbR, delta);
    plan.epsilonSpent = ps22Epsilon(plan.mu, kPrivTuneEta, plan.tnbR, delta);
  } else {
    // The paper's M′ theorem: μ = x/(6√(2 ln(1/(rδ)))) is (x + δ, δ)-DP (its relaxed Lemma
    // bound 6μ√(2 ln(1/(rδ))) + δ). Aim x = ε − δ so that the guarantee is (ε, δ).
    const double target = epsilon - delta;
    if (!(target > 0)) throwBadParameter("epsilon", "> delta with calibration \"paper\"", epsilon);
    // Also honour the Lemma read conservatively, ε_L + δ ≤ ε: in every practical regime the
    // theorem's μ is the smaller one (about half), so this reproduces the paper; it only bites
    // for ε within a few δ of 0, where the theorem's relaxation is not an upper bound.
    plan.mu = std::min(privtunePaperMu(target, plan.tnbR, delta),
                            target > delta
                                ? privtunePaperMuInverseLemma(target, plan.tnbR, delta)
                                : 0.0);
    if (!(plan.mu > 0)) throwBadParameter("epsilon", "> 2 delta with calibration \"paper\"", epsilon);
    plan.epsilonSpent =
        std::max(privtunePaperEpsilonRelaxed(plan.mu, plan.tnbR, delta),
                 privtunePaperEpsilon(plan.mu, plan.tnbR, delta) + delta);
  }
  if (schema > 0) {
    plan.muSchema = gdpMu(schema * r.epsilon, schema * r.delta);
    plan.schemaSigma = std::sqrt(double(r.schemaCoordinates)) / plan.muSchema;
    plan.epsilonSpent += schema * r.epsilon;
  }
  plan.muTrain = plan.mu;
  plan.muClass = plan.mu;  // one problem (validateRequest: classes = 1 with PrivTune)
  plan.muRun = plan.mu / std::sqrt(2.0);
  plan.scoreSd = std::sqrt(2.0) / plan.mu;
  plan.probabilityMiss = tnbProbabilityMiss({kPrivTuneEta, plan.tnbR}, gridSize);
}

CandidatePlan planCandidate(const PlanRequest& r, const Plan& plan, double gamma,
                            std::size_t gridSize) {
  CandidatePlan c;
  c.gamma = gamma;
  c.kJl = jlDimension(gamma, r.n, gridSize, plan.beta, r.normBound);
  // A projection to ≥ d dimensions cannot help (SPEC §2.3); auto never projects (k = d).
  c.projected = r.selector != Selector::kAuto && c.kJl < r.d;
  c.k = c.projected ? c.kJl : r.d;
  const bool undistorted = r.calibration == Calibration::kTight && !c.projected;
  // Tight, Φ = I: nothing is distorted, so c = γ and R = b (SPEC §2.9 item 2);
  // otherwise the paper's c = γ/3 and R = 2b (JL may stretch norms).
  c.c = r.hingeScale * (undistorted ? gamma : gamma / 3.0);
  c.clipRadius = undistorted ? r.normBound : 2.0 * r.normBound;
  c.sensitivity = hingeSensitivity(c.clipRadius, c.c);
  // The joint multiclass learner: one row's gradient is a K × k matrix of Frobenius norm
  // ≤ √2·R/c, so Δ = 2√2·R/c (docs/reference/LEARNERS.md), and the noise has k·K coordinates.
  const bool joint = r.jointClasses > 0;
  if (joint) c.sensitivity *= kJointSensitivityFactor;
  const std::uint64_t noiseDims = joint ? c.k * r.jointClasses : c.k;
  c.TUncapped = r.calibration == Calibration::kTight
                             ? ngdIterationsBound(r.n, plan.muRun, noiseDims, kTightIterationTolerance)
                             : ngdIterationsPaper(r.n, plan.muRun);
  if (r.selector == Selector::kAuto) c.TUncapped = std::min(c.TUncapped, autoIterations(r, plan.muRun));
  if (c.TUncapped < 1) c.TUncapped = 1;
  if (!(c.sensitivity <= kMaxNoiseSd)) {  // Δ = 2R/c: a tiny hinge scale makes it overflow
    throwBadParameter("hingeScale", "large enough that the sensitivity 2R/c is finite", r.hingeScale);
  }
  c.capped = c.TUncapped > r.maxIterations;
  c.T = c.capped ? r.maxIterations : c.TUncapped;
  // σ covers the sums the kernel computes, not only exact ones (floatSumSlack).
  c.sigma = ngdSigma(c.sensitivity * (1.0 + plan.floatSlack), c.T, plan.muRun);
  requireNoiseInRange(r, c.sigma);
  c.stepSize = ngdStepSize(r.n, c.sensitivity, noiseDims, c.sigma, c.T, r.stepScale);
  // Against the unit-norm reference separator (D = 1, whatever the step rule).
  c.noiseFloorRatio = ngdUtilityFloor(c.sensitivity, noiseDims, plan.muRun) / static_cast<double>(r.n);
  c.scorePenalty = r.score == ScoreKind::kPopulation ? populationPenalty(c.k, r.n, plan.beta) : 0.0;
  return c;
}

}  // namespace

const char* toString(Selector s) noexcept {
  switch (s) {
    case Selector::kIter: return "iter";
    case Selector::kPrivTune: return "privtune";
    case Selector::kFixed: return "fixed";
    case Selector::kAuto: return "auto";
  }
  return "iter";
}
const char* toString(Pruning p) noexcept {
  switch (p) {
    case Pruning::kNone: return "none";
    case Pruning::kNoiseFloor: return "noise-floor";
  }
  return "none";
}
const char* toString(Multiclass m) noexcept {
  return m == Multiclass::kJoint ? "joint" : "one-vs-rest";
}
const char* toString(JointLoss l) noexcept {
  return l == JointLoss::kHinge ? "hinge" : "softmax";
}
const char* toString(Calibration c) noexcept {
  return c == Calibration::kTight ? "tight" : "paper";
}
const char* toString(ScoreKind s) noexcept {
  return s == ScoreKind::kEmpirical ? "empirical" : "population";
}

namespace {
[[noreturn]] void unknownName(const char* parameter, const char* allowed, const std::string& v) {
  throw Error(ErrorCode::kBadParameter, parameter,
              std::string(parameter) + " must be one of " + allowed + ", but is \"" + v + "\"");
}
}  // namespace

std::uint64_t oneVsRestProblems(std::uint64_t classes) {
  if (classes < 2 || classes > kMaxClasses) {
    throwBadParameter("classes", "2 (a binary label) or 3 to " + std::to_string(kMaxClasses),
                      static_cast<double>(classes));
  }
  return classes == 2 ? 1 : classes;
}

Selector parseSelector(const std::string& v, const char* parameter) {
  if (v == "iter") return Selector::kIter;
  if (v == "privtune") return Selector::kPrivTune;
  if (v == "fixed") return Selector::kFixed;
  if (v == "auto") return Selector::kAuto;
  unknownName(parameter, "\"iter\", \"privtune\", \"fixed\", \"auto\"", v);
}
Calibration parseCalibration(const std::string& v, const char* parameter) {
  if (v == "tight") return Calibration::kTight;
  if (v == "paper") return Calibration::kPaper;
  unknownName(parameter, "\"tight\", \"paper\"", v);
}
ScoreKind parseScoreKind(const std::string& v, const char* parameter) {
  if (v == "empirical") return ScoreKind::kEmpirical;
  if (v == "population") return ScoreKind::kPopulation;
  unknownName(parameter, "\"empirical\", \"population\"", v);
}

Multiclass parseMulticlass(const std::string& v, const char* parameter) {
  if (v == "joint") return Multiclass::kJoint;
  if (v == "one-vs-rest") return Multiclass::kOneVsRest;
  unknownName(parameter, "\"joint\", \"one-vs-rest\"", v);
}
JointLoss parseJointLoss(const std::string& v, const char* parameter) {
  if (v == "hinge") return JointLoss::kHinge;
  if (v == "softmax") return JointLoss::kSoftmax;
  unknownName(parameter, "\"hinge\", \"softmax\"", v);
}

Pruning parsePruning(const std::string& v, const char* parameter) {
  if (v == "none") return Pruning::kNone;
  if (v == "noise-floor") return Pruning::kNoiseFloor;
  unknownName(parameter, "\"none\", \"noise-floor\"", v);
}

bool operator==(const PlanRequest& a, const PlanRequest& b) noexcept {
  return a.epsilon == b.epsilon && a.delta == b.delta && a.n == b.n && a.d == b.d &&
         a.normBound == b.normBound && a.selector == b.selector && a.calibration == b.calibration &&
         a.score == b.score && a.expectedRuns == b.expectedRuns && a.jlFailure == b.jlFailure &&
         a.maxIterations == b.maxIterations && a.margin == b.margin && a.rangeShare == b.rangeShare &&
         a.discoveryColumns == b.discoveryColumns && a.discoveryShare == b.discoveryShare &&
         a.stepScale == b.stepScale && a.hingeScale == b.hingeScale && a.pruning == b.pruning &&
         a.pruneRatio == b.pruneRatio && a.classes == b.classes && a.autoMuKnee == b.autoMuKnee &&
         a.autoMinIterations == b.autoMinIterations && a.autoIterationsPerMu == b.autoIterationsPerMu &&
         a.autoSelectNoise == b.autoSelectNoise && a.autoSelectRunShare == b.autoSelectRunShare &&
         a.autoSelectFactor == b.autoSelectFactor && a.discoveryPossible == b.discoveryPossible &&
         a.schemaCoordinates == b.schemaCoordinates && a.schemaShare == b.schemaShare &&
         a.jointClasses == b.jointClasses && a.jointLoss == b.jointLoss && a.discoveryLabel == b.discoveryLabel;
}

double autoMargin(const PlanRequest& r, double muRun) {
  // b/√n is the margin of n points that a unit-norm separator reaches by chance (a public scale);
  // below μ = autoMuKnee the noise dominates and a larger margin (a larger step, since c = γ)
  // pays, by √(autoMuKnee/μ) (docs/design/ACCURACY.md, "The default"). Both are public numbers: n, b and
  // μ_run = f(ε, δ, shares, classes).
  const double scale = std::max(1.0, std::sqrt(r.autoMuKnee / muRun));
  return std::min(r.normBound, r.normBound * scale / std::sqrt(static_cast<double>(r.n)));
}

std::uint64_t autoIterations(const PlanRequest& r, double muRun) {
  const double t = std::ceil(r.autoIterationsPerMu * muRun);
  const double cap = 1e15;  // far beyond any maxIterations; keeps the conversion defined
  return std::max(r.autoMinIterations, static_cast<std::uint64_t>(std::min(t, cap)));
}

AutoSelection autoSelection(const PlanRequest& r, double muClass) {
  // The choice pays where its score noise is small against the differences between the three
  // margins' error counts and the runs' share of μ² (autoSelectRunShare) costs little: a score
  // noise sd of at most autoSelectNoise·n errors (docs/design/ACCURACY.md, "The default").
  AutoSelection a;
  if (!(r.autoSelectNoise > 0)) return a;
  a.scoreSd = selectionSplit(muClass, kAutoSelectCandidates, r.autoSelectRunShare, 1.0).scoreSd;
  a.limit = r.autoSelectNoise * static_cast<double>(r.n);
  // sd = √(m/(1 − s))/μ_class, so sd ≤ noise·n ⟺ n·μ_class ≥ sd·μ_class/noise.
  a.nMuFrom = a.scoreSd * muClass / r.autoSelectNoise;
  a.selects = a.scoreSd <= a.limit;
  return a;
}

bool autoSelects(const PlanRequest& r, double muClass) { return autoSelection(r, muClass).selects; }

namespace {
// Auto's selection grid {γ₀/f, γ₀, f·γ₀}, ascending, at most b; a margin the cap makes equal to
// the one below is dropped (fewer runs than planned: the split stays conservative).
std::vector<double> autoGrid(const PlanRequest& r, double gamma0) {
  std::vector<double> grid;
  for (double g : {gamma0 / r.autoSelectFactor, gamma0, gamma0 * r.autoSelectFactor}) {
    g = std::min(g, r.normBound);
    if (grid.empty() || g > grid.back()) grid.push_back(g);
  }
  return grid;
}
}  // namespace

Plan makeBudget(const PlanRequest& request) {
  validateRequest(request);
  Plan plan;
  plan.request = request;
  plan.beta = request.jlFailure;
  plan.floatSlack = floatSumSlack(request.n);
  const std::size_t gridSize =
      searchesGrid(request.selector) ? marginGrid(request.n, request.normBound).size() : 1;
  setBudget(request, gridSize, plan);
  return plan;
}

double defaultSchemaShare(const PlanRequest& request) {
  if (request.schemaCoordinates == 0) return 0.0;
  PlanRequest r = request;
  r.schemaCoordinates = 0;
  r.schemaShare = 0.0;
  r.discoveryColumns = 0;
  const double mu = r.selector == Selector::kPrivTune ? gdpMu(r.epsilon, r.delta) : makeBudget(r).mu;
  // A numeric column's statistic, text − ½·present, sits ½n from the kind boundary with sd
  // σ·√1.25: ½n ≥ z·σ·√1.25 needs μ_schema ≥ 2·z·√1.25·√coordinates/n.
  const double need = 2.0 * kSchemaKindZ * std::sqrt(1.25) * std::sqrt(double(request.schemaCoordinates)) /
                      (double(request.n) * mu);
  return std::clamp(need * need, kSchemaShareMin, kSchemaShareMax);
}

Plan makePlan(const PlanRequest& request) {
  validateRequest(request);
  Plan plan;
  plan.request = request;
  plan.beta = request.jlFailure;
  plan.floatSlack = floatSumSlack(request.n);
  // Auto's margins need its μ_run, which does not depend on the grid (the budget's split is
  // fixed by autoSelects: one run, or kAutoSelectCandidates).
  std::vector<double> grid;
  if (request.selector == Selector::kFixed) {
    grid = {request.margin};
  } else if (request.selector == Selector::kAuto) {
    const Plan budget = makeBudget(request);
    grid = budget.selects ? autoGrid(request, budget.autoMargin) : std::vector<double>{budget.autoMargin};
  } else {
    grid = marginGrid(request.n, request.normBound);
  }
  plan.gridSize = grid.size();
  // Noise-floor pruning (SPEC §2.9 item 5, docs/reference/PRIVACY.md): keep the largest m such that
  // every one of the m largest margins has floor ratio ≤ pruneRatio under the budget split over
  // m; if no m passes, keep b alone. (Every margin is checked, not only the smallest: the ratio
  // usually falls as γ grows, but where a larger γ is projected its Δ jumps 6× — tight c = γ,
  // R = b unprojected against c = γ/3, R = 2b projected.) Only public numbers enter (n, d, b,
  // ε, δ and the options). k_γ keeps the full grid's JL union bound (|Γ|), a conservative
  // choice that leaves k_γ independent of pruning.
  // The conversions (μ from ε, δ) do not depend on the number of candidates: done once; only
  // Iter's split (and PrivTune's P(miss)) follow the kept count.
  setBudget(request, grid.size(), plan);
  const auto resplit = [&](std::size_t m) {
    if (request.selector == Selector::kIter) {
      const IterSplit split = iterSplit(plan.muClass, m, 1.0);
      plan.muRun = split.muRun;
      plan.scoreSd = split.scoreSd;
    } else if (request.selector == Selector::kPrivTune) {
      plan.probabilityMiss = tnbProbabilityMiss({kPrivTuneEta, plan.tnbR}, m);
    }
  };
  std::size_t keep = grid.size();
  if (request.pruning == Pruning::kNoiseFloor) {
    for (; keep > 1; --keep) {
      resplit(keep);
      bool pass = true;
      for (std::size_t j = grid.size() - keep; pass && j < grid.size(); ++j) {
        pass = planCandidate(request, plan, grid[j], grid.size()).noiseFloorRatio <= request.pruneRatio;
      }
      if (pass) break;
    }
  }
  plan.pruned.assign(grid.begin(), grid.end() - static_cast<std::ptrdiff_t>(keep));
  resplit(keep);
  if (plan.selects) requireNoiseInRange(request, plan.scoreSd);
  plan.candidates.reserve(keep);
  for (std::size_t j = grid.size() - keep; j < grid.size(); ++j) {
    plan.candidates.push_back(planCandidate(request, plan, grid[j], grid.size()));
  }
  return plan;
}

}  // namespace dpmargin::plan
