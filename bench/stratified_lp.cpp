// The stratified stopping strategy (urnforest/stratified_stopping.h) against the floor on real
// final tallies: fitted on calibration rows (features and final class-1 counts), measured exactly
// on test rows (each row's exact disagreement and expected trees given its bucket and final count,
// averaged), against the oracle floor (SolveMinimean on the test rows' own counts, the best any
// rule that counts votes in random order can do) and rule lp (SolveMinimean on the calibration
// rows' counts).
// Usage: bench_stratified_lp T CALIBRATION TEST [--train TRAIN SEED] [--targets a,b] [--buckets 1,4,8]
//        [--pool 0,0.1] (StratifiedOptions::pooled_share values)
//   CALIBRATION, TEST: text files, one row per line: the final class-1 count (0..T) then F features.
//   --train: a file of rows "label features..." (labels 0/1): a forest of T trees is trained here
//     (urnforest's random forest, seed SEED) and its counts replace the files' counts.
// Prints one JSON document: rows, floor and lp per target, then per (target, buckets, squares) the
// stratified strategy's trees, disagreement (mean over test rows, and the worst row), buckets used,
// solve time; and the surrogate's cost per row against one tree's walk per row, both in ns.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "urnforest/binary_stopping.h"
#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/full_vote.h"
#include "urnforest/stratified_stopping.h"
#include "urnforest/train.h"

using namespace urnforest;

namespace {

struct Rows {
  std::vector<int32_t> lead;  // the count (or the label of a training file)
  std::vector<float> x;
  int32_t features = 0;
  size_t size() const { return lead.size(); }
};

Rows Read(const char* path) {
  std::ifstream in(path);
  Rows out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    double lead = 0;
    if (!(s >> lead)) continue;
    out.lead.push_back(static_cast<int32_t>(lead));
    int32_t f = 0;
    for (double v; s >> v; ++f) out.x.push_back(static_cast<float>(v));
    out.features = f;
  }
  return out;
}

std::vector<double> List(const std::string& text) {
  std::vector<double> out;
  std::stringstream s(text);
  for (std::string item; std::getline(s, item, ',');) out.push_back(std::atof(item.c_str()));
  return out;
}

