// RunExperiment: protocol loop, training, vote matrix, every rule at every alpha, aggregation.
#include "urnforest/experiment.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/random.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/halting_table.h"
#include "urnforest/label_noise.h"
#include "urnforest/predict.h"
#include "urnforest/prior.h"
#include "urnforest/protocol.h"
#include "urnforest/prune.h"
#include "urnforest/query_order.h"
#include "urnforest/vote.h"
#include "urnforest/vote_matrix.h"
#include "urnforest/weighted_vote.h"

namespace urnforest {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

uint64_t DeriveSeed(uint64_t seed, uint64_t salt, uint64_t index) {
  return internal::Rng::ForStream(seed ^ salt, index).Next();
}

MeanStd Aggregate(const std::vector<double>& values) {
  MeanStd out;
  double sum = 0.0;
  for (double v : values) {
    if (std::isnan(v)) continue;
    sum += v;
    ++out.count;
  }
  if (out.count == 0) {
    out.mean = out.std = kNaN;
    return out;
  }
  out.mean = sum / out.count;
  if (out.count > 1) {
    double sq = 0.0;
    for (double v : values)
      if (!std::isnan(v)) sq += (v - out.mean) * (v - out.mean);
    out.std = std::sqrt(sq / (out.count - 1));
  }
  return out;
}

/// Train/test data of one partition.
struct Split {
  Dataset train;
  Dataset test;
};

bool IsUnsupported(const Status& s) { return s.code == StatusCode::kLimitExceeded; }

/// The ensemble's own combiner on a vote matrix (votes[r * num_trees + t]): the weighted vote
/// summed in tree order in double (as PredictWeighted), or the plurality when `weights` is empty;
/// ties go to the lowest class index.
std::vector<int32_t> CombinedLabels(const std::vector<int32_t>& votes, size_t num_rows,
                                    int32_t num_trees, int32_t num_classes,
                                    const std::vector<double>& weights) {
  if (weights.empty()) return MajorityOfFirst(votes, num_rows, num_trees, num_classes, num_trees);
  std::vector<int32_t> labels(num_rows);
  std::vector<double> score(num_classes);
  for (size_t r = 0; r < num_rows; ++r) {
    std::fill(score.begin(), score.end(), 0.0);
    for (int32_t t = 0; t < num_trees; ++t) score[votes[r * num_trees + t]] += weights[t];
    labels[r] = Plurality(score);
  }
  return labels;
}

double ErrorPercent(const std::vector<int32_t>& labels, const std::vector<int32_t>& truth) {
  size_t wrong = 0;
  for (size_t r = 0; r < labels.size(); ++r) wrong += labels[r] != truth[r];
  return labels.empty() ? kNaN : 100.0 * wrong / labels.size();
}

/// Per-partition values that RunExperiment aggregates into mean and standard deviation.
struct PartitionSeries {
  std::vector<double> full_error, full_a1, oob_error, proxy_error;
  std::vector<double> weighted_error;  // AdaBoost's own (weighted) vote
  std::vector<double> full_unweighted_error, pruned_error;
  std::vector<double> leaves_per_tree;  // of the ensemble the rules run on
};

/// One partition of RunExperiment: one method per numbered step, run in order by Run. Appends to
/// `series`, to result->emphasis and to the rules' per-partition statistics; borrows everything.
class PartitionRun {
 public:
  PartitionRun(const ExperimentOptions& options, const std::vector<Partition>& partitions,
               int32_t p, ExperimentResult* result, PartitionSeries* series)
      : options_(options),
        partitions_(partitions),
        p_(p),
        l_(result->classes),
        result_(result),
        series_(series) {}

  Status Run() {
    Status s = Data();
    if (s.ok()) s = Ensemble();
    if (s.ok()) s = Prune();
    if (s.ok()) s = Proxy();
    if (s.ok()) s = Rules();
    return s;
  }

 private:
  uint64_t Seed(uint64_t salt) const { return DeriveSeed(options_.seed, salt, p_); }

