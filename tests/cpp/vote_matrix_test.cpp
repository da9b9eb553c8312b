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

namespace {

// Trains `trees` trees on `train` and checks, for every row of `test` and every tree, that the vote
// matrix (tree-major), the row-major votes and TreeVote agree. Returns the rows of `test` that
// have a missing value.
size_t CheckVotesMatchTreeVote(const urnforest::Dataset& train, const urnforest::Dataset& test,
                               int32_t trees, uint64_t seed) {
  urnforest::TrainOptions o;
  o.num_trees = trees;
  o.seed = seed;
  auto forest = urnforest::Train(train, o);
  REQUIRE(forest.ok());
  auto rows = urnforest::ComputeRowVotes(forest.value(), test);
  auto matrix = urnforest::ComputeVoteMatrix(forest.value(), test);
  REQUIRE(rows.ok());
  REQUIRE(matrix.ok());
  const size_t n = test.num_rows();
  const size_t m = test.num_features();
  REQUIRE(rows.value().size() == n * static_cast<size_t>(trees));
  const std::vector<float> x = test.RowMajor();
  size_t rows_with_missing = 0;
  for (size_t r = 0; r < n; ++r) {
    bool missing = false;
    for (size_t f = 0; f < m; ++f) missing = missing || std::isnan(x[r * m + f]);
    rows_with_missing += missing ? 1 : 0;
    for (int32_t t = 0; t < trees; ++t) {
      const int32_t expected = forest.value().TreeVote(t, x.data() + r * m);
      CHECK(matrix.value().votes[t * n + r] == expected);
      CHECK(rows.value()[r * trees + t] == expected);
    }
  }
  return rows_with_missing;
}

}  // namespace

TEST_CASE("Row-major votes are the transpose of the vote matrix and match TreeVote", "[vote_matrix]") {
  auto train = urnforest::GenerateProblem("waveform", 120, 3);
  auto test = urnforest::GenerateProblem("waveform", 37, 4);
  REQUIRE(train.ok());
  REQUIRE(test.ok());
  CheckVotesMatchTreeVote(train.value(), test.value(), 9, 5);
}

TEST_CASE("Vote matrix of a forest with categorical splits and missing values matches TreeVote",
          "[vote_matrix]") {
  std::ifstream in(std::string(URNFOREST_DATASETS_DIR) + "/soybean.csv", std::ios::binary);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  auto data = urnforest::ReadCsv(text.str());
  REQUIRE(data.ok());
  // the data exercises the missing-value path
  CHECK(CheckVotesMatchTreeVote(data.value(), data.value(), 7, 3) > 0);
}
