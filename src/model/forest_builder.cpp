// ForestBuilder (urnforest/forest_builder.h): an imported forest written step by step, each step
// checked against the invariants of a Forest.
#include "urnforest/forest_builder.h"

#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "base/utf8.h"
#include "ensemble/forest_access.h"
#include "model/imported_scores.h"

namespace urnforest {
namespace {

constexpr size_t kMaxNodes = size_t{1} << 31;
constexpr size_t kMaxLeafValues = size_t{1} << 28;

Status OutOfOrder(const std::string& what) {
  return Status::Error(StatusCode::kInvalidArgument, "forest builder: " + what);
}
Status Inconsistent(const std::string& what) {
  return Status::Error(StatusCode::kCorruptModel, "forest builder: " + what);
}
bool IsUtf8(const std::string& s) { return internal::FirstInvalidUtf8(s) == s.size(); }

// kCorruptModel unless the classes and features are ones a Forest can hold (ForestBuilder::SetSchema).
Status CheckSchema(const Schema& schema) {
  const size_t l = schema.class_names.size();
  if (l < 2 || l > DatasetLimits::kMaxClasses) {
    return Inconsistent("a classifier has 2 to 4,096 classes, not " + std::to_string(l));
  }
  std::set<std::string> classes;
  for (size_t c = 0; c < l; ++c) {
    if (!IsUtf8(schema.class_names[c])) return Inconsistent("class " + std::to_string(c) + " is not UTF-8");
    if (!classes.insert(schema.class_names[c]).second) {
      return Inconsistent("class name " + internal::QuoteForMessage(schema.class_names[c]) + " appears twice");
    }
  }
  if (schema.features.size() > DatasetLimits::kMaxFeatures) {
    return Status::Error(StatusCode::kLimitExceeded, "forest builder: more than 65,536 features");
  }
  std::set<std::string> features;
  for (size_t f = 0; f < schema.features.size(); ++f) {
    const FeatureInfo& info = schema.features[f];
    if (info.type != FeatureType::kNumeric || !info.categories.empty()) {
      return Inconsistent("feature " + std::to_string(f) + " is not numeric (only numeric features are supported)");
    }
    if (info.name.empty() || !IsUtf8(info.name)) {
      return Inconsistent("feature " + std::to_string(f) + " has an empty or non-UTF-8 name");
    }
    if (!features.insert(info.name).second) {
      return Inconsistent("feature name " + internal::QuoteForMessage(info.name) + " appears twice");
    }
  }
  return Status::Ok();
}

// kCorruptModel unless `m` is an import record without leaves that fits `num_classes` classes.
Status CheckRecord(const ImportedModel& m, size_t num_classes) {
  if (static_cast<uint8_t>(m.kind) > static_cast<uint8_t>(ImportedKind::kAdditive) ||
      static_cast<uint8_t>(m.transform) > static_cast<uint8_t>(ScoreTransform::kSoftmaxZero) ||
      static_cast<uint8_t>(m.default_vote) > static_cast<uint8_t>(VoteKind::kSoft)) {
    return Inconsistent("the import record's kind, transform or vote is out of range");
  }
  const bool fits = m.single_score ? num_classes == 2 && m.outputs == 1
                                   : m.outputs == static_cast<int32_t>(num_classes);
  if (!fits) {
    return Inconsistent("the import record has " + std::to_string(m.outputs) + " values per leaf for " +
                        std::to_string(num_classes) + " classes" +
                        (m.single_score ? " (one score per leaf needs two classes)" : ""));
  }
  const size_t b = m.base_values.size();
  if (b != 0 && b != static_cast<size_t>(m.outputs) && b != num_classes) {
    return Inconsistent("the import record has " + std::to_string(b) + " base values for " +
                        std::to_string(num_classes) + " classes");
  }
  for (double v : m.base_values) {
    if (!std::isfinite(v)) return Inconsistent("a base value is not finite");
  }
  if ((m.second_class_threshold && (m.single_score || m.outputs != 2)) || (m.label_from_scores && m.single_score)) {
    return Inconsistent("the import record's label rule does not fit its layout");
  }
  if (!m.leaf_values.empty() || !m.named.empty() || !m.tree_low.empty() || !m.tree_high.empty() || m.calibrated ||
      m.margin.rows != 0 || !m.margin.lambdas.empty()) {
    return Inconsistent("the import record must come without leaves, bounds or calibration");
  }
  return Status::Ok();
}

}  // namespace

Status ForestBuilder::SetSchema(Schema schema) {
  if (has_schema_) return OutOfOrder("the schema is already set");
  if (Status s = CheckSchema(schema); !s.ok()) return s;
  schema_ = std::move(schema);
  has_schema_ = true;
  return Status::Ok();
}

Status ForestBuilder::SetImported(ImportedModel record) {
  if (!has_schema_) return OutOfOrder("set the schema before the import record");
  if (has_record_) return OutOfOrder("the import record is already set");
  if (Status s = CheckRecord(record, schema_.class_names.size()); !s.ok()) return s;
  record_ = std::move(record);
  has_record_ = true;
  return Status::Ok();
}

Status ForestBuilder::SetLeaves(std::vector<double> values, std::vector<uint32_t> votes) {
  if (!has_record_) return OutOfOrder("set the import record before the leaves");
  if (leaves_set_ || !votes_.empty() || !roots_.empty()) {
    return OutOfOrder("the leaves are set once, before any leaf or tree");
  }
  const size_t outputs = static_cast<size_t>(record_.outputs);
  if (values.size() > kMaxLeafValues) {
    return Status::Error(StatusCode::kLimitExceeded, "the model's leaves hold more than 2^28 values");
  }
  if (values.size() != votes.size() * outputs) {
    return Inconsistent(std::to_string(values.size()) + " leaf values for " + std::to_string(votes.size()) +
                        " leaves of " + std::to_string(outputs) + " values each");
  }
  for (size_t r = 0; r < votes.size(); ++r) {
    if (votes[r] >= schema_.class_names.size()) {
      return Inconsistent("leaf row " + std::to_string(r) + " votes for class " + std::to_string(votes[r]) +
                          " of " + std::to_string(schema_.class_names.size()));
    }
  }
  record_.leaf_values = std::move(values);
  votes_ = std::move(votes);
  leaves_set_ = true;
  return Status::Ok();
}

Status ForestBuilder::SetLeafClassesNamed(std::vector<uint8_t> named) {
  if (!has_record_) return OutOfOrder("set the import record before the named classes");
  if (record_.outputs < 3 || !record_.base_values.empty()) {
    return Inconsistent("named classes need three or more outputs and no base values");
  }
  if (named.size() != record_.leaf_values.size()) {
    return Inconsistent(std::to_string(named.size()) + " named-class entries for " +
                        std::to_string(record_.leaf_values.size()) + " leaf values");
  }
  for (uint8_t& n : named) n = n != 0;
  record_.named = std::move(named);
  return Status::Ok();
}

Result<uint32_t> ForestBuilder::AddLeaf(const double* values, uint32_t vote) {
  if (!has_record_) return OutOfOrder("set the import record before the leaves");
  if (leaves_set_) return OutOfOrder("the leaves were set at once (SetLeaves)");
  const size_t outputs = static_cast<size_t>(record_.outputs);
  if (record_.leaf_values.size() + outputs > kMaxLeafValues) {
    return Status::Error(StatusCode::kLimitExceeded, "the model's leaves hold more than 2^28 values");
  }
  if (vote >= schema_.class_names.size()) {
    return Inconsistent("leaf row " + std::to_string(votes_.size()) + " votes for class " + std::to_string(vote) +
                        " of " + std::to_string(schema_.class_names.size()));
  }
  record_.leaf_values.insert(record_.leaf_values.end(), values, values + outputs);
  votes_.push_back(vote);
  return static_cast<uint32_t>(votes_.size() - 1);
}

Status ForestBuilder::BeginTree() {
  if (!has_record_) return OutOfOrder("set the schema and the import record before the trees");
  if (roots_.size() >= static_cast<size_t>(TrainOptions::kMaxTrees)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 100,000 trees");
  }
  roots_.push_back(static_cast<uint32_t>(table_.nodes.size()));
  return Status::Ok();
}

Result<uint32_t> ForestBuilder::AddNodes(uint32_t count) {
  if (roots_.empty()) return OutOfOrder("begin a tree before adding nodes");
  if (count == 0) return OutOfOrder("reserve at least one node");
  const size_t at = table_.nodes.size();
  if (at + count > kMaxNodes) {
    return Status::Error(StatusCode::kLimitExceeded, "the imported trees exceed 2^31 nodes");
  }
  table_.nodes.resize(at + count, TreeNode{-1, 0.0f, 0u, 0u});
  set_.resize(at + count, 0);
  return static_cast<uint32_t>(at);
}

Status ForestBuilder::CheckSlot(uint32_t node) const {
  if (roots_.empty() || node < roots_.back() || node >= table_.nodes.size()) {
    return Inconsistent("node " + std::to_string(node) + " is not a reserved node of tree " +
                        std::to_string(roots_.empty() ? 0 : roots_.size() - 1));
  }
  if (set_[node]) return Inconsistent("node " + std::to_string(node) + " is set twice");
  return Status::Ok();
}

Status ForestBuilder::CheckChildren(uint32_t node, uint32_t left) const {
  if (left <= node || size_t{left} + 1 >= table_.nodes.size()) {
    return Inconsistent("node " + std::to_string(node) + " names children " + std::to_string(left) + " and " +
                        std::to_string(size_t{left} + 1) + ", out of range (reserved nodes after it, up to " +
                        std::to_string(table_.nodes.size() - 1) + ")");
  }
  return Status::Ok();
}

Status ForestBuilder::SetSplit(uint32_t node, int32_t feature, float threshold, uint32_t left,
                               bool missing_left) {
  if (Status s = CheckSlot(node); !s.ok()) return s;
  if (feature < 0 || static_cast<size_t>(feature) >= schema_.features.size()) {
    return Inconsistent("node " + std::to_string(node) + " splits on feature " + std::to_string(feature) +
                        " of " + std::to_string(schema_.features.size()));
  }
  if (std::isnan(threshold)) return Inconsistent("node " + std::to_string(node) + " has a NaN threshold");
  if (Status s = CheckChildren(node, left); !s.ok()) return s;
  table_.nodes[node] = TreeNode{feature, threshold, left, missing_left ? TreeNode::kMissingLeft : 0u};
  set_[node] = 1;
  return Status::Ok();
}

Status ForestBuilder::SetLeaf(uint32_t node, uint32_t row) {
  if (Status s = CheckSlot(node); !s.ok()) return s;
  if (row >= votes_.size()) {
    return Inconsistent("leaf node " + std::to_string(node) + " names leaf-value row " + std::to_string(row) +
                        ", but there are " + std::to_string(votes_.size()) + " rows");
  }
  table_.nodes[node] = TreeNode{-1, 0.0f, votes_[row], row};
  set_[node] = 1;
  return Status::Ok();
}

Status ForestBuilder::CopyNode(uint32_t node, uint32_t from) {
  if (Status s = CheckSlot(node); !s.ok()) return s;
  if (from < roots_.back() || from >= table_.nodes.size() || !set_[from]) {
    return Inconsistent("node " + std::to_string(node) + " copies node " + std::to_string(from) +
                        ", which is not a node of this tree set before");
  }
  const TreeNode& source = table_.nodes[from];
  if (source.feature >= 0) {
    if (Status s = CheckChildren(node, source.child_or_class); !s.ok()) return s;
  }
  table_.nodes[node] = source;
  set_[node] = 1;
  return Status::Ok();
}

Result<Forest> ForestBuilder::Finish() {
  if (roots_.empty()) return Inconsistent("the model has no trees");
  if (!record_.named.empty() && record_.named.size() != record_.leaf_values.size()) {
    return Inconsistent("leaves were added after the named classes");
  }
  for (size_t t = 0; t < roots_.size(); ++t) {
    const size_t end = t + 1 < roots_.size() ? roots_[t + 1] : table_.nodes.size();
    if (roots_[t] == end) return Inconsistent("tree " + std::to_string(t) + " has no nodes");
    for (size_t n = roots_[t]; n < end; ++n) {
      if (!set_[n]) {
        return Inconsistent("node " + std::to_string(n) + " of tree " + std::to_string(t) +
                            " is neither a split nor a leaf");
      }
    }
  }
  Forest forest;
  using internal::ForestAccess;
  ForestAccess::schema(forest) = std::move(schema_);
  ForestAccess::RebuildCaches(forest);
  ForestAccess::table(forest) = std::move(table_);
  ForestAccess::tree_roots(forest) = std::move(roots_);
  TrainOptions& o = ForestAccess::options(forest);
  o.ensemble = EnsembleKind::kImported;
  o.num_trees = forest.num_trees();
  o.mtry = 0;
  o.max_depth = 0;
  o.min_leaf = 1;
  o.seed = 0;
  ForestAccess::imported(forest).push_back(std::move(record_));
  internal::FillTreeBounds(&forest);
  *this = ForestBuilder();
  return forest;
}

}  // namespace urnforest
