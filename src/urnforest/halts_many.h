#pragma once
// A halting table's decisions for many tallies in one call (one crossing of the wasm boundary for
// a whole lattice of tallies instead of one per tally).
#include <cstdint>
#include <vector>

#include "urnforest/halting_table.h"
#include "urnforest/status.h"

namespace urnforest {

/// HaltingTable::Halts for every tally of `tallies` (n x table.num_classes() counts, row-major):
/// out[k] = 1 when tally k halts, else 0. Fails with kShapeMismatch (a size that is not a multiple
/// of the class count) or kInvalidArgument (a negative count, or a tally of more than
/// table.num_trees() votes; the message names the tally).
Result<std::vector<uint8_t>> HaltsMany(const HaltingTable& table,
                                       const std::vector<int32_t>& tallies);

}  // namespace urnforest
