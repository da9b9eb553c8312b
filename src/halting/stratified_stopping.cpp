// Stopping strategies per surrogate bucket sharing one Lagrange multiplier: see
// urnforest/stratified_stopping.h.
#include "urnforest/stratified_stopping.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "halting/binary_lagrangian.h"

namespace urnforest {
namespace {

using internal::StateMasses;

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, "stratified stopping: " + message);
}

// One bucket's precomputed masses (under its own normalised distribution) and answers.
struct Bucket {
  StateMasses masses;
  std::vector<uint8_t> answer;
  double weight = 0.0;
};

// Every bucket's Lagrangian set at one multiplier, with the overall outcome.
struct Point {
  std::vector<BinaryStoppingSet> sets;
  std::vector<BinaryOutcome> outcomes;  // per bucket, under its own distribution
  BinaryOutcome overall;
};

Point At(int32_t n, const std::vector<Bucket>& buckets, double mu) {
  Point p;
  for (const Bucket& b : buckets) {
    p.sets.push_back(internal::Induce(n, b.masses, b.answer, mu));
    p.outcomes.push_back(internal::Expected(p.sets.back(), b.masses));
    p.overall.trees += b.weight * p.outcomes.back().trees;
    p.overall.disagreement += b.weight * p.outcomes.back().disagreement;
    p.overall.answer_one += b.weight * p.outcomes.back().answer_one;
  }
  return p;
}

Point FullVote(int32_t n, const std::vector<Bucket>& buckets) {
  Point p;
  for (const Bucket& b : buckets) {
    p.sets.push_back(internal::FullVoteSet(n, b.answer));
    p.outcomes.push_back(internal::Expected(p.sets.back(), b.masses));
    p.overall.trees += b.weight * p.outcomes.back().trees;
    p.overall.answer_one += b.weight * p.outcomes.back().answer_one;
  }
  return p;
}

// The buckets of a problem, or why not.
Result<std::vector<Bucket>> Buckets(const StratifiedProblem& problem) {
  const int32_t n = problem.num_trees;
  if (n < 1 || n > kMaxBinaryStoppingTrees) {
    return Invalid("the number of trees must be in 1.." + std::to_string(kMaxBinaryStoppingTrees) + ", got " +
                   std::to_string(n));
  }
  if (problem.bucket_final_counts.empty()) return Invalid("no bucket");
  if (!(problem.max_disagreement >= 0.0 && problem.max_disagreement <= 1.0)) {
    return Invalid("the disagreement target must be in [0, 1]");
  }
  std::vector<Bucket> out(problem.bucket_final_counts.size());
  double total = 0.0;
  for (size_t b = 0; b < out.size(); ++b) {
    const std::vector<double>& w = problem.bucket_final_counts[b];
    if (w.size() != static_cast<size_t>(n) + 1) {
      return Invalid("bucket " + std::to_string(b) + ": " + std::to_string(n + 1) + " final-count weights expected, got " +
                     std::to_string(w.size()));
    }
    double sum = 0.0;
    for (double x : w) {
      if (!std::isfinite(x) || x < 0.0) return Invalid("final-count weights must be finite and >= 0");
      sum += x;
    }
    if (!(sum > 0.0)) return Invalid("bucket " + std::to_string(b) + " is empty (no calibration row)");
    out[b].weight = sum;
    total += sum;
  }
  for (size_t b = 0; b < out.size(); ++b) {
    std::vector<double> d(problem.bucket_final_counts[b]);
    for (double& x : d) x /= out[b].weight;
    out[b].masses = internal::Masses(n, d);
    out[b].answer = internal::Answers(n, out[b].masses);
    out[b].weight /= total;
  }
  return out;
}

StratifiedStrategy Mixed(Point safe, Point cheap, double share, double mu) {
  StratifiedStrategy out;
  for (size_t b = 0; b < safe.sets.size(); ++b) {
    BinaryStoppingStrategy s;
    s.first_share = share;
    s.expected_trees = share * safe.outcomes[b].trees + (1.0 - share) * cheap.outcomes[b].trees;
    s.expected_disagreement =
        share * safe.outcomes[b].disagreement + (1.0 - share) * cheap.outcomes[b].disagreement;
    s.multiplier = mu;
    s.first = std::move(safe.sets[b]);
    s.second = std::move(cheap.sets[b]);
    out.buckets.push_back(std::move(s));
  }
  out.expected_trees = share * safe.overall.trees + (1.0 - share) * cheap.overall.trees;
  out.expected_disagreement = share * safe.overall.disagreement + (1.0 - share) * cheap.overall.disagreement;
  out.multiplier = mu;
  return out;
}

}  // namespace

