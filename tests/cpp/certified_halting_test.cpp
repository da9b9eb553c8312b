#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "model/predict_stopping.h"
#include "urnforest/calibrate.h"
#include "urnforest/certified_halting.h"
#include "urnforest/csv_reader.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest_halting.h"
#include "urnforest/full_vote.h"
#include "urnforest/predict.h"
#include "urnforest/predict_request.h"
#include "urnforest/risk_certificate.h"
#include "urnforest/tally_stopping.h"
#include "urnforest/train.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

using test::ImportFixture;
using test::MustOk;

Dataset LoadDataset(const std::string& file) {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/" + file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return MustOk(ReadCsv(text.str()));
}

std::vector<size_t> RowsWithRemainder(size_t n, size_t modulus, size_t remainder) {
  std::vector<size_t> rows;
  for (size_t r = remainder; r < n; r += modulus) rows.push_back(r);
  return rows;
}

// Rows `rows` of `data` in `forest`'s layout, by column position (an imported model's features
// are named by its file, not by the CSV).
PreparedRows RowsByPosition(const Forest& forest, const Dataset& data, const std::vector<size_t>& rows) {
  PreparedRows out;
  const size_t m = static_cast<size_t>(forest.num_features());
  for (size_t r : rows) {
    for (size_t f = 0; f < m; ++f) out.values.push_back(data.column(f)[r]);
  }
  out.num_rows = rows.size();
  out.without_nan = RowsWithoutNaN(out.values.data(), out.num_rows, m);
  out.layout = forest.schema().features;
  return out;
}

// Calibration rows from the full votes of `forest` on `data` (references: the plurality).
CalibrationRows FullVoteRows(const Forest& forest, const Dataset& data) {
  const FullVote full = MustOk(PredictFull(forest, data));
  CalibrationRows rows;
  rows.num_classes = forest.num_classes();
  rows.num_trees = forest.num_trees();
  rows.tallies = full.votes;
  rows.references = full.labels;
  return rows;
}

// Every distinct order of a final tally's votes is equally likely under a random order of the
// trees; visits each with the votes in sequence.
template <typename Visit>
void EveryOrder(std::vector<int32_t> left, std::vector<int32_t>* sequence, size_t total, const Visit& visit) {
  if (sequence->size() == total) {
    visit(*sequence);
    return;
  }
  for (size_t c = 0; c < left.size(); ++c) {
    if (left[c] == 0) continue;
    --left[c];
    sequence->push_back(static_cast<int32_t>(c));
    EveryOrder(left, sequence, total, visit);
    sequence->pop_back();
    ++left[c];
  }
}

// Brute force: the probability, over every order of the tally's votes, that sequential voting with
// `table` answers other than `reference`.
double BruteForceLoss(const HaltingTable& table, const std::vector<int32_t>& tally, int32_t reference) {
  double orders = 0.0, wrong = 0.0;
  std::vector<int32_t> sequence;
  EveryOrder(tally, &sequence, static_cast<size_t>(table.num_trees()), [&](const std::vector<int32_t>& votes) {
    std::vector<int32_t> seen(tally.size(), 0);
    int32_t answer = -1;
    for (int32_t v : votes) {
      ++seen[static_cast<size_t>(v)];
      if (table.Halts(seen.data())) {
        answer = table.Leader(seen.data());
        break;
      }
    }
    if (answer < 0) answer = Plurality(seen);
    orders += 1.0;
    wrong += answer != reference ? 1.0 : 0.0;
  });
  return wrong / orders;
}

// Brute force for a stopping set over full tallies: the probability, over every order of the
// tally's votes, that stopping where `set` says answers other than `reference`.
double BruteForceTallyLoss(const TallyStoppingSet& set, const std::vector<int32_t>& tally, int32_t reference) {
  const TallyLattice lattice = MustOk(TallyLattice::Make(set.num_trees, set.num_classes));
  double orders = 0.0, wrong = 0.0;
  std::vector<int32_t> sequence;
  EveryOrder(tally, &sequence, static_cast<size_t>(set.num_trees), [&](const std::vector<int32_t>& votes) {
    std::vector<int32_t> seen(tally.size(), 0);
    int32_t i = 0;
    while (!set.stop[static_cast<size_t>(lattice.Index(seen.data(), i))]) ++seen[static_cast<size_t>(votes[i++])];
    orders += 1.0;
    wrong += TallyLeader(seen.data(), set.num_classes) != reference ? 1.0 : 0.0;
  });
  return wrong / orders;
}

