// Calibration hygiene as a specification: what calibrate refuses, what it warns about (each with
// its stable code), and what its rows can certify.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "urnforest/calibrate.h"
#include "urnforest/calibration_check.h"
#include "urnforest/certified_halting.h"
#include "urnforest/csv_reader.h"
#include "urnforest/full_vote.h"
#include "urnforest/onnx_import.h"
#include "urnforest/risk_certificate.h"

using namespace urnforest;
using urnforest::test::MustOk;

namespace {

const std::string kDir = std::string(URNFOREST_ONNX_FIXTURES_DIR) + "/../calibration/";

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The fully grown scikit-learn forest of tests/fixtures/calibration (scripts/calibration_fixture.py).
Forest WdbcForest() {
  const std::string bytes = ReadText(kDir + "rf_wdbc_full.onnx");
  const std::string train = ReadText(kDir + "train.csv");
  const std::string header = train.substr(0, train.find('\n'));
  OnnxImportOptions options;
  std::stringstream names(header);
  for (std::string name; std::getline(names, name, ',');) options.feature_names.push_back(name);
  return MustOk(ImportOnnx(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), options));
}

// The rows of one of the fixture's CSV files in the forest's layout.
std::vector<float> Rows(const Forest& forest, const std::string& file) {
  CsvOptions csv;
  csv.schema = &forest.schema();
  const Dataset data = MustOk(ReadCsv(ReadText(kDir + file), csv));
  return MustOk(ModelRows(forest, data));
}

