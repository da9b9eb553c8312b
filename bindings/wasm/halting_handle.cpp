// HaltingTableHandle (building, loading and querying one table, expected costs) and P* of a
// tally, with their embind registration.
#include "halting_handle.h"

#include <chrono>
#include <optional>
#include <utility>
#include <vector>

#include <emscripten/bind.h>

#include "convert.h"
#include "registry.h"
#include "forest_handle.h"
#include "memory.h"
#include "options.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_rules.h"
#include "urnforest/halts_many.h"
#include "urnforest/predict.h"
#include "urnforest/tally_pstar.h"

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

/// P* of a tally for rules needing no data prior (as the CLI's `pstar`, PStarOfTally): `spec` as
/// HaltingTableHandle::Build's; {pstar, leader, halt, exact} or an error object. `votes` validated
/// by the JS side.
// The core's rule table, one plain object per rule in enum order (scripts/rule_table.mjs writes it
// into the JS API at build time).
val RuleTraitsTable() {
  val rows = val::array();
  for (const HaltingRuleTraits& t : AllRuleTraits()) {
    val row = val::object();
    row.set("name", std::string(t.name));
    row.set("summary", std::string(t.summary));
    row.set("description", std::string(t.description));
    row.set("source", std::string(t.source));
    row.set("fromPapers", t.from_papers);
    row.set("needsPrior", t.needs_prior);
    row.set("onDemand", t.on_demand);
    row.set("infiniteEnsemble", t.infinite_ensemble);
    row.set("fullTableMaxClasses", t.full_table_max_classes);
    row.set("fullTableMaxStates", static_cast<double>(t.full_table_max_states));
    row.set("maxClasses", t.max_classes);
    row.set("maxTrees", t.max_trees);
    rows.call<void>("push", row);
  }
  return rows;
}

val PStar(const val& spec, const val& votes) {
  HaltingTableHandle handle;
  val built = handle.Build(spec, val::undefined());
  if (!built.isUndefined()) return built;
  Result<TallyPStar> p = PStarOfTally(handle.table(), handle.prior(), IntVector(votes));
  if (!p.ok()) return ErrorObject(p.status());
  val out = val::object();
  out.set("pstar", p.value().pstar);
  out.set("leader", p.value().leader);
  out.set("halt", p.value().halts);
  out.set("exact", p.value().exact);
  return out;
}

// Milliseconds since `start` (wall clock).
double MsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The build progress of JS function `progress` (ProgressFromJs), or an empty function.
BuildProgressFn BuildProgressFromJs(const val& progress) {
  std::function<bool(int32_t, int32_t)> relay = ProgressFromJs(progress);
  if (!relay) return {};
  return [relay](int64_t done, int64_t total) {
    return relay(static_cast<int32_t>(done), static_cast<int32_t>(total));
  };
}

}  // namespace

val HaltingTableHandle::Build(const val& spec, val progress) {
  HaltingTableOptions options;
  options.progress = BuildProgressFromJs(progress);
  Result<HaltingRule> rule = ParseRule(spec["rule"].as<std::string>());
  if (!rule.ok()) return ErrorObject(rule.status());
  options.rule = rule.value();
  if (Has(spec, "trees")) options.num_trees = spec["trees"].as<int32_t>();
  if (Has(spec, "classes")) options.num_classes = spec["classes"].as<int32_t>();
  if (Has(spec, "alpha")) options.alpha = spec["alpha"].as<double>();
  if (RuleNeedsPrior(options.rule)) {
    return InvalidArgument(std::string("rule '") + RuleName(options.rule) +
                           "' needs a prior estimated from a model: use forest.haltingTable()");
  }
  Result<Prior> uniform = Prior::Uniform(options.num_classes);
  if (!uniform.ok()) return ErrorObject(uniform.status());
  const auto start = std::chrono::steady_clock::now();
  Result<HaltingTable> table = BuildHaltingTable(options);
  if (!table.ok()) return ErrorObject(table.status());
  table_ = std::move(table).value();
  build_ms_ = MsSince(start);
  prior_ = std::move(uniform).value();
  has_prior_ = true;
  return val::undefined();
}

