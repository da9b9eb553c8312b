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

/// Owns one Forest. Created empty by JS, then filled by Train, Load or LoadPruned, each of which
/// returns undefined (or Train's extra result) or an error object.
class ForestHandle {
 public:
  /// Trains on `data` the request of JS object `spec` (TrainRequestFromJs, plus seedHi and
  /// seedLo) with TrainWithEmphasisSelection; `progress` is a JS function (done, total) -> bool or
  /// undefined. Returns undefined, an error object, or with voteboost.cv {emphasis: {chosen, grid:
  /// Float64Array, cvError: Float64Array}}.
  val Train(const DatasetHandle& data, const val& spec, val progress);

  /// Trees first .. first + count - 1 of Train's forest (TrainForestPart; rf and bagging only);
  /// undefined or an error object.
  val TrainPart(const DatasetHandle& data, const val& spec, int32_t first, int32_t count, val progress);

  /// The whole forest from the bytes of its parts (`parts`: array of Uint8Array, in tree order;
  /// MergeForestParts); undefined or an error object.
  val MergeParts(const val& parts);

  /// The training options stored in the model that describe its learner: {ensemble (name),
  /// maxDepth, minLeaf, vbA, vbB (resolved), vbBase (name), treePruning ('cv' when PrunesTrees, the
  /// pruned-CART base included, else 'none'), pruningFolds, pruningSe, grownToPurity
  /// (GrownToPurity)}.
  val LearnerOptions() const;

  /// `bytes` Uint8Array of SerializeForest output.
  val Load(const val& bytes);

  /// Replaces the forest with the ONNX model in `bytes` (Uint8Array; ImportOnnx) whose columns are
  /// called `feature_names` (array of strings, or undefined for f0, f1, ...); undefined or an
  /// error object. `class_names`: array of strings renaming the classes, or undefined.
  val LoadOnnx(const val& bytes, const val& feature_names, const val& class_names, const std::string& target);
  /// Replaces the forest with the XGBoost JSON model in `bytes` (Uint8Array of the file's UTF-8
  /// text; ImportXGBoost); names as LoadOnnx (undefined: the names the file stores, else f0, f1,
  /// ... and classes 0..K-1). Undefined or an error object.
  val LoadXGBoost(const val& bytes, const val& feature_names, const val& class_names, const std::string& target);
  /// {kind, vote, source, calibrated, calibrationRows} of an imported forest, or null.
  val Imported() const;
  /// CalibrateForestReport on the rows of `data` for `alpha`: {rows, distinctRows,
  /// maxCertifiableAlpha, rowsNeeded, alpha, warnings: [{code, message}]} or an error object.
  val Calibrate(const DatasetHandle& data, double alpha);
  /// ExportOnnx: the ONNX file as a Uint8Array, or an error object.
  val ToOnnx() const;

  /// Int32Array order of all trees on labelled `data` by the keys `spec` has (ordering and on:
  /// names, backfit, mdmP; OrderingOptions' defaults for the others), or an error object.
  val Order(const DatasetHandle& data, const val& spec) const;

  /// Array of strings: OrderingWarnings for ordering on `data` with `spec` (as Order), or an
  /// error object.
  val OrderingWarningsOf(const DatasetHandle& data, const val& spec) const;

  /// Float64Array: error of the first u trees of `order` on labelled `data`, u = 1..order.length.
  val ErrorCurveOf(const DatasetHandle& data, const val& order) const;
  /// FeatureImportance on `data` with method `method` (a name) and the seed's halves: a
  /// Float64Array of numFeatures values, or an error object.
  val FeatureImportanceOf(const DatasetHandle& data, const std::string& method, double seed_hi,
                          double seed_lo) const;

  /// Fills this handle with the first `keep` trees of `order` of `source` (PruneForest);
  /// `training` (may be null) is the exact training set, for exact out-of-bag votes.
  val LoadPruned(const ForestHandle& source, const val& order, int32_t keep,
                 const DatasetHandle* training);

  /// The prior `rule` (a rule name) needs for tables of `trees` queried trees: {kind,
  /// classes, trees, components: [{weight, beta: Float64Array}], finalTallyMass: Float64Array
  /// (l <= 4) or null}.
  val PriorOf(const std::string& rule, int32_t trees) const;

  /// Trace of one row: {trees, votes, confidence, treesUsed, haltedEarly, classIndex,
  /// fullClassIndex (VoteTrace::full_label), fullVotes: Uint32Array (the traced trees' votes,
  /// AccumulateVotesOf)}. `order`: a query-order name ('generation' or 'random', with the seed's
  /// halves).
  val Trace(const DatasetHandle& data, double row, const HaltingTableHandle& table,
            const std::string& order, double seed_hi, double seed_lo) const;

  /// Expected cost of `table` from the training data (ReportCostFromTraining with `samples`
  /// Monte Carlo draws, 0 = none) as CostObject.
  val ExpectedCost(const HaltingTableHandle& table, double samples, double seed_hi,
                   double seed_lo) const;

  /// The name of DefaultQueryOrder(forest): 'generation' or 'random'.
  std::string DefaultOrder() const;

  /// FinalTallyPosterior of `tally` (Int32Array of num_classes counts) over final tallies of
  /// `trees` votes with the prior of `rule` (a name; PriorForForest): {numClasses, numTrees,
  /// tallies: Int32Array, probability: Float64Array, win: Float64Array, leader} or an error object.
  val Posterior(const std::string& rule, int32_t trees, const val& tally) const;

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
