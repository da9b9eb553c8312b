// Priors over a row's votes: uniform, Dirichlet and Dirichlet mixtures fitted by Minka's fixed
// point ([Min00]), histograms.
#include "urnforest/prior.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "halting/box_neighbours.h"
#include "halting/rule_table.h"
#include "halting/tally_lattice.h"
#include "urnforest/halting_table.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

constexpr int32_t kMaxHistogramClasses = 4;
// Largest number of final tallies FinalTallyMass materialises (C(T + l - 1, l - 1) doubles).
constexpr int64_t kMaxDenseTallies = 20'000'000;
// Largest tallies x Dirichlet components FinalTallyMass evaluates (~1 s natively).
constexpr double kMaxDenseWork = 2e7;

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, message);
}

double Trigamma(double x) {
  double r = 0.0;
  while (x < 6.0) {
    r += 1.0 / (x * x);
    x += 1.0;
  }
  double x2 = 1.0 / (x * x);
  return r + 1.0 / x + x2 / 2.0 +
         (1.0 / x) * x2 * (1.0 / 6.0 - x2 * (1.0 / 30.0 - x2 * (1.0 / 42.0 - x2 / 30.0)));
}

// Minka's inversion: Newton on psi(x) = y from his initialisation.
double InverseDigamma(double y) {
  double x = y >= -2.22 ? std::exp(y) + 0.5 : -1.0 / (y - Digamma(1.0));
  for (int i = 0; i < 8; ++i) x -= (Digamma(x) - y) / Trigamma(x);
  return x;
}

Status CheckOptions(const PriorFitOptions& o) {
  if (!(o.fraction_pseudocount > 0.0) || !std::isfinite(o.fraction_pseudocount))
    return Invalid("fraction_pseudocount must be finite and > 0");
  if (o.max_iterations < 1) return Invalid("max_iterations must be >= 1");
  if (!(o.tolerance > 0.0)) return Invalid("tolerance must be > 0");
  if (!(o.min_beta > 0.0)) return Invalid("min_beta must be > 0");
  if (o.smoothing_window < 1 || o.smoothing_window % 2 == 0)
    return Invalid("smoothing_window must be odd and >= 1");
  if (!(o.uniform_mix >= 0.0 && o.uniform_mix <= 1.0)) return Invalid("uniform_mix must be in [0, 1]");
  return Status::Ok();
}

Status CheckVotes(const std::vector<uint32_t>& votes, int32_t l) {
  if (l < 2) return Invalid("num_classes must be >= 2");
  if (votes.size() % static_cast<size_t>(l) != 0)
    return Status::Error(StatusCode::kShapeMismatch,
                         "oob_votes has " + std::to_string(votes.size()) +
                             " entries, not a multiple of num_classes " + std::to_string(l));
  return Status::Ok();
}

// Mean log-fraction per class over the selected rows; returns the number of usable rows.
size_t MeanLogFractions(const std::vector<uint32_t>& votes, int32_t l, const std::vector<size_t>& rows,
                        double pseudo, std::vector<double>* mean_log, std::vector<double>* m1,
                        std::vector<double>* m2) {
  mean_log->assign(l, 0.0);
  m1->assign(l, 0.0);
  m2->assign(l, 0.0);
  size_t used = 0;
  for (size_t r : rows) {
    const uint32_t* v = &votes[r * l];
    double total = 0.0;
    for (int32_t c = 0; c < l; ++c) total += v[c];
    if (total == 0.0) continue;
    ++used;
    double denom = total + pseudo * l;
    for (int32_t c = 0; c < l; ++c) {
      double p = (v[c] + pseudo) / denom;
      (*mean_log)[c] += std::log(p);
      (*m1)[c] += p;
      (*m2)[c] += p * p;
    }
  }
  if (used > 0) {
    for (int32_t c = 0; c < l; ++c) {
      (*mean_log)[c] /= used;
      (*m1)[c] /= used;
      (*m2)[c] /= used;
    }
  }
  return used;
}