double Ms(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

std::vector<double> Weights(int t, const std::vector<int32_t>& counts) {
  std::vector<double> w(static_cast<size_t>(t) + 1, 0.0);
  for (int32_t n : counts) w[n] += 1.0;
  return w;
}

// Mean trees and disagreement of a minimean strategy on `counts`, exactly.
void Minimean(int t, const std::vector<int32_t>& fit, const std::vector<int32_t>& test, double target,
              double* trees, double* dis) {
  MinimeanProblem p;
  p.num_trees = t;
  p.final_count_weights = Weights(t, fit);
  p.max_disagreement = target;
  const BinaryStoppingStrategy s = SolveMinimean(p).value();
  const auto a = ExactBinaryOutcomes(s.first).value(), b = ExactBinaryOutcomes(s.second).value();
  *trees = *dis = 0.0;
  for (int32_t n : test) {
    *trees += s.first_share * a[n].trees + (1 - s.first_share) * b[n].trees;
    *dis += s.first_share * a[n].disagreement + (1 - s.first_share) * b[n].disagreement;
  }
  *trees /= test.size();
  *dis /= test.size();
}

// Replaces the counts of `cal` and `test` by those of a forest trained here; returns ns per tree
// walk per row (the full vote of the test rows, batch).
double TrainHere(int t, const Rows& train, uint64_t seed, Rows* cal, Rows* test) {
  Dataset data = Dataset::FromRowMajor(train.x.data(), train.size(), train.features, train.lead.data(), {}, {}).value();
  TrainOptions options;
  options.num_trees = t;
  options.seed = seed;
  const Forest forest = Train(data, options).value();
  double ns = 0.0;
  for (Rows* rows : {cal, test}) {
    const auto start = std::chrono::steady_clock::now();
    const FullVote v = PredictFullRows(forest, rows->x.data(), rows->size()).value();
    ns = Ms(start) * 1e6 / (static_cast<double>(rows->size()) * t);
    for (size_t r = 0; r < rows->size(); ++r) rows->lead[r] = static_cast<int32_t>(v.votes[r * 2 + 1]);
  }
  return ns;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: bench_stratified_lp T CALIBRATION TEST [--train FILE SEED] [--targets a,b] [--buckets 1,8]\n");
    return 2;
  }
  const int t = std::atoi(argv[1]);
  Rows cal = Read(argv[2]), test = Read(argv[3]);
  std::vector<double> targets = {0.001}, buckets = {1, 4, 8, 16}, pools = {0.0};
  double tree_ns = -1.0;
  for (int i = 4; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--train" && i + 2 < argc) {
      const Rows train = Read(argv[i + 1]);
      tree_ns = TrainHere(t, train, std::strtoull(argv[i + 2], nullptr, 10), &cal, &test);
      i += 2;
    } else if (a == "--targets" && i + 1 < argc) {
      targets = List(argv[++i]);
    } else if (a == "--buckets" && i + 1 < argc) {
      buckets = List(argv[++i]);
    } else if (a == "--pool" && i + 1 < argc) {
      pools = List(argv[++i]);
    }
  }
  std::printf("{\"calibration_rows\": %zu, \"test_rows\": %zu, \"features\": %d, \"tree_ns\": %.3f, \"results\": [",
              cal.size(), test.size(), cal.features, tree_ns);
  bool first = true;
  for (double target : targets) {
    double floor_trees = 0, floor_dis = 0, lp_trees = 0, lp_dis = 0;
    Minimean(t, test.lead, test.lead, target, &floor_trees, &floor_dis);
    Minimean(t, cal.lead, test.lead, target, &lp_trees, &lp_dis);
    for (double pool : pools) {
    for (int squares = 0; squares <= 1; ++squares) {
      for (double b : buckets) {
        StratifiedOptions options;
        options.buckets = static_cast<int32_t>(b);
        options.surrogate.squares = squares == 1;
        options.max_disagreement = target;
        options.pooled_share = pool;
        const auto start = std::chrono::steady_clock::now();
        Result<StratifiedModel> model = FitStratifiedModel(cal.x.data(), cal.size(), cal.features, t, cal.lead, options);
        const double solve_ms = Ms(start);
        if (!model.ok()) {
          std::fprintf(stderr, "%s\n", model.status().ToString().c_str());
          return 1;
        }
        const StratifiedModel& m = model.value();
        const auto exact = ExactStratifiedOutcomes(m.strategy).value();
        double trees = 0, dis = 0, worst = 0;
        std::vector<int32_t> bucket(test.size());
        for (size_t r = 0; r < test.size(); ++r) bucket[r] = m.BucketOfRow(&test.x[r * test.features]);
        for (size_t r = 0; r < test.size(); ++r) {
          const BinaryOutcome& o = exact[bucket[r]][test.lead[r]];
          trees += o.trees;
          dis += o.disagreement;
          worst = std::max(worst, o.disagreement);
        }
        // The surrogate's cost: scoring every test row, best of 5 passes.
        double surrogate_ns = 1e300;
        volatile double sink = 0;
        for (int k = 0; k < 5; ++k) {
          const auto s0 = std::chrono::steady_clock::now();
          double acc = 0;
          for (size_t r = 0; r < test.size(); ++r) acc += m.calibration.surrogate.Score(&test.x[r * test.features]);
          sink = sink + acc;
          surrogate_ns = std::min(surrogate_ns, Ms(s0) * 1e6 / test.size());
        }
        std::printf("%s{\"target\": %g, \"buckets_asked\": %d, \"buckets\": %zu, \"squares\": %d, \"pool\": %g, "
                    "\"trees\": %.6f, \"disagreement\": %.8f, \"worst_row\": %.6f, \"expected_trees\": %.6f, "
                    "\"floor_trees\": %.6f, \"floor_disagreement\": %.8f, \"lp_trees\": %.6f, \"lp_disagreement\": %.8f, "
                    "\"solve_ms\": %.1f, \"surrogate_ns\": %.2f}",
                    first ? "" : ", ", target, static_cast<int>(b), m.calibration.cuts.size() + 1, squares, pool,
                    trees / test.size(), dis / test.size(), worst, m.strategy.expected_trees, floor_trees, floor_dis,
                    lp_trees, lp_dis, solve_ms, surrogate_ns);
        first = false;
      }
    }
    }
  }
  std::printf("]}\n");
  return 0;
}
