#pragma once
// Calibration: the halting priors of [SSM16] come from out-of-bag votes, which a forest trained
// elsewhere lacks; the votes of all its trees on unlabeled rows (a validation sample of the user's
// own data) stand in for them. A forest trained here has out-of-bag votes, but each row's tally
// covers only ~37 % of the trees, so no disagreement with the full vote is known exactly: its
// calibration rows (all trees) are what rule 'auto' certifies from.
#include <cstddef>

#include "urnforest/alpha.h"
#include "urnforest/calibration_check.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Stores in `forest` the votes of every tree for `num_rows` rows in its layout (ModelRows;
/// borrowed). Labels of the rows are never read: held-out unlabeled rows are what it needs.
/// - An imported voting forest: the votes become its prior data with each row's predicted class
///   (the model's default vote) as its label, and it is marked calibrated; stored halting tables
///   are dropped (their prior changed). Every rule's prior (PriorForForest) is then fitted from
///   these votes, as from out-of-bag votes (each row holds all T votes, so no rescaling happens).
/// - A forest trained here (random forest, bagging, vote-boosting): the tallies (rows x K, all T
///   trees) and their plurality (the model's own hard prediction) are stored beside its
///   out-of-bag votes (Forest::calibration_votes(), calibration_labels()), replacing earlier
///   calibration rows. The out-of-bag votes, and so every table rule's prior and the stored
///   tables, stay as they are; rule 'auto' certifies from the new rows and rule 'lp' fits on them.
/// kInvalidArgument for an AdaBoost model (its own prediction is the weighted vote, halting counts
/// trees unweighted) or an imported additive model (its trees do not vote; its exact early exit
/// needs no prior); kTooFewCalibrationRows for fewer than kMinCalibrationRows rows
/// (urnforest/calibration_check.h). On failure the forest is unchanged.
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
