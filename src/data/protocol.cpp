// Evaluation protocols: repeated (stratified) k-fold and holdout partitions of a data set's rows.
#include "urnforest/protocol.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/random.h"

namespace urnforest {
namespace {

Status CheckLabels(const std::vector<int32_t>& labels, int32_t num_classes) {
  if (num_classes < 1) return Status::Error(StatusCode::kInvalidArgument, "num_classes must be >= 1");
  for (size_t r = 0; r < labels.size(); ++r) {
    if (labels[r] < 0 || labels[r] >= num_classes) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "row " + std::to_string(r) + " has label " + std::to_string(labels[r]) +
                               ", expected 0.." + std::to_string(num_classes - 1));
    }
  }
  return Status::Ok();
}

void Shuffle(std::vector<size_t>* v, internal::Rng* rng) {
  for (size_t i = v->size(); i > 1; --i) {
    const size_t j = rng->Below(static_cast<uint32_t>(i));
    std::swap((*v)[i - 1], (*v)[j]);
  }
}

// Rows grouped by class (stratified) or one group of all rows, each group shuffled.
std::vector<std::vector<size_t>> ShuffledGroups(const std::vector<int32_t>& labels,
                                                int32_t num_classes, bool stratified,
                                                internal::Rng* rng) {
  std::vector<std::vector<size_t>> groups(stratified ? num_classes : 1);
  for (size_t r = 0; r < labels.size(); ++r) groups[stratified ? labels[r] : 0].push_back(r);
  for (auto& g : groups) Shuffle(&g, rng);
  return groups;
}

}  // namespace

Result<std::vector<Partition>> RepeatedKFold(const std::vector<int32_t>& labels,
                                             int32_t num_classes, const KFoldOptions& options) {
  Status s = CheckLabels(labels, num_classes);
  if (!s.ok()) return s;
  const size_t n = labels.size();
  if (options.folds < 2 || static_cast<size_t>(options.folds) > n) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "folds must be in 2.." + std::to_string(n) + ", got " +
                             std::to_string(options.folds));
  }
  if (options.repeats < 1) return Status::Error(StatusCode::kInvalidArgument, "repeats must be >= 1");
  const int32_t k = options.folds;
  std::vector<Partition> out;
  out.reserve(static_cast<size_t>(k) * options.repeats);
  std::vector<int32_t> fold_of(n);
  for (int32_t rep = 0; rep < options.repeats; ++rep) {
    internal::Rng rng = internal::Rng::ForStream(options.seed, static_cast<uint64_t>(rep));
    size_t deal = 0;
    for (const auto& group : ShuffledGroups(labels, num_classes, options.stratified, &rng)) {
      for (size_t r : group) fold_of[r] = static_cast<int32_t>(deal++ % k);
    }
    for (int32_t f = 0; f < k; ++f) {
      Partition p;
      p.repeat = rep;
      p.fold = f;
      for (size_t r = 0; r < n; ++r) (fold_of[r] == f ? p.test : p.train).push_back(r);
      out.push_back(std::move(p));
    }
  }
  return out;
}

Result<std::vector<Partition>> RepeatedHoldout(const std::vector<int32_t>& labels,
                                               int32_t num_classes,
                                               const HoldoutOptions& options) {
  Status s = CheckLabels(labels, num_classes);
  if (!s.ok()) return s;
  if (!(options.test_fraction > 0.0 && options.test_fraction < 1.0)) {
    return Status::Error(StatusCode::kInvalidArgument, "test_fraction must be in (0, 1)");
  }
  if (options.repeats < 1) return Status::Error(StatusCode::kInvalidArgument, "repeats must be >= 1");
  const size_t n = labels.size();
  std::vector<Partition> out;
  std::vector<uint8_t> in_test(n);
  for (int32_t rep = 0; rep < options.repeats; ++rep) {
    internal::Rng rng = internal::Rng::ForStream(options.seed ^ 0x486F6C646F7574ULL,
                                                 static_cast<uint64_t>(rep));
    std::fill(in_test.begin(), in_test.end(), 0);
    for (const auto& group : ShuffledGroups(labels, num_classes, options.stratified, &rng)) {
      size_t take = static_cast<size_t>(std::llround(group.size() * options.test_fraction));
      if (options.stratified && take >= group.size()) take = group.size() - 1;
      for (size_t i = 0; i < take; ++i) in_test[group[i]] = 1;
    }
    Partition p;
    p.repeat = rep;
    for (size_t r = 0; r < n; ++r) (in_test[r] ? p.test : p.train).push_back(r);
    if (p.test.empty() || p.train.empty()) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "holdout with test_fraction " + std::to_string(options.test_fraction) +
                               " leaves an empty train or test set on " + std::to_string(n) +
                               " rows");
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace urnforest
