// ForestHandle: the embind object that owns one trained Forest (training, loading, prediction
// without halting, static pruning, priors, traces and expected costs for a halting table).
#pragma once

#include <cstdint>
#include <string>

#include <emscripten/val.h>

#include "urnforest/forest.h"

namespace urnforest::wasm {

using emscripten::val;

class DatasetHandle;
class HaltingTableHandle;

/// Sets the base-learner fields of `options` from the JS `base` object (validated by the JS side):
/// {vbA, vbB (0 = symmetric), vbBase (VoteBoostBase position), pruning (TreePruning position),
/// pruningFolds, pruningSe}. Its emphasisCv and cvTrees are read by the caller.
void ApplyBaseLearner(const val& base, TrainOptions* options);

/// Owns one Forest. Created empty by JS, then filled by Train, Load or LoadPruned, each of which
/// returns undefined (or Train's extra result) or an error object.
class ForestHandle {
 public:
  /// `ensemble` 0 rf / 1 bagging / 2 adaboost / 3 voteboost; `mtry_rule` 0 sqrt / 1 log2 /
  /// 2 log2+1; the 64-bit seed comes as two 32-bit halves; `progress` is a JS function
  /// (done, total) -> bool or undefined; `boosting` 0 resample / 1 reweight (AdaBoost only).
  /// `base`: as ApplyBaseLearner, plus emphasisCv (bool: choose a = b by SelectEmphasisByCV
  /// first) and cvTrees (0 = trees). Returns undefined, an error object, or with emphasisCv
  /// {emphasis: {chosen, grid: Float64Array, cvError: Float64Array}}.
  val Train(const DatasetHandle& data, int32_t ensemble, int32_t trees, int32_t mtry,
            int32_t mtry_rule, int32_t max_depth, int32_t min_leaf, double seed_hi, double seed_lo,
            val progress, int32_t boosting, const val& base);

  /// The training options stored in the model that describe its learner: {ensemble (position),
  /// maxDepth, minLeaf, vbA, vbB (resolved), vbBase (position), pruning (position; the pruned-CART
  /// base counts as 1), pruningFolds, pruningSe}.
  val LearnerOptions() const;

  /// `bytes` Uint8Array of SerializeForest output.
  val Load(const val& bytes);

  /// {votes: Uint32Array rows x classes, classIndex: Int32Array} or an error object.
  val Predict(const DatasetHandle& data) const;

  /// The ensemble's own prediction (weighted for AdaBoost): {classIndex: Int32Array, scores:
  /// Float64Array rows x classes} or an error object.
  val PredictWeightedRows(const DatasetHandle& data) const;

  /// Int32Array order of all trees by `ordering` (Ordering position) on labelled `data`, or an
  /// error object.
  val Order(const DatasetHandle& data, int32_t ordering, int32_t backfit, double mdm_p) const;

  /// Float64Array: error of the first u trees of `order` on labelled `data`, u = 1..order.length.
  val ErrorCurveOf(const DatasetHandle& data, const val& order) const;

  /// Fills this handle with the first `keep` trees of `order` of `source` (PruneForest);
  /// `training` (may be null) is the exact training set, for exact out-of-bag votes.
  val LoadPruned(const ForestHandle& source, const val& order, int32_t keep,
                 const DatasetHandle* training);

  /// The prior `rule` (HaltingRule position) needs for tables of `trees` queried trees: {kind,
  /// classes, trees, components: [{weight, beta: Float64Array}], finalTallyMass: Float64Array
  /// (l <= 4) or null}.
  val PriorOf(int32_t rule, int32_t trees) const;

  /// Trace of one row: {trees, votes, confidence, treesUsed, haltedEarly, classIndex}. `order` 0
  /// generation, 1 random with the seed's halves.
  val Trace(const DatasetHandle& data, double row, const HaltingTableHandle& table, int32_t order,
            double seed_hi, double seed_lo) const;

  /// Expected cost of `table` averaged over the out-of-bag data prior (smoothed histogram for
  /// l <= 4, Monte Carlo over the rows' out-of-bag tallies beyond) for the table's T; Monte Carlo
  /// with `samples` draws (0 = none) as CostObject.
  val ExpectedCost(const HaltingTableHandle& table, double samples, double seed_hi,
                   double seed_lo) const;

  /// Stores a copy of `table` with the model (Forest::StoreTable); error object on shape mismatch.
  val StoreTable(const HaltingTableHandle& table);
  /// [{rule, alpha, trees}] of the stored tables, in storage order.
  val StoredTables() const;

  val Bytes() const;
  val TrainLabels() const;
  /// Float64Array of the tree weights (empty for unweighted ensembles).
  val TreeWeights() const;
  int32_t NumTrees() const { return forest_.num_trees(); }
  int32_t NumClasses() const { return forest_.num_classes(); }
  int32_t NumFeatures() const { return forest_.num_features(); }
  double NumNodes() const { return static_cast<double>(forest_.num_nodes()); }
  double OobError() const { return forest_.oob_error(); }
  val OobVotes() const;
  val ClassNames() const;
  val FeatureNamesOf() const;
  val FeatureTypesOf() const;
  std::string TargetName() const { return forest_.schema().target_name; }

  const Forest& forest() const { return forest_; }

 private:
  Forest forest_;
};


}  // namespace urnforest::wasm