val HaltingTableHandle::BuildForForest(const ForestHandle& forest, const std::string& rule_name,
                                       double alpha, int32_t trees, val progress) {
  Result<HaltingRule> rule = ParseRule(rule_name);
  if (!rule.ok()) return ErrorObject(rule.status());
  const auto start = std::chrono::steady_clock::now();
  Result<ForestTable> built = BuildForestTableWithPrior(forest.forest(), rule.value(), alpha, trees,
                                                               BuildProgressFromJs(progress));
  if (!built.ok()) return ErrorObject(built.status());
  table_ = std::move(built.value().table);
  build_ms_ = MsSince(start);
  prior_ = std::move(built.value().prior);
  has_prior_ = true;
  val out = val::object();
  out.set("fromStore", built.value().from_store);
  return out;
}

val HaltingTableHandle::Load(const val& bytes) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<uint8_t> data = emscripten::convertJSArrayToNumberVector<uint8_t>(bytes);
  Result<HaltingTable> table = HaltingTable::FromBytes(data.data(), data.size());
  if (!table.ok()) return ErrorObject(table.status());
  table_ = std::move(table).value();
  build_ms_ = MsSince(start);
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
val HaltingTableHandle::HaltsManyOf(const val& tallies) const {
  Result<std::vector<uint8_t>> halts = HaltsMany(table_, IntVector(tallies));
  if (!halts.ok()) return ErrorObject(halts.status());
  return CopyOut(halts.value());
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

val HaltingTableHandle::MeanShares(const ForestHandle& forest, const val& tallies) const {
  std::optional<Result<Prior>> fitted;
  if (!has_prior_) {
    fitted.emplace(PriorForForest(forest.forest(), table_.rule(), table_.num_trees()));
    if (!fitted->ok()) return ErrorObject(fitted->status());
  }
  Result<std::vector<double>> shares =
      HaltedVoteShares(has_prior_ ? prior_ : fitted->value(), table_.num_trees(),
                       table_.num_classes(), IntVector(tallies));
  if (!shares.ok()) return ErrorObject(shares.status());
  return CopyOut(shares.value());
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

std::string HaltingTableHandle::Layout() const { return LayoutName(table_.layout()); }

void RegisterHalting() {
  emscripten::class_<HaltingTableHandle>("_HaltingTableHandle")
      .constructor<>()
      .function("_build", &HaltingTableHandle::Build)
      .function("_buildForForest", &HaltingTableHandle::BuildForForest)
      .function("_load", &HaltingTableHandle::Load)
      .function("_halts", &HaltingTableHandle::Halts)
      .function("_haltsMany", &HaltingTableHandle::HaltsManyOf)
      .function("_confidence", &HaltingTableHandle::Confidence)
      .function("_leader", &HaltingTableHandle::Leader)
      .function("_minLeaderVotes", &HaltingTableHandle::MinLeaderVotes)
      .function("_binaryThresholds", &HaltingTableHandle::BinaryThresholds)
      .function("_expectedCostFinal", &HaltingTableHandle::ExpectedCostFinal)
      .function("_expectedCostOverPrior", &HaltingTableHandle::ExpectedCostOverPrior)
      .function("_meanShares", &HaltingTableHandle::MeanShares)
      .function("_bytes", &HaltingTableHandle::Bytes)
      .function("_rule", &HaltingTableHandle::Rule)
      .function("_alpha", &HaltingTableHandle::Alpha)
      .function("_numTrees", &HaltingTableHandle::NumTrees)
      .function("_numClasses", &HaltingTableHandle::NumClasses)
      .function("_monotone", &HaltingTableHandle::Monotone)
      .function("_layout", &HaltingTableHandle::Layout)
      .function("_buildMs", &HaltingTableHandle::BuildMs)
      .function("_memoryBytes", &HaltingTableHandle::MemoryBytes)
      .function("_memoEntries", &HaltingTableHandle::MemoEntries)
      .function("_optimalFallback", &HaltingTableHandle::OptimalFallback)
      .function("_address", &AddressOf<HaltingTableHandle>);
  emscripten::function("_pstar", &PStar);
  emscripten::function("_ruleTraits", &RuleTraitsTable);
}

}  // namespace urnforest::wasm
