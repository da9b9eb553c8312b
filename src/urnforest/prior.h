#pragma once
// Priors over the per-instance vote distribution, estimated from out-of-bag votes ([SSM16] §2.2,
// [Sot11] ch. 4).
//
// Every prior defines the law of the sequence of votes of one instance; the halting tables only
// need its predictive probabilities pi_j(t) = P(next vote = j | tally t). Decisions documented here:
//  * Rows with no out-of-bag vote (sum 0) are skipped by every estimator.
//  * 1dir/ndir fractions: p_i = (v_i + pseudocount) / (V + pseudocount * l) with pseudocount 0.5
//    by default, so that 0/1 fractions (unanimous OOB votes) never reach log(0). beta >= min_beta.
//  * ndir: a class with fewer than min_class_rows usable rows gets the pooled single-Dirichlet fit
//    as its component (weight still its class frequency); classes with no row get weight 0.
//  * hyper: OOB tallies are rescaled to T with largest-remainder rounding (ties to the lower class
//    index), histogrammed over final tallies, smoothed with a box of half-width (window-1)/2 in every
//    coordinate on the simplex (L-infinity ball; for l = 2 exactly the thesis's centred window of 5,
//    truncated at the ends), renormalised, then mixed with the uniform prior:
//    P <- (1 - uniform_mix) P + uniform_mix / #tallies, so that no tally has zero mass (a zero-mass
//    posterior would be undefined). With uniform_mix = 0, states with zero posterior mass never halt.
//  * hyper as a histogram over all C(T + l - 1, l - 1) final tallies (l <= 4, small T) or, for any
//    l and T, as what it is: a finite mixture of point masses at the rescaled training tallies (box-
//    smoothed for l <= 4: the same masses as the histogram's) plus uniform_mix of the uniform prior
//    (kTallyMixture; TallyMixturePriorFromOob). For l >= 5 the box would put 5^(l-1) cells around
//    every row, so the smoothing there is the uniform part alone.
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/halting_rule.h"
#include "urnforest/status.h"

namespace urnforest {

/// The family of a prior.
enum class PriorKind : int32_t {
  kUniform = 0,           ///< Dirichlet(1, ..., 1): uniform over final tallies for every T (siba).
  kDirichlet = 1,         ///< One Dirichlet(beta) (1dir).
  kDirichletMixture = 2,  ///< sum_i w_i Dirichlet(beta^i) (ndir).
  kHistogram = 3,         ///< Non-parametric mass over the final tallies of T votes (hyper).
  /// Point masses at final tallies of T votes plus a weight of the uniform prior (hyper, any l).
  kTallyMixture = 4,
};

/// Names of the prior kinds in enum order, as the JS API's `prior().kind` spells them:
/// "uniform", "dirichlet", "mixture", "histogram", "tallyMixture".
const std::vector<std::string>& PriorKindNames();
/// The name of `kind` (PriorKindNames), or "unknown" outside the enum. Never null.
const char* PriorKindName(PriorKind kind);

/// One Dirichlet component: weight (>= 0) and beta (> 0), one entry per class.
struct DirichletComponent {
  double weight = 1.0;
  std::vector<double> beta;
};

/// A prior over the votes of one instance. Immutable once built; cheap to copy except histograms
/// (C(T + l - 1, l - 1) doubles).
class Prior {
 public:
  /// Uniform prior for l classes (2 <= l <= 4096).
  static Result<Prior> Uniform(int32_t num_classes);
  /// Dirichlet(beta): l = beta.size() >= 2, every beta finite and > 0; else kInvalidArgument.
  static Result<Prior> Dirichlet(std::vector<double> beta);
  /// Mixture: >= 1 component, equal lengths >= 2, weights >= 0 with positive sum (renormalised).
  static Result<Prior> Mixture(std::vector<DirichletComponent> components);
  /// Histogram over final tallies of `num_trees` votes: mass[r] is the mass of the tally of rank r,
  /// where the rank of (T_1, ..., T_l) is sum_{i=1}^{l-1} C(T_1 + ... + T_i + i - 1, i) (for l = 2:
  /// rank = T_1). 2 <= l <= 4, mass.size() == C(T + l - 1, l - 1), mass >= 0, sum > 0
  /// (renormalised). Fails with kInvalidArgument / kShapeMismatch / kLimitExceeded (l > 4).
  static Result<Prior> Histogram(int32_t num_classes, int32_t num_trees, std::vector<double> mass);

  /// Finite mixture over final tallies of `num_trees` votes: tallies[i * l + c] (each row sums to T,
  /// counts >= 0) with weights[i] >= 0, plus `uniform_weight` >= 0 of the uniform prior
  /// (Dirichlet(1): uniform over the final tallies). Weights are renormalised to sum to 1 with
  /// uniform_weight. Any l >= 2. Fails with kInvalidArgument / kShapeMismatch.
  static Result<Prior> TallyMixture(int32_t num_classes, int32_t num_trees,
                                    std::vector<int32_t> tallies, std::vector<double> weights,
                                    double uniform_weight);

