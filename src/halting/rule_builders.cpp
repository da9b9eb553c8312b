// The table builders the rule table's rows point at (halting/rule_table.h): which layout a rule's
// table takes for its T, l and prior. BuildHaltingTable (halting_table.cpp) validates the options and
// the prior first.
#include <string>
#include <utility>
#include <vector>

#include "halting/halting_table_builder.h"
#include "halting/rule_table.h"
#include "halting/tally_lattice.h"

namespace urnforest::internal {
namespace {

// The prior a full table's recursion reads: a tally mixture becomes the dense histogram of the same
// masses, one per tally; other priors unchanged.
Status DensePrior(const HaltingTableOptions& o, Prior* prior) {
  if (prior->kind() != PriorKind::kTallyMixture) return Status::Ok();
  Result<std::vector<double>> mass = FinalTallyMass(*prior, o.num_trees);
  if (!mass.ok()) return mass.status();
  Result<Prior> dense = Prior::Histogram(o.num_classes, o.num_trees, std::move(mass).value());
  if (!dense.ok()) return dense.status();
  *prior = std::move(dense).value();
  return Status::Ok();
}

}  // namespace

Result<HaltingTable> BuildLeadRuleTable(const HaltingTableOptions& o, Prior /*prior*/) {
  HaltingTableOptions lead;  // alpha1 ignores alpha: its table reports 1
  lead.rule = o.rule;
  lead.num_trees = o.num_trees;
  lead.num_classes = o.num_classes;
  lead.alpha = 1.0;
  return HaltingTableBuilder::Start(lead, TableLayout::kLeadRule);
}

Result<HaltingTable> BuildInfiniteTable(const HaltingTableOptions& o, Prior prior) {
  if (!o.force_on_demand && o.num_trees <= 1000) return HaltingTableBuilder::Infinite(o);
  return HaltingTableBuilder::OnDemand(o, prior, false);
}

Result<HaltingTable> BuildUrnTable(const HaltingTableOptions& o, Prior prior) {
  const int32_t l = o.num_classes;
  const bool eager = !o.force_on_demand && EagerTableFits(o.rule, o.num_trees, l);
  if (eager) {
    Status s = DensePrior(o, &prior);
    if (!s.ok()) return s;
  }
  if (o.force_pairwise_bound || (l > 4 && !o.force_on_demand && prior.IsSymmetricDirichlet() &&
                                 StatesOf(o.num_trees, 3) <= HaltingTableOptions::kEagerStates)) {
    if (!prior.IsSymmetricDirichlet())
      return Status::Error(StatusCode::kInvalidArgument,
                           "the pairwise-bound layout needs a symmetric Dirichlet prior");
    return HaltingTableBuilder::Pairwise(o, prior.components()[0].beta[0]);
  }
  if (eager) return HaltingTableBuilder::Thresholds(o, prior, false);
  return HaltingTableBuilder::OnDemand(o, prior, false);
}

Result<HaltingTable> BuildOptimalTable(const HaltingTableOptions& o, Prior prior) {
  if (!o.force_on_demand && EagerTableFits(o.rule, o.num_trees, o.num_classes)) {
    Status s = DensePrior(o, &prior);
    if (!s.ok()) return s;
    return HaltingTableBuilder::Thresholds(o, prior, true);
  }
  return HaltingTableBuilder::OnDemand(o, prior, true);
}

}  // namespace urnforest::internal