Result<std::vector<double>> FitDirichletRows(const std::vector<uint32_t>& votes, int32_t l,
                                             const std::vector<size_t>& rows,
                                             const PriorFitOptions& o) {
  std::vector<double> mean_log, m1, m2;
  size_t used = MeanLogFractions(votes, l, rows, o.fraction_pseudocount, &mean_log, &m1, &m2);
  if (used < 2) return Invalid("a Dirichlet fit needs at least two rows with out-of-bag votes");
  // Moment matching start (Minka): precision s from the first class's mean and second moment.
  double s = 0.0;
  double var = m2[0] - m1[0] * m1[0];
  if (var > 1e-12) s = (m1[0] - m2[0]) / var;
  if (!(s > 0.0) || !std::isfinite(s)) s = static_cast<double>(l);
  std::vector<double> beta(l);
  for (int32_t c = 0; c < l; ++c) beta[c] = std::max(o.min_beta, s * m1[c]);
  for (int32_t it = 0; it < o.max_iterations; ++it) {
    double sum = 0.0;
    for (double b : beta) sum += b;
    double psi_sum = Digamma(sum);
    double change = 0.0;
    for (int32_t c = 0; c < l; ++c) {
      double nb = std::max(o.min_beta, InverseDigamma(psi_sum + mean_log[c]));
      change = std::max(change, std::fabs(nb - beta[c]) / beta[c]);
      beta[c] = nb;
    }
    if (change < o.tolerance) break;
  }
  for (double b : beta)
    if (!std::isfinite(b)) return Status::Error(StatusCode::kInternal, "Dirichlet fit diverged");
  return beta;
}

std::vector<size_t> AllRows(size_t n) {
  std::vector<size_t> rows(n);
  for (size_t i = 0; i < n; ++i) rows[i] = i;
  return rows;
}

}  // namespace

