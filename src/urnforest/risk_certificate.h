#pragma once
// A finite-sample, distribution-free certificate that a stopping strategy's disagreement with the
// full vote is at most a target, from calibration rows (Learn then Test: Angelopoulos, Bates,
// Candès, Jordan & Lei, arXiv 2110.01052, 2021).
//
// Each calibration row i contributes a loss L_i in [0, 1] per candidate strategy: its exact
// probability of disagreeing with the reference under a random query order (a number computed from
// the row's final tally, far less noisy than a 0/1 error), or a 0/1 disagreement for a fixed order.
// If calibration rows and future rows are exchangeable draws from one distribution, the mean loss
// R of a strategy on future rows is what its certificate bounds.
//
// Per candidate, the null hypothesis "R > epsilon" is tested with a p-value valid for any i.i.d.
// losses in [0, 1]: the Hoeffding-Bentkus p-value p = min(exp(-n h(Rhat, epsilon)),
// e P(Binomial(n, epsilon) <= ceil(n Rhat))), h the Bernoulli relative entropy (Bates et al.,
// "Distribution-free, risk-controlling prediction sets", 2021), a betting p-value (BettingPValue;
// Waudby-Smith & Ramdas 2024), or both combined (PValueMethod). CertifyRisk: candidates come in
// families ordered from the safest to the most aggressive; each family is tested in that order at
// level delta / (number of families) with Hoeffding-Bentkus and stops at its first failure
// (fixed-sequence testing), so with probability at least 1 - delta over the draw of the
// calibration rows every certified candidate has R <= epsilon. The answer is the certified
// candidate with the fewest mean trees on the calibration rows. CertifySequence is the same with
// one sequence over every candidate, tested at the full delta (no Bonferroni split): the caller
// orders it without reading the rows the losses come from.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {

/// Hoeffding-Bentkus p-value of "mean loss > max_risk" from `rows` losses in [0, 1] with mean
/// `mean_loss`; 1 when mean_loss >= max_risk or rows == 0. max_risk in (0, 1).
double HoeffdingBentkusPValue(double mean_loss, size_t rows, double max_risk);

/// Betting p-value of "mean loss >= max_risk" (Waudby-Smith & Ramdas, "Estimating means of bounded
/// random variables by betting", JRSS B 2024; one-sided hedged capital): a gambler starting with
/// capital 1 bets on each row in the given order, multiplying it by 1 + lambda_i (max_risk - L_i),
/// lambda_i in [0, kBettingCap / (1 - max_risk)] chosen from the rows before i only (predictable,
/// shrunk where the losses so far vary: lambda_i = min(cap, sqrt(2 log(1 / delta) / (n var_i))),
/// var_i a running variance with prior max_risk / 4). Under the null (i.i.d. losses in [0, 1] with
/// mean >= max_risk) the capital is a nonnegative supermartingale, so by Ville's inequality
/// p = min(1, 1 / max_i capital_i) is a valid p-value for every level. `delta` only tunes the bets.
/// Far tighter than Hoeffding-Bentkus when the losses are spread over [0, 1] rather than 0 or 1;
/// with n zero losses it is about (1 - max_risk)^(0.95 n) (the cap), slightly above Hoeffding-Bentkus.
/// 1 for no rows or max_risk outside (0, 1).
double BettingPValue(const std::vector<double>& losses, double max_risk, double delta);

/// The largest bet, as a share of the largest bet that keeps the capital non-negative.
inline constexpr double kBettingCap = 0.95;

/// Which p-value a certificate tests with.
enum class PValueMethod {
  kHoeffdingBentkus,  ///< HoeffdingBentkusPValue of the mean loss.
  kBetting,           ///< BettingPValue of the losses in row order.
  /// min(1, 2 min(Hoeffding-Bentkus, betting)): valid (a Bonferroni split of the level in two), and
  /// never far from the better of the two.
  kCombined,
};

