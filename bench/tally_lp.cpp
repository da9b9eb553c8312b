// [KM26]'s minimean strategy on real final tallies, any number of classes: solved from calibration
// rows, measured exactly on test rows (the mean over test rows of each row's exact disagreement and
// expected trees under random order), against the oracle floor (the same solve on the test rows' own
// tallies, which no rule that counts votes in random order can beat). Two classes use the two-class
// solver (urnforest/binary_stopping.h), more the full-tally one (urnforest/tally_stopping.h).
// Usage: bench_tally_lp K T CALIBRATION TEST [TARGET...]
//   CALIBRATION, TEST: text files of final tallies, K counts per line summing to T.
//   TARGET: expected disagreement targets (default 0.001 0.01).
// Prints one JSON document: per target, the calibrated strategy's trees and disagreement on the
// test rows (mean and the worst row's exact disagreement), the floor's trees and disagreement, the
// solve time of the calibrated strategy; for two classes also the calibrated minimax strategy's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/minimax_stopping.h"
#include "urnforest/tally_stopping.h"

using namespace urnforest;

namespace {

std::vector<uint32_t> ReadTallies(const char* path) {
  std::ifstream in(path);
  std::vector<uint32_t> out;
  for (uint32_t v; in >> v;) out.push_back(v);
  return out;
}

struct Measured {
  double trees = 0.0, disagreement = 0.0, solve_ms = 0.0;
  double worst = 0.0;  // the largest exact disagreement of any test row
  bool ok = false;
};

std::vector<double> CountWeights(int t, const std::vector<uint32_t>& tallies) {
  std::vector<double> w(static_cast<size_t>(t) + 1, 0.0);
  for (size_t r = 0; r + 1 < tallies.size(); r += 2) w[tallies[r + 1]] += 1.0;
  return w;
}

// Two classes, objective minimax: one deterministic set bounding every count's disagreement.
Measured Minimax(int t, const std::vector<uint32_t>& fit, const std::vector<uint32_t>& test, double target) {
  MinimaxProblem p;
  p.num_trees = t;
  p.final_count_weights = CountWeights(t, fit);
  p.max_disagreement = target;
  const auto start = std::chrono::steady_clock::now();
  Result<MinimaxStrategy> s = SolveMinimax(p);
  Measured m;
  m.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return m;
  const auto rows = ExactBinaryOutcomes(s.value().set).value();
  const size_t n = test.size() / 2;
  for (size_t r = 0; r < n; ++r) {
    const BinaryOutcome& o = rows[test[2 * r + 1]];
    m.trees += o.trees / n;
    m.disagreement += o.disagreement / n;
    m.worst = std::max(m.worst, o.disagreement);
  }
  m.ok = true;
  return m;
}

// Binary: the tallies' class-1 counts.
Measured Binary(int t, const std::vector<uint32_t>& fit, const std::vector<uint32_t>& test, double target) {
  MinimeanProblem p;
  p.num_trees = t;
  p.final_count_weights = CountWeights(t, fit);
  p.max_disagreement = target;
  const auto start = std::chrono::steady_clock::now();
  Result<BinaryStoppingStrategy> s = SolveMinimean(p);
  Measured m;
  m.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return m;
  const auto first = ExactBinaryOutcomes(s.value().first).value();
  const auto second = ExactBinaryOutcomes(s.value().second).value();
  const double share = s.value().first_share;
  const size_t rows = test.size() / 2;
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t n = test[2 * r + 1];
    m.trees += (share * first[n].trees + (1 - share) * second[n].trees) / rows;
    const double d = share * first[n].disagreement + (1 - share) * second[n].disagreement;
    m.disagreement += d / rows;
    m.worst = std::max(m.worst, d);
  }
  m.ok = true;
  return m;
}

Measured Tally(int k, int t, const std::vector<uint32_t>& fit, const std::vector<uint32_t>& test, double target) {
  TallyMinimeanProblem p;
  p.num_trees = t;
  p.num_classes = k;
  p.final_tallies = fit;
  p.max_disagreement = target;
  const auto start = std::chrono::steady_clock::now();
  Result<TallyStoppingStrategy> s = SolveTallyMinimean(p);
  Measured m;
  m.solve_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.status().message.c_str());
    return m;
  }
  const auto per_row = ExactTallyOutcomes(s.value(), test).value();
  for (const TallyOutcome& o : per_row) {
    m.trees += o.trees / per_row.size();
    m.disagreement += o.disagreement / per_row.size();
    m.worst = std::max(m.worst, o.disagreement);
  }
  m.ok = true;
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: bench_tally_lp K T CALIBRATION TEST [TARGET...]\n");
    return 2;
  }
  const int k = std::atoi(argv[1]), t = std::atoi(argv[2]);
  const std::vector<uint32_t> calibration = ReadTallies(argv[3]);
  const std::vector<uint32_t> test = ReadTallies(argv[4]);
  std::vector<double> targets;
  for (int i = 5; i < argc; ++i) targets.push_back(std::atof(argv[i]));
  if (targets.empty()) targets = {0.001, 0.01};
  std::printf("{\"classes\": %d, \"trees\": %d, \"calibration_rows\": %zu, \"test_rows\": %zu, \"targets\": [", k, t,
              calibration.size() / k, test.size() / k);
  for (size_t i = 0; i < targets.size(); ++i) {
    const double a = targets[i];
    const Measured lp = k == 2 ? Binary(t, calibration, test, a) : Tally(k, t, calibration, test, a);
    const Measured floor = k == 2 ? Binary(t, test, test, a) : Tally(k, t, test, test, a);
    if (!lp.ok || !floor.ok) return 1;
    std::printf("%s{\"target\": %g, \"lp_trees\": %.6f, \"lp_disagreement\": %.8f, \"lp_worst_row\": %.8f, "
                "\"floor_trees\": %.6f, \"floor_disagreement\": %.8f, \"solve_ms\": %.1f",
                i ? ", " : "", a, lp.trees, lp.disagreement, lp.worst, floor.trees, floor.disagreement, lp.solve_ms);
    if (k == 2 && t <= kMaxMinimaxTrees) {
      const Measured mm = Minimax(t, calibration, test, a);
      if (!mm.ok) return 1;
      std::printf(", \"minimax_trees\": %.6f, \"minimax_disagreement\": %.8f, \"minimax_worst_row\": %.8f, "
                  "\"minimax_solve_ms\": %.1f",
                  mm.trees, mm.disagreement, mm.worst, mm.solve_ms);
    }
    std::printf("}");
  }
  std::printf("]}\n");
  return 0;
}
