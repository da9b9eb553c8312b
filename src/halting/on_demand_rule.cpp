// Halting decisions for the tallies rows reach, memoised (see on_demand_rule.h).
#include "halting/on_demand_rule.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "halting/dirichlet_urn.h"
#include "halting/multinomial_race.h"
#include "urnforest/pstar.h"
#include "urnforest/vote.h"

namespace urnforest::internal {
namespace {

// Memo entries kept before the memo is cleared (bounded memory: ~l * 4 + 40 bytes each).
constexpr size_t kMaxMemoEntries = 1u << 21;
// Relative safety margin on the halting comparison (rounding of the sums; ~1e-13 in practice).
constexpr double kMargin = 1e-9;

uint64_t HashTally(const int32_t* t, int32_t l) {
  uint64_t h = 1469598103934665603ULL;
  for (int32_t j = 0; j < l; ++j) {
    h ^= static_cast<uint32_t>(t[j]);
    h *= 1099511628211ULL;
    h ^= h >> 29;
  }
  return h;
}

}  // namespace

OnDemandRule::OnDemandRule(OnDemandConfig config) : config_(std::move(config)) {
  const int32_t T = config_.num_trees;
  log_factorial_.resize(static_cast<size_t>(T) + 1);
  log_factorial_[0] = 0.0;
  for (int32_t i = 1; i <= T; ++i) log_factorial_[i] = log_factorial_[i - 1] + std::log(static_cast<double>(i));
  for (const DirichletComponent& c : config_.dirichlet)
    log_weight_.push_back(c.weight > 0.0 ? std::log(c.weight) : -INFINITY);
  for (double w : config_.support_weights) log_weight_.push_back(w > 0.0 ? std::log(w) : -INFINITY);
  for (double w : config_.rate_weights) log_weight_.push_back(w > 0.0 ? std::log(w) : -INFINITY);
  log_rates_.reserve(config_.rates.size());
  for (double r : config_.rates) log_rates_.push_back(r > 0.0 ? std::log(r) : -INFINITY);
}

size_t OnDemandRule::MemoEntries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return memo_.size();
}

size_t OnDemandRule::MemoryBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t bytes = sizeof(*this) + log_factorial_.size() * 8 + log_weight_.size() * 8 +
                 (config_.rates.size() + log_rates_.size() + config_.rate_weights.size()) * 8 +
                 config_.support.size() * 4 + config_.support_weights.size() * 8;
  for (const DirichletComponent& c : config_.dirichlet) bytes += c.beta.size() * 8 + 32;
  bytes += memo_tallies_.size() * 4 + memo_.size() * sizeof(Verdict) + index_.size() * 32;
  return bytes;
}

bool OnDemandRule::ExactAt(const int32_t* tally) const {
  const int32_t l = config_.num_classes;
  if (config_.rule == HaltingRule::kInfinite) return l == 2;
  if (!config_.rate_weights.empty()) return false;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += tally[j];
  return config_.dirichlet.empty() || l == 2 ||
         DirichletExactCost(l, config_.num_trees - n) <= config_.exact_budget;
}

bool OnDemandRule::Halts(const int32_t* tally) const { return Evaluate(tally, false).halts; }

double OnDemandRule::Confidence(const int32_t* tally) const {
  return Evaluate(tally, true).confidence;
}

double OnDemandRule::InfiniteConfidence(const int32_t* t, int32_t k) const {
  const int32_t l = config_.num_classes;
  double prod = 1.0;
  // Equal rival counts give equal factors: one evaluation per distinct count.
  std::vector<int32_t> rivals;
  for (int32_t j = 0; j < l; ++j)
    if (j != k) rivals.push_back(t[j]);
  std::sort(rivals.begin(), rivals.end());
  for (size_t i = 0; i < rivals.size();) {
    size_t e = i;
    while (e < rivals.size() && rivals[e] == rivals[i]) ++e;
    prod *= std::pow(InfinitePairProbability(t[k], rivals[i]), static_cast<double>(e - i));
    i = e;
  }
  return prod;
}

