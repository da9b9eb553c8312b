// The experiment's options before any work: their check (every bound and rule between them), the
// work they ask for and the default repetitions.
#include <cstdio>
#include <string>
#include <vector>

#include "urnforest/alpha.h"
#include "urnforest/experiment.h"
#include "urnforest/generators.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

// "option NAME must be in MIN..MAX[ (note)], got VALUE".
Status IntOutside(const char* name, int64_t value, int64_t min, int64_t max,
                  const char* note = nullptr) {
  return Invalid(std::string("option ") + name + " must be in " + std::to_string(min) + ".." +
                 std::to_string(max) + (note != nullptr ? std::string(" (") + note + ")" : "") +
                 ", got " + std::to_string(value));
}

std::string Real(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

// The data source: labelled rows for k-fold and holdout, a generator for synthetic problems.
// Sets *features to the problem's feature columns.
Status CheckSource(const ExperimentOptions& o, size_t* features) {
  constexpr int64_t kMaxRows = static_cast<int64_t>(DatasetLimits::kMaxRows);
  if (o.protocol == ProtocolKind::kSynthetic) {
    Result<Dataset> probe = GenerateProblem(o.generator, 1, 0);
    if (!probe.ok()) return probe.status();
    *features = probe.value().num_features();
    const auto train = static_cast<int64_t>(o.train_rows), test = static_cast<int64_t>(o.test_rows);
    if (train < 2 || train > kMaxRows) return IntOutside("train_rows", train, 2, kMaxRows);
    if (test < 1 || test > kMaxRows) return IntOutside("test_rows", test, 1, kMaxRows);
    return Status::Ok();
  }
  if (o.protocol != ProtocolKind::kKFold && o.protocol != ProtocolKind::kHoldout) {
    return Invalid("option protocol is not a known protocol");
  }
  if (o.data == nullptr) return Invalid("no data set given");
  if (o.data->num_rows() == 0) return Invalid("the data set is empty (0 rows)");
  if (!o.data->has_labels()) {
    return Status::Error(StatusCode::kMissingLabel, "the data set has no target column");
  }
  for (int32_t label : o.data->labels()) {
    if (label < 0) {
      return Status::Error(StatusCode::kMissingLabel, "the data set has rows without a label");
    }
  }
  *features = o.data->num_features();
  const auto rows = static_cast<int64_t>(o.data->num_rows());
  if (o.protocol == ProtocolKind::kKFold && (o.folds < 2 || o.folds > rows)) {
    return IntOutside("folds", o.folds, 2, rows, "the data's rows");
  }
  if (o.protocol == ProtocolKind::kHoldout && !(o.test_fraction > 0.0 && o.test_fraction < 1.0)) {
    return Invalid("option test_fraction (holdout) must be in (0, 1), got " + Real(o.test_fraction));
  }
  return Status::Ok();
}

// Alphas and rules.
Status CheckHalting(const ExperimentOptions& o) {
  if (o.alphas.empty()) return Invalid("no alpha given");
  for (double a : o.alphas) {
    if (Status s = CheckAlpha(a, "every alpha"); !s.ok()) return Invalid(s.message + ", got " + Real(a));
  }
  if (o.rules.empty()) return Invalid("no rule given");
  for (size_t i = 0; i < o.rules.size(); ++i) {
    if (static_cast<int32_t>(o.rules[i]) < 0 || static_cast<int32_t>(o.rules[i]) >= kNumHaltingRules) {
      return Invalid("option rules holds an unknown rule");
    }
    for (size_t j = 0; j < i; ++j) {
      if (o.rules[j] == o.rules[i]) {
        return Invalid(std::string("option rules names '") + RuleName(o.rules[i]) + "' twice");
      }
    }
  }
  return Status::Ok();
}

// Repeats, label noise, proxy, Monte Carlo samples, pruning and the work limit's own range.
Status CheckRun(const ExperimentOptions& o) {
  using E = ExperimentOptions;
  if (o.repeats < 1 || o.repeats > E::kMaxRepeats) {
    return IntOutside("repeats", o.repeats, 1, E::kMaxRepeats);
  }
  if (!(o.label_noise >= 0.0 && o.label_noise <= 1.0)) {
    return Invalid("option label_noise must be in [0, 1], got " + Real(o.label_noise));
  }
  if (o.proxy_trees < 0 || o.proxy_trees > TrainOptions::kMaxTrees) {
    return IntOutside("proxy_trees", o.proxy_trees, 0, TrainOptions::kMaxTrees);
  }
  if (o.monte_carlo_samples < 1 || o.monte_carlo_samples > E::kMaxMonteCarloSamples) {
    return IntOutside("monte_carlo_samples", o.monte_carlo_samples, 1, E::kMaxMonteCarloSamples);
  }
  if (!o.prune && o.keep != 0) return Invalid("option keep needs prune (an ordering)");
  if (o.prune && (o.keep < 0 || o.keep > o.train.num_trees)) {
    return IntOutside("keep", o.keep, 0, o.train.num_trees,
                      "the ensemble's trees; 0 = DefaultKeep, 20 % rounded up");
  }
  if (!(o.max_work >= E::kMinMaxWork && o.max_work <= E::kMaxMaxWork)) {
    return Invalid("option max_work must be in [" + Real(E::kMinMaxWork) + ", " +
                   Real(E::kMaxMaxWork) + "] row-trees, got " + Real(o.max_work));
  }
  return Status::Ok();
}

}  // namespace

