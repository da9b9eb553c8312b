// ImportOnnx: an ONNX tree-ensemble classifier rebuilt as a Forest whose node table gives, for
// every float32 row, the leaf ONNX Runtime reaches. The steps: find the ensemble node
// (tree_ensemble_graph.h), read its attributes into the canonical form (tree_ensemble_attributes.h),
// check the classes, derive the import record (post-transform, voting or additive, base values),
// index the trees, estimate the memory the model will take and refuse it over budget
// (tree_ensemble_budget.h), sum the leaf table and its hard votes, name the columns, then write the schema,
// record, leaves and trees (tree_ensemble_trees.h) through a ForestBuilder.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "base/utf8.h"
#include "onnx/onnx_model.h"
#include "onnx/tree_ensemble_attributes.h"
#include "onnx/tree_ensemble_budget.h"
#include "onnx/tree_ensemble_graph.h"
#include "onnx/tree_ensemble_trees.h"
#include "urnforest/forest_builder.h"
#include "urnforest/onnx_import.h"

namespace urnforest {
namespace {

using internal::OnnxCorrupt;
using internal::OnnxModel;
using internal::OnnxNode;
using internal::OnnxQuoted;
using internal::OnnxUnsupported;
using internal::SourceTrees;
using internal::TreeEnsembleAttributes;

bool IsUtf8(const std::string& s) { return internal::FirstInvalidUtf8(s) == s.size(); }

// The file's class labels checked (2 to 4,096, distinct, UTF-8), then replaced by
// options.class_names when given (one distinct, non-empty UTF-8 name per class).
Status CheckClasses(const OnnxNode& node, const OnnxImportOptions& options, TreeEnsembleAttributes* a) {
  const size_t l = a->class_names.size();
  if (l < 2) return OnnxUnsupported(node.Describe() + ": a classifier needs at least two classes");
  if (l > DatasetLimits::kMaxClasses) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 4,096 classes");
  }
  for (size_t i = 0; i < l; ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (a->class_names[i] == a->class_names[j]) return OnnxCorrupt(node, "class label " + OnnxQuoted(a->class_names[i]) + " appears twice");
    }
    if (!IsUtf8(a->class_names[i])) return OnnxCorrupt(node, "class label " + std::to_string(i) + " is not valid UTF-8");
  }
  if (options.class_names.empty()) return Status::Ok();
  if (options.class_names.size() != l) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "class names: the model has " + std::to_string(l) + " classes, " +
                             std::to_string(options.class_names.size()) + " names were given");
  }
  for (size_t i = 0; i < l; ++i) {
    const std::string& name = options.class_names[i];
    if (name.empty() || !IsUtf8(name)) {
      return Status::Error(StatusCode::kInvalidArgument, "class name " + std::to_string(i) + " is empty or not UTF-8");
    }
    for (size_t j = 0; j < i; ++j) {
      if (options.class_names[j] == name) {
        return Status::Error(StatusCode::kInvalidArgument, "class name " + OnnxQuoted(name) + " appears twice");
      }
    }
  }
  a->class_names = options.class_names;
  return Status::Ok();
}

// The post_transform, of those whose class is the largest summed score.
Result<ScoreTransform> PostTransform(const OnnxNode& node, const std::string& name) {
  if (name == "NONE") return ScoreTransform::kNone;
  if (name == "LOGISTIC") return ScoreTransform::kLogistic;
  if (name == "SOFTMAX") return ScoreTransform::kSoftmax;
  if (name == "SOFTMAX_ZERO") return ScoreTransform::kSoftmaxZero;
  return OnnxUnsupported(node.Describe() + ": post_transform " + OnnxQuoted(name) + " is not supported");
}

