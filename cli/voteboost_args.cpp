#include "voteboost_args.h"

#include <string>

namespace urnforest::cli {

Status ParseVoteBoostArgs(const Args& args, VoteBoostOptions* options, bool* by_cv) {
  *by_cv = false;
  const std::string emphasis = args.Get("emphasis", "1");
  if (emphasis == "cv") {
    *by_cv = true;
    options->a = 1.0;
  } else {
    Result<double> a = args.Real("emphasis", 1.0, 1e-6, 1e6);
    if (!a.ok()) return a.status();
    options->a = a.value();
  }
  if (args.Has("emphasis-b")) {
    if (*by_cv) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "option --emphasis-b cannot be combined with --emphasis cv (a = b)");
    }
    Result<double> b = args.Real("emphasis-b", 0.0, 1e-6, 1e6);
    if (!b.ok()) return b.status();
    options->b = b.value();
  }
  const std::string base = args.Get("base", "random");
  if (base == "random") {
    options->base = VoteBoostBase::kRandomTree;
  } else if (base == "unpruned") {
    options->base = VoteBoostBase::kUnprunedCart;
  } else if (base == "stump") {
    options->base = VoteBoostBase::kStump;
  } else if (base == "pruned") {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --base pruned: cost-complexity-pruned CART is not implemented yet "
                         "(use stump, unpruned or random)");
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "option --base must be random, unpruned or stump, got '" + base + "'");
  }
  return Status::Ok();
}

}  // namespace urnforest::cli
