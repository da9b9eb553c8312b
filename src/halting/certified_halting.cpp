// CertifyStrategy: candidate stopping strategies measured exactly on calibration rows and certified
// by Learn-then-Test (urnforest/certified_halting.h, docs/halting.md "Certified halting").
#include "urnforest/certified_halting.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "halting/certified_candidates.h"
#include "urnforest/alpha.h"
#include "urnforest/expected_cost.h"
#include "urnforest/halting_rule.h"
#include "urnforest/prior.h"
#include "urnforest/risk_certificate.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

using internal::Candidate;
using internal::DistinctRows;
using internal::SplitRows;

// The LP family is solved for forests up to this many trees (each solve is O(T^3)).
constexpr int32_t kMaxLpFamilyTrees = 301;

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

// Fit rows: positions 0, 4, 8, ... of the calibration order (a quarter, rounded up); certify rows:
// the others. The LP and the hyper prior need only a rough estimate of the distribution of final
// tallies, the bound needs rows (docs/halting.md, "Certified halting").
constexpr size_t kFitEvery = 4;

bool IsFitRow(size_t r) { return r % kFitEvery == 0; }

CalibrationRows Part(const CalibrationRows& rows, bool fit) {
  CalibrationRows out;
  out.num_classes = rows.num_classes;
  out.num_trees = rows.num_trees;
  const size_t k = static_cast<size_t>(rows.num_classes);
  for (size_t r = 0; r < rows.references.size(); ++r) {
    if (IsFitRow(r) != fit) continue;
    out.tallies.insert(out.tallies.end(), rows.tallies.begin() + r * k, rows.tallies.begin() + (r + 1) * k);
    out.references.push_back(rows.references[r]);
  }
  return out;
}

// The fewest calibration rows whose certify part has `certify` rows: floor(3 N / 4) >= certify.
int64_t TotalRowsFor(int64_t certify) { return (4 * certify + 2) / 3; }

Status CheckRows(const CalibrationRows& rows) {
  const int32_t k = rows.num_classes;
  if (k < 2 || rows.num_trees < 1) return Invalid("calibration rows need at least 2 classes and 1 tree");
  if (rows.tallies.size() != rows.references.size() * static_cast<size_t>(k)) {
    return Invalid("calibration tallies must hold one tally of the classes per reference label");
  }
  for (size_t r = 0; r < rows.references.size(); ++r) {
    uint64_t sum = 0;
    for (int32_t c = 0; c < k; ++c) sum += rows.tallies[r * k + c];
    if (sum != static_cast<uint64_t>(rows.num_trees)) return Invalid("a calibration tally does not sum to T");
    if (rows.references[r] < 0 || rows.references[r] >= k) return Invalid("a reference label is out of range");
  }
  return Status::Ok();
}

DistinctRows Distinct(const CalibrationRows& rows) {
  DistinctRows out;
  std::map<std::pair<std::vector<int32_t>, int32_t>, size_t> index;
  const size_t k = static_cast<size_t>(rows.num_classes);
  for (size_t r = 0; r < rows.references.size(); ++r) {
    std::pair<std::vector<int32_t>, int32_t> key(
        std::vector<int32_t>(rows.tallies.begin() + r * k, rows.tallies.begin() + (r + 1) * k),
        rows.references[r]);
    auto it = index.emplace(key, out.keys.size());
    if (it.second) out.keys.push_back(std::move(key));
    out.row_key.push_back(it.first->second);
  }
  return out;
}

int32_t PluralityOf(const std::vector<int32_t>& tally) {
  return static_cast<int32_t>(std::max_element(tally.begin(), tally.end()) - tally.begin());
}

// Lattice states ExactCostForFinalTally visits for a tally: prod (F_c + 1), saturating.
int64_t StatesOf(const std::vector<int32_t>& tally) {
  double states = 1.0;
  for (int32_t f : tally) states *= static_cast<double>(f) + 1.0;
  return states > 9e18 ? INT64_MAX : static_cast<int64_t>(states);
}

