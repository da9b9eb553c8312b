// ExportOnnx: a Forest written as an ONNX TreeEnsembleClassifier (ai.onnx.ml opset 3) whose
// label and scores in ONNX Runtime are the forest's (see urnforest/onnx_export.h and
// tests/fixtures/onnx/ENCODING.md for ONNX Runtime's rules).
#include "urnforest/onnx_export.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "onnx/protobuf_writer.h"

namespace urnforest {
namespace {

using internal::ProtoWriter;

constexpr size_t kMaxNodes = size_t{1} << 26;
constexpr size_t kMaxWeights = size_t{1} << 28;
constexpr double kGrid = 16777216.0;  // 2^24: weights are multiples of 2^-24
constexpr int32_t kMaxBinaryTrees = 4186;
constexpr const char* kVersion = "0.1.0";

// The parallel attribute arrays of a TreeEnsembleClassifier.
struct Ensemble {
  std::vector<int64_t> tree_ids, node_ids, feature_ids, true_ids, false_ids, missing_true;
  std::vector<std::string> modes;
  std::vector<float> values;
  std::vector<int64_t> class_tree_ids, class_node_ids, class_ids;
  std::vector<float> class_weights;
};

// How a leaf's class entries are written.
struct LeafWriter {
  const Forest* forest = nullptr;
  const ImportedModel* imported = nullptr;
  std::vector<float> tree_weight;  // per tree: the weight of its vote (trained forests)
  bool binary = false;             // one score per leaf (class id 0 scores the second class)

  void Write(int64_t tree, int64_t id, const TreeNode& leaf, Ensemble* e) const {
    auto add = [&](int64_t class_id, float weight) {
      e->class_tree_ids.push_back(tree);
      e->class_node_ids.push_back(id);
      e->class_ids.push_back(class_id);
      e->class_weights.push_back(weight);
    };
    if (imported != nullptr) {
      const size_t row = static_cast<size_t>(leaf.aux) * imported->outputs;
      const double* v = imported->leaf_values.data() + row;
      for (int32_t j = 0; j < imported->outputs; ++j) {
        // A class the source leaf did not name stays unnamed, so that ONNX Runtime skips it alike.
        if (imported->named.empty() || imported->named[row + j]) add(j, static_cast<float>(v[j]));
      }
      return;
    }
    const float w = tree_weight[tree];
    if (binary) {
      add(0, leaf.child_or_class == 1 ? w : 0.0f);
      return;
    }
    for (int32_t c = 0; c < forest->num_classes(); ++c) {
      add(c, static_cast<uint32_t>(c) == leaf.child_or_class ? w : 0.0f);
    }
  }
};

// Writes the trees of a forest node by node, following every path from each root.
class TreeWriter {
 public:
  TreeWriter(const Forest& forest, const LeafWriter& leaves) : forest_(forest), leaves_(leaves) {}

