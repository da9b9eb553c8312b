#pragma once
// Halting tables: built once per model (and per alpha), one O(1)-ish lookup per vote.
//
// Semantics (thesis): with a partial tally t (sum t <= T), voting may stop only when one class k is
// the strict current leader and the rule's confidence for k reaches the target; the answer is k.
// The finite-T confidence P*(t) is the posterior probability that k is the strict winner of the
// full T-vote ensemble (a final tie counts as disagreement). Tables are built for the number of
// trees actually queried (e.g. 21 after static pruning).
//
// Layouts:
//  * kThresholds (l <= 4; siba, hyper, 1dir, ndir, optimal): per class c and per vector o of the
//    other l-1 counts, the minimum count of c from which every feasible larger count halts.
//    thresholds[c][rank(o)], rank as in Prior::Histogram over (o_1..o_{l-1}, T - sum o). For l = 2
//    this is "per class, minimum count of that class for each count k of the other": rank(o) = k.
//    Built by backward recursion over tallies with predictive probabilities, on the complement
//    1 - P* (a sum of non-negative terms, so its relative error stays ~1e-14; see min_relative_gap).
//    If the exact halting set is not monotone in t_c the stored threshold is the conservative one
//    (never halts where the exact rule would not) and monotone() is false.
//  * kPairwiseBound (l >= 5 with siba or a symmetric 1dir, or on request): certified-conservative
//    union bound 1 - P* <= sum_{j != k} P(T_j >= T_k | t), each term exact from a 3-class urn
//    (k, j, rest) by the aggregation property of the Dirichlet-multinomial. Halts only where the
//    exact rule halts too. Memory C(T + 3, 3) doubles.
//  * kOnDemand (every rule, any l, any T; chosen when the full table would not be small): decisions
//    for the tallies rows reach, computed when first reached and memoised (halting/
//    on_demand_rule.h). The prior is a mixture of point masses at final tallies (hyper) and
//    Dirichlet components (siba, 1dir, ndir, hyper's uniform part); point masses are exact, a
//    Dirichlet component is exact while (l - 1) m^3 / 6 <= exact_budget (m votes to come), else the
//    certified union bound above (exact for l = 2). optimal beyond its size limit decides with its
//    prior's P* rule at alpha (optimal_fallback()); infinite computes its product per tally.
//  * kLeadRule (alpha1): halt iff t_(1) - t_(2) > T - t. Identical to the full vote.
//  * kInfiniteProduct (infinite): L = prod_{j != k} P(p_k > p_j | t), P(p_a > p_b) =
//    F_Bin(a+b+1, 1/2)(a); halt iff L > alpha strictly (alpha plays the role of pi).
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "urnforest/alpha.h"
#include "urnforest/halting_rule.h"
#include "urnforest/prior.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {
class BinaryTableView;
class OnDemandRule;
}  // namespace internal

/// How a table stores its decision (see the file comment).
enum class TableLayout : int32_t {
  kThresholds = 0,
  kPairwiseBound = 1,
  kLeadRule = 2,
  kInfiniteProduct = 3,
  kOnDemand = 4,
};

/// Stable name of a layout ("thresholds", "pairwiseBound", "leadRule", "infiniteProduct",
/// "onDemand"; "unknown" otherwise), as the CLI and JS report it. Never null.
const char* LayoutName(TableLayout layout);

/// Progress of a table build: (steps done, total steps); returning false cancels the build.
using BuildProgressFn = std::function<bool(int64_t done, int64_t total)>;

/// What to build.
struct HaltingTableOptions {
  HaltingRule rule = HaltingRule::kSiba;
  int32_t num_trees = 101;         ///< T, the number of trees actually queried; 1..100000.
  int32_t num_classes = 2;         ///< l, 2..kMaxClasses (kThresholds layouts need l <= 4).
  double alpha = kDefaultAlpha;  ///< Target confidence in (0, 1]; alpha1 ignores it.
  bool force_pairwise_bound = false;  ///< Use kPairwiseBound even for l <= 4 (tests, comparison).
  bool force_on_demand = false;       ///< Use kOnDemand even where a full table is small.
  /// kOnDemand: largest (l - 1) m^3 / 6 multiply-adds spent on an exact Dirichlet P* per tally.
  double exact_budget = 5e4;
  /// Called while a full table (kThresholds, kPairwiseBound) is built, after each step of its
  /// recursion, with (steps done, total steps); returning false stops the build, which then fails
  /// with kInvalidArgument "cancelled". May be empty. The other layouts build in O(T) or O(T^2)
  /// and never call it.
  BuildProgressFn progress;
  static constexpr int32_t kMaxClasses = 4096;  ///< Largest num_classes BuildHaltingTable accepts.
  /// Full tables (kThresholds, kPairwiseBound) are built up to this many states, C(T + l, l) and
  /// C(T + 3, 3); beyond, kOnDemand.
  static constexpr int64_t kEagerStates = 5'000'000;
  /// The optimal rule's backward induction runs up to this many states (l <= 3); beyond, its
  /// prior's P* rule decides (kOnDemand, optimal_fallback()).
  static constexpr int64_t kOptimalStates = 2'000'000;
};

/// True when BuildHaltingTable builds a full kThresholds table for `rule` with these sizes (and no
/// force_* option): l <= 4 and C(T + l, l) <= kEagerStates (optimal: l <= 3 and kOptimalStates).
bool EagerTableFits(HaltingRule rule, int32_t num_trees, int32_t num_classes);

/// A built table. Copyable value type; thread-safe for concurrent reads.
class HaltingTable {
 public:
  HaltingTable() = default;

