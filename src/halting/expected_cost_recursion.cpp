// ExactCostByRecursion / ExactCostsByRecursion: expected trees and disagreement of halting tables,
// averaged over a prior, by one backward sweep over partial tallies (see expected_cost.h).
#include <string>
#include <vector>

#include "halting/tally_lattice.h"
#include "halting/urn_recursion.h"
#include "urnforest/expected_cost.h"
#include "urnforest/vote.h"

namespace urnforest {

namespace {

constexpr int64_t kMaxSweepStates = 60'000'000;       // C(T + l, l), as for full tables
constexpr int64_t kMaxOnDemandSweepStates = 200'000;  // each new tally decided when asked

}  // namespace

Result<std::vector<CostEstimate>> ExactCostsByRecursion(const std::vector<const HaltingTable*>& tables,
                                                        const Prior& prior) {
  if (tables.empty()) return std::vector<CostEstimate>{};
  const int32_t l = tables[0]->num_classes();
  const int32_t T = tables[0]->num_trees();
  for (const HaltingTable* table : tables) {
    if (table->num_classes() != l || table->num_trees() != T) {
      return Status::Error(StatusCode::kShapeMismatch, "the tables differ in classes or trees");
    }
  }
  if (prior.num_classes() != l) {
    return Status::Error(StatusCode::kShapeMismatch, "prior and table differ in classes");
  }
  // The sweep visits every tally of at most T votes; beyond a few million (any on-demand table,
  // whose tallies are decided when first asked) it is Monte Carlo's job.
  const int64_t states = l <= 4 ? internal::Compositions(T, l + 1).Count(T) : -1;
  if (states < 0 || states > kMaxSweepStates) {
    return Status::Error(StatusCode::kLimitExceeded,
                         "the exact recursion visits every tally of at most " + std::to_string(T) +
                             " votes over " + std::to_string(l) + " classes; use Monte Carlo");
  }
  for (const HaltingTable* table : tables) {
    if (table->layout() == TableLayout::kOnDemand && states > kMaxOnDemandSweepStates) {
      return Status::Error(StatusCode::kLimitExceeded,
                           "an on-demand table's exact recursion is limited to " +
                               std::to_string(kMaxOnDemandSweepStates) + " tallies; use Monte Carlo");
    }
  }
  // Value layout per state: [P(final label = c) for c = 0..l-1], then per table k
  // [E trees, E disagreement]. P(final label) does not depend on the tables: one sweep serves all.
  const int32_t K = static_cast<int32_t>(tables.size());
  const int32_t width = l + 2 * K;
  std::vector<CostEstimate> out(K);
  bool have_root = false;
  Status s = internal::BackwardSweep(
      prior, T, width,
      [&](const int32_t* t, double* v) {
        const int32_t best = Plurality(t, static_cast<size_t>(l));
        for (int32_t c = 0; c < l; ++c) v[c] = c == best ? 1.0 : 0.0;
        for (int32_t k = 0; k < K; ++k) {
          v[l + 2 * k] = T;
          v[l + 2 * k + 1] = 0.0;
        }
      },
      [&](int32_t n, const int32_t* t, const double*, bool, double* v) {
        // Halting at the last vote changes nothing: the label is then the full vote.
        if (n > 0 && n < T) {
          for (int32_t k = 0; k < K; ++k) {
            if (!tables[k]->Halts(t)) continue;
            const int32_t leader = tables[k]->Leader(t);
            v[l + 2 * k] = n;
            v[l + 2 * k + 1] = 1.0 - v[leader];
            if (v[l + 2 * k + 1] < 0.0) v[l + 2 * k + 1] = 0.0;
          }
        }
        if (n == 0) {
          for (int32_t k = 0; k < K; ++k) {
            out[k].expected_trees = v[l + 2 * k];
            out[k].disagreement = v[l + 2 * k + 1];
          }
          have_root = true;
        }
      });
  if (!s.ok()) return s;
  if (!have_root) return Status::Error(StatusCode::kInternal, "recursion did not reach t = 0");
  return out;
}

Result<CostEstimate> ExactCostByRecursion(const HaltingTable& table, const Prior& prior) {
  Result<std::vector<CostEstimate>> one = ExactCostsByRecursion({&table}, prior);
  if (!one.ok()) return one.status();
  return one.value()[0];
}

}  // namespace urnforest
