// Versioned binary model format.
//
// Header (20 bytes): "URNF", u32 format version (1), u64 payload length, u32 CRC-32 of the payload.
// Payload: tagged sections {u32 tag, u64 length, bytes}; readers skip unknown tags, so later
// features (halting tables, pruning order) add sections without a version bump. All integers are
// little-endian, floats are IEEE-754 binary32 bit patterns, strings are {u32 length, UTF-8 bytes}.
// Sections of version 1 (each exactly once, written in this order):
//   SCHM  target name, u32 classes + names, u32 features + {name, u8 type, u32 n + categories}
//   OPTS  u8 ensemble, i32 num_trees, i32 mtry, u8 mtry_rule, i32 max_depth, i32 min_leaf, u64 seed
//   NODE  u64 count, then per node i32 feature, f32 threshold, u32 child_or_class, u32 aux
//   CATB  u64 count, u32 words
//   ROOT  u64 count, u32 roots
//   LABL  u64 rows, i32 labels
//   OOBV  u64 rows, u32 classes, u32 votes (rows x classes, row-major)
// Optional sections (at most once each, after OOBV; absent from models that do not need them, so
// random-forest and bagging models keep their exact bytes):
//   BOST  u8 boosting variant, u64 count (= trees), f64 tree weights (IEEE binary64 bit patterns
//         as u64). Present exactly when OPTS says AdaBoost (ensemble 2).
//   SRCT  u64 count (= trees), u32 generation index of each tree (written after PruneForest).
//   VBST  f64 a, f64 b (as stored in the options: 0 = symmetric), u8 base learner. Present exactly
//         when OPTS says vote-boosting (ensemble 3).
//   TPRN  u8 pruning mode, i32 cv_folds, f64 se_rule (TrainOptions::pruning). Written exactly when
//         trees are pruned (mode != none, or vote-boosting with the pruned-CART base); absent =
//         the default options (unpruned), so earlier models keep their exact bytes.
//   IMPT  u8 kind, u8 score transform, u8 single score, u8 default vote, u8 calibrated, i32 values
//         per leaf, u32 count + f64 base values, u64 count + f64 leaf values, source string
//         (ImportedModel), then the margin rule's calibration: u32 rows, f64 scale, u32 count, and
//         per threshold {f64 lambda, u32 wrong rows, f64 mean trees}. Then, only when a label rule
//         needs it (absent otherwise, so earlier models keep their exact bytes; readers before it
//         refuse such a section as bad rather than answer by the old rules): u8 addition version
//         (1), u8 flags (1 second_class_threshold, 2 label_from_scores, 4 a named table follows),
//         and with flag 4 the ImportedModel::named table packed 8 entries a byte, low bit first.
//         Present exactly when OPTS says imported (ensemble 4); a leaf's aux is
//         then its row of leaf values (0 otherwise), and LABL/OOBV hold calibration votes.
//   HTBL  u32 count, then per stored halting table {u64 length, HaltingTable::ToBytes() ("UFHT")}
//         in Forest::stored_tables() order. Written only when tables are stored.
//   CALV  u8 section version (1), u64 rows, u32 classes, u32 votes (rows x classes, every row
//         summing to the trees), i32 labels (each row's plurality): a forest trained here's
//         calibration rows (Forest::calibration_votes(); src/model/calibration_section.*). Written
//         only when it has them, so that every other model keeps its exact bytes.
// Readers older than these sections skip them but reject ensembles 2 and 3 in OPTS (bad options).
// A reader older than CALV loads such a model without its calibration rows: every rule answers as
// before calibration, and rule 'auto' with the exact exit (which never disagrees), so skipping the
// section is safe.
#include "urnforest/serialize.h"

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
#include "model/imported_label_rules.h"
#include "model/imported_scores.h"
#include "urnforest/forest.h"

namespace urnforest {
namespace {

constexpr uint32_t kFormatVersion = 1;
constexpr size_t kHeaderBytes = 20;

constexpr uint32_t Tag(const char (&s)[5]) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[0])) |
         static_cast<uint32_t>(static_cast<uint8_t>(s[1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[3])) << 24;
}
constexpr uint32_t kSchema = Tag("SCHM");
constexpr uint32_t kOptions = Tag("OPTS");
constexpr uint32_t kNodes = Tag("NODE");
constexpr uint32_t kCategoryBits = Tag("CATB");
constexpr uint32_t kRoots = Tag("ROOT");
constexpr uint32_t kLabels = Tag("LABL");
constexpr uint32_t kOobVotes = Tag("OOBV");
constexpr uint32_t kBoosting = Tag("BOST");
constexpr uint32_t kSourceTrees = Tag("SRCT");
constexpr uint32_t kVoteBoost = Tag("VBST");
constexpr uint32_t kHaltingTables = Tag("HTBL");
constexpr uint32_t kTreePruning = Tag("TPRN");
constexpr uint32_t kImported = Tag("IMPT");
constexpr int kRequiredSections = 7;
constexpr int kAllSections = 12;

void WriteSection(std::vector<uint8_t>* out, uint32_t tag, const std::vector<uint8_t>& body) {
  internal::ByteWriter w(out);
  w.U32(tag);
  w.U64(body.size());
  out->insert(out->end(), body.begin(), body.end());
}

Status Corrupt(const std::string& what) {
  return Status::Error(StatusCode::kCorruptModel, what);
}

bool IsUtf8(std::string_view s) { return internal::FirstInvalidUtf8(s) == s.size(); }

}  // namespace

