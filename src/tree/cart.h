#pragma once
// CART tree growing (classification, Gini, unpruned) into a flat node table
// (urnforest/node_table.h). Internal to the trainer; the behaviour is documented in docs/design.md,
// "Training".
#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/random.h"
#include "tree/split_search.h"
#include "urnforest/dataset.h"
#include "urnforest/node_table.h"
#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// Training matrix in the form the split search wants, built once and shared by all trees.
struct TrainingData {
  size_t rows = 0;
  int32_t features = 0;
  int32_t classes = 0;
  /// Column-major, keys[feature * rows + row]: numeric = SortableKey(value), categorical = category
  /// index; kMissingKey for missing.
  std::vector<uint32_t> keys;
  std::vector<uint32_t> labels;           ///< Class index per row.
  std::vector<uint32_t> category_counts;  ///< Per feature; 0 = numeric.

  /// Precondition: data has labels, all >= 0.
  static TrainingData From(const Dataset& data);
};

/// Tree-growing parameters (already validated and resolved).
struct CartParams {
  int32_t mtry = 0;              ///< Non-constant candidate features to evaluate per node.
  bool sample_features = false;  ///< false: every feature at every node (bagging).
  int32_t max_depth = 0;         ///< 0 = unlimited.
  int32_t min_leaf = 1;
};

/// Grows trees one after another, reusing its buffers.
class TreeBuilder {
 public:
  TreeBuilder(const TrainingData& data, const CartParams& params);

  /// Grows one tree on the rows with weights[row] > 0 (bootstrap multiplicities), appending its nodes
  /// (root first) and categorical bit sets to `table`. When `node_counts` is not null it receives
  /// the weighted class counts of the sample at every node of the new tree: (nodes x classes,
  /// row-major, node i = table node *root + i). Fails only with kLimitExceeded.
  Status Build(const uint32_t* weights, Rng* rng, NodeTable* table, uint32_t* root,
               std::vector<int64_t>* node_counts = nullptr);

 private:
  struct Frame {
    uint32_t node;
    uint32_t begin;
    uint32_t end;
    int32_t depth;
  };
  void FindSplit(const NodeRows& rows, Rng* rng, SplitChoice* best);
  /// Stable partition of samples_[begin, end) by the split; returns the first right position.
  uint32_t Partition(uint32_t begin, uint32_t end, const SplitChoice& split,
                     const uint32_t* bits);

  const TrainingData& data_;
  CartParams params_;
  SplitSearch search_;
  const uint32_t* weights_ = nullptr;
  std::vector<uint32_t> samples_;
  std::vector<uint32_t> scratch_;
  std::vector<uint32_t> feature_order_;
  std::vector<int64_t> class_counts_;
  std::vector<uint32_t> split_bits_;
  std::vector<Frame> stack_;
  SplitChoice best_;
};

}  // namespace internal
}  // namespace urnforest