// The layout of the weights and the model's kind: checks class ids and weights, then sets
// single_score, outputs and kind of *m (m->transform already set).
Status ClassifyWeights(const OnnxNode& node, const TreeEnsembleAttributes& a, ImportedModel* m) {
  const size_t l = a.class_names.size();
  // One pass over the weights: class ids in range (the first bad one reported), weights finite
  // (reported after every id is checked, as before), the class ids used (a binary model may store
  // only one class's scores) and, per tree, its one class or -1 when it has several.
  bool only_first = true, only_second = true, all_positive = true, all_finite = true;
  std::map<int64_t, int64_t> first_class;  // tree -> its one class, or -1 when it has several
  auto it = first_class.end();  // the entry of the previous weight's tree (weights come tree by tree)
  for (size_t k = 0; k < a.class_ids.size(); ++k) {
    const int64_t id = a.class_ids[k];
    if (id < 0 || static_cast<uint64_t>(id) >= l) return OnnxCorrupt(node, "class id " + std::to_string(id) + " out of range");
    only_first = only_first && id == 0;
    only_second = only_second && id == 1;
    const double w = a.class_weights[k];
    all_finite = all_finite && std::isfinite(w);
    all_positive = all_positive && w >= 0;
    if (it == first_class.end() || it->first != a.class_tree_ids[k]) {
      bool inserted = false;
      std::tie(it, inserted) = first_class.emplace(a.class_tree_ids[k], id);
      if (inserted) continue;
    }
    if (it->second != id) it->second = -1;
  }
  if (!all_finite) return OnnxCorrupt(node, "a class weight is not finite");
  // ONNX Runtime's binary case: two labels and every weight for class id 0, which then scores
  // the second class (scikit-learn's and XGBoost's binary layout).
  // The opset-5 op has no such case: ArgMax reads its two targets as they are.
  const bool classifier = node.op_type != "TreeEnsemble";
  m->single_score = classifier && l == 2 && only_first && !a.class_ids.empty();
  m->outputs = m->single_score ? 1 : static_cast<int32_t>(l);
  // ONNX Runtime writes one stored score as two untransformed scores under SOFTMAX and
  // SOFTMAX_ZERO, ignoring the transform the file names: which one is meant is ambiguous.
  if (m->single_score && (m->transform == ScoreTransform::kSoftmax || m->transform == ScoreTransform::kSoftmaxZero)) {
    return OnnxUnsupported(node.Describe() + ": one stored score per leaf with post_transform " + a.post_transform +
                           " (ONNX Runtime ignores that transform here, so the file's scores are ambiguous)");
  }
  // The same binary case with every weight on class id 1: ONNX Runtime's scores are [0, s] and,
  // for non-negative weights without a transform, the second class needs s > 0.5.
  const bool second_only = classifier && l == 2 && only_second && !a.class_ids.empty();
  m->second_class_threshold = second_only && all_positive && m->transform == ScoreTransform::kNone;
  // Trees whose weights all go to one class (one tree per class, as boosting and the opset-5
  // op's one-target leaves lay them out) do not vote: when most trees are such, the model is
  // additive.
  bool per_class_trees = false;
  if (!m->single_score) {
    size_t single = 0;
    for (const auto& [tree, c] : first_class) single += c >= 0;
    per_class_trees = 2 * single > first_class.size();
  }
  m->kind = m->transform == ScoreTransform::kNone && all_positive && !per_class_trees
                ? ImportedKind::kVoting
                : ImportedKind::kAdditive;
  return Status::Ok();
}

// base_values: none, one per output or one per class, finite; a single-score model takes one.
Status BaseValues(const OnnxNode& node, const TreeEnsembleAttributes& a, ImportedModel* m) {
  if (a.base_values.empty()) return Status::Ok();
  const size_t l = a.class_names.size();
  if (a.base_values.size() != static_cast<size_t>(m->outputs) && a.base_values.size() != l) {
    return OnnxCorrupt(node, "base_values has " + std::to_string(a.base_values.size()) + " entries for " + std::to_string(l) + " classes");
  }
  for (double b : a.base_values) {
    if (!std::isfinite(b)) return OnnxCorrupt(node, "a base value is not finite");
  }
  if (m->single_score && a.base_values.size() != 1) {
    return OnnxUnsupported(node.Describe() + ": a binary model with one score per leaf and two base values (ONNX Runtime's scores are ill-defined there)");
  }
  const bool second_only = node.op_type != "TreeEnsemble" && l == 2 && !a.class_ids.empty() &&
                           std::all_of(a.class_ids.begin(), a.class_ids.end(), [](int64_t id) { return id == 1; });
  if (second_only) {
    return OnnxUnsupported(node.Describe() + ": two labels, every weight on class id 1, and base values (ONNX Runtime drops the trees' sum there)");
  }
  m->base_values = a.base_values;
  return Status::Ok();
}

