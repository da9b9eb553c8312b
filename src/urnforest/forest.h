#pragma once
// Forest: a trained ensemble of classification trees in one flat node table, with out-of-bag votes.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest {

/// Which ensemble to train.
enum class EnsembleKind : uint8_t {
  kRandomForest = 0,  ///< Bootstrap samples, `mtry` candidate features per node (Breiman 2001).
  kBagging = 1,       ///< Bootstrap samples, all features at every node (Breiman 1996).
};

/// How the default number of candidate features per node is chosen when TrainOptions::mtry == 0.
enum class MtryRule : uint8_t {
  kSqrt = 0,      ///< floor(sqrt(M)), at least 1 (scikit-learn, randomForest).
  kLog2 = 1,      ///< floor(log2(M)), at least 1.
  kLog2Plus1 = 2, ///< floor(log2(M) + 1) (Breiman's and the thesis's variant).
};

/// Training options; every field has a sensible default.
struct TrainOptions {
  EnsembleKind ensemble = EnsembleKind::kRandomForest;
  int32_t num_trees = 101;      ///< T, 1..kMaxTrees.
  int32_t mtry = 0;             ///< Candidate features per node; 0 = by mtry_rule. Ignored for bagging.
  MtryRule mtry_rule = MtryRule::kSqrt;
  int32_t max_depth = 0;        ///< 0 = unlimited; the root has depth 0.
  int32_t min_leaf = 1;         ///< Minimum rows in a leaf.
  uint64_t seed = 1;            ///< Same data + options + seed => byte-identical model.
  /// Called after each tree with (trees done, total); returning false cancels (kInvalidArgument
  /// "cancelled"). May be empty.
  std::function<bool(int32_t, int32_t)> progress;
  static constexpr int32_t kMaxTrees = 100000;
};

/// A trained ensemble. Trees are stored flat (one node table for the whole forest); tree t's root is
/// node `tree_roots()[t]`. Immutable after training/loading; safe to share between threads.
class Forest {
 public:
  Forest() = default;

  int32_t num_trees() const { return static_cast<int32_t>(tree_roots_.size()); }
  int32_t num_classes() const { return static_cast<int32_t>(schema_.class_names.size()); }
  int32_t num_features() const { return static_cast<int32_t>(schema_.features.size()); }
  const Schema& schema() const { return schema_; }
  const TrainOptions& options() const { return options_; }

  /// Class index (0..num_classes-1) voted by tree `tree` for one row given as num_features()
  /// floats in schema order (NaN = missing). Precondition: 0 <= tree < num_trees().
  int32_t TreeVote(int32_t tree, const float* row) const;

  /// Out-of-bag vote counts of the training rows, row-major: `oob_votes()[r * num_classes() + c]`
  /// is the number of trees that did not see row r in their bootstrap sample and voted c.
  const std::vector<uint32_t>& oob_votes() const { return oob_votes_; }
  /// Training labels (class indices), one per training row, aligned with oob_votes().
  const std::vector<int32_t>& train_labels() const { return train_labels_; }
  /// Fraction of training rows (with at least one OOB vote) whose OOB majority is wrong; ties in the
  /// OOB majority count as errors.
  double oob_error() const;

  /// Total nodes in the node table.
  size_t num_nodes() const;

  // Storage (public for the trainer and serializer; treat as read-only).
  struct Node {
    /// Leaf: -1. Inner: feature index.
    int32_t feature;
    /// Numeric inner: go left when x <= threshold. Categorical inner: bit-set word offset into
    /// category_bits (stored via memcpy-safe union semantics in `aux`). Leaf: unused.
    float threshold;
    /// Inner: index of the left child; the right child is left + 1. Leaf: class index voted.
    uint32_t child_or_class;
    /// Bit 0: missing values go left. Bits 1..31: categorical bit-set offset (word index) >> 0.
    uint32_t aux;
  };
  std::vector<Node> nodes_;
  std::vector<uint32_t> category_bits_;  ///< Categorical splits: bit c set => category c goes left.
  std::vector<uint32_t> tree_roots_;
  Schema schema_;
  TrainOptions options_;
  std::vector<uint32_t> oob_votes_;
  std::vector<int32_t> train_labels_;
};

/// Trains a forest. Fails with kTooFewClasses (fewer than 2 classes have rows), kMissingLabel
/// (a row with label -1), kInvalidArgument (options out of range; message names the option),
/// kLimitExceeded, or kInvalidArgument("cancelled") when progress returns false.
Result<Forest> Train(const Dataset& data, const TrainOptions& options);

/// Full-ensemble vote for every row of `data` (whose schema must match the forest's features).
struct FullVote {
  std::vector<uint32_t> votes;  ///< rows x classes, row-major.
  std::vector<int32_t> labels;  ///< Majority class per row; ties go to the lowest class index.
};
Result<FullVote> PredictFull(const Forest& forest, const Dataset& data);

/// Versioned binary model: magic "URNF", format version, payload length, CRC-32 of the payload.
std::vector<uint8_t> SerializeForest(const Forest& forest);
/// Inverse of SerializeForest. Validates every field; fails with kCorruptModel or kUnsupportedVersion,
/// never reads out of bounds, never allocates more than a small multiple of `size`.
Result<Forest> DeserializeForest(const uint8_t* data, size_t size);

}  // namespace urnforest
