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
// Support states times sets held at once while evaluating the candidates (bytes of stop flags).
constexpr size_t kChunkStates = size_t{1} << 24;

// Lattice states the exact evaluation visits for a tally: prod (F_c + 1).
double StatesBelow(const std::vector<int32_t>& tally) {
  double states = 1.0;
  for (int32_t f : tally) states *= static_cast<double>(f) + 1.0;
  return states;
}

std::vector<uint32_t> Concatenated(const CalibrationRows& a, const CalibrationRows& b) {
  std::vector<uint32_t> out = a.tallies;
  out.insert(out.end(), b.tallies.begin(), b.tallies.end());
  return out;
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
  Result<TallyLagrangianLadder> made =
      TallyLagrangianLadder::Make(trees, k, rows.fit.tallies, Concatenated(rows.fit, rows.certify));
  if (!made.ok()) {
    *notes += " The lp family was left out (" + made.status().message + ").";
    return;
  }
  auto ladder = std::make_shared<const TallyLagrangianLadder>(std::move(made).value());
  // The grid, from cheap to safe, until the fit rows meet the smallest target (outcomes only: a
  // set is solved again when needed, so at most a few are held at once).
  std::vector<TallyOutcome> grid_fit;
  std::vector<double> grid_mu;
  for (int j = 0; j <= kMaxMuLog2 * kMuSteps; ++j) {
    const double mu = std::exp2(static_cast<double>(j) / kMuSteps);
    grid_fit.push_back(ladder->FitOutcome(ladder->Solve(mu)));
    grid_mu.push_back(mu);
    if (grid_fit.back().disagreement <= targets.front()) break;
  }
  // Per target, the grid set with the fewest fit-row trees meeting it; each set once.
  std::vector<size_t> picked;
  std::vector<double> picked_target;
  for (double target : targets) {
    size_t best = grid_mu.size();
    for (size_t g = 0; g < grid_mu.size(); ++g) {
      if (grid_fit[g].disagreement <= target && (best == grid_mu.size() || grid_fit[g].trees < grid_fit[best].trees)) {
        best = g;
      }
    }
    if (best == grid_mu.size() || std::find(picked.begin(), picked.end(), best) != picked.end()) continue;
    picked.push_back(best);
    picked_target.push_back(target);
  }
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
      c.fit = Losses(outcomes[j], 0, rows.fit, options.hard_reference, name);
      c.certify = Losses(outcomes[j], rows.fit.references.size(), rows.certify, options.hard_reference, name);
      candidates->push_back(std::move(c));
    }
  }
}

}  // namespace urnforest::internal
