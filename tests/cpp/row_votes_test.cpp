// ComputeRowVotes (vote_matrix.h): the row-major twin of ComputeVoteMatrix.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "urnforest/csv_reader.h"
#include "urnforest/forest.h"
#include "urnforest/generators.h"
#include "urnforest/vote_matrix.h"

TEST_CASE("Row-major votes are the transpose of the vote matrix and match TreeVote", "[vote_matrix]") {
  auto train = urnforest::GenerateProblem("waveform", 120, 3);
  auto test = urnforest::GenerateProblem("waveform", 37, 4);
  REQUIRE(train.ok());
  REQUIRE(test.ok());
  urnforest::TrainOptions o;
  o.num_trees = 9;
  o.seed = 5;
  auto forest = urnforest::Train(train.value(), o);
  REQUIRE(forest.ok());
  auto rows = urnforest::ComputeRowVotes(forest.value(), test.value());
  auto matrix = urnforest::ComputeVoteMatrix(forest.value(), test.value());
  REQUIRE(rows.ok());
  REQUIRE(matrix.ok());
  const size_t n = test.value().num_rows();
  REQUIRE(rows.value().size() == n * 9);
  const std::vector<float> x = test.value().RowMajor();
  const size_t m = test.value().num_features();
  for (size_t r = 0; r < n; ++r) {
    for (int32_t t = 0; t < 9; ++t) {
      CHECK(rows.value()[r * 9 + t] == matrix.value().votes[t * n + r]);
      CHECK(rows.value()[r * 9 + t] == forest.value().TreeVote(t, x.data() + r * m));
    }
  }
}

TEST_CASE("Vote matrix of a forest with categorical splits and missing values matches TreeVote",
          "[vote_matrix]") {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/soybean.csv", std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  auto data = urnforest::ReadCsv(text.str());
  REQUIRE(data.ok());
  urnforest::TrainOptions o;
  o.num_trees = 7;
  o.seed = 3;
  auto forest = urnforest::Train(data.value(), o);
  REQUIRE(forest.ok());
  auto matrix = urnforest::ComputeVoteMatrix(forest.value(), data.value());
  auto rows = urnforest::ComputeRowVotes(forest.value(), data.value());
  REQUIRE(matrix.ok());
  REQUIRE(rows.ok());
  const std::vector<float> x = data.value().RowMajor();
  const size_t n = data.value().num_rows();
  const size_t m = data.value().num_features();
  size_t rows_with_missing = 0;
  for (size_t r = 0; r < n; ++r) {
    bool missing = false;
    for (size_t f = 0; f < m; ++f) missing = missing || std::isnan(x[r * m + f]);
    rows_with_missing += missing ? 1 : 0;
    for (int32_t t = 0; t < 7; ++t) {
      const int32_t expected = forest.value().TreeVote(t, x.data() + r * m);
      CHECK(matrix.value().votes[t * n + r] == expected);
      CHECK(rows.value()[r * 7 + t] == expected);
    }
  }
  CHECK(rows_with_missing > 0);  // the data exercises the missing-value path
}
