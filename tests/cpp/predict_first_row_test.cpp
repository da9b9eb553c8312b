// PredictRequest::first_row: a batch predicted in contiguous parts, each with its offset, answers as
// the whole batch in one call (what the JS worker's parallel predict relies on).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "urnforest/forest.h"
#include "urnforest/forest_halting.h"
#include "urnforest/generators.h"
#include "urnforest/predict_request.h"

using namespace urnforest;

namespace {

Forest TwonormForest() {
  Result<Dataset> train = Twonorm(300, 31);
  REQUIRE(train.ok());
  TrainOptions o;
  o.num_trees = 51;
  o.seed = 3;
  Result<Forest> forest = Train(train.value(), o);
  REQUIRE(forest.ok());
  return std::move(forest).value();
}

// 700 test rows of twonorm prepared for `forest`, every 31st value missing.
PreparedRows TestRows(const Forest& forest) {
  Result<Dataset> test = Twonorm(700, 32);
  REQUIRE(test.ok());
  Result<PreparedRows> rows = PrepareRows(forest, test.value());
  REQUIRE(rows.ok());
  PreparedRows prepared = std::move(rows).value();
  for (size_t i = 0; i < prepared.values.size(); i += 31) prepared.values[i] = NAN;
  prepared.without_nan = RowsWithoutNaN(prepared.values.data(), prepared.num_rows,
                                        static_cast<size_t>(forest.num_features()));
  return prepared;
}

// Rows [begin, end) of `rows` as a batch of their own.
PreparedRows Part(const PreparedRows& rows, size_t begin, size_t end, size_t width) {
  PreparedRows part;
  part.num_rows = end - begin;
  part.layout = rows.layout;
  part.layout_id = rows.layout_id;
  part.values.assign(rows.values.begin() + static_cast<std::ptrdiff_t>(begin * width),
                     rows.values.begin() + static_cast<std::ptrdiff_t>(end * width));
  part.without_nan.assign(rows.without_nan.begin() + static_cast<std::ptrdiff_t>(begin),
                          rows.without_nan.begin() + static_cast<std::ptrdiff_t>(end));
  return part;
}

template <typename T>
void Append(std::vector<T>* to, const std::vector<T>& from) {
  to->insert(to->end(), from.begin(), from.end());
}

// The per-row arrays of the parts' answers, joined in row order.
Prediction Joined(const std::vector<Prediction>& parts) {
  Prediction out;
  for (const Prediction& p : parts) {
    Append(&out.labels, p.labels);
    Append(&out.trees_used, p.trees_used);
    Append(&out.confidence, p.confidence);
    Append(&out.halted_early, p.halted_early);
    Append(&out.tallies, p.tallies);
    Append(&out.full_labels, p.full_labels);
    Append(&out.full_votes, p.full_votes);
    Append(&out.probabilities, p.probabilities);
  }
  return out;
}

void RequireSameRows(const Prediction& whole, const Prediction& joined) {
  REQUIRE(whole.labels == joined.labels);
  REQUIRE(whole.trees_used == joined.trees_used);
  REQUIRE(whole.confidence == joined.confidence);
  REQUIRE(whole.halted_early == joined.halted_early);
  REQUIRE(whole.tallies == joined.tallies);
  REQUIRE(whole.full_labels == joined.full_labels);
  REQUIRE(whole.full_votes == joined.full_votes);
  REQUIRE(whole.probabilities == joined.probabilities);
}

// `request` on the whole of `rows` and on its parts cut at `cuts` (each with its first_row).
void RequirePartsAnswerAsWhole(const Forest& forest, const PreparedRows& rows, PredictRequest request,
                               const std::vector<size_t>& cuts) {
  Result<Prediction> whole = Predict(forest, rows, request);
  REQUIRE(whole.ok());
  std::vector<Prediction> parts;
  size_t begin = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(rows.num_rows);
  for (size_t end : ends) {
    request.first_row = begin;
    Result<Prediction> p = Predict(forest, Part(rows, begin, end, static_cast<size_t>(forest.num_features())), request);
    REQUIRE(p.ok());
    parts.push_back(std::move(p).value());
    begin = end;
  }
  RequireSameRows(whole.value(), Joined(parts));
}

}  // namespace

TEST_CASE("A batch predicted in parts with their first_row answers as the whole batch, in random order",
          "[predict_request][first_row]") {
  const Forest forest = TwonormForest();
  const PreparedRows rows = TestRows(forest);
  const std::vector<size_t> cuts = {1, 233, 234, 500};
  for (const std::string rule : {"hyper", "alpha1", "siba"}) {
    PredictRequest request;
    request.rule = rule;
    request.alpha = 0.95;
    request.order = QueryOrder::kRandomPerRow;
    request.seed = 17;
    request.compare = true;
    request.probabilities = true;
    RequirePartsAnswerAsWhole(forest, rows, request, cuts);
  }
}

TEST_CASE("The stopping strategies (rules auto and lp) draw each row's streams from its index in the whole batch",
          "[predict_request][first_row]") {
  const Forest forest = TwonormForest();
  const PreparedRows rows = TestRows(forest);
  for (const std::string rule : {"auto", "lp"}) {
    PredictRequest request;
    request.rule = rule;
    request.alpha = 0.95;
    request.compare = true;
    RequirePartsAnswerAsWhole(forest, rows, request, {350});
  }
}

TEST_CASE("A part predicted without its first_row draws other random orders than in the whole batch",
          "[predict_request][first_row]") {
  const Forest forest = TwonormForest();
  const PreparedRows rows = TestRows(forest);
  PredictRequest request;
  request.rule = "hyper";
  request.alpha = 0.95;
  request.order = QueryOrder::kRandomPerRow;
  Result<Prediction> whole = Predict(forest, rows, request);
  REQUIRE(whole.ok());
  const size_t width = static_cast<size_t>(forest.num_features());
  Result<Prediction> unshifted = Predict(forest, Part(rows, 350, 700, width), request);
  REQUIRE(unshifted.ok());
  request.first_row = 350;
  Result<Prediction> shifted = Predict(forest, Part(rows, 350, 700, width), request);
  REQUIRE(shifted.ok());
  const std::vector<int32_t> tail(whole.value().tallies.begin() + 350 * 2, whole.value().tallies.end());
  CHECK(shifted.value().tallies == tail);
  CHECK(unshifted.value().tallies != tail);
}

TEST_CASE("first_row needs a rule, and 0 is the default", "[predict_request][first_row]") {
  const Forest forest = TwonormForest();
  PredictRequest request;
  request.first_row = 5;
  RequestFault fault = RequestFault::kNone;
  const Status refused = CheckPredictRequest(forest, request, &fault);
  REQUIRE(refused.code == StatusCode::kInvalidArgument);
  CHECK(refused.message == "option firstRow needs a rule");
  CHECK(fault == RequestFault::kMisplaced);
  request.rule = "hyper";
  request.first_row = 0;
  Result<PredictPlan> zero = PlanPredict(forest, request);
  REQUIRE(zero.ok());
  CHECK(zero.value().order.first_row == 0);
  request.first_row = 123456789012ULL;
  Result<PredictPlan> far = PlanPredict(forest, request);
  REQUIRE(far.ok());
  CHECK(far.value().order.first_row == 123456789012ULL);
}
