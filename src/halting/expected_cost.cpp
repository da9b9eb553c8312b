// Expected trees and disagreement of a halting table, exactly per final tally or over a prior, or
// by Monte Carlo.
#include "urnforest/expected_cost.h"

#include <algorithm>
#include <string>

#include "base/random.h"
#include "halting/tally_lattice.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

constexpr int64_t kMaxStates = 50'000'000;
constexpr int64_t kMaxPriorWork = 400'000'000;
// An on-demand table decides each new tally when first asked (microseconds to milliseconds): the
// exact recursions stop far earlier, and Monte Carlo takes over.
constexpr int64_t kMaxOnDemandStates = 200'000;

int64_t StateLimit(const HaltingTable& table) {
  return table.layout() == TableLayout::kOnDemand ? kMaxOnDemandStates : kMaxStates;
}

Status CheckFinal(const HaltingTable& table, const std::vector<int32_t>& f) {
  if (static_cast<int32_t>(f.size()) != table.num_classes())
    return Status::Error(StatusCode::kShapeMismatch,
                         "final tally has " + std::to_string(f.size()) + " counts, table " +
                             std::to_string(table.num_classes()) + " classes");
  int64_t sum = 0;
  for (int32_t v : f) {
    if (v < 0) return Status::Error(StatusCode::kInvalidArgument, "negative vote count");
    sum += v;
  }
  if (sum != table.num_trees())
    return Status::Error(StatusCode::kShapeMismatch,
                         "final tally sums to " + std::to_string(sum) + ", table is for T = " +
                             std::to_string(table.num_trees()));
  return Status::Ok();
}

int64_t StateCount(const std::vector<int32_t>& f) {
  int64_t n = 1;
  for (int32_t v : f) {
    n *= v + 1;
    if (n > kMaxStates) return kMaxStates + 1;
  }
  return n;
}

// Adds weight * (cost of final tally f) into out (stop_probability sized T + 1).
Status AccumulateExact(const HaltingTable& table, const std::vector<int32_t>& f, double weight,
                       CostEstimate* out) {
  const int32_t l = table.num_classes();
  const int32_t T = table.num_trees();
  const int64_t states = StateCount(f);
  if (states > StateLimit(table))
    return Status::Error(StatusCode::kLimitExceeded,
                         "too many partial tallies for an exact DP (limit " +
                             std::to_string(StateLimit(table)) + "); use Monte Carlo");
  const int32_t full = Plurality(f);
  std::vector<int64_t> stride(l);
  int64_t st = 1;
  for (int32_t j = l - 1; j >= 0; --j) {
    stride[j] = st;
    st *= f[j] + 1;
  }
  std::vector<double> prob(states, 0.0);
  prob[0] = 1.0;
  std::vector<int32_t> t(l, 0);
  for (int64_t idx = 0; idx < states; ++idx) {
    // t = digits of idx (mixed radix, last class fastest)
    int64_t rem = idx;
    int32_t n = 0;
    for (int32_t j = 0; j < l; ++j) {
      t[j] = static_cast<int32_t>(rem / stride[j]);
      rem %= stride[j];
      n += t[j];
    }
    double p = prob[idx];
    if (p == 0.0) continue;
    if (n == T) {
      out->stop_probability[T] += weight * p;
      out->expected_trees += weight * p * T;
      continue;
    }
    if (n > 0 && table.Halts(t.data())) {
      out->stop_probability[n] += weight * p;
      out->expected_trees += weight * p * n;
      if (table.Leader(t.data()) != full) out->disagreement += weight * p;
      continue;
    }
    const double left = static_cast<double>(T - n);
    for (int32_t j = 0; j < l; ++j)
      if (t[j] < f[j]) prob[idx + stride[j]] += p * (f[j] - t[j]) / left;
  }
  return Status::Ok();
}

// One random-order run; returns trees used and whether the label disagrees.
void RunOnce(const HaltingTable& table, const std::vector<int32_t>& f, int32_t full,
             internal::DetRng* rng, std::vector<int32_t>* t, int32_t* used, bool* disagree) {
  const int32_t l = table.num_classes();
  const int32_t T = table.num_trees();
  std::fill(t->begin(), t->end(), 0);
  for (int32_t n = 0; n < T; ++n) {
    uint64_t x = rng->Below(static_cast<uint64_t>(T - n));
    int32_t j = 0;
    for (; j < l; ++j) {
      uint64_t avail = static_cast<uint64_t>(f[j] - (*t)[j]);
      if (x < avail) break;
      x -= avail;
    }
    ++(*t)[j];
    if (table.Halts(t->data())) {
      *used = n + 1;
      *disagree = n + 1 < T && table.Leader(t->data()) != full;
      return;
    }
  }
  *used = T;
  *disagree = false;
}

}  // namespace