  PriorKind kind() const { return kind_; }
  int32_t num_classes() const { return num_classes_; }
  /// T of a histogram prior; 0 for the other kinds (valid for every T).
  int32_t num_trees() const { return num_trees_; }
  /// Dirichlet components (uniform: one with beta = 1; dirichlet: one); empty for histograms.
  const std::vector<DirichletComponent>& components() const { return components_; }
  /// Histogram mass (sums to 1), indexed by tally rank; empty for the other kinds.
  const std::vector<double>& histogram() const { return histogram_; }
  /// kTallyMixture: the point masses' final tallies, support()[i * l + c], and their weights (with
  /// uniform_weight() they sum to 1). Empty for the other kinds.
  const std::vector<int32_t>& support() const { return support_; }
  const std::vector<double>& support_weights() const { return support_weights_; }
  /// kTallyMixture: the weight of the uniform prior; 0 for the other kinds.
  double uniform_weight() const { return uniform_weight_; }
  /// True for kUniform, and for kDirichlet with all beta equal (symmetric).
  bool IsSymmetricDirichlet() const;

 private:
  PriorKind kind_ = PriorKind::kUniform;
  int32_t num_classes_ = 2;
  int32_t num_trees_ = 0;
  std::vector<DirichletComponent> components_;
  std::vector<double> histogram_;
  std::vector<int32_t> support_;
  std::vector<double> support_weights_;
  double uniform_weight_ = 0.0;
};

/// How the hyper (histogram) prior is estimated from out-of-bag tallies.
enum class HistogramEstimator : int32_t {
  /// The thesis's: OOB tallies rescaled to T, histogrammed, box-smoothed (HistogramPriorFromOob).
  kSmoothed = 0,
  /// Each row's OOB tally read as Multinomial(n_oob, p); the law of p estimated by NPMLE on a grid
  /// of the simplex, then mapped to Multinomial(T, p) final tallies (DeconvolvedPriorFromOob).
  kDeconvolved = 1,
};

/// hyper's prior where no full table is built (PriorForRule beyond EagerTableFits).
enum class HyperBeyondTables : int32_t {
  /// Dirichlet kernels around k-means centres of the rows' OOB vote rates (KernelMixturePriorFromOob),
  /// any l: the thesis's box of 5 votes vanishes at large T, and point masses that sharp leave
  /// held-out rows overconfident (4 classes, T = 1,001: 1.9 % disagreement at alpha = 0.99).
  kKernels = 0,
  /// The thesis's smoothed histogram as point masses (TallyMixturePriorFromOob; l <= 4 only).
  kSmoothedTallies = 1,
};

/// Options of the estimators from out-of-bag votes (defaults documented at the top of this file).
struct PriorFitOptions {
  double fraction_pseudocount = 0.5;  ///< Added to every OOB count before forming fractions.
  int32_t max_iterations = 2000;      ///< Minka fixed-point iterations (cap).
  double tolerance = 1e-10;           ///< Stop when max |beta change| / beta < tolerance.
  double min_beta = 1e-3;             ///< Floor on every fitted beta.
  int32_t min_class_rows = 5;         ///< ndir: fewer usable rows => pooled fit for that component.
  int32_t smoothing_window = 5;       ///< hyper: odd box width (1 = no smoothing).
  double uniform_mix = 1e-3;          ///< hyper: weight of the uniform prior mixed in, in [0, 1].
  /// hyper where no full table is built (PriorForRule).
  HyperBeyondTables hyper_beyond_tables = HyperBeyondTables::kKernels;
  /// hyper beyond full tables (KernelMixturePriorFromOob): concentration of each Dirichlet kernel (40: the
  /// resolution of the ~37 out-of-bag votes of a 101-tree forest, the thesis's setting) and the
  /// largest number of kernels.
  double kernel_concentration = 40.0;
  int32_t max_kernels = 64;
  /// hyper / optimal tables (PriorForRule): which histogram estimator.
  HistogramEstimator hyper_estimator = HistogramEstimator::kSmoothed;
  /// Deconvolution grid: points k / G of the simplex; 0 = 200 (l = 2), 50 (l = 3), 20 (l = 4).
  int32_t deconvolution_resolution = 0;
  int32_t deconvolution_iterations = 500;  ///< EM iterations of the deconvolution (fixed count).
};

/// Maximum-likelihood Dirichlet (Minka's fixed point) fitted to OOB vote fractions.
/// `oob_votes` is row-major, oob_votes[r * l + c] (as Forest::oob_votes()). Fails with
/// kShapeMismatch (size not a multiple of l), kInvalidArgument (l < 2, bad options, fewer than two
/// rows with OOB votes).
Result<Prior> FitDirichletPrior(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                const PriorFitOptions& options = {});

/// Dirichlet mixture, one component per class fitted on the rows of that training label, weights
/// = class frequencies (ndir). `labels` has one entry per row, each in [0, l). Fails as above, or
/// with kShapeMismatch / kUnknownClass for bad labels.
Result<Prior> FitDirichletMixturePrior(const std::vector<uint32_t>& oob_votes,
                                       const std::vector<int32_t>& labels, int32_t num_classes,
                                       const PriorFitOptions& options = {});

/// Smoothed histogram of OOB tallies rescaled to `num_trees` (hyper). l <= 4 (kLimitExceeded).
Result<Prior> HistogramPriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                    int32_t num_trees, const PriorFitOptions& options = {});

