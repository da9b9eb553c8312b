// Prediction through one core path: rows prepared once for a model, halted prediction in any query
// order with its comparison against the full vote of the queried trees.
#include "urnforest/predict.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/threads.h"
#include "ensemble/full_vote_internal.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/tally_posterior.h"

namespace urnforest {
namespace {

using internal::PartsFor;
using internal::PluralityLabels;

// True when rows converted for features `a` fit a model with features `b`: ModelRows reads the
// feature count, each feature's name (columns are matched by name), type and each categorical
// feature's categories.
bool SameModelLayout(const std::vector<FeatureInfo>& a, const std::vector<FeatureInfo>& b) {
  if (a.size() != b.size()) return false;
  for (size_t f = 0; f < a.size(); ++f) {
    if (a[f].type != b[f].type || a[f].name != b[f].name) return false;
    if (a[f].type == FeatureType::kCategorical && a[f].categories != b[f].categories) return false;
  }
  return true;
}

// kShapeMismatch unless `table` fits `forest` for the query order of `options`: the same class
// count, and T at most the forest's trees (or exactly the fixed order's length).
Status TableFits(const Forest& forest, const HaltingTable& table,
                 const SequentialVoteOptions& options) {
  const std::vector<int32_t>& fixed = options.fixed_order;
  const bool fits = table.num_classes() == forest.num_classes() &&
                    (fixed.empty() ? table.num_trees() <= forest.num_trees()
                                   : fixed.size() == static_cast<size_t>(table.num_trees()));
  if (fits) return Status::Ok();
  return Status::Error(StatusCode::kShapeMismatch,
                       fixed.empty() ? "the halting table does not fit this forest"
                                     : "the halting table does not fit this forest and order");
}

// TableFits, then kInvalidArgument unless `rows` were prepared for `forest` (PreparedRows::Fits).
Status HaltedInputsFit(const Forest& forest, const PreparedRows& rows, const HaltingTable& table,
                       const SequentialVoteOptions& options) {
  if (Status fits = TableFits(forest, table, options); !fits.ok()) return fits;
  if (!rows.Fits(forest)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the rows were prepared for a model of another layout");
  }
  return Status::Ok();
}

}  // namespace

bool PreparedRows::Fits(const Forest& forest) const {
  if (forest.num_trees() <= 0 || forest.num_classes() <= 0) return false;
  return (layout_id != 0 && layout_id == forest.layout_id()) || SameModelLayout(layout, forest.schema().features);
}

Result<PreparedRows> PrepareRows(const Forest& forest, const Dataset& data) {
  Result<std::vector<float>> converted = ModelRows(forest, data);
  if (!converted.ok()) return converted.status();
  PreparedRows rows;
  rows.values = std::move(converted).value();
  rows.num_rows = data.num_rows();
  rows.without_nan =
      RowsWithoutNaN(rows.values.data(), rows.num_rows, static_cast<size_t>(forest.num_features()));
  rows.layout = forest.schema().features;
  rows.layout_id = forest.layout_id();
  return rows;
}

Result<HaltedPrediction> PredictHalted(const Forest& forest, const PreparedRows& rows,
                                       const HaltingTable& table,
                                       const SequentialVoteOptions& options, bool compare) {
  return PredictHalted(forest, rows, table, options, compare, PredictExecution());
}

Result<HaltedPrediction> PredictHalted(const Forest& forest, const PreparedRows& rows,
                                       const HaltingTable& table,
                                       const SequentialVoteOptions& options, bool compare,
                                       const PredictExecution& execution) {
  const std::vector<int32_t>& fixed = options.fixed_order;
  if (Status fits = HaltedInputsFit(forest, rows, table, options); !fits.ok()) return fits;
  const size_t n = rows.num_rows;
  const size_t m = static_cast<size_t>(forest.num_features());
  const size_t k = static_cast<size_t>(forest.num_classes());
  HaltedPrediction out;
  SequentialVoteResult& halted = out.halted;
  halted.Resize(n, k);
  FullVote full;
  if (compare) full.votes.assign(n * k, 0);
  // Each part writes its own rows of every array; in random order its rows keep their indices.
  Status status = internal::RunRowParts(n, PartsFor(n, execution), [&](size_t begin, size_t end) {
    SequentialVoteOptions part = options;
    part.first_row = options.first_row + begin;
    const float* x = rows.values.data() + begin * m;
    Status s = PredictHaltedRowsInto(forest, x, end - begin, table, part, rows.without_nan.data() + begin,
                                     halted.SpansFrom(begin, k));
    if (!s.ok() || !compare) return s;
    uint32_t* votes = full.votes.data() + begin * k;
    if (fixed.empty()) {
      AccumulateVotes(forest, x, end - begin, table.num_trees(), votes);
    } else {
      AccumulateVotesOf(forest, x, end - begin, fixed.data(), fixed.size(), votes);
    }
    return s;
  });
  if (!status.ok()) return status;
  out.mean_trees = halted.MeanTrees();
  out.disagreement = std::numeric_limits<double>::quiet_NaN();
  if (!compare) return out;
  full.labels = PluralityLabels(full.votes, n, k);
  size_t differ = 0;
  for (size_t r = 0; r < n; ++r) differ += halted.labels[r] != full.labels[r] ? 1 : 0;
  out.disagreement = n == 0 ? 0.0 : static_cast<double>(differ) / static_cast<double>(n);
  out.full = std::move(full);
  return out;
}

Status PredictHaltedInto(const Forest& forest, const PreparedRows& rows, const HaltingTable& table,
                         const SequentialVoteOptions& options, const SequentialVoteSpans& out,
                         double* mean_trees) {
  if (Status fits = HaltedInputsFit(forest, rows, table, options); !fits.ok()) return fits;
  Status s = PredictHaltedRowsInto(forest, rows.values.data(), rows.num_rows, table, options,
                                   rows.without_nan.data(), out);
  if (!s.ok()) return s;
  *mean_trees = MeanTreesOf(out.trees_used, rows.num_rows);
  return Status::Ok();
}

Result<std::vector<double>> HaltedVoteShares(const Prior& prior, int32_t num_trees,
                                             int32_t num_classes,
                                             const std::vector<int32_t>& tallies) {
  const size_t l = static_cast<size_t>(num_classes);
  if (l == 0 || tallies.size() % l != 0 || num_classes != prior.num_classes()) {
    return Status::Error(StatusCode::kShapeMismatch, "the tallies do not fit the prior's classes");
  }
  const size_t n = tallies.size() / l;
  std::vector<double> shares(n * l);
  std::unordered_map<std::string, size_t> first_row;  // tally bytes -> first row with it
  for (size_t r = 0; r < n; ++r) {
    const int32_t* t = tallies.data() + r * l;
    std::string key(reinterpret_cast<const char*>(t), l * sizeof(int32_t));
    const auto [it, inserted] = first_row.emplace(std::move(key), r);
    if (!inserted) {
      std::memcpy(shares.data() + r * l, shares.data() + it->second * l, l * sizeof(double));
      continue;
    }
    Status s = PosteriorMeanShares(prior, num_trees, t, shares.data() + r * l);
    if (!s.ok()) return s;
  }
  return shares;
}

Result<RowTrace> TraceRow(const Forest& forest, const Dataset& data, size_t row,
                          const HaltingTable& table, const SequentialVoteOptions& options) {
  if (Status fits = TableFits(forest, table, options); !fits.ok()) return fits;
  if (row >= data.num_rows()) return Status::Error(StatusCode::kInvalidArgument, "row out of range");
  Result<std::vector<float>> rows = ModelRows(forest, data.Subset({row}));
  if (!rows.ok()) return rows.status();
  const std::vector<float>& x = rows.value();
  Result<VoteTrace> trace = TraceVotes(
      table, row, [&](int32_t tree, size_t) { return forest.TreeVote(tree, x.data()); }, options);
  if (!trace.ok()) return trace.status();
  RowTrace out;
  out.trace = std::move(trace).value();
  out.full_votes.assign(static_cast<size_t>(forest.num_classes()), 0);
  AccumulateVotesOf(forest, x.data(), 1, out.trace.trees.data(), out.trace.trees.size(),
                    out.full_votes.data());
  return out;
}

}  // namespace urnforest