// `copies` rows of each of `tallies` (K counts each), references: the plurality, in an interleaved
// order.
CalibrationRows Repeated(const std::vector<std::vector<uint32_t>>& tallies, int copies, int32_t trees) {
  CalibrationRows rows;
  rows.num_classes = static_cast<int32_t>(tallies[0].size());
  rows.num_trees = trees;
  for (int i = 0; i < copies; ++i) {
    for (const std::vector<uint32_t>& t : tallies) {
      rows.tallies.insert(rows.tallies.end(), t.begin(), t.end());
      rows.references.push_back(Plurality(t));
    }
  }
  return rows;
}

TEST_CASE("The certificate's bound is the bound at the full delta of the brute-force losses of the certify rows", "[certified]") {
  for (int32_t classes : {2, 3}) {
    CAPTURE(classes);
    const std::vector<std::vector<uint32_t>> kinds =
        classes == 2 ? std::vector<std::vector<uint32_t>>{{6, 0}, {0, 6}, {5, 1}, {1, 5}, {4, 2}}
                     : std::vector<std::vector<uint32_t>>{{6, 0, 0}, {0, 6, 0}, {0, 0, 6}, {5, 1, 0}, {2, 3, 1}};
    const CalibrationRows rows = Repeated(kinds, 60, 6);
    CertifyOptions options;
    options.alpha = 0.9;
    const CertifiedStrategy s = MustOk(CertifyStrategy(rows, options));
    REQUIRE(s.certificate.certified);
    CHECK(s.certificate.fit_rows == 75);       // positions 0, 4, 8, ...
    CHECK(s.certificate.certify_rows == 225);  // the other three quarters
    CHECK(s.certificate.bound <= 0.1);
    CHECK(s.certificate.reason.empty());
    CHECK_FALSE(s.certificate.rows_needed.has_value());
    if (!s.table.has_value() && !s.tally_lp.has_value()) continue;  // the two-class LP: the binary test below
    std::vector<double> losses;  // the certify rows', in calibration order
    for (size_t r = 0; r < rows.references.size(); ++r) {
      if (r % 4 == 0) continue;  // a fit row
      const std::vector<int32_t> tally(rows.tallies.begin() + r * classes, rows.tallies.begin() + (r + 1) * classes);
      losses.push_back(s.table.has_value() ? BruteForceLoss(*s.table, tally, rows.references[r])
                                           : BruteForceTallyLoss(s.tally_lp->first, tally, rows.references[r]));
    }
    REQUIRE(losses.size() == 225);
    CHECK(s.certificate.bound ==
          Approx(std::min(0.1, RiskUpperBoundOf(options.pvalue, losses, 0.05))).margin(1e-9));
    CHECK(RiskPValue(options.pvalue, losses, 0.1, 0.05) <= 0.05);
  }
}

TEST_CASE("Exact table losses equal the average over every vote order for every tally of small forests", "[certified]") {
  for (int32_t classes : {2, 3}) {
    for (int32_t trees : {3, 5, 6}) {
      HaltingTableOptions o;
      o.rule = HaltingRule::kSiba;
      o.num_trees = trees;
      o.num_classes = classes;
      o.alpha = 0.8;
      const HaltingTable table = MustOk(BuildHaltingTable(o));
      for (int32_t a = 0; a <= trees; ++a) {
        for (int32_t b = 0; a + b <= trees; ++b) {
          std::vector<int32_t> tally = classes == 2 ? std::vector<int32_t>{a, trees - a}
                                                    : std::vector<int32_t>{a, b, trees - a - b};
          if (classes == 2 && b > 0) break;
          CAPTURE(classes, trees, tally);
          const CostEstimate exact = MustOk(ExactCostForFinalTally(table, tally));
          CHECK(exact.disagreement == Approx(BruteForceLoss(table, tally, Plurality(tally))).margin(1e-12));
        }
      }
    }
  }
}

