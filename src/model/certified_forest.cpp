// A forest's calibration rows as the certificate reads them, and the process-wide cache of
// certified strategies and minimean strategies (urnforest/certified_halting.h).
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

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

// What a cached strategy was computed from: the rows themselves (compared in full, so that no two
// forests' rows can collide) and the parameters.
struct CacheKey {
  int kind = 0;  // 0: certified strategy, 1: minimean
  int32_t classes = 0, trees = 0;
  uint64_t alpha_bits = 0, delta_bits = 0;
  int vote = 0;
  std::vector<uint32_t> tallies;
  std::vector<int32_t> references;
  bool operator==(const CacheKey& o) const {
    return kind == o.kind && classes == o.classes && trees == o.trees && alpha_bits == o.alpha_bits &&
           delta_bits == o.delta_bits && vote == o.vote && tallies == o.tallies && references == o.references;
  }
};

struct CacheEntry {
  CacheKey key;
  std::shared_ptr<const CertifiedStrategy> certified;
  std::shared_ptr<const BinaryStoppingStrategy> minimean;
};

// A few recent entries (a process holds a few models): the oldest is dropped beyond kCapacity.
constexpr size_t kCapacity = 16;

std::mutex& CacheMutex() {
  static std::mutex mutex;
  return mutex;
}

std::deque<CacheEntry>& Cache() {
  static std::deque<CacheEntry> cache;
  return cache;
}

uint64_t Bits(double x) {
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

const CacheEntry* Find(const CacheKey& key) {
  for (const CacheEntry& e : Cache()) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

void Insert(CacheEntry entry) {
  Cache().push_back(std::move(entry));
  while (Cache().size() > kCapacity) Cache().pop_front();
}

CacheKey KeyOf(int kind, const CalibrationRows& rows, double alpha, double delta, VoteKind vote) {
  CacheKey key;
  key.kind = kind;
  key.classes = rows.num_classes;
  key.trees = rows.num_trees;
  key.alpha_bits = Bits(alpha);
  key.delta_bits = Bits(delta);
  key.vote = static_cast<int>(vote);
  key.tallies = rows.tallies;
  key.references = rows.references;
  return key;
}

CertifiedStrategy ExactWithReason(double alpha, double delta, std::string reason) {
  CertifiedStrategy out;
  out.certificate.alpha = alpha;
  out.certificate.delta = delta;
  out.certificate.reason = std::move(reason);
  return out;
}

}  // namespace

Result<CalibrationRows> ForestCalibrationRows(const Forest& forest, VoteKind vote) {
  const ImportedModel* imported = forest.imported();
  if (imported == nullptr) {
    return Invalid(
        "a forest trained here has no calibration rows: its out-of-bag tallies count only the trees "
        "that did not see a row (about 37 % of them), so no row's disagreement with the full vote of "
        "all trees is known exactly; certifying needs rows on which every tree voted");
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

Result<CertifiedStrategy> CertifyForest(const Forest& forest, double alpha, double delta, VoteKind vote,
                                        QueryOrder order) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (Status s = CheckDelta(delta); !s.ok()) return s;
  if (order != QueryOrder::kRandomPerRow) {
    return ExactWithReason(alpha, delta,
                           std::string("the certificate holds for the random query order only; order '") +
                               QueryOrderName(order) + "' answers with the exact exit");
  }
  Result<CalibrationRows> rows = ForestCalibrationRows(forest, vote);
  if (!rows.ok()) return ExactWithReason(alpha, delta, rows.status().message);
  CacheKey key = KeyOf(0, rows.value(), alpha, delta, vote);
  {
    std::lock_guard<std::mutex> lock(CacheMutex());
    if (const CacheEntry* hit = Find(key)) return *hit->certified;
  }
  CertifyOptions options;
  options.alpha = alpha;
  options.delta = delta;
  options.hard_reference = vote == VoteKind::kHard;
  Result<CertifiedStrategy> made = CertifyStrategy(rows.value(), options);
  if (!made.ok()) return made.status();
  std::lock_guard<std::mutex> lock(CacheMutex());
  CacheEntry entry;
  entry.key = std::move(key);
  entry.certified = std::make_shared<const CertifiedStrategy>(made.value());
  Insert(std::move(entry));
  return made;
}

Result<BinaryStoppingStrategy> ForestMinimean(const Forest& forest, double alpha) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (forest.num_classes() != 2) {
    return Invalid("rule 'lp' is for two classes; this model has " + std::to_string(forest.num_classes()) +
                   " (use rule 'auto')");
  }
  if (forest.num_trees() > kMaxBinaryStoppingTrees) {
    return Invalid("rule 'lp' is for at most " + std::to_string(kMaxBinaryStoppingTrees) + " trees");
  }
  CalibrationRows rows;
  rows.num_classes = 2;
  rows.num_trees = forest.num_trees();
  const ImportedModel* imported = forest.imported();
  if (imported != nullptr) {
    if (imported->kind == ImportedKind::kAdditive || !imported->calibrated || forest.oob_votes().empty()) {
      return Invalid("rule 'lp' needs a calibrated voting forest: calibrate it on unlabeled rows first");
    }
    rows.tallies = forest.oob_votes();
  } else {
    Result<std::vector<int32_t>> rescaled = RescaledOobTallies(forest.oob_votes(), 2, forest.num_trees());
    if (!rescaled.ok()) return Invalid("rule 'lp' needs out-of-bag votes: " + rescaled.status().message);
    rows.tallies.assign(rescaled.value().begin(), rescaled.value().end());
  }
  CacheKey key = KeyOf(1, rows, alpha, 0.0, VoteKind::kHard);
  {
    std::lock_guard<std::mutex> lock(CacheMutex());
    if (const CacheEntry* hit = Find(key)) return *hit->minimean;
  }
  MinimeanProblem problem;
  problem.num_trees = rows.num_trees;
  problem.final_count_weights.assign(static_cast<size_t>(rows.num_trees) + 1, 0.0);
  for (size_t r = 0; r + 1 < rows.tallies.size(); r += 2) problem.final_count_weights[rows.tallies[r + 1]] += 1.0;
  problem.max_disagreement = 1.0 - alpha;
  Result<BinaryStoppingStrategy> lp = SolveMinimean(problem);
  if (!lp.ok()) return lp.status();
  std::lock_guard<std::mutex> lock(CacheMutex());
  CacheEntry entry;
  entry.key = std::move(key);
  entry.minimean = std::make_shared<const BinaryStoppingStrategy>(lp.value());
  Insert(std::move(entry));
  return lp;
}

}  // namespace urnforest