  HaltingRule rule() const { return rule_; }
  TableLayout layout() const { return layout_; }
  int32_t num_trees() const { return num_trees_; }
  int32_t num_classes() const { return num_classes_; }
  double alpha() const { return alpha_; }
  /// kThresholds: false if some exact halting set was not monotone (thresholds made conservative).
  bool monotone() const { return monotone_; }
  /// kThresholds: min over decided leader states of |(1 - P*) - (1 - alpha)| / (1 - alpha): how far
  /// the closest decision sits from the threshold, relative (double error is ~1e-14). NaN otherwise.
  double min_relative_gap() const { return min_relative_gap_; }
  /// kOnDemand optimal tables: true (decided by the prior's P* rule, not backward induction).
  bool optimal_fallback() const { return optimal_fallback_; }
  /// kOnDemand: tallies decided so far (memoised); 0 for the other layouts.
  size_t MemoEntries() const;
  /// Bytes the table holds (stored decisions, pair tables, the on-demand prior and memo).
  size_t MemoryBytes() const;

  /// Strict leader of a tally of num_classes() counts, or -1 on a tie for first place.
  int32_t Leader(const int32_t* tally) const;
  /// True when voting may stop at `tally` (num_classes() counts, each >= 0, sum <= num_trees()).
  bool Halts(const int32_t* tally) const;
  /// The rule's value for the strict leader: P* (kThresholds, stored as float), the conservative
  /// lower bound (kPairwiseBound), L (kInfiniteProduct), 1 or 0 (kLeadRule). 0 without a leader.
  double Confidence(const int32_t* tally) const;
  /// True when Confidence(tally) is the rule's exact value: kThresholds, kLeadRule; kOnDemand when
  /// neither a union bound nor a rate atom enters (see the file comment); kInfiniteProduct and
  /// kPairwiseBound for two classes.
  bool ConfidenceIsExact(const int32_t* tally) const;
  /// Minimum count of class c from which `tally`-like states halt, for the other counts `others`
  /// (l - 1 counts in class order, skipping c). Returns num_trees() + 1 when no count halts.
  int32_t MinLeaderVotes(int32_t c, const int32_t* others) const;
  /// Binary tables: entry k = MinLeaderVotes(c, {k}) for k = 0, 1, ... while a halt is possible
  /// (the CLI's "min_majority" list). Empty for l != 2.
  std::vector<int32_t> BinaryThresholds(int32_t c) const;

  /// Versioned little-endian bytes (magic "UFHT", version 1) holding everything needed to answer
  /// queries; a model file can store them as a section.
  std::vector<uint8_t> ToBytes() const;
  /// Inverse of ToBytes. Fails with kCorruptModel / kUnsupportedVersion.
  static Result<HaltingTable> FromBytes(const uint8_t* data, size_t size);

 private:
  friend Result<HaltingTable> BuildHaltingTable(const HaltingTableOptions&, const Prior*);
  friend class HaltingTableBuilder;
  friend class internal::BinaryTableView;  // the two-class fast path of sequential voting
  int64_t StateRank(const int32_t* tally) const;
  int64_t OthersRank(int32_t c, const int32_t* tally) const;
  double PairBound(const int32_t* tally, int32_t k, int32_t n) const;

  HaltingRule rule_ = HaltingRule::kSiba;
  TableLayout layout_ = TableLayout::kLeadRule;
  int32_t num_trees_ = 0;
  int32_t num_classes_ = 0;
  double alpha_ = 1.0;
  bool monotone_ = true;
  double min_relative_gap_ = 0.0;
  bool optimal_fallback_ = false;
  /// kOnDemand: the memoised rule (shared by copies; thread-safe).
  std::shared_ptr<const internal::OnDemandRule> on_demand_;
  /// kThresholds: thresholds_[c * per_class + rank(o)] (uint16, T + 1 = never).
  std::vector<uint16_t> thresholds_;
  /// kThresholds: leader's P* per state, pstar_[rank of (t_1..t_l, T - sum t)] (0 without leader).
  std::vector<float> pstar_;
  /// kPairwiseBound: pair_[rank of (a, b, s, T - a - b - s)] = P(T_b >= T_a | a, b, rest s).
  /// kInfiniteProduct: pair_[a * (T + 1) + b] = 1 - P(p_a > p_b | a, b).
  std::vector<double> pair_;
  std::vector<int64_t> binom_;  // C(n, i), n <= T + l + 1, i <= l (rank helper)
  /// Derived from thresholds_ (two-class kThresholds tables; see internal::BinaryTableView); not
  /// stored.
  std::vector<int32_t> zero_wins_up_to_;
  std::vector<int32_t> one_wins_from_;
  int32_t min_votes_to_halt_ = 1;
  void InitBinom();
  /// Sets the derived members above from thresholds_ (once the table is complete).
  void DeriveBinaryBounds();
};

/// Builds a table: a full one where it is small (EagerTableFits; symmetric priors with l >= 5 get
/// kPairwiseBound up to kEagerStates), else kOnDemand, which costs O(T + prior size) to build.
/// `prior` is required for hyper (histogram or tally mixture with prior->num_trees() == T), 1dir
/// (Dirichlet), ndir (mixture) and optimal (any of these), ignored otherwise. Rebuild with another
/// alpha and the same prior to change the target without retraining.
/// Fails with kInvalidArgument (alpha, T, l out of range; missing/wrong prior), kShapeMismatch
/// (prior classes/trees differ), kOutOfMemory.
Result<HaltingTable> BuildHaltingTable(const HaltingTableOptions& options,
                                       const Prior* prior = nullptr);

}  // namespace urnforest
