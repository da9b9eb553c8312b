// Rule auto on three or more classes with and without the LP candidates over full tallies
// (urnforest/tally_lagrangian_ladder.h): per split, a forest of T trees trained here on one part,
// its full votes on a calibration part certified at alpha (CertifyStrategy, timed), the chosen
// strategy measured exactly on a test part (each row's exact disagreement with the full vote and
// expected trees under a random query order, averaged).
// Usage: bench_certified_multiclass SOURCE ALPHA [SPLITS] [TRAIN CALIBRATION] [TREES]
//   SOURCE: a CSV file (last column the class) or "waveform:N" (the generator, N rows).
//   TRAIN, CALIBRATION: shares of the rows (default 0.5 0.25; the rest is the test part).
//   Environment TIME_LP=1: on the first split also the LP's costs (ladder vs bisected minimean).
// Prints one JSON object per split and configuration ("before": without the K >= 3 LP, "after":
// with it), then the means.
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "urnforest/certified_halting.h"
#include "urnforest/csv_reader.h"
#include "urnforest/expected_cost.h"
#include "urnforest/forest.h"
#include "urnforest/full_vote.h"
#include "urnforest/generators.h"
#include "urnforest/tally_lagrangian_ladder.h"
#include "urnforest/tally_stopping.h"
#include "urnforest/train.h"

using namespace urnforest;

