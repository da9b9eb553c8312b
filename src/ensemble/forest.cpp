// Forest: single-tree votes and the out-of-bag error (the full vote is in full_vote.cpp).
#include "urnforest/forest.h"

#include <atomic>
#include <cmath>
#include <limits>

#include "ensemble/forest_walk.h"
#include "tree/compact_walk.h"

namespace urnforest {

static_assert(sizeof(Forest::Node) == 16, "nodes are 16 bytes");

uint64_t Forest::NextLayoutId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void Forest::RebuildCaches() {
  category_counts_.assign(schema_.features.size(), 0u);
  for (size_t f = 0; f < schema_.features.size(); ++f) {
    if (schema_.features[f].type == FeatureType::kCategorical) {
      category_counts_[f] = static_cast<uint32_t>(schema_.features[f].categories.size());
    }
  }
}

int32_t Forest::TreeVote(int32_t tree, const float* row) const {
  return internal::Walk(table_.nodes.data(), table_.category_bits.data(), category_counts_.data(),
                        tree_roots_[tree], row);
}

double Forest::oob_error() const {
  if (imported() != nullptr) return std::numeric_limits<double>::quiet_NaN();
  const size_t k = static_cast<size_t>(num_classes());
  if (k == 0) return 0.0;
  const size_t rows = train_labels_.size();
  size_t counted = 0;
  double wrong = 0.0;
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t* votes = oob_votes_.data() + r * k;
    uint32_t total = 0;
    uint32_t best = 0;
    for (size_t c = 0; c < k; ++c) {
      total += votes[c];
      best = votes[c] > best ? votes[c] : best;
    }
    if (total == 0) continue;
    ++counted;
    size_t tied = 0;
    for (size_t c = 0; c < k; ++c) tied += votes[c] == best;
    const size_t truth = static_cast<size_t>(train_labels_[r]);
    // Expected error of the OOB majority with ties broken uniformly at random.
    wrong += votes[truth] == best ? 1.0 - 1.0 / static_cast<double>(tied) : 1.0;
  }
  return counted == 0 ? 0.0 : wrong / static_cast<double>(counted);
}

size_t Forest::num_nodes() const { return table_.nodes.size(); }

std::shared_ptr<const internal::CompactTrees> Forest::compact_trees() const {
  std::shared_ptr<const internal::CompactTrees> held = compact_.Get();
  // The size check also catches nodes appended through a reference kept from before a walk.
  if (held != nullptr && held->source_nodes == table_.nodes.size() &&
      held->source_features == schema_.features.size()) {
    return held;
  }
  if (held != nullptr) compact_.Reset();
  // An imported forest's leaves carry their leaf-value rows (the soft and additive scores read
  // them without the node table).
  return compact_.Publish(
      internal::BuildCompactTrees(table_, schema_.features.size(), imported() != nullptr));
}

}  // namespace urnforest