  Status WriteTree(int64_t tree, uint32_t root, Ensemble* e) {
    const std::vector<TreeNode>& nodes = forest_.node_table().nodes;
    const std::vector<uint32_t>& bits = forest_.node_table().category_bits;
    // (source node, index of the written node whose child it is, true branch?); -1 for the root.
    struct Item {
      uint32_t node;
      int64_t parent;
      bool is_true;
    };
    std::vector<Item> work{{root, -1, false}};
    int64_t next_id = 0;
    while (!work.empty()) {
      const Item item = work.back();
      work.pop_back();
      const TreeNode& n = nodes[item.node];
      // Emits one node and links it to its parent; returns its index in the arrays.
      auto emit = [&](int64_t parent, bool is_true, int32_t feature, const char* mode, float value,
                      bool missing_true) -> int64_t {
        const int64_t index = static_cast<int64_t>(e->node_ids.size());
        const int64_t id = next_id++;
        e->tree_ids.push_back(tree);
        e->node_ids.push_back(id);
        e->feature_ids.push_back(feature);
        e->modes.emplace_back(mode);
        e->values.push_back(value);
        e->true_ids.push_back(0);
        e->false_ids.push_back(0);
        e->missing_true.push_back(missing_true ? 1 : 0);
        if (parent >= 0) (is_true ? e->true_ids : e->false_ids)[parent] = id;
        return index;
      };
      if (e->node_ids.size() >= kMaxNodes) {
        return Status::Error(StatusCode::kLimitExceeded,
                             "the exported trees would exceed 2^26 nodes (categorical splits and "
                             "shared nodes are written as copies)");
      }
      if (n.feature < 0) {
        const int64_t at = emit(item.parent, item.is_true, 0, "LEAF", 0.0f, false);
        leaves_.Write(tree, e->node_ids[at], n, e);
        if (e->class_ids.size() > kMaxWeights) {
          return Status::Error(StatusCode::kLimitExceeded, "the exported trees would exceed 2^28 class weights");
        }
        continue;
      }
      const bool missing_left = (n.aux & TreeNode::kMissingLeft) != 0;
      const uint32_t left = n.child_or_class;
      if ((n.aux & TreeNode::kCategoricalSplit) == 0) {
        const TreeNode& b = nodes[left];
        // An imported BRANCH_EQ pair (A: x <= t ? B : out; B: x <= t- ? out : in, B's left child
        // shared with A's right one): x == t goes in, NaN goes in iff A sends it left.
        const bool eq_pair = b.feature == n.feature && (b.aux & 3u) == 0 &&
                             b.child_or_class == left + 1 && n.threshold > -std::numeric_limits<float>::infinity() &&
                             b.threshold == std::nextafter(n.threshold, -std::numeric_limits<float>::infinity());
        if (eq_pair) {
          const int64_t at = emit(item.parent, item.is_true, n.feature, "BRANCH_EQ", n.threshold, missing_left);
          work.push_back({left + 1, at, false});
          work.push_back({b.child_or_class + 1, at, true});
        } else {
          const int64_t at = emit(item.parent, item.is_true, n.feature, "BRANCH_LEQ", n.threshold, missing_left);
          work.push_back({left + 1, at, false});
          work.push_back({left, at, true});
        }
        continue;
      }
      // Categorical: a chain of BRANCH_NEQ nodes, one per category that goes against the
      // missing-value side (false: that side); the chain's end (no category matched: another
      // category, NaN, out of range, non-integral) takes the missing-value side, as GoesLeft does.
      // Not BRANCH_EQ linked by false branches: onnxruntime-web 1.30 routed such chains on one
      // feature wrongly (one vote off on some soybean rows), the NEQ form exactly.
      const uint32_t count = forest_.category_counts()[n.feature];
      const uint32_t* set = bits.data() + (n.aux >> 2);
      const uint32_t missing_side = missing_left ? left : left + 1;
      const uint32_t other_side = missing_left ? left + 1 : left;
      int64_t parent = item.parent;
      bool is_true = item.is_true;
      for (uint32_t c = 0; c < count; ++c) {
        const bool goes_left = (set[c >> 5] >> (c & 31u)) & 1u;
        if (goes_left == missing_left) continue;
        const int64_t at = emit(parent, is_true, n.feature, "BRANCH_NEQ", static_cast<float>(c), false);
        work.push_back({other_side, at, false});
        parent = at;
        is_true = true;
      }
      work.push_back({missing_side, parent, is_true});
    }
    return Status::Ok();
  }

