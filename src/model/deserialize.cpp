// Reads and validates the versioned binary model format (src/model/model_format.h).
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "base/byte_io.h"
#include "base/crc32.h"
#include "base/utf8.h"
#include "ensemble/forest_access.h"
#include "model/calibration_section.h"
#include "model/stratified_section.h"
#include "model/imported_label_rules.h"
#include "model/imported_scores.h"
#include "model/model_format.h"
#include "urnforest/forest.h"
#include "urnforest/serialize.h"

namespace urnforest {

using namespace model_format;  // the format's tags and constants

namespace {

Status Corrupt(const std::string& what) {
  return Status::Error(StatusCode::kCorruptModel, what);
}

bool IsUtf8(std::string_view s) { return internal::FirstInvalidUtf8(s) == s.size(); }


Status ReadSchema(internal::ByteReader r, Schema* schema) {
  schema->target_name = r.Str();
  const uint32_t classes = r.U32();
  if (r.failed() || classes < 2 || classes > DatasetLimits::kMaxClasses || classes > r.remaining() / 4) {
    return Corrupt("bad class count");
  }
  schema->class_names.resize(classes);
  for (std::string& name : schema->class_names) name = r.Str();
  const uint32_t features = r.U32();
  if (r.failed() || features < 1 || features > DatasetLimits::kMaxFeatures ||
      features > r.remaining() / 9) {
    return Corrupt("bad feature count");
  }
  schema->features.resize(features);
  for (FeatureInfo& f : schema->features) {
    f.name = r.Str();
    const uint8_t type = r.U8();
    const uint32_t categories = r.U32();
    if (r.failed() || type > 1 || categories > DatasetLimits::kMaxCategories ||
        categories > r.remaining() / 4 || (type == 0 && categories != 0)) {
      return Corrupt("bad feature " + std::to_string(&f - schema->features.data()));
    }
    f.type = static_cast<FeatureType>(type);
    f.categories.resize(categories);
    for (std::string& c : f.categories) c = r.Str();
  }
  if (r.failed() || !r.at_end()) return Corrupt("bad schema section");
  // Names reach JSON, JS strings and messages: bytes that are not UTF-8 are a corrupt model (a
  // writer never produces them: every name came from validated UTF-8 text).
  if (!IsUtf8(schema->target_name)) return Corrupt("the target name is not UTF-8");
  for (size_t c = 0; c < schema->class_names.size(); ++c) {
    if (!IsUtf8(schema->class_names[c])) return Corrupt("class name " + std::to_string(c) + " is not UTF-8");
  }
  for (size_t j = 0; j < schema->features.size(); ++j) {
    const FeatureInfo& f = schema->features[j];
    if (!IsUtf8(f.name)) return Corrupt("feature name " + std::to_string(j) + " is not UTF-8");
    for (const std::string& c : f.categories) {
      if (!IsUtf8(c)) return Corrupt("a category of feature " + std::to_string(j) + " is not UTF-8");
    }
  }
  return Status::Ok();
}

Status ReadOptions(internal::ByteReader r, size_t features, TrainOptions* o) {
  const uint8_t ensemble = r.U8();
  o->num_trees = r.I32();
  o->mtry = r.I32();
  const uint8_t rule = r.U8();
  o->max_depth = r.I32();
  o->min_leaf = r.I32();
  o->seed = r.U64();
  if (r.failed() || !r.at_end() || rule > 2 || o->num_trees < 1 ||
      o->num_trees > TrainOptions::kMaxTrees || o->mtry < 0 || ensemble > 4 ||
      static_cast<size_t>(o->mtry) > features || o->max_depth < 0 || o->min_leaf < 1) {
    return Corrupt("bad options section");
  }
  o->ensemble = static_cast<EnsembleKind>(ensemble);
  o->mtry_rule = static_cast<MtryRule>(rule);
  return Status::Ok();
}

// Trees must occupy disjoint, consecutive blocks of the node table in tree order, each starting at
// its root, with every child inside its own tree's block (and after its parent). So a row costs at
// most one visit per node of the file, whatever the file says: a hostile file cannot make trees
// share one long chain of nodes.
Status ValidateNodes(const Forest& f) {
  const size_t n = f.node_table().nodes.size();
  // A leaf's aux: 0, or its row of leaf values in an imported forest.
  const uint64_t leaf_rows = f.imported() == nullptr
                                 ? 1
                                 : f.imported()->leaf_values.size() / f.imported()->outputs;
  const uint32_t classes = static_cast<uint32_t>(f.num_classes());
  const int32_t features = f.num_features();
  const std::vector<uint32_t>& roots = f.tree_roots();
  if (!roots.empty() && roots[0] != 0) return Corrupt("the first tree does not start at node 0");
  for (size_t t = 1; t < roots.size(); ++t) {
    if (roots[t] <= roots[t - 1]) return Corrupt("tree roots are not strictly increasing");
  }
  size_t tree = 0;
  for (size_t i = 0; i < n; ++i) {
    while (tree + 1 < roots.size() && i >= roots[tree + 1]) ++tree;
    const uint64_t tree_end = tree + 1 < roots.size() ? roots[tree + 1] : n;
    const Forest::Node& node = f.node_table().nodes[i];
    uint32_t threshold_bits;
    std::memcpy(&threshold_bits, &node.threshold, sizeof threshold_bits);
    const std::string where = "node " + std::to_string(i) + ": ";
    if (node.feature == -1) {
      if (node.child_or_class >= classes) return Corrupt(where + "class out of range");
      if (node.aux >= leaf_rows || threshold_bits != 0) return Corrupt(where + "bad leaf");
      continue;
    }
    if (node.feature < 0 || node.feature >= features) return Corrupt(where + "bad feature");
    const uint64_t left = node.child_or_class;
    if (left <= i || left + 1 >= tree_end) return Corrupt(where + "child index out of range");
    if (f.schema().features[node.feature].type == FeatureType::kCategorical) {
      const uint64_t offset = node.aux >> 2;
      if (!(node.aux & Forest::kCategoricalSplit) || threshold_bits != 0 ||
          offset + f.CategoryWords(node.feature) > f.node_table().category_bits.size()) {
        return Corrupt(where + "bad categorical split");
      }
    } else if ((node.aux & ~Forest::kMissingLeft) != 0 || std::isnan(node.threshold)) {
      return Corrupt(where + "bad numeric split");
    }
  }
  return Status::Ok();
}

// IMPT: the import record; shapes checked against the schema's classes.
Status ReadImported(internal::ByteReader r, int32_t classes, ImportedModel* m) {
  const uint8_t kind = r.U8();
  const uint8_t transform = r.U8();
  const uint8_t single = r.U8();
  const uint8_t vote = r.U8();
  const uint8_t calibrated = r.U8();
  m->outputs = r.I32();
  if (r.failed() || kind > 1 || transform > 3 || single > 1 || vote > 1 || calibrated > 1 ||
      (single == 1 && classes != 2) || m->outputs != (single == 1 ? 1 : classes)) {
    return Corrupt("bad import section");
  }
  m->kind = static_cast<ImportedKind>(kind);
  m->transform = static_cast<ScoreTransform>(transform);
  m->single_score = single == 1;
  m->default_vote = static_cast<VoteKind>(vote);
  m->calibrated = calibrated == 1;
  const uint32_t bases = r.U32();
  if (r.failed() || (bases != 0 && bases != static_cast<uint32_t>(m->outputs))) {
    return Corrupt("bad import base values");
  }
  m->base_values.resize(bases);
  for (double& b : m->base_values) b = r.F64();
  const uint64_t values = r.Count(8);
  if (r.failed() || values == 0 || values % static_cast<uint64_t>(m->outputs) != 0) {
    return Corrupt("bad import leaf values");
  }
  m->leaf_values.resize(values);
  for (double& v : m->leaf_values) v = r.F64();
  m->source = r.Str();
  if (!IsUtf8(m->source)) return Corrupt("the import source is not UTF-8");
  MarginCalibration& margin = m->margin;
  margin.rows = r.U32();
  margin.scale = r.F64();
  const uint32_t grid = r.U32();
  if (r.failed() || grid > r.remaining() / 20 || !std::isfinite(margin.scale) || margin.scale < 0) {
    return Corrupt("bad margin calibration");
  }
  for (uint32_t i = 0; i < grid; ++i) {
    margin.lambdas.push_back(r.F64());
    margin.wrong.push_back(r.U32());
    margin.mean_trees.push_back(r.F64());
    if (r.failed() || !std::isfinite(margin.lambdas.back()) || margin.wrong.back() > margin.rows ||
        !(margin.mean_trees.back() >= 0) || (i > 0 && !(margin.lambdas[i] > margin.lambdas[i - 1]))) {
      return Corrupt("bad margin calibration");
    }
  }
  if (Status s = internal::ReadImportedLabelRules(&r, m); !s.ok()) return s;
  if (r.failed() || !r.at_end()) return Corrupt("bad import section");
  for (double v : m->base_values) {
    if (!std::isfinite(v)) return Corrupt("bad import base values");
  }
  for (double v : m->leaf_values) {
    if (!std::isfinite(v)) return Corrupt("bad import leaf values");
  }
  return Status::Ok();
}

// HTBL: every table must load through HaltingTable::FromBytes and fit the forest (classes, T),
// with no (rule, alpha, T) twice. The count is bounded by the bytes present (>= 8 per table).
Status ReadStoredTables(internal::ByteReader r, Forest* forest) {
  const uint32_t count = r.U32();
  if (r.failed() || count > r.remaining() / 8) return Corrupt("bad halting-table count");
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t length = r.U64();
    if (r.failed() || length > r.remaining()) return Corrupt("truncated stored halting table");
    const uint8_t* bytes = r.Bytes(static_cast<size_t>(length));
    Result<HaltingTable> table = HaltingTable::FromBytes(bytes, static_cast<size_t>(length));
    if (!table.ok()) return Corrupt("stored " + table.status().message);
    const HaltingTable& t = table.value();
    if (t.num_classes() != forest->num_classes() || t.num_trees() > forest->num_trees()) {
      return Corrupt("stored halting table does not fit the forest (classes or trees)");
    }
    if (forest->FindStoredTable(t.rule(), t.alpha(), t.num_trees()) != nullptr) {
      return Corrupt("stored halting table repeated");
    }
    internal::ForestAccess::stored_tables(*forest).push_back(std::move(table).value());
  }
  if (r.failed() || !r.at_end()) return Corrupt("bad halting-table section");
  return Status::Ok();
}

}  // namespace