Result<StratifiedStrategy> SolveStratifiedMinimean(const StratifiedProblem& problem) {
  Result<std::vector<Bucket>> made = Buckets(problem);
  if (!made.ok()) return made.status();
  const std::vector<Bucket>& buckets = made.value();
  const int32_t n = problem.num_trees;
  const double target = problem.max_disagreement;
  std::vector<double> weights;
  for (const Bucket& b : buckets) weights.push_back(b.weight);

  // The same bracket and bisection as SolveMinimean, on the overall disagreement.
  Point cheap = At(n, buckets, 0.0);
  if (cheap.overall.disagreement <= target) {
    StratifiedStrategy out = Mixed(cheap, cheap, 1.0, 0.0);
    out.bucket_weights = weights;
    return out;
  }
  double lo = 0.0, hi = 1.0;
  Point safe = At(n, buckets, hi);
  for (int k = 0; safe.overall.disagreement > target && k < 1000; ++k) {
    lo = hi;
    cheap = std::move(safe);
    hi *= 2.0;
    safe = At(n, buckets, hi);
  }
  if (safe.overall.disagreement > target) {
    lo = hi;
    safe = FullVote(n, buckets);
  }
  for (int k = 0; k < 200 && hi - lo > hi * 1e-15; ++k) {
    const double mid = 0.5 * (lo + hi);
    Point p = At(n, buckets, mid);
    if (p.overall.disagreement <= target) {
      hi = mid;
      safe = std::move(p);
    } else {
      lo = mid;
      cheap = std::move(p);
    }
  }
  const double gap = cheap.overall.disagreement - safe.overall.disagreement;
  const double share =
      gap > 0.0 ? std::fmin(1.0, std::fmax(0.0, (cheap.overall.disagreement - target) / gap)) : 1.0;
  StratifiedStrategy out = Mixed(std::move(safe), std::move(cheap), share, hi);
  out.bucket_weights = weights;
  return out;
}

int32_t StratifiedCalibration::BucketOf(double score) const {
  return static_cast<int32_t>(std::upper_bound(cuts.begin(), cuts.end(), score) - cuts.begin());
}

Result<StratifiedCalibration> FitStratifiedCalibration(const float* rows, size_t num_rows, int32_t num_features,
                                                       int32_t num_trees, const std::vector<int32_t>& final_counts,
                                                       const StratifiedOptions& options) {
  if (final_counts.size() != num_rows) {
    return Status::Error(StatusCode::kShapeMismatch, "stratified stopping: " + std::to_string(num_rows) +
                                                         " final counts expected, got " +
                                                         std::to_string(final_counts.size()));
  }
  if (num_trees < 1 || num_trees > kMaxBinaryStoppingTrees) {
    return Invalid("the number of trees must be in 1.." + std::to_string(kMaxBinaryStoppingTrees));
  }
  if (options.buckets < 1) return Invalid("buckets must be >= 1");
  if (options.min_rows_per_bucket < 1) return Invalid("min_rows_per_bucket must be >= 1");
  if (!(options.pooled_share >= 0.0 && options.pooled_share <= 1.0)) return Invalid("pooled_share must be in [0, 1]");
  std::vector<double> share(num_rows);
  for (size_t r = 0; r < num_rows; ++r) {
    if (final_counts[r] < 0 || final_counts[r] > num_trees) {
      return Invalid("a final count is outside 0.." + std::to_string(num_trees));
    }
    share[r] = static_cast<double>(final_counts[r]) / num_trees;
  }
  Result<LinearSurrogate> surrogate = FitLinearSurrogate(rows, num_rows, num_features, share, options.surrogate);
  if (!surrogate.ok()) return surrogate.status();
  StratifiedCalibration c;
  c.num_trees = num_trees;
  c.pooled_share = options.pooled_share;
  c.surrogate = std::move(surrogate).value();
  std::vector<double> scores(num_rows);
  for (size_t r = 0; r < num_rows; ++r) scores[r] = c.surrogate.Score(rows + r * num_features);
  std::vector<double> sorted(scores);
  std::sort(sorted.begin(), sorted.end());
  const size_t by_rows = num_rows / static_cast<size_t>(options.min_rows_per_bucket);
  const size_t b_count = std::max<size_t>(1, std::min<size_t>(static_cast<size_t>(options.buckets), by_rows));
  // Cut at the rows ranked b n / B; a cut equal to the previous one (tied scores) or to the
  // smallest score would leave a bucket empty, so it is dropped.
  for (size_t b = 1; b < b_count; ++b) {
    const double cut = sorted[b * num_rows / b_count];
    if (cut > sorted.front() && (c.cuts.empty() || cut > c.cuts.back())) c.cuts.push_back(cut);
  }
  c.bucket_final_counts.assign(c.cuts.size() + 1, std::vector<double>(static_cast<size_t>(num_trees) + 1, 0.0));
  for (size_t r = 0; r < num_rows; ++r) c.bucket_final_counts[c.BucketOf(scores[r])][final_counts[r]] += 1.0;
  return c;
}

