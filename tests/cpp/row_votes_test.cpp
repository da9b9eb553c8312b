// ComputeRowVotes (vote_matrix.h): the row-major twin of ComputeVoteMatrix.
#include <catch2/catch.hpp>

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