double OnDemandRule::AtomsLose(const int32_t* t, int32_t k, int32_t m, const double* w, double total,
                               double others, double others_lower, double limit,
                               bool decide) const {
  const int32_t l = config_.num_classes;
  const size_t na = config_.rate_weights.size();
  // Atoms this far down the posterior count as losing outright (bound 1): all of them together
  // weigh at most 1e-4 (1 - alpha), and they are most of the atoms once a few votes are in.
  const double light = 1e-4 * (1.0 - config_.alpha) / static_cast<double>(na) * total;
  if (decide) {
    // Screen: each heavy atom's likeliest rival (largest expected final count) by a normal
    // approximation. Far above the limit means no halt without the bounds below; the screen never
    // halts.
    double approx = others_lower;
    for (size_t i = 0; i < na; ++i) {
      if (w[i] < light) continue;
      const double* p = &config_.rates[i * l];
      int32_t best = -1;
      double best_final = -1.0;
      for (int32_t j = 0; j < l; ++j) {
        if (j == k) continue;
        const double final_j = t[j] + m * p[j];
        if (final_j > best_final) {
          best_final = final_j;
          best = j;
        }
      }
      const double mean = t[best] - t[k] + m * (p[best] - p[k]);
      const double var = m * (p[best] + p[k] - (p[best] - p[k]) * (p[best] - p[k]));
      const double z = var > 0.0 ? (-0.5 - mean) / std::sqrt(2.0 * var) : (mean >= 0.0 ? -1e9 : 1e9);
      approx += w[i] / total * 0.5 * std::erfc(z);
      if (approx > config_.screen_factor * (1.0 - config_.alpha)) return 1.0;
    }
  }
  // Per atom: the union over rivals of Chernoff bounds (O(l)).
  std::vector<double> bound(na, 0.0);
  double sum = 0.0;
  for (size_t i = 0; i < na; ++i) {
    if (w[i] == 0.0) continue;
    if (w[i] < light) {
      bound[i] = 1.0;
      sum += w[i] / total;
      continue;
    }
    const double* p = &config_.rates[i * l];
    double b = 0.0;
    for (int32_t j = 0; j < l && b < 1.0; ++j)
      if (j != k) b += MultinomialPairChernoff(p[k], p[j], t[k] - t[j], m);
    bound[i] = std::min(1.0, b);
    sum += w[i] / total * bound[i];
  }
  if (decide && others + sum <= limit) return sum;
  // Refine the heaviest atoms with exact pair terms (each term only where its Chernoff bound
  // matters), until the decision is known or the budget is spent.
  std::vector<size_t> order;
  for (size_t i = 0; i < na; ++i)
    if (w[i] >= light && bound[i] > 0.0) order.push_back(i);
  const size_t refine = std::min(order.size(), static_cast<size_t>(std::max(0, config_.max_refined_atoms)));
  std::partial_sort(order.begin(), order.begin() + refine, order.end(),
                    [&](size_t a, size_t b) { return w[a] * bound[a] > w[b] * bound[b]; });
  const double negligible = 1e-6 * (1.0 - config_.alpha);
  // A certified lower bound on the atoms' share: each refined atom loses at least its largest exact
  // pair term. `others_lower` (the point masses' exact share) plus it above the limit means no
  // halt whatever the rest is: the decision stops there (returns a value above the limit).
  double lower = 0.0;
  for (size_t r = 0; r < refine; ++r) {
    const size_t i = order[r];
    const double* p = &config_.rates[i * l];
    double b = 0.0, largest = 0.0;
    for (int32_t j = 0; j < l && b < 1.0; ++j) {
      if (j == k) continue;
      const double chernoff = MultinomialPairChernoff(p[k], p[j], t[k] - t[j], m);
      if (chernoff * w[i] / total <= negligible) {
        b += chernoff;
      } else {
        const double exact = MultinomialPairLose(p[k], p[j], t[k] - t[j], m, log_factorial_.data());
        b += exact;
        largest = std::max(largest, exact);
      }
    }
    b = std::min(1.0, b);
    sum -= w[i] / total * (bound[i] - b);
    lower += w[i] / total * largest;
    if (decide && others + sum <= limit) break;
    if (decide && others_lower + lower > limit) return std::max(sum, limit + 1.0);
  }
  return std::max(0.0, sum);
}

