// TallyLagrangianLadder: minimean stopping sets per multiplier over the calibration rows' support
// (urnforest/tally_lagrangian_ladder.h).
#include "urnforest/tally_lagrangian_ladder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "halting/tally_below.h"

namespace urnforest {
namespace {

using internal::Binomials;
using internal::ForEachBelow;

Status Invalid(const std::string& message) {
  return Status::Error(StatusCode::kInvalidArgument, "tally ladder: " + message);
}

// Reads row-major tallies into vectors, checking each sums to T.
Result<std::vector<std::vector<int32_t>>> ReadRows(int32_t num_trees, int32_t k, const std::vector<uint32_t>& tallies) {
  if (tallies.size() % static_cast<size_t>(k) != 0) return Invalid("tallies must hold K counts per row");
  std::vector<std::vector<int32_t>> out(tallies.size() / static_cast<size_t>(k));
  for (size_t r = 0; r < out.size(); ++r) {
    int64_t sum = 0;
    for (int32_t c = 0; c < k; ++c) {
      const uint32_t v = tallies[r * k + c];
      sum += v;
      out[r].push_back(static_cast<int32_t>(std::min<uint32_t>(v, 1u << 30)));
    }
    if (sum != num_trees) return Invalid("row " + std::to_string(r) + "'s votes do not sum to " + std::to_string(num_trees));
  }
  return out;
}

// True when no `left` more votes can change the leader of x: it leads every other class by more.
bool Decided(const int32_t* x, int32_t k, int32_t left) {
  const int32_t lead = TallyLeader(x, k);
  for (int32_t c = 0; c < k; ++c) {
    if (c != lead && x[lead] - x[c] <= left) return false;
  }
  return true;
}

// Sets evaluated together by ReachOutcomes: at most this many (support state, set) doubles.
constexpr size_t kReachBatchDoubles = size_t{1} << 23;

}  // namespace

Result<TallyLagrangianLadder> TallyLagrangianLadder::Make(int32_t num_trees, int32_t num_classes,
                                                          const std::vector<uint32_t>& fit_tallies,
                                                          const std::vector<uint32_t>& reach_tallies,
                                                          double pseudo_errors) {
  if (!(pseudo_errors >= 0.0) || !std::isfinite(pseudo_errors)) return Invalid("pseudo_errors must be finite and >= 0");
  Result<TallyLattice> made = TallyLattice::Make(num_trees, num_classes);
  if (!made.ok()) return made.status();
  const TallyLattice& lattice = made.value();
  const int32_t k = num_classes;
  Result<std::vector<std::vector<int32_t>>> fit = ReadRows(num_trees, k, fit_tallies);
  if (!fit.ok()) return fit.status();
  if (fit.value().empty()) return Invalid("at least one fit row is needed");
  Result<std::vector<std::vector<int32_t>>> reach = ReadRows(num_trees, k, reach_tallies);
  if (!reach.ok()) return reach.status();

  TallyLagrangianLadder out;
  out.num_trees_ = num_trees;
  out.num_classes_ = k;
  // Fit tallies with their weights, in the order SolveTallyMinimean sums them (sorted).
  std::map<std::vector<int32_t>, double> fit_weights;
  for (const auto& f : fit.value()) fit_weights[f] += 1.0 / static_cast<double>(fit.value().size());
  std::map<std::vector<int32_t>, size_t> distinct;
  for (const auto& f : reach.value()) {
    auto it = distinct.emplace(f, out.distinct_.size());
    if (it.second) out.distinct_.push_back(f);
    out.reach_row_.push_back(it.first->second);
  }

  const Binomials binom(num_trees);
  std::vector<int32_t> id(static_cast<size_t>(lattice.size()), -1);  // lattice index -> support id
  const auto mark = [&](const std::vector<int32_t>& f) {
    ForEachBelow(f, binom, num_trees, [&](const int32_t* x, int32_t sum, double) { id[lattice.Index(x, sum)] = 0; });
  };
  for (const auto& f : fit_weights) mark(f.first);
  for (const auto& f : out.distinct_) mark(f);
  for (int32_t i = 0; i <= num_trees; ++i) {
    lattice.ForEachOfSum(i, [&](const int32_t* x) {
      const int64_t s = lattice.Index(x, i);
      if (id[static_cast<size_t>(s)] < 0) return;
      out.index_.push_back(s);
      out.level_.push_back(i);
      out.x_.insert(out.x_.end(), x, x + k);
    });
  }
  // ForEachOfSum need not follow the index order within a level: sort by lattice index.
  const size_t n = out.index_.size();
  std::vector<size_t> order(n);
  for (size_t s = 0; s < n; ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return out.index_[a] < out.index_[b]; });
  std::vector<int64_t> index(n);
  std::vector<int32_t> level(n), xs(n * k);
  for (size_t s = 0; s < n; ++s) {
    index[s] = out.index_[order[s]];
    level[s] = out.level_[order[s]];
    std::copy_n(out.x_.begin() + order[s] * k, k, xs.begin() + s * k);
    id[static_cast<size_t>(index[s])] = static_cast<int32_t>(s);
  }
  out.index_ = std::move(index);
  out.level_ = std::move(level);
  out.x_ = std::move(xs);

