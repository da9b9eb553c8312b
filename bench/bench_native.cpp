// Native prediction and table-building timings for bench/run.mjs (not a test). One JSON line out.
//
//   bench_native predict MODEL.urnf TEST.csv ROUNDS [RULE...]
//     full vote (PredictFullRows) and halted prediction (PredictHaltedRows) per rule on rows
//     converted once to the model's layout, as the wasm API keeps them per dataset (a
//     PreparedRows per dataset handle); the conversion (ModelRows + RowsWithoutNaN) is timed apart as convert_ms.
//     Interleaved round by round; each timing repeats the call until >= 20 ms and divides. Halted
//     calls query the trees in generation order; with URNFOREST_BENCH_ORDER=random, in a random
//     order per row (the order JS `predict` and the CLI use by default).
//   bench_native scores MODEL.urnf TEST.csv ROUNDS
//     an imported model's soft (or additive) prediction (PredictScoresRows) and its exact early exit
//     (PredictSoftExact) on rows converted once, interleaved round by round (as predict).
//   bench_native tables MODEL.urnf ROUNDS [RULE...]
//     BuildForestTable (prior from the OOB votes + table) per rule, alpha = 0.99.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/halting_rule.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"
#include "urnforest/serialize.h"

using namespace urnforest;

namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench_native: %s\n", what.c_str());
  std::exit(1);
}

// Milliseconds per call of f, repeating it until at least 20 ms have passed.
template <class F>
double MsPerCall(F&& f) {
  using Clock = std::chrono::steady_clock;
  int calls = 0;
  const auto start = Clock::now();
  double elapsed = 0.0;
  do {
    f();
    ++calls;
    elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  } while (elapsed < 20.0);
  return elapsed / calls;
}

std::string Array(const std::vector<double>& xs) {
  std::string s = "[";
  for (size_t i = 0; i < xs.size(); ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%.6g", i ? "," : "", xs[i]);
    s += buf;
  }
  return s + "]";
}

