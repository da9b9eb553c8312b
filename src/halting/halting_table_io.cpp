// The halting-table byte format (magic "UFHT", version 1): HaltingTable::ToBytes and FromBytes,
// little-endian through base/byte_io.h, with an FNV-1a checksum over everything before it.
#include <cstring>
#include <string>
#include <vector>

#include "base/byte_io.h"
#include "halting/tally_lattice.h"
#include "urnforest/halting_table.h"

namespace urnforest {
namespace {

constexpr uint32_t kTableVersion = 1;

// FNV-1a (64-bit) of p[0..n-1]: the version 1 checksum (a later version may move to CRC-32).
uint64_t Fnv1a(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  return h;
}

}  // namespace

std::vector<uint8_t> HaltingTable::ToBytes() const {
  std::vector<uint8_t> b = {'U', 'F', 'H', 'T'};
  internal::ByteWriter w(&b);
  w.U32(kTableVersion);
  w.U32(static_cast<uint32_t>(rule_));
  w.U32(static_cast<uint32_t>(layout_));
  w.U32(static_cast<uint32_t>(num_trees_));
  w.U32(static_cast<uint32_t>(num_classes_));
  w.F64(alpha_);
  w.U32(monotone_ ? 1 : 0);
  w.F64(min_relative_gap_);
  w.U64(thresholds_.size());
  for (uint16_t v : thresholds_) w.U16(v);
  w.U64(pstar_.size());
  for (float f : pstar_) w.F32(f);
  w.U64(pair_.size());
  for (double d : pair_) w.F64(d);
  w.U64(Fnv1a(b.data(), b.size()));
  return b;
}

Result<HaltingTable> HaltingTable::FromBytes(const uint8_t* data, size_t size) {
  auto corrupt = [](const std::string& m) {
    return Status::Error(StatusCode::kCorruptModel, "halting table bytes: " + m);
  };
  if (data == nullptr || size < 16 || std::memcmp(data, "UFHT", 4) != 0) return corrupt("bad magic");
  internal::ByteReader r(data, size - 8);  // everything but the checksum
  r.Bytes(4);
  const uint32_t version = r.U32();
  if (version != kTableVersion)
    return Status::Error(StatusCode::kUnsupportedVersion,
                         "halting table version " + std::to_string(version) + " is not supported");
  internal::ByteReader checksum(data + size - 8, 8);
  if (checksum.U64() != Fnv1a(data, size - 8)) return corrupt("checksum mismatch");
  HaltingTable t;
  const uint32_t rule = r.U32();
  const uint32_t layout = r.U32();
  t.num_trees_ = r.I32();
  t.num_classes_ = r.I32();
  t.alpha_ = r.F64();
  t.monotone_ = r.U32() != 0;
  t.min_relative_gap_ = r.F64();
  if (r.failed() || rule >= static_cast<uint32_t>(kNumHaltingRules) || layout > 3 ||
      t.num_trees_ < 1 || t.num_trees_ > 100000 || t.num_classes_ < 2 || t.num_classes_ > 4096)
    return corrupt("bad header");
  t.rule_ = static_cast<HaltingRule>(rule);
  t.layout_ = static_cast<TableLayout>(layout);
  uint64_t n = r.Count(2);
  if (r.failed()) return corrupt("bad threshold count");
  t.thresholds_.resize(n);
  for (uint64_t i = 0; i < n; ++i) t.thresholds_[i] = r.U16();
  n = r.Count(4);
  if (r.failed()) return corrupt("bad confidence count");
  t.pstar_.resize(n);
  for (uint64_t i = 0; i < n; ++i) t.pstar_[i] = r.F32();
  n = r.Count(8);
  if (r.failed()) return corrupt("bad pair-table count");
  t.pair_.resize(n);
  for (uint64_t i = 0; i < n; ++i) t.pair_[i] = r.F64();
  if (r.failed() || !r.at_end()) return corrupt("length mismatch");
  // Structural checks so that lookups stay in bounds.
  const int32_t T = t.num_trees_, l = t.num_classes_;
  switch (t.layout_) {
    case TableLayout::kThresholds:
      if (l > 4 || static_cast<int64_t>(t.pstar_.size()) != internal::Compositions(T, l + 1).Count(T) ||
          static_cast<int64_t>(t.thresholds_.size()) != internal::Compositions(T, l).Count(T) * l)
        return corrupt("threshold table sizes do not match T and l");
      break;
    case TableLayout::kPairwiseBound:
      if (static_cast<int64_t>(t.pair_.size()) != internal::Compositions(T, 4).Count(T))
        return corrupt("pair table size does not match T");
      break;
    case TableLayout::kInfiniteProduct:
      if (t.pair_.size() != static_cast<size_t>(T + 1) * (T + 1))
        return corrupt("pair table size does not match T");
      break;
    case TableLayout::kLeadRule: break;
  }
  t.InitBinom();
  t.DeriveBinaryBounds();
  return t;
}

}  // namespace urnforest