TEST_CASE("Auto never certifies on one row or on ten identical rows at alpha 0.99", "[certified]") {
  CertifyOptions options;
  options.alpha = 0.99;
  const CertifiedStrategy one = MustOk(CertifyStrategy(Repeated({{101, 0}}, 1, 101), options));
  CHECK_FALSE(one.certificate.certified);
  CHECK(one.certificate.strategy == "exact");
  CHECK(one.certificate.certify_rows == 0);
  CHECK_FALSE(one.certificate.reason.empty());
  REQUIRE(one.certificate.rows_needed.has_value());
  CHECK(*one.certificate.rows_needed >= 399);  // the Hoeffding-Bentkus limit, 299 certify rows, and the fit quarter
  const CertifiedStrategy ten = MustOk(CertifyStrategy(Repeated({{101, 0}}, 10, 101), options));
  CHECK_FALSE(ten.certificate.certified);
  CHECK(ten.certificate.strategy == "exact");
  CHECK(ten.certificate.fit_rows == 3);
  CHECK(ten.certificate.certify_rows == 7);
  CHECK(ten.certificate.rows_needed == one.certificate.rows_needed);
}

// The first `n` rows of `rows`.
CalibrationRows FirstRows(CalibrationRows rows, size_t n) {
  rows.tallies.resize(n * static_cast<size_t>(rows.num_classes));
  rows.references.resize(n);
  return rows;
}

TEST_CASE("Rows needed are the fewest with which a strategy that never disagreed is certified", "[certified]") {
  for (PValueMethod method : {PValueMethod::kHoeffdingBentkus, PValueMethod::kBetting, PValueMethod::kCombined}) {
    for (double alpha : {0.95, 0.99}) {
      CAPTURE(PValueMethodName(method), alpha);
      CertifyOptions options;
      options.alpha = alpha;
      options.pvalue = method;
      const CalibrationRows plenty = Repeated({{21, 0}, {0, 21}}, 400, 21);
      const CertifiedStrategy few = MustOk(CertifyStrategy(FirstRows(plenty, 6), options));
      REQUIRE(few.certificate.rows_needed.has_value());
      const int64_t needed = *few.certificate.rows_needed;
      // Three quarters of them certify; no p-value beats Hoeffding-Bentkus on zero losses, where
      // (1 - eps)^n <= delta needs n >= log(delta) / log(1 - eps).
      const double certify = std::ceil(std::log(0.05) / std::log(1.0 - (1.0 - alpha)));
      const int64_t limit = static_cast<int64_t>(std::ceil(4.0 * certify / 3.0));
      if (method == PValueMethod::kHoeffdingBentkus) CHECK(needed == limit);
      CHECK(needed >= limit);
      const CertifiedStrategy enough = MustOk(CertifyStrategy(FirstRows(plenty, static_cast<size_t>(needed)), options));
      CHECK(enough.certificate.certified);
      const CertifiedStrategy short_by_one =
          MustOk(CertifyStrategy(FirstRows(plenty, static_cast<size_t>(needed) - 1), options));
      CHECK_FALSE(short_by_one.certificate.certified);
      CHECK(short_by_one.certificate.rows_needed == needed);
    }
  }
}

TEST_CASE("Alpha 0.999 with 1,000 calibration rows cannot be certified and says it needs about 4,000 or more", "[certified]") {
  CertifyOptions options;
  options.alpha = 0.999;
  const CertifiedStrategy s = MustOk(CertifyStrategy(Repeated({{101, 0}, {0, 101}}, 500, 101), options));
  CHECK_FALSE(s.certificate.certified);
  CHECK(s.certificate.strategy == "exact");
  REQUIRE(s.certificate.rows_needed.has_value());
  CHECK(*s.certificate.rows_needed >= 3994);  // 2,995 certify rows and a quarter more to fit
  CHECK(s.certificate.reason.find("even if no row ever disagreed") != std::string::npos);
  options.pvalue = PValueMethod::kHoeffdingBentkus;
  CHECK(MustOk(CertifyStrategy(Repeated({{101, 0}, {0, 101}}, 500, 101), options)).certificate.rows_needed == 3994);
}

TEST_CASE("Alpha 1 certifies nothing and answers with the exact exit", "[certified]") {
  CertifyOptions options;
  options.alpha = 1.0;
  const CertifiedStrategy s = MustOk(CertifyStrategy(Repeated({{21, 0}, {0, 21}}, 500, 21), options));
  CHECK_FALSE(s.certificate.certified);
  CHECK(s.certificate.strategy == "exact");
  CHECK_FALSE(s.certificate.rows_needed.has_value());
}

