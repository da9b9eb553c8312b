// Halting-table queries (Leader, Halts, Confidence, MinLeaderVotes, the two-class bounds derived
// from the thresholds) and BuildHaltingTable, which validates the options and picks the builder.
#include "urnforest/halting_table.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "base/enum_names.h"
#include "urnforest/alpha.h"
#include "halting/binary_table_view.h"
#include "halting/halting_table_builder.h"
#include "halting/on_demand_rule.h"
#include "halting/rule_table.h"
#include "halting/tally_lattice.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& m) { return Status::Error(StatusCode::kInvalidArgument, m); }

}  // namespace

void HaltingTable::InitBinom() {
  const int32_t rows = num_trees_ + num_classes_ + 4;
  const int32_t cols = std::min(num_classes_, 4) + 2;
  binom_.assign(static_cast<size_t>(rows) * cols, 0);
  for (int32_t n = 0; n < rows; ++n)
    for (int32_t i = 0; i < cols; ++i)
      binom_[n * cols + i] = i == 0 ? 1 : (n == 0 ? 0 : binom_[(n - 1) * cols + i - 1] + binom_[(n - 1) * cols + i]);
}

int64_t HaltingTable::StateRank(const int32_t* tally) const {
  // rank of (t_1..t_l, T - sum) among compositions of T into l + 1 parts
  const int32_t cols = std::min(num_classes_, 4) + 2;
  int64_t rank = 0;
  int32_t s = -1;
  for (int32_t i = 1; i <= num_classes_; ++i) {
    s += tally[i - 1] + 1;
    rank += binom_[s * cols + i];
  }
  return rank;
}

int64_t HaltingTable::OthersRank(int32_t c, const int32_t* tally) const {
  const int32_t cols = std::min(num_classes_, 4) + 2;
  int64_t rank = 0;
  int32_t s = -1;
  int32_t i = 1;
  for (int32_t j = 0; j < num_classes_; ++j) {
    if (j == c) continue;
    s += tally[j] + 1;
    rank += binom_[s * cols + i];
    ++i;
  }
  return rank;
}

int32_t HaltingTable::Leader(const int32_t* tally) const {
  return StrictLeader(tally, static_cast<size_t>(num_classes_));
}

bool HaltingTable::Halts(const int32_t* tally) const {
  if (layout_ == TableLayout::kThresholds && num_classes_ == 2) {
    // Hot path of sequential voting (binary problems): the same lookup as below, with
    // OthersRank(k, t) = t[other] and per_class = size / 2, without the loops and the division.
    const int32_t a = tally[0];
    const int32_t b = tally[1];
    if (a == b) return false;
    const int32_t k = a > b ? 0 : 1;
    return tally[k] >= thresholds_[(thresholds_.size() >> 1) * k + tally[1 - k]];
  }
  const int32_t l = num_classes_;
  int32_t k = StrictLeader(tally, static_cast<size_t>(l));
  if (k < 0) return false;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += tally[j];
  switch (layout_) {
    case TableLayout::kLeadRule: {
      int32_t second = 0;
      for (int32_t j = 0; j < l; ++j)
        if (j != k) second = std::max(second, tally[j]);
      return tally[k] - second > num_trees_ - n;
    }
    case TableLayout::kThresholds: {
      int64_t per_class = static_cast<int64_t>(thresholds_.size()) / l;
      return tally[k] >= thresholds_[k * per_class + OthersRank(k, tally)];
    }
    case TableLayout::kPairwiseBound: return PairBound(tally, k, n) <= 1.0 - alpha_;
    case TableLayout::kInfiniteProduct: return Confidence(tally) > alpha_;
    case TableLayout::kOnDemand: return on_demand_->Halts(tally);
  }
  return false;
}

double HaltingTable::Confidence(const int32_t* tally) const {
  const int32_t l = num_classes_;
  int32_t k = StrictLeader(tally, static_cast<size_t>(l));
  if (k < 0) return 0.0;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += tally[j];
  switch (layout_) {
    case TableLayout::kLeadRule: return Halts(tally) ? 1.0 : 0.0;
    case TableLayout::kThresholds: return pstar_[StateRank(tally)];
    case TableLayout::kPairwiseBound: return std::max(0.0, 1.0 - PairBound(tally, k, n));
    case TableLayout::kInfiniteProduct: {
      double prod = 1.0;
      for (int32_t j = 0; j < l; ++j)
        if (j != k) prod *= 1.0 - pair_[static_cast<size_t>(tally[k]) * (num_trees_ + 1) + tally[j]];
      return prod;
    }
    case TableLayout::kOnDemand: return on_demand_->Confidence(tally);
  }
  return 0.0;
}

