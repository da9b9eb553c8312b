#pragma once
// A training request as a front end receives it: TrainOptions, which of the options that apply to
// one ensemble only the caller named, and vote-boosting's emphasis chosen by cross-validation. The
// core checks it (CheckTrainRequest: every bound and every rule between options, one message for
// the CLI and the JS API) and trains it (TrainWithEmphasisSelection: the cross-validated choice of
// a = b first when asked, then the forest), so that neither front end decides either.
#include <cstddef>
#include <cstdint>

#include "urnforest/dataset.h"
#include "urnforest/forest.h"
#include "urnforest/status.h"
#include "urnforest/train.h"
#include "urnforest/voteboost.h"

namespace urnforest {

/// Options that apply to one ensemble only, or only together with another option. TrainOptions
/// holds a default for each, so only the front end knows whether its caller named one; it marks
/// them in TrainRequest::named for CheckTrainRequest.
enum class TrainOptionKey : uint8_t {
  kBoosting = 0,   ///< The boosting variant (JS `boosting`, CLI --boosting): AdaBoost only.
  /// Vote-boosting's emphasis (JS `voteboost: {...}`, CLI --emphasis / --emphasis-b): vote-boosting
  /// only.
  kVoteBoost = 1,
  kEmphasisB = 2,  ///< The emphasis b (JS voteboost.b, CLI --emphasis-b): not with a = b by CV.
  kCvTrees = 3,    ///< Trees per CV ensemble (JS voteboost.cvTrees, CLI --cv-trees): with CV only.
  kAdaBoost = 4,   ///< AdaBoost's base learner (JS `adaboost: {...}`): AdaBoost only.
};

/// A set of TrainOptionKey.
class TrainOptionKeys {
 public:
  /// Adds `key` to the set.
  void Add(TrainOptionKey key) { bits_ |= Bit(key); }
  /// True when `key` was added.
  bool Has(TrainOptionKey key) const { return (bits_ & Bit(key)) != 0; }

 private:
  static uint32_t Bit(TrainOptionKey key) { return uint32_t{1} << static_cast<uint32_t>(key); }
  uint32_t bits_ = 0;
};

/// What to train: the options, and optionally the emphasis a = b chosen by cross-validation.
struct TrainRequest {
  TrainOptions options;
  /// Vote-boosting: choose a = b by SelectEmphasisByCV on the training data first (JS
  /// voteboost.a 'cv', CLI --emphasis cv), then train with a = the choice, b = 0 (symmetric).
  bool select_emphasis = false;
  /// Trees per cross-validation ensemble (EmphasisCvOptions::num_trees), 0..kMaxTrees; 0 = the
  /// forest's num_trees.
  int32_t cv_trees = 0;
  /// The options of TrainOptionKey the caller named.
  TrainOptionKeys named;
};

/// CheckTrainOptions(request.options, num_features), then the rules between options, each failing
/// with kInvalidArgument and a message naming the options:
/// - boosting named needs ensemble adaboost; vote-boosting's emphasis named (or select_emphasis)
///   needs ensemble voteboost; AdaBoost's base learner named needs ensemble adaboost;
/// - the emphasis b named cannot be combined with select_emphasis (a = b);
/// - cv_trees in 0..TrainOptions::kMaxTrees, and named only with select_emphasis.
Status CheckTrainRequest(const TrainRequest& request, size_t num_features);

/// A forest and, with TrainRequest::select_emphasis, the cross-validation that chose its emphasis.
struct TrainedForest {
  Forest forest;
  bool emphasis_selected = false;  ///< The request asked for select_emphasis.
  /// With emphasis_selected: the grid, the CV error of each value and the chosen a = b (which the
  /// forest's options().voteboost.a holds); default otherwise.
  EmphasisSelection emphasis;
};

/// Trains `request` on `data`: CheckTrainRequest, then with select_emphasis SelectEmphasisByCV
/// (EmphasisGrid, 10 folds, request.cv_trees trees per ensemble, seeded by options.seed) and Train
/// with voteboost.a = the choice and b = 0; otherwise Train(data, request.options). `progress`
/// (may be empty) sees one run: (trees done, CV trees + num_trees), scaled to fit int32 when that
/// total does not. Fails as CheckTrainRequest, SelectEmphasisByCV and Train.
Result<TrainedForest> TrainWithEmphasisSelection(const Dataset& data, const TrainRequest& request,
                                                 const ProgressFn& progress = {},
                                                 const TrainExecution& execution = {});

}  // namespace urnforest
