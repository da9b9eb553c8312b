#pragma once
// Vote rules: the plurality with ties to the lowest index, and the strict leader of a tally.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace urnforest {

/// Index of the largest of `counts[0..k-1]`; ties go to the lowest index (the ensemble's tie
/// rule for full votes, leaf majorities and weighted votes alike). `counts` is borrowed for the
/// call; `T` is any ordered count type (integer votes, double scores). Returns 0 when k <= 1.
template <typename T>
int32_t Plurality(const T* counts, size_t k) {
  size_t best = 0;
  for (size_t c = 1; c < k; ++c) {
    if (counts[c] > counts[best]) best = c;
  }
  return static_cast<int32_t>(best);
}

/// Plurality over a whole vector (one count per class).
template <typename T>
int32_t Plurality(const std::vector<T>& counts) {
  return Plurality(counts.data(), counts.size());
}

/// Index of the unique maximum of `tally[0..k-1]`, or -1 when two or more entries share the
/// maximum (the halting engine's leader: a tied tally has none). `tally` is borrowed for the
/// call. Returns 0 when k == 1 and -1 when k == 0.
template <typename T>
int32_t StrictLeader(const T* tally, size_t k) {
  if (k == 0) return -1;
  size_t best = 0;
  bool tie = false;
  for (size_t c = 1; c < k; ++c) {
    if (tally[c] > tally[best]) {
      best = c;
      tie = false;
    } else if (tally[c] == tally[best]) {
      tie = true;
    }
  }
  return tie ? -1 : static_cast<int32_t>(best);
}

/// StrictLeader over a whole vector (one count per class).
template <typename T>
int32_t StrictLeader(const std::vector<T>& tally) {
  return StrictLeader(tally.data(), tally.size());
}

}  // namespace urnforest
