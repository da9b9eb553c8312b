#pragma once
// The target confidence alpha of halting: its default and its range, checked in one place.
#include "urnforest/status.h"

namespace urnforest {

/// The confidence a halting rule targets when the caller names none (CLI --alpha, JS `alpha`,
/// HaltingTableOptions::alpha, PredictRequest::alpha).
inline constexpr double kDefaultAlpha = 0.99;

/// kInvalidArgument "<what> must be in (0, 1]" unless 0 < alpha <= 1 (NaN fails); `what` names
/// the option in the message (e.g. "alpha", "every alpha"). The one range check of alpha.
Status CheckAlpha(double alpha, const char* what = "alpha");

}  // namespace urnforest
