// Predict: runs a checked plan (urnforest/predict_request.h) on prepared rows and returns the whole
// answer, derived figures included; and the one meaning of a full prediction's probabilities.
#include <chrono>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "model/predict_stopping.h"
#include "model/predict_tally_stopping.h"
#include "urnforest/certified_halting.h"
#include "urnforest/forest_halting.h"
#include "urnforest/forest_stratified.h"
#include "urnforest/forest_tally_minimean.h"
#include "urnforest/margin_rule.h"
#include "urnforest/predict_request.h"
#include "urnforest/predict_scores.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Per row, each class's summed tree weights (in tree order, in double, as PredictWeighted sums
// them) and the argmax with ties to the lowest class.
void WeightedVoteRows(const Forest& forest, const float* rows, size_t n, ClassProbabilities* out) {
  const size_t k = static_cast<size_t>(forest.num_classes());
  const size_t m = static_cast<size_t>(forest.num_features());
  const std::vector<double>& weights = forest.tree_weights();
  out->scores.assign(n * k, 0.0);
  out->labels.assign(n, 0);
  for (size_t r = 0; r < n; ++r) {
    const float* row = rows + r * m;
    double* s = out->scores.data() + r * k;
    for (int32_t t = 0; t < forest.num_trees(); ++t) s[forest.TreeVote(t, row)] += weights[t];
    out->labels[r] = Plurality(s, k);
  }
}

// Row-normalised copies of `weights` (n x k): each row divided by its sum (a row summing to 0
// stays 0).
template <typename T>
std::vector<double> Normalised(const std::vector<T>& weights, size_t k) {
  std::vector<double> p(weights.size(), 0.0);
  for (size_t at = 0; at < weights.size(); at += k) {
    double total = 0.0;
    for (size_t c = 0; c < k; ++c) total += static_cast<double>(weights[at + c]);
    if (total > 0.0) {
      for (size_t c = 0; c < k; ++c) p[at + c] = static_cast<double>(weights[at + c]) / total;
    }
  }
  return p;
}

double DisagreementOf(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  size_t differ = 0;
  for (size_t r = 0; r < a.size(); ++r) differ += a[r] != b[r] ? 1 : 0;
  return a.empty() ? 0.0 : static_cast<double>(differ) / static_cast<double>(a.size());
}

Status PredictFullPath(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                       Prediction* out) {
  Result<ClassProbabilities> p =
      PredictClassProbabilities(forest, rows.values.data(), rows.num_rows, plan.vote, plan.execution);
  if (!p.ok()) return p.status();
  out->labels = std::move(p.value().labels);
  out->votes = std::move(p.value().votes);
  out->scores = std::move(p.value().scores);
  if (plan.probabilities) out->probabilities = std::move(p.value().probabilities);
  return Status::Ok();
}

Status PredictTablePath(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                        const GivenTable* given, Prediction* out) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Result<HaltingTable>> built;
  const HaltingTable* table = given != nullptr ? given->table : nullptr;
  out->table_source = TableSource::kCached;
  if (table == nullptr) {
    bool from_store = false;
    built.emplace(BuildForestTable(forest, plan.rule, plan.alpha, plan.trees, &from_store));
    if (!built->ok()) return built->status();
    table = &built->value();
    out->table_source = from_store ? TableSource::kStored : TableSource::kBuilt;
    out->table_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  }
  Result<HaltedPrediction> halted = PredictHalted(forest, rows, *table, plan.order, plan.compare, plan.execution);
  if (!halted.ok()) return halted.status();
  HaltedPrediction& h = halted.value();
  out->labels = std::move(h.halted.labels);
  out->trees_used = std::move(h.halted.trees_used);
  out->confidence = std::move(h.halted.confidence);
  out->halted_early = std::move(h.halted.halted_early);
  out->tallies = std::move(h.halted.tallies);
  out->mean_trees = h.mean_trees;
  out->disagreement = h.disagreement;
  if (h.full.has_value()) {
    out->full_labels = std::move(h.full->labels);
    out->full_votes = std::move(h.full->votes);
  }
  if (plan.compare && forest.imported() != nullptr && plan.vote == VoteKind::kSoft) {
    // The reference of an imported model's soft vote is its own prediction, not the trees' majority.
    Result<ScorePrediction> soft = PredictScoresRows(forest, rows.values.data(), rows.num_rows, VoteKind::kSoft);
    if (!soft.ok()) return soft.status();
    out->full_labels = std::move(soft.value().labels);
    out->disagreement = DisagreementOf(out->labels, out->full_labels);
  }
  if (!plan.probabilities) return Status::Ok();
  std::optional<Result<Prior>> fitted;
  if (given == nullptr || given->prior == nullptr) {
    fitted.emplace(PriorForForest(forest, plan.rule, table->num_trees()));
    if (!fitted->ok()) return fitted->status();
  }
  const Prior& prior = fitted.has_value() ? fitted->value() : *given->prior;
  Result<std::vector<double>> shares =
      HaltedVoteShares(prior, table->num_trees(), forest.num_classes(), out->tallies);
  if (!shares.ok()) return shares.status();
  out->probabilities = std::move(shares).value();
  return Status::Ok();
}

