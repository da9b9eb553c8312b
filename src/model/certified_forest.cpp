// A forest's calibration rows as the certificate reads them, and the process-wide cache of
// certified strategies and minimean strategies (urnforest/certified_halting.h).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/recent_cache.h"
#include "urnforest/alpha.h"
#include "urnforest/certified_halting.h"
#include "urnforest/forest.h"
#include "urnforest/prior.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

// What a cached strategy was computed from: the forest's stored votes and, for a reference other
// than the plurality, its stored labels (compared in full, so that no two forests' rows can
// collide, and in place, so that a hit copies nothing), and the parameters.
struct CacheKey {
  int kind = 0;  // 0: certified strategy, 1: minimean
  int32_t classes = 0, trees = 0;
  uint64_t alpha_bits = 0, delta_bits = 0;
  int vote = 0;
  bool imported = false;  // calibration votes (all trees) or out-of-bag votes
  bool trained_calibration = false;  // a trained forest's calibration rows rather than its OOB votes
  std::vector<uint32_t> votes;
  std::vector<int32_t> labels;  // empty unless the references are the stored labels
};

struct CacheEntry {
  CacheKey key;
  std::shared_ptr<const CertifiedStrategy> certified;
  std::shared_ptr<const BinaryStoppingStrategy> minimean;
};

// A few recent entries (a process holds a few models): the oldest is dropped beyond 16.
internal::RecentCache<CacheEntry>& Cache() {
  static internal::RecentCache<CacheEntry> cache(16);
  return cache;
}

// The votes a strategy is computed from: a trained forest's calibration rows when it has them,
// else the stored votes (an imported forest's calibration votes, or out-of-bag votes).
const std::vector<uint32_t>& KeyVotes(const Forest& forest) {
  return forest.calibration_votes().empty() ? forest.oob_votes() : forest.calibration_votes();
}

const std::vector<int32_t>& KeyLabels(const Forest& forest) {
  return forest.calibration_votes().empty() ? forest.train_labels() : forest.calibration_labels();
}

// The key of `forest`'s rows without its vectors (Matches compares those in place).
CacheKey Parameters(int kind, const Forest& forest, double alpha, double delta, VoteKind vote) {
  CacheKey key;
  key.kind = kind;
  key.classes = forest.num_classes();
  key.trees = forest.num_trees();
  key.alpha_bits = internal::DoubleBits(alpha);
  key.delta_bits = internal::DoubleBits(delta);
  key.vote = static_cast<int>(vote);
  key.imported = forest.imported() != nullptr;
  key.trained_calibration = !forest.calibration_votes().empty();
  return key;
}

bool Matches(const CacheKey& stored, const CacheKey& asked, const Forest& forest, bool with_labels) {
  return stored.kind == asked.kind && stored.classes == asked.classes && stored.trees == asked.trees &&
         stored.alpha_bits == asked.alpha_bits && stored.delta_bits == asked.delta_bits &&
         stored.vote == asked.vote && stored.imported == asked.imported &&
         stored.trained_calibration == asked.trained_calibration && stored.votes == KeyVotes(forest) &&
         (with_labels ? stored.labels == KeyLabels(forest) : stored.labels.empty());
}

// `get` of the cached entry made from `asked` and `forest`'s rows, or a null pointer.
template <typename Get>
auto Find(const CacheKey& asked, const Forest& forest, bool with_labels, const Get& get) {
  return Cache().Find([&](const CacheEntry& e) { return Matches(e.key, asked, forest, with_labels); }, get);
}

void Insert(CacheKey key, const Forest& forest, bool with_labels, CacheEntry entry) {
  key.votes = KeyVotes(forest);
  if (with_labels) key.labels = KeyLabels(forest);
  entry.key = std::move(key);
  Cache().Insert(std::move(entry));
}

std::shared_ptr<const CertifiedStrategy> ExactWithReason(double alpha, double delta, std::string reason) {
  auto out = std::make_shared<CertifiedStrategy>();
  out->certificate.alpha = alpha;
  out->certificate.delta = delta;
  out->certificate.reason = std::move(reason);
  return out;
}

}  // namespace

