// P* of one partial tally by the formula its rule's P* uses (urnforest/tally_pstar.h).
#include "urnforest/tally_pstar.h"

#include <string>

#include "halting/rule_table.h"
#include "urnforest/pstar.h"

namespace urnforest {

Result<TallyPStar> PStarOfTally(const HaltingTable& table, const Prior& prior,
                                const std::vector<int32_t>& tally) {
  const int32_t l = table.num_classes();
  if (tally.size() != static_cast<size_t>(l) || prior.num_classes() != l) {
    return Status::Error(
        StatusCode::kShapeMismatch,
        "the tally and the prior must have the table's " + std::to_string(l) + " classes");
  }
  int64_t total = 0;
  for (int32_t v : tally) {
    if (v < 0) return Status::Error(StatusCode::kInvalidArgument, "a tally count is negative");
    total += v;
  }
  if (total > table.num_trees()) {
    return Status::Error(StatusCode::kInvalidArgument, "the tally has " + std::to_string(total) +
                                                           " votes, more than the table's " +
                                                           std::to_string(table.num_trees()) +
                                                           " trees");
  }
  TallyPStar out;
  out.leader = table.Leader(tally.data());
  out.halts = table.Halts(tally.data());
  Status s = internal::RuleRowOf(table.rule()).pstar(table, prior, tally, &out);
  if (!s.ok()) return s;
  return out;
}

namespace internal {

Status LeadRulePStar(const HaltingTable& table, const Prior& /*prior*/,
                     const std::vector<int32_t>& tally, TallyPStar* out) {
  out->pstar = table.Confidence(tally.data());
  return Status::Ok();
}

Status InfinitePStar(const HaltingTable& table, const Prior& /*prior*/,
                     const std::vector<int32_t>& tally, TallyPStar* out) {
  out->pstar = out->leader >= 0 ? InfiniteLowerBound(tally, out->leader) : 0.0;
  out->exact = table.num_classes() == 2;
  return Status::Ok();
}

Status UrnPStar(const HaltingTable& table, const Prior& prior, const std::vector<int32_t>& tally,
                TallyPStar* out) {
  if (table.layout() == TableLayout::kOnDemand) {
    out->pstar = table.Confidence(tally.data());
    out->exact = table.ConfidenceIsExact(tally.data());
  } else if (table.num_classes() <= 4) {
    Result<double> p = PStarBySum(prior, table.num_trees(), tally);
    if (!p.ok()) return p.status();
    out->pstar = p.value();
  } else {
    out->pstar = table.Confidence(tally.data());
    out->exact = false;
  }
  return Status::Ok();
}

}  // namespace internal

}  // namespace urnforest
