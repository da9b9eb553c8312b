#pragma once
// Internal: write access to a Forest's storage for the code that builds or rewrites forests (the
// trainer, the serializer's loader, PruneForest); everyone else reads through Forest's accessors.
#include <cstdint>
#include <vector>

#include "urnforest/forest.h"

namespace urnforest {
namespace internal {

/// Mutable references to the storage of a Forest (a friend of Forest). Every function borrows
/// `forest`; the references live as long as it does. Callers keep the invariants documented on
/// Forest (children after their parent, roots in range, oob_votes rows x classes, ...).
class ForestAccess {
 public:
  /// The nodes, for writing (drops the derived compact walk layout, Forest::compact_trees()).
  static NodeTable& table(Forest& forest) {
    forest.compact_.Reset();
    return forest.table_;
  }
  static std::vector<uint32_t>& tree_roots(Forest& forest) {
    forest.compact_.Reset();
    return forest.tree_roots_;
  }
  /// The schema, for writing: draws a new layout_id first, so rows prepared for the old schema are
  /// compared by name again (PreparedRows::Fits).
  static Schema& schema(Forest& forest) {
    forest.layout_id_ = Forest::NextLayoutId();
    forest.compact_.Reset();
    return forest.schema_;
  }
  static TrainOptions& options(Forest& forest) { return forest.options_; }
  static std::vector<uint32_t>& oob_votes(Forest& forest) { return forest.oob_votes_; }
  static std::vector<int32_t>& train_labels(Forest& forest) { return forest.train_labels_; }
  static std::vector<double>& tree_weights(Forest& forest) { return forest.tree_weights_; }
  static std::vector<uint32_t>& source_trees(Forest& forest) { return forest.source_trees_; }
  static std::vector<HaltingTable>& stored_tables(Forest& forest) { return forest.stored_tables_; }
  /// Empty, or the one import record (Forest::imported()).
  static std::vector<ImportedModel>& imported(Forest& forest) { return forest.imported_; }
  /// A trained forest's calibration rows (Forest::calibration_votes(), calibration_labels()).
  static std::vector<uint32_t>& calibration_votes(Forest& forest) { return forest.calibration_votes_; }
  static std::vector<int32_t>& calibration_labels(Forest& forest) { return forest.calibration_labels_; }
  /// The stratified rule's calibration (Forest::stratified_calibration()).
  static std::shared_ptr<const StratifiedCalibration>& stratified(Forest& forest) { return forest.stratified_; }
  /// Recomputes the derived caches (category counts) from the schema; call after setting it.
  static void RebuildCaches(Forest& forest) { forest.RebuildCaches(); }
};

}  // namespace internal
}  // namespace urnforest
