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

/// Which votes an ordering is evaluated on (OrderingOptions::on). Names (OrderingSourceName):
/// "data", "oob".
enum class OrderingSource : int32_t {
  /// Every tree's vote on every row of the given labelled data (the thesis's choice, [Sot11]
  /// §2.2.1: "over the training set"). Honest for trees pruned by cost-complexity (which err on
  /// their own training rows) or for held-out data; see OrderingWarnings.
  kData = 0,
  /// Out-of-bag votes: tree t is scored only on the training rows its bootstrap sample left out
  /// (replayed from the model's seed, as PruneForest does). Needs the exact training data and a
  /// random forest or bagging model; implemented for the "early" and "boosting" orderings.
  kOutOfBag = 1,
};

/// "data" or "oob". Never null.
const char* OrderingSourceName(OrderingSource source);

/// Parses "data" or "oob". Fails with kInvalidArgument naming the string.
Result<OrderingSource> ParseOrderingSource(const std::string& name);

/// What to compute.
struct OrderingOptions {
  Ordering ordering = Ordering::kBoosting;
  /// The votes the ordering is evaluated on (OrderForest only; OrderTrees takes a matrix).
  OrderingSource on = OrderingSource::kData;
  /// reduce-error only: back-fitting passes after each addition (each pass tries to replace every
  /// selected tree by the pool tree that most improves the voted accuracy; a replacement is kept
  /// only when it strictly improves it). 0 = no back-fitting (the default). 0..kMaxBackfitPasses.
  int32_t backfit_passes = 0;
  static constexpr int32_t kMaxBackfitPasses = 100;  ///< Largest backfit_passes OrderTrees accepts.
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

/// ComputeVoteMatrix(forest, data) then OrderTrees, or with options.on == kOutOfBag the
/// out-of-bag ordering (see OrderingSource; `data` must then be the exact training set). `data` is
/// normally the training data (the model does not store it). Fails like both, and with
/// kInvalidArgument for kOutOfBag on an ordering other than early and boosting, an AdaBoost,
/// vote-boosted or imported model, or with kShapeMismatch when `data` is not the training set.
Result<std::vector<int32_t>> OrderForest(const Forest& forest, const Dataset& data,
                                         const OrderingOptions& options);

/// Boosting-based ordering on out-of-bag votes (OrderForest with OrderingSource::kOutOfBag): the
/// weights live on the training rows as in Eqs. 2.10-2.12, but candidate k's weighted error is
/// taken over its own out-of-bag rows only (normalised by their weight), and the selected tree
/// reweights only its out-of-bag rows (w / 2 eps wrong, w / 2 (1 - eps) right, so their total is
/// kept); eps of 0 or >= 0.5 resets the weights to uniform, a tree with no out-of-bag row scores
/// eps = 1. `in_bag` is tree-major, T x N (nonzero = row r is in tree t's bootstrap sample).
/// Fails with kShapeMismatch on sizes.
Result<std::vector<int32_t>> OrderBoostingOutOfBag(const VoteMatrix& matrix,
                                                   const std::vector<uint8_t>& in_bag);

/// Warnings about ordering `forest` on `data` with `options` (empty when there is nothing to
/// say), in plain English for the CLI's and JS's `warnings` fields. Today one: ordering trees
/// grown to purity (no cost-complexity pruning, max_depth and min_leaf at their defaults) on their
/// own training data with an ordering other than "early": every tree is right on its in-bag rows
/// (about 63 % of them), so the training votes barely tell the trees apart and the ordering has
/// little to choose from. The papers order bagged CART pruned by cost-complexity ([Sot11] §3.3,
/// docs/pruning.md "Protocol"); out-of-bag votes or held-out data are the honest alternatives.
std::vector<std::string> OrderingWarnings(const Forest& forest, const Dataset& data,
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
