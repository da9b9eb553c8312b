// The halting-table byte format (magic "UFHT"): HaltingTable::ToBytes and FromBytes, little-endian
// through base/byte_io.h, with an FNV-1a checksum over everything before it. Version 1 holds the
// full layouts; version 2 (written only for kOnDemand, so version-1 bytes are unchanged) adds the
// on-demand rule's prior after them: optimal_fallback, exact_budget, the Dirichlet components
// (count; weight and l betas each) and the point masses (count; l counts each, then the weights).
#include <cstring>
#include <string>
#include <vector>

#include "base/byte_io.h"
#include "halting/halting_table_builder.h"
#include "halting/on_demand_rule.h"
#include "halting/tally_lattice.h"
#include "urnforest/halting_rules.h"
#include "urnforest/halting_table.h"

namespace urnforest {
namespace {

constexpr uint32_t kTableVersion = 1;
constexpr uint32_t kOnDemandVersion = 2;

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
  w.U32(layout_ == TableLayout::kOnDemand ? kOnDemandVersion : kTableVersion);
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
  if (layout_ == TableLayout::kOnDemand) {
    const internal::OnDemandConfig& c = HaltingTableBuilder::OnDemandOf(*this).config();
    w.U32(optimal_fallback_ ? 1 : 0);
    w.F64(c.exact_budget);
    w.U64(c.dirichlet.size());
    for (const DirichletComponent& d : c.dirichlet) {
      w.F64(d.weight);
      for (double beta : d.beta) w.F64(beta);
    }
    w.U64(c.support_weights.size());
    for (int32_t v : c.support) w.I32(v);
    for (double v : c.support_weights) w.F64(v);
  }
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
  if (version != kTableVersion && version != kOnDemandVersion)
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
  const uint32_t max_layout = version == kOnDemandVersion ? 4 : 3;
  if (r.failed() || rule >= static_cast<uint32_t>(kNumHaltingRules) || layout > max_layout ||
      (version == kOnDemandVersion) != (layout == 4) ||
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
  if (t.layout_ == TableLayout::kOnDemand) {
    t.optimal_fallback_ = r.U32() != 0;
    const double budget = r.F64();
    const int32_t l = t.num_classes_;
    uint64_t nd = r.Count(8 * (static_cast<size_t>(l) + 1));
    if (r.failed() || !(budget >= 0.0 && budget <= 1e15) || !(t.alpha_ > 0.0 && t.alpha_ <= 1.0))
      return corrupt("bad on-demand header");
    std::vector<DirichletComponent> dirichlet(nd);
    for (DirichletComponent& d : dirichlet) {
      d.weight = r.F64();
      d.beta.resize(l);
      for (double& beta : d.beta) beta = r.F64();
      if (!(d.weight >= 0.0 && d.weight <= 1.0)) return corrupt("bad component weight");
      for (double beta : d.beta)
        if (!(beta > 0.0 && beta < 1e300)) return corrupt("bad component beta");
    }
    uint64_t np = r.Count(4 * static_cast<size_t>(l) + 8);
    if (r.failed()) return corrupt("bad point-mass count");
    std::vector<int32_t> support(np * l);
    std::vector<double> weights(np);
    for (int32_t& v : support) v = r.I32();
    for (double& v : weights) v = r.F64();
    if (r.failed()) return corrupt("length mismatch");
    for (uint64_t i = 0; i < np; ++i) {
      int64_t sum = 0;
      for (int32_t c = 0; c < l; ++c) {
        if (support[i * l + c] < 0) return corrupt("negative point-mass count");
        sum += support[i * l + c];
      }
      if (sum != t.num_trees_ || !(weights[i] >= 0.0 && weights[i] <= 1.0))
        return corrupt("bad point mass");
    }
    if (!RuleTraits(t.rule_).on_demand)
      return corrupt(std::string(RuleName(t.rule_)) + " has no on-demand layout");
    HaltingTableBuilder::AttachOnDemand(&t, std::move(dirichlet), std::move(support),
                                        std::move(weights), budget);
  }
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
    case TableLayout::kLeadRule:
    case TableLayout::kOnDemand: break;
  }
  t.InitBinom();
  t.DeriveBinaryBounds();
  return t;
}

}  // namespace urnforest