bool Warns(const CalibrationReport& report, CalibrationWarningCode code) {
  for (const CalibrationWarning& w : report.warnings) {
    if (w.code == code) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("The calibration report's alpha and rows are what rule auto can certify (docs/import.md's table)",
          "[calibration]") {
  struct Row { double alpha, delta; size_t rows; };
  for (const Row& r : {Row{0.95, 0.05, 83}, Row{0.99, 0.05, 419}, Row{0.995, 0.05, 840}, Row{0.999, 0.05, 4203},
                       Row{0.95, 0.01, 127}, Row{0.99, 0.01, 644}, Row{0.995, 0.01, 1290}, Row{0.999, 0.01, 6462}}) {
    INFO(r.alpha << " " << r.delta);
    const size_t n = CalibrationRowsNeeded(r.alpha, r.delta);
    CHECK(n == r.rows);
    CHECK(n == static_cast<size_t>(AutoRowsNeeded(r.alpha, r.delta)));
    CHECK(MaxCertifiableAlpha(n, r.delta) >= r.alpha - 1e-12);
    CHECK(MaxCertifiableAlpha(n - 1, r.delta) < r.alpha);
  }
  CHECK(CalibrationRowsNeeded(1.0, 0.05) == 0);
  CHECK(MaxCertifiableAlpha(0, 0.05) == 0.0);
  CHECK(MaxCertifiableAlpha(1, 0.05) == 0.0);
  CHECK(MaxCertifiableAlpha(kMinCalibrationRows - 1, kCalibrationReportDelta) < 0.5);
}

TEST_CASE("Rule auto certifies on unanimous rows exactly up to the calibration report's alpha", "[calibration]") {
  for (int32_t n : {60, 419, 900}) {
    INFO(n);
    CalibrationRows rows;
    rows.num_classes = 2;
    rows.num_trees = 11;
    for (int32_t r = 0; r < n; ++r) {
      rows.tallies.insert(rows.tallies.end(), {r % 2 == 0 ? 11u : 0u, r % 2 == 0 ? 0u : 11u});
      rows.references.push_back(r % 2 == 0 ? 0 : 1);
    }
    const double top = MaxCertifiableAlpha(static_cast<size_t>(n), 0.05);
    CertifyOptions below;
    below.alpha = top - 1e-6;
    Result<CertifiedStrategy> ok = CertifyStrategy(rows, below);
    REQUIRE(ok.ok());
    CHECK(ok.value().certificate.certified);
    CertifyOptions above;
    above.alpha = std::min(1.0, top + 1e-4);
    Result<CertifiedStrategy> no = CertifyStrategy(rows, above);
    REQUIRE(no.ok());
    CHECK_FALSE(no.value().certificate.certified);
    CHECK(no.value().certificate.rows_needed.value_or(0) > n);
  }
}

TEST_CASE("calibration on one row, or on fewer rows than any alpha of 1/2 can use, is refused with TooFewCalibrationRows",
          "[calibration]") {
  Forest forest = WdbcForest();
  const std::vector<float> rows = Rows(forest, "heldout.csv");
  for (size_t n : {size_t{0}, size_t{1}, kMinCalibrationRows - 1}) {
    INFO(n);
    Result<CalibrationReport> report = CalibrateForestReport(&forest, rows.data(), n);
    REQUIRE_FALSE(report.ok());
    CHECK(report.status().code == StatusCode::kTooFewCalibrationRows);
    CHECK(std::string(CodeName(report.status().code)) == "TooFewCalibrationRows");
    CHECK(CalibrateForest(&forest, rows.data(), n).code == StatusCode::kTooFewCalibrationRows);
    CHECK_FALSE(forest.imported()->calibrated);
  }
  CHECK(CalibrateForest(&forest, rows.data(), kMinCalibrationRows).ok());
  CHECK(forest.imported()->calibrated);
}

TEST_CASE("300 copies of one row calibrate with the warning DuplicateRows and 1 distinct row", "[calibration]") {
  Forest forest = WdbcForest();
  const std::vector<float> held = Rows(forest, "heldout.csv");
  std::vector<float> rows;
  for (int i = 0; i < 300; ++i) rows.insert(rows.end(), held.begin(), held.begin() + forest.num_features());
  const CalibrationReport report = MustOk(CalibrateForestReport(&forest, rows.data(), 300));
  CHECK(report.rows == 300);
  CHECK(report.distinct_rows == 1);
  REQUIRE(Warns(report, CalibrationWarningCode::kDuplicateRows));
  CHECK(report.warnings[0].message.find("300 rows, 1 distinct") != std::string::npos);
  CHECK_FALSE(Warns(report, CalibrationWarningCode::kTrainingLikeRows));  // one distinct row is no evidence
  CHECK(forest.imported()->calibrated);
}

TEST_CASE("the model's own training rows warn TrainingLikeRows, its held-out rows do not", "[calibration]") {
  Forest forest = WdbcForest();
  const std::vector<float> train = Rows(forest, "train.csv");
  const std::vector<float> held = Rows(forest, "heldout.csv");
  const size_t width = static_cast<size_t>(forest.num_features());
  const CalibrationReport on_train = MustOk(CalibrateForestReport(&forest, train.data(), train.size() / width));
  CHECK(Warns(on_train, CalibrationWarningCode::kTrainingLikeRows));
  CHECK(on_train.distinct_rows == on_train.rows);
  const CalibrationReport on_held = MustOk(CalibrateForestReport(&forest, held.data(), held.size() / width));
  CHECK_FALSE(Warns(on_held, CalibrationWarningCode::kTrainingLikeRows));
  CHECK(on_held.contested_rows > on_train.contested_rows);
}

TEST_CASE("every tally unanimous on 20 or more distinct rows warns TrainingLikeRows", "[calibration]") {
  std::vector<float> rows;
  std::vector<uint32_t> votes;
  for (int r = 0; r < 20; ++r) {
    rows.push_back(static_cast<float>(r));
    votes.insert(votes.end(), {r % 2 == 0 ? 51u : 0u, r % 2 == 0 ? 0u : 51u});
  }
  const CalibrationReport all = MustOk(CheckCalibrationRows(rows.data(), 20, 1, votes, 2, 0.9));
  CHECK(all.unanimous_rows == 20);
  CHECK(Warns(all, CalibrationWarningCode::kTrainingLikeRows));
  const std::vector<uint32_t> nineteen(votes.begin(), votes.end() - 2);
  CHECK_FALSE(Warns(MustOk(CheckCalibrationRows(rows.data(), 19, 1, nineteen, 2, 0.9)),
                    CalibrationWarningCode::kTrainingLikeRows));
  votes[0] = 40, votes[1] = 11;  // one tally not unanimous
  CHECK_FALSE(Warns(MustOk(CheckCalibrationRows(rows.data(), 20, 1, votes, 2, 0.9)),
                    CalibrationWarningCode::kTrainingLikeRows));
}

TEST_CASE("50 rows for alpha 0.999 warn TooFewRowsForAlpha with the largest alpha they certify and the rows needed",
          "[calibration]") {
  Forest forest = WdbcForest();
  const std::vector<float> held = Rows(forest, "heldout.csv");
  const CalibrationReport report = MustOk(CalibrateForestReport(&forest, held.data(), 50, 0.999));
  CHECK(report.rows == 50);
  CHECK(report.alpha == 0.999);
  CHECK(report.max_certifiable_alpha == MaxCertifiableAlpha(50, 0.05));
  CHECK(report.max_certifiable_alpha == Approx(0.9185).epsilon(1e-4));
  CHECK(report.rows_needed == 4203);
  REQUIRE(report.warnings.size() == 1);
  CHECK(report.warnings[0].code == CalibrationWarningCode::kTooFewRowsForAlpha);
  CHECK(std::string(CalibrationWarningName(report.warnings[0].code)) == "TooFewRowsForAlpha");
  CHECK(report.warnings[0].message.find("0.918") != std::string::npos);
  CHECK(report.warnings[0].message.find("4203 rows") != std::string::npos);
  CHECK(MustOk(CalibrateForestReport(&forest, held.data(), 50, 0.9)).warnings.empty());
}

TEST_CASE("distinct rows count every NaN as equal to every NaN and -0 as 0", "[calibration]") {
  const float nan = std::nanf("");
  const std::vector<float> rows = {1.0f, nan, 1.0f, -nan, -0.0f, 2.0f, 0.0f, 2.0f, 0.0f, 3.0f};
  CHECK(CountDistinctRows(rows.data(), 5, 2) == 3);
}

TEST_CASE("warning codes have stable names", "[calibration]") {
  CHECK(std::string(CalibrationWarningName(CalibrationWarningCode::kDuplicateRows)) == "DuplicateRows");
  CHECK(std::string(CalibrationWarningName(CalibrationWarningCode::kTrainingLikeRows)) == "TrainingLikeRows");
  CHECK(std::string(CalibrationWarningName(CalibrationWarningCode::kTooFewRowsForAlpha)) == "TooFewRowsForAlpha");
}
