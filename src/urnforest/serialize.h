#pragma once
// Model bytes: a Forest (with its stored halting tables) to a portable, versioned binary and back.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "urnforest/forest.h"
#include "urnforest/status.h"

namespace urnforest {

/// Versioned binary model (portable, byte-identical across platforms for identical forests):
/// 20-byte header = magic "URNF", u32 format version (1), u64 payload length, u32 CRC-32 (IEEE) of
/// the payload; then tagged sections {u32 tag, u64 length, bytes} holding schema, options, nodes,
/// categorical bit sets, tree roots, training labels and OOB votes, plus the optional boosting
/// (variant, tree weights), source-tree and stored-halting-table sections (layout in
/// src/model/serialize.cpp).
/// All integers little-endian. Unknown sections are skipped by readers, so new features add
/// sections.
std::vector<uint8_t> SerializeForest(const Forest& forest);
/// Inverse of SerializeForest. Fails with kUnsupportedVersion (valid magic, other version) or
/// kCorruptModel (bad magic, truncation, trailing bytes, checksum, missing or duplicate section,
/// or any structural check: counts within the bytes present before allocating, node children
/// strictly after their parent and in range, features, classes, labels and bit-set offsets in
/// range, OOB votes per row at most the tree count; stored halting tables that fail
/// HaltingTable::FromBytes, have other classes than the forest, more trees than the forest, or
/// repeat a (rule, alpha, T)). Never reads out of bounds, never allocates
/// more than a small multiple of `size`; a loaded forest is safe to walk.
Result<Forest> DeserializeForest(const uint8_t* data, size_t size);

}  // namespace urnforest