const char* LayoutName(TableLayout layout) {
  static const std::vector<std::string> kNames = {"thresholds", "pairwiseBound", "leadRule",
                                                  "infiniteProduct", "onDemand"};
  return internal::EnumName(static_cast<size_t>(layout), kNames);
}

bool HaltingTable::ConfidenceIsExact(const int32_t* tally) const {
  switch (layout_) {
    case TableLayout::kThresholds:
    case TableLayout::kLeadRule: return true;
    case TableLayout::kPairwiseBound:
    case TableLayout::kInfiniteProduct: return num_classes_ == 2;
    case TableLayout::kOnDemand: return on_demand_->ExactAt(tally);
  }
  return false;
}

size_t HaltingTable::MemoEntries() const { return on_demand_ ? on_demand_->MemoEntries() : 0; }

size_t HaltingTable::MemoryBytes() const {
  size_t bytes = sizeof(*this) + thresholds_.size() * 2 + pstar_.size() * 4 + pair_.size() * 8 +
                 binom_.size() * 8 + (zero_wins_up_to_.size() + one_wins_from_.size()) * 4;
  if (on_demand_) bytes += on_demand_->MemoryBytes();
  return bytes;
}

double HaltingTable::PairBound(const int32_t* tally, int32_t k, int32_t n) const {
  const int32_t cols = std::min(num_classes_, 4) + 2;
  double bound = 0.0;
  int32_t parts[3] = {tally[k], 0, 0};
  for (int32_t j = 0; j < num_classes_; ++j) {
    if (j == k) continue;
    parts[1] = tally[j];
    parts[2] = n - tally[k] - tally[j];
    int64_t rank = 0;  // (a, b, s, T - n) among 4-part compositions of T
    int32_t s = -1;
    for (int32_t i = 1; i <= 3; ++i) {
      s += parts[i - 1] + 1;
      rank += binom_[s * cols + i];
    }
    bound += pair_[rank];
  }
  return bound;
}

int32_t HaltingTable::MinLeaderVotes(int32_t c, const int32_t* others) const {
  const int32_t l = num_classes_;
  // No allocation for small l: the blocked halted vote asks for 2 (T + 1) of these per call.
  int32_t small[8] = {};
  std::vector<int32_t> large;
  if (l > 8) large.assign(l, 0);
  int32_t* t = l > 8 ? large.data() : small;
  int32_t sum = 0, mx = 0;
  for (int32_t j = 0, i = 0; j < l; ++j) {
    if (j == c) continue;
    t[j] = others[i++];
    sum += t[j];
    mx = std::max(mx, t[j]);
  }
  if (sum >= num_trees_) return num_trees_ + 1;
  if (layout_ == TableLayout::kThresholds) {
    t[c] = 0;
    int64_t per_class = static_cast<int64_t>(thresholds_.size()) / l;
    return thresholds_[c * per_class + OthersRank(c, t)];
  }
  int32_t best = num_trees_ + 1;
  if (layout_ == TableLayout::kOnDemand) {
    // Bisection on the leader's count (the on-demand rules' halting sets are taken as monotone in
    // it: more votes for the leader, everything else equal, never lowers P*).
    int32_t lo = mx + 1, hi = num_trees_ - sum;
    if (lo > hi) return best;
    t[c] = hi;
    if (!Halts(t)) return best;
    while (lo < hi) {
      const int32_t mid = lo + (hi - lo) / 2;
      t[c] = mid;
      if (Halts(t)) hi = mid;
      else lo = mid + 1;
    }
    return hi;
  }
  for (int32_t m = num_trees_ - sum; m > mx; --m) {
    t[c] = m;
    if (!Halts(t)) break;
    best = m;
  }
  return best;
}

