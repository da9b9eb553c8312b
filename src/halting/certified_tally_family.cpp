// The certificate's LP candidates for three or more classes: Lagrangian sets over the full
// tallies, one per multiplier (src/halting/certified_candidates.h, docs/halting.md).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "halting/certified_candidates.h"
#include "urnforest/tally_lagrangian_ladder.h"
#include "urnforest/tally_stopping.h"

namespace urnforest::internal {
namespace {

// Multipliers mu = 2^(j / 4), j = 0, 1, ..., up to 2^kMaxMuLog2 (trees per unit of disagreement:
// at 2^40 no saving of T <= 10^4 trees outweighs a disagreement of 10^-8).
constexpr int kMuSteps = 4;
constexpr int kMaxMuLog2 = 40;
// Pseudo-errors of each state's disagreement rate (TallyLagrangianLadder::Make): with the plain
// empirical rate (0), a state that few fit rows passed and none wrongly looks certain and the sets
// stop there too early for rows not fitted on (cross-fitted disagreement never below 0.45 % on
// waveform, T = 101, 1,250 fit rows); Laplace's 1 is far too pessimistic (62 trees at 0.3 %);
// 0.01 was the best of {0, 0.002, 0.01, 0.05, 0.2, 1} measured there (docs/benchmarks.md).
constexpr double kPseudoErrors = 0.01;
// Multipliers whose cross-fitted outcomes are measured together.
constexpr int kGridBatch = 8;
// Support states times sets held at once while evaluating the candidates (bytes of stop flags).
constexpr size_t kChunkStates = size_t{1} << 24;

// Lattice states the exact evaluation visits for a tally: prod (F_c + 1).
double StatesBelow(const std::vector<int32_t>& tally) {
  double states = 1.0;
  for (int32_t f : tally) states *= static_cast<double>(f) + 1.0;
  return states;
}

RiskCandidate Losses(const std::vector<TallyOutcome>& outcomes, size_t first, const CalibrationRows& rows,
                     bool hard_reference, const std::string& name) {
  RiskCandidate c;
  c.name = name;
  const size_t k = static_cast<size_t>(rows.num_classes);
  std::vector<int32_t> f(k);
  for (size_t r = 0; r < rows.references.size(); ++r) {
    for (size_t j = 0; j < k; ++j) f[j] = static_cast<int32_t>(rows.tallies[r * k + j]);
    const TallyOutcome& o = outcomes[first + r];
    // Against another reference than the plurality, 1 bounds the loss (K > 2).
    const bool matches = hard_reference || rows.references[r] == TallyLeader(f.data(), rows.num_classes);
    c.loss.push_back(matches ? std::min(1.0, std::max(0.0, o.disagreement)) : 1.0);
    c.trees.push_back(o.trees);
  }
  return c;
}

}  // namespace

void AddTallyLpFamily(const SplitRows& rows, const CertifyOptions& options, std::vector<Candidate>* candidates,
                      std::string* notes) {
  const int32_t trees = rows.certify.num_trees, k = rows.certify.num_classes;
  const std::vector<double> targets = LpLadder(options.alpha);
  if (targets.empty() || rows.fit.references.empty()) return;
  // Work estimated from the fit rows only (as the table families), so whether the family takes
  // part depends on no certify row.
  double fit_states = 0.0;
  for (const auto& key : rows.fit_distinct.keys) fit_states += StatesBelow(key.first);
  const double scale = 1.0 + static_cast<double>(rows.certify.references.size()) /
                                 static_cast<double>(rows.fit.references.size());
  if (fit_states * scale > static_cast<double>(options.max_states)) {
    *notes += " The lp family was left out (exact evaluation over about " + FormatNumber(fit_states * scale) +
              " states exceeds the budget).";
    return;
  }
  // Two folds of the fit rows (even and odd positions among them): each fold's sets are measured
  // on the other fold, so the fit rows' losses that order the sequence and pick the sets are
  // honest estimates, not the optimistic in-sample figures the LP was solved to meet.
  std::vector<uint32_t> fold[2];
  const size_t kk = static_cast<size_t>(k);
  for (size_t r = 0; r < rows.fit.references.size(); ++r) {
    fold[r % 2].insert(fold[r % 2].end(), rows.fit.tallies.begin() + r * kk, rows.fit.tallies.begin() + (r + 1) * kk);
  }
  if (fold[1].empty()) return;
  Result<TallyLagrangianLadder> on_even = TallyLagrangianLadder::Make(trees, k, fold[0], fold[1], kPseudoErrors);
  Result<TallyLagrangianLadder> on_odd = TallyLagrangianLadder::Make(trees, k, fold[1], fold[0], kPseudoErrors);
  Result<TallyLagrangianLadder> made =
      TallyLagrangianLadder::Make(trees, k, rows.fit.tallies, rows.certify.tallies, kPseudoErrors);
  for (const Status& s : {on_even.status(), on_odd.status(), made.status()}) {
    if (!s.ok()) {
      *notes += " The lp family was left out (" + s.message + ").";
      return;
    }
  }
  // The grid, from cheap to safe, in batches, until the cross-fitted fit rows meet the smallest
  // target (outcomes only: a set is solved again when needed, so at most a batch is held).
  std::vector<double> grid_mu;
  std::vector<std::vector<TallyOutcome>> grid_rows;  // per multiplier, per fit row (cross-fitted)
  std::vector<TallyOutcome> grid_mean;
  const size_t n_fit = rows.fit.references.size();
  for (int j0 = 0; j0 <= kMaxMuLog2 * kMuSteps && (grid_mean.empty() || grid_mean.back().disagreement > targets.front());
       j0 += kGridBatch) {
    std::vector<double> mus;
    std::vector<SupportStopSet> even_sets, odd_sets;
    for (int j = j0; j < j0 + kGridBatch && j <= kMaxMuLog2 * kMuSteps; ++j) {
      mus.push_back(std::exp2(static_cast<double>(j) / kMuSteps));
      even_sets.push_back(on_even.value().Solve(mus.back()));
      odd_sets.push_back(on_odd.value().Solve(mus.back()));
    }
    const auto on_odd_rows = on_even.value().ReachOutcomes(even_sets);  // fitted on even, measured on odd rows
    const auto on_even_rows = on_odd.value().ReachOutcomes(odd_sets);
    if (on_odd_rows.size() != mus.size() || on_even_rows.size() != mus.size()) return;
    for (size_t j = 0; j < mus.size(); ++j) {
      std::vector<TallyOutcome> per_row(n_fit);
      TallyOutcome mean;
      for (size_t r = 0; r < n_fit; ++r) {
        per_row[r] = r % 2 == 0 ? on_even_rows[j][r / 2] : on_odd_rows[j][r / 2];
        mean.disagreement += per_row[r].disagreement / static_cast<double>(n_fit);
        mean.trees += per_row[r].trees / static_cast<double>(n_fit);
      }
      grid_mu.push_back(mus[j]);
      grid_rows.push_back(std::move(per_row));
      grid_mean.push_back(mean);
      if (mean.disagreement <= targets.front()) break;
    }
  }
  // Per target, the multiplier with the fewest cross-fitted trees meeting it; each once.
  std::vector<size_t> picked;
  std::vector<double> picked_target;
  for (double target : targets) {
    size_t best = grid_mu.size();
    for (size_t g = 0; g < grid_mu.size(); ++g) {
      if (grid_mean[g].disagreement <= target &&
          (best == grid_mu.size() || grid_mean[g].trees < grid_mean[best].trees)) {
        best = g;
      }
    }
    if (best == grid_mu.size() || std::find(picked.begin(), picked.end(), best) != picked.end()) continue;
    picked.push_back(best);
    picked_target.push_back(target);
  }
  // The candidates: each multiplier's set solved on all fit rows, measured on the certify rows.
  auto ladder = std::make_shared<const TallyLagrangianLadder>(std::move(made).value());
  const size_t chunk = std::max<size_t>(1, kChunkStates / static_cast<size_t>(std::max<int64_t>(1, ladder->support_size())));
  for (size_t first = 0; first < picked.size(); first += chunk) {
    std::vector<SupportStopSet> sets;
    for (size_t j = first; j < std::min(picked.size(), first + chunk); ++j) sets.push_back(ladder->Solve(grid_mu[picked[j]]));
    const std::vector<std::vector<TallyOutcome>> outcomes = ladder->ReachOutcomes(sets);
    if (outcomes.size() != sets.size()) {
      *notes += " The lp family could not be evaluated on the calibration rows.";
      return;
    }
    for (size_t j = 0; j < sets.size(); ++j) {
      const size_t p = first + j;
      const std::string name =
          "lp " + FormatNumber(picked_target[p]) + " (mu " + FormatNumber(grid_mu[picked[p]]) + ")";
      Candidate c;
      c.strategy = "lp";
      c.parameter = picked_target[p];
      c.ladder = ladder;
      c.multiplier = grid_mu[picked[p]];
      c.fit = Losses(grid_rows[picked[p]], 0, rows.fit, options.hard_reference, name);
      c.certify = Losses(outcomes[j], 0, rows.certify, options.hard_reference, name);
      candidates->push_back(std::move(c));
    }
  }
}

}  // namespace urnforest::internal