double OnDemandRule::LoseWithin(const int32_t* t, int32_t k, int32_t m, const std::vector<double>& w,
                                double total, double lose, double dirichlet_mass, double limit,
                                bool decide) const {
  const int32_t l = config_.num_classes;
  const double target = 1.0 - config_.alpha;
  if (decide) {
    if (lose > limit) return lose;  // the point masses alone lose too much: no halt
    if (lose + dirichlet_mass <= limit) return lose + dirichlet_mass;  // halts whatever they do
  }
  // Components by decreasing posterior weight, so that the no-halt exit comes early.
  const size_t nd = config_.dirichlet.size();
  std::vector<size_t> order;
  for (size_t c = 0; c < nd; ++c)
    if (w[c] > 0.0) order.push_back(c);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return w[a] > w[b]; });
  std::vector<double> a(l);
  std::vector<std::pair<double, int32_t>> rivals;
  double unchecked = dirichlet_mass;
  for (size_t c : order) {
    const double post = w[c] / total;
    unchecked -= post;
    const std::vector<double>& beta = config_.dirichlet[c].beta;
    double A = 0.0;
    for (int32_t j = 0; j < l; ++j) {
      a[j] = beta[j] + t[j];
      A += a[j];
    }
    double comp = std::nan("");
    if (DirichletExactCost(l, m) <= config_.exact_budget) comp = DirichletLoseExact(a.data(), t, l, k, m);
    if (std::isnan(comp)) {
      // Union bound over rivals; rivals with the same (a_j, t_j) share one term.
      rivals.clear();
      for (int32_t j = 0; j < l; ++j)
        if (j != k) rivals.emplace_back(a[j], t[j]);
      std::sort(rivals.begin(), rivals.end());
      if (decide) {
        double approx = 0.0;
        for (const auto& r : rivals)
          approx += DirichletPairLoseApprox(a[k], r.first, A - a[k] - r.first, t[k] - r.second, m);
        // Far from halting: no halt without the exact terms (the screen never halts).
        if (lose + post * std::min(1.0, approx) > config_.screen_factor * target) return 1.0;
      }
      double bound = 0.0;
      for (size_t i = 0; i < rivals.size() && bound < 1.0;) {
        size_t e = i;
        while (e < rivals.size() && rivals[e] == rivals[i]) ++e;
        bound += static_cast<double>(e - i) *
                 DirichletPairLose(a[k], rivals[i].first, A - a[k] - rivals[i].first,
                                   t[k] - rivals[i].second, m);
        i = e;
      }
      comp = std::min(1.0, bound);
    }
    lose += post * comp;
    if (decide && lose > limit) return lose;
    if (decide && lose + unchecked <= limit) return lose + unchecked;
  }
  return lose;
}

