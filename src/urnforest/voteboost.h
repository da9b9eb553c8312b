#pragma once
// Vote-boosting ([SMS18], Sabzevari, Martinez-Munoz and Suarez): a sequential ensemble whose row
// weights depend only on the ensemble's vote disagreement, through a beta emphasis function.
// Training is Train(data, {ensemble = kVoteBoost, voteboost = {a, b, base}}); this header holds the
// weight computation (exposed for tests and the demo) and the cross-validated choice of a = b.
//
// Algorithm 1 as implemented (binary, as in the paper):
//   w = 1/N; for t = 1..T: draw N rows with replacement with probabilities w (tree t's own stream
//   (seed, t); while all weights are equal, exactly the uniform bootstrap of a random forest);
//   grow f_t on the sample; add f_t's votes on ALL training rows (in-bag ones included, C.5.3);
//   pi_+(x_i) = (t_+(x_i) + 1) / (t + 2) (Laplace); w_i = g(pi_+(x_i)) / sum_j g(pi_+(x_j)).
// Prediction: unweighted majority vote of the T trees (tree_weights() stays empty), so every
// counting tool of the library (PredictFull, halting) applies unchanged.
//
// Multi-class EXTENSION (not in the paper; option (c) of the notes' C.5.11): with l > 2 classes
// the emphasis is applied to the Laplace-corrected share of the currently leading class,
// p_i = (max_k t_k(x_i) + 1) / (t + l). For l = 2 and a = b this equals the paper's weights
// (the symmetric beta density has g(p) = g(1 - p)). Asymmetric a != b needs exactly 2 classes.
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// log g(p) = (a - 1) ln p + (b - 1) ln(1 - p) for p in (0, 1), a, b > 0: the beta density without
/// its normalising constant (which cancels in the weight normalisation).
double LogEmphasis(double p, double a, double b);

/// The vote-boosting weights after `t` >= 0 trees. `votes` holds each training row's vote counts,
/// row-major rows x num_classes (votes[r * num_classes + c], each row summing to t). Returns one
/// weight per row, summing to 1: exp(log g(p_r) - max_r log g) normalised, with p_r the Laplace
/// share of class 1 (2 classes) or of the leading class (more; see the header comment).
/// a = b = 1 gives exactly 1/N for every row. Fails with kInvalidArgument (num_classes < 2, a or b
/// not positive and finite, a != b with more than 2 classes, a row whose counts do not sum to t)
/// or kShapeMismatch (votes.size() not a multiple of num_classes, or zero rows).
Result<std::vector<double>> VoteBoostWeights(const std::vector<uint32_t>& votes,
                                             int32_t num_classes, int32_t t, double a, double b);

/// The Laplace-corrected vote share each weight of VoteBoostWeights is the emphasis of, after `t`
/// >= 0 trees: per row of `votes` (rows x num_classes, row-major, each row summing to t),
/// p_r = (t_1 + 1) / (t + 2) for 2 classes (class index 1 is the paper's "+"), else
/// (max_k t_k + 1) / (t + num_classes). Fails with kInvalidArgument (num_classes < 2, a row whose
/// counts do not sum to t) or kShapeMismatch (votes.size() not a multiple of num_classes, or zero
/// rows).
Result<std::vector<double>> VoteBoostShares(const std::vector<uint32_t>& votes,
                                            int32_t num_classes, int32_t t);

/// The paper's grid of a = b values for cross-validation.
const std::vector<double>& EmphasisGrid();

/// Options of SelectEmphasisByCV.
struct EmphasisCvOptions {
  std::vector<double> grid = EmphasisGrid();  ///< Candidate a = b values, each > 0.
  int32_t folds = 10;                         ///< Stratified folds (protocol.h RepeatedKFold).
  /// Trees per ensemble inside the CV; 0 = the training options' num_trees (the paper's choice).
  int32_t num_trees = 0;
  uint64_t seed = 1;  ///< Folds and the CV ensembles derive from it.
};

/// Cross-validation error of every grid value and the chosen one.
struct EmphasisSelection {
  double chosen = 1.0;             ///< The selected a = b.
  std::vector<double> grid;        ///< As given.
  std::vector<double> cv_error;    ///< Percent of training rows misclassified, per grid value.
};

/// Chooses a = b for vote-boosting by stratified k-fold cross-validation on `data`: for every grid
/// value and fold, trains Train(train folds, options with voteboost.a = value, b = 0 (symmetric))
/// and counts the held-out fold's errors of the unweighted majority vote (ties: lowest class).
/// All grid values use the same folds and the same per-fold seeds. The value with the fewest
/// errors wins; ties go to the value closest to 1 in |ln a| (then to the smaller one), i.e. towards
/// bagging / random forest, the least emphasis. Fails with kInvalidArgument (options.ensemble not
/// kVoteBoost, an empty grid or a value <= 0, folds out of range) or like Train. `progress` (may be
/// empty) is called after every tree of every cross-validation ensemble with (trees done, total
/// trees = folds x grid values x trees per ensemble, EmphasisCvTrees); returning false cancels
/// (kInvalidArgument "cancelled").
Result<EmphasisSelection> SelectEmphasisByCV(const Dataset& data, const TrainOptions& options,
                                             const EmphasisCvOptions& cv = {},
                                             const ProgressFn& progress = {});

/// The trees SelectEmphasisByCV grows: folds x grid values x (cv.num_trees, or options.num_trees
/// when 0).
int64_t EmphasisCvTrees(const TrainOptions& options, const EmphasisCvOptions& cv);

}  // namespace urnforest