Status CheckExperimentOptions(const ExperimentOptions& o) {
  size_t features = 0;
  Status status = CheckSource(o, &features);
  if (status.ok()) status = CheckRun(o);
  if (status.ok()) status = CheckHalting(o);
  if (!status.ok()) return status;
  TrainRequest train;
  train.options = o.train;
  train.select_emphasis = o.select_emphasis;
  train.cv_trees = o.emphasis_cv.num_trees;
  train.named = o.train_named;
  status = CheckTrainRequest(train, features);
  if (!status.ok()) return status;
  const double work = ExperimentWork(o);
  if (work > o.max_work) {
    char message[320];
    std::snprintf(message, sizeof message,
                  "the experiment would grow about %.3g row-trees (trees x training rows over all "
                  "partitions), more than the limit of %.3g; raise max_work (JS maxWork, CLI "
                  "--max-work) to run it: 10^9 row-trees take roughly 10 to 30 minutes on one core",
                  work, o.max_work);
    return Status::Error(StatusCode::kLimitExceeded, message);
  }
  return Status::Ok();
}

double ExperimentWork(const ExperimentOptions& o) {
  double partitions = o.repeats;
  double train_rows = 0.0;
  if (o.protocol == ProtocolKind::kSynthetic) {
    train_rows = static_cast<double>(o.train_rows);
  } else {
    const double rows = o.data == nullptr ? 0.0 : static_cast<double>(o.data->num_rows());
    if (o.protocol == ProtocolKind::kKFold) {
      partitions *= o.folds;
      train_rows = o.folds > 1 ? rows * (o.folds - 1) / o.folds : rows;
    } else {
      train_rows = rows * (1.0 - o.test_fraction);
    }
  }
  const double per_tree = PrunesTrees(o.train) ? o.train.pruning.cv_folds + 1.0 : 1.0;
  double trees = (static_cast<double>(o.train.num_trees) + o.proxy_trees) * per_tree;
  if (o.select_emphasis) {
    const int32_t folds = o.emphasis_cv.folds;
    const double cv_rows = folds > 1 ? static_cast<double>(folds - 1) / folds : 1.0;
    const double cv_trees = o.emphasis_cv.num_trees > 0 ? o.emphasis_cv.num_trees : o.train.num_trees;
    trees += static_cast<double>(o.emphasis_cv.grid.size()) * folds * cv_trees * per_tree * cv_rows;
  }
  return partitions * trees * train_rows;
}

int32_t DefaultRepeats(ProtocolKind protocol) {
  return protocol == ProtocolKind::kKFold ? ExperimentOptions().repeats : 100;
}

}  // namespace urnforest