OnDemandRule::Verdict OnDemandRule::Evaluate(const int32_t* t, bool need_confidence) const {
  const int32_t l = config_.num_classes;
  const uint64_t h = HashTally(t, l);
  size_t slot = std::numeric_limits<size_t>::max();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(h);
    if (it != index_.end()) {
      const int32_t* stored = &memo_tallies_[it->second * l];
      if (std::memcmp(stored, t, sizeof(int32_t) * l) == 0) {
        const Verdict& v = memo_[it->second];
        if (!need_confidence || v.confidence >= 0.0) return v;
        slot = it->second;
      }
    }
  }
  Verdict v;
  const int32_t k = StrictLeader(t, static_cast<size_t>(l));
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += t[j];
  const int32_t T = config_.num_trees;
  const int32_t m = T - n;
  const double target = 1.0 - config_.alpha;
  if (k < 0) {
    v.confidence = 0.0;
  } else if (config_.rule == HaltingRule::kInfinite) {
    v.confidence = InfiniteConfidence(t, k);
    v.halts = v.confidence > config_.alpha;
  } else if (m == 0) {
    v.confidence = 1.0;
    v.halts = true;
  } else {
    // Posterior weights of the components, log space.
    const size_t nd = config_.dirichlet.size();
    const size_t np = config_.support_weights.size();
    const size_t na = config_.rate_weights.size();
    std::vector<double> logw(nd + np + na, -INFINITY);
    std::vector<int32_t> nz;
    for (int32_t j = 0; j < l; ++j)
      if (t[j] > 0) nz.push_back(j);
    double mx = -INFINITY;
    for (size_t c = 0; c < nd; ++c) {
      if (log_weight_[c] == -INFINITY) continue;
      logw[c] = log_weight_[c] + DirichletSequenceLogProb(config_.dirichlet[c].beta.data(), t, l);
      mx = std::max(mx, logw[c]);
    }
    const double log_falling_T = log_factorial_[T] - log_factorial_[m];
    for (size_t i = 0; i < np; ++i) {
      if (log_weight_[nd + i] == -INFINITY) continue;
      const int32_t* N = &config_.support[i * l];
      double lw = log_weight_[nd + i] - log_falling_T;
      bool ok = true;
      for (int32_t j : nz) {
        if (N[j] < t[j]) {
          ok = false;
          break;
        }
        lw += log_factorial_[N[j]] - log_factorial_[N[j] - t[j]];
      }
      if (!ok) continue;
      logw[nd + i] = lw;
      mx = std::max(mx, lw);
    }
    for (size_t i = 0; i < na; ++i) {
      double lw = log_weight_[nd + np + i];
      for (int32_t j : nz) lw += t[j] * log_rates_[i * l + j];
      if (lw == -INFINITY) continue;
      logw[nd + np + i] = lw;
      mx = std::max(mx, lw);
    }
    if (mx == -INFINITY) {
      // Zero posterior mass (a prior without a uniform or Dirichlet part that no point mass
      // explains): never halt, as the tables do.
      v.confidence = 0.0;
    } else {
      double total = 0.0;
      for (double& w : logw) {
        w = w == -INFINITY ? 0.0 : std::exp(w - mx);
        total += w;
      }
      double lose = 0.0;  // the point masses' certain share of 1 - P*
      for (size_t i = 0; i < np; ++i) {
        if (logw[nd + i] == 0.0) continue;
        const int32_t* N = &config_.support[i * l];
        for (int32_t j = 0; j < l; ++j) {
          if (j != k && N[j] >= N[k]) {
            lose += logw[nd + i];
            break;
          }
        }
      }
      lose /= total;
      const double lose_points = lose;
      const double limit = target * (1.0 - kMargin);
      double dirichlet_mass = 0.0;
      for (size_t c = 0; c < nd; ++c) dirichlet_mass += logw[c] / total;
      // The rate atoms' share: an upper bound, refined only as far as the decision needs (the
      // confidence refines as far as the budget allows; it is never smaller for the same tally).
      if (na > 0) {
        lose += AtomsLose(t, k, m, &logw[nd + np], total, lose + dirichlet_mass, lose, limit, true);
      }
      // The decision (certified shortcuts, the screen) and, when asked, the full lower bound on
      // P*. The decision never depends on whether the confidence was asked for.
      v.halts = LoseWithin(t, k, m, logw, total, lose, dirichlet_mass, limit, true) <= limit;
      if (need_confidence) {
        double full = lose_points;
        if (na > 0) full += AtomsLose(t, k, m, &logw[nd + np], total, 0.0, 0.0, limit, false);
        v.confidence =
            std::max(0.0, 1.0 - LoseWithin(t, k, m, logw, total, full, dirichlet_mass, limit, false));
      }
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (slot != std::numeric_limits<size_t>::max() && slot < memo_.size() &&
      std::memcmp(&memo_tallies_[slot * l], t, sizeof(int32_t) * l) == 0) {
    memo_[slot].confidence = v.confidence;
    return memo_[slot];
  }
  if (memo_.size() >= kMaxMemoEntries) {
    memo_.clear();
    memo_tallies_.clear();
    index_.clear();
  }
  if (index_.emplace(h, memo_.size()).second) {
    memo_tallies_.insert(memo_tallies_.end(), t, t + l);
    memo_.push_back(v);
  }
  return v;
}

}  // namespace urnforest::internal
