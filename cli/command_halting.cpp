// CLI commands on halting rules: table and pstar (`expected`: command_expected.cpp; the options
// they share: rule_setup.h).
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "command.h"
#include "model_file.h"
#include "rule_setup.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_rules.h"
#include "urnforest/halting_table.h"
#include "urnforest/pstar.h"
#include "urnforest/serialize.h"
#include "urnforest/tally_pstar.h"

namespace urnforest::cli {
namespace {

/// For l >= 3: every vector of the other counts (class order, skipping c) from which a halt is
/// possible, with the minimum count of class c: [o_1, ..., o_{l-1}, min].
void WriteMultiClassTable(JsonWriter& json, const HaltingTable& table, int32_t c) {
  const int32_t l = table.num_classes();
  const int32_t t = table.num_trees();
  std::vector<int32_t> others(l - 1, 0);
  json.BeginArray();
  while (true) {
    int32_t sum = 0;
    for (int32_t o : others) sum += o;
    if (sum <= t) {
      const int32_t m = table.MinLeaderVotes(c, others.data());
      if (m + sum <= t) {
        json.BeginArray();
        for (int32_t o : others) json.Int(o);
        json.Int(m).EndArray();
      }
    }
    size_t i = 0;
    while (i < others.size() && ++others[i] > t) others[i++] = 0;
    if (i == others.size()) break;
  }
  json.EndArray();
}

}  // namespace

/// `table --model M --rule R --alpha A [--trees T] --store --out M2`: builds the table from M's
/// out-of-bag votes and writes M with the table stored, no retraining.
Status StoreTableInModel(const Args& args, const RuleSetup& setup, Output& out) {
  Result<std::string> model_path = args.Required("model");
  if (!model_path.ok()) {
    return Status::Error(StatusCode::kInvalidArgument, "option --store needs --model MODEL");
  }
  Result<std::string> out_path = args.Required("out");
  if (!out_path.ok()) return Status::Error(StatusCode::kInvalidArgument, "option --store needs --out MODEL2");
  Result<Forest> forest = LoadModel(model_path.value());
  if (!forest.ok()) return forest.status();
  Status stored = StoreForestTable(&forest.value(), setup.rule, setup.alpha, setup.trees);
  if (!stored.ok()) return stored;
  const std::vector<uint8_t> bytes = SerializeForest(forest.value());
  Status written = WriteFile(out_path.value(), bytes);
  if (!written.ok()) return written;
  const HaltingTable* table = forest.value().FindStoredTable(setup.rule, setup.alpha, setup.trees);
  out.json.BeginObject();
  WriteHeader(out.json, setup);
  out.json.Key("stored").Bool(true);
  out.json.Key("table_bytes").Int(static_cast<int64_t>(table->ToBytes().size()));
  out.json.Key("stored_tables").Int(static_cast<int64_t>(forest.value().stored_tables().size()));
  out.json.Key("model_bytes").Int(static_cast<int64_t>(bytes.size()));
  out.json.Key("out").String(out_path.value());
  out.json.EndObject();
  out.text = std::string("stored ") + RuleName(setup.rule) + " table (alpha " +
             std::to_string(setup.alpha) + ", " + std::to_string(setup.trees) + " trees) -> " +
             out_path.value() + "\n";
  return Status::Ok();
}

Status RunTable(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"trees", "alpha", "classes", "rule", "model", "out"},
                                    {"json", "store"});
  if (!parsed.ok()) return parsed.status();
  if (parsed.value().Has("out") && !parsed.value().Flag("store")) {
    return Status::Error(StatusCode::kInvalidArgument, "option --out needs --store");
  }
  Result<RuleSetup> setup = ReadRuleSetup(parsed.value());
  if (!setup.ok()) return setup.status();
  if (parsed.value().Flag("store")) return StoreTableInModel(parsed.value(), setup.value(), out);
  if (!setup.ok()) return setup.status();
  const auto start = std::chrono::steady_clock::now();
  Result<HaltingTable> table = BuildTable(setup.value());
  const double build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!table.ok()) return table.status();
  const HaltingTable& h = table.value();
  const int32_t l = setup.value().classes;

  out.json.BeginObject();
  WriteHeader(out.json, setup.value());
  out.json.Key("build_ms").Double(build_ms);
  out.json.Key("table_bytes").Int(static_cast<int64_t>(h.ToBytes().size()));
  out.json.Key("memory_bytes").Int(static_cast<int64_t>(h.MemoryBytes()));
  out.json.Key("layout").String(LayoutName(h.layout()));
  out.json.Key("monotone").Bool(h.monotone());
  // An on-demand table lists its thresholds while that takes O(T log T) decisions of modest size.
  const bool listable = h.layout() != TableLayout::kOnDemand || h.num_trees() <= 2001;
  if (h.optimal_fallback()) out.json.Key("optimal_fallback").Bool(true);
  if (l == 2 && listable) {
    out.json.Key("min_majority").IntArray(h.BinaryThresholds(0));
    out.json.Key("tables").BeginArray();
    for (int32_t c = 0; c < 2; ++c) out.json.IntArray(h.BinaryThresholds(c));
    out.json.EndArray();
  } else if (l <= 4 && h.layout() == TableLayout::kThresholds) {
    out.json.Key("tables").BeginArray();
    for (int32_t c = 0; c < l; ++c) WriteMultiClassTable(out.json, h, c);
    out.json.EndArray();
  }
  out.json.EndObject();

  out.text = std::string(RuleName(h.rule())) + " table, T = " + std::to_string(h.num_trees()) +
             ", l = " + std::to_string(l) + ", alpha = " + std::to_string(setup.value().alpha) + "\n";
  if (l == 2 && listable) {
    for (int32_t c = 0; c < 2; ++c) {
      out.text += "class " + std::to_string(c) + " min votes by other count:";
      for (int32_t v : h.BinaryThresholds(c)) out.text += " " + std::to_string(v);
      out.text += "\n";
    }
  }
  return Status::Ok();
}

