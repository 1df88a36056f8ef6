// The normalized margin of a linear classifier on a data set (paper, appendix "Removal-Margin"
// experiment; SPEC §2.8):  Margin(w; S) = max{ minᵢ yᵢ⟨w, xᵢ⟩ / (‖xᵢ‖‖w‖), 0 }.
// Rows with ‖xᵢ‖ = 0 are skipped (their margin is undefined). NOT differentially private.
#pragma once

#include <cstddef>
#include <vector>

#include "dpmargin/profile/data_view.hpp"

namespace dpmargin::profile {

// yᵢ⟨w, xᵢ⟩ / (‖xᵢ‖‖w‖) per row, before clamping; NaN for rows with ‖xᵢ‖ = 0, and 0 for every
// other row when w = 0. `w` has d entries. Throws BAD_PARAMETER ("w") on a wrong size or a
// non-finite entry.
std::vector<double> normalizedMargins(const DataView& data, const std::vector<double>& w);

// minᵢ of normalizedMargins over the rows with ‖xᵢ‖ > 0 (before clamping): NaN if there are none.
double minimumNormalizedMargin(const DataView& data, const std::vector<double>& w);

// Margin(w; S): the minimum clamped at 0 (0 also when no row has ‖xᵢ‖ > 0).
double margin(const DataView& data, const std::vector<double>& w);

}  // namespace dpmargin::profile
