#pragma once
// Calibration of an imported forest: the halting priors of [SSM16] come from out-of-bag votes,
// which a forest trained elsewhere lacks. The votes of all its trees on unlabeled rows (a
// validation sample of the user's own data) stand in for them.
#include <cstddef>

#include "urnforest/alpha.h"
#include "urnforest/calibration_check.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Stores in `forest` (an imported voting forest) the votes of every tree for `num_rows` rows in
/// its layout (ModelRows; borrowed), with each row's predicted class (the model's default vote)
/// as its label, and marks it calibrated; stored halting tables are dropped (their prior changed).
/// Every rule's prior (PriorForForest) is then fitted from these votes, as from out-of-bag votes
/// (each row holds all T votes, so no rescaling happens). Labels of the rows are never read.
/// kInvalidArgument for a forest trained here (it has out-of-bag votes) or an additive model (its
/// trees do not vote; its exact early exit needs no prior); kTooFewCalibrationRows for fewer than
/// kMinCalibrationRows rows (urnforest/calibration_check.h). On failure the forest is unchanged.
Status CalibrateForest(Forest* forest, const float* rows, size_t num_rows);

/// CalibrateForest, answering with the report on the rows for `alpha` (CheckCalibrationRows: rows,
/// distinct rows, the largest alpha they certify at delta 0.05, warnings). Warnings do not stop the
/// calibration: whenever the answer is ok the forest is calibrated. Errors as CalibrateForest, and
/// kInvalidArgument for alpha outside (0, 1].
Result<CalibrationReport> CalibrateForestReport(Forest* forest, const float* rows, size_t num_rows,
                                                double alpha = kDefaultAlpha);

/// CalibrateForest on the rows of `data` (columns as for ModelRows; its labels, if any, unused).
Status CalibrateForest(Forest* forest, const Dataset& data);

}  // namespace urnforest