void HaltingTable::DeriveBinaryBounds() {
  zero_wins_up_to_.clear();
  one_wins_from_.clear();
  min_votes_to_halt_ = 1;
  if (layout_ == TableLayout::kThresholds && num_classes_ > 2 && !thresholds_.empty()) {
    // Halting needs the leader's count at its threshold, so at least the smallest threshold's votes.
    const uint16_t fewest = *std::min_element(thresholds_.begin(), thresholds_.end());
    min_votes_to_halt_ = std::max<int32_t>(fewest, 1);
  }
  const internal::BinaryTableView view(*this);
  const uint16_t* row0 = view.ThresholdRow(0);
  const uint16_t* row1 = view.ThresholdRow(1);
  if (row0 == nullptr) return;
  const int32_t T = num_trees_;
  // Halting with class c ahead at (t_c, k) needs t_c >= row_c[k], so at least row_c[k] + k votes
  // (for any thresholds, monotone or not).
  int32_t fewest = T + 1;
  for (const uint16_t* row : {row0, row1}) {
    for (int32_t k = 0; k <= T; ++k) fewest = std::min(fewest, static_cast<int32_t>(row[k]) + k);
  }
  min_votes_to_halt_ = std::max(fewest, 1);
  for (int32_t k = 0; k < T; ++k) {
    if (row0[k + 1] < row0[k] || row1[k + 1] < row1[k]) return;
  }
  // The leader, with m - k votes against the other's k, wins iff 2k < m and m - k >= row[k]. With a
  // nondecreasing row both hold up to some k and fail beyond, and what holds for m holds for m + 1:
  // the largest winning k per m grows with m, found in one pass.
  auto wins = [](const uint16_t* row, int32_t k, int32_t m) { return 2 * k < m && m - k >= row[k]; };
  zero_wins_up_to_.resize(static_cast<size_t>(T) + 1);
  one_wins_from_.resize(static_cast<size_t>(T) + 1);
  int32_t zero_k = -1;  // largest class-1 count with which class 0 wins after m votes
  int32_t one_k = -1;   // largest class-0 count with which class 1 wins after m votes
  for (int32_t m = 0; m <= T; ++m) {
    while (zero_k < T && wins(row0, zero_k + 1, m)) ++zero_k;
    while (one_k < T && wins(row1, one_k + 1, m)) ++one_k;
    zero_wins_up_to_[m] = zero_k;
    one_wins_from_[m] = one_k < 0 ? m + 1 : m - one_k;
  }
}

std::vector<int32_t> HaltingTable::BinaryThresholds(int32_t c) const {
  std::vector<int32_t> out;
  if (num_classes_ != 2) return out;
  for (int32_t k = 0; k < num_trees_; ++k) {
    int32_t m = MinLeaderVotes(c, &k);
    if (m > num_trees_ - k) break;
    out.push_back(m);
  }
  return out;
}

Result<HaltingTable> BuildHaltingTable(const HaltingTableOptions& o, const Prior* prior) {
  const int32_t l = o.num_classes;
  if (o.num_trees < 1 || o.num_trees > 100000) return Invalid("num_trees must be in [1, 100000]");
  if (l < 2 || l > HaltingTableOptions::kMaxClasses) {
    return Invalid("num_classes must be in [2, " +
                   std::to_string(HaltingTableOptions::kMaxClasses) + "]");
  }
  if (Status a = CheckAlpha(o.alpha); !a.ok()) return a;
  if (static_cast<int32_t>(o.rule) < 0 || static_cast<int32_t>(o.rule) >= kNumHaltingRules)
    return Invalid("unknown halting rule");
  const internal::RuleRow& row = internal::RuleRowOf(o.rule);
  Prior used = Prior::Uniform(l).value();
  if (row.traits.needs_prior) {
    if (prior == nullptr)
      return Invalid(std::string("rule ") + row.traits.name + " needs a prior");
    if (prior->num_classes() != l)
      return Status::Error(StatusCode::kShapeMismatch,
                           "prior has " + std::to_string(prior->num_classes()) +
                               " classes, table asked for " + std::to_string(l));
    const PriorKind kind = prior->kind();
    if ((row.accepted_priors & internal::PriorBit(kind)) == 0)
      return Invalid(std::string("rule ") + row.traits.name + " needs " + row.prior_requirement);
    const bool tallies = kind == PriorKind::kHistogram || kind == PriorKind::kTallyMixture;
    if (tallies && prior->num_trees() != o.num_trees)
      return Status::Error(StatusCode::kShapeMismatch,
                           "the prior is for T = " + std::to_string(prior->num_trees()) +
                               ", the table for T = " + std::to_string(o.num_trees));
    used = *prior;
  }
  return row.build(o, std::move(used));
}

bool EagerTableFits(HaltingRule rule, int32_t num_trees, int32_t num_classes) {
  const HaltingRuleTraits& traits = RuleTraits(rule);
  return num_classes <= traits.full_table_max_classes &&
         internal::StatesOf(num_trees, num_classes) <= traits.full_table_max_states;
}

}  // namespace urnforest
