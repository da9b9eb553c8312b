// Forest x halting glue: priors from the forest's out-of-bag votes, its tables, halted prediction.
#include "urnforest/forest_halting.h"

#include <string>
#include <utility>
#include <vector>

#include "ensemble/forest_walk.h"
#include "urnforest/predict.h"

namespace urnforest {
namespace {

// Votes of the forest's trees for rows in the model layout, walked several rows at a time.
class ForestVoter final : public BlockVoter {
 public:
  // `no_nan`: per row 1 when it has no NaN (borrowed), or null to scan the rows here.
  ForestVoter(const Forest& forest, const float* rows, size_t num_rows, const uint8_t* no_nan)
      : view_(internal::ForestWalkView(forest)), rows_(rows), m_(static_cast<size_t>(forest.num_features())) {
    if (no_nan == nullptr) {
      scanned_ = RowsWithoutNaN(rows, num_rows, m_);
      no_nan = scanned_.data();
    }
    no_nan_ = no_nan;
    all_no_nan_ = true;
    for (size_t r = 0; r < num_rows; ++r) all_no_nan_ = all_no_nan_ && no_nan[r] != 0;
  }

  void Vote(int32_t tree, const size_t* rows, size_t count, int32_t* out) const override {
    const float* base = rows_;
    const size_t m = m_;
    const uint8_t* no_nan = no_nan_;
    auto row_ptr = [base, m, rows](size_t i) { return base + rows[i] * m; };
    auto row_no_nan = [no_nan, rows](size_t i) { return no_nan[rows[i]] != 0; };
    if (view_.numeric_only && all_no_nan_) {
      // The common case: no row has a NaN, so no group reads the flags.
      view_.VoteMany<true>(tree, count, row_ptr, [](size_t) { return true; }, out);
    } else if (view_.numeric_only) {
      view_.VoteMany<true>(tree, count, row_ptr, row_no_nan, out);
    } else {
      view_.VoteMany<false>(tree, count, row_ptr, row_no_nan, out);
    }
  }

  void VotePairs(const int32_t* trees, const size_t* rows, size_t count, int32_t* out) const override {
    const float* base = rows_;
    const size_t m = m_;
    const uint8_t* no_nan = no_nan_;
    auto row_ptr = [base, m, rows](size_t i) { return base + rows[i] * m; };
    auto row_no_nan = [no_nan, rows](size_t i) { return no_nan[rows[i]] != 0; };
    if (view_.numeric_only) {
      view_.VotePairs<true>(trees, count, row_ptr, row_no_nan, out);
    } else {
      view_.VotePairs<false>(trees, count, row_ptr, row_no_nan, out);
    }
  }

  void VoteTrees(const int32_t* trees, size_t count, size_t row, int32_t* out) const override {
    const float* x = rows_ + row * m_;
    if (view_.numeric_only) {
      view_.VoteTrees<true>(trees, count, x, no_nan_[row] != 0, out);
    } else {
      view_.VoteTrees<false>(trees, count, x, no_nan_[row] != 0, out);
    }
  }

 private:
  internal::WalkView view_;
  const float* rows_;
  size_t m_;
  std::vector<uint8_t> scanned_;  // the flags when not given
  const uint8_t* no_nan_;          // per row: 1 when it has no NaN
  bool all_no_nan_;                // no row has a NaN
};

}  // namespace

std::vector<uint8_t> RowsWithoutNaN(const float* rows, size_t num_rows, size_t num_features) {
  std::vector<uint8_t> out(num_rows);
  for (size_t r = 0; r < num_rows; ++r) out[r] = internal::NoNaN(rows + r * num_features, num_features);
  return out;
}

Result<Prior> PriorForForest(const Forest& forest, HaltingRule rule, int32_t num_trees) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
  if (const ImportedModel* m = forest.imported(); m != nullptr && RuleNeedsPrior(rule)) {
    if (m->kind == ImportedKind::kAdditive) {
      return Status::Error(StatusCode::kInvalidArgument,
                           std::string("rule ") + RuleName(rule) + " needs trees that vote; an additive model "
                           "(boosted trees) halts with the exact early exit (rule alpha1, soft vote)");
    }
    if (!m->calibrated) {
      return Status::Error(StatusCode::kInvalidArgument,
                           std::string("rule ") + RuleName(rule) + " needs a prior: calibrate the imported "
                           "forest on unlabeled rows first (calibrate)");
    }
  }
  return PriorForRule(rule, forest.oob_votes(), forest.train_labels(), forest.num_classes(), t);
}

