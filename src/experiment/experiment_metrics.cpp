// Per-partition metrics of one halting rule from a vote matrix (experiment.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "urnforest/experiment.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double Percent(size_t count, size_t total) {
  return total == 0 ? kNaN : 100.0 * static_cast<double>(count) / static_cast<double>(total);
}

}  // namespace

std::vector<int32_t> MajorityOfFirst(const std::vector<int32_t>& votes, size_t num_rows,
                                     int32_t num_trees, int32_t num_classes, int32_t k) {
  std::vector<int32_t> labels(num_rows);
  std::vector<int32_t> tally(num_classes);
  k = std::max(1, std::min(k, num_trees));
  for (size_t r = 0; r < num_rows; ++r) {
    std::fill(tally.begin(), tally.end(), 0);
    const int32_t* row = &votes[r * static_cast<size_t>(num_trees)];
    for (int32_t t = 0; t < k; ++t) ++tally[row[t]];
    labels[r] = Plurality(tally);
  }
  return labels;
}

Result<RuleStats<double>> MeasureRule(const HaltingTable& table, const std::vector<int32_t>& votes,
                                      size_t num_rows, int32_t num_trees, int32_t num_classes,
                                      const std::vector<int32_t>& truth,
                                      const std::vector<int32_t>& alpha1_trees,
                                      const std::vector<int32_t>& proxy_labels,
                                      const SequentialVoteOptions& vote_options) {
  if (num_rows == 0) return Status::Error(StatusCode::kInvalidArgument, "no test rows");
  if (truth.size() != num_rows || alpha1_trees.size() != num_rows ||
      (!proxy_labels.empty() && proxy_labels.size() != num_rows)) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "truth, alpha1 trees and proxy labels need one entry per row");
  }
  if (table.num_trees() != num_trees || table.num_classes() != num_classes) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the table is for T = " + std::to_string(table.num_trees()) + ", l = " +
                             std::to_string(table.num_classes()) + "; the votes for T = " +
                             std::to_string(num_trees) + ", l = " + std::to_string(num_classes));
  }
  Result<SequentialVoteResult> seq =
      PredictSequentialFromMatrix(table, votes, num_rows, num_trees, vote_options);
  if (!seq.ok()) return seq.status();
  const SequentialVoteResult& s = seq.value();
  const std::vector<int32_t> full =
      MajorityOfFirst(votes, num_rows, num_trees, num_classes, num_trees);
  const bool proxy = !proxy_labels.empty();

  // Certified: halted early, or the rule's condition holds on the full tally.
  std::vector<uint8_t> certified(num_rows, 0);
  std::vector<int32_t> tally(num_classes);
  for (size_t r = 0; r < num_rows; ++r) {
    if (s.halted_early[r]) {
      certified[r] = 1;
      continue;
    }
    std::fill(tally.begin(), tally.end(), 0);
    for (int32_t t = 0; t < num_trees; ++t) ++tally[votes[r * num_trees + t]];
    certified[r] = table.Halts(tally.data()) ? 1 : 0;
  }

  RuleStats<double> m;
  size_t err = 0, dis = 0, early = 0, cert = 0, err_h = 0, pdis = 0, pdis_h = 0, perr_h = 0;
  double trees = 0, trees_a1 = 0, ratio_a1 = 0, ratio_t = 0, trees_h = 0;
  for (size_t r = 0; r < num_rows; ++r) {
    const int32_t label = s.labels[r];
    const double used = s.trees_used[r];
    err += label != truth[r];
    dis += label != full[r];
    early += s.halted_early[r];
    trees += used;
    trees_a1 += alpha1_trees[r];
    ratio_a1 += alpha1_trees[r] / used;
    ratio_t += num_trees / used;
    if (proxy) pdis += label != proxy_labels[r];
    if (!certified[r]) continue;
    ++cert;
    trees_h += used;
    err_h += label != truth[r];
    if (proxy) {
      pdis_h += label != proxy_labels[r];
      perr_h += proxy_labels[r] != truth[r];
    }
  }
  const double n = static_cast<double>(num_rows);
  m.error = Percent(err, num_rows);
  m.disagreement = Percent(dis, num_rows);
  m.trees = trees / n;
  m.trees_alpha1 = trees_a1 / n;
  m.speedup_vs_alpha1 = ratio_a1 / n;
  m.speedup_vs_T = ratio_t / n;
  m.speedup_ratio_of_means_vs_alpha1 = trees_a1 / trees;
  m.speedup_ratio_of_means_vs_T = num_trees * n / trees;
  m.coverage = Percent(early, num_rows);
  m.certified = Percent(cert, num_rows);
  m.expected_trees = kNaN;
  m.expected_disagreement = kNaN;

  const int32_t k = static_cast<int32_t>(std::ceil(m.trees - 1e-9));
  const std::vector<int32_t> fixed = MajorityOfFirst(votes, num_rows, num_trees, num_classes, k);
  size_t ferr = 0, fdis = 0;
  for (size_t r = 0; r < num_rows; ++r) {
    ferr += fixed[r] != truth[r];
    fdis += fixed[r] != full[r];
  }
  m.fixed_trees = std::max(1, std::min(k, num_trees));
  m.fixed_error = Percent(ferr, num_rows);
  m.fixed_disagreement = Percent(fdis, num_rows);

  m.trees_halted = cert ? trees_h / static_cast<double>(cert) : kNaN;
  m.error_halted = Percent(err_h, cert);
  m.proxy_disagreement = proxy ? Percent(pdis, num_rows) : kNaN;
  m.proxy_disagreement_halted = proxy ? Percent(pdis_h, cert) : kNaN;
  m.proxy_error_halted = proxy ? Percent(perr_h, cert) : kNaN;
  m.fixed_proxy_disagreement_halted = kNaN;
  m.fixed_error_halted = kNaN;
  if (proxy && cert > 0) {
    const int32_t kh = static_cast<int32_t>(std::ceil(m.trees_halted - 1e-9));
    const std::vector<int32_t> fh = MajorityOfFirst(votes, num_rows, num_trees, num_classes, kh);
    size_t fdis_h = 0, ferr_h = 0;
    for (size_t r = 0; r < num_rows; ++r) {
      if (!certified[r]) continue;
      fdis_h += fh[r] != proxy_labels[r];
      ferr_h += fh[r] != truth[r];
    }
    m.fixed_proxy_disagreement_halted = Percent(fdis_h, cert);
    m.fixed_error_halted = Percent(ferr_h, cert);
  }
  return m;
}

}  // namespace urnforest
