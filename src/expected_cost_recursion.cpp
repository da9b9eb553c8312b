// ExactCostByRecursion: expected trees and disagreement of a halting table, averaged over a prior,
// by one backward sweep over partial tallies (see expected_cost.h).
#include <string>
#include <vector>

#include "urn_recursion.h"
#include "urnforest/expected_cost.h"

namespace urnforest {

Result<CostEstimate> ExactCostByRecursion(const HaltingTable& table, const Prior& prior) {
  const int32_t l = table.num_classes();
  const int32_t T = table.num_trees();
  if (prior.num_classes() != l) {
    return Status::Error(StatusCode::kShapeMismatch, "prior and table differ in classes");
  }
  // Value layout per state: [E trees, E disagreement, P(final label = c) for c = 0..l-1].
  const int32_t width = 2 + l;
  CostEstimate out;
  bool have_root = false;
  Status s = internal::BackwardSweep(
      prior, T, width,
      [&](const int32_t* t, double* v) {
        int32_t best = 0;
        for (int32_t c = 1; c < l; ++c)
          if (t[c] > t[best]) best = c;
        v[0] = T;
        v[1] = 0.0;
        for (int32_t c = 0; c < l; ++c) v[2 + c] = c == best ? 1.0 : 0.0;
      },
      [&](int32_t n, const int32_t* t, const double*, bool, double* v) {
        // Halting at the last vote changes nothing: the label is then the full vote.
        if (n > 0 && n < T && table.Halts(t)) {
          const int32_t leader = table.Leader(t);
          v[0] = n;
          v[1] = 1.0 - v[2 + leader];
          if (v[1] < 0.0) v[1] = 0.0;
        }
        if (n == 0) {
          out.expected_trees = v[0];
          out.disagreement = v[1];
          have_root = true;
        }
      });
  if (!s.ok()) return s;
  if (!have_root) return Status::Error(StatusCode::kInternal, "recursion did not reach t = 0");
  return out;
}

}  // namespace urnforest