namespace {

// The table of `rule` at `alpha` for t queried trees built from `prior` (the rule's prior for t
// trees; null when the rule needs none). kInvalidArgument when t exceeds the forest's trees.
Result<HaltingTable> BuildFromPrior(const Forest& forest, HaltingRule rule, double alpha, int32_t t,
                                    const Prior* prior, const BuildProgressFn& progress = BuildProgressFn()) {
  if (t > forest.num_trees()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "a table for " + std::to_string(t) + " trees cannot be used with a forest of " +
                             std::to_string(forest.num_trees()));
  }
  HaltingTableOptions options;
  options.rule = rule;
  options.num_trees = t;
  options.num_classes = forest.num_classes();
  options.alpha = alpha;
  options.progress = progress;
  return BuildHaltingTable(options, RuleNeedsPrior(rule) ? prior : nullptr);
}

}  // namespace

Result<HaltingTable> BuildForestTable(const Forest& forest, HaltingRule rule, double alpha,
                                      int32_t num_trees, bool* from_store) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
  if (from_store != nullptr) *from_store = false;
  if (const HaltingTable* stored = forest.FindStoredTable(rule, alpha, t)) {
    if (from_store != nullptr) *from_store = true;
    return *stored;
  }
  if (t > forest.num_trees() || !RuleNeedsPrior(rule)) {
    return BuildFromPrior(forest, rule, alpha, t, nullptr);
  }
  Result<Prior> prior = PriorForForest(forest, rule, t);
  if (!prior.ok()) return prior.status();
  return BuildFromPrior(forest, rule, alpha, t, &prior.value());
}

Result<ForestTable> BuildForestTableWithPrior(const Forest& forest, HaltingRule rule, double alpha,
                                              int32_t num_trees, const BuildProgressFn& progress) {
  const int32_t t = num_trees > 0 ? num_trees : forest.num_trees();
  Result<Prior> prior = PriorForForest(forest, rule, t);
  if (!prior.ok()) return prior.status();
  ForestTable out;
  out.prior = std::move(prior).value();
  if (const HaltingTable* stored = forest.FindStoredTable(rule, alpha, t)) {
    out.table = *stored;
    out.from_store = true;
    return out;
  }
  Result<HaltingTable> table = BuildFromPrior(forest, rule, alpha, t, &out.prior, progress);
  if (!table.ok()) return table.status();
  out.table = std::move(table).value();
  return out;
}

Status StoreForestTable(Forest* forest, HaltingRule rule, double alpha, int32_t num_trees) {
  Result<HaltingTable> table = BuildForestTable(*forest, rule, alpha, num_trees);
  if (!table.ok()) return table.status();
  return forest->StoreTable(std::move(table).value());
}

Result<SequentialVoteResult> PredictHalted(const Forest& forest, const Dataset& data,
                                           const HaltingTable& table,
                                           const SequentialVoteOptions& options) {
  Result<std::vector<float>> model_rows = ModelRows(forest, data);
  if (!model_rows.ok()) return model_rows.status();
  return PredictHaltedRows(forest, model_rows.value().data(), data.num_rows(), table, options);
}

namespace {

// kInvalidArgument / kShapeMismatch unless `table` and `options` fit `forest` for halted prediction
// (PredictHaltedRows' checks).
Status HaltedRowsFit(const Forest& forest, const HaltingTable& table,
                     const SequentialVoteOptions& options) {
  if (forest.num_trees() == 0 || forest.num_classes() == 0) {
    return Status::Error(StatusCode::kInvalidArgument, "the forest has no trees");
  }
  if (table.num_classes() != forest.num_classes()) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the table has " + std::to_string(table.num_classes()) +
                             " classes, the forest " + std::to_string(forest.num_classes()));
  }
  if (table.num_trees() > forest.num_trees()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the table is for " + std::to_string(table.num_trees()) +
                             " trees, the forest has " + std::to_string(forest.num_trees()));
  }
  for (int32_t tree : options.fixed_order) {
    if (tree < 0 || tree >= forest.num_trees()) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "query order names tree " + std::to_string(tree) +
                               ", the forest has " + std::to_string(forest.num_trees()));
    }
  }
  return Status::Ok();
}

}  // namespace

Result<SequentialVoteResult> PredictHaltedRows(const Forest& forest, const float* rows,
                                               size_t num_rows, const HaltingTable& table,
                                               const SequentialVoteOptions& options,
                                               const uint8_t* rows_without_nan) {
  if (Status fits = HaltedRowsFit(forest, table, options); !fits.ok()) return fits;
  return PredictSequentialBlocked(table, num_rows, ForestVoter(forest, rows, num_rows, rows_without_nan), options);
}

Status PredictHaltedRowsInto(const Forest& forest, const float* rows, size_t num_rows,
                             const HaltingTable& table, const SequentialVoteOptions& options,
                             const uint8_t* rows_without_nan, const SequentialVoteSpans& out) {
  if (Status fits = HaltedRowsFit(forest, table, options); !fits.ok()) return fits;
  return PredictSequentialBlockedInto(table, num_rows,
                                      ForestVoter(forest, rows, num_rows, rows_without_nan), options, out);
}

}  // namespace urnforest