/// hyper for any number of classes and trees: the kTallyMixture with one point mass per distinct
/// rescaled OOB tally (RescaledOobTallies; weight = its number of rows), box-smoothed exactly as
/// HistogramPriorFromOob smooths (l <= 4; none for l >= 5), and options.uniform_mix of the uniform
/// prior. For l <= 4, FinalTallyMass of it equals HistogramPriorFromOob's histogram. Fails like
/// HistogramPriorFromOob, without the class limit.
Result<Prior> TallyMixturePriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                       int32_t num_trees, const PriorFitOptions& options = {});

/// hyper where no full table is built (any l and T): the training rows' out-of-bag vote rates p = (v + pseudocount) /
/// (V + pseudocount * l) (rows with V > 0; options.fraction_pseudocount, as 1dir's fractions),
/// grouped by k-means into at most options.max_kernels centres (farthest-point start, 25 Lloyd
/// steps, squared distance on rates; deterministic), each centre p-bar a Dirichlet kernel
/// Dirichlet(options.kernel_concentration * p-bar) weighted by its rows, plus options.uniform_mix of
/// the uniform prior: a Dirichlet mixture (PriorKind::kDirichletMixture). The kernel is the
/// smoothing: the box of HistogramPriorFromOob would need 5^(l-1) cells per row, and point masses
/// at rates that precise make the posterior of a row unlike any training row overconfident once
/// many votes are in. Fails with kInvalidArgument (no usable row, bad options) / kShapeMismatch.
Result<Prior> KernelMixturePriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                        const PriorFitOptions& options = {});

/// Deconvolved histogram prior (l <= 4). Each row with n >= 1 OOB votes is modelled as
/// Multinomial(n, p) with p drawn from an unknown law G; G is estimated by the non-parametric MLE
/// restricted to the grid {k / resolution} of the simplex (DeconvolvedGridWeights), and the prior
/// mass of a final tally t of `num_trees` votes is sum_k G_k Multinomial(t | num_trees, p_k), mixed
/// with uniform_mix of the uniform prior like HistogramPriorFromOob. Unlike rescaling each OOB tally
/// to T, this does not add the binomial spread of ~0.37 T OOB votes to the T-vote tallies.
/// Fails with kLimitExceeded (l > 4), kShapeMismatch, kInvalidArgument (no usable row, bad options).
Result<Prior> DeconvolvedPriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                      int32_t num_trees, const PriorFitOptions& options = {});

/// The NPMLE mixing weights behind DeconvolvedPriorFromOob: `iterations` EM steps from the uniform
/// distribution over the C(resolution + l - 1, l - 1) grid points, indexed by the rank of k (grid
/// point p = k / resolution; rank as for Prior::Histogram). Weights sum to 1. Rows with no OOB vote
/// are skipped. Fails as DeconvolvedPriorFromOob, or kInvalidArgument for resolution outside
/// [1, 1000] or iterations < 1.
Result<std::vector<double>> DeconvolvedGridWeights(const std::vector<uint32_t>& oob_votes,
                                                   int32_t num_classes, int32_t resolution,
                                                   int32_t iterations);

/// The out-of-bag tally of every training row with at least one OOB vote, rescaled to `num_trees`
/// votes by largest-remainder rounding (as the hyper histogram does), row after row:
/// out[i * l + c]. Any number of classes. Fails like HistogramPriorFromOob (no usable row).
Result<std::vector<int32_t>> RescaledOobTallies(const std::vector<uint32_t>& oob_votes,
                                                int32_t num_classes, int32_t num_trees);

/// The prior a rule needs: uniform for siba/alpha1/infinite; hyper (also used by optimal) ->
/// histogram when a full table of (num_trees, num_classes) is built (EagerTableFits), else
/// options.hyper_beyond_tables (the kernel mixture by default; the tally mixture, l <= 4, on
/// request); 1dir -> Dirichlet, ndir -> mixture.
/// The deconvolved estimator is for l <= 4 only (kLimitExceeded beyond).
Result<Prior> PriorForRule(HaltingRule rule, const std::vector<uint32_t>& oob_votes,
                           const std::vector<int32_t>& labels, int32_t num_classes,
                           int32_t num_trees, const PriorFitOptions& options = {});

/// Mass of every final tally of `num_trees` votes under `prior`, indexed by tally rank (see
/// Prior::Histogram). l <= 4; a histogram or tally-mixture prior needs num_trees ==
/// prior.num_trees().
Result<std::vector<double>> FinalTallyMass(const Prior& prior, int32_t num_trees);

/// Digamma function psi(x), x > 0 (exposed for tests).
double Digamma(double x);

}  // namespace urnforest