std::vector<uint8_t> SerializeForest(const Forest& forest) {
  std::vector<uint8_t> payload;
  std::vector<uint8_t> body;
  internal::ByteWriter w(&body);

  const Schema& schema = forest.schema();
  w.Str(schema.target_name);
  w.U32(static_cast<uint32_t>(schema.class_names.size()));
  for (const std::string& name : schema.class_names) w.Str(name);
  w.U32(static_cast<uint32_t>(schema.features.size()));
  for (const FeatureInfo& f : schema.features) {
    w.Str(f.name);
    w.U8(static_cast<uint8_t>(f.type));
    w.U32(static_cast<uint32_t>(f.categories.size()));
    for (const std::string& c : f.categories) w.Str(c);
  }
  WriteSection(&payload, kSchema, body);

  body.clear();
  const TrainOptions& o = forest.options();
  w.U8(static_cast<uint8_t>(o.ensemble));
  w.I32(o.num_trees);
  w.I32(o.mtry);
  w.U8(static_cast<uint8_t>(o.mtry_rule));
  w.I32(o.max_depth);
  w.I32(o.min_leaf);
  w.U64(o.seed);
  WriteSection(&payload, kOptions, body);

  body.clear();
  w.U64(forest.node_table().nodes.size());
  for (const Forest::Node& n : forest.node_table().nodes) {
    w.I32(n.feature);
    w.F32(n.threshold);
    w.U32(n.child_or_class);
    w.U32(n.aux);
  }
  WriteSection(&payload, kNodes, body);

  body.clear();
  w.U64(forest.node_table().category_bits.size());
  for (uint32_t word : forest.node_table().category_bits) w.U32(word);
  WriteSection(&payload, kCategoryBits, body);

  body.clear();
  w.U64(forest.tree_roots().size());
  for (uint32_t root : forest.tree_roots()) w.U32(root);
  WriteSection(&payload, kRoots, body);

  body.clear();
  w.U64(forest.train_labels().size());
  for (int32_t label : forest.train_labels()) w.I32(label);
  WriteSection(&payload, kLabels, body);

  body.clear();
  w.U64(forest.train_labels().size());
  w.U32(static_cast<uint32_t>(forest.num_classes()));
  for (uint32_t v : forest.oob_votes()) w.U32(v);
  WriteSection(&payload, kOobVotes, body);

  if (o.ensemble == EnsembleKind::kAdaBoost) {
    body.clear();
    w.U8(static_cast<uint8_t>(o.boosting));
    w.U64(forest.tree_weights().size());
    for (double weight : forest.tree_weights()) {
      uint64_t bits;
      std::memcpy(&bits, &weight, sizeof bits);
      w.U64(bits);
    }
    WriteSection(&payload, kBoosting, body);
  }
  if (!forest.source_trees().empty()) {
    body.clear();
    w.U64(forest.source_trees().size());
    for (uint32_t id : forest.source_trees()) w.U32(id);
    WriteSection(&payload, kSourceTrees, body);
  }
  if (o.ensemble == EnsembleKind::kVoteBoost) {
    body.clear();
    for (double x : {o.voteboost.a, o.voteboost.b}) {
      uint64_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      w.U64(bits);
    }
    w.U8(static_cast<uint8_t>(o.voteboost.base));
    WriteSection(&payload, kVoteBoost, body);
  }
  if (PrunesTrees(o)) {
    body.clear();
    w.U8(static_cast<uint8_t>(o.pruning.mode));
    w.I32(o.pruning.cv_folds);
    uint64_t bits;
    std::memcpy(&bits, &o.pruning.se_rule, sizeof bits);
    w.U64(bits);
    WriteSection(&payload, kTreePruning, body);
  }
  if (const ImportedModel* imported = forest.imported()) {
    body.clear();
    w.U8(static_cast<uint8_t>(imported->kind));
    w.U8(static_cast<uint8_t>(imported->transform));
    w.U8(imported->single_score ? 1 : 0);
    w.U8(static_cast<uint8_t>(imported->default_vote));
    w.U8(imported->calibrated ? 1 : 0);
    w.I32(imported->outputs);
    w.U32(static_cast<uint32_t>(imported->base_values.size()));
    for (double b : imported->base_values) w.F64(b);
    w.U64(imported->leaf_values.size());
    for (double v : imported->leaf_values) w.F64(v);
    w.Str(imported->source);
    const MarginCalibration& margin = imported->margin;
    w.U32(margin.rows);
    w.F64(margin.scale);
    w.U32(static_cast<uint32_t>(margin.lambdas.size()));
    for (size_t i = 0; i < margin.lambdas.size(); ++i) {
      w.F64(margin.lambdas[i]);
      w.U32(margin.wrong[i]);
      w.F64(margin.mean_trees[i]);
    }
    internal::WriteImportedLabelRules(*imported, &w);
    WriteSection(&payload, kImported, body);
  }
  if (!forest.stored_tables().empty()) {
    body.clear();
    w.U32(static_cast<uint32_t>(forest.stored_tables().size()));
    for (const HaltingTable& table : forest.stored_tables()) {
      const std::vector<uint8_t> bytes = table.ToBytes();
      w.U64(bytes.size());
      body.insert(body.end(), bytes.begin(), bytes.end());
    }
    WriteSection(&payload, kHaltingTables, body);
  }
  if (internal::HasCalibrationSection(forest)) {
    body.clear();
    internal::WriteCalibrationSection(forest, &body);
    WriteSection(&payload, internal::kCalibrationRowsTag, body);
  }

  std::vector<uint8_t> out;
  out.reserve(kHeaderBytes + payload.size());
  internal::ByteWriter header(&out);
  for (char c : {'U', 'R', 'N', 'F'}) header.U8(static_cast<uint8_t>(c));
  header.U32(kFormatVersion);
  header.U64(payload.size());
  header.U32(internal::Crc32(payload.data(), payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

namespace {

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
  return forest;
}

}  // namespace urnforest