double Digamma(double x) {
  double r = 0.0;
  while (x < 6.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  double f = 1.0 / (x * x);
  return r + std::log(x) - 0.5 / x -
         f * (1.0 / 12.0 - f * (1.0 / 120.0 - f * (1.0 / 252.0 - f * (1.0 / 240.0 - f / 132.0))));
}

bool Prior::IsSymmetricDirichlet() const {
  if (kind_ == PriorKind::kUniform) return true;
  if (kind_ != PriorKind::kDirichlet) return false;
  const std::vector<double>& b = components_[0].beta;
  return std::all_of(b.begin(), b.end(), [&](double x) { return x == b[0]; });
}

Result<Prior> Prior::Uniform(int32_t num_classes) {
  if (num_classes < 2 || num_classes > 4096) return Invalid("num_classes must be in [2, 4096]");
  Prior p;
  p.kind_ = PriorKind::kUniform;
  p.num_classes_ = num_classes;
  p.components_.push_back({1.0, std::vector<double>(num_classes, 1.0)});
  return p;
}

Result<Prior> Prior::Dirichlet(std::vector<double> beta) {
  if (beta.size() < 2 || beta.size() > 4096) return Invalid("Dirichlet needs 2..4096 parameters");
  for (double b : beta)
    if (!(b > 0.0) || !std::isfinite(b)) return Invalid("Dirichlet parameters must be finite and > 0");
  Prior p;
  p.kind_ = PriorKind::kDirichlet;
  p.num_classes_ = static_cast<int32_t>(beta.size());
  p.components_.push_back({1.0, std::move(beta)});
  return p;
}

Result<Prior> Prior::Mixture(std::vector<DirichletComponent> components) {
  if (components.empty()) return Invalid("a Dirichlet mixture needs at least one component");
  size_t l = components[0].beta.size();
  if (l < 2 || l > 4096) return Invalid("Dirichlet needs 2..4096 parameters");
  double total = 0.0;
  for (const DirichletComponent& c : components) {
    if (c.beta.size() != l)
      return Status::Error(StatusCode::kShapeMismatch, "mixture components differ in length");
    if (!(c.weight >= 0.0) || !std::isfinite(c.weight)) return Invalid("mixture weights must be >= 0");
    for (double b : c.beta)
      if (!(b > 0.0) || !std::isfinite(b)) return Invalid("Dirichlet parameters must be finite and > 0");
    total += c.weight;
  }
  if (!(total > 0.0)) return Invalid("mixture weights sum to zero");
  Prior p;
  p.kind_ = PriorKind::kDirichletMixture;
  p.num_classes_ = static_cast<int32_t>(l);
  for (DirichletComponent& c : components) {
    if (c.weight == 0.0) continue;
    c.weight /= total;
    p.components_.push_back(std::move(c));
  }
  return p;
}

Result<Prior> Prior::Histogram(int32_t num_classes, int32_t num_trees, std::vector<double> mass) {
  if (num_classes < 2) return Invalid("num_classes must be >= 2");
  if (num_classes > kMaxHistogramClasses)
    return Status::Error(StatusCode::kLimitExceeded,
                         "a histogram prior supports at most 4 classes, got " +
                             std::to_string(num_classes));
  if (num_trees < 1) return Invalid("num_trees must be >= 1");
  internal::Compositions comp(num_trees, num_classes);
  if (static_cast<int64_t>(mass.size()) != comp.Count(num_trees))
    return Status::Error(StatusCode::kShapeMismatch,
                         "histogram has " + std::to_string(mass.size()) + " entries, expected " +
                             std::to_string(comp.Count(num_trees)));
  double total = 0.0;
  for (double m : mass) {
    if (!(m >= 0.0) || !std::isfinite(m)) return Invalid("histogram mass must be finite and >= 0");
    total += m;
  }
  if (!(total > 0.0)) return Invalid("histogram has no mass");
  for (double& m : mass) m /= total;
  Prior p;
  p.kind_ = PriorKind::kHistogram;
  p.num_classes_ = num_classes;
  p.num_trees_ = num_trees;
  p.histogram_ = std::move(mass);
  return p;
}

Result<Prior> FitDirichletPrior(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                const PriorFitOptions& options) {
  Status s = CheckVotes(oob_votes, num_classes);
  if (!s.ok()) return s;
  s = CheckOptions(options);
  if (!s.ok()) return s;
  Result<std::vector<double>> beta =
      FitDirichletRows(oob_votes, num_classes, AllRows(oob_votes.size() / num_classes), options);
  if (!beta.ok()) return beta.status();
  return Prior::Dirichlet(std::move(beta).value());
}

Result<Prior> FitDirichletMixturePrior(const std::vector<uint32_t>& oob_votes,
                                       const std::vector<int32_t>& labels, int32_t num_classes,
                                       const PriorFitOptions& options) {
  Status s = CheckVotes(oob_votes, num_classes);
  if (!s.ok()) return s;
  s = CheckOptions(options);
  if (!s.ok()) return s;
  size_t rows = oob_votes.size() / num_classes;
  if (labels.size() != rows)
    return Status::Error(StatusCode::kShapeMismatch,
                         "labels has " + std::to_string(labels.size()) + " entries, oob_votes " +
                             std::to_string(rows) + " rows");
  std::vector<std::vector<size_t>> by_class(num_classes);
  for (size_t r = 0; r < rows; ++r) {
    if (labels[r] < 0 || labels[r] >= num_classes)
      return Status::Error(StatusCode::kUnknownClass,
                           "label " + std::to_string(labels[r]) + " of row " + std::to_string(r) +
                               " is not in [0, num_classes)");
    const uint32_t* v = &oob_votes[r * num_classes];
    uint64_t total = 0;
    for (int32_t c = 0; c < num_classes; ++c) total += v[c];
    if (total > 0) by_class[labels[r]].push_back(r);
  }
  Result<std::vector<double>> pooled =
      FitDirichletRows(oob_votes, num_classes, AllRows(rows), options);
  if (!pooled.ok()) return pooled.status();
  std::vector<DirichletComponent> components;
  for (int32_t c = 0; c < num_classes; ++c) {
    if (by_class[c].empty()) continue;
    DirichletComponent comp;
    comp.weight = static_cast<double>(by_class[c].size());
    if (static_cast<int32_t>(by_class[c].size()) < options.min_class_rows) {
      comp.beta = pooled.value();
    } else {
      Result<std::vector<double>> beta = FitDirichletRows(oob_votes, num_classes, by_class[c], options);
      comp.beta = beta.ok() ? std::move(beta).value() : pooled.value();
    }
    components.push_back(std::move(comp));
  }
  return Prior::Mixture(std::move(components));
}

// Largest-remainder rounding of T * v / sum(v) (sum > 0), exact in integers; ties of the remainders
// go to the lower class index. `rem` is scratch of l entries.
void RescaleTally(const uint32_t* v, int32_t l, int32_t T, int32_t* tally, uint64_t* rem) {
  uint64_t total = 0;
  for (int32_t c = 0; c < l; ++c) total += v[c];
  int64_t assigned = 0;
  for (int32_t c = 0; c < l; ++c) {
    uint64_t num = static_cast<uint64_t>(T) * v[c];
    tally[c] = static_cast<int32_t>(num / total);
    rem[c] = num % total;
    assigned += tally[c];
  }
  for (int64_t left = T - assigned; left > 0; --left) {
    const int32_t best = Plurality(rem, static_cast<size_t>(l));
    ++tally[best];
    rem[best] = 0;
  }
}

Result<std::vector<int32_t>> RescaledOobTallies(const std::vector<uint32_t>& oob_votes,
                                                int32_t num_classes, int32_t num_trees) {
  Status s = CheckVotes(oob_votes, num_classes);
  if (!s.ok()) return s;
  if (num_trees < 1) return Invalid("num_trees must be >= 1");
  const int32_t l = num_classes;
  const size_t rows = oob_votes.size() / l;
  std::vector<int32_t> out;
  std::vector<uint64_t> rem(l);
  std::vector<int32_t> tally(l);
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t* v = &oob_votes[r * l];
    uint64_t total = 0;
    for (int32_t c = 0; c < l; ++c) total += v[c];
    if (total == 0) continue;
    RescaleTally(v, l, num_trees, tally.data(), rem.data());
    out.insert(out.end(), tally.begin(), tally.end());
  }
  if (out.empty()) return Invalid("no training row has out-of-bag votes");
  return out;
}

