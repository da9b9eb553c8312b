#pragma once
// ForestBuilder: how an importer turns a model trained elsewhere into a Forest. The importer reads
// its source format (ONNX today, see src/onnx/) and says what the model is: its schema, its import
// record (ImportedModel: kind, score transform, base values), the values each leaf holds with the
// leaf's hard vote, and its trees node by node. The builder checks every step against the
// invariants a Forest keeps (a split's children adjacent and after it, features and leaf rows in
// range, every node written once) and returns the Forest ready to predict, save and halt.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/imported_model.h"
#include "urnforest/node_table.h"
#include "urnforest/status.h"

namespace urnforest {

/// Builds an imported Forest step by step (see the file comment). Use, in this order:
///   1. SetSchema, then SetImported;
///   2. the leaf table: SetLeaves once, or AddLeaf per leaf (leaf-value rows are numbered from 0
///      in the order they are given; a leaf node names its row);
///   3. per tree: BeginTree, then AddNodes to reserve node slots (the tree's first slot is its
///      root; a split's two children are two consecutive slots reserved before the split is set),
///      then SetSplit / SetLeaf / CopyNode on every reserved slot exactly once;
///   4. Finish.
/// Node indices are positions in the forest's one node table (Forest::node_table()), as AddNodes
/// returns them. Only numeric features and numeric splits (`x <= threshold` goes left) are
/// supported; importers map their comparisons onto them.
///
/// Failures: kInvalidArgument for calls out of order (a tree before the schema and record, nodes
/// before a tree, a second schema or record, leaves set twice); kCorruptModel, naming the node,
/// tree or row, for a build that breaks the forest's invariants (a child index out of range or not
/// after its parent, a feature out of range, a NaN threshold, a leaf naming a leaf-value row that
/// does not exist, a vote for a class that does not exist, a node set twice or never, a record
/// that does not fit the schema); kLimitExceeded beyond 100,000 trees, 2^31 nodes or 2^28 leaf
/// values. An importer passes these on: they mean its source describes an inconsistent model. A
/// failed call changes nothing, so the first error can be reported as it is.
/// Not thread-safe; movable, not copyable.
class ForestBuilder {
 public:
  ForestBuilder() = default;
  ForestBuilder(const ForestBuilder&) = delete;
  ForestBuilder& operator=(const ForestBuilder&) = delete;
  ForestBuilder(ForestBuilder&&) = default;
  ForestBuilder& operator=(ForestBuilder&&) = default;

  /// The model's columns and classes. Every feature numeric, named (non-empty, valid UTF-8,
  /// distinct), at most DatasetLimits::kMaxFeatures of them; 2 to DatasetLimits::kMaxClasses
  /// classes with distinct valid UTF-8 names (empty allowed, as files hold them). The target name
  /// is kept as given. Once, first.
  Status SetSchema(Schema schema);

  /// The import record (ImportedModel) without its leaves: kind, transform, single_score,
  /// outputs, base_values, default_vote, source, second_class_threshold (two outputs only),
  /// label_from_scores (not with single_score); `named` empty (see SetLeafClassesNamed). `outputs` must be the number of classes, or 1
  /// with single_score (two classes only); base_values empty, or `outputs` or num_classes finite
  /// values. Its leaf_values, tree_low and tree_high must be empty (the builder fills them), and
  /// it must not be calibrated (calibration comes after import). Once, after SetSchema.
  Status SetImported(ImportedModel record);

  /// The whole leaf table at once: `values` leaves x outputs, row-major (row r is the r-th leaf's
  /// values; ImportedModel::leaf_values), and `votes` one class index per row, the hard vote of a
  /// tree whose walk ends in a leaf of that row (< num_classes). Values are stored as given.
  /// After SetImported, before any AddLeaf or tree; once.
  Status SetLeaves(std::vector<double> values, std::vector<uint32_t> votes);

  /// Which classes each leaf-value row names (ImportedModel::named): `named` has one 0/1 entry per
  /// leaf value. Only for a record of three or more outputs without base values, after the
  /// leaves (SetLeaves or every AddLeaf) and before Finish; optional (none: every class named).
  Status SetLeafClassesNamed(std::vector<uint8_t> named);

  /// Appends one leaf-value row: `values` (ImportedModel::outputs of them, borrowed) and its hard
  /// vote. Returns the row's index. After SetImported (and instead of SetLeaves).
  Result<uint32_t> AddLeaf(const double* values, uint32_t vote);

  /// Starts the next tree; the slot reserved next by AddNodes is its root. After SetImported.
  Status BeginTree();

  /// Reserves `count` (>= 1) consecutive slots at the end of the current tree, none set yet, and
  /// returns the index of the first.
  Result<uint32_t> AddNodes(uint32_t count);

  /// Makes slot `node` of the current tree a split on numeric feature `feature`: a value `x <=
  /// threshold` goes to `left`, any other to `left + 1`, a missing value (NaN) to `left` when
  /// `missing_left`. Both children must be reserved slots of this tree after `node`. `threshold`
  /// may be infinite, never NaN.
  Status SetSplit(uint32_t node, int32_t feature, float threshold, uint32_t left,
                  bool missing_left);

  /// Makes slot `node` of the current tree a leaf holding leaf-value row `row` (given before by
  /// SetLeaves or AddLeaf); the tree then votes that row's vote.
  Status SetLeaf(uint32_t node, uint32_t row);

  /// Makes slot `node` of the current tree a copy of slot `from` (set before, in this tree): the
  /// same split and children, or the same leaf. Subtrees are shared this way (a copy is another
  /// entry into them); `from`'s children must come after `node`.
  Status CopyNode(uint32_t node, uint32_t from);

  /// Nodes reserved so far, over all trees.
  size_t num_nodes() const { return table_.nodes.size(); }
  /// Trees begun so far.
  int32_t num_trees() const { return static_cast<int32_t>(roots_.size()); }

  /// The forest: the schema, the trees (tree t's root is its first slot), the import record with
  /// the leaf table and its per-tree leaf bounds, TrainOptions with EnsembleKind::kImported and
  /// num_trees. Fails when no tree was begun, a tree has no node, or a reserved slot was never
  /// set (kCorruptModel naming it). Afterwards the builder is empty, as default-constructed.
  Result<Forest> Finish();

 private:
  // Fails unless `node` is a reserved slot of the current tree not yet set.
  Status CheckSlot(uint32_t node) const;
  // Fails unless `left` and `left + 1` are reserved slots of the current tree after `node`.
  Status CheckChildren(uint32_t node, uint32_t left) const;

  bool has_schema_ = false;
  bool has_record_ = false;
  bool leaves_set_ = false;  // SetLeaves was called
  Schema schema_;
  ImportedModel record_;
  std::vector<uint32_t> votes_;  // per leaf-value row
  NodeTable table_;
  std::vector<uint8_t> set_;  // per reserved slot: 1 once set
  std::vector<uint32_t> roots_;
};

}  // namespace urnforest
