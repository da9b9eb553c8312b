#pragma once
// Requests in, answers out: what a caller asks of a prediction (PredictRequest), the one check of
// it (CheckPredictRequest), and the one call that chooses the path and returns the whole answer
// (Predict). Every front end (CLI, wasm bindings, through them the JS API and its worker) predicts
// through these calls; none of them decides which path a request takes, refuses a request on its
// own or computes a figure of the answer.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "urnforest/alpha.h"
#include "urnforest/certified_halting.h"
#include "urnforest/forest.h"
#include "urnforest/halting_rule.h"
#include "urnforest/halting_table.h"
#include "urnforest/imported_model.h"
#include "urnforest/predict.h"
#include "urnforest/prior.h"
#include "urnforest/sequential_vote.h"
#include "urnforest/status.h"

namespace urnforest {

/// The rule name of the calibrated margin rule (urnforest/margin_rule.h), which is not a table rule.
inline constexpr const char* kMarginRuleName = "margin";
/// The rule name of certified halting (CertifyForest): the strategy with the fewest trees whose
/// disagreement is certified <= 1 - alpha, or the exact exit; the answer carries the certificate.
inline constexpr const char* kAutoRuleName = "auto";
/// The rule name of [KM26]'s two-class minimean strategy at target disagreement 1 - alpha
/// (ForestMinimean).
inline constexpr const char* kLpRuleName = "lp";
/// The rule name of the two-class minimean strategy stratified by a surrogate of the final vote
/// (ForestStratified, urnforest/forest_stratified.h): it reads the row's features as well as its
/// votes; target disagreement 1 - alpha over rows like the calibration rows.
inline constexpr const char* kStratifiedRuleName = "stratified";

/// Rule "lp"'s objective ([KM26]'s names). kMinimean: the fewest expected trees with the expected
/// disagreement over rows like the calibration rows <= 1 - alpha (ForestMinimean,
/// ForestTallyMinimean). kMinimax: the fewest expected trees with the disagreement <= 1 - alpha
/// for every final tally, whatever the row (two classes; ForestMinimax, urnforest/minimax_stopping.h).
enum class LpObjective : uint8_t { kMinimean = 0, kMinimax = 1 };

/// "minimean", "minimax"; ParseLpObjective fails with kInvalidArgument naming both.
const char* LpObjectiveName(LpObjective objective);
Result<LpObjective> ParseLpObjective(const std::string& name);

/// What a caller asks of a prediction. Unset optionals take the defaults their comments name.
struct PredictRequest {
  /// "" = the full prediction (no halting) unless alpha or delta is set, then "auto" (halting
  /// asked for without naming a rule gets the certified rule); a halting rule name (RuleNames());
  /// "margin", "lp", "stratified" or "auto".
  std::string rule;
  /// Target confidence of a rule, in (0, 1]; unset = kDefaultAlpha. Without a rule: rule "auto".
  std::optional<double> alpha;
  /// Rule "auto": the probability, in (0, 1), that its certificate is wrong; unset =
  /// kDefaultDelta. Only with rule "auto" (without a rule: rule "auto").
  std::optional<double> delta;
  /// Rule "lp": its objective; unset = kMinimean. Only with rule "lp"; kMinimax needs two classes.
  std::optional<LpObjective> objective;
  /// Query order of a table rule; unset = DefaultQueryOrder(forest). kFixed needs fixed_order.
  /// Needs a table rule, "auto" or "lp" (their default: kRandomPerRow; random or generation).
  std::optional<QueryOrder> order;
  /// Seed of QueryOrder::kRandomPerRow; unset = 1. Needs a rule, and not a fixed order.
  std::optional<uint64_t> seed;
  /// The tree ids a fixed order queries (distinct, in [0, T)); only with order kFixed.
  std::vector<int32_t> fixed_order;
  /// Trees queried by a table rule, 1..forest trees; unset = all (a fixed order: its length,
  /// which `trees`, when set, must equal). Needs a table rule.
  std::optional<int32_t> trees;
  /// The vote of an imported model; unset = the model's own (ImportedModel::default_vote). A
  /// forest trained here combines its trees as it was trained to whatever the kind (its leaves
  /// hold one class each, so its soft vote is its hard vote).
  std::optional<VoteKind> vote;
  /// With a rule: also the full prediction the halted answer is compared with (full labels, full
  /// votes, disagreement). Needs a rule. A fixed order always compares (with its trees' vote).
  bool compare = false;
  /// Also each row's class probabilities (Prediction::probabilities; see ClassProbabilities).
  bool probabilities = false;
  /// How a large batch is spread over threads (the answer does not depend on it).
  PredictExecution execution;
  /// The index of the first of `rows` in a larger batch this call predicts a part of: row r draws
  /// the random streams of row first_row + r (QueryOrder::kRandomPerRow, the stopping strategies'
  /// mixing), so that a batch predicted in contiguous parts, each with its offset, answers as the
  /// whole batch in one call. Unset = 0. Needs a rule; ignored where no random stream is drawn.
  std::optional<uint64_t> first_row;
};

/// What kind of mistake a refused request is, for front ends whose errors distinguish them (JS
/// RangeError / TypeError / UrnforestError); the Status code is kInvalidArgument for all three.
enum class RequestFault : uint8_t {
  kNone = 0,
  kOutOfRange = 1,  ///< A value outside its range (alpha, trees, a fixed order's length).
  kMisplaced = 2,   ///< An option that does not apply (compare or alpha without a rule, ...).
  kModel = 3,       ///< A request this model cannot serve (margin on a model not calibrated, ...).
};

/// kOk when `forest` can serve `request`, else kInvalidArgument with the message a user reads
/// (and, when `fault` is given, what kind of mistake it is). The one place every refusal of a
/// prediction is decided: an unknown rule; alpha outside (0, 1] (CheckAlpha); alpha, order, seed,
/// compare, trees or first_row without a rule (the message names the first); order, trees or a fixed order
/// with the margin rule or a soft exact exit; a fixed order without ids, ids without order kFixed,
/// trees other than the fixed order's length, a seed with a fixed order; trees outside 1..T;
/// the margin rule on a model that is not an imported voting forest, asked for the hard vote, or
/// not calibrated; an additive model (its trees do not vote) with a rule other than alpha1 on
/// its soft prediction, or asked for the hard vote; a forest without trees; delta outside (0, 1)
/// (CheckDelta) or with a rule other than "auto"; trees, a fixed order or probabilities with
/// "auto" or "lp"; "lp" on two classes and more than kMaxBinaryStoppingTrees trees, or an
/// imported forest not calibrated; "lp" on three or more classes whose full-tally lattice exceeds
/// kMaxTallyStoppingStates (kLimitExceeded, e.g. K >= 5 at T = 101).
Status CheckPredictRequest(const Forest& forest, const PredictRequest& request,
                           RequestFault* fault = nullptr);

/// The path a request takes, as Predict chooses it.
enum class PredictPath : uint8_t {
  kFullVote = 0,      ///< All trees' votes, plurality (forests trained here, imported hard vote).
  kWeightedVote = 1,  ///< All trees, each vote weighted by its tree's weight (AdaBoost).
  kSoftScores = 2,    ///< An imported model's own prediction from its summed leaf values.
  kTableRule = 3,     ///< A halting table's rule on the trees' votes (sequential voting).
  kExactExit = 4,     ///< An imported model's soft prediction, stopped once it cannot change.
  kMargin = 5,        ///< The calibrated margin rule on an imported voting model's soft vote.
  kLp = 6,            ///< [KM26]'s minimean strategy (ForestMinimean; ForestTallyMinimean for K > 2).
  kCertified = 7,     ///< Rule "auto": the certified strategy (CertifyForest) or the exact exit.
  kStratified = 8,    ///< Rule "stratified": minimean per surrogate bucket (ForestStratified).
};

/// "full", "weighted", "soft", "table", "exact", "margin", "lp", "auto", "stratified".
const char* PredictPathName(PredictPath path);

/// Where the halting table of a table rule came from.
enum class TableSource : uint8_t {
  kNone = 0,    ///< No table (not a table rule).
  kBuilt = 1,   ///< Built for this call from the forest's prior.
  kStored = 2,  ///< A copy of a table stored with the model (Forest::FindStoredTable).
  kCached = 3,  ///< Given by the caller, who keeps tables across calls.
};

/// "none", "built", "stored", "cached".
const char* TableSourceName(TableSource source);

/// A request checked against one forest, with every default resolved and the path chosen: what
/// Predict runs. Cheap to copy except for a fixed order's ids.
struct PredictPlan {
  PredictPath path = PredictPath::kFullVote;
  VoteKind vote = VoteKind::kHard;  ///< The vote used (resolved).
  HaltingRule rule = HaltingRule::kAlpha1;  ///< kTableRule: the table's rule.
  double alpha = kDefaultAlpha;
  double delta = kDefaultDelta;  ///< kCertified: the certificate's delta.
  LpObjective objective = LpObjective::kMinimean;  ///< kLp: its objective.
  int32_t trees = 0;  ///< Trees a rule queries (T of the table; the forest's trees otherwise).
  SequentialVoteOptions order;  ///< kTableRule, kLp, kCertified: query order, seed, fixed order.
  bool compare = false;
  bool probabilities = false;
  PredictExecution execution;
  /// kTableRule without compare or probabilities: the answer is the halted arrays and the mean
  /// trees only, which PredictHaltedInto can write into caller-owned arrays.
  bool InPlace() const {
    return path == PredictPath::kTableRule && !compare && !probabilities;
  }
};

/// The rule `plan` runs, as the front ends print it: "" for the full prediction (paths full,
/// weighted, soft), the table's rule for a table rule and the exact exit ("alpha1"), "margin",
/// "lp", or "auto" (also when the request named no rule but an alpha or a delta).
const char* PlannedRuleName(const PredictPlan& plan);

/// CheckPredictRequest, then the plan: the path (no rule: kSoftScores for an imported model's
/// soft vote, kWeightedVote for a forest with tree weights, else kFullVote; "margin": kMargin;
/// alpha1 on an imported model's soft vote: kExactExit; "lp": kLp; "auto": kCertified; any other
/// rule: kTableRule), the vote,
/// alpha, T and the query order resolved.
Result<PredictPlan> PlanPredict(const Forest& forest, const PredictRequest& request,
                                RequestFault* fault = nullptr);

/// A halting table the caller keeps across calls (borrowed for one Predict call).
struct GivenTable {
  const HaltingTable* table = nullptr;  ///< The plan's rule, alpha and T.
  /// The prior the table was built for (probabilities); null = PriorForForest(forest, rule, T).
  const Prior* prior = nullptr;
};

/// The whole answer of a prediction: n rows, k classes, row-major per-class arrays.
struct Prediction {
  PredictPath path = PredictPath::kFullVote;
  VoteKind vote = VoteKind::kHard;
  /// Per row: the answer. The full paths: argmax of `probabilities` (ties to the lowest class;
  /// for a binary imported model stored with one score, ONNX Runtime's threshold, see
  /// PredictScoresRows). The halted paths: the halted answer.
  std::vector<int32_t> labels;
  /// The full paths: the trees' hard votes, n x k (empty for an additive model).
  std::vector<uint32_t> votes;
  /// kWeightedVote: each class's summed tree weights, n x k (WeightedVote::scores); else empty.
  std::vector<double> scores;
  /// With PredictRequest::probabilities: n x k, each row summing to 1 (ClassProbabilities).
  std::vector<double> probabilities;
  /// The halted paths: per row the trees queried (1..T), the confidence at the stop (table rules:
  /// HaltingTable::Confidence; exact exit 1; margin alpha), 1 when the row stopped before T.
  std::vector<int32_t> trees_used;
  std::vector<double> confidence;
  std::vector<uint8_t> halted_early;
  /// kTableRule: the votes each row drew, n x k (SequentialVoteResult::tallies).
  std::vector<int32_t> tallies;
  /// With compare: the full prediction the halted answer is compared with (an imported model's
  /// soft vote: its soft labels; else the plurality of the T queried trees) and the trees' hard
  /// votes (n x k; empty for an additive model).
  std::vector<int32_t> full_labels;
  std::vector<uint32_t> full_votes;
  /// With compare: the fraction of rows whose label differs from full_labels (0 for no rows);
  /// else NaN.
  double disagreement = 0.0;
  double mean_trees = 0.0;  ///< The halted paths: mean of trees_used (0 for no rows).
  int32_t trees = 0;        ///< T: trees a rule queries, else the forest's trees.
  double lambda = 0.0;      ///< kMargin: the threshold used (+inf: exact exit only); else NaN.
  TableSource table_source = TableSource::kNone;
  double table_ms = 0.0;  ///< kTableRule: milliseconds spent building or copying the table.
  /// kCertified: what was certified and the strategy used (CertifyForest); else unset.
  std::optional<Certificate> certificate;
  /// True for the halted paths (kTableRule, kExactExit, kMargin, kLp, kCertified).
  bool Halted() const;
};

/// The answer to `plan` (PlanPredict for this forest) on `rows` (prepared for it:
/// PreparedRows::Fits, else kInvalidArgument). A table rule reads `given` when not null, else
/// the forest's stored table or one built from its prior (BuildForestTable). Fails like the
/// path's core call (PredictHalted, PredictSoftExact, PredictSoftMargin, PredictScoresRows,
/// HaltedVoteShares).
Result<Prediction> Predict(const Forest& forest, const PreparedRows& rows, const PredictPlan& plan,
                           const GivenTable* given = nullptr);

/// PlanPredict, then Predict.
Result<Prediction> Predict(const Forest& forest, const PreparedRows& rows,
                           const PredictRequest& request, const GivenTable* given = nullptr);

/// The one meaning of a full prediction's class probabilities, per model kind (docs/api.md,
/// "Probabilities"): a forest trained here with tree weights (AdaBoost): its normalised weighted
/// vote, scores[c] / sum of scores; other forests trained here and an imported model's hard
/// vote: votes[c] / T; an imported model's soft vote: the source library's scores. `labels` is
/// argmax of the probabilities with ties to the lowest class (an imported soft vote: the
/// source's rule, PredictScoresRows). n rows in the forest's layout (borrowed).
struct ClassProbabilities {
  std::vector<int32_t> labels;
  std::vector<double> probabilities;  ///< n x k
  std::vector<uint32_t> votes;        ///< n x k hard votes (empty for an additive model)
  std::vector<double> scores;         ///< n x k weighted scores (tree weights only), else empty
};
Result<ClassProbabilities> PredictClassProbabilities(const Forest& forest, const float* rows,
                                                     size_t num_rows, VoteKind vote,
                                                     const PredictExecution& execution = {});

}  // namespace urnforest