  out.next_.assign(n * k, -1);
  for (size_t s = 0; s < n; ++s) {
    if (out.level_[s] == num_trees) continue;
    for (int32_t c = 0; c < k; ++c) {
      out.next_[s * k + c] = id[static_cast<size_t>(lattice.IndexPlusOne(&out.x_[s * k], out.level_[s], c))];
    }
  }
  out.all_.assign(n, 0.0);
  out.wrong_.assign(n, 0.0);
  for (const auto& row : fit_weights) {
    const int32_t winner = TallyLeader(row.first.data(), k);
    ForEachBelow(row.first, binom, num_trees, [&](const int32_t* x, int32_t sum, double h) {
      const size_t s = static_cast<size_t>(id[static_cast<size_t>(lattice.Index(x, sum))]);
      out.all_[s] += row.second * h;
      if (TallyLeader(x, k) != winner) out.wrong_[s] += row.second * h;
    });
  }
  out.solve_wrong_ = out.wrong_;
  if (pseudo_errors > 0.0) {
    const double rows = static_cast<double>(fit.value().size());
    for (size_t s = 0; s < n; ++s) {
      if (out.all_[s] == 0.0 || Decided(&out.x_[s * k], k, num_trees - out.level_[s])) continue;
      out.solve_wrong_[s] = out.all_[s] * (rows * out.wrong_[s] + pseudo_errors) / (rows * out.all_[s] + 2.0 * pseudo_errors);
    }
  }
  return out;
}

SupportStopSet TallyLagrangianLadder::Solve(double mu) const {
  if (!std::isfinite(mu) || mu < 0.0) return {};
  const size_t n = index_.size(), k = static_cast<size_t>(num_classes_);
  SupportStopSet stop(n, 0);
  std::vector<double> g(n, 0.0);
  for (size_t s = n; s-- > 0;) {
    const int32_t i = level_[s];
    const double stop_cost = i * all_[s] + mu * solve_wrong_[s];
    if (i == num_trees_) {
      stop[s] = 1;
      g[s] = stop_cost;
      continue;
    }
    if (all_[s] == 0.0) continue;  // no fit row goes here: go on (g = 0 either way)
    double go = 0.0;
    for (size_t c = 0; c < k; ++c) {
      const int32_t up = next_[s * k + c];
      go += (up < 0 ? 0.0 : g[static_cast<size_t>(up)]) * (x_[s * k + c] + 1);
    }
    go /= (i + 1);
    stop[s] = i > 0 && stop_cost <= go ? 1 : 0;
    g[s] = stop[s] ? stop_cost : go;
  }
  return stop;
}

std::vector<double> TallyLagrangianLadder::Alive(const SupportStopSet& stop) const {
  const size_t n = index_.size(), k = static_cast<size_t>(num_classes_);
  std::vector<double> alive(n, 0.0);
  if (n == 0) return alive;
  alive[0] = 1.0;  // support state 0 is the empty tally (lattice index 0)
  for (size_t s = 0; s < n; ++s) {
    const int32_t i = level_[s];
    if (alive[s] == 0.0 || stop[s] || i == num_trees_) continue;
    for (size_t c = 0; c < k; ++c) {
      const int32_t up = next_[s * k + c];
      if (up >= 0) alive[static_cast<size_t>(up)] += alive[s] * (x_[s * k + c] + 1) / (i + 1);
    }
  }
  return alive;
}