Result<Prior> HistogramPriorFromOob(const std::vector<uint32_t>& oob_votes, int32_t num_classes,
                                    int32_t num_trees, const PriorFitOptions& options) {
  Status s = CheckVotes(oob_votes, num_classes);
  if (!s.ok()) return s;
  s = CheckOptions(options);
  if (!s.ok()) return s;
  if (num_classes > kMaxHistogramClasses)
    return Status::Error(StatusCode::kLimitExceeded,
                         "the hyper prior supports at most 4 classes, got " +
                             std::to_string(num_classes));
  if (num_trees < 1) return Invalid("num_trees must be >= 1");
  const int32_t l = num_classes;
  const int32_t T = num_trees;
  internal::Compositions comp(T, l);
  std::vector<double> hist(comp.Count(T), 0.0);
  size_t rows = oob_votes.size() / l;
  std::vector<int32_t> tally(l);
  std::vector<uint64_t> rem(l);
  size_t used = 0;
  for (size_t r = 0; r < rows; ++r) {
    const uint32_t* v = &oob_votes[r * l];
    uint64_t total = 0;
    for (int32_t c = 0; c < l; ++c) total += v[c];
    if (total == 0) continue;
    ++used;
    RescaleTally(v, l, T, tally.data(), rem.data());
    hist[comp.Rank(tally.data())] += 1.0;
  }
  if (used == 0) return Invalid("no training row has out-of-bag votes");
  std::vector<double> smooth(hist.size(), 0.0);
  const int32_t h = options.smoothing_window / 2;
  if (h == 0) {
    smooth = hist;
  } else {
    // Box average over the L-infinity ball of radius h on the simplex, truncated at the borders.
    internal::BoxNeighbours box(l, h);
    comp.ForEach(T, [&](const int32_t* t) {
      double sum = 0.0;
      int32_t count = 0;
      box.ForEach(t, [&](const std::vector<int32_t>& nb) {
        sum += hist[comp.Rank(nb.data())];
        ++count;
      });
      smooth[comp.Rank(t)] = sum / count;
    });
  }
  double total = 0.0;
  for (double m : smooth) total += m;
  const double uniform = 1.0 / static_cast<double>(smooth.size());
  for (double& m : smooth) m = (1.0 - options.uniform_mix) * (m / total) + options.uniform_mix * uniform;
  return Prior::Histogram(l, T, std::move(smooth));
}

Result<Prior> PriorForRule(HaltingRule rule, const std::vector<uint32_t>& oob_votes,
                           const std::vector<int32_t>& labels, int32_t num_classes,
                           int32_t num_trees, const PriorFitOptions& options) {
  const internal::RuleRow& row = internal::RuleRowOf(rule);
  if (row.fit_prior == nullptr) return Prior::Uniform(num_classes);
  return row.fit_prior({rule, oob_votes, labels, num_classes, num_trees, options});
}