/// "hoeffding-bentkus", "betting" or "hoeffding-bentkus+betting".
const char* PValueMethodName(PValueMethod method);

/// The p-value of `method` for `losses` (each in [0, 1]) against max_risk; `delta` tunes the bets.
double RiskPValue(PValueMethod method, const std::vector<double>& losses, double max_risk, double delta);

/// The smallest epsilon whose Hoeffding-Bentkus p-value is <= delta: an upper confidence bound, at
/// level 1 - delta, on the mean loss of future rows (1 when nothing below 1 qualifies).
double RiskUpperBound(double mean_loss, size_t rows, double delta);

/// One candidate strategy measured on the calibration rows.
struct RiskCandidate {
  std::string name;           ///< What it is, e.g. "hyper at 0.999" (reported as is).
  std::vector<double> loss;   ///< Per row, in [0, 1].
  std::vector<double> trees;  ///< Per row, expected trees queried.
};

/// A family of candidates, safest first (tested in this order).
using RiskFamily = std::vector<RiskCandidate>;

/// What CertifyRisk proved.
struct RiskCertificate {
  bool certified = false;   ///< False when no candidate passed (then family/index are -1).
  int family = -1;          ///< The chosen candidate's family and index in it.
  int index = -1;
  std::string name;         ///< The chosen candidate's name.
  size_t rows = 0;          ///< Calibration rows used.
  double max_risk = 0.0;    ///< epsilon = 1 - alpha.
  double delta = 0.0;
  double mean_loss = 0.0;   ///< The chosen candidate's mean loss on the calibration rows.
  double mean_trees = 0.0;  ///< Its mean trees on them.
  /// Its upper confidence bound on the future mean loss at level 1 - delta / families (<= max_risk).
  double bound = 1.0;
  /// The smallest epsilon any candidate with zero loss on these rows could be certified at, and
  /// 1 minus it: the largest alpha these rows can support.
  double smallest_certifiable_risk = 1.0;
  double largest_certifiable_alpha = 0.0;
  int tested = 0;           ///< Hypotheses tested (over all families).
  /// The p-value the tests used (PValueMethodName).
  std::string method = "hoeffding-bentkus";
  /// CertifySequence: the position of the first candidate that failed (the sequence stopped
  /// there); -1 when every candidate passed or for CertifyRisk.
  int first_failure = -1;
};

/// Learn-then-Test with fixed-sequence testing in each family and a Bonferroni split of delta over
/// the families (see the file comment). Every candidate must have one loss and one trees entry
/// per row; rows >= 1. kInvalidArgument for mismatched sizes, losses outside [0, 1], max_risk
/// outside (0, 1), delta outside (0, 1), or no family.
Result<RiskCertificate> CertifyRisk(const std::vector<RiskFamily>& families, double max_risk,
                                    double delta);

/// Learn-then-Test along ONE fixed sequence: sequence[0], sequence[1], ... are tested in this order,
/// each at the full level delta, and testing stops at the first candidate whose `method` p-value
/// exceeds delta (fixed-sequence testing: the family-wise error is at most delta as long
/// as the order does not depend on the rows the losses come from). Every candidate before the
/// first failure is certified; the one with the fewest mean trees is chosen (family 0, index its
/// position). `bound` is its upper confidence bound at level 1 - delta (RiskUpperBoundOf), and
/// smallest_certifiable_risk the same bound for zero losses on as many rows. Fails like CertifyRisk (an empty
/// sequence is "no candidate strategies").
Result<RiskCertificate> CertifySequence(const std::vector<RiskCandidate>& sequence, double max_risk,
                                        double delta, PValueMethod method = PValueMethod::kHoeffdingBentkus);

/// The smallest epsilon in (0, 1) whose `method` p-value of `losses` is <= delta (bisection: the
/// p-values grow as epsilon shrinks); 1 when none qualifies.
double RiskUpperBoundOf(PValueMethod method, const std::vector<double>& losses, double delta);

}  // namespace urnforest