TEST_CASE("Certify refuses bad alpha, delta and malformed rows", "[certified]") {
  const CalibrationRows rows = Repeated({{3, 0}}, 4, 3);
  CertifyOptions options;
  for (double delta : {0.0, 1.0, std::nan("")}) {
    options.delta = delta;
    CHECK(CertifyStrategy(rows, options).status().code == StatusCode::kInvalidArgument);
  }
  options.delta = 0.05;
  options.alpha = 0.0;
  CHECK(CertifyStrategy(rows, options).status().code == StatusCode::kInvalidArgument);
  options.alpha = 0.9;
  CalibrationRows bad = rows;
  bad.tallies[0] = 2;
  CHECK(CertifyStrategy(bad, options).status().code == StatusCode::kInvalidArgument);
  bad = rows;
  bad.references[1] = 2;
  CHECK(CertifyStrategy(bad, options).status().code == StatusCode::kInvalidArgument);
}

TEST_CASE("On wdbc with plentiful calibration rows the certified strategy saves trees and holds its disagreement on held-out rows", "[certified]") {
  const Dataset wdbc = LoadDataset("wdbc.csv");
  const size_t n = wdbc.num_rows();
  TrainOptions train;
  train.num_trees = 101;
  train.seed = 7;
  const Forest forest = MustOk(Train(wdbc.Subset(RowsWithRemainder(n, 3, 0)), train));
  const CalibrationRows calibration = FullVoteRows(forest, wdbc.Subset(RowsWithRemainder(n, 3, 1)));
  const Dataset test = wdbc.Subset(RowsWithRemainder(n, 3, 2));
  CertifyOptions options;
  options.alpha = 0.95;
  const CertifiedStrategy s = MustOk(CertifyStrategy(calibration, options));
  REQUIRE(s.certificate.certified);
  CHECK(s.certificate.bound <= 0.05);
  CHECK(s.certificate.mean_trees < 50.0);
  const FullVote full = MustOk(PredictFull(forest, test));
  double expected_loss = 0.0, expected_trees = 0.0;
  const CalibrationRows held_out = FullVoteRows(forest, test);
  for (size_t r = 0; r < test.num_rows(); ++r) {
    const std::vector<int32_t> tally(held_out.tallies.begin() + 2 * r, held_out.tallies.begin() + 2 * r + 2);
    if (s.table.has_value()) {
      const CostEstimate c = MustOk(ExactCostForFinalTally(*s.table, tally));
      expected_loss += c.disagreement;
      expected_trees += c.expected_trees;
    } else {
      REQUIRE(s.lp.has_value());
      const auto first = MustOk(ExactBinaryOutcomes(s.lp->first));
      const auto second = MustOk(ExactBinaryOutcomes(s.lp->second));
      const double share = s.lp->first_share;
      expected_loss += share * first[tally[1]].disagreement + (1 - share) * second[tally[1]].disagreement;
      expected_trees += share * first[tally[1]].trees + (1 - share) * second[tally[1]].trees;
    }
  }
  CHECK(expected_loss / test.num_rows() <= 0.05);
  CHECK(expected_trees / test.num_rows() < 0.5 * forest.num_trees());
  // Realised, in the random order of seed 11, as Predict runs the strategy.
  const PreparedRows rows = MustOk(PrepareRows(forest, test));
  PredictPlan plan;
  plan.path = PredictPath::kCertified;
  plan.alpha = 0.95;
  plan.trees = forest.num_trees();
  plan.order.order = QueryOrder::kRandomPerRow;
  plan.order.seed = 11;
  Prediction realised;
  if (s.table.has_value()) {
    SequentialVoteOptions order = plan.order;
    const HaltedPrediction h = MustOk(PredictHalted(forest, rows, *s.table, order, false));
    realised.labels = h.halted.labels;
    realised.trees_used = h.halted.trees_used;
  } else {
    REQUIRE(internal::PredictStopping(forest, rows, plan, *s.lp, &realised).ok());
  }
  size_t differ = 0;
  double trees = 0.0;
  for (size_t r = 0; r < test.num_rows(); ++r) {
    differ += realised.labels[r] != full.labels[r] ? 1 : 0;
    trees += realised.trees_used[r];
  }
  CHECK(static_cast<double>(differ) / test.num_rows() <= 0.05);
  CHECK(trees / test.num_rows() < 0.5 * forest.num_trees());
}