std::vector<std::vector<double>> StratifiedCalibration::SolvedCounts() const {
  if (pooled_share == 0.0 || bucket_final_counts.size() < 2) return bucket_final_counts;
  std::vector<double> pooled(static_cast<size_t>(num_trees) + 1, 0.0);
  double total = 0.0;
  for (const std::vector<double>& b : bucket_final_counts) {
    for (size_t n = 0; n < b.size() && n < pooled.size(); ++n) pooled[n] += b[n], total += b[n];
  }
  std::vector<std::vector<double>> out = bucket_final_counts;
  for (std::vector<double>& b : out) {
    double rows = 0.0;
    for (double x : b) rows += x;
    for (size_t n = 0; n < b.size() && n < pooled.size(); ++n) {
      b[n] = (1.0 - pooled_share) * b[n] + pooled_share * rows * pooled[n] / total;
    }
  }
  return out;
}

Result<StratifiedModel> SolveStratifiedModel(StratifiedCalibration calibration, double max_disagreement) {
  if (!(calibration.pooled_share >= 0.0 && calibration.pooled_share <= 1.0)) {
    return Invalid("pooled_share must be in [0, 1]");
  }
  StratifiedProblem problem;
  problem.num_trees = calibration.num_trees;
  problem.max_disagreement = max_disagreement;
  problem.bucket_final_counts = calibration.SolvedCounts();
  Result<StratifiedStrategy> solved = SolveStratifiedMinimean(problem);
  if (!solved.ok()) return solved.status();
  StratifiedModel model;
  model.calibration = std::move(calibration);
  model.strategy = std::move(solved).value();
  return model;
}

Result<StratifiedModel> FitStratifiedModel(const float* rows, size_t num_rows, int32_t num_features,
                                           int32_t num_trees, const std::vector<int32_t>& final_counts,
                                           const StratifiedOptions& options) {
  Result<StratifiedCalibration> c =
      FitStratifiedCalibration(rows, num_rows, num_features, num_trees, final_counts, options);
  if (!c.ok()) return c.status();
  return SolveStratifiedModel(std::move(c).value(), options.max_disagreement);
}

Result<std::vector<std::vector<BinaryOutcome>>> ExactStratifiedOutcomes(const StratifiedStrategy& strategy) {
  std::vector<std::vector<BinaryOutcome>> out;
  for (const BinaryStoppingStrategy& s : strategy.buckets) {
    Result<std::vector<BinaryOutcome>> first = ExactBinaryOutcomes(s.first);
    if (!first.ok()) return first.status();
    Result<std::vector<BinaryOutcome>> second = ExactBinaryOutcomes(s.second);
    if (!second.ok()) return second.status();
    const double q = s.first_share;
    std::vector<BinaryOutcome> mixed(first.value().size());
    for (size_t n = 0; n < mixed.size(); ++n) {
      const BinaryOutcome& a = first.value()[n];
      const BinaryOutcome& b = second.value()[n];
      mixed[n].trees = q * a.trees + (1.0 - q) * b.trees;
      mixed[n].disagreement = q * a.disagreement + (1.0 - q) * b.disagreement;
      mixed[n].answer_one = q * a.answer_one + (1.0 - q) * b.answer_one;
    }
    out.push_back(std::move(mixed));
  }
  return out;
}

}  // namespace urnforest