// The import record without its leaves: transform, layout, kind, vote, source, base values.
Result<ImportedModel> ImportRecord(const OnnxModel& model, const OnnxNode& node, const TreeEnsembleAttributes& a) {
  ImportedModel m;
  Result<ScoreTransform> transform = PostTransform(node, a.post_transform);
  if (!transform.ok()) return transform.status();
  m.transform = transform.value();
  if (Status s = ClassifyWeights(node, a, &m); !s.ok()) return s;
  m.default_vote = VoteKind::kSoft;
  // ArgMax after the opset-5 op reads the transformed scores, as float32. Without a transform and
  // with three or more classes that is the rule every such model follows (ClassOf), so the record
  // says so only where it differs (and those models keep their bytes).
  m.label_from_scores = node.op_type == "TreeEnsemble" && (m.transform != ScoreTransform::kNone || m.outputs == 2);
  m.source = model.producer_name + (model.producer_version.empty() ? "" : " " + model.producer_version);
  if (!IsUtf8(m.source)) m.source.clear();
  if (Status s = BaseValues(node, a, &m); !s.ok()) return s;
  return m;
}

// Trees in increasing id order; each node's index by (tree, node id).
Result<SourceTrees> IndexTrees(const OnnxNode& node, const TreeEnsembleAttributes& a) {
  SourceTrees trees;
  internal::SourceTree* tree = nullptr;  // the previous node's tree (nodes come tree by tree)
  for (size_t i = 0; i < a.node_ids.size(); ++i) {
    if (i == 0 || a.tree_ids[i] != a.tree_ids[i - 1]) tree = &trees[a.tree_ids[i]];
    tree->by_id.Add(a.node_ids[i], i);
  }
  size_t repeat = SIZE_MAX;  // the first node (in attribute order) whose id its tree already had
  for (auto& [id, t] : trees) repeat = std::min(repeat, t.by_id.Seal());
  if (repeat != SIZE_MAX) {
    return OnnxCorrupt(node, "tree " + std::to_string(a.tree_ids[repeat]) + " has node id " +
                                 std::to_string(a.node_ids[repeat]) + " twice");
  }
  if (trees.size() > static_cast<size_t>(TrainOptions::kMaxTrees)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 100,000 trees");
  }
  return trees;
}

// Whether the model needs ImportedModel::named: three or more classes without base values, as
// ONNX Runtime's label skips a class no reached leaf named; the opset-5 op is read through ArgMax,
// which skips no class.
bool MayNeedNamed(const OnnxNode& node, const ImportedModel& m) {
  return m.outputs >= 3 && m.base_values.empty() && node.op_type != "TreeEnsemble";
}

// The leaf table: one row per LEAF node in attribute order (row_of[i] for node i), summing its
// class entries (leaves x m.outputs values); with MayNeedNamed, `named` marks the classes each
// row's entries name (leaves x m.outputs bytes), in the same pass.
struct LeafTable {
  std::vector<uint32_t> row_of;
  std::vector<double> values;
  std::vector<uint8_t> named;
};
Result<LeafTable> SumLeaves(const OnnxNode& node, const TreeEnsembleAttributes& a, const ImportedModel& m,
                            const SourceTrees& trees) {
  LeafTable out;
  out.row_of.assign(a.node_ids.size(), 0);
  size_t leaves = 0;
  for (size_t i = 0; i < a.node_ids.size(); ++i) {
    if (internal::IsLeafMode(a.modes[i])) out.row_of[i] = static_cast<uint32_t>(leaves++);
  }
  if (leaves * m.outputs > (size_t{1} << 28)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model's leaves hold more than 2^28 values");
  }
  const size_t k = static_cast<size_t>(m.outputs);
  out.values.assign(leaves * k, 0.0);
  const bool mark = MayNeedNamed(node, m);
  if (mark) out.named.assign(leaves * k, 0);
  double* row = out.values.data();  // the leaf row of weight e - 1; a leaf's weights usually come one after another
  uint8_t* named = out.named.data();
  for (size_t e = 0; e < a.class_ids.size(); ++e) {
    if (e == 0 || a.class_tree_ids[e] != a.class_tree_ids[e - 1] || a.class_node_ids[e] != a.class_node_ids[e - 1]) {
      auto tree = trees.find(a.class_tree_ids[e]);
      if (tree == trees.end()) return OnnxCorrupt(node, "a class weight names tree " + std::to_string(a.class_tree_ids[e]) + ", which does not exist");
      auto it = tree->second.by_id.find(a.class_node_ids[e]);
      if (it == tree->second.by_id.end() || !internal::IsLeafMode(a.modes[it->second])) {
        return OnnxCorrupt(node, "a class weight names node " + std::to_string(a.class_node_ids[e]) + " of tree " +
                                     std::to_string(a.class_tree_ids[e]) + ", which is not a leaf");
      }
      row = out.values.data() + out.row_of[it->second] * k;
      if (mark) named = out.named.data() + out.row_of[it->second] * k;
    }
    const size_t column = m.single_score ? 0 : static_cast<size_t>(a.class_ids[e]);
    row[column] += a.class_weights[e];
    if (mark) named[column] = 1;
  }
  return out;
}