// One candidate table: the exact loss and trees of every certify row, or an error when the exact
// evaluation fails (work limits).
Result<RiskCandidate> TableCandidate(const HaltingTable& table, const DistinctRows& rows, bool hard_reference,
                                     const std::string& name) {
  std::vector<double> loss(rows.keys.size()), trees(rows.keys.size());
  for (size_t i = 0; i < rows.keys.size(); ++i) {
    const std::vector<int32_t>& tally = rows.keys[i].first;
    Result<CostEstimate> cost = ExactCostForFinalTally(table, tally);
    if (!cost.ok()) return cost.status();
    trees[i] = cost.value().expected_trees;
    const bool matches = hard_reference || rows.keys[i].second == PluralityOf(tally);
    // Against another reference: with two classes, differing from it is agreeing with the
    // plurality; with more, 1 bounds the loss.
    loss[i] = matches ? cost.value().disagreement
                      : tally.size() == 2 ? 1.0 - cost.value().disagreement : 1.0;
    loss[i] = std::min(1.0, std::max(0.0, loss[i]));
  }
  RiskCandidate c;
  c.name = name;
  for (size_t key : rows.row_key) {
    c.loss.push_back(loss[key]);
    c.trees.push_back(trees[key]);
  }
  return c;
}

// The class-1 count of every row of a two-class set, as final-count weights D(n).
std::vector<double> FinalCountWeights(const CalibrationRows& rows) {
  std::vector<double> weights(static_cast<size_t>(rows.num_trees) + 1, 0.0);
  for (size_t r = 0; r < rows.references.size(); ++r) weights[rows.tallies[r * 2 + 1]] += 1.0;
  return weights;
}

Result<RiskCandidate> LpCandidate(const BinaryStoppingStrategy& lp, const CalibrationRows& rows,
                                  const std::string& name) {
  Result<std::vector<BinaryOutcome>> first = ExactBinaryOutcomes(lp.first);
  if (!first.ok()) return first.status();
  Result<std::vector<BinaryOutcome>> second = ExactBinaryOutcomes(lp.second);
  if (!second.ok()) return second.status();
  RiskCandidate c;
  c.name = name;
  const double share = lp.first_share;
  for (size_t r = 0; r < rows.references.size(); ++r) {
    const uint32_t n = rows.tallies[r * 2 + 1];
    const BinaryOutcome& a = first.value()[n];
    const BinaryOutcome& b = second.value()[n];
    const double one = share * a.answer_one + (1.0 - share) * b.answer_one;
    const double loss = rows.references[r] == 1 ? 1.0 - one : one;
    c.loss.push_back(std::min(1.0, std::max(0.0, loss)));
    c.trees.push_back(share * a.trees + (1.0 - share) * b.trees);
  }
  return c;
}

// The smallest number of certify rows with which a candidate that never disagreed is certified at
// max_risk and `level` by `method`.
int64_t CertifyRowsNeeded(double max_risk, double level, PValueMethod method) {
  const auto passes = [&](int64_t n) {
    if (method == PValueMethod::kHoeffdingBentkus) {
      return HoeffdingBentkusPValue(0.0, static_cast<size_t>(n), max_risk) <= level;
    }
    return RiskPValue(method, std::vector<double>(static_cast<size_t>(n), 0.0), max_risk, level) <= level;
  };
  // Hoeffding-Bentkus first (closed form); the betting p-values need at most 1 / kBettingCap as many.
  int64_t hi = 1;
  while (HoeffdingBentkusPValue(0.0, static_cast<size_t>(hi), max_risk) > level && hi < (int64_t{1} << 40)) hi *= 2;
  int64_t lo = hi / 2;  // lo fails (or is 0), hi passes
  if (method != PValueMethod::kHoeffdingBentkus) {
    if (hi > (int64_t{1} << 24)) return static_cast<int64_t>(std::ceil(static_cast<double>(hi) / kBettingCap));
    while (!passes(hi)) lo = hi, hi *= 2;
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (passes(mid) ? hi : lo) = mid;
  }
  return hi;
}

std::string Format(double x) { return internal::FormatNumber(x); }

// TableLadder, or every third rung of it where a full table has more than kLargeTableStates
// tallies (each build then takes about a second): a bound on the work that depends on T and K only.
constexpr double kLargeTableStates = 1e6;