TEST_CASE("Predict with rule auto on a calibrated imported forest carries the certificate and keeps its disagreement", "[certified]") {
  Forest forest = ImportFixture("sk_rf_wdbc_binary_zipmap");
  const Dataset wdbc = LoadDataset("wdbc.csv");
  const size_t n = wdbc.num_rows();
  const PreparedRows calibration = RowsByPosition(forest, wdbc, RowsWithRemainder(n, 4, 0));
  REQUIRE(CalibrateForest(&forest, calibration.values.data(), calibration.num_rows).ok());
  PredictRequest request;
  request.rule = "auto";
  request.alpha = 0.9;
  request.compare = true;
  request.vote = VoteKind::kHard;
  const PreparedRows rows = RowsByPosition(forest, wdbc, RowsWithRemainder(n, 4, 1));
  const Prediction answer = MustOk(Predict(forest, rows, request));
  CHECK(answer.path == PredictPath::kCertified);
  REQUIRE(answer.certificate.has_value());
  const Certificate& c = *answer.certificate;
  CHECK(c.alpha == 0.9);
  CHECK(c.delta == kDefaultDelta);
  CHECK(c.fit_rows + c.certify_rows == static_cast<int64_t>(RowsWithRemainder(n, 4, 0).size()));
  CHECK(c.certified);
  CHECK(c.strategy != "exact");
  CHECK(answer.mean_trees < forest.num_trees());
  CHECK(answer.disagreement <= 0.1);
  const Prediction again = MustOk(Predict(forest, rows, request));
  CHECK(again.labels == answer.labels);
  CHECK(again.trees_used == answer.trees_used);
}

TEST_CASE("Predict with rule auto on a forest trained here answers with the exact exit and says why", "[certified]") {
  const Dataset wdbc = LoadDataset("wdbc.csv");
  TrainOptions train;
  train.num_trees = 25;
  const Forest forest = MustOk(Train(wdbc, train));
  PredictRequest request;
  request.rule = "auto";
  request.compare = true;
  const PreparedRows rows = MustOk(PrepareRows(forest, wdbc));
  const Prediction answer = MustOk(Predict(forest, rows, request));
  REQUIRE(answer.certificate.has_value());
  CHECK_FALSE(answer.certificate->certified);
  CHECK(answer.certificate->strategy == "exact");
  CHECK(answer.certificate->reason.find("calibration rows") != std::string::npos);
  CHECK(answer.disagreement == 0.0);
  CHECK(answer.labels == answer.full_labels);
}

TEST_CASE("Predict with rule auto in generation order answers with the exact exit", "[certified]") {
  Forest forest = ImportFixture("sk_rf_wdbc_binary_zipmap");
  const Dataset wdbc = LoadDataset("wdbc.csv");
  std::vector<size_t> all(wdbc.num_rows());
  for (size_t r = 0; r < all.size(); ++r) all[r] = r;
  const PreparedRows rows = RowsByPosition(forest, wdbc, all);
  REQUIRE(CalibrateForest(&forest, rows.values.data(), rows.num_rows).ok());
  PredictRequest request;
  request.rule = "auto";
  request.order = QueryOrder::kGeneration;
  request.compare = true;
  const Prediction answer = MustOk(Predict(forest, rows, request));
  REQUIRE(answer.certificate.has_value());
  CHECK_FALSE(answer.certificate->certified);
  CHECK(answer.certificate->reason.find("random query order") != std::string::npos);
  CHECK(answer.disagreement == 0.0);
}

TEST_CASE("Rule lp halts a two-class forest trained here with fewer trees and is deterministic per seed", "[certified]") {
  const Dataset wdbc = LoadDataset("wdbc.csv");
  TrainOptions train;
  train.num_trees = 51;
  train.seed = 3;
  const Forest forest = MustOk(Train(wdbc, train));
  PredictRequest request;
  request.rule = "lp";
  request.alpha = 0.99;
  request.compare = true;
  request.seed = 9;
  const PreparedRows rows = MustOk(PrepareRows(forest, wdbc));
  const Prediction a = MustOk(Predict(forest, rows, request));
  CHECK(a.path == PredictPath::kLp);
  CHECK_FALSE(a.certificate.has_value());
  CHECK(a.mean_trees < 0.5 * forest.num_trees());
  CHECK(a.disagreement <= 0.05);
  for (size_t r = 0; r < a.labels.size(); ++r) {
    CHECK(a.tallies[2 * r] + a.tallies[2 * r + 1] == a.trees_used[r]);
  }
  const Prediction b = MustOk(Predict(forest, rows, request));
  CHECK(a.labels == b.labels);
  CHECK(a.trees_used == b.trees_used);
}