Result<CostEstimate> ExactCostForFinalTally(const HaltingTable& table,
                                            const std::vector<int32_t>& final_tally) {
  Status s = CheckFinal(table, final_tally);
  if (!s.ok()) return s;
  CostEstimate out;
  out.stop_probability.assign(table.num_trees() + 1, 0.0);
  s = AccumulateExact(table, final_tally, 1.0, &out);
  if (!s.ok()) return s;
  return out;
}

Result<CostEstimate> ExactCostOverPrior(const HaltingTable& table, const Prior& prior) {
  if (prior.num_classes() != table.num_classes())
    return Status::Error(StatusCode::kShapeMismatch, "prior and table differ in classes");
  const int32_t l = table.num_classes();
  const int32_t T = table.num_trees();
  if (l > 4 || StateCount(std::vector<int32_t>(l, T)) > kMaxStates * 64)
    return Status::Error(StatusCode::kLimitExceeded,
                         "exact prior-averaged cost needs l <= 4 and a moderate T; use Monte Carlo");
  Result<std::vector<double>> mass = FinalTallyMass(prior, table.num_trees());
  if (!mass.ok()) return mass.status();
  internal::Compositions comp(T, l);
  int64_t work = 0;
  comp.ForEach(T, [&](const int32_t* f) {
    int64_t n = 1;
    for (int32_t j = 0; j < l; ++j) n *= f[j] + 1;
    work += n;
  });
  if (work > (table.layout() == TableLayout::kOnDemand ? kMaxOnDemandStates : kMaxPriorWork))
    return Status::Error(StatusCode::kLimitExceeded,
                         "exact prior-averaged cost needs " + std::to_string(work) +
                             " states; use Monte Carlo");
  CostEstimate out;
  out.stop_probability.assign(T + 1, 0.0);
  std::vector<int32_t> f(l);
  Status s;
  comp.ForEach(T, [&](const int32_t* p) {
    if (!s.ok()) return;
    double w = mass.value()[comp.Rank(p)];
    if (w <= 0.0) return;
    f.assign(p, p + l);
    s = AccumulateExact(table, f, w, &out);
  });
  if (!s.ok()) return s;
  return out;
}

namespace {

// Monte Carlo: `samples` times, draw a final tally with `draw(rng, &tally)` (tally has l entries
// summing to T), then query a random permutation of its votes until the table halts.
template <typename DrawTally>
CostEstimate SampleCost(const HaltingTable& table, int64_t samples, uint64_t seed,
                        const DrawTally& draw) {
  const int32_t l = table.num_classes();
  internal::DetRng rng(seed);
  std::vector<int32_t> f(l), t(l);
  double trees = 0.0, dis = 0.0;
  for (int64_t i = 0; i < samples; ++i) {
    draw(&rng, &f);
    int32_t used;
    bool d;
    RunOnce(table, f, Plurality(f), &rng, &t, &used, &d);
    trees += used;
    dis += d ? 1.0 : 0.0;
  }
  CostEstimate out;
  out.expected_trees = trees / samples;
  out.disagreement = dis / samples;
  out.samples = samples;
  return out;
}

}  // namespace

Result<CostEstimate> MonteCarloCostForFinalTally(const HaltingTable& table,
                                                 const std::vector<int32_t>& final_tally,
                                                 int64_t samples, uint64_t seed) {
  Status s = CheckFinal(table, final_tally);
  if (!s.ok()) return s;
  if (samples < 1) return Status::Error(StatusCode::kInvalidArgument, "samples must be >= 1");
  return SampleCost(table, samples, seed,
                    [&](internal::DetRng*, std::vector<int32_t>* f) { *f = final_tally; });
}