  // 1. Data of this partition; vote-boosting's training-label noise, then the CV choice of a = b.
  Status Data();
  // 2. Forest, vote matrix, full vote and the alpha = 1 trees.
  Status Ensemble();
  // 2b. Double pruning ([Sot11] ch. 3): the rules run on the first `keep` trees of the ordering.
  Status Prune();
  // 3. Optional proxy of the infinite ensemble: independent seed.
  Status Proxy();
  // 4. The predictor of costs from training data alone (one per partition, all tables), and
  // 5. every rule: prior once, then a table per alpha; the training-data predictions of all the
  // partition's tables afterwards, in one call (one shared recursion for l <= 4).
  Status Rules();

  // Trees the alpha = 1 rule queries per test row on the vote matrix `m` of `trees` trees.
  Result<std::vector<int32_t>> Alpha1Trees(const std::vector<int32_t>& m, int32_t trees) const;

  const ExperimentOptions& options_;
  const std::vector<Partition>& partitions_;
  const int32_t p_;
  const int32_t l_;
  ExperimentResult* result_;
  PartitionSeries* series_;

  Split split_;
  size_t n_ = 0;  // test rows
  TrainOptions train_;
  Forest forest_;
  int32_t full_T_ = 0;
  std::vector<int32_t> full_votes_;
  SequentialVoteOptions vote_options_;
  std::vector<int32_t> full_a1_trees_;
  Forest pruned_;
  int32_t T_ = 0;                  // trees of the ensemble the rules run on
  std::vector<int32_t> votes_;     // its vote matrix on the test rows
  std::vector<int32_t> a1_trees_;  // its alpha = 1 trees per test row
  const Forest* prior_source_ = nullptr;
  std::vector<int32_t> proxy_labels_;
};

Status PartitionRun::Data() {
  if (options_.protocol == ProtocolKind::kSynthetic) {
    Result<Dataset> train =
        GenerateProblem(options_.generator, options_.train_rows, Seed(0x7472616E));
    if (!train.ok()) return train.status();
    Result<Dataset> test =
        GenerateProblem(options_.generator, options_.test_rows, Seed(0x74657374));
    if (!test.ok()) return test.status();
    split_.train = std::move(train).value();
    split_.test = std::move(test).value();
  } else {
    split_.train = options_.data->Subset(partitions_[p_].train);
    split_.test = options_.data->Subset(partitions_[p_].test);
  }
  n_ = split_.test.num_rows();
  train_ = options_.train;

  if (options_.label_noise > 0.0) {
    Result<Dataset> noisy = FlipLabels(split_.train, options_.label_noise, Seed(0x6E6F697365));
    if (!noisy.ok()) return noisy.status();
    split_.train = std::move(noisy).value();
  }
  const bool vote_boost = train_.ensemble == EnsembleKind::kVoteBoost;
  if (vote_boost && options_.select_emphasis) {
    EmphasisCvOptions cv = options_.emphasis_cv;
    cv.seed = Seed(0x656D706873);
    Result<EmphasisSelection> chosen = SelectEmphasisByCV(split_.train, train_, cv);
    if (!chosen.ok()) return chosen.status();
    train_.voteboost.a = chosen.value().chosen;
    train_.voteboost.b = 0.0;
  }
  if (vote_boost) result_->emphasis.push_back(train_.voteboost.a);
  return Status::Ok();
}

Result<std::vector<int32_t>> PartitionRun::Alpha1Trees(const std::vector<int32_t>& m,
                                                       int32_t trees) const {
  HaltingTableOptions a1_options;
  a1_options.rule = HaltingRule::kAlpha1;
  a1_options.num_trees = trees;
  a1_options.num_classes = l_;
  a1_options.alpha = 1.0;
  Result<HaltingTable> a1_table = BuildHaltingTable(a1_options);
  if (!a1_table.ok()) return a1_table.status();
  Result<SequentialVoteResult> a1 =
      PredictSequentialFromMatrix(a1_table.value(), m, n_, trees, vote_options_);
  if (!a1.ok()) return a1.status();
  return std::move(a1).value().trees_used;
}

Status PartitionRun::Ensemble() {
  train_.seed = Seed(0x666F72657374);
  TrainExecution execution;
  execution.threads = options_.threads;
  Result<Forest> forest_or = Train(split_.train, train_, {}, execution);
  if (!forest_or.ok()) return forest_or.status();
  forest_ = std::move(forest_or).value();
  full_T_ = forest_.num_trees();
  Result<std::vector<int32_t>> full_votes_or = ComputeRowVotes(forest_, split_.test);
  if (!full_votes_or.ok()) return full_votes_or.status();
  full_votes_ = std::move(full_votes_or).value();
  const std::vector<int32_t>& truth = split_.test.labels();
  // The ensemble's own prediction (weighted for AdaBoost) is "full"; halting approximates the
  // unweighted plurality, reported beside it.
  series_->full_error.push_back(
      ErrorPercent(CombinedLabels(full_votes_, n_, full_T_, l_, forest_.tree_weights()), truth));
  series_->full_unweighted_error.push_back(
      ErrorPercent(MajorityOfFirst(full_votes_, n_, full_T_, l_, full_T_), truth));
  series_->oob_error.push_back(100.0 * forest_.oob_error());
  if (!forest_.tree_weights().empty()) {
    Result<WeightedVote> weighted = PredictWeighted(forest_, split_.test);
    if (!weighted.ok()) return weighted.status();
    size_t ww = 0;
    for (size_t r = 0; r < n_; ++r) ww += weighted.value().labels[r] != truth[r];
    series_->weighted_error.push_back(100.0 * ww / n_);
  }

  // An ensemble whose generation order is not exchangeable (vote-boosting) always queries a
  // random permutation: the finite-T rules hold for a uniformly random query order
  // (DefaultQueryOrder, docs/halting.md).
  if (options_.query_order == PrunedQueryOrder::kRandomPerRow ||
      DefaultQueryOrder(forest_) == QueryOrder::kRandomPerRow) {
    vote_options_.order = QueryOrder::kRandomPerRow;
    vote_options_.seed = Seed(0x7065726D);
  }
  Result<std::vector<int32_t>> full_a1_trees = Alpha1Trees(full_votes_, full_T_);
  if (!full_a1_trees.ok()) return full_a1_trees.status();
  full_a1_trees_ = std::move(full_a1_trees).value();
  double a1_sum = 0;
  for (int32_t t : full_a1_trees_) a1_sum += t;
  series_->full_a1.push_back(a1_sum / n_);
  return Status::Ok();
}

Status PartitionRun::Prune() {
  if (options_.prune) {
    Result<std::vector<int32_t>> order = OrderForest(forest_, split_.train, options_.ordering);
    if (!order.ok()) return order.status();
    const int32_t keep = options_.keep > 0 ? options_.keep : DefaultKeep(full_T_);
    Result<Forest> pruned_or = PruneForest(forest_, order.value(), keep, &split_.train);
    if (!pruned_or.ok()) return pruned_or.status();
    pruned_ = std::move(pruned_or).value();
    result_->pruned_size = keep;
  }
  const Forest& ensemble = options_.prune ? pruned_ : forest_;
  T_ = ensemble.num_trees();
  // Binary trees: n nodes have (n + 1) / 2 leaves, so T trees with N nodes have (N + T) / 2.
  series_->leaves_per_tree.push_back(0.5 * static_cast<double>(ensemble.num_nodes() + T_) / T_);
  Result<std::vector<int32_t>> pruned_votes = options_.prune
                                                  ? ComputeRowVotes(pruned_, split_.test)
                                                  : Result<std::vector<int32_t>>(full_votes_);
  if (!pruned_votes.ok()) return pruned_votes.status();
  votes_ = std::move(pruned_votes).value();
  if (options_.prune) {
    series_->pruned_error.push_back(ErrorPercent(
        CombinedLabels(votes_, n_, T_, l_, pruned_.tree_weights()), split_.test.labels()));
  }
  // Priors: a pruned AdaBoost model has no OOB votes: the full model's, rescaled to T trees.
  prior_source_ = options_.prune && forest_.options().ensemble == EnsembleKind::kAdaBoost
                      ? &forest_
                      : &ensemble;
  Result<std::vector<int32_t>> rule_a1_trees =
      options_.prune ? Alpha1Trees(votes_, T_) : Result<std::vector<int32_t>>(full_a1_trees_);
  if (!rule_a1_trees.ok()) return rule_a1_trees.status();
  a1_trees_ = std::move(rule_a1_trees).value();
  return Status::Ok();
}

Status PartitionRun::Proxy() {
  if (options_.proxy_trees <= 0) return Status::Ok();
  TrainOptions big = train_;
  big.num_trees = options_.proxy_trees;
  big.seed = Seed(0x70726F7879);
  TrainExecution execution;
  execution.threads = options_.threads;
  Result<Forest> proxy = Train(split_.train, big, {}, execution);
  if (!proxy.ok()) return proxy.status();
  Result<FullVote> proxy_vote = PredictFull(proxy.value(), split_.test);
  if (!proxy_vote.ok()) return proxy_vote.status();
  proxy_labels_ = std::move(proxy_vote).value().labels;
  const std::vector<int32_t>& truth = split_.test.labels();
  size_t pw = 0;
  for (size_t r = 0; r < n_; ++r) pw += proxy_labels_[r] != truth[r];
  series_->proxy_error.push_back(100.0 * pw / n_);
  return Status::Ok();
}

Status PartitionRun::Rules() {
  TrainingCostOptions cost_options;
  cost_options.monte_carlo_samples = TrainingCostIsExact(l_, T_) ? 0 : options_.monte_carlo_samples;
  cost_options.seed = Seed(0x6D63);
  Result<TrainingCostPredictor> predictor =
      TrainingCostPredictor::FromForest(*prior_source_, T_, cost_options);
  if (!predictor.ok()) return predictor.status();

  const size_t num_alphas = options_.alphas.size();
  const size_t num_rules = options_.rules.size();
  ExperimentResult& result = *result_;
  struct Pending {
    HaltingTable table;
    RuleResult* result;  // its last partition gets the prediction
  };
  std::vector<Pending> pending;
  for (size_t i = 0; i < num_rules; ++i) {
    const HaltingRule rule = options_.rules[i];
    if (!result.rules[result.RuleIndex(0, i, num_rules)].available) continue;
    Result<Prior> prior = Prior::Uniform(l_);
    if (RuleNeedsPrior(rule)) prior = PriorForForest(*prior_source_, rule, T_);
    auto mark_unavailable = [&](const Status& why) {
      for (size_t a = 0; a < num_alphas; ++a) {
        RuleResult& rr = result.rules[result.RuleIndex(a, i, num_rules)];
        rr.available = false;
        rr.note = why.ToString();
        rr.partitions.clear();
      }
    };
    if (!prior.ok()) {
      if (!IsUnsupported(prior.status())) return prior.status();
      mark_unavailable(prior.status());
      continue;
    }
    for (size_t a = 0; a < num_alphas; ++a) {
      RuleResult& rr = result.rules[result.RuleIndex(a, i, num_rules)];
      HaltingTableOptions t_options;
      t_options.rule = rule;
      t_options.num_trees = T_;
      t_options.num_classes = l_;
      t_options.alpha = options_.alphas[a];
      Result<HaltingTable> table =
          BuildHaltingTable(t_options, RuleNeedsPrior(rule) ? &prior.value() : nullptr);
      if (!table.ok()) {
        if (!IsUnsupported(table.status())) return table.status();
        mark_unavailable(table.status());
        break;
      }
      Result<RuleStats<double>> m =
          MeasureRule(table.value(), votes_, n_, T_, l_, split_.test.labels(), a1_trees_,
                      proxy_labels_, vote_options_);
      if (!m.ok()) return m.status();
      RuleStats<double> stats = m.value();
      rr.partitions.push_back(stats);
      pending.push_back({std::move(table).value(), &rr});
    }
  }
  std::vector<const HaltingTable*> tables;
  for (const Pending& q : pending) tables.push_back(&q.table);
  Result<std::vector<TrainingCost>> expected = predictor.value().PredictMany(tables);
  for (size_t k = 0; k < pending.size(); ++k) {
    RuleResult& rr = *pending[k].result;
    if (!rr.available || rr.partitions.empty()) continue;  // a later alpha was unsupported
    RuleStats<double>& stats = rr.partitions.back();
    if (expected.ok()) {
      stats.expected_trees = expected.value()[k].estimate.expected_trees;
      stats.expected_disagreement = 100.0 * expected.value()[k].estimate.disagreement;
      rr.expected_method = expected.value()[k].method;
    } else {
      rr.expected_method = "unavailable: " + expected.status().ToString();
    }
  }
  return Status::Ok();
}

}  // namespace

