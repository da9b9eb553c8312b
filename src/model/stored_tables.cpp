// Halting tables stored with a Forest: lookup and replacement. Serialized by serialize.cpp.
#include <cstring>
#include <string>
#include <utility>

#include "urnforest/forest.h"

namespace urnforest {
namespace {

bool SameAlpha(double a, double b) {
  uint64_t x;
  uint64_t y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

}  // namespace

Status Forest::StoreTable(HaltingTable table) {
  if (table.num_classes() != num_classes()) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "the table has " + std::to_string(table.num_classes()) +
                             " classes, the forest " + std::to_string(num_classes()));
  }
  if (table.num_trees() < 1 || table.num_trees() > num_trees()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the table is for " + std::to_string(table.num_trees()) +
                             " trees, the forest has " + std::to_string(num_trees()));
  }
  for (HaltingTable& stored : stored_tables_) {
    if (stored.rule() == table.rule() && SameAlpha(stored.alpha(), table.alpha()) &&
        stored.num_trees() == table.num_trees()) {
      stored = std::move(table);
      return Status::Ok();
    }
  }
  stored_tables_.push_back(std::move(table));
  return Status::Ok();
}

const HaltingTable* Forest::FindStoredTable(HaltingRule rule, double alpha,
                                            int32_t num_trees) const {
  const int32_t t = num_trees > 0 ? num_trees : this->num_trees();
  for (const HaltingTable& stored : stored_tables_) {
    // The lead rule (alpha1) ignores alpha: its table answers for every alpha asked.
    const bool any_alpha = stored.layout() == TableLayout::kLeadRule;
    if (stored.rule() == rule && (any_alpha || SameAlpha(stored.alpha(), alpha)) &&
        stored.num_trees() == t) {
      return &stored;
    }
  }
  return nullptr;
}

}  // namespace urnforest
