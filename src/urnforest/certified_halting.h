#pragma once
// Certified halting: the stopping strategy with the fewest expected trees whose disagreement with
// the full vote is certified <= 1 - alpha with probability >= 1 - delta over the draw of the
// calibration rows (rule "auto"), and [KM26]'s two-class minimean strategy (rule "lp").
//
// Calibration rows are rows whose every tree's vote is known (CalibrateForest stores them): row r
// has a final tally F_r (K counts summing to T) and a reference label (the full prediction the
// halted answer is compared with). Under a uniformly random query order, a strategy's probability
// of answering other than the reference and its expected trees are exact functions of (F_r,
// reference): ExactCostForFinalTally for a table rule, ExactBinaryOutcomes for the two-class LP,
// TallyLagrangianLadder::ReachOutcomes (= ExactTallyOutcomes) for the LP over full tallies. These
// numbers in [0, 1] are the losses Learn-then-Test (urnforest/risk_certificate.h) bounds.
//
// Split (validity): whatever is fitted from rows (the hyper prior of the hyper tables, the final
// count distribution of the LP) and the order in which candidates are tested are computed from the
// fit rows, positions 0, 4, 8, ... of the calibration order (a quarter); the certificate is
// computed on the other three quarters (the certify rows) only, along one fixed sequence at the
// full delta. The argument is in docs/halting.md, "Certified halting".
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/halting_table.h"
#include "urnforest/imported_model.h"
#include "urnforest/risk_certificate.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"
#include "urnforest/tally_stopping.h"