Result<CalibrationRows> ForestCalibrationRows(const Forest& forest, VoteKind vote) {
  const ImportedModel* imported = forest.imported();
  if (imported == nullptr) {
    if (forest.calibration_votes().empty()) {
      return Invalid(
          "the forest is not calibrated: its out-of-bag tallies count only the trees that did not see "
          "a row (about 37 % of them), so no row's disagreement with the full vote of all trees is "
          "known exactly; calibrate it on held-out unlabeled rows first: certifying needs calibration "
          "rows on which every tree voted");
    }
    if (vote != VoteKind::kHard) {
      return Invalid("the calibration rows of a forest trained here hold its hard vote, not a soft one");
    }
    CalibrationRows rows;
    rows.num_classes = forest.num_classes();
    rows.num_trees = forest.num_trees();
    rows.tallies = forest.calibration_votes();
    rows.references = forest.calibration_labels();  // the plurality of all trees (vote kHard)
    return rows;
  }
  if (imported->kind == ImportedKind::kAdditive) {
    return Invalid("an additive model (boosted trees) does not vote: only its exact early exit applies");
  }
  if (!imported->calibrated || forest.oob_votes().empty()) {
    return Invalid("the forest is not calibrated: calibrate it on unlabeled rows first");
  }
  if (vote != VoteKind::kHard && vote != imported->default_vote) {
    return Invalid("the calibration rows hold the model's hard prediction, not its soft one");
  }
  CalibrationRows rows;
  rows.num_classes = forest.num_classes();
  rows.num_trees = forest.num_trees();
  rows.tallies = forest.oob_votes();
  const size_t k = static_cast<size_t>(rows.num_classes);
  const size_t n = rows.tallies.size() / k;
  if (vote == VoteKind::kHard) {
    rows.references.resize(n);
    for (size_t r = 0; r < n; ++r) rows.references[r] = Plurality(rows.tallies.data() + r * k, k);
  } else {
    rows.references = forest.train_labels();
  }
  return rows;
}

Result<std::shared_ptr<const CertifiedStrategy>> CertifyForest(const Forest& forest, double alpha, double delta,
                                                                VoteKind vote, QueryOrder order) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (Status s = CheckDelta(delta); !s.ok()) return s;
  if (order != QueryOrder::kRandomPerRow) {
    return ExactWithReason(alpha, delta,
                           std::string("the certificate holds for the random query order only; order '") +
                               QueryOrderName(order) + "' answers with the exact exit");
  }
  const bool with_labels = vote != VoteKind::kHard;
  const CacheKey asked = Parameters(0, forest, alpha, delta, vote);
  if (auto hit = Find(asked, forest, with_labels, [](const CacheEntry& e) { return e.certified; })) return hit;
  Result<CalibrationRows> rows = ForestCalibrationRows(forest, vote);
  if (!rows.ok()) return ExactWithReason(alpha, delta, rows.status().message);
  CertifyOptions options;
  options.alpha = alpha;
  options.delta = delta;
  options.hard_reference = vote == VoteKind::kHard;
  Result<CertifiedStrategy> made = CertifyStrategy(rows.value(), options);
  if (!made.ok()) return made.status();
  CacheEntry entry;
  entry.certified = std::make_shared<const CertifiedStrategy>(std::move(made).value());
  Insert(asked, forest, with_labels, entry);
  return entry.certified;
}

Result<std::shared_ptr<const BinaryStoppingStrategy>> ForestMinimean(const Forest& forest, double alpha) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (forest.num_classes() != 2) {
    return Invalid("rule 'lp' is for two classes; this model has " + std::to_string(forest.num_classes()) +
                   " (use rule 'auto')");
  }
  if (forest.num_trees() > kMaxBinaryStoppingTrees) {
    return Invalid("rule 'lp' is for at most " + std::to_string(kMaxBinaryStoppingTrees) + " trees");
  }
  const CacheKey asked = Parameters(1, forest, alpha, 0.0, VoteKind::kHard);
  if (auto hit = Find(asked, forest, false, [](const CacheEntry& e) { return e.minimean; })) return hit;
  std::vector<uint32_t> tallies;
  const ImportedModel* imported = forest.imported();
  if (imported != nullptr) {
    if (imported->kind == ImportedKind::kAdditive || !imported->calibrated || forest.oob_votes().empty()) {
      return Invalid("rule 'lp' needs a calibrated voting forest: calibrate it on unlabeled rows first");
    }
    tallies = forest.oob_votes();
  } else if (!forest.calibration_votes().empty()) {
    tallies = forest.calibration_votes();  // all-tree tallies: preferred over rescaled OOB ones
  } else {
    Result<std::vector<int32_t>> rescaled = RescaledOobTallies(forest.oob_votes(), 2, forest.num_trees());
    if (!rescaled.ok()) return Invalid("rule 'lp' needs out-of-bag votes: " + rescaled.status().message);
    tallies.assign(rescaled.value().begin(), rescaled.value().end());
  }
  MinimeanProblem problem;
  problem.num_trees = forest.num_trees();
  problem.final_count_weights.assign(static_cast<size_t>(forest.num_trees()) + 1, 0.0);
  for (size_t r = 0; r + 1 < tallies.size(); r += 2) problem.final_count_weights[tallies[r + 1]] += 1.0;
  problem.max_disagreement = 1.0 - alpha;
  Result<BinaryStoppingStrategy> lp = SolveMinimean(problem);
  if (!lp.ok()) return lp.status();
  CacheEntry entry;
  entry.minimean = std::make_shared<const BinaryStoppingStrategy>(std::move(lp).value());
  Insert(asked, forest, false, entry);
  return entry.minimean;
}

}  // namespace urnforest
