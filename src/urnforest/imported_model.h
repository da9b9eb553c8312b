#pragma once
// ImportedModel: what a forest brought in from another library (ONNX) carries beyond its trees:
// the value each leaf holds per class, how the source library turns summed leaf values into
// scores, and where the model came from. A Forest holds one when it was imported
// (Forest::imported()); its leaves' class index is then the tree's hard vote (the leaf's top class).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// How the source library combines its trees.
enum class ImportedKind : uint8_t {
  /// Each tree's leaf holds a class distribution (scikit-learn and Spark MLlib random forests,
  /// extra trees, bagging): the source predicts the class with the largest summed (soft) vote.
  kVoting = 0,
  /// Each leaf holds signed margins that are summed per class with base values and transformed
  /// (XGBoost, LightGBM, gradient boosting): no tree votes on its own.
  kAdditive = 1,
};

/// The transform the source applies to the summed scores (ONNX post_transform). Each is monotone
/// per class, so the predicted class is the largest summed score (binary layout: see
/// ImportedModel::single_score).
enum class ScoreTransform : uint8_t {
  kNone = 0,
  kLogistic = 1,
  kSoftmax = 2,
  kSoftmaxZero = 3,
};

/// How a forest's full prediction counts its trees.
enum class VoteKind : uint8_t {
  kHard = 0,  ///< Majority of the trees' votes (the papers' vote).
  kSoft = 1,  ///< The source library's own prediction: the class of the largest summed score.
};

/// Names of the model kinds and vote kinds, as the CLI's JSON and the JS API spell them:
/// ImportedKind "voting", "additive"; VoteKind "hard", "soft". `*Names()` lists them in enum
/// order; `*Name()` names a value ("unknown" outside the enum, never null); `Parse*` is exact
/// (lower case) and fails with kInvalidArgument "unknown model kind 'x' (expected voting or
/// additive)" / "unknown vote kind 'x' (expected hard or soft)". Front ends that word their
/// refusal otherwise (the CLI's "option --vote must be soft or hard") replace the message and
/// keep the code.
const std::vector<std::string>& ImportedKindNames();
const char* ImportedKindName(ImportedKind kind);
Result<ImportedKind> ParseImportedKind(std::string_view name);
const std::vector<std::string>& VoteKindNames();
const char* VoteKindName(VoteKind kind);
Result<VoteKind> ParseVoteKind(std::string_view name);

/// What the calibrated margin rule (urnforest/margin_rule.h) measured on the calibration rows: for
/// each threshold of its grid, how many rows its halted answer got wrong (against the full soft
/// prediction) and the trees it queried on average.
struct MarginCalibration {
  uint32_t rows = 0;   ///< Calibration rows measured (0: not calibrated).
  double scale = 0.0;  ///< Per-tree value scale of the statistic (mean of each tree's largest leaf total).
  std::vector<double> lambdas;     ///< Thresholds, increasing.
  std::vector<uint32_t> wrong;     ///< Per threshold: rows whose halted answer differs.
  std::vector<double> mean_trees;  ///< Per threshold: mean trees queried.
};

/// The import record of a forest (see the file comment). Invariants (checked on import and load):
/// leaf_values holds `outputs` values per leaf; base_values is empty or `outputs` long.
struct ImportedModel {
  ImportedKind kind = ImportedKind::kVoting;
  ScoreTransform transform = ScoreTransform::kNone;
  /// Binary models stored with one score per leaf (the second class's): the two classes' scores are
  /// then (-s, s), or (1 - s, s) with ScoreTransform::kNone and non-negative weights (ONNX Runtime's
  /// rule), and the second class wins when its score is larger.
  bool single_score = false;
  /// Values per leaf: the number of classes, or 1 with single_score.
  int32_t outputs = 0;
  /// Label rules decided against ONNX Runtime (docs/import.md, "Cases decided"); all false and
  /// empty for models that need none, which then keep their exact bytes.
  /// Two outputs whose file weighted the second class only, non-negative, without a transform
  /// (ONNX Runtime's binary case with class id 1): the second class wins when its summed score
  /// exceeds 0.5 (SingleScoreThreshold's rounding bound included); the scores stay [0, s].
  bool second_class_threshold = false;
  /// The label is the first largest of the transformed scores rounded to float32 (an opset-5
  /// TreeEnsemble followed by ArgMax, which reads the transformed output); otherwise it comes from
  /// the summed scores.
  bool label_from_scores = false;
  /// Three or more outputs without base values: per leaf row and output, 1 when the file's leaf
  /// names the class (even with weight 0), 0 when it does not (leaves x outputs). A class no leaf
  /// of a row's walk names is skipped by that row's label, as ONNX Runtime does. Empty when every
  /// row reaches a leaf naming every class (some tree names every class in all its leaves).
  std::vector<uint8_t> named;
  std::vector<double> base_values;  ///< Added to the summed scores (empty = zeros).
  std::vector<double> leaf_values;  ///< leaves x outputs, row-major; a leaf node's aux is its row.
  VoteKind default_vote = VoteKind::kSoft;  ///< The vote predict uses when none is asked for.
  std::string source;  ///< "producer version" of the ONNX file, e.g. "skl2onnx 1.16.0".
  /// True once CalibrateForest has stored the votes of every tree on unlabeled rows in
  /// Forest::oob_votes() (with their majority class in train_labels()), from which halting priors
  /// are fitted as they are from out-of-bag votes.
  bool calibrated = false;
  /// The margin rule's measurements on the calibration rows (voting models; empty otherwise).
  MarginCalibration margin;
  /// Derived, not stored in the model bytes: per tree t and output c, the smallest and largest
  /// value of c over the tree's leaves (tree_low[t * outputs + c]); set by ImportOnnx and the
  /// loader, read by the exact early exit.
  std::vector<double> tree_low, tree_high;
};

}  // namespace urnforest
