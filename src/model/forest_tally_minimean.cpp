// ForestTallyMinimean: rule "lp" for three or more classes, solved from the forest's calibration
// tallies and cached (urnforest/forest_tally_minimean.h).
#include "urnforest/forest_tally_minimean.h"

#include <string>
#include <utility>
#include <vector>

#include "model/recent_cache.h"
#include "urnforest/alpha.h"
#include "urnforest/minimax_stopping.h"
#include "urnforest/prior.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& message) { return Status::Error(StatusCode::kInvalidArgument, message); }

// A solved strategy and what it was solved from (the tallies in full, so no two models collide).
struct Entry {
  int kind = 0;  // 0: full-tally minimean, 1: two-class minimax
  int32_t classes = 0, trees = 0;
  uint64_t alpha_bits = 0;
  std::vector<uint32_t> tallies;
  std::shared_ptr<const TallyStoppingStrategy> strategy;
  std::shared_ptr<const BinaryStoppingStrategy> minimax;
};

// A few recent models; the oldest is dropped beyond four (a strategy at K = 4, T = 101 holds
// about 9 MB).
internal::RecentCache<Entry>& Cache() {
  static internal::RecentCache<Entry> cache(4);
  return cache;
}

// True when `e` was solved as `kind` for `forest`'s shape, alpha and tallies.
bool Matches(const Entry& e, int kind, const Forest& forest, uint64_t alpha_bits,
             const std::vector<uint32_t>& tallies) {
  return e.kind == kind && e.classes == forest.num_classes() && e.trees == forest.num_trees() &&
         e.alpha_bits == alpha_bits && e.tallies == tallies;
}

}  // namespace

Result<std::vector<uint32_t>> ForestLpTallies(const Forest& forest) {
  const ImportedModel* imported = forest.imported();
  if (imported != nullptr) {
    if (imported->kind == ImportedKind::kAdditive || !imported->calibrated || forest.oob_votes().empty()) {
      return Invalid("rule 'lp' needs a calibrated voting forest: calibrate it on unlabeled rows first");
    }
    return forest.oob_votes();
  }
  if (!forest.calibration_votes().empty()) return forest.calibration_votes();
  Result<std::vector<int32_t>> rescaled =
      RescaledOobTallies(forest.oob_votes(), forest.num_classes(), forest.num_trees());
  if (!rescaled.ok()) return Invalid("rule 'lp' needs out-of-bag votes: " + rescaled.status().message);
  return std::vector<uint32_t>(rescaled.value().begin(), rescaled.value().end());
}

Result<std::shared_ptr<const TallyStoppingStrategy>> ForestTallyMinimean(const Forest& forest, double alpha) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (forest.num_classes() < 3) {
    return Invalid("the full-tally rule 'lp' is for three or more classes; this model has " +
                   std::to_string(forest.num_classes()));
  }
  if (Result<TallyLattice> fits = TallyLattice::Make(forest.num_trees(), forest.num_classes()); !fits.ok()) {
    return Status::Error(fits.status().code, "rule 'lp': " + fits.status().message);
  }
  Result<std::vector<uint32_t>> tallies = ForestLpTallies(forest);
  if (!tallies.ok()) return tallies.status();
  const uint64_t alpha_bits = internal::DoubleBits(alpha);
  if (auto hit = Cache().Find([&](const Entry& e) { return Matches(e, 0, forest, alpha_bits, tallies.value()); },
                              [](const Entry& e) { return e.strategy; })) {
    return hit;
  }
  TallyMinimeanProblem problem;
  problem.num_trees = forest.num_trees();
  problem.num_classes = forest.num_classes();
  problem.final_tallies = tallies.value();
  problem.max_disagreement = 1.0 - alpha;
  Result<TallyStoppingStrategy> solved = SolveTallyMinimean(problem);
  if (!solved.ok()) return solved.status();
  Entry entry;
  entry.kind = 0;
  entry.classes = forest.num_classes();
  entry.trees = forest.num_trees();
  entry.alpha_bits = alpha_bits;
  entry.tallies = std::move(tallies).value();
  entry.strategy = std::make_shared<const TallyStoppingStrategy>(std::move(solved).value());
  Cache().Insert(entry);
  return entry.strategy;
}

Result<std::shared_ptr<const BinaryStoppingStrategy>> ForestMinimax(const Forest& forest, double alpha) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (forest.num_classes() != 2) {
    return Invalid("rule 'lp' with objective 'minimax' is for two classes; this model has " +
                   std::to_string(forest.num_classes()));
  }
  if (forest.num_trees() > kMaxBinaryStoppingTrees) {
    return Invalid("rule 'lp' is for at most " + std::to_string(kMaxBinaryStoppingTrees) + " trees");
  }
  Result<std::vector<uint32_t>> tallies = ForestLpTallies(forest);
  if (!tallies.ok()) return tallies.status();
  const uint64_t alpha_bits = internal::DoubleBits(alpha);
  if (auto hit = Cache().Find([&](const Entry& e) { return Matches(e, 1, forest, alpha_bits, tallies.value()); },
                              [](const Entry& e) { return e.minimax; })) {
    return hit;
  }
  MinimaxProblem problem;
  problem.num_trees = forest.num_trees();
  problem.final_count_weights.assign(static_cast<size_t>(forest.num_trees()) + 1, 0.0);
  for (size_t r = 0; r + 1 < tallies.value().size(); r += 2) problem.final_count_weights[tallies.value()[r + 1]] += 1.0;
  problem.max_disagreement = 1.0 - alpha;
  Result<MinimaxStrategy> solved = SolveMinimax(problem);
  if (!solved.ok()) return solved.status();
  BinaryStoppingStrategy strategy;
  strategy.first = solved.value().set;
  strategy.second = std::move(solved.value().set);
  strategy.expected_trees = solved.value().expected_trees;
  strategy.expected_disagreement = solved.value().worst_disagreement;
  Entry entry;
  entry.kind = 1;
  entry.classes = 2;
  entry.trees = forest.num_trees();
  entry.alpha_bits = alpha_bits;
  entry.tallies = std::move(tallies).value();
  entry.minimax = std::make_shared<const BinaryStoppingStrategy>(std::move(strategy));
  Cache().Insert(entry);
  return entry.minimax;
}

}  // namespace urnforest
