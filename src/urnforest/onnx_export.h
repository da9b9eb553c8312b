#pragma once
// ONNX export: a Forest (trained here, boosted, or imported) written as an ONNX file whose
// TreeEnsembleClassifier gives, in ONNX Runtime, the label urnforest predicts on every float32
// row, with scores that are the forest's own (vote fractions, or the imported model's scores).
#include <cstdint>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Writes `forest` as an ONNX model (IR version 8; opsets "" 15 and "ai.onnx.ml" 3; producer
/// "urnforest" and its version). The graph has one input "X", float [N, num_features()]: numeric
/// features as numbers, categorical features as their category index (schema order), NaN for a
/// missing value, exactly the rows of ModelRows. One `TreeEnsembleClassifier` node produces
/// "label" ([N]; int64 when every class name is an integer in canonical decimal form, strings
/// otherwise) and "probabilities" (float [N, num_classes()]). Trees keep their order; tree t is
/// written from its root with node ids in pre-order (a node shared by two parents, as an imported
/// BRANCH_EQ pair leaves them, is written once per path, except that such a pair is written back
/// as one BRANCH_EQ node).
///
/// Splits: numeric ones as BRANCH_LEQ on the float32 threshold, NaN following
/// nodes_missing_value_tracks_true; a categorical split as a chain of BRANCH_NEQ nodes over the
/// categories that do not go the missing-value way (each sends its category, on its false branch,
/// to that side's subtree; the chain's end is the missing-value side), so NaN, out-of-range and non-integral
/// values go where Forest::TreeVote sends them. The chain copies the matched side's subtree once
/// per category in it.
///
/// Leaves: a forest trained here votes one class per leaf with weight w = floor(2^24 / T) / 2^24
/// (about 1/T; every partial sum is exact in float32, so ONNX Runtime's label is the majority
/// vote with ties to the lowest class index, in any summation order), probabilities = votes * w
/// (within T * 2^-24 of votes / T). Three or more classes: every class listed per leaf (zeros
/// included). Two classes: ONNX Runtime's binary layout (class id 0 holds the second class's
/// weight), label = second class iff its score > 0.5, so a tie goes to the first class. AdaBoost
/// (tree_weights() non-empty): the weighted vote with weights floor(2^24 alpha_t / sum alpha) /
/// 2^24, so the label is PredictWeighted's except for rows within T * 2^-24 of a tie. Imported
/// forests: their leaf values (rounded to float32), base values and post transform as imported
/// (ImportedModel), so ImportOnnx of the result predicts what the forest predicts.
///
/// Fails with kInvalidArgument for a forest without trees; kUnsupportedModel for a two-class
/// forest (trained here, not AdaBoost) of more than 4,186 trees (with weights on the 2^-24 grid,
/// float32 could not separate a tie from a majority of one vote for every such T), AdaBoost
/// weights whose sum is not positive and finite, or an imported two-class model that scores both classes separately (ONNX Runtime labels that layout by the
/// sign of the second score, not by the larger one); kLimitExceeded when the written trees would
/// exceed 2^26 nodes or 2^28 class weights (categorical chains and shared nodes copy subtrees).
Result<std::vector<uint8_t>> ExportOnnx(const Forest& forest);

}  // namespace urnforest
