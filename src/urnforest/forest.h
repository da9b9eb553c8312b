#pragma once
// Forest: a trained ensemble of classification trees in one flat node table, with out-of-bag votes.
// Training is declared in urnforest/train.h (included: a Forest stores its TrainOptions), the model
// bytes in urnforest/serialize.h and prediction in urnforest/predict.h.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/derived_cache.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/imported_model.h"
#include "urnforest/node_table.h"
#include "urnforest/status.h"
#include "urnforest/train.h"

namespace urnforest {

namespace internal {
class ForestAccess;
struct CompactTrees;
}  // namespace internal

struct StratifiedCalibration;

/// A trained ensemble. Trees are stored flat (one node table for the whole forest); tree t's root
/// is node `tree_roots()[t]`. Immutable after training/loading (except for the stored halting
/// tables, see StoreTable); safe to share between threads for reading.
class Forest {
 public:
  Forest() = default;

  int32_t num_trees() const { return static_cast<int32_t>(tree_roots_.size()); }
  int32_t num_classes() const { return static_cast<int32_t>(schema_.class_names.size()); }
  int32_t num_features() const { return static_cast<int32_t>(schema_.features.size()); }
  const Schema& schema() const { return schema_; }
  const TrainOptions& options() const { return options_; }
  /// An identity of schema(): never 0, drawn anew (process-wide, never reused) whenever the schema
  /// is written (training, loading, import, pruning); copies of a forest share it. Two forests with
  /// the same id have the same features, types and categories, so rows prepared for one fit the
  /// other without comparing names (PreparedRows::Fits). Different ids say nothing.
  uint64_t layout_id() const { return layout_id_; }

  /// Class index (0..num_classes-1) voted by tree `tree` for one row given as num_features()
  /// floats in schema order (NaN = missing; categorical values are category indices, and an
  /// out-of-range or non-integral one is treated as missing). Precondition: 0 <= tree <
  /// num_trees(). No allocation; a tight loop over 16-byte nodes.
  int32_t TreeVote(int32_t tree, const float* row) const;

  /// Out-of-bag vote counts of the training rows, row-major: `oob_votes()[r * num_classes() + c]`
  /// is the number of trees that did not see row r in their bootstrap sample and voted c.
  const std::vector<uint32_t>& oob_votes() const { return oob_votes_; }
  /// Training labels (class indices), one per training row, aligned with oob_votes().
  const std::vector<int32_t>& train_labels() const { return train_labels_; }
  /// Out-of-bag error: over training rows with at least one OOB vote, the expected error of the OOB
  /// majority with ties broken uniformly at random (a row whose true class ties with m - 1 others
  /// for first place counts 1 - 1/m). With ~0.37 T OOB votes per row, ties are common on hard
  /// data; counting them as plain errors overstated sonar's OOB error by about 4 points.
  /// NaN for an imported forest (it has no out-of-bag rows).
  double oob_error() const;

  /// Vote weight of each tree (AdaBoost's alpha_t >= 0), or empty for unweighted (plurality)
  /// ensembles. PredictFull and the halting engine count votes unweighted; PredictWeighted
  /// (weighted_vote.h) uses these weights.
  const std::vector<double>& tree_weights() const { return tree_weights_; }
  /// Generation index of each tree in the ensemble it was trained in (differs from 0..T-1 after
  /// PruneForest), or empty when tree t is the t-th tree generated.
  const std::vector<uint32_t>& source_trees() const { return source_trees_; }
  /// Generation index of tree t (source_trees()[t], or t when empty).
  uint32_t SourceTree(int32_t t) const {
    return source_trees_.empty() ? static_cast<uint32_t>(t) : source_trees_[t];
  }

  /// The import record when the forest came from another library (urnforest/onnx_import.h), else
  /// null. Imported forests have no training rows: oob_votes() and train_labels() then hold the
  /// calibration votes (ImportedModel::calibrated) or are empty.
  const ImportedModel* imported() const { return imported_.empty() ? nullptr : &imported_[0]; }

  /// A forest trained here, after CalibrateForest (urnforest/calibrate.h): the votes of all T trees
  /// on its calibration rows, row-major `calibration_votes()[r * num_classes() + c]` (every row
  /// sums to num_trees()), stored beside the out-of-bag votes, which they leave unchanged. Empty
  /// when not calibrated, and always for an imported forest (its calibration votes are
  /// oob_votes()). The certificate of rule 'auto' and rule 'lp' read them (ForestCalibrationRows).
  const std::vector<uint32_t>& calibration_votes() const { return calibration_votes_; }
  /// One reference label per calibration row, aligned with calibration_votes(): the full vote of
  /// all trees (plurality, ties to the lowest class) that a halted answer is compared with.
  const std::vector<int32_t>& calibration_labels() const { return calibration_labels_; }
  /// A two-class forest after CalibrateForest: the surrogate of the final vote fitted on the
  /// calibration rows, its buckets and their final counts (urnforest/stratified_stopping.h), which
  /// rule 'stratified' solves from; null otherwise. Serialized (the STRS section of the model bytes).
  const std::shared_ptr<const StratifiedCalibration>& stratified_calibration() const { return stratified_; }

