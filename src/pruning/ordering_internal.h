#pragma once
// Private: the individual ordering algorithms behind OrderTrees (pruning/ordering.cpp dispatches).
// Each returns a permutation of 0..T-1; the matrix is valid and has at least one row.
#include <cstdint>
#include <vector>

#include "urnforest/ordering.h"
#include "urnforest/vote_matrix.h"

namespace urnforest {
namespace internal {

std::vector<int32_t> OrderReduceError(const VoteMatrix& m, int32_t backfit_passes);
std::vector<int32_t> OrderComplementarity(const VoteMatrix& m);
std::vector<int32_t> OrderKappa(const VoteMatrix& m);

/// Tree with the fewest wrong rows (ties: lowest index).
int32_t LowestErrorTree(const VoteMatrix& m);

}  // namespace internal
}  // namespace urnforest
