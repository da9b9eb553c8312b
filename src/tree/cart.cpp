// CART tree growing (Gini, unpruned) into a flat node table; the training-data layout.
#include "tree/cart.h"

#include <algorithm>
#include <cmath>

#include "urnforest/vote.h"

namespace urnforest {
namespace internal {
namespace {

constexpr size_t kMaxNodes = size_t{1} << 31;

}  // namespace

TrainingData TrainingData::From(const Dataset& data) {
  TrainingData td;
  td.rows = data.num_rows();
  td.features = static_cast<int32_t>(data.num_features());
  td.classes = static_cast<int32_t>(data.num_classes());
  td.keys.resize(td.rows * data.num_features());
  td.category_counts.resize(data.num_features(), 0);
  for (size_t f = 0; f < data.num_features(); ++f) {
    const FeatureInfo& info = data.schema().features[f];
    const bool categorical = info.type == FeatureType::kCategorical;
    if (categorical) td.category_counts[f] = static_cast<uint32_t>(info.categories.size());
    const float* col = data.column(f);
    uint32_t* out = td.keys.data() + f * td.rows;
    for (size_t r = 0; r < td.rows; ++r) {
      const float v = col[r];
      if (std::isnan(v)) {
        out[r] = kMissingKey;
      } else {
        out[r] = categorical ? static_cast<uint32_t>(v) : SortableKey(v);
      }
    }
  }
  td.labels.assign(data.labels().begin(), data.labels().end());
  return td;
}

TreeBuilder::TreeBuilder(const TrainingData& data, const CartParams& params)
    : data_(data),
      params_(params),
      search_(data.classes, params.min_leaf),
      feature_order_(data.features),
      class_counts_(data.classes) {}

void TreeBuilder::FindSplit(const NodeRows& rows, Rng* rng, SplitChoice* best) {
  best->found = false;
  const int32_t m = data_.features;
  auto search = [&](int32_t f) {
    const uint32_t* keys = data_.keys.data() + static_cast<size_t>(f) * data_.rows;
    if (data_.category_counts[f] > 0) {
      return search_.SearchCategorical(rows, keys, data_.category_counts[f], f, best);
    }
    return search_.SearchNumeric(rows, keys, f, best);
  };
  if (!params_.sample_features) {
    for (int32_t f = 0; f < m; ++f) search(f);
    return;
  }
  // Draw features without replacement (partial Fisher-Yates); constant features do not count
  // towards mtry, so a node keeps drawing until mtry informative features were tried.
  int32_t tried = 0;
  for (int32_t j = 0; j < m && tried < params_.mtry; ++j) {
    const int32_t k = j + static_cast<int32_t>(rng->Below(static_cast<uint32_t>(m - j)));
    std::swap(feature_order_[j], feature_order_[k]);
    if (search(feature_order_[j])) ++tried;
  }
}

uint32_t TreeBuilder::Partition(uint32_t begin, uint32_t end, const SplitChoice& split,
                                const uint32_t* bits) {
  const uint32_t* keys = data_.keys.data() + static_cast<size_t>(split.feature) * data_.rows;
  const uint32_t threshold_key = SortableKey(split.threshold);
  uint32_t left = begin;
  size_t right = 0;
  if (scratch_.size() < end - begin) scratch_.resize(end - begin);
  for (uint32_t i = begin; i < end; ++i) {
    const uint32_t row = samples_[i];
    const uint32_t key = keys[row];
    bool goes_left;
    if (key == kMissingKey) {
      goes_left = split.missing_left;
    } else if (split.categorical) {
      goes_left = (bits[key >> 5] >> (key & 31u)) & 1u;
    } else {
      goes_left = key <= threshold_key;
    }
    if (goes_left) {
      samples_[left++] = row;
    } else {
      scratch_[right++] = row;
    }
  }
  std::copy(scratch_.begin(), scratch_.begin() + right, samples_.begin() + left);
  return left;
}

Status TreeBuilder::Build(const uint32_t* weights, Rng* rng, NodeTable* table, uint32_t* root,
                          std::vector<int64_t>* node_counts) {
  weights_ = weights;
  samples_.clear();
  for (size_t r = 0; r < data_.rows; ++r) {
    if (weights[r] > 0) samples_.push_back(static_cast<uint32_t>(r));
  }
  for (int32_t f = 0; f < data_.features; ++f) feature_order_[f] = f;
  std::vector<TreeNode>& nodes = table->nodes;
  if (nodes.size() + 1 > kMaxNodes) {
    return Status::Error(StatusCode::kLimitExceeded, "the forest exceeds 2^31 nodes");
  }
  *root = static_cast<uint32_t>(nodes.size());
  nodes.push_back(TreeNode{-1, 0.0f, 0, 0});
  if (node_counts != nullptr) node_counts->clear();
  stack_.clear();
  stack_.push_back(Frame{*root, 0, static_cast<uint32_t>(samples_.size()), 0});
  const int64_t min_leaf = params_.min_leaf;
  while (!stack_.empty()) {
    const Frame frame = stack_.back();
    stack_.pop_back();
    std::fill(class_counts_.begin(), class_counts_.end(), 0);
    int64_t total = 0;
    for (uint32_t i = frame.begin; i < frame.end; ++i) {
      const uint32_t row = samples_[i];
      class_counts_[data_.labels[row]] += weights[row];
      total += weights[row];
    }
    if (node_counts != nullptr) {
      const size_t at = static_cast<size_t>(frame.node - *root) * data_.classes;
      if (node_counts->size() < at + data_.classes) node_counts->resize(at + data_.classes);
      std::copy(class_counts_.begin(), class_counts_.end(), node_counts->begin() + at);
    }
    const int32_t majority = Plurality(class_counts_);
    const bool pure = class_counts_[majority] == total;
    const bool too_deep = params_.max_depth > 0 && frame.depth >= params_.max_depth;
    bool split = !pure && !too_deep && total >= 2 * min_leaf;
    if (split) {
      const NodeRows rows{samples_.data() + frame.begin, frame.end - frame.begin,
                          data_.labels.data(), weights};
      FindSplit(rows, rng, &best_);
      split = best_.found;
    }
    if (!split) {
      nodes[frame.node] = TreeNode{-1, 0.0f, static_cast<uint32_t>(majority), 0};
      continue;
    }
    if (nodes.size() + 2 > kMaxNodes) {
      return Status::Error(StatusCode::kLimitExceeded, "the forest exceeds 2^31 nodes");
    }
    const uint32_t left = static_cast<uint32_t>(nodes.size());
    nodes.push_back(TreeNode{-1, 0.0f, 0, 0});
    nodes.push_back(TreeNode{-1, 0.0f, 0, 0});
    uint32_t aux = best_.missing_left ? TreeNode::kMissingLeft : 0u;
    uint32_t mid;
    if (best_.categorical) {
      const uint32_t num_categories = data_.category_counts[best_.feature];
      const uint32_t words = (num_categories + 31u) / 32u;
      split_bits_.assign(words, 0u);
      for (uint32_t cat : best_.left_categories) split_bits_[cat >> 5] |= 1u << (cat & 31u);
      mid = Partition(frame.begin, frame.end, best_, split_bits_.data());
      int64_t left_weight = 0;
      for (uint32_t i = frame.begin; i < mid; ++i) left_weight += weights[samples_[i]];
      if (left_weight >= total - left_weight) {
        // Categories unseen at this node follow the larger child (ties: left).
        for (uint32_t cat = 0; cat < num_categories; ++cat) split_bits_[cat >> 5] |= 1u << (cat & 31u);
        for (uint32_t cat : best_.right_categories) split_bits_[cat >> 5] &= ~(1u << (cat & 31u));
      }
      const size_t offset = table->category_bits.size();
      if (offset + words > TreeNode::kMaxCategoryWords) {
        return Status::Error(StatusCode::kLimitExceeded,
                             "categorical split bit sets exceed 2^30 words");
      }
      table->category_bits.insert(table->category_bits.end(), split_bits_.begin(),
                                    split_bits_.end());
      aux |= TreeNode::kCategoricalSplit | (static_cast<uint32_t>(offset) << 2);
      nodes[frame.node] = TreeNode{best_.feature, 0.0f, left, aux};
    } else {
      mid = Partition(frame.begin, frame.end, best_, nullptr);
      nodes[frame.node] = TreeNode{best_.feature, best_.threshold, left, aux};
    }
    stack_.push_back(Frame{left + 1, mid, frame.end, frame.depth + 1});
    stack_.push_back(Frame{left, frame.begin, mid, frame.depth + 1});
  }
  return Status::Ok();
}

}  // namespace internal
}  // namespace urnforest
