// HaltingTableHandle: the embind object that owns one halting table and the prior it was built
// for; plus P* of a tally for the rules that need no data prior.
#pragma once

#include <cstdint>
#include <string>

#include <emscripten/val.h>

#include "urnforest/halting_table.h"
#include "urnforest/prior.h"

namespace urnforest::wasm {

using emscripten::val;

class ForestHandle;

/// Owns one HaltingTable and the prior it was built for (used for its expected cost). Created
/// empty by JS, then filled by Build, BuildForForest or Load, each of which returns undefined or an
/// error object. Rules cross as names (ParseRule).
class HaltingTableHandle {
 public:
  /// A table for a rule needing no data prior (alpha1, siba, infinite), with the uniform prior.
  /// `spec`: {rule (name), trees?, classes?, alpha?}; absent keys keep HaltingTableOptions'
  /// defaults. `progress`: a JS function (done, total) -> keep going, called while a full table is
  /// built (HaltingTableOptions::progress), or undefined.
  val Build(const val& spec, val progress);

  /// The table of `rule` (a name) for `forest` and `trees` queried trees with the rule's prior
  /// (BuildForestTableWithPrior: a table stored with the model is used as is). `progress` as
  /// Build's. Returns {fromStore: bool}, or an error object.
  val BuildForForest(const ForestHandle& forest, const std::string& rule, double alpha,
                     int32_t trees, val progress);

  /// From ToBytes() bytes; such a table has its uniform prior only for alpha1/siba/infinite.
  val Load(const val& bytes);

  // Tallies are validated by the JS side (num_classes counts >= 0, sum <= T).
  bool Halts(const val& tally) const;
  double Confidence(const val& tally) const;
  int32_t Leader(const val& tally) const;
  int32_t MinLeaderVotes(int32_t c, const val& others) const;
  /// HaltsMany of `tallies` (Int32Array, n x classes, row-major): a Uint8Array of n decisions, or
  /// an error object.
  val HaltsManyOf(const val& tallies) const;
  val BinaryThresholds(int32_t c) const;

  /// Exact cost for one final tally (validated by the JS side), plus Monte Carlo when samples > 0,
  /// as CostObject.
  val ExpectedCostFinal(const val& final_tally, double samples, double seed_hi,
                        double seed_lo) const;

  /// HaltedVoteShares of `tallies` (Int32Array, rows x classes: the votes each row drew) under the
  /// table's prior, or, for a table read from bytes without one, the forest's prior for the table's
  /// rule and T (PriorForForest): a Float64Array rows x classes, or an error object.
  val MeanShares(const ForestHandle& forest, const val& tallies) const;

  /// Cost averaged over the table's prior, as CostObject; an error object without a prior.
  val ExpectedCostOverPrior(double samples, double seed_hi, double seed_lo) const;

  val Bytes() const;
  std::string Rule() const;
  double Alpha() const { return table_.alpha(); }
  int32_t NumTrees() const { return table_.num_trees(); }
  int32_t NumClasses() const { return table_.num_classes(); }
  bool Monotone() const { return table_.monotone(); }
  /// Wall-clock milliseconds the last Build, BuildForForest or Load took (prior, table or bytes).
  double BuildMs() const { return build_ms_; }
  /// Bytes the table holds now (an on-demand table grows with its memo).
  double MemoryBytes() const { return static_cast<double>(table_.MemoryBytes()); }
  /// Tallies an on-demand table has decided so far (0 for full tables).
  double MemoEntries() const { return static_cast<double>(table_.MemoEntries()); }
  bool OptimalFallback() const { return table_.optimal_fallback(); }
  /// 'thresholds' | 'pairwiseBound' | 'leadRule' | 'infiniteProduct'.
  std::string Layout() const;

  const HaltingTable& table() const { return table_; }
  /// The prior the table was built for (meaningful after Build or BuildForForest).
  const Prior& prior() const { return prior_; }
  /// False for a table read from bytes whose rule needs a data prior.
  bool has_prior() const { return has_prior_; }

 private:
  HaltingTable table_;
  Prior prior_;
  bool has_prior_ = false;
  double build_ms_ = 0.0;
};


}  // namespace urnforest::wasm