Forest LoadForest(const char* path) {
  const std::string bytes = ReadFile(path);
  Result<Forest> f =
      DeserializeForest(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!f.ok()) Die(f.status().ToString());
  return std::move(f).value();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    Die("usage: bench_native predict MODEL TEST ROUNDS [RULE...] | tables MODEL ROUNDS [RULE...] | "
        "csv FILE ROUNDS");
  }
  const std::string cmd = argv[1];
  if (cmd == "csv") {
    // Parsing a CSV already in memory (ReadCsv), the milliseconds of each round.
    const std::string text = ReadFile(argv[2]);
    const int rounds = std::atoi(argv[3]);
    std::vector<double> ms;
    size_t rows = 0;
    for (int r = 0; r < rounds; ++r) {
      const auto start = std::chrono::steady_clock::now();
      Result<Dataset> data = ReadCsv(text);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (!data.ok()) Die(data.status().ToString());
      rows = data.value().num_rows();
    }
    std::printf("{\"rows\":%zu,\"bytes\":%zu,\"ms\":%s}\n", rows, text.size(), Array(ms).c_str());
    return 0;
  }
  const Forest forest = LoadForest(argv[2]);
  if (cmd == "predict") {
    if (argc < 5) Die("predict needs MODEL TEST ROUNDS");
    const std::string text = ReadFile(argv[3]);
    CsvOptions csv;
    csv.schema = &forest.schema();
    Result<Dataset> data = ReadCsv(text, csv);
    if (!data.ok()) Die(data.status().ToString());
    const int rounds = std::atoi(argv[4]);
    std::vector<std::string> names;
    std::vector<HaltingTable> tables;
    for (int i = 5; i < argc; ++i) {
      Result<HaltingRule> rule = ParseRule(argv[i]);
      if (!rule.ok()) Die(rule.status().ToString());
      Result<HaltingTable> t = BuildForestTable(forest, rule.value(), 0.99);
      if (!t.ok()) Die(t.status().ToString());
      names.push_back(argv[i]);
      tables.push_back(std::move(t).value());
    }
    const size_t n = data.value().num_rows();
    const size_t m = static_cast<size_t>(forest.num_features());
    Result<std::vector<float>> rows = ModelRows(forest, data.value());
    if (!rows.ok()) Die(rows.status().ToString());
    const std::vector<uint8_t> without_nan = RowsWithoutNaN(rows.value().data(), n, m);
    SequentialVoteOptions halted_options;
    if (const char* order = std::getenv("URNFOREST_BENCH_ORDER"); order != nullptr && std::string(order) == "random") {
      halted_options.order = QueryOrder::kRandomPerRow;
    }
    std::vector<double> convert, full;
    std::vector<std::vector<double>> halted(tables.size());
    std::vector<double> mean_trees(tables.size());
    for (int r = 0; r < rounds; ++r) {
      convert.push_back(MsPerCall([&] {
        Result<std::vector<float>> again = ModelRows(forest, data.value());
        if (!again.ok() || RowsWithoutNaN(again.value().data(), n, m).size() != n) Die("ModelRows failed");
      }));
      full.push_back(MsPerCall([&] {
        if (!PredictFullRows(forest, rows.value().data(), n).ok()) Die("PredictFullRows failed");
      }));
      for (size_t i = 0; i < tables.size(); ++i) {
        halted[i].push_back(MsPerCall([&] {
          Result<SequentialVoteResult> s = PredictHaltedRows(forest, rows.value().data(), n, tables[i],
                                                             halted_options, without_nan.data());
          if (!s.ok()) Die("PredictHalted failed");
          mean_trees[i] = s.value().MeanTrees();
        }));
      }
    }
    std::printf("{\"rows\":%zu,\"trees\":%d,\"convert_ms\":%s,\"full_ms\":%s,\"rules\":{", n,
                forest.num_trees(), Array(convert).c_str(), Array(full).c_str());
    for (size_t i = 0; i < tables.size(); ++i) {
      std::printf("%s\"%s\":{\"ms\":%s,\"mean_trees\":%.6g}", i ? "," : "", names[i].c_str(),
                  Array(halted[i]).c_str(), mean_trees[i]);
    }
    std::printf("}}\n");
    return 0;
  }
  if (cmd == "scores") {
    if (argc < 5) Die("scores needs MODEL TEST ROUNDS");
    if (forest.imported() == nullptr) Die("scores needs an imported model");
    const std::string text = ReadFile(argv[3]);
    CsvOptions csv;
    csv.schema = &forest.schema();
    Result<Dataset> data = ReadCsv(text, csv);
    if (!data.ok()) Die(data.status().ToString());
    Result<std::vector<float>> rows = ModelRows(forest, data.value());
    if (!rows.ok()) Die(rows.status().ToString());
    const size_t n = data.value().num_rows();
    std::vector<double> soft, exact;
    double mean_trees = 0.0;
    for (int r = 0; r < std::atoi(argv[4]); ++r) {
      soft.push_back(MsPerCall([&] {
        if (!PredictScoresRows(forest, rows.value().data(), n, VoteKind::kSoft).ok()) Die("PredictScoresRows failed");
      }));
      exact.push_back(MsPerCall([&] {
        Result<ExactHaltResult> e = PredictSoftExact(forest, rows.value().data(), n);
        if (!e.ok()) Die("PredictSoftExact failed");
        mean_trees = e.value().mean_trees;
      }));
    }
    std::printf("{\"rows\":%zu,\"trees\":%d,\"soft_ms\":%s,\"exact_ms\":%s,\"exact_mean_trees\":%.6g}\n", n,
                forest.num_trees(), Array(soft).c_str(), Array(exact).c_str(), mean_trees);
    return 0;
  }
  if (cmd == "tables") {
    const int rounds = std::atoi(argv[3]);
    std::printf("{\"classes\":%d,\"trees\":%d,\"nodes\":%zu,\"model_bytes\":%zu,\"rules\":{",
                forest.num_classes(), forest.num_trees(), forest.num_nodes(),
                SerializeForest(forest).size());
    for (int i = 4; i < argc; ++i) {
      Result<HaltingRule> rule = ParseRule(argv[i]);
      if (!rule.ok()) Die(rule.status().ToString());
      Result<HaltingTable> probe = BuildForestTable(forest, rule.value(), 0.99);
      std::printf("%s\"%s\":", i > 4 ? "," : "", argv[i]);
      if (!probe.ok()) {
        std::printf("{\"error\":\"%s\"}", CodeName(probe.status().code));
        continue;
      }
      std::vector<double> ms;
      for (int r = 0; r < rounds; ++r) {
        ms.push_back(MsPerCall([&] {
          if (!BuildForestTable(forest, rule.value(), 0.99).ok()) Die("BuildForestTable failed");
        }));
      }
      std::printf("{\"ms\":%s}", Array(ms).c_str());
    }
    std::printf("}}\n");
    return 0;
  }
  Die("unknown command " + cmd);
}
