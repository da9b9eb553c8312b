#pragma once
// Shared parsing of the vote-boosting CLI options (train and experiment commands).
#include "args.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/voteboost.h"

namespace urnforest::cli {

/// Reads --emphasis A|cv (a = b; "cv" sets *by_cv and leaves a = 1), --emphasis-b B (asymmetric,
/// two classes) and --base random|unpruned|stump|pruned into `options`. "pruned" fails with
/// kInvalidArgument (pruned CART is not implemented yet; see docs/voteboost.md).
Status ParseVoteBoostArgs(const Args& args, VoteBoostOptions* options, bool* by_cv);

using urnforest::VoteBoostBaseName;  // Declared in urnforest/voteboost.h.

}  // namespace urnforest::cli
