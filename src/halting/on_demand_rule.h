#pragma once
// Private: halting decisions made for the tallies rows actually reach (TableLayout::kOnDemand),
// memoised, for any number of classes and trees.
//
// The prior is a finite mixture (weights sum to 1) of
//  * Dirichlet components (siba: Dirichlet(1); 1dir; ndir; hyper's uniform part), whose posterior
//    given a partial tally is DM(m; beta + t) (see dirichlet_urn.h), and
//  * point masses at final tallies N of T votes (hyper: the out-of-bag tallies of the training rows
//    rescaled to T, smoothed for l <= 4), whose likelihood is the multivariate hypergeometric
//    prod_j N_j^(t_j falling) / T^(n falling) and whose verdict is certain (k wins N or not).
// Posterior weights are formed in log space. 1 - P* = sum_points post_i [k does not win N_i]
// + sum_c post_c (1 - P*_c). Each Dirichlet term is exact (DirichletLoseExact) while its cost is
// within `exact_budget`, else the union bound over rivals (DirichletPairLose; exact for l = 2).
// Halting is decided on that value, so a bounded decision never halts where the exact rule would
// not. States far from halting are recognised first without the O(m) work (certified shortcuts:
// point mass alone already above 1 - alpha; all of the Dirichlet mass could not reach it), and for
// the union bound by a normal approximation that is only ever used to *not* halt.
//
// The infinite rule ([HMS11] Eq. 8) is served the same way: L = prod_{j != k} P(p_k > p_j | t).
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "urnforest/halting_rule.h"
#include "urnforest/prior.h"

namespace urnforest::internal {

/// What an on-demand rule decides with.
struct OnDemandConfig {
  /// The rule: one whose traits say infinite_ensemble (infinite) decides by the product rule, the
  /// others by the finite-T posterior.
  HaltingRule rule = HaltingRule::kSiba;
  int32_t num_trees = 101;
  int32_t num_classes = 2;
  double alpha = 0.99;
  std::vector<DirichletComponent> dirichlet;  ///< Dirichlet components (weights included).
  std::vector<int32_t> support;               ///< Point masses, support[i * l + c], each sums to T.
  std::vector<double> support_weights;        ///< One weight per point mass.
  /// Largest DirichletExactCost, summed over the components that matter, evaluated exactly; beyond
  /// it the union bound.
  double exact_budget = 5e4;
  /// Skip the union bound (no halt) when its normal approximation exceeds this many times 1 - alpha.
  double screen_factor = 2.0;
};

/// A memoised rule. Thread-safe (the memo is guarded by a mutex).
class OnDemandRule {
 public:
  explicit OnDemandRule(OnDemandConfig config);

  const OnDemandConfig& config() const { return config_; }
  /// True when voting may stop at `tally` (l counts, sum <= T).
  bool Halts(const int32_t* tally) const;
  /// The certified lower bound on P* (exact where exact), or L for the infinite rule; 0 without a
  /// strict leader.
  double Confidence(const int32_t* tally) const;
  /// True when Confidence(tally) is exact: every Dirichlet component exact (l = 2, or their cost
  /// within exact_budget); the infinite rule for l = 2.
  bool ExactAt(const int32_t* tally) const;
  /// Tallies memoised so far.
  size_t MemoEntries() const;
  /// Bytes held: configuration, log-factorials and memo.
  size_t MemoryBytes() const;

 private:
  struct Verdict {
    bool halts = false;
    double confidence = -1.0;  // < 0: not computed yet
  };
  Verdict Evaluate(const int32_t* tally, bool need_confidence) const;
  double InfiniteConfidence(const int32_t* tally, int32_t k) const;
  // InfinitePairProbability(a, b), memoised (rows share their leader-rival counts).
  double PairProbability(int32_t a, int32_t b) const;
  // 1 - P* for leader k with m votes to come, from the posterior weights w (Dirichlet components
  // first, unnormalised, sum `total`), `lose` the point masses' share and `dirichlet_mass` the
  // Dirichlet components' share. `decide`: stop as soon as the comparison with `limit` is known
  // (certified shortcuts) and screen far states (returns 1); else the full value.
  double LoseWithin(const int32_t* t, int32_t k, int32_t m, const std::vector<double>& w,
                    double total, double lose, double dirichlet_mass, double limit,
                    bool decide) const;

  OnDemandConfig config_;
  bool infinite_ = false;  // RuleTraits(config_.rule).infinite_ensemble, looked up once
  std::vector<double> log_factorial_;  // log n!, n = 0..T
  std::vector<double> log_weight_;     // log of each Dirichlet weight, then each point weight
  mutable std::mutex mutex_;
  mutable std::unordered_map<uint64_t, size_t> index_;  // tally hash -> memo slot
  mutable std::vector<int32_t> memo_tallies_;           // slot s: [s * l, (s + 1) * l)
  mutable std::vector<Verdict> memo_;
  mutable std::unordered_map<uint64_t, double> pair_cache_;  // infinite: (a << 32 | b) -> P
};

}  // namespace urnforest::internal