std::vector<double> FamilyLadder(int32_t trees, int32_t classes, double alpha) {
  const std::vector<double> full = TableLadder(alpha);
  double states = 1.0;  // C(T + K, K)
  for (int32_t i = 1; i <= classes; ++i) states = states * (trees + i) / i;
  if (states <= kLargeTableStates) return full;
  std::vector<double> out;
  for (size_t i = 1; i < full.size(); i += 3) out.push_back(full[i]);
  return out;
}

// The candidates of one table rule (siba: uniform prior; hyper: prior fitted on the fit rows).
void AddTableFamily(HaltingRule rule, const Prior* prior, const SplitRows& rows, const CertifyOptions& options,
                    std::vector<Candidate>* candidates, std::string* notes) {
  // The budget is estimated from the fit rows only (their states, scaled to all rows), so whether a
  // family takes part depends on no certify row: the sequence stays fixed given the fit rows.
  double fit_states = 0.0;
  for (const auto& key : rows.fit_distinct.keys) fit_states += static_cast<double>(StatesOf(key.first));
  const double scale = rows.fit.references.empty() ? 1.0
                                                   : 1.0 + static_cast<double>(rows.certify.references.size()) /
                                                               static_cast<double>(rows.fit.references.size());
  const double estimate = fit_states * scale;
  const int64_t states = estimate > 9e18 ? INT64_MAX : static_cast<int64_t>(estimate);
  if (states > options.max_states) {
    *notes += std::string(" The ") + RuleName(rule) + " family was left out (exact evaluation over " +
              std::to_string(states) + " states exceeds the budget).";
    return;
  }
  for (double alpha : FamilyLadder(rows.certify.num_trees, rows.certify.num_classes, options.alpha)) {
    HaltingTableOptions o;
    o.rule = rule;
    o.num_trees = rows.certify.num_trees;
    o.num_classes = rows.certify.num_classes;
    o.alpha = alpha;
    Result<HaltingTable> table = BuildHaltingTable(o, prior);
    const std::string name = std::string(RuleName(rule)) + " " + Format(alpha);
    Result<RiskCandidate> fit = table.ok()
                                    ? TableCandidate(table.value(), rows.fit_distinct, options.hard_reference, name)
                                    : Result<RiskCandidate>(table.status());
    if (!fit.ok()) {
      *notes += std::string(" The ") + RuleName(rule) + " family stopped at alpha " + Format(alpha) + ": " +
                fit.status().message + ".";
      return;
    }
    Result<RiskCandidate> certify =
        TableCandidate(table.value(), rows.certify_distinct, options.hard_reference, name);
    if (!certify.ok()) {
      // Kept in its place with loss 1 on every row: it fails its test and stops the sequence there,
      // which is always safe (only a rejection can be wrong) and keeps the order fixed.
      *notes += std::string(" The ") + RuleName(rule) + " candidate at alpha " + Format(alpha) +
                " could not be evaluated on the certify rows (" + certify.status().message + ").";
      RiskCandidate failed = fit.value();
      failed.loss.assign(rows.certify.references.size(), 1.0);
      failed.trees.assign(rows.certify.references.size(), static_cast<double>(rows.certify.num_trees));
      certify = std::move(failed);
    }
    Candidate c;
    c.strategy = RuleName(rule);
    c.parameter = table.value().alpha();
    c.table = std::move(table).value();
    c.fit = std::move(fit).value();
    c.certify = std::move(certify).value();
    candidates->push_back(std::move(c));
  }
}

// The candidates of the two-class LP, fitted on the fit rows' final counts.
void AddLpFamily(const SplitRows& rows, double alpha, std::vector<Candidate>* candidates, std::string* notes) {
  MinimeanProblem problem;
  problem.num_trees = rows.fit.num_trees;
  problem.final_count_weights = FinalCountWeights(rows.fit);
  for (double target : LpLadder(alpha)) {
    problem.max_disagreement = target;
    Result<BinaryStoppingStrategy> lp = SolveMinimean(problem);
    const std::string name = "lp " + Format(target);
    Result<RiskCandidate> fit = lp.ok() ? LpCandidate(lp.value(), rows.fit, name) : Result<RiskCandidate>(lp.status());
    Result<RiskCandidate> certify = fit.ok() ? LpCandidate(lp.value(), rows.certify, name) : fit;
    if (!certify.ok()) {
      *notes += " The lp family stopped at target " + Format(target) + ": " + certify.status().message + ".";
      return;
    }
    Candidate c;
    c.strategy = "lp";
    c.parameter = target;
    c.lp = std::move(lp).value();
    c.fit = std::move(fit).value();
    c.certify = std::move(certify).value();
    candidates->push_back(std::move(c));
  }
}