// The exact early exit or the margin rule on an imported model's soft prediction.
Status PredictSoftPath(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                       Prediction* out) {
  const float* x = rows.values.data();
  const bool margin = plan.path == PredictPath::kMargin;
  Result<ExactHaltResult> halted = margin ? PredictSoftMargin(forest, x, rows.num_rows, plan.alpha, &out->lambda)
                                          : PredictSoftExact(forest, x, rows.num_rows);
  if (!halted.ok()) return halted.status();
  out->labels = std::move(halted.value().labels);
  out->trees_used = std::move(halted.value().trees_used);
  out->mean_trees = halted.value().mean_trees;
  const size_t n = out->labels.size();
  out->confidence.assign(n, margin ? plan.alpha : 1.0);
  out->halted_early.resize(n);
  for (size_t r = 0; r < n; ++r) out->halted_early[r] = out->trees_used[r] < forest.num_trees() ? 1 : 0;
  if (!plan.compare && !plan.probabilities) return Status::Ok();
  // The full soft prediction, in one walk: the reference of compare and the probabilities.
  Result<ScorePrediction> soft = PredictScoresRows(forest, x, rows.num_rows, VoteKind::kSoft);
  if (!soft.ok()) return soft.status();
  if (plan.compare) {
    out->full_labels = std::move(soft.value().labels);
    out->full_votes = std::move(soft.value().votes);
    out->disagreement = DisagreementOf(out->labels, out->full_labels);
  }
  if (plan.probabilities) out->probabilities = std::move(soft.value().scores);
  return Status::Ok();
}

// Rule "lp": the minimean strategy solved for the forest (cached) at 1 - alpha; over full
// tallies for three or more classes.
Status PredictLpPath(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan, Prediction* out) {
  if (forest.num_classes() > 2) {
    Result<std::shared_ptr<const TallyStoppingStrategy>> lp = ForestTallyMinimean(forest, plan.alpha);
    if (!lp.ok()) return lp.status();
    return internal::PredictTallyStopping(forest, rows, plan, *lp.value(), out);
  }
  if (plan.objective == LpObjective::kMinimax) {
    Result<std::shared_ptr<const BinaryStoppingStrategy>> lp = ForestMinimax(forest, plan.alpha);
    if (!lp.ok()) return lp.status();
    return internal::PredictStopping(forest, rows, plan, *lp.value(), out);
  }
  Result<std::shared_ptr<const BinaryStoppingStrategy>> lp = ForestMinimean(forest, plan.alpha);
  if (!lp.ok()) return lp.status();
  return internal::PredictStopping(forest, rows, plan, *lp.value(), out);
}

// Rule "stratified": the strategies per surrogate bucket solved for the forest (cached) at 1 - alpha.
Status PredictStratifiedPath(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                             Prediction* out) {
  Result<std::shared_ptr<const StratifiedModel>> model = ForestStratified(forest, plan.alpha);
  if (!model.ok()) return model.status();
  return internal::PredictStratifiedStopping(forest, rows, plan, *model.value(), out);
}

