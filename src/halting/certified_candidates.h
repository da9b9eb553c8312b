#pragma once
// Private: the candidates CertifyStrategy orders on the fit rows and tests on the certify rows
// (certified_halting.cpp), shared with the families made in their own files
// (certified_tally_family.cpp).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/certified_halting.h"
#include "urnforest/halting_table.h"
#include "urnforest/risk_certificate.h"
#include "urnforest/tally_lagrangian_ladder.h"

namespace urnforest::internal {

/// Distinct (tally, reference) pairs of some rows, and per row the index of its pair.
struct DistinctRows {
  std::vector<std::pair<std::vector<int32_t>, int32_t>> keys;
  std::vector<size_t> row_key;
};

/// The rows of the calibration set split once (fit: positions 0, 4, 8, ...; certify: the rest).
struct SplitRows {
  const CalibrationRows& fit;
  const CalibrationRows& certify;
  DistinctRows fit_distinct, certify_distinct;
};

/// One candidate strategy: how to run it, and its exact losses and trees on the fit rows (which
/// order the sequence) and on the certify rows (which certify it).
struct Candidate {
  std::string strategy;  // "siba", "hyper" or "lp"
  double parameter = 0.0;
  std::optional<HaltingTable> table;
  std::optional<BinaryStoppingStrategy> lp;
  /// K >= 3 "lp": `ladder`'s set at `multiplier` (solved again and expanded only when chosen).
  std::shared_ptr<const TallyLagrangianLadder> ladder;
  double multiplier = 0.0;
  RiskCandidate fit, certify;
};

/// The candidates of the LP over full tallies for three or more classes: one deterministic
/// Lagrangian set per multiplier of a geometric grid, solved on the fit rows. Each multiplier is
/// also solved on each half of the fit rows and measured on the other half (two-fold
/// cross-fitting): those honest per-row figures are the candidate's fit losses (which order the
/// sequence), and pick, for each target of LpLadder(alpha), the multiplier with the fewest
/// cross-fitted trees whose cross-fitted disagreement meets it (each once). Left out, with a
/// note, beyond kMaxTallyStoppingStates or options.max_states.
void AddTallyLpFamily(const SplitRows& rows, const CertifyOptions& options, std::vector<Candidate>* candidates,
                      std::string* notes);

/// x in the shortest form printf's %.6g gives (names and notes).
std::string FormatNumber(double x);

}  // namespace urnforest::internal