Status RunPStar(int argc, char** argv, Output& out) {
  Result<Args> parsed = Args::Parse(argc, argv, 2,
                                    {"trees", "alpha", "classes", "rule", "model", "votes"},
                                    {"json"});
  if (!parsed.ok()) return parsed.status();
  const Args& args = parsed.value();
  Result<RuleSetup> setup_or = ReadRuleSetup(args);
  if (!setup_or.ok()) return setup_or.status();
  const RuleSetup& setup = setup_or.value();
  Result<std::vector<int32_t>> votes = ReadCounts(args, "votes", setup.classes);
  if (!votes.ok()) return votes.status();
  int32_t total = 0;
  for (int32_t v : votes.value()) total += v;
  if (total > setup.trees) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the votes sum to " + std::to_string(total) + ", more than --trees " +
                             std::to_string(setup.trees));
  }
  Result<HaltingTable> table = BuildTable(setup);
  if (!table.ok()) return table.status();
  const HaltingTable& h = table.value();
  Result<TallyPStar> p = PStarOfTally(h, setup.prior, votes.value());
  if (!p.ok()) return p.status();
  const double pstar = p.value().pstar;
  const int32_t leader = p.value().leader;

  out.json.BeginObject();
  WriteHeader(out.json, setup);
  out.json.Key("votes").IntArray(votes.value());
  out.json.Key("pstar").Double(pstar);
  out.json.Key("exact").Bool(p.value().exact);
  out.json.Key("leader").Int(leader);
  out.json.Key("halt").Bool(p.value().halts);
  if (RuleTraits(setup.rule).infinite_ensemble && leader >= 0) {
    out.json.Key("infinite_exact").Double(InfiniteExactProbability(votes.value(), leader));
  }
  out.json.EndObject();

  char line[160];
  std::snprintf(line, sizeof(line), "P* = %.9f (leader %d): %s\n", pstar, leader,
                p.value().halts ? "halt" : "continue");
  out.text = line;
  return Status::Ok();
}

}  // namespace urnforest::cli