TEST_CASE("Rules auto and lp refuse what does not apply with stable codes", "[certified]") {
  const Dataset iris = LoadDataset("iris.csv");
  TrainOptions train;
  train.num_trees = 11;
  const Forest three = MustOk(Train(iris, train));
  RequestFault fault = RequestFault::kNone;
  PredictRequest lp;
  lp.rule = "lp";
  CHECK(CheckPredictRequest(three, lp, &fault).ok());
  lp.objective = LpObjective::kMinimax;
  CHECK(CheckPredictRequest(three, lp, &fault).code == StatusCode::kInvalidArgument);
  CHECK(fault == RequestFault::kModel);
  PredictRequest delta;
  delta.rule = "auto";
  for (double d : {0.0, 1.0, -0.5}) {
    delta.delta = d;
    CHECK(CheckPredictRequest(three, delta, &fault).code == StatusCode::kInvalidArgument);
    CHECK(fault == RequestFault::kOutOfRange);
  }
  delta.rule = "hyper";
  delta.delta = 0.1;
  CHECK(CheckPredictRequest(three, delta, &fault).code == StatusCode::kInvalidArgument);
  CHECK(fault == RequestFault::kMisplaced);
  delta.rule = "";  // a delta without a rule asks for rule auto
  CHECK(CheckPredictRequest(three, delta, &fault).ok());
  CHECK(fault == RequestFault::kNone);
  PredictRequest trees;
  trees.rule = "auto";
  trees.trees = 5;
  CHECK(CheckPredictRequest(three, trees, &fault).code == StatusCode::kInvalidArgument);
  CHECK(fault == RequestFault::kMisplaced);
  PredictRequest ok;
  ok.rule = "auto";
  ok.delta = 0.1;
  CHECK(CheckPredictRequest(three, ok).ok());
}

// `n` two-class rows of a synthetic T-tree forest: each row's class-1 probability p is drawn so
// that most rows are decisive and some are close to ties, and its tally is Binomial(T, p).
CalibrationRows SyntheticBinaryRows(size_t n, int32_t trees, uint64_t seed) {
  uint64_t state = seed;
  auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  CalibrationRows rows;
  rows.num_trees = trees;
  for (size_t r = 0; r < n; ++r) {
    const double u = uniform();
    const double p = uniform() < 0.5 ? u * u * u : 1.0 - u * u * u;
    uint32_t ones = 0;
    for (int32_t t = 0; t < trees; ++t) ones += uniform() < p ? 1 : 0;
    rows.tallies.push_back(static_cast<uint32_t>(trees) - ones);
    rows.tallies.push_back(ones);
    rows.references.push_back(Plurality(std::vector<uint32_t>{static_cast<uint32_t>(trees) - ones, ones}));
  }
  return rows;
}

TEST_CASE("Auto on a large synthetic calibration set certifies a strategy within 1.3 times the LP floor of the same rows", "[certified]") {
  const CalibrationRows rows = SyntheticBinaryRows(20000, 101, 2026);
  std::vector<double> weights(102, 0.0);
  for (size_t r = 0; r < rows.references.size(); ++r) weights[rows.tallies[2 * r + 1]] += 1.0;
  for (double alpha : {0.99, 0.995}) {
    CAPTURE(alpha);
    CertifyOptions options;
    options.alpha = alpha;
    const CertifiedStrategy s = MustOk(CertifyStrategy(rows, options));
    REQUIRE(s.certificate.certified);
    CHECK(s.certificate.bound <= 1.0 - alpha);
    // The floor: the minimean LP fed these rows' own final counts at the target disagreement.
    MinimeanProblem problem;
    problem.num_trees = 101;
    problem.final_count_weights = weights;
    problem.max_disagreement = 1.0 - alpha;
    const double floor = MustOk(SolveMinimean(problem)).expected_trees;
    CAPTURE(s.certificate.strategy, s.certificate.parameter, s.certificate.mean_trees, floor);
    CHECK(s.certificate.mean_trees <= 1.3 * floor);
    CHECK(s.certificate.mean_trees >= floor * 0.95);  // nothing certified beats the floor by much
  }
}

}  // namespace
}  // namespace urnforest

