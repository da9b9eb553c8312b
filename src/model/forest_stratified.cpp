// Rule "stratified" on a forest: fit at calibration, solve per alpha with a small cache
// (urnforest/forest_stratified.h).
#include "urnforest/forest_stratified.h"

#include <string>
#include <utility>

#include "model/recent_cache.h"
#include "urnforest/alpha.h"

namespace urnforest {
namespace {

// A few recent (calibration, alpha) pairs; the calibration is immutable and held by the entry,
// so its address cannot be reused while the entry lives.
struct Entry {
  std::shared_ptr<const StratifiedCalibration> calibration;
  uint64_t alpha_bits = 0;
  std::shared_ptr<const StratifiedModel> model;
};

internal::RecentCache<Entry>& Cache() {
  static internal::RecentCache<Entry> cache(16);
  return cache;
}

Status Invalid(const std::string& message) { return Status::Error(StatusCode::kInvalidArgument, message); }

}  // namespace

StratifiedOptions DefaultStratifiedOptions() {
  StratifiedOptions options;
  options.buckets = 8;
  options.min_rows_per_bucket = 50;
  options.surrogate.squares = true;
  options.pooled_share = 0.05;
  return options;
}

std::shared_ptr<const StratifiedCalibration> FitForestStratified(const Forest& forest, const float* rows,
                                                                 size_t num_rows, const std::vector<uint32_t>& votes) {
  const int32_t t = forest.num_trees();
  if (forest.num_classes() != 2 || t > kMaxBinaryStoppingTrees || votes.size() != 2 * num_rows) return nullptr;
  std::vector<int32_t> counts(num_rows);
  for (size_t r = 0; r < num_rows; ++r) counts[r] = static_cast<int32_t>(votes[2 * r + 1]);
  Result<StratifiedCalibration> fit =
      FitStratifiedCalibration(rows, num_rows, forest.num_features(), t, counts, DefaultStratifiedOptions());
  if (!fit.ok()) return nullptr;
  return std::make_shared<const StratifiedCalibration>(std::move(fit).value());
}

Result<std::shared_ptr<const StratifiedModel>> ForestStratified(const Forest& forest, double alpha) {
  if (Status s = CheckAlpha(alpha); !s.ok()) return s;
  if (forest.num_classes() != 2) {
    return Invalid("rule 'stratified' is for two classes; this model has " + std::to_string(forest.num_classes()));
  }
  const std::shared_ptr<const StratifiedCalibration>& calibration = forest.stratified_calibration();
  if (calibration == nullptr) {
    return Invalid("rule 'stratified' needs a calibrated forest: calibrate it on unlabeled rows first (its "
                   "surrogate is fitted then)");
  }
  const uint64_t bits = internal::DoubleBits(alpha);
  if (std::shared_ptr<const StratifiedModel> hit =
          Cache().Find([&](const Entry& e) { return e.calibration == calibration && e.alpha_bits == bits; },
                       [](const Entry& e) { return e.model; })) {
    return hit;
  }
  Result<StratifiedModel> solved = SolveStratifiedModel(*calibration, 1.0 - alpha);
  if (!solved.ok()) return solved.status();
  Entry entry{calibration, bits, std::make_shared<const StratifiedModel>(std::move(solved).value())};
  Cache().Insert(entry);
  return entry.model;
}

}  // namespace urnforest