Result<Forest> DeserializeForest(const uint8_t* data, size_t size) {
  if (data == nullptr || size < 4 || std::memcmp(data, "URNF", 4) != 0) {
    return Corrupt("not an urnforest model (bad magic)");
  }
  internal::ByteReader header(data + 4, size - 4);
  const uint32_t version = header.U32();
  if (header.failed()) return Corrupt("truncated header");
  if (version != kFormatVersion) {
    return Status::Error(StatusCode::kUnsupportedVersion,
                         "model format version " + std::to_string(version) +
                             " is not supported (this library reads version " +
                             std::to_string(kFormatVersion) + ")");
  }
  const uint64_t length = header.U64();
  const uint32_t crc = header.U32();
  if (header.failed()) return Corrupt("truncated header");
  if (length != size - kHeaderBytes) {
    return Corrupt("payload length " + std::to_string(length) + " does not match the " +
                   std::to_string(size - kHeaderBytes) + " bytes present");
  }
  const uint8_t* payload = data + kHeaderBytes;
  if (internal::Crc32(payload, length) != crc) return Corrupt("checksum mismatch");

  Forest forest;
  using internal::ForestAccess;
  NodeTable& table = ForestAccess::table(forest);
  TrainOptions& options = ForestAccess::options(forest);
  internal::ByteReader r(payload, length);
  bool found[kAllSections] = {};
  internal::ByteReader sections[kAllSections] = {
      {nullptr, 0}, {nullptr, 0}, {nullptr, 0}, {nullptr, 0}, {nullptr, 0},
      {nullptr, 0}, {nullptr, 0}, {nullptr, 0}, {nullptr, 0}, {nullptr, 0}, {nullptr, 0},
      {nullptr, 0}};
  const uint32_t tags[kAllSections] = {kSchema, kOptions,  kNodes,    kCategoryBits, kRoots,
                                       kLabels, kOobVotes, kBoosting, kSourceTrees,
                                       kVoteBoost, kTreePruning, kImported};
  bool found_tables = false;
  internal::ByteReader tables_section(nullptr, 0);
  bool found_calibration = false;
  internal::ByteReader calibration_section(nullptr, 0);
  bool found_stratified = false;
  internal::ByteReader stratified_section(nullptr, 0);
  while (!r.at_end()) {
    const uint32_t tag = r.U32();
    const uint64_t section_length = r.U64();
    if (r.failed() || section_length > r.remaining()) return Corrupt("truncated section");
    internal::ByteReader body = r.Sub(static_cast<size_t>(section_length));
    if (tag == kHaltingTables) {
      if (found_tables) return Corrupt("duplicate section");
      found_tables = true;
      tables_section = body;
      continue;
    }
    if (tag == internal::kStratifiedTag) {
      if (found_stratified) return Corrupt("duplicate section");
      found_stratified = true;
      stratified_section = body;
      continue;
    }
    if (tag == internal::kCalibrationRowsTag) {
      if (found_calibration) return Corrupt("duplicate section");
      found_calibration = true;
      calibration_section = body;
      continue;
    }
    for (int i = 0; i < kAllSections; ++i) {
      if (tag != tags[i]) continue;
      if (found[i]) return Corrupt("duplicate section");
      found[i] = true;
      sections[i] = body;
    }
  }
  for (int i = 0; i < kRequiredSections; ++i) {
    if (!found[i]) return Corrupt("missing section");
  }

  Status status = ReadSchema(sections[0], &ForestAccess::schema(forest));
  if (!status.ok()) return status;
  ForestAccess::RebuildCaches(forest);
  status = ReadOptions(sections[1], forest.schema().features.size(), &options);
  if (!status.ok()) return status;

  internal::ByteReader& nodes = sections[2];
  const uint64_t node_count = nodes.Count(16);
  if (nodes.failed() || node_count > (uint64_t{1} << 31)) return Corrupt("bad node table");
  table.nodes.resize(node_count);
  for (Forest::Node& n : table.nodes) {
    n.feature = nodes.I32();
    n.threshold = nodes.F32();
    n.child_or_class = nodes.U32();
    n.aux = nodes.U32();
  }
  if (nodes.failed() || !nodes.at_end()) return Corrupt("bad node table");

  internal::ByteReader& bits = sections[3];
  const uint64_t word_count = bits.Count(4);
  if (bits.failed() || word_count > Forest::kMaxCategoryWords) return Corrupt("bad category bits");
  table.category_bits.resize(word_count);
  for (uint32_t& word : table.category_bits) word = bits.U32();
  if (bits.failed() || !bits.at_end()) return Corrupt("bad category bits");

  internal::ByteReader& roots = sections[4];
  const uint64_t tree_count = roots.Count(4);
  if (roots.failed() || tree_count != static_cast<uint64_t>(options.num_trees)) {
    return Corrupt("tree count does not match the options");
  }
  ForestAccess::tree_roots(forest).resize(tree_count);
  for (uint32_t& root : ForestAccess::tree_roots(forest)) {
    root = roots.U32();
    if (root >= node_count) return Corrupt("tree root out of range");
  }
  if (roots.failed() || !roots.at_end()) return Corrupt("bad tree roots");
  const bool imported = options.ensemble == EnsembleKind::kImported;
  if (found[11] != imported) return Corrupt("import section does not match the ensemble kind");
  if (imported) {
    ImportedModel record;
    status = ReadImported(sections[11], forest.num_classes(), &record);
    if (!status.ok()) return status;
    ForestAccess::imported(forest).push_back(std::move(record));
  }
  status = ValidateNodes(forest);
  if (!status.ok()) return status;
  internal::FillTreeBounds(&forest);

  const int32_t classes = forest.num_classes();
  internal::ByteReader& labels = sections[5];
  const uint64_t rows = labels.Count(4);
  if (labels.failed()) return Corrupt("bad training labels");
  ForestAccess::train_labels(forest).resize(rows);
  for (int32_t& label : ForestAccess::train_labels(forest)) {
    label = labels.I32();
    if (label < 0 || label >= classes) return Corrupt("training label out of range");
  }
  if (labels.failed() || !labels.at_end()) return Corrupt("bad training labels");

  internal::ByteReader& oob = sections[6];
  const uint64_t oob_rows = oob.U64();
  const uint32_t oob_classes = oob.U32();
  if (oob.failed() || oob_rows != rows || oob_classes != static_cast<uint32_t>(classes) ||
      oob.remaining() / 4 / oob_classes < rows || oob.remaining() != rows * oob_classes * 4) {
    return Corrupt("bad out-of-bag votes");
  }
  ForestAccess::oob_votes(forest).resize(rows * oob_classes);
  for (size_t r = 0; r < rows; ++r) {
    uint64_t total = 0;
    for (uint32_t c = 0; c < oob_classes; ++c) {
      const uint32_t v = oob.U32();
      ForestAccess::oob_votes(forest)[r * oob_classes + c] = v;
      total += v;
    }
    if (total > tree_count) return Corrupt("out-of-bag votes exceed the tree count");
  }
  if (oob.failed()) return Corrupt("bad out-of-bag votes");

  const bool boosted = options.ensemble == EnsembleKind::kAdaBoost;
  if (found[7] != boosted) return Corrupt("boosting section does not match the ensemble kind");
  if (boosted) {
    internal::ByteReader& boost = sections[7];
    const uint8_t variant = boost.U8();
    const uint64_t count = boost.Count(8);
    if (boost.failed() || variant > 1 || count != tree_count) return Corrupt("bad boosting section");
    options.boosting = static_cast<BoostingVariant>(variant);
    ForestAccess::tree_weights(forest).resize(count);
    for (double& weight : ForestAccess::tree_weights(forest)) {
      const uint64_t bits = boost.U64();
      std::memcpy(&weight, &bits, sizeof weight);
      if (!std::isfinite(weight) || weight < 0) return Corrupt("bad tree weight");
    }
    if (boost.failed() || !boost.at_end()) return Corrupt("bad boosting section");
  }
  if (found[8]) {
    internal::ByteReader& src = sections[8];
    const uint64_t count = src.Count(4);
    if (src.failed() || count != tree_count) return Corrupt("bad source-tree section");
    ForestAccess::source_trees(forest).resize(count);
    for (uint32_t& id : ForestAccess::source_trees(forest)) {
      id = src.U32();
      if (id >= static_cast<uint32_t>(TrainOptions::kMaxTrees)) {
        return Corrupt("source tree id out of range");
      }
    }
    if (src.failed() || !src.at_end()) return Corrupt("bad source-tree section");
  }
  const bool vote_boosted = options.ensemble == EnsembleKind::kVoteBoost;
  if (found[9] != vote_boosted) return Corrupt("vote-boosting section does not match the ensemble");
  if (vote_boosted) {
    internal::ByteReader& vb = sections[9];
    double ab[2];
    for (double& x : ab) {
      const uint64_t bits = vb.U64();
      std::memcpy(&x, &bits, sizeof x);
    }
    const uint8_t base = vb.U8();
    if (vb.failed() || !vb.at_end() || !std::isfinite(ab[0]) || !(ab[0] > 0) ||
        !std::isfinite(ab[1]) || !(ab[1] >= 0) || base > 3) {
      return Corrupt("bad vote-boosting section");
    }
    options.voteboost.a = ab[0];
    options.voteboost.b = ab[1];
    options.voteboost.base = static_cast<VoteBoostBase>(base);
  }
  if (found[10]) {
    internal::ByteReader& tp = sections[10];
    const uint8_t mode = tp.U8();
    const int32_t folds = tp.I32();
    const uint64_t bits = tp.U64();
    double se;
    std::memcpy(&se, &bits, sizeof se);
    if (tp.failed() || !tp.at_end() || mode > 1 || folds < 2 || folds > 100 || !(se >= 0.0) ||
        !(se <= 10.0)) {
      return Corrupt("bad tree-pruning section");
    }
    options.pruning.mode = static_cast<TreePruning>(mode);
    options.pruning.cv_folds = folds;
    options.pruning.se_rule = se;
  }
  if (found[10] != PrunesTrees(options)) {
    return Corrupt("tree-pruning section does not match the options");
  }
  if (found_tables) {
    status = ReadStoredTables(tables_section, &forest);
    if (!status.ok()) return status;
  }
  if (found_calibration) {
    status = internal::ReadCalibrationSection(calibration_section, &forest);
    if (!status.ok()) return status;
  }
  if (found_stratified) {
    status = internal::ReadStratifiedSection(stratified_section, &forest);
    if (!status.ok()) return status;
  }
  return forest;
}

}  // namespace urnforest