double MeanOf(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x;
  return v.empty() ? 0.0 : sum / static_cast<double>(v.size());
}

// The one fixed sequence: safest first by the mean loss on the fit rows, then by more mean trees on
// them, then by the order the candidates were made in. Reads no certify row.
void OrderOnFitRows(std::vector<Candidate>* candidates) {
  std::vector<std::pair<double, double>> key;
  for (const Candidate& c : *candidates) key.emplace_back(MeanOf(c.fit.loss), -MeanOf(c.fit.trees));
  std::vector<size_t> order(candidates->size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key[a] < key[b]; });
  std::vector<Candidate> sorted;
  for (size_t i : order) sorted.push_back(std::move((*candidates)[i]));
  *candidates = std::move(sorted);
}

// Mean trees of the exact exit of the hard vote (stop when the leader cannot be caught) on the
// certify rows; T when the reference is not the hard vote (the soft exact exit's trees depend on
// leaf values, not on the tally) or the evaluation fails.
double ExactExitTrees(const CalibrationRows& certify, const DistinctRows& distinct, bool hard_reference) {
  const double all = static_cast<double>(certify.num_trees);
  if (!hard_reference || certify.references.empty()) return all;
  HaltingTableOptions o;
  o.rule = HaltingRule::kAlpha1;
  o.num_trees = certify.num_trees;
  o.num_classes = certify.num_classes;
  Result<HaltingTable> table = BuildHaltingTable(o);
  if (!table.ok()) return all;
  Result<RiskCandidate> c = TableCandidate(table.value(), distinct, true, "alpha1");
  if (!c.ok()) return all;
  double sum = 0.0;
  for (double t : c.value().trees) sum += t;
  return sum / static_cast<double>(c.value().trees.size());
}

}  // namespace

std::string internal::FormatNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

Status CheckDelta(double delta) {
  if (delta > 0.0 && delta < 1.0) return Status::Ok();
  return Invalid("delta must be in (0, 1)");
}

std::vector<double> TableLadder(double alpha) {
  std::vector<double> out;
  const double eps = 1.0 - alpha;
  if (!(eps > 0.0)) return out;
  for (double m : {0.01, 0.03, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.85, 1.0, 1.25, 1.5, 2.0, 3.0, 5.0}) {
    const double a = std::max(0.5, 1.0 - m * eps);
    if (a < 1.0 && (out.empty() || a < out.back())) out.push_back(a);
  }
  return out;
}

std::vector<double> LpLadder(double alpha) {
  std::vector<double> out;
  const double eps = 1.0 - alpha;
  if (!(eps > 0.0)) return out;
  for (int m = 1; m <= 20; ++m) out.push_back(0.05 * m * eps);
  return out;
}

int64_t AutoRowsNeeded(double alpha, double delta) {
  if (!(alpha < 1.0)) return 0;
  return TotalRowsFor(CertifyRowsNeeded(1.0 - alpha, delta, kDefaultPValue));
}

double AutoMaxCertifiableAlpha(int64_t rows, double delta) {
  const int64_t certify = rows - (rows + 3) / 4;  // rows 0, 4, 8, ... fit
  if (certify < 1) return 0.0;
  return 1.0 - RiskUpperBoundOf(kDefaultPValue, std::vector<double>(static_cast<size_t>(certify), 0.0), delta);
}