// Which classes each leaf row names (ImportedModel::named; *leaves' marks, moved out). Empty when
// it cannot matter: every class is named by every leaf of some tree, so every row reaches a leaf
// naming it, or the model has no such table (MayNeedNamed).
std::vector<uint8_t> NamedClasses(const TreeEnsembleAttributes& a, const ImportedModel& m, const SourceTrees& trees,
                                  LeafTable* leaves) {
  std::vector<uint8_t> named = std::move(leaves->named);
  if (named.empty()) return {};
  const size_t k = static_cast<size_t>(m.outputs);
  std::vector<uint8_t> covered(k, 0), all(k);
  for (const auto& [id, tree] : trees) {
    std::fill(all.begin(), all.end(), uint8_t{1});
    bool any_leaf = false;
    for (const auto& [node_id, i] : tree.by_id) {
      if (!internal::IsLeafMode(a.modes[i])) continue;
      any_leaf = true;
      const uint8_t* row = named.data() + leaves->row_of[i] * k;
      for (size_t c = 0; c < k; ++c) all[c] &= row[c];
    }
    for (size_t c = 0; c < k; ++c) covered[c] |= any_leaf && all[c];
  }
  if (std::all_of(covered.begin(), covered.end(), [](uint8_t c) { return c != 0; })) return {};
  return named;
}

// Each leaf row's hard vote: its top class (the first on ties, as numpy's argmax).
std::vector<uint32_t> HardVotes(const ImportedModel& m, const std::vector<double>& values, size_t num_trees) {
  const size_t k = static_cast<size_t>(m.outputs);
  std::vector<uint32_t> votes(values.size() / k, 0);
  for (size_t r = 0; r < votes.size(); ++r) {
    const double* v = values.data() + r * k;
    uint32_t best = 0;
    if (m.single_score) {
      // A voting tree's leaf holds p / T, p its second-class fraction: it votes for the second
      // class when p > 1/2 (first class on ties, as scikit-learn's argmax; 1e-6 absorbs float32
      // rounding of p / T). A margin votes by its sign.
      best = m.kind == ImportedKind::kVoting ? (v[0] * static_cast<double>(num_trees) > 0.5 + 1e-6) : v[0] > 0;
    } else {
      // The leader's value kept at hand (not reloaded per class): the loop carries no load.
      double top = v[0];
      for (int32_t c = 1; c < m.outputs; ++c) {
        if (v[c] > top) {
          top = v[c];
          best = static_cast<uint32_t>(c);
        }
      }
    }
    votes[r] = best;
  }
  return votes;
}

