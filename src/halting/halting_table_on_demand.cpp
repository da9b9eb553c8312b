// Building kOnDemand tables: the rule's prior as Dirichlet components and point masses, handed to
// the memoised on-demand rule (halting/on_demand_rule.h).
#include <new>
#include <utility>
#include <vector>

#include "halting/halting_table_builder.h"
#include "halting/on_demand_rule.h"
#include "halting/tally_lattice.h"

namespace urnforest {

void HaltingTableBuilder::AttachOnDemand(HaltingTable* table, std::vector<DirichletComponent> dirichlet,
                                         std::vector<int32_t> support,
                                         std::vector<double> support_weights, double exact_budget) {
  internal::OnDemandConfig config;
  config.rule = table->rule_;
  config.num_trees = table->num_trees_;
  config.num_classes = table->num_classes_;
  config.alpha = table->alpha_;
  config.dirichlet = std::move(dirichlet);
  config.support = std::move(support);
  config.support_weights = std::move(support_weights);
  config.exact_budget = exact_budget;
  table->on_demand_ = std::make_shared<const internal::OnDemandRule>(std::move(config));
}

const internal::OnDemandRule& HaltingTableBuilder::OnDemandOf(const HaltingTable& table) {
  return *table.on_demand_;
}

Result<HaltingTable> HaltingTableBuilder::OnDemand(const HaltingTableOptions& o, const Prior& prior,
                                                   bool optimal_fallback) {
  HaltingTable table = Start(o, TableLayout::kOnDemand);
  table.optimal_fallback_ = optimal_fallback;
  const int32_t l = o.num_classes;
  std::vector<DirichletComponent> dirichlet;
  std::vector<int32_t> support;
  std::vector<double> weights;
  try {
    switch (prior.kind()) {
      case PriorKind::kUniform:
      case PriorKind::kDirichlet:
      case PriorKind::kDirichletMixture: dirichlet = prior.components(); break;
      case PriorKind::kTallyMixture:
        support = prior.support();
        weights = prior.support_weights();
        if (prior.uniform_weight() > 0.0)
          dirichlet.push_back({prior.uniform_weight(), std::vector<double>(l, 1.0)});
        break;
      case PriorKind::kHistogram: {
        internal::Compositions comp(o.num_trees, l);
        const std::vector<double>& mass = prior.histogram();
        comp.ForEach(o.num_trees, [&](const int32_t* t) {
          const double w = mass[comp.Rank(t)];
          if (w <= 0.0) return;
          support.insert(support.end(), t, t + l);
          weights.push_back(w);
        });
        break;
      }
    }
    AttachOnDemand(&table, std::move(dirichlet), std::move(support), std::move(weights),
                   o.exact_budget);
  } catch (const std::bad_alloc&) {
    return Status::Error(StatusCode::kOutOfMemory, "on-demand halting rule too large");
  }
  return table;
}

}  // namespace urnforest