Result<CertifiedStrategy> CertifyStrategy(const CalibrationRows& rows, const CertifyOptions& options) {
  if (Status s = CheckAlpha(options.alpha); !s.ok()) return s;
  if (Status s = CheckDelta(options.delta); !s.ok()) return s;
  if (Status s = CheckRows(rows); !s.ok()) return s;
  const CalibrationRows fit = Part(rows, true);
  const CalibrationRows certify = Part(rows, false);
  CertifiedStrategy out;
  Certificate& cert = out.certificate;
  cert.alpha = options.alpha;
  cert.delta = options.delta;
  cert.fit_rows = static_cast<int64_t>(fit.references.size());
  cert.certify_rows = static_cast<int64_t>(certify.references.size());
  const double eps = 1.0 - options.alpha;
  if (!(eps > 0.0)) {
    cert.reason = "alpha = 1 asks for no disagreement at all: only the exact exit guarantees it";
    return out;
  }
  // One sequence tested at the full delta: n certify rows that all have zero loss certify at best
  // 1 - delta^(1/n), so fewer rows cannot certify any strategy, whatever their votes.
  const int64_t needed = CertifyRowsNeeded(eps, options.delta, options.pvalue);
  if (cert.certify_rows < needed) {
    cert.rows_needed = TotalRowsFor(needed);
    cert.reason = "too few calibration rows: " + std::to_string(rows.references.size()) + " given, " +
                  std::to_string(*cert.rows_needed) + " needed (a quarter fit, the rest certify) to certify alpha " +
                  Format(options.alpha) + " at delta " + Format(options.delta) +
                  "; no distribution-free bound certifies it with fewer, even if no row ever disagreed";
    return out;
  }
  const SplitRows split{fit, certify, Distinct(fit), Distinct(certify)};
  std::vector<Candidate> candidates;
  std::string notes;
  AddTableFamily(HaltingRule::kSiba, nullptr, split, options, &candidates, &notes);
  Result<Prior> prior = PriorForRule(HaltingRule::kHyper, fit.tallies, fit.references, rows.num_classes,
                                     rows.num_trees);
  if (prior.ok()) {
    AddTableFamily(HaltingRule::kHyper, &prior.value(), split, options, &candidates, &notes);
  } else {
    notes += " The hyper family was left out (its prior: " + prior.status().message + ").";
  }
  if (rows.num_classes == 2 && rows.num_trees <= kMaxLpFamilyTrees) {
    AddLpFamily(split, options.alpha, &candidates, &notes);
  } else if (rows.num_classes > 2 && options.multi_class_lp) {
    internal::AddTallyLpFamily(split, options, &candidates, &notes);
  }
  if (candidates.empty()) {
    cert.reason = "no candidate strategy could be evaluated exactly on these rows." + notes;
    return out;
  }
  OrderOnFitRows(&candidates);
  std::vector<RiskCandidate> sequence;
  for (const Candidate& c : candidates) sequence.push_back(c.certify);
  Result<RiskCertificate> risk = CertifySequence(sequence, eps, options.delta, options.pvalue);
  if (!risk.ok()) return risk.status();
  const RiskCertificate& r = risk.value();
  cert.method = r.method + ", one fixed sequence of " + std::to_string(candidates.size()) +
                " candidates ordered on the fit rows, " + std::to_string(r.tested) + " tested";
  if (!r.certified) {
    cert.reason = "no strategy that saves trees had its disagreement bound below " + Format(eps) + " on " +
                  std::to_string(cert.certify_rows) + " certify rows (the rows' votes are too close to ties " +
                  "for this alpha; more rows or a lower alpha may certify)." + notes;
    return out;
  }
  if (r.mean_trees >= ExactExitTrees(certify, split.certify_distinct, options.hard_reference)) {
    cert.reason = "the certified strategies use no fewer trees than the exact exit";
    return out;
  }
  Candidate& chosen = candidates[static_cast<size_t>(r.index)];
  cert.certified = true;
  cert.bound = r.bound;
  cert.mean_trees = r.mean_trees;
  cert.strategy = chosen.strategy;
  cert.parameter = chosen.parameter;
  out.table = std::move(chosen.table);
  out.lp = std::move(chosen.lp);
  if (chosen.ladder != nullptr) {
    TallyStoppingStrategy tally;
    tally.first = chosen.ladder->Expand(chosen.ladder->Solve(chosen.multiplier));
    tally.multiplier = chosen.multiplier;
    tally.second = tally.first;
    tally.expected_trees = MeanOf(chosen.fit.trees);
    tally.expected_disagreement = MeanOf(chosen.fit.loss);
    out.tally_lp = std::move(tally);
  }
  return out;
}

}  // namespace urnforest
