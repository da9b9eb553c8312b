// Forest: single-tree votes, out-of-bag error and full-ensemble prediction.
#include "urnforest/forest.h"

#include <cmath>
#include <string>
#include <unordered_map>

namespace urnforest {

static_assert(sizeof(Forest::Node) == 16, "nodes are 16 bytes");

void Forest::RebuildCaches() {
  category_counts_.assign(schema_.features.size(), 0u);
  for (size_t f = 0; f < schema_.features.size(); ++f) {
    if (schema_.features[f].type == FeatureType::kCategorical) {
      category_counts_[f] = static_cast<uint32_t>(schema_.features[f].categories.size());
    }
  }
}

int32_t Forest::TreeVote(int32_t tree, const float* row) const {
  const Node* nodes = nodes_.data();
  const uint32_t* bits = category_bits_.data();
  uint32_t index = tree_roots_[tree];
  for (;;) {
    const Node& node = nodes[index];
    if (node.feature < 0) return static_cast<int32_t>(node.child_or_class);
    const float x = row[node.feature];
    bool left;
    if (node.aux & kCategoricalSplit) {
      // Out-of-range or non-integral categories are treated like missing values.
      const uint32_t count = category_counts_[node.feature];
      if (x >= 0.0f && x < static_cast<float>(count) && x == std::floor(x)) {
        const uint32_t c = static_cast<uint32_t>(x);
        left = (bits[(node.aux >> 2) + (c >> 5)] >> (c & 31u)) & 1u;
      } else {
        left = node.aux & kMissingLeft;
      }
    } else if (x <= node.threshold) {
      left = true;
    } else {
      left = std::isnan(x) ? (node.aux & kMissingLeft) != 0 : false;
    }
    index = node.child_or_class + (left ? 0u : 1u);
  }
}

double Forest::oob_error() const {
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

size_t Forest::num_nodes() const { return nodes_.size(); }

Result<std::vector<float>> ModelRows(const Forest& forest, const Dataset& data) {
  const Schema& model = forest.schema();
  if (forest.num_trees() == 0 || forest.num_classes() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  }
  const size_t m = model.features.size();
  if (data.num_features() != m) {
    return Status::Error(StatusCode::kColumnMismatch,
                         "the model has " + std::to_string(m) + " feature columns, the data has " +
                             std::to_string(data.num_features()));
  }
  // Per categorical feature: data category index -> model category index (by name), or -1.
  std::vector<std::vector<float>> remap(m);
  for (size_t f = 0; f < m; ++f) {
    const FeatureInfo& want = model.features[f];
    const FeatureInfo& have = data.schema().features[f];
    if (want.type != have.type) {
      return Status::Error(StatusCode::kColumnMismatch,
                           "column " + std::to_string(f) + " ('" + have.name + "') is " +
                               (have.type == FeatureType::kNumeric ? "numeric" : "categorical") +
                               " but the model expects " +
                               (want.type == FeatureType::kNumeric ? "numeric" : "categorical") +
                               " ('" + want.name + "')");
    }
    if (want.type == FeatureType::kCategorical && have.categories != want.categories) {
      std::unordered_map<std::string, float> index;
      for (size_t c = 0; c < want.categories.size(); ++c) {
        index.emplace(want.categories[c], static_cast<float>(c));
      }
      remap[f].resize(have.categories.size());
      for (size_t c = 0; c < have.categories.size(); ++c) {
        auto it = index.find(have.categories[c]);
        remap[f][c] = it == index.end() ? NAN : it->second;
      }
    }
  }
  std::vector<float> rows = data.RowMajor();
  const size_t n = data.num_rows();
  for (size_t f = 0; f < m; ++f) {
    if (remap[f].empty()) continue;
    for (size_t r = 0; r < n; ++r) {
      float& v = rows[r * m + f];
      if (!std::isnan(v)) v = remap[f][static_cast<size_t>(v)];
    }
  }
  return rows;
}

Result<FullVote> PredictFull(const Forest& forest, const Dataset& data) {
  Result<std::vector<float>> model_rows = ModelRows(forest, data);
  if (!model_rows.ok()) return model_rows.status();
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t rows = data.num_rows();
  const size_t k = static_cast<size_t>(forest.num_classes());
  const int32_t trees = forest.num_trees();
  FullVote out;
  out.votes.assign(rows * k, 0);
  out.labels.assign(rows, 0);
  for (size_t r = 0; r < rows; ++r) {
    const float* row = model_rows.value().data() + r * m;
    uint32_t* votes = out.votes.data() + r * k;
    for (int32_t t = 0; t < trees; ++t) ++votes[forest.TreeVote(t, row)];
    size_t best = 0;
    for (size_t c = 1; c < k; ++c) {
      if (votes[c] > votes[best]) best = c;
    }
    out.labels[r] = static_cast<int32_t>(best);
  }
  return out;
}

}  // namespace urnforest