namespace urnforest {
namespace {

// Three-class rows of `trees` votes: per row a class distribution drawn at random (mostly
// decisive), votes drawn from it; references the plurality.
CalibrationRows SyntheticThreeClassRows(size_t n, int32_t trees, uint64_t seed) {
  CalibrationRows rows;
  rows.num_classes = 3;
  rows.num_trees = trees;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(seed >> 11) / 9007199254740992.0;
  };
  for (size_t r = 0; r < n; ++r) {
    const int favourite = static_cast<int>(next() * 3);
    const double strength = std::pow(next(), 0.3);
    std::vector<uint32_t> f(3, 0);
    for (int32_t v = 0; v < trees; ++v) f[next() < strength ? favourite : static_cast<int>(next() * 3)] += 1;
    rows.tallies.insert(rows.tallies.end(), f.begin(), f.end());
    rows.references.push_back(Plurality(f));
  }
  return rows;
}

TEST_CASE("Auto over three classes tests LP candidates and its chosen strategy keeps its bound on held-out rows", "[certified]") {
  const CalibrationRows rows = SyntheticThreeClassRows(6000, 31, 77);
  const CalibrationRows held_out = SyntheticThreeClassRows(20000, 31, 78);
  CertifyOptions options;
  options.alpha = 0.99;
  const CertifiedStrategy s = MustOk(CertifyStrategy(rows, options));
  REQUIRE(s.certificate.certified);
  CHECK(s.certificate.bound <= 0.01);
  // 16 siba and 16 hyper tables, and at least one LP set.
  const std::string& method = s.certificate.method;
  const size_t at = method.find("sequence of ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stoi(method.substr(at + 12)) > 32);
  CAPTURE(s.certificate.strategy, s.certificate.parameter, s.certificate.mean_trees, method);
  double disagreement = 0.0, trees = 0.0;
  if (s.tally_lp.has_value()) {
    CHECK(s.certificate.strategy == "lp");
    for (const TallyOutcome& o : MustOk(ExactTallyOutcomes(*s.tally_lp, held_out.tallies))) {
      disagreement += o.disagreement / 20000.0;
      trees += o.trees / 20000.0;
    }
  } else {
    REQUIRE(s.table.has_value());
    for (size_t r = 0; r < 20000; ++r) {
      const std::vector<int32_t> f(held_out.tallies.begin() + 3 * r, held_out.tallies.begin() + 3 * r + 3);
      const CostEstimate c = MustOk(ExactCostForFinalTally(*s.table, f));
      disagreement += c.disagreement / 20000.0;
      trees += c.expected_trees / 20000.0;
    }
  }
  CHECK(disagreement <= 0.01);
  CHECK(trees < 31.0);
  CHECK(trees == Approx(s.certificate.mean_trees).epsilon(0.05));
}

TEST_CASE("Auto picks an LP set over three classes when it saves the most trees, with the bound of its exact losses", "[certified]") {
  // Decisive rows: the LP's sets stop after a vote or two where the rows allow it.
  const CalibrationRows rows = SyntheticThreeClassRows(8000, 15, 5);
  CertifyOptions options;
  options.alpha = 0.95;
  const CertifiedStrategy s = MustOk(CertifyStrategy(rows, options));
  REQUIRE(s.certificate.certified);
  CAPTURE(s.certificate.strategy, s.certificate.parameter, s.certificate.mean_trees, s.certificate.method);
  REQUIRE(s.certificate.strategy == "lp");
  REQUIRE(s.tally_lp.has_value());
  CHECK(s.tally_lp->first.stop == s.tally_lp->second.stop);
  CHECK(s.tally_lp->first_share == 1.0);
  // Its bound is the bound of its exact losses on the certify rows (exact outcomes: checked
  // against every vote order in tally_lagrangian_ladder_test.cpp).
  const std::vector<TallyOutcome> exact = MustOk(ExactTallyOutcomes(s.tally_lp->first, rows.tallies));
  std::vector<double> losses;
  for (size_t r = 0; r < rows.references.size(); ++r) {
    if (r % 4 != 0) losses.push_back(exact[r].disagreement);
  }
  CHECK(s.certificate.bound == Approx(std::min(0.05, RiskUpperBoundOf(options.pvalue, losses, 0.05))).margin(1e-9));
  double trees = 0.0;
  for (size_t r = 0; r < rows.references.size(); ++r) trees += r % 4 != 0 ? exact[r].trees / losses.size() : 0.0;
  CHECK(s.certificate.mean_trees == Approx(trees).epsilon(1e-9));
}

}  // namespace
}  // namespace urnforest