Result<CostEstimate> MonteCarloCostOverTallies(const HaltingTable& table,
                                               const std::vector<int32_t>& tallies,
                                               int64_t samples, uint64_t seed) {
  const int32_t l = table.num_classes();
  const int32_t T = table.num_trees();
  if (samples < 1) return Status::Error(StatusCode::kInvalidArgument, "samples must be >= 1");
  if (tallies.empty() || tallies.size() % static_cast<size_t>(l) != 0) {
    return Status::Error(StatusCode::kShapeMismatch,
                         "tallies must hold a positive multiple of the table's classes");
  }
  const size_t count = tallies.size() / l;
  for (size_t i = 0; i < count; ++i) {
    int64_t sum = 0;
    for (int32_t c = 0; c < l; ++c) {
      if (tallies[i * l + c] < 0) {
        return Status::Error(StatusCode::kShapeMismatch, "a tally has a negative count");
      }
      sum += tallies[i * l + c];
    }
    if (sum != T) {
      return Status::Error(StatusCode::kShapeMismatch,
                           "tally " + std::to_string(i) + " sums to " + std::to_string(sum) +
                               ", the table has " + std::to_string(T) + " trees");
    }
  }
  return SampleCost(table, samples, seed, [&](internal::DetRng* rng, std::vector<int32_t>* f) {
    size_t pick = static_cast<size_t>(rng->Uniform() * static_cast<double>(count));
    if (pick >= count) pick = count - 1;
    f->assign(tallies.begin() + pick * l, tallies.begin() + (pick + 1) * l);
  });
}

Result<CostEstimate> MonteCarloCost(const HaltingTable& table, const Prior& prior, int64_t samples,
                                    uint64_t seed) {
  const int32_t l = table.num_classes();
  const int32_t T = table.num_trees();
  if (prior.num_classes() != l)
    return Status::Error(StatusCode::kShapeMismatch, "prior and table differ in classes");
  if (samples < 1) return Status::Error(StatusCode::kInvalidArgument, "samples must be >= 1");
  std::vector<double> cdf;
  std::vector<std::vector<int32_t>> tallies;
  Result<std::vector<double>> mass =
      l <= 4 ? FinalTallyMass(prior, T)
             : Result<std::vector<double>>(Status::Error(StatusCode::kLimitExceeded, "l > 4"));
  const bool dense = mass.ok();
  if (!dense && mass.status().code != StatusCode::kLimitExceeded) return mass.status();
  if (dense) {
    internal::Compositions comp(T, l);
    cdf.assign(mass.value().size(), 0.0);
    tallies.resize(mass.value().size());
    comp.ForEach(T, [&](const int32_t* p) {
      int64_t r = comp.Rank(p);
      tallies[r].assign(p, p + l);
    });
    double acc = 0.0;
    for (size_t r = 0; r < cdf.size(); ++r) cdf[r] = acc += mass.value()[r];
  } else if (prior.kind() == PriorKind::kHistogram) {
    return Status::Error(StatusCode::kLimitExceeded, "a histogram prior this large cannot be sampled");
  } else {
    // Sampled as the mixture it is: a component by weight (Dirichlet components, then point
    // masses), then a Polya urn of T draws or the point mass itself.
    double acc = 0.0;
    for (const DirichletComponent& c : prior.components()) cdf.push_back(acc += c.weight);
    for (double w : prior.support_weights()) cdf.push_back(acc += w);
    if (prior.uniform_weight() > 0.0) cdf.push_back(acc += prior.uniform_weight());
    if (!(acc > 0.0)) return Status::Error(StatusCode::kInvalidArgument, "the prior has no mass");
  }
  return SampleCost(table, samples, seed, [&](internal::DetRng* rng, std::vector<int32_t>* out) {
    std::vector<int32_t>& f = *out;
    if (dense) {
      double u = rng->Uniform() * cdf.back();
      size_t r = std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
      if (r >= cdf.size()) r = cdf.size() - 1;
      f = tallies[r];
      return;
    }
    size_t r = std::upper_bound(cdf.begin(), cdf.end(), rng->Uniform() * cdf.back()) - cdf.begin();
    if (r >= cdf.size()) r = cdf.size() - 1;
    const size_t nd = prior.components().size();
    const size_t np = prior.support_weights().size();
    if (r >= nd && r < nd + np) {
      f.assign(prior.support().begin() + (r - nd) * l, prior.support().begin() + (r - nd + 1) * l);
      return;
    }
    const std::vector<double> uniform(r < nd ? 0 : l, 1.0);
    const std::vector<double>& beta = r < nd ? prior.components()[r].beta : uniform;
    double bsum = 0.0;
    for (double b : beta) bsum += b;
    std::fill(f.begin(), f.end(), 0);
    for (int32_t n = 0; n < T; ++n) {  // Polya urn
      double u = rng->Uniform() * (n + bsum);
      int32_t j = 0;
      for (; j < l - 1; ++j) {
        u -= f[j] + beta[j];
        if (u < 0.0) break;
      }
      ++f[j];
    }
  });
}

}  // namespace urnforest
