#pragma once
// Internal: the exact early exit's walk (model/soft_exact.cpp) and the per-call decision to walk
// every tree without bound checks when halting would not pay.
#include <cstddef>
#include <cstdint>

#include "urnforest/forest.h"
#include "urnforest/predict_scores.h"

namespace urnforest {
namespace internal {

/// How PredictSoftExact walks a call's rows.
enum class ExactWalk {
  /// Every row halts at the first tree count its bounds settle (trees_used as defined).
  kAlwaysHalt,
  /// The first kExactProbeRows rows halt; when HaltingPays() says their trees and checks cost as
  /// much as the full walk, the other rows walk every tree without checks (trees_used = T there).
  /// The labels are the same either way: the full soft prediction's.
  kProbeThenDecide,
};

/// Rows that always halt before the decision of kProbeThenDecide (calls with no more rows than
/// this walk as kAlwaysHalt).
constexpr size_t kExactProbeRows = 64;

/// True when halting is expected to cost less than the full walk, from `rows` probe rows that used
/// `trees_used` trees in total and evaluated `checks` bound checks: halting pays when
/// trees_used + c * checks < 0.95 * rows * T, with c a check's cost in trees' walks by layout
/// (one compared score 1.6, boosted trees over several classes 6, voting forests 3; measured
/// natively) scaled by 4 / max(4, log2(leaves per tree)) for deeper trees. Deterministic: counts,
/// not clocks, decide.
bool HaltingPays(const Forest& forest, double trees_used, double checks, size_t rows);

/// PredictSoftExact with the walk chosen (PredictSoftExact itself: kProbeThenDecide).
Result<ExactHaltResult> PredictSoftExactWalk(const Forest& forest, const float* rows, size_t num_rows,
                                             ExactWalk walk);

}  // namespace internal
}  // namespace urnforest