Result<ExperimentResult> RunExperiment(const ExperimentOptions& options,
                                       ExperimentProgressFn progress) {
  Status s = CheckExperimentOptions(options);
  if (!s.ok()) return s;
  const bool synthetic = options.protocol == ProtocolKind::kSynthetic;
  // Partitions (real data) or the problem's shape (synthetic).
  std::vector<Partition> partitions;
  ExperimentResult result;
  result.dataset = options.dataset_name;
  if (synthetic) {
    Result<Dataset> probe = GenerateProblem(options.generator, 1, 0);
    if (!probe.ok()) return probe.status();
    result.rows = options.train_rows + options.test_rows;
    result.features = static_cast<int32_t>(probe.value().num_features());
    result.classes = static_cast<int32_t>(probe.value().num_classes());
    result.partitions = options.repeats;
    if (result.dataset.empty()) result.dataset = options.generator;
  } else {
    const Dataset& data = *options.data;
    result.rows = data.num_rows();
    result.features = static_cast<int32_t>(data.num_features());
    result.classes = static_cast<int32_t>(data.num_classes());
    Result<std::vector<Partition>> parts = Status::Ok();
    if (options.protocol == ProtocolKind::kKFold) {
      KFoldOptions k;
      k.folds = options.folds;
      k.repeats = options.repeats;
      k.stratified = options.stratified;
      k.seed = options.seed;
      parts = RepeatedKFold(data.labels(), result.classes, k);
    } else {
      HoldoutOptions h;
      h.test_fraction = options.test_fraction;
      h.repeats = options.repeats;
      h.stratified = options.stratified;
      h.seed = options.seed;
      parts = RepeatedHoldout(data.labels(), result.classes, h);
    }
    if (!parts.ok()) return parts.status();
    partitions = std::move(parts).value();
    result.partitions = static_cast<int32_t>(partitions.size());
  }
  result.trees = options.train.num_trees;
  result.mtry = ResolveMtry(options.train, result.features);

  const size_t num_alphas = options.alphas.size();
  const size_t num_rules = options.rules.size();
  result.rules.resize(num_alphas * num_rules);
  for (size_t a = 0; a < num_alphas; ++a) {
    for (size_t i = 0; i < num_rules; ++i) {
      RuleResult& rr = result.rules[result.RuleIndex(a, i, num_rules)];
      rr.rule = options.rules[i];
      rr.alpha = options.alphas[a];
    }
  }
  PartitionSeries series;
  const int32_t total = result.partitions;
  if (progress && !progress(0, total)) return Invalid("cancelled");
  for (int32_t p = 0; p < total; ++p) {
    PartitionRun run(options, partitions, p, &result, &series);
    Status status = run.Run();
    if (!status.ok()) return status;
    if (progress && !progress(p + 1, total)) return Invalid("cancelled");
  }

  result.full_error = Aggregate(series.full_error);
  result.full_trees_alpha1 = Aggregate(series.full_a1);
  result.oob_error = Aggregate(series.oob_error);
  result.proxy_error = Aggregate(series.proxy_error);
  result.weighted_error = Aggregate(series.weighted_error);
  result.full_unweighted_error = Aggregate(series.full_unweighted_error);
  if (options.prune) result.pruned_error = Aggregate(series.pruned_error);
  result.full_error_by_partition = series.full_error;
  result.pruned_error_by_partition = series.pruned_error;
  result.leaves_per_tree = Aggregate(series.leaves_per_tree);
  if (series.proxy_error.empty()) result.proxy_error = MeanStd{kNaN, kNaN, 0};
  for (RuleResult& rr : result.rules) {
    if (!rr.available) continue;
    for (const auto& field : RuleStatFields<double>()) {
      std::vector<double> values;
      values.reserve(rr.partitions.size());
      for (const RuleStats<double>& ps : rr.partitions) values.push_back(ps.*(field.second));
      // The MeanStd member with the same name sits at the same position in the field list.
      for (const auto& out : RuleStatFields<MeanStd>()) {
        if (out.first == field.first) rr.summary.*(out.second) = Aggregate(values);
      }
    }
  }
  return result;
}

}  // namespace urnforest
