// FOR THE EMPIRICAL PRIVACY AUDIT ONLY (tests/audit, docs/reference/AUDIT.md): deliberately broken
// mechanisms, so the audit can show that it catches them on the production code.
//
// The product is compiled WITHOUT `DPMARGIN_AUDIT_FAULTS`: there `DPMARGIN_FAULTS` is a
// temporary `Faults{}` whose fields are the constants below (every factor 1, every switch off),
// no instance exists, and nothing — no option, binding, settings field or constructor — can
// change them. Only the audit binary compiles the files that read a fault (learn/trainer.cpp,
// learn/ranges.cpp, data/encoding.cpp, data/schema_release.cpp) a second time with the macro defined (tests/cpp/CMakeLists.txt); there the
// faults are one global the audit sets. A run with any field changed is NOT private.
#pragma once

namespace dpmargin::testing {

struct Faults {
  double gradientNoise = 1.0;   // multiplies σ of every noisy-GD step (the plan's σ_j)
  double scoreNoise = 1.0;      // multiplies the sd of every released score's noise
  bool addRemoveSensitivity = false;  // σ from the add/remove Δ = R/c instead of 2R/c
  // The joint multiclass learner's σ from the binary Δ = 2R/c, without its √2 (2√2·R/c).
  bool jointWithoutSqrt2 = false;
  double rangeNoise = 1.0;      // multiplies the sd of the range histograms' noise (τ stays 4σ)
  double discoveryNoise = 1.0;  // multiplies the sd of category discovery's noisy counts
  double discoveryThreshold = 1.0;  // multiplies τ − 1 (the threshold's noise margin)
  double schemaNoise = 1.0;     // multiplies the sd of the private schema counts (0: exact)
};

#ifdef DPMARGIN_AUDIT_FAULTS
extern Faults auditFaults;  // defined in trainer.cpp of the audit build; set by tests/audit
#define DPMARGIN_FAULTS (::dpmargin::testing::auditFaults)
#else
#define DPMARGIN_FAULTS (::dpmargin::testing::Faults{})
#endif

}  // namespace dpmargin::testing
