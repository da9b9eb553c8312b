#pragma once
// Private: the two-class fast path's view of a HaltingTable (threshold rows, stored P*, bounds per
// vote count), read by sequential voting so that binary tables skip the general rank lookups.
#include <cstdint>

#include "urnforest/halting_table.h"

namespace urnforest::internal {

/// Read-only view of one table's two-class lookup data; every accessor is inline (the hot loop of
/// sequential voting calls them). Holds a reference: valid while the table lives and is unchanged.
class BinaryTableView {
 public:
  explicit BinaryTableView(const HaltingTable& table) : table_(table) {}

  /// kThresholds tables with 2 classes: row c of the stored thresholds, entry o (0 <= o <= T) = the
  /// minimum count of class c that halts when the other class has o votes (T + 1 = never), the
  /// value Halts compares with when c leads. nullptr for other tables or c outside {0, 1}.
  const uint16_t* ThresholdRow(int32_t c) const {
    if (!IsBinaryThresholds() || c < 0 || c > 1) return nullptr;
    return table_.thresholds_.data() + (table_.thresholds_.size() >> 1) * static_cast<size_t>(c);
  }
  /// kThresholds tables with 2 classes: the stored P* of every state, entry a + n (n + 1) / 2 for
  /// the tally (a, b) with n = a + b <= T (StateRank for l = 2 is C(a, 1) + C(a + b + 1, 2)): the
  /// value Confidence returns when a != b (0 on a tie). nullptr for other tables.
  const float* PStar() const { return IsBinaryThresholds() ? table_.pstar_.data() : nullptr; }
  /// kThresholds tables with 2 classes whose threshold rows never decrease (every table built from
  /// a prior is so; a loaded one is checked): the decisions of Halts as two bounds per vote count.
  /// After m votes (0 <= m <= T), b of them for class 1, the tally halts with class 0 ahead iff
  /// b <= ZeroWinsUpTo()[m] (-1: never), with class 1 ahead iff b >= OneWinsFrom()[m] (m + 1:
  /// never). nullptr for other tables.
  const int32_t* ZeroWinsUpTo() const {
    return table_.zero_wins_up_to_.empty() ? nullptr : table_.zero_wins_up_to_.data();
  }
  const int32_t* OneWinsFrom() const {
    return table_.one_wins_from_.empty() ? nullptr : table_.one_wins_from_.data();
  }
  /// No tally of fewer votes halts. Exact for kThresholds tables with 2 classes (T + 1 when none
  /// halts); the smallest threshold for kThresholds tables with more classes (a lower bound); 1
  /// (nothing known) for other tables.
  int32_t MinVotesToHalt() const { return table_.min_votes_to_halt_; }

 private:
  bool IsBinaryThresholds() const {
    return table_.layout_ == TableLayout::kThresholds && table_.num_classes_ == 2;
  }
  const HaltingTable& table_;
};

}  // namespace urnforest::internal
