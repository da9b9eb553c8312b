// Halting decisions for the tallies rows reach, memoised (see on_demand_rule.h).
#include "halting/on_demand_rule.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "halting/dirichlet_urn.h"
#include "urnforest/halting_rules.h"
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

OnDemandRule::OnDemandRule(OnDemandConfig config)
    : config_(std::move(config)), infinite_(RuleTraits(config_.rule).infinite_ensemble) {
  const int32_t T = config_.num_trees;
  log_factorial_.resize(static_cast<size_t>(T) + 1);
  log_factorial_[0] = 0.0;
  for (int32_t i = 1; i <= T; ++i) log_factorial_[i] = log_factorial_[i - 1] + std::log(static_cast<double>(i));
  for (const DirichletComponent& c : config_.dirichlet)
    log_weight_.push_back(c.weight > 0.0 ? std::log(c.weight) : -INFINITY);
  for (double w : config_.support_weights) log_weight_.push_back(w > 0.0 ? std::log(w) : -INFINITY);
}

size_t OnDemandRule::MemoEntries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return memo_.size();
}

size_t OnDemandRule::MemoryBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t bytes = sizeof(*this) + log_factorial_.size() * 8 + log_weight_.size() * 8 +
                 config_.support.size() * 4 + config_.support_weights.size() * 8;
  for (const DirichletComponent& c : config_.dirichlet) bytes += c.beta.size() * 8 + 32;
  bytes += memo_tallies_.size() * 4 + memo_.size() * sizeof(Verdict) + index_.size() * 32 +
           pair_cache_.size() * 32;
  return bytes;
}

bool OnDemandRule::ExactAt(const int32_t* tally) const {
  const int32_t l = config_.num_classes;
  if (infinite_) return l == 2;
  int32_t n = 0;
  for (int32_t j = 0; j < l; ++j) n += tally[j];
  return config_.dirichlet.empty() || l == 2 ||
         DirichletExactCost(l, config_.num_trees - n) * static_cast<double>(config_.dirichlet.size()) <=
             config_.exact_budget;
}

bool OnDemandRule::Halts(const int32_t* tally) const { return Evaluate(tally, false).halts; }

double OnDemandRule::Confidence(const int32_t* tally) const {
  return Evaluate(tally, true).confidence;
}

double OnDemandRule::PairProbability(int32_t a, int32_t b) const {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pair_cache_.find(key);
    if (it != pair_cache_.end()) return it->second;
  }
  const double p = InfinitePairProbability(a, b);
  std::lock_guard<std::mutex> lock(mutex_);
  if (pair_cache_.size() >= kMaxMemoEntries) pair_cache_.clear();
  pair_cache_.emplace(key, p);
  return p;
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
    prod *= std::pow(PairProbability(t[k], rivals[i]), static_cast<double>(e - i));
    i = e;
  }
  return prod;
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
  // Components by decreasing posterior weight, so that the no-halt exit comes early. Components
  // this light count as losing outright: together at most 1e-4 (1 - alpha).
  const size_t nd = config_.dirichlet.size();
  const double light = 1e-4 * target / static_cast<double>(std::max<size_t>(nd, 1));
  std::vector<size_t> order;
  for (size_t c = 0; c < nd; ++c)
    if (w[c] > 0.0) order.push_back(c);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return w[a] > w[b]; });
  std::vector<double> a(l);
  if (decide && order.size() > 1) {
    // Screen over all components at once: each one's likeliest rival by a normal approximation.
    // Far above the limit means no halt; the screen never halts.
    double approx = lose;
    for (size_t c : order) {
      const double post = w[c] / total;
      if (post < light) break;
      const std::vector<double>& beta = config_.dirichlet[c].beta;
      double A = 0.0;
      int32_t best = -1;
      for (int32_t j = 0; j < l; ++j) {
        a[j] = beta[j] + t[j];
        A += a[j];
        if (j != k && (best < 0 || a[j] > a[best])) best = j;
      }
      approx += post * DirichletPairLoseApprox(a[k], a[best], A - a[k] - a[best], t[k] - t[best], m);
      if (approx > config_.screen_factor * target) return 1.0;
    }
  }
  // Exact P* per component while all of them together stay within the budget.
  size_t heavy = 0;
  for (size_t c : order) heavy += w[c] / total >= light ? 1 : 0;
  const bool exact = DirichletExactCost(l, m) * static_cast<double>(heavy) <= config_.exact_budget;
  std::vector<std::pair<double, int32_t>> rivals;
  double unchecked = dirichlet_mass;
  for (size_t c : order) {
    const double post = w[c] / total;
    unchecked -= post;
    if (post < light) {
      lose += post;
      if (decide && lose > limit) return lose;
      continue;
    }
    const std::vector<double>& beta = config_.dirichlet[c].beta;
    double A = 0.0;
    for (int32_t j = 0; j < l; ++j) {
      a[j] = beta[j] + t[j];
      A += a[j];
    }
    double comp = std::nan("");
    if (exact) comp = DirichletLoseExact(a.data(), t, l, k, m);
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
      // Strongest rivals first (largest a_j + t_j), so that a decision not to halt comes early:
      // the terms only add up.
      std::reverse(rivals.begin(), rivals.end());
      double bound = 0.0;
      for (size_t i = 0; i < rivals.size() && bound < 1.0;) {
        size_t e = i;
        while (e < rivals.size() && rivals[e] == rivals[i]) ++e;
        bound += static_cast<double>(e - i) *
                 DirichletPairLose(a[k], rivals[i].first, A - a[k] - rivals[i].first,
                                   t[k] - rivals[i].second, m);
        i = e;
        // (with the component's share capped at its weight, as it is summed below)
        if (decide && lose + post * std::min(1.0, bound) > limit) return lose + post * std::min(1.0, bound);
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
  } else if (infinite_) {
    v.confidence = InfiniteConfidence(t, k);
    v.halts = v.confidence > config_.alpha;
  } else if (m == 0) {
    v.confidence = 1.0;
    v.halts = true;
  } else {
    // Posterior weights of the components, log space.
    const size_t nd = config_.dirichlet.size();
    const size_t np = config_.support_weights.size();
    std::vector<double> logw(nd + np, -INFINITY);
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
      const double limit = target * (1.0 - kMargin);
      double dirichlet_mass = 0.0;
      for (size_t c = 0; c < nd; ++c) dirichlet_mass += logw[c] / total;
      // The decision (certified shortcuts, the screen) and, when asked, the full lower bound on
      // P*. The decision never depends on whether the confidence was asked for.
      v.halts = LoseWithin(t, k, m, logw, total, lose, dirichlet_mass, limit, true) <= limit;
      if (need_confidence) {
        v.confidence = std::max(
            0.0, 1.0 - LoseWithin(t, k, m, logw, total, lose, dirichlet_mass, limit, false));
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