namespace internal {

Result<Prior> FitHistogramPrior(const PriorFitInput& in) {
  if (in.options.hyper_estimator == HistogramEstimator::kDeconvolved)
    return DeconvolvedPriorFromOob(in.oob_votes, in.num_classes, in.num_trees, in.options);
  if (EagerTableFits(in.rule, in.num_trees, in.num_classes))
    return HistogramPriorFromOob(in.oob_votes, in.num_classes, in.num_trees, in.options);
  if (in.options.hyper_beyond_tables == HyperBeyondTables::kSmoothedTallies && in.num_classes <= 4)
    return TallyMixturePriorFromOob(in.oob_votes, in.num_classes, in.num_trees, in.options);
  return KernelMixturePriorFromOob(in.oob_votes, in.num_classes, in.options);
}

Result<Prior> FitOneDirichletPrior(const PriorFitInput& in) {
  return FitDirichletPrior(in.oob_votes, in.num_classes, in.options);
}

Result<Prior> FitDirichletPerClassPrior(const PriorFitInput& in) {
  return FitDirichletMixturePrior(in.oob_votes, in.labels, in.num_classes, in.options);
}

}  // namespace internal

Result<std::vector<double>> FinalTallyMass(const Prior& prior, int32_t num_trees) {
  const int32_t l = prior.num_classes();
  if (l > kMaxHistogramClasses)
    return Status::Error(StatusCode::kLimitExceeded, "final-tally masses need l <= 4");
  if (num_trees < 1) return Invalid("num_trees must be >= 1");
  if (internal::Compositions(num_trees, l).Count(num_trees) > kMaxDenseTallies)
    return Status::Error(StatusCode::kLimitExceeded,
                         "the masses of all final tallies of " + std::to_string(num_trees) +
                             " votes over " + std::to_string(l) + " classes exceed " +
                             std::to_string(kMaxDenseTallies) + " entries");
  // Dirichlet masses cost O(l) lgamma calls per tally and component: bounded like the tallies.
  const double dense_work = static_cast<double>(internal::Compositions(num_trees, l).Count(num_trees)) *
                            static_cast<double>(prior.components().size());
  if (dense_work > kMaxDenseWork)
    return Status::Error(StatusCode::kLimitExceeded,
                         "the masses of all final tallies of " + std::to_string(num_trees) +
                             " votes under " + std::to_string(prior.components().size()) +
                             " Dirichlet components take more than " +
                             std::to_string(static_cast<int64_t>(kMaxDenseWork)) + " evaluations");
  if (prior.kind() == PriorKind::kTallyMixture) {
    if (prior.num_trees() != num_trees)
      return Status::Error(StatusCode::kShapeMismatch,
                           "tally-mixture prior is for T = " + std::to_string(prior.num_trees()) +
                               ", asked for T = " + std::to_string(num_trees));
    internal::Compositions comp(num_trees, l);
    std::vector<double> mass(comp.Count(num_trees), prior.uniform_weight() / comp.Count(num_trees));
    for (size_t i = 0; i < prior.support_weights().size(); ++i)
      mass[comp.Rank(&prior.support()[i * l])] += prior.support_weights()[i];
    return mass;
  }
  if (prior.kind() == PriorKind::kHistogram) {
    if (prior.num_trees() != num_trees)
      return Status::Error(StatusCode::kShapeMismatch,
                           "histogram prior is for T = " + std::to_string(prior.num_trees()) +
                               ", asked for T = " + std::to_string(num_trees));
    return prior.histogram();
  }
  internal::Compositions comp(num_trees, l);
  std::vector<double> mass(comp.Count(num_trees), 0.0);
  const double log_tfact = std::lgamma(num_trees + 1.0);
  comp.ForEach(num_trees, [&](const int32_t* t) {
    double p = 0.0;
    for (const DirichletComponent& c : prior.components()) {
      double sum_beta = 0.0;
      double lg = log_tfact;
      for (int32_t j = 0; j < l; ++j) {
        sum_beta += c.beta[j];
        lg += std::lgamma(c.beta[j] + t[j]) - std::lgamma(c.beta[j]) - std::lgamma(t[j] + 1.0);
      }
      lg -= std::lgamma(sum_beta + num_trees) - std::lgamma(sum_beta);
      p += c.weight * std::exp(lg);
    }
    mass[comp.Rank(t)] = p;
  });
  return mass;
}

}  // namespace urnforest