  /// Stores a halting table with the model: SerializeForest writes it, DeserializeForest
  /// restores it, and BuildForestTable returns it instead of rebuilding when rule, alpha
  /// (bit-identical) and T match. Replaces a stored table with the same (rule, alpha, T). The
  /// table should have been built for this forest (BuildForestTable); only its shape is checked:
  /// kShapeMismatch when its classes differ from num_classes(), kInvalidArgument when its T exceeds
  /// num_trees(). Not thread-safe against concurrent readers of this forest.
  Status StoreTable(HaltingTable table);
  /// The stored table for (rule, alpha, T) with alpha compared bit for bit (any alpha for alpha1,
  /// whose lead rule ignores it), or nullptr. `num_trees`
  /// 0 means num_trees(). The pointer is invalidated by StoreTable and ClearStoredTables.
  const HaltingTable* FindStoredTable(HaltingRule rule, double alpha, int32_t num_trees = 0) const;
  /// Stored tables in storage order (first stored first; a replacement keeps its position).
  const std::vector<HaltingTable>& stored_tables() const { return stored_tables_; }
  /// Removes every stored table (the model bytes then equal those of the forest as trained).
  void ClearStoredTables() { stored_tables_.clear(); }

  /// Root node index of each tree (tree t's root is `node_table().nodes[tree_roots()[t]]`).
  const std::vector<uint32_t>& tree_roots() const { return tree_roots_; }
  /// The nodes of every tree and their categorical bit sets.
  const NodeTable& node_table() const { return table_; }
  /// Categories per feature (0 for numeric), derived from schema(); one entry per feature.
  const std::vector<uint32_t>& category_counts() const { return category_counts_; }

  /// Total nodes in the node table.
  size_t num_nodes() const;

  /// The compact walk layout of node_table() (src/tree/compact_walk.h; 8 bytes a node), built on
  /// the first call and shared by copies; thread-safe. Its `nodes` are empty when the trees cannot
  /// be laid out so (categorical splits, ...). Internal: the walks use it; never serialized.
  std::shared_ptr<const internal::CompactTrees> compact_trees() const;

  /// One node of the flat node table (urnforest/node_table.h).
  using Node = TreeNode;
  static constexpr uint32_t kMissingLeft = TreeNode::kMissingLeft;
  static constexpr uint32_t kCategoricalSplit = TreeNode::kCategoricalSplit;
  static constexpr uint32_t kMaxCategoryWords = TreeNode::kMaxCategoryWords;

  /// Number of 32-bit words in the bit set of a categorical split on `feature`.
  uint32_t CategoryWords(int32_t feature) const { return (category_counts_[feature] + 31u) / 32u; }

 private:
  // Written only by the code that builds or rewrites forests (the trainer, the loader,
  // PruneForest) through internal::ForestAccess (src/ensemble/forest_access.h).
  friend class internal::ForestAccess;

  /// Recomputes derived caches (category_counts_) from schema_; called by the trainer and loader.
  void RebuildCaches();

  /// A fresh layout_id: a process-wide counter (thread-safe), starting at 1.
  static uint64_t NextLayoutId();

  /// Nodes of every tree and the bit sets of their categorical splits (a split's bit set is
  /// CategoryWords(feature) words from its offset).
  NodeTable table_;
  std::vector<uint32_t> tree_roots_;
  Schema schema_;
  TrainOptions options_;
  std::vector<uint32_t> oob_votes_;
  std::vector<int32_t> train_labels_;
  std::vector<double> tree_weights_;    ///< See tree_weights().
  std::vector<uint32_t> source_trees_;  ///< See source_trees().
  std::vector<HaltingTable> stored_tables_;  ///< See stored_tables().
  std::vector<ImportedModel> imported_;      ///< See imported(): empty or one record.
  std::vector<uint32_t> calibration_votes_;  ///< See calibration_votes().
  std::vector<int32_t> calibration_labels_;  ///< See calibration_labels().
  std::shared_ptr<const StratifiedCalibration> stratified_;  ///< See stratified_calibration().
  /// Derived from schema_: categories per feature (0 for numeric). Not serialized.
  std::vector<uint32_t> category_counts_;
  uint64_t layout_id_ = NextLayoutId();  ///< See layout_id(); not serialized.
  /// See compact_trees(); reset by every ForestAccess writer of the nodes, roots or schema.
  internal::DerivedCache<internal::CompactTrees> compact_;
};

}  // namespace urnforest
