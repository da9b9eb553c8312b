#pragma once
// Private: the L-infinity ball of radius h around a tally on the simplex, as hyper's box smoothing
// ([Sot11] ch. 4, window of 2h + 1) enumerates it: every coordinate, the last one included, within h
// of the centre's, all >= 0.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace urnforest::internal {

/// Enumerates box neighbours of tallies of `l` classes; reuses its buffers between calls.
class BoxNeighbours {
 public:
  BoxNeighbours(int32_t l, int32_t h) : l_(l), h_(h), off_(l > 0 ? l - 1 : 0), nb_(l) {}

  /// Calls f(nb) (nb: l counts, valid during the call) for every tally of the ball around t[0..l),
  /// in a fixed order.
  template <typename F>
  void ForEach(const int32_t* t, F&& f) {
    std::fill(off_.begin(), off_.end(), -h_);
    while (true) {
      int32_t last = 0;
      bool ok = true;
      for (int32_t c = 0; c + 1 < l_; ++c) {
        last -= off_[c];
        nb_[c] = t[c] + off_[c];
        if (nb_[c] < 0) ok = false;
      }
      nb_[l_ - 1] = t[l_ - 1] + last;
      if (last < -h_ || last > h_ || nb_[l_ - 1] < 0) ok = false;
      if (ok) f(nb_);
      int32_t i = 0;
      while (i + 1 < l_ && off_[i] == h_) off_[i++] = -h_;
      if (i + 1 >= l_) break;
      ++off_[i];
    }
  }

 private:
  int32_t l_;
  int32_t h_;
  std::vector<int32_t> off_;  // offsets of the first l - 1 coordinates
  std::vector<int32_t> nb_;
};

}  // namespace urnforest::internal
