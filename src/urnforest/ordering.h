#pragma once
// Ordered aggregation (static pruning by greedy reordering, [Sot11] §2.2.1, [MHS09]): reorders all
// T trees of an ensemble with a heuristic evaluated on labelled data (the training data by
// default); pruning keeps the first k. Every ordering works on a VoteMatrix computed once.
//
// Conventions shared by all orderings (choices the thesis leaves open; see docs/pruning.md):
//  * Ties between candidates go to the lowest tree index; every ordering is deterministic.
//  * A subensemble's prediction H_S is the unweighted plurality vote of its trees, ties going to
//    the lowest class index (tree weights are ignored by every ordering).
//  * Orderings whose criterion is undefined for the empty subensemble (complementarity, kappa)
//    start with the tree of lowest error; the others start where their own criterion leads.
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/vote_matrix.h"

namespace urnforest {

/// Ordering heuristics. Names (OrderingName) are the CLI's and JS's strings.
enum class Ordering : int32_t {
  kEarly = 0,           ///< "early": generation order, s_u = h_u (Eq. 2.4; BAG21 = first 21).
  kReduceError = 1,     ///< "reduce-error": argmax voted accuracy of S + h_k (Eq. 2.13).
  kComplementarity = 2, ///< "complementarity": argmax #{h_k right and H_S wrong} (Eq. 2.14).
  kMarginDistance = 3,  ///< "margin-distance": MDM, argmin ||o - (c_k + sum_S c)/T|| (Eq. 2.16).
  kOrientation = 4,     ///< "orientation": sort by angle between c_k and c_ref (Eqs. 2.17-2.19).
  kBoosting = 5,        ///< "boosting": boosting-based ordering (Eqs. 2.10-2.12; OB21).
  kKappa = 6,           ///< "kappa": argmin kappa(h_k, H_S) (Eq. 2.9 form, not pairwise).
  kGreedySdp = 7,       ///< "greedy-sdp": argmin G_kk + 2 sum_{i in S} G_ik (greedy Eq. 2.20).
};

/// Number of orderings; valid values are 0..kNumOrderings-1.
inline constexpr int32_t kNumOrderings = 8;

/// Stable name of an ordering ("early", "reduce-error", "complementarity", "margin-distance",
/// "orientation", "boosting", "kappa", "greedy-sdp"). Never null.
const char* OrderingName(Ordering ordering);

/// Parses an ordering name (exact, lower case). Fails with kInvalidArgument naming the string.
Result<Ordering> ParseOrdering(const std::string& name);

/// The ordering names in enum order (OrderingName of 0..kNumOrderings-1).
const std::vector<std::string>& OrderingNames();

/// What to compute.
struct OrderingOptions {
  Ordering ordering = Ordering::kBoosting;
  /// reduce-error only: back-fitting passes after each addition (each pass tries to replace every
  /// selected tree by the pool tree that most improves the voted accuracy; a replacement is kept
  /// only when it strictly improves it). 0 = no back-fitting (the default). 0..100.
  int32_t backfit_passes = 0;
  /// margin-distance only: every coordinate of the reference point o, in (0, 1). The thesis gives
  /// the range (0.05, 0.25) without a value; 0.075 is the value of Martinez-Munoz & Suarez 2004.
  double mdm_p = 0.075;
};

/// The order of all T trees (a permutation of 0..T-1): position u holds the u-th tree selected.
/// Cost: early O(T); orientation O(TN + T log T); boosting O(T^2 N_wrong); greedy-sdp
/// O(T^2 N / 64); complementarity O(T^2 N / 64 + T N l); reduce-error, kappa, margin-distance
/// O(T^2 N) (+ back-fitting O(passes T^3 N)). Fails with kInvalidArgument (bad options, empty
/// matrix: no rows).
Result<std::vector<int32_t>> OrderTrees(const VoteMatrix& matrix, const OrderingOptions& options);

/// Convenience: ComputeVoteMatrix(forest, data) then OrderTrees. `data` is normally the training
/// data (the model does not store it). Fails like both.
Result<std::vector<int32_t>> OrderForest(const Forest& forest, const Dataset& data,
                                         const OrderingOptions& options);

/// The default pruning size: ceil(0.2 * T), at least 1; 21 for T = 101 as the thesis's OB21
/// (round(0.2 * 101) would be 20, so "round(0.2 T) = 21" in the notes cannot be taken literally).
int32_t DefaultKeep(int32_t num_trees);

/// Error-versus-size curve (thesis Fig. 3.1): entry u - 1 is the error rate (fraction of rows, in
/// [0, 1]) of the subensemble made of the first u trees of `order`, u = 1..order.size(), combined
/// as the ensemble combines (weighted by matrix.tree_weights when present, plurality otherwise;
/// ties to the lowest class index). `order` may be any list of distinct tree ids (a prefix
/// too). Fails with kInvalidArgument (bad or repeated id, no rows).
Result<std::vector<double>> ErrorCurve(const VoteMatrix& matrix, const std::vector<int32_t>& order);

/// Checks that `order` is a permutation of 0..num_trees-1 (kInvalidArgument naming the problem).
Status ValidateOrder(const std::vector<int32_t>& order, int32_t num_trees);

}  // namespace urnforest