// The schema: the input's width (else the largest split feature + 1) numeric columns named by
// options.feature_names or "f0", "f1", ...; the classes and target name.
Result<Schema> ImportSchema(const TreeEnsembleAttributes& a, int64_t width, const OnnxImportOptions& options) {
  int64_t max_feature = -1;
  for (size_t i = 0; i < a.feature_ids.size(); ++i) {
    if (!internal::IsLeafMode(a.modes[i])) max_feature = std::max(max_feature, a.feature_ids[i]);
  }
  const int64_t num_features = width > 0 ? width : std::max<int64_t>(max_feature + 1, 1);
  if (num_features > static_cast<int64_t>(DatasetLimits::kMaxFeatures)) {
    return Status::Error(StatusCode::kLimitExceeded, "the model has more than 65,536 input columns");
  }
  if (!options.feature_names.empty() &&
      options.feature_names.size() != static_cast<size_t>(num_features)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "feature names: the model takes " + std::to_string(num_features) +
                             " columns, " + std::to_string(options.feature_names.size()) + " names were given");
  }
  Schema schema;
  schema.target_name = options.target_name;
  schema.class_names = a.class_names;
  for (int64_t f = 0; f < num_features; ++f) {
    FeatureInfo info;
    info.name = options.feature_names.empty() ? "f" + std::to_string(f) : options.feature_names[f];
    info.type = FeatureType::kNumeric;
    for (const FeatureInfo& other : schema.features) {
      if (other.name == info.name) {
        return Status::Error(StatusCode::kInvalidArgument, "feature name " + OnnxQuoted(info.name) + " appears twice");
      }
    }
    if (info.name.empty() || !IsUtf8(info.name)) {
      return Status::Error(StatusCode::kInvalidArgument, "feature name " + std::to_string(f) + " is empty or not UTF-8");
    }
    schema.features.push_back(std::move(info));
  }
  return schema;
}

// Writes the model through a ForestBuilder: schema, record, leaves with their hard votes, trees.
Result<Forest> BuildForest(const OnnxNode& node, const TreeEnsembleAttributes& a, Schema schema,
                           ImportedModel record, LeafTable leaves, const SourceTrees& trees) {
  const int64_t num_features = static_cast<int64_t>(schema.features.size());
  std::vector<uint32_t> votes = HardVotes(record, leaves.values, trees.size());
  std::vector<uint8_t> named = NamedClasses(a, record, trees, &leaves);
  ForestBuilder builder;
  if (Status s = builder.SetSchema(std::move(schema)); !s.ok()) return s;
  if (Status s = builder.SetImported(std::move(record)); !s.ok()) return s;
  if (Status s = builder.SetLeaves(std::move(leaves.values), std::move(votes)); !s.ok()) return s;
  if (!named.empty()) {
    if (Status s = builder.SetLeafClassesNamed(std::move(named)); !s.ok()) return s;
  }
  if (Status s = internal::WriteSourceTrees(node, a, trees, leaves.row_of, num_features, &builder); !s.ok()) {
    return s;
  }
  return builder.Finish();
}

}  // namespace

Result<Forest> ImportOnnx(const uint8_t* data, size_t size, const OnnxImportOptions& options) {
  Result<OnnxModel> parsed = internal::ParseOnnxModel(data, size);
  if (!parsed.ok()) return parsed.status();
  OnnxModel& model = parsed.value();
  std::string input_name;
  int64_t width = -1;
  Result<const OnnxNode*> found = internal::FindTreeNode(model, &input_name, &width);
  if (!found.ok()) return found.status();
  // The parsed model is this call's: the tree node's lists move into the attributes (nothing
  // below reads them from the node).
  OnnxNode& node = model.nodes[static_cast<size_t>(found.value() - model.nodes.data())];
  Result<TreeEnsembleAttributes> read = internal::ReadTreeEnsembleAttributes(&node);
  if (!read.ok()) return read.status();
  TreeEnsembleAttributes& a = read.value();
  if (Status s = CheckClasses(node, options, &a); !s.ok()) return s;
  Result<ImportedModel> record = ImportRecord(model, node, a);
  if (!record.ok()) return record.status();
  Result<SourceTrees> trees = IndexTrees(node, a);
  if (!trees.ok()) return trees.status();
  const internal::ImportEstimate estimate =
      internal::EstimateImport(a, trees.value().size(), static_cast<size_t>(record.value().outputs));
  if (Status s = internal::CheckImportBudget(estimate, internal::ImportBudget(size, options.max_memory_bytes));
      !s.ok()) {
    return s;
  }
  Result<LeafTable> leaves = SumLeaves(node, a, record.value(), trees.value());
  if (!leaves.ok()) return leaves.status();
  Result<Schema> schema = ImportSchema(a, width, options);
  if (!schema.ok()) return schema.status();
  return BuildForest(node, a, std::move(schema).value(), std::move(record).value(),
                     std::move(leaves).value(), trees.value());
}

}  // namespace urnforest
