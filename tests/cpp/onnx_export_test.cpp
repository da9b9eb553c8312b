#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/onnx_export.h"
#include "urnforest/onnx_import.h"
#include "urnforest/predict.h"
#include "urnforest/predict_scores.h"
#include "urnforest/train.h"
#include "urnforest/weighted_vote.h"

namespace urnforest {
namespace {

using test::MustOk;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Dataset LoadDataset(const std::string& file) {
  return MustOk(ReadCsv(ReadBytes(std::string(URNFOREST_DATASETS_DIR) + "/" + file)));
}

Forest TrainOn(const Dataset& data, EnsembleKind kind, int32_t trees) {
  TrainOptions options;
  options.ensemble = kind;
  options.num_trees = trees;
  options.seed = 7;
  return MustOk(Train(data, options));
}

Forest RoundTrip(const Forest& forest) {
  const std::vector<uint8_t> bytes = MustOk(ExportOnnx(forest));
  return MustOk(ImportOnnx(bytes.data(), bytes.size()));
}

// The data's rows in the forest's layout, then, per split of the first trees, rows that put the
// split's feature on its threshold, one float32 step either side, NaN, and for categorical splits
// every category, -1, one past the last, 0.5 and 1e9.
std::vector<float> ProbeRows(const Forest& forest, const std::vector<float>& base, size_t max_trees) {
  const size_t width = static_cast<size_t>(forest.num_features());
  const size_t base_rows = base.size() / width;
  std::vector<float> rows = base;
  const std::vector<TreeNode>& nodes = forest.node_table().nodes;
  const uint32_t end = forest.num_trees() > static_cast<int32_t>(max_trees)
                           ? forest.tree_roots()[max_trees]
                           : static_cast<uint32_t>(nodes.size());
  const float inf = std::numeric_limits<float>::infinity();
  size_t k = 0;
  for (uint32_t i = 0; i < end; ++i) {
    const TreeNode& n = nodes[i];
    if (n.feature < 0) continue;
    std::vector<float> values;
    if (n.aux & TreeNode::kCategoricalSplit) {
      const float count = static_cast<float>(forest.category_counts()[n.feature]);
      for (float c = -1; c <= count; ++c) values.push_back(c);
      values.insert(values.end(), {0.5f, 1e9f});
    } else {
      values = {n.threshold, std::nextafter(n.threshold, inf), std::nextafter(n.threshold, -inf)};
    }
    values.push_back(std::numeric_limits<float>::quiet_NaN());
    for (float v : values) {
      const size_t from = (k++ % base_rows) * width;
      rows.insert(rows.end(), base.begin() + from, base.begin() + from + width);
      rows[rows.size() - width + n.feature] = v;
    }
  }
  return rows;
}

void RequireSameTreeVotes(const Forest& a, const Forest& b, const std::vector<float>& rows) {
  REQUIRE(a.num_trees() == b.num_trees());
  const size_t width = static_cast<size_t>(a.num_features());
  size_t differ = 0;
  for (int32_t t = 0; t < a.num_trees(); ++t) {
    for (size_t r = 0; r < rows.size() / width; ++r) {
      differ += a.TreeVote(t, &rows[r * width]) != b.TreeVote(t, &rows[r * width]);
    }
  }
  CHECK(differ == 0);
}

// A trained forest and its export read back: same tree votes, and the export's own (soft)
// prediction is the majority vote with scores = vote fractions.
void RequireExportVotesLikeForest(const Forest& forest, const Dataset& data) {
  const Forest back = RoundTrip(forest);
  REQUIRE(back.imported() != nullptr);
  const std::vector<float> rows = ProbeRows(forest, MustOk(ModelRows(forest, data)), 10);
  RequireSameTreeVotes(forest, back, rows);
  const size_t n = rows.size() / forest.num_features();
  const FullVote full = MustOk(PredictFullRows(forest, rows.data(), n));
  const ScorePrediction soft = MustOk(PredictScoresRows(back, rows.data(), n, VoteKind::kSoft));
  CHECK(soft.labels == full.labels);
  const double tolerance = forest.num_trees() / 16777216.0;
  double worst = 0.0;
  for (size_t i = 0; i < full.votes.size(); ++i) {
    worst = std::max(worst, std::fabs(soft.scores[i] - full.votes[i] / double(forest.num_trees())));
  }
  CHECK(worst <= tolerance);
}

TEST_CASE("An exported random forest on numeric data reads back with the same votes and labels",
          "[onnx_export]") {
  const Dataset iris = LoadDataset("iris.csv");
  RequireExportVotesLikeForest(TrainOn(iris, EnsembleKind::kRandomForest, 25), iris);
}

TEST_CASE("An exported forest with categorical splits and missing values keeps every vote",
          "[onnx_export]") {
  const Dataset soybean = LoadDataset("soybean.csv");
  RequireExportVotesLikeForest(TrainOn(soybean, EnsembleKind::kRandomForest, 25), soybean);
}

TEST_CASE("An exported two-class forest sends ties to the first class", "[onnx_export]") {
  const Dataset wdbc = LoadDataset("wdbc.csv");
  RequireExportVotesLikeForest(TrainOn(wdbc, EnsembleKind::kRandomForest, 24), wdbc);
  // Two stumps that disagree on every row: a tie on every row.
  const Dataset tiny = test::SmallDataset({0, 1, 2, 3}, {0, 0, 1, 1}, 2);
  TrainOptions options;
  options.num_trees = 2;
  options.max_depth = 1;
  options.ensemble = EnsembleKind::kBagging;
  const Forest forest = MustOk(Train(tiny, options));
  const Forest back = RoundTrip(forest);
  const std::vector<float> rows = {0, 1, 2, 3};
  const FullVote full = MustOk(PredictFullRows(forest, rows.data(), 4));
  const ScorePrediction soft = MustOk(PredictScoresRows(back, rows.data(), 4, VoteKind::kSoft));
  CHECK(soft.labels == full.labels);
}

TEST_CASE("An exported AdaBoost ensemble predicts its weighted vote", "[onnx_export]") {
  const Dataset iris = LoadDataset("iris.csv");
  const Forest forest = TrainOn(iris, EnsembleKind::kAdaBoost, 15);
  REQUIRE_FALSE(forest.tree_weights().empty());
  const Forest back = RoundTrip(forest);
  const std::vector<float> rows = MustOk(ModelRows(forest, iris));
  RequireSameTreeVotes(forest, back, ProbeRows(forest, rows, 15));
  const WeightedVote weighted = MustOk(PredictWeighted(forest, iris));
  const ScorePrediction soft =
      MustOk(PredictScoresRows(back, rows.data(), iris.num_rows(), VoteKind::kSoft));
  CHECK(soft.labels == weighted.labels);
}

TEST_CASE("Exporting an imported ONNX model again keeps its scores, votes and bytes",
          "[onnx_export]") {
  const char* fixture = GENERATE("sk_rf_iris_nozipmap", "sk_rf_soybean_19class",
                                 "sk_rf_wdbc_binary_zipmap", "sk_et_vehicle_strings_opset3",
                                 "xgb_vehicle_softprob_missing", "xgb_wdbc_binary_missing",
                                 "tiny_all_modes");
  INFO(fixture);
  const std::string file = ReadBytes(std::string(URNFOREST_ONNX_FIXTURES_DIR) + "/" + fixture + ".onnx");
  const Forest imported =
      MustOk(ImportOnnx(reinterpret_cast<const uint8_t*>(file.data()), file.size()));
  const std::vector<uint8_t> bytes = MustOk(ExportOnnx(imported));
  const Forest back = MustOk(ImportOnnx(bytes.data(), bytes.size()));
  CHECK(MustOk(ExportOnnx(back)) == bytes);

  // Rows: every threshold probed on a base of random values (and NaN) around the thresholds.
  const size_t width = static_cast<size_t>(imported.num_features());
  std::vector<float> base;
  uint32_t state = 12345;
  for (size_t i = 0; i < 200 * width; ++i) {
    state = state * 1664525u + 1013904223u;
    const TreeNode& n = imported.node_table().nodes[state % imported.node_table().nodes.size()];
    base.push_back(state % 11 == 0 ? std::numeric_limits<float>::quiet_NaN()
                                   : n.threshold + (static_cast<int32_t>(state >> 16) % 5 - 2) * 0.25f);
  }
  const std::vector<float> rows = ProbeRows(imported, base, 1000);
  const size_t n = rows.size() / width;
  RequireSameTreeVotes(imported, back, rows);
  const ScorePrediction a = MustOk(PredictScoresRows(imported, rows.data(), n, VoteKind::kSoft));
  const ScorePrediction b = MustOk(PredictScoresRows(back, rows.data(), n, VoteKind::kSoft));
  // Double leaf values (opset-3 tensors) are written as float32: a label may change only where the
  // source's two best scores are within that rounding of each other.
  const size_t k = static_cast<size_t>(imported.num_classes());
  size_t flips = 0;
  for (size_t r = 0; r < n; ++r) {
    if (a.labels[r] == b.labels[r]) continue;
    ++flips;
    CHECK(std::fabs(a.scores[r * k + a.labels[r]] - a.scores[r * k + b.labels[r]]) <= 1e-6);
  }
  CHECK(flips <= (std::string(fixture) == "sk_et_vehicle_strings_opset3" ? n / 20 : 0));
  double worst = 0.0;
  for (size_t i = 0; i < a.scores.size(); ++i) worst = std::max(worst, std::fabs(a.scores[i] - b.scores[i]));
  CHECK(worst <= 1e-6);
}

TEST_CASE("Export refuses a forest without trees and a two-class forest too large for float32 ties",
          "[onnx_export]") {
  CHECK(ExportOnnx(Forest()).status().code == StatusCode::kInvalidArgument);
  const Dataset tiny = test::SmallDataset({0, 1, 2, 3}, {0, 0, 1, 1}, 2);
  TrainOptions options;
  options.ensemble = EnsembleKind::kBagging;
  options.max_depth = 1;
  options.num_trees = 4186;
  CHECK(ExportOnnx(MustOk(Train(tiny, options))).ok());
  options.num_trees = 4187;
  const Result<std::vector<uint8_t>> refused = ExportOnnx(MustOk(Train(tiny, options)));
  CHECK(refused.status().code == StatusCode::kUnsupportedModel);
}

}  // namespace
}  // namespace urnforest