namespace urnforest {

class Forest;

/// The confidence delta of a certificate when the caller names none (CLI --delta, JS `delta`).
inline constexpr double kDefaultDelta = 0.05;

/// kInvalidArgument "delta must be in (0, 1)" unless 0 < delta < 1 (NaN fails). The one range
/// check of delta.
Status CheckDelta(double delta);

/// What a certificate says (CLI "certificate" object, JS answer.certificate).
struct Certificate {
  /// The strategy the answer uses: "siba" or "hyper" (a halting table at an internal confidence),
  /// "lp" (the minimean strategy at a target disagreement: the two-class LP, or for three or more
  /// classes a Lagrangian set over the full tallies meeting it on the fit rows) or "exact" (the exact exit:
  /// every answer equals the full prediction).
  std::string strategy = "exact";
  /// The strategy's parameter: a table's internal alpha, the LP's target disagreement; 1 for
  /// "exact".
  double parameter = 1.0;
  /// True when a strategy that saves trees was certified (then `bound` <= 1 - alpha).
  bool certified = false;
  /// Upper confidence bound (level 1 - delta) on the chosen strategy's mean
  /// disagreement with the full prediction on future rows; 0 for "exact" (it never disagrees).
  double bound = 0.0;
  double alpha = 0.99;  ///< The confidence asked for: disagreement <= 1 - alpha.
  double delta = kDefaultDelta;  ///< The probability the certificate may be wrong.
  int64_t fit_rows = 0;      ///< Calibration rows the priors and the LP were fitted on.
  int64_t certify_rows = 0;  ///< Calibration rows the bound was computed on.
  /// Why nothing that saves trees was certified; empty when certified.
  std::string reason;
  /// When not certified for lack of rows: the calibration rows (fit and certify together) with
  /// which a strategy that never disagreed on them would be certified; unset otherwise.
  std::optional<int64_t> rows_needed;
  /// Mean expected trees of the chosen strategy on the certify rows (0 for "exact" and when there
  /// are no certify rows). Not part of the front ends' certificate object.
  double mean_trees = 0.0;
  /// How the bound was made: the p-value and the testing scheme (e.g. "hoeffding-bentkus, one
  /// fixed sequence of 56 candidates ordered on the fit rows, 31 tested"); empty when no test ran.
  /// The front ends carry it (CLI "method", JS `method`).
  std::string method;
};

/// The strategy a certificate chose, ready to run.
struct CertifiedStrategy {
  Certificate certificate;
  /// "siba" / "hyper": the table at certificate.parameter for T trees and K classes.
  std::optional<HaltingTable> table;
  /// "lp" for two classes: the randomised stopping strategy.
  std::optional<BinaryStoppingStrategy> lp;
  /// "lp" for three or more classes: a deterministic set over the full tallies (`first` and
  /// `second` equal, first_share 1; expected_* over the fit rows), run by PredictTallyStopping.
  std::optional<TallyStoppingStrategy> tally_lp;
};

/// Calibration rows as the certificate reads them.
struct CalibrationRows {
  int32_t num_classes = 2;  ///< K >= 2.
  int32_t num_trees = 1;    ///< T >= 1: every tally sums to T.
  /// Row-major final tallies, tallies[r * K + c].
  std::vector<uint32_t> tallies;
  /// Per row, the reference label in [0, K): the full hard vote (plurality, ties to the lowest
  /// class) or an imported model's own prediction.
  std::vector<int32_t> references;
};

/// The p-value rule auto tests with, chosen by measurement (docs/halting.md, "Certified halting").
inline constexpr PValueMethod kDefaultPValue = PValueMethod::kBetting;

/// What to certify.
struct CertifyOptions {
  double alpha = 0.99;             ///< In (0, 1].
  double delta = kDefaultDelta;    ///< In (0, 1).
  /// True when every reference equals the plurality of its tally (the hard vote); false for an
  /// imported model's own prediction (then a K > 2 row whose reference differs from its plurality
  /// counts loss 1, an upper bound).
  bool hard_reference = true;
  /// Work budget: the largest number of lattice states summed over the distinct certify tallies
  /// of one table candidate; families beyond it are left out (and the certificate says so).
  int64_t max_states = 20'000'000;
  /// The p-value of the certificate's tests (urnforest/risk_certificate.h).
  PValueMethod pvalue = kDefaultPValue;
  /// For three or more classes: false leaves the LP candidates over full tallies out (as before
  /// they were added; bench/certified_multiclass.cpp measures with and without them).
  bool multi_class_lp = true;
};

/// Internal alphas of the table candidates for target disagreement epsilon = 1 - alpha: 1 - m
/// epsilon for m in {0.01, 0.03, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.85, 1, 1.25, 1.5, 2, 3, 5}
/// (kept in [0.5, 1), duplicates dropped). Empty for alpha = 1. Where a full table of T trees and
/// K classes has more than 10^6 tallies (C(T + K, K), e.g. K = 4 at T = 101), CertifyStrategy makes
/// every third rung from the second (m = 0.03, 0.3, 0.6, 1, 2) to bound its work.
std::vector<double> TableLadder(double alpha);

/// Target disagreements of the LP candidates: m epsilon for m in {0.05, 0.1, ..., 1} (20 rungs).
/// Empty for alpha = 1.
std::vector<double> LpLadder(double alpha);

/// The fewest calibration rows (fit and certify together) with which CertifyStrategy, with its
/// default p-value, can certify alpha at delta: with fewer it answers with the exact exit whatever
/// the rows (its rows_needed). 0 for alpha >= 1 (no number of rows certifies zero disagreement).
/// alpha in (0, 1], delta in (0, 1).
int64_t AutoRowsNeeded(double alpha, double delta);

/// The largest alpha CertifyStrategy can certify at delta from `rows` calibration rows (a quarter
/// fit, the rest certify), reached only when no certify row ever disagrees; 0 for fewer than two
/// rows. delta in (0, 1).
double AutoMaxCertifiableAlpha(int64_t rows, double delta);

/// The certified strategy for `rows` (see the file comment). Candidates: "siba" and "hyper" tables
/// at TableLadder; for two classes and T <= 301, "lp" at LpLadder; for three or more classes with
/// C(T + K, K) <= kMaxTallyStoppingStates, "lp" sets over the full tallies, one per multiplier
/// of a grid, the fewest fit-row trees meeting each LpLadder target on the fit rows
/// (urnforest/tally_lagrangian_ladder.h; beyond that limit, or the work budget, left out with a
/// note); each evaluated exactly on
/// the fit and the certify rows. They form ONE sequence ordered by their mean loss on the fit rows
/// (safest first; ties: more trees first), tested on the certify rows at the full delta and
/// stopped at the first failure (CertifySequence); the certified candidate with the fewest mean
/// trees on the certify rows wins. Nothing certified (too few rows for any bound, no candidate
/// below the target, none saving trees over the exact exit): the exact exit, with the reason and,
/// when rows are lacking, rows_needed. kInvalidArgument for alpha, delta or malformed rows (sizes,
/// a tally not summing to T, a reference out of range).
Result<CertifiedStrategy> CertifyStrategy(const CalibrationRows& rows, const CertifyOptions& options);

/// The calibration rows of `forest` for the vote `vote` (CalibrateForest): an imported voting
/// forest's, references its own prediction when `vote` is its default vote and the plurality for
/// the hard vote; a forest trained here's (Forest::calibration_votes(), all T trees), references
/// the plurality. Fails with kInvalidArgument, the message saying what is missing: a forest
/// trained here without calibration rows (its out-of-bag tallies count only the trees that did not
/// see a row, so no row's full-forest loss is known: the message says to calibrate), an imported
/// forest not calibrated, an additive model, or the soft vote of a model whose calibration stored
/// its hard prediction.
Result<CalibrationRows> ForestCalibrationRows(const Forest& forest, VoteKind vote);

/// CertifyStrategy on ForestCalibrationRows(forest, vote), cached per (calibration rows, alpha,
/// delta, vote) process-wide (a bounded cache, thread-safe; the same rows give the same strategy;
/// a hit compares the forest's stored votes in place and copies nothing). The strategy is shared
/// (immutable) with the cache.
/// When the forest has no usable calibration rows, or `order` is not random (the certificate
/// holds for the random query order only), the exact exit with the reason. Fails only like
/// CertifyStrategy on malformed input.
Result<std::shared_ptr<const CertifiedStrategy>> CertifyForest(const Forest& forest, double alpha, double delta,
                                                                VoteKind vote, QueryOrder order);

/// [KM26]'s minimean strategy at target disagreement 1 - alpha for a two-class forest, solved
/// once per (rows, alpha) and cached like CertifyForest: from an imported forest's calibration
/// rows; for a forest trained here, from its calibration rows when it has them (real all-tree
/// tallies), else its out-of-bag tallies rescaled to T (RescaledOobTallies). Fails
/// with kInvalidArgument for more than two classes, a forest without calibration or out-of-bag
/// rows, or T > kMaxBinaryStoppingTrees.
Result<std::shared_ptr<const BinaryStoppingStrategy>> ForestMinimean(const Forest& forest, double alpha);

}  // namespace urnforest
