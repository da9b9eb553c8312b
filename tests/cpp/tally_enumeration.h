#pragma once
// Brute-force oracle of the full-tally stopping tests: a stopping set's outcome on one final
// tally, averaged over every distinct vote sequence.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "urnforest/tally_stopping.h"

namespace urnforest::testing {

/// The outcome of `set` on final tally f averaged over every distinct vote sequence (all equally
/// likely under a uniformly random order of the trees). Cost: the multinomial number of sequences.
inline TallyOutcome EnumeratedOutcome(const TallyLattice& lattice, const TallyStoppingSet& set,
                                      const std::vector<int32_t>& f) {
  const int32_t k = lattice.num_classes();
  std::vector<int32_t> sequence;
  for (int32_t c = 0; c < k; ++c) sequence.insert(sequence.end(), static_cast<size_t>(f[static_cast<size_t>(c)]), c);
  const int32_t winner = TallyLeader(f.data(), k);
  TallyOutcome sum;
  double count = 0.0;
  do {
    std::vector<int32_t> x(static_cast<size_t>(k), 0);
    int32_t i = 0;
    while (!set.stop[static_cast<size_t>(lattice.Index(x.data(), i))]) x[static_cast<size_t>(sequence[static_cast<size_t>(i++)])] += 1;
    sum.trees += i;
    sum.disagreement += TallyLeader(x.data(), k) != winner ? 1.0 : 0.0;
    count += 1.0;
  } while (std::next_permutation(sequence.begin(), sequence.end()));
  return {sum.disagreement / count, sum.trees / count};
}

}  // namespace urnforest::testing
