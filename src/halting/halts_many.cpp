// A halting table's decisions for a batch of tallies (urnforest/halts_many.h).
#include "urnforest/halts_many.h"

#include <string>

namespace urnforest {

Result<std::vector<uint8_t>> HaltsMany(const HaltingTable& table,
                                       const std::vector<int32_t>& tallies) {
  const size_t l = static_cast<size_t>(table.num_classes());
  if (tallies.size() % l != 0) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "tallies must hold " + std::to_string(l) + " counts per tally, got " +
                             std::to_string(tallies.size()) + " counts");
  }
  const size_t n = tallies.size() / l;
  std::vector<uint8_t> out(n);
  for (size_t k = 0; k < n; ++k) {
    const int32_t* t = tallies.data() + k * l;
    int64_t votes = 0;
    for (size_t i = 0; i < l; ++i) {
      if (t[i] < 0 || (votes += t[i]) > table.num_trees()) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "tally " + std::to_string(k) + " has a negative count or more than " +
                                 std::to_string(table.num_trees()) + " votes");
      }
    }
    out[k] = table.Halts(t) ? 1 : 0;
  }
  return out;
}

}  // namespace urnforest
