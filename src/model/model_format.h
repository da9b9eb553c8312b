#pragma once
// Versioned binary model format (internal to src/model/: serialize.cpp writes it, deserialize.cpp
// reads it).
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
#include <cstddef>
#include <cstdint>

namespace urnforest {
namespace model_format {


inline constexpr uint32_t kFormatVersion = 1;
inline constexpr size_t kHeaderBytes = 20;

inline constexpr uint32_t Tag(const char (&s)[5]) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[0])) |
         static_cast<uint32_t>(static_cast<uint8_t>(s[1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[3])) << 24;
}
inline constexpr uint32_t kSchema = Tag("SCHM");
inline constexpr uint32_t kOptions = Tag("OPTS");
inline constexpr uint32_t kNodes = Tag("NODE");
inline constexpr uint32_t kCategoryBits = Tag("CATB");
inline constexpr uint32_t kRoots = Tag("ROOT");
inline constexpr uint32_t kLabels = Tag("LABL");
inline constexpr uint32_t kOobVotes = Tag("OOBV");
inline constexpr uint32_t kBoosting = Tag("BOST");
inline constexpr uint32_t kSourceTrees = Tag("SRCT");
inline constexpr uint32_t kVoteBoost = Tag("VBST");
inline constexpr uint32_t kHaltingTables = Tag("HTBL");
inline constexpr uint32_t kTreePruning = Tag("TPRN");
inline constexpr uint32_t kImported = Tag("IMPT");
inline constexpr int kRequiredSections = 7;
inline constexpr int kAllSections = 12;

}  // namespace model_format
}  // namespace urnforest
