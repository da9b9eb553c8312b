// HaltingTableHandle (building, loading and querying one table, expected costs) and P* of a
// tally, with their embind registration.
#include "halting_handle.h"

#include <utility>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"
#include "forest_handle.h"
#include "memory.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_rule.h"
#include "urnforest/pstar.h"

namespace urnforest::wasm {
namespace {

/// Exact cost of `table` over `prior`, plus Monte Carlo when samples > 0, as CostObject.
val CostOver(const HaltingTable& table, const Prior& prior, double samples, double seed_hi,
             double seed_lo) {
  Result<CostEstimate> exact = ExactCostOverPrior(table, prior);
  if (samples <= 0) return CostObject(exact, nullptr);
  Result<CostEstimate> mc =
      MonteCarloCost(table, prior, static_cast<int64_t>(samples), Seed64(seed_hi, seed_lo));
  return CostObject(exact, &mc);
}

/// P* of a tally for rules needing no data prior (as the CLI's `pstar`):
/// {pstar, leader, halt, exact} or an error object. `votes` validated by the JS side.
val PStar(int32_t rule, int32_t trees, int32_t classes, double alpha, const val& votes) {
  HaltingTableHandle handle;
  val built = handle.Build(rule, trees, classes, alpha);
  if (!built.isUndefined()) return built;
  const HaltingTable& h = handle.table();
  const std::vector<int32_t> tally = IntVector(votes);
  const int32_t leader = h.Leader(tally.data());
  double pstar = 0.0;
  bool exact = true;
  const HaltingRule r = static_cast<HaltingRule>(rule);
  if (r == HaltingRule::kInfinite) {
    pstar = leader >= 0 ? InfiniteLowerBound(tally, leader) : 0.0;
    exact = classes == 2;
  } else if (r == HaltingRule::kAlpha1) {
    pstar = h.Confidence(tally.data());
  } else if (classes <= 4) {
    Result<Prior> uniform = Prior::Uniform(classes);
    if (!uniform.ok()) return ErrorObject(uniform.status());
    Result<double> p = PStarBySum(uniform.value(), trees, tally);
    if (!p.ok()) return ErrorObject(p.status());
    pstar = p.value();
  } else {
    pstar = h.Confidence(tally.data());
    exact = false;
  }
  val out = val::object();
  out.set("pstar", pstar);
  out.set("leader", leader);
  out.set("halt", h.Halts(tally.data()));
  out.set("exact", exact);
  return out;
}

}  // namespace

val HaltingTableHandle::Build(int32_t rule, int32_t trees, int32_t classes, double alpha) {
  HaltingTableOptions options;
  options.rule = static_cast<HaltingRule>(rule);
  options.num_trees = trees;
  options.num_classes = classes;
  options.alpha = alpha;
  if (RuleNeedsPrior(options.rule)) {
    return InvalidArgument(std::string("rule '") + RuleName(options.rule) +
                           "' needs a prior estimated from a model: use forest.haltingTable()");
  }
  Result<Prior> uniform = Prior::Uniform(classes);
  if (!uniform.ok()) return ErrorObject(uniform.status());
  Result<HaltingTable> table = BuildHaltingTable(options);
  if (!table.ok()) return ErrorObject(table.status());
  table_ = std::move(table).value();
  prior_ = std::move(uniform).value();
  has_prior_ = true;
  return val::undefined();
}

val HaltingTableHandle::BuildForForest(const ForestHandle& forest, int32_t rule, double alpha,
                                       int32_t trees) {
  const Forest& f = forest.forest();
  const HaltingRule r = static_cast<HaltingRule>(rule);
  Result<Prior> prior = PriorForForest(f, r, trees);
  if (!prior.ok()) return ErrorObject(prior.status());
  HaltingTableOptions options;
  options.rule = r;
  options.num_trees = trees;
  options.num_classes = f.num_classes();
  options.alpha = alpha;
  // A table stored with the model is used as is; it equals the one built here.
  const HaltingTable* stored = f.FindStoredTable(r, alpha, trees);
  Result<HaltingTable> table =
      stored != nullptr ? Result<HaltingTable>(*stored)
                        : BuildHaltingTable(options, RuleNeedsPrior(r) ? &prior.value() : nullptr);
  if (!table.ok()) return ErrorObject(table.status());
  table_ = std::move(table).value();
  prior_ = std::move(prior).value();
  has_prior_ = true;
  return val::undefined();
}

val HaltingTableHandle::Load(const val& bytes) {
  std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  Result<HaltingTable> table = HaltingTable::FromBytes(data.data(), data.size());
  if (!table.ok()) return ErrorObject(table.status());
  table_ = std::move(table).value();
  has_prior_ = false;
  if (!RuleNeedsPrior(table_.rule())) {
    Result<Prior> uniform = Prior::Uniform(table_.num_classes());
    if (uniform.ok()) {
      prior_ = std::move(uniform).value();
      has_prior_ = true;
    }
  }
  return val::undefined();
}

bool HaltingTableHandle::Halts(const val& tally) const {
  return table_.Halts(IntVector(tally).data());
}
double HaltingTableHandle::Confidence(const val& tally) const {
  return table_.Confidence(IntVector(tally).data());
}
int32_t HaltingTableHandle::Leader(const val& tally) const {
  return table_.Leader(IntVector(tally).data());
}
int32_t HaltingTableHandle::MinLeaderVotes(int32_t c, const val& others) const {
  return table_.MinLeaderVotes(c, IntVector(others).data());
}
val HaltingTableHandle::BinaryThresholds(int32_t c) const {
  return CopyOut(table_.BinaryThresholds(c));
}

val HaltingTableHandle::ExpectedCostFinal(const val& final_tally, double samples, double seed_hi,
                                          double seed_lo) const {
  const std::vector<int32_t> tally = IntVector(final_tally);
  Result<CostEstimate> exact = ExactCostForFinalTally(table_, tally);
  if (samples <= 0) return CostObject(exact, nullptr);
  Result<CostEstimate> mc = MonteCarloCostForFinalTally(
      table_, tally, static_cast<int64_t>(samples), Seed64(seed_hi, seed_lo));
  return CostObject(exact, &mc);
}

val HaltingTableHandle::ExpectedCostOverPrior(double samples, double seed_hi,
                                              double seed_lo) const {
  if (!has_prior_) {
    return InvalidArgument("this table was loaded from bytes without its prior: pass a final tally");
  }
  return CostOver(table_, prior_, samples, seed_hi, seed_lo);
}

val HaltingTableHandle::Bytes() const { return CopyOut(table_.ToBytes()); }
std::string HaltingTableHandle::Rule() const { return RuleName(table_.rule()); }

std::string HaltingTableHandle::Layout() const {
  static const char* const kLayouts[] = {"thresholds", "pairwiseBound", "leadRule",
                                         "infiniteProduct"};
  return kLayouts[static_cast<int32_t>(table_.layout())];
}

void RegisterHalting() {
  emscripten::class_<HaltingTableHandle>("_HaltingTableHandle")
      .constructor<>()
      .function("_build", &HaltingTableHandle::Build)
      .function("_buildForForest", &HaltingTableHandle::BuildForForest)
      .function("_load", &HaltingTableHandle::Load)
      .function("_halts", &HaltingTableHandle::Halts)
      .function("_confidence", &HaltingTableHandle::Confidence)
      .function("_leader", &HaltingTableHandle::Leader)
      .function("_minLeaderVotes", &HaltingTableHandle::MinLeaderVotes)
      .function("_binaryThresholds", &HaltingTableHandle::BinaryThresholds)
      .function("_expectedCostFinal", &HaltingTableHandle::ExpectedCostFinal)
      .function("_expectedCostOverPrior", &HaltingTableHandle::ExpectedCostOverPrior)
      .function("_bytes", &HaltingTableHandle::Bytes)
      .function("_rule", &HaltingTableHandle::Rule)
      .function("_alpha", &HaltingTableHandle::Alpha)
      .function("_numTrees", &HaltingTableHandle::NumTrees)
      .function("_numClasses", &HaltingTableHandle::NumClasses)
      .function("_monotone", &HaltingTableHandle::Monotone)
      .function("_layout", &HaltingTableHandle::Layout)
      .function("_address", &AddressOf<HaltingTableHandle>);
  emscripten::function("_pstar", &PStar);
}

}  // namespace urnforest::wasm