// Rule "auto": the certified strategy (cached) run as its own path would run it, or the exact
// exit (the soft exact exit for an imported model's soft vote, else the lead rule alpha1), with
// the certificate in the answer.
Status PredictCertifiedPath(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                            Prediction* out) {
  Result<std::shared_ptr<const CertifiedStrategy>> chosen =
      CertifyForest(forest, plan.alpha, plan.delta, plan.vote, plan.order.order);
  if (!chosen.ok()) return chosen.status();
  const CertifiedStrategy& c = *chosen.value();
  out->certificate = c.certificate;
  if (c.lp.has_value()) return internal::PredictStopping(forest, rows, plan, *c.lp, out);
  if (c.tally_lp.has_value()) return internal::PredictTallyStopping(forest, rows, plan, *c.tally_lp, out);
  PredictPlan run = plan;
  if (c.table.has_value()) {
    run.path = PredictPath::kTableRule;
    run.rule = c.table->rule();
    const GivenTable given{&*c.table, nullptr};
    return PredictTablePath(forest, rows, run, &given, out);
  }
  if (forest.imported() != nullptr && plan.vote == VoteKind::kSoft) {
    run.path = PredictPath::kExactExit;
    return PredictSoftPath(forest, rows, run, out);
  }
  HaltingTableOptions lead;
  lead.rule = HaltingRule::kAlpha1;
  lead.num_trees = forest.num_trees();
  lead.num_classes = forest.num_classes();
  Result<HaltingTable> table = BuildHaltingTable(lead);
  if (!table.ok()) return table.status();
  run.path = PredictPath::kTableRule;
  run.rule = HaltingRule::kAlpha1;
  const GivenTable given{&table.value(), nullptr};
  return PredictTablePath(forest, rows, run, &given, out);
}

}  // namespace

Result<ClassProbabilities> PredictClassProbabilities(const Forest& forest, const float* rows,
                                                     size_t num_rows, VoteKind vote,
                                                     const PredictExecution& execution) {
  if (forest.num_trees() == 0 || forest.num_classes() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  }
  const size_t k = static_cast<size_t>(forest.num_classes());
  ClassProbabilities out;
  const ImportedModel* imported = forest.imported();
  if (imported != nullptr && vote == VoteKind::kSoft) {
    Result<ScorePrediction> soft = PredictScoresRows(forest, rows, num_rows, VoteKind::kSoft);
    if (!soft.ok()) return soft.status();
    out.labels = std::move(soft.value().labels);
    out.probabilities = std::move(soft.value().scores);
    out.votes = std::move(soft.value().votes);
    return out;
  }
  if (imported != nullptr && imported->kind == ImportedKind::kAdditive) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "an additive model (boosted trees) has no hard vote: its trees add margins");
  }
  Result<FullVote> full = PredictFullRows(forest, rows, num_rows, execution);
  if (!full.ok()) return full.status();
  out.votes = std::move(full.value().votes);
  if (imported == nullptr && !forest.tree_weights().empty()) {
    // A boosted model's own prediction is its weighted vote; its probabilities are the weighted
    // vote's shares, so that the label is their argmax (docs/api.md, "Probabilities").
    WeightedVoteRows(forest, rows, num_rows, &out);
    out.probabilities = Normalised(out.scores, k);
    return out;
  }
  out.labels = std::move(full.value().labels);
  out.probabilities = Normalised(out.votes, k);
  return out;
}

Result<Prediction> Predict(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                           const GivenTable* given) {
  if (!rows.Fits(forest)) {
    return Status::Error(StatusCode::kInvalidArgument, "the rows were prepared for a model of another layout");
  }
  Prediction out;
  out.path = plan.path;
  out.vote = plan.vote;
  out.trees = plan.trees;
  out.disagreement = kNaN;
  out.lambda = kNaN;
  Status s = Status::Ok();
  switch (plan.path) {
    case PredictPath::kFullVote:
    case PredictPath::kWeightedVote:
    case PredictPath::kSoftScores: s = PredictFullPath(forest, rows, plan, &out); break;
    case PredictPath::kTableRule: s = PredictTablePath(forest, rows, plan, given, &out); break;
    case PredictPath::kExactExit:
    case PredictPath::kMargin: s = PredictSoftPath(forest, rows, plan, &out); break;
    case PredictPath::kLp: s = PredictLpPath(forest, rows, plan, &out); break;
    case PredictPath::kCertified: s = PredictCertifiedPath(forest, rows, plan, &out); break;
    case PredictPath::kStratified: s = PredictStratifiedPath(forest, rows, plan, &out); break;
  }
  if (!s.ok()) return s;
  return out;
}

Result<Prediction> Predict(const Forest& forest, const PreparedRows& rows,
                           const PredictRequest& request, const GivenTable* given) {
  Result<PredictPlan> plan = PlanPredict(forest, request);
  if (!plan.ok()) return plan.status();
  return Predict(forest, rows, plan.value(), given);
}

}  // namespace urnforest