 private:
  const Forest& forest_;
  const LeafWriter& leaves_;
};

// Name of a ScoreTransform in ONNX.
const char* TransformName(ScoreTransform t) {
  switch (t) {
    case ScoreTransform::kLogistic: return "LOGISTIC";
    case ScoreTransform::kSoftmax: return "SOFTMAX";
    case ScoreTransform::kSoftmaxZero: return "SOFTMAX_ZERO";
    case ScoreTransform::kNone: break;
  }
  return "NONE";
}

// True when `name` is an int64 in canonical decimal form (what ImportOnnx makes of int64 labels).
bool CanonicalInt64(const std::string& name, int64_t* value) {
  if (name.empty() || name.size() > 20) return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(name.c_str(), &end, 10);
  if (errno != 0 || end != name.c_str() + name.size()) return false;
  if (std::to_string(v) != name) return false;
  *value = v;
  return true;
}

// Attribute writers (AttributeProto: name 1, f 2, i 3, s 4, floats 7, ints 8, strings 9, type 20).
void IntsAttr(ProtoWriter* node, const char* name, const std::vector<int64_t>& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  a.PackedVarints(8, v);
  a.Varint(20, 7);
  node->Message(5, a);
}
void FloatsAttr(ProtoWriter* node, const char* name, const std::vector<float>& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  a.PackedFloats(7, v);
  a.Varint(20, 6);
  node->Message(5, a);
}
void StringsAttr(ProtoWriter* node, const char* name, const std::vector<std::string>& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  for (const std::string& s : v) a.Bytes(9, s);
  a.Varint(20, 8);
  node->Message(5, a);
}
void StringAttr(ProtoWriter* node, const char* name, const std::string& v) {
  ProtoWriter a;
  a.Bytes(1, name);
  a.Bytes(4, v);
  a.Varint(20, 3);
  node->Message(5, a);
}

// ValueInfoProto of a tensor: name, elem_type and dims (-1 = the symbolic batch size "N").
ProtoWriter TensorInfo(const char* name, int32_t elem_type, const std::vector<int64_t>& dims,
                       const std::string& doc) {
  ProtoWriter shape;
  for (int64_t d : dims) {
    ProtoWriter dim;
    if (d < 0) dim.Bytes(2, "N");
    else dim.Varint(1, static_cast<uint64_t>(d));
    shape.Message(1, dim);
  }
  ProtoWriter tensor;
  tensor.Varint(1, static_cast<uint64_t>(elem_type));
  tensor.Message(2, shape);
  ProtoWriter type;
  type.Message(1, tensor);
  ProtoWriter info;
  info.Bytes(1, name);
  info.Message(2, type);
  if (!doc.empty()) info.Bytes(3, doc);
  return info;
}

// Each tree's vote weight for a forest trained here, a multiple of 2^-24 (see the header).
Result<std::vector<float>> VoteWeights(const Forest& forest) {
  const int32_t trees = forest.num_trees();
  std::vector<float> w(trees);
  if (!forest.tree_weights().empty()) {
    double sum = 0.0;
    for (double a : forest.tree_weights()) sum += a;
    if (!(sum > 0.0) || !std::isfinite(sum)) {
      return Status::Error(StatusCode::kUnsupportedModel,
                           "the AdaBoost tree weights do not have a positive, finite sum");
    }
    for (int32_t t = 0; t < trees; ++t) {
      w[t] = static_cast<float>(std::floor(forest.tree_weights()[t] / sum * kGrid) / kGrid);
    }
    return w;
  }
  const double m = std::floor(kGrid / trees);
  // Two classes: a majority of one vote must score above 1/2, a tie at most 1/2. True for every
  // T up to 4,186 and false for 4,187; larger forests are refused (only some of them would do).
  if (forest.num_classes() == 2 &&
      (trees > kMaxBinaryTrees || (std::floor(trees / 2.0) + 1.0) * m <= kGrid / 2.0)) {
    return Status::Error(StatusCode::kUnsupportedModel,
                         "a two-class forest of " + std::to_string(trees) +
                             " trees: ONNX Runtime's float32 score cannot separate a tie from a "
                             "majority of one vote (two-class forests export up to 4,186 trees)");
  }
  for (float& x : w) x = static_cast<float>(m / kGrid);
  return w;
}

}  // namespace

Result<std::vector<uint8_t>> ExportOnnx(const Forest& forest) {
  if (forest.num_trees() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  }
  const int32_t classes = forest.num_classes();
  LeafWriter leaves;
  leaves.forest = &forest;
  leaves.imported = forest.imported();
  std::string post_transform = "NONE";
  std::vector<float> base_values;
  if (leaves.imported != nullptr) {
    const ImportedModel& m = *leaves.imported;
    if (classes == 2 && !m.single_score) {
      return Status::Error(StatusCode::kUnsupportedModel,
                           "an imported two-class model that scores both classes separately: "
                           "ONNX Runtime labels that layout by the sign of the second score");
    }
    if (m.label_from_scores) {
      return Status::Error(StatusCode::kUnsupportedModel,
                           "an imported opset-5 model labelled from its transformed scores: "
                           "TreeEnsembleClassifier labels from the summed scores");
    }
    post_transform = TransformName(m.transform);
    for (double b : m.base_values) base_values.push_back(static_cast<float>(b));
  } else {
    leaves.binary = classes == 2;
    Result<std::vector<float>> w = VoteWeights(forest);
    if (!w.ok()) return w.status();
    leaves.tree_weight = std::move(w).value();
  }

  Ensemble e;
  TreeWriter writer(forest, leaves);
  for (int32_t t = 0; t < forest.num_trees(); ++t) {
    Status s = writer.WriteTree(t, forest.tree_roots()[t], &e);
    if (!s.ok()) return s;
  }

  ProtoWriter node;
  node.Bytes(1, "X");
  node.Bytes(2, "label");
  node.Bytes(2, "probabilities");
  node.Bytes(3, "urnforest_trees");
  node.Bytes(4, "TreeEnsembleClassifier");
  std::vector<int64_t> int_labels;
  for (const std::string& name : forest.schema().class_names) {
    int64_t v = 0;
    if (!CanonicalInt64(name, &v)) break;
    int_labels.push_back(v);
  }
  const bool int64_labels = int_labels.size() == static_cast<size_t>(classes);
  if (int64_labels) IntsAttr(&node, "classlabels_int64s", int_labels);
  else StringsAttr(&node, "classlabels_strings", forest.schema().class_names);
  IntsAttr(&node, "nodes_treeids", e.tree_ids);
  IntsAttr(&node, "nodes_nodeids", e.node_ids);
  IntsAttr(&node, "nodes_featureids", e.feature_ids);
  StringsAttr(&node, "nodes_modes", e.modes);
  FloatsAttr(&node, "nodes_values", e.values);
  IntsAttr(&node, "nodes_truenodeids", e.true_ids);
  IntsAttr(&node, "nodes_falsenodeids", e.false_ids);
  IntsAttr(&node, "nodes_missing_value_tracks_true", e.missing_true);
  IntsAttr(&node, "class_treeids", e.class_tree_ids);
  IntsAttr(&node, "class_nodeids", e.class_node_ids);
  IntsAttr(&node, "class_ids", e.class_ids);
  FloatsAttr(&node, "class_weights", e.class_weights);
  if (!base_values.empty()) FloatsAttr(&node, "base_values", base_values);
  StringAttr(&node, "post_transform", post_transform);
  node.Bytes(7, "ai.onnx.ml");

  ProtoWriter graph;
  graph.Message(1, node);
  graph.Bytes(2, "urnforest");
  graph.Message(11, TensorInfo("X", 1, {-1, forest.num_features()},
                               "one row per instance: numeric features as numbers, categorical "
                               "features as category indices, NaN = missing"));
  graph.Message(12, TensorInfo("label", int64_labels ? 7 : 8, {-1}, ""));
  graph.Message(12, TensorInfo("probabilities", 1, {-1, classes}, ""));

  ProtoWriter model;
  model.Varint(1, 8);  // ir_version
  model.Bytes(2, "urnforest");
  model.Bytes(3, kVersion);
  model.Message(7, graph);
  for (const auto& [domain, version] : {std::pair<const char*, int>{"", 15}, {"ai.onnx.ml", 3}}) {
    ProtoWriter opset;
    opset.Bytes(1, domain);
    opset.Varint(2, static_cast<uint64_t>(version));
    model.Message(8, opset);
  }
  return model.Release();
}

}  // namespace urnforest