namespace {

template <typename T>
T Must(Result<T> r) {
  if (!r.ok()) {
    std::fprintf(stderr, "error: %s\n", r.status().message.c_str());
    std::exit(1);
  }
  return std::move(r).value();
}

Dataset Load(const std::string& source, uint64_t seed) {
  if (source.rfind("waveform:", 0) == 0) return Must(Waveform(std::stoul(source.substr(9)), seed));
  std::ifstream in(source, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return Must(ReadCsv(text.str()));
}

CalibrationRows RowsOf(const Forest& forest, const Dataset& data) {
  const FullVote full = Must(PredictFull(forest, data));
  CalibrationRows rows;
  rows.num_classes = forest.num_classes();
  rows.num_trees = forest.num_trees();
  rows.tallies = full.votes;
  rows.references = full.labels;
  return rows;
}

struct Measured {
  double calibrate_ms = 0.0, trees = 0.0, disagreement = 0.0, bound = 0.0;
  std::string strategy;
};

// The chosen strategy's exact mean trees and disagreement on `test`.
void Evaluate(const CertifiedStrategy& s, const CalibrationRows& test, Measured* m) {
  const size_t n = test.references.size(), k = static_cast<size_t>(test.num_classes);
  if (s.tally_lp.has_value()) {
    for (const TallyOutcome& o : Must(ExactTallyOutcomes(*s.tally_lp, test.tallies))) {
      m->trees += o.trees / n;
      m->disagreement += o.disagreement / n;
    }
    return;
  }
  if (!s.table.has_value()) {  // the exact exit: every answer the full vote's (trees: T, an upper bound)
    m->trees = test.num_trees;
    return;
  }
  for (size_t r = 0; r < n; ++r) {
    const std::vector<int32_t> f(test.tallies.begin() + r * k, test.tallies.begin() + (r + 1) * k);
    const CostEstimate c = Must(ExactCostForFinalTally(*s.table, f));
    m->trees += c.expected_trees / n;
    m->disagreement += c.disagreement / n;
  }
}

double CpuMs(std::clock_t since) { return 1000.0 * static_cast<double>(std::clock() - since) / CLOCKS_PER_SEC; }

// One split's LP costs on the fit quarter of the calibration rows: the ladder's preparation, one
// Lagrangian set on the support, and the bisected minimean for one target over the whole lattice.
void TimeLp(const CalibrationRows& cal, double alpha) {
  const size_t k = static_cast<size_t>(cal.num_classes);
  std::vector<uint32_t> fit;
  for (size_t r = 0; r < cal.references.size(); r += 4) fit.insert(fit.end(), cal.tallies.begin() + r * k, cal.tallies.begin() + (r + 1) * k);
  std::clock_t t = std::clock();
  Result<TallyLagrangianLadder> ladder = TallyLagrangianLadder::Make(cal.num_trees, cal.num_classes, fit, fit, 0.01);
  if (!ladder.ok()) return;
  const double make_ms = CpuMs(t);
  t = std::clock();
  for (int j = 0; j < 20; ++j) ladder.value().FitOutcome(ladder.value().Solve(std::exp2(j / 2.0)));
  const double solve_ms = CpuMs(t) / 20;
  TallyMinimeanProblem problem;
  problem.num_trees = cal.num_trees;
  problem.num_classes = cal.num_classes;
  problem.final_tallies = fit;
  problem.max_disagreement = 1.0 - alpha;
  t = std::clock();
  const bool solved = SolveTallyMinimean(problem).ok();
  std::printf("{\"lp_timing\": true, \"fit_rows\": %zu, \"support_states\": %lld, \"ladder_make_cpu_ms\": %.1f, "
              "\"solve_and_measure_per_mu_cpu_ms\": %.2f, \"bisected_minimean_one_target_cpu_ms\": %.1f, \"solved\": %s}\n",
              fit.size() / k, static_cast<long long>(ladder.value().support_size()), make_ms, solve_ms, CpuMs(t),
              solved ? "true" : "false");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_certified_multiclass SOURCE ALPHA [SPLITS] [TRAIN CALIBRATION] [TREES]\n");
    return 2;
  }
  const std::string source = argv[1];
  const double alpha = std::atof(argv[2]);
  const int splits = argc > 3 ? std::atoi(argv[3]) : 10;
  const double train_share = argc > 5 ? std::atof(argv[4]) : 0.5, cal_share = argc > 5 ? std::atof(argv[5]) : 0.25;
  const int trees = argc > 6 ? std::atoi(argv[6]) : 101;
  double sum[2][4] = {};
  for (int split = 0; split < splits; ++split) {
    const Dataset data = Load(source, 1000 + split);
    std::vector<size_t> order(data.num_rows());
    std::iota(order.begin(), order.end(), 0);
    uint64_t state = 77 + split;
    for (size_t i = order.size(); i > 1; --i) {  // Fisher-Yates with an LCG
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      std::swap(order[i - 1], order[(state >> 33) % i]);
    }
    const size_t a = static_cast<size_t>(train_share * order.size());
    const size_t b = a + static_cast<size_t>(cal_share * order.size());
    TrainOptions train;
    train.num_trees = trees;
    train.seed = 5 + split;
    const Forest forest = Must(Train(data.Subset({order.begin(), order.begin() + a}), train));
    const CalibrationRows cal = RowsOf(forest, data.Subset({order.begin() + a, order.begin() + b}));
    const CalibrationRows test = RowsOf(forest, data.Subset({order.begin() + b, order.end()}));
    if (split == 0 && std::getenv("TIME_LP") != nullptr) TimeLp(cal, alpha);
    for (int after = 0; after < 2; ++after) {
      CertifyOptions options;
      options.alpha = alpha;
      options.multi_class_lp = after == 1;
      const auto start = std::chrono::steady_clock::now();
      const std::clock_t cpu_start = std::clock();
      const CertifiedStrategy s = Must(CertifyStrategy(cal, options));
      Measured m;
      m.calibrate_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      const double cpu_ms = 1000.0 * static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
      m.bound = s.certificate.bound;
      m.strategy = s.certificate.strategy;
      Evaluate(s, test, &m);
      std::printf("{\"split\": %d, \"config\": \"%s\", \"classes\": %d, \"calibration_rows\": %zu, \"test_rows\": %zu, "
                  "\"calibrate_ms\": %.1f, \"calibrate_cpu_ms\": %.1f, \"certify_trees\": %.3f, \"strategy\": \"%s\", \"parameter\": %.6g, \"bound\": %.5f, \"trees\": %.3f, "
                  "\"disagreement\": %.5f, \"method\": \"%s\"}\n",
                  split, after ? "after" : "before", cal.num_classes, cal.references.size(), test.references.size(),
                  m.calibrate_ms, cpu_ms, s.certificate.mean_trees, m.strategy.c_str(), s.certificate.parameter, m.bound, m.trees, m.disagreement,
                  s.certificate.method.c_str());
      std::fflush(stdout);
      sum[after][0] += cpu_ms / splits;
      sum[after][1] += m.trees / splits;
      sum[after][2] += m.disagreement / splits;
      sum[after][3] += m.bound / splits;
    }
  }
  for (int after = 0; after < 2; ++after) {
    std::printf("{\"mean\": \"%s\", \"calibrate_cpu_ms\": %.1f, \"trees\": %.3f, \"disagreement\": %.5f, \"bound\": %.5f}\n",
                after ? "after" : "before", sum[after][0], sum[after][1], sum[after][2], sum[after][3]);
  }
  return 0;
}