TallyOutcome TallyLagrangianLadder::FitOutcome(const SupportStopSet& stop) const {
  TallyOutcome out;
  if (stop.size() != index_.size()) return out;
  const std::vector<double> alive = Alive(stop);
  for (size_t s = 0; s < stop.size(); ++s) {
    if (!stop[s] || alive[s] == 0.0) continue;
    out.disagreement += alive[s] * wrong_[s];
    out.trees += alive[s] * all_[s] * level_[s];
  }
  return out;
}

std::vector<std::vector<TallyOutcome>> TallyLagrangianLadder::ReachOutcomes(
    const std::vector<SupportStopSet>& sets) const {
  const size_t n = index_.size();
  std::vector<std::vector<TallyOutcome>> per_distinct(sets.size(), std::vector<TallyOutcome>(distinct_.size()));
  Result<TallyLattice> lattice = TallyLattice::Make(num_trees_, num_classes_);
  if (!lattice.ok() || n == 0) return {};
  std::vector<int32_t> id(static_cast<size_t>(lattice.value().size()), -1);
  for (size_t s = 0; s < n; ++s) id[static_cast<size_t>(index_[s])] = static_cast<int32_t>(s);
  const Binomials binom(num_trees_);
  const size_t batch = std::max<size_t>(1, std::min(sets.size(), kReachBatchDoubles / n));
  std::vector<double> stopped;  // stopped[s * width + j]: alive fraction of set b + j stopping at s, else 0
  for (size_t b = 0; b < sets.size(); b += batch) {
    const size_t width = std::min(batch, sets.size() - b);
    stopped.assign(n * width, 0.0);
    for (size_t j = 0; j < width; ++j) {
      const SupportStopSet& stop = sets[b + j];
      if (stop.size() != n) continue;
      const std::vector<double> alive = Alive(stop);
      for (size_t s = 0; s < n; ++s) stopped[s * width + j] = stop[s] ? alive[s] : 0.0;
    }
    for (size_t d = 0; d < distinct_.size(); ++d) {
      const int32_t winner = TallyLeader(distinct_[d].data(), num_classes_);
      ForEachBelow(distinct_[d], binom, num_trees_, [&](const int32_t* x, int32_t sum, double h) {
        const double* q = &stopped[static_cast<size_t>(id[static_cast<size_t>(lattice.value().Index(x, sum))]) * width];
        const bool wrong = TallyLeader(x, num_classes_) != winner;
        for (size_t j = 0; j < width; ++j) {
          if (q[j] == 0.0) continue;
          const double p = q[j] * h;
          TallyOutcome& o = per_distinct[b + j][d];
          o.trees += p * sum;
          if (wrong) o.disagreement += p;
        }
      });
    }
  }
  std::vector<std::vector<TallyOutcome>> out(sets.size());
  for (size_t j = 0; j < sets.size(); ++j) {
    for (size_t d : reach_row_) out[j].push_back(per_distinct[j][d]);
  }
  return out;
}

TallyStoppingSet TallyLagrangianLadder::Expand(const SupportStopSet& stop) const {
  TallyStoppingSet out;
  out.num_trees = num_trees_;
  out.num_classes = num_classes_;
  Result<TallyLattice> lattice = TallyLattice::Make(num_trees_, num_classes_);
  if (!lattice.ok()) return out;
  out.stop.assign(static_cast<size_t>(lattice.value().size()), 0);
  for (int64_t s = lattice.value().LevelStart(num_trees_); s < lattice.value().size(); ++s) {
    out.stop[static_cast<size_t>(s)] = 1;
  }
  for (size_t s = 0; s < stop.size() && s < index_.size(); ++s) {
    if (stop[s]) out.stop[static_cast<size_t>(index_[s])] = 1;
  }
  return out;
}

}  // namespace urnforest
