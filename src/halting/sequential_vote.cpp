// Sequential voting that halts early: per-row query orders, the vote loop and its table lookups.
#include "urnforest/sequential_vote.h"

#include <algorithm>
#include <cstddef>
#include <string>

#include "base/enum_names.h"
#include "base/random.h"
#include "halting/binary_table_view.h"
#include "urnforest/halting_rules.h"
#include "urnforest/vote.h"

namespace urnforest {
namespace {

Status Invalid(const std::string& m) { return Status::Error(StatusCode::kInvalidArgument, m); }

Status CheckOrder(const HaltingTable& table, const SequentialVoteOptions& o) {
  const int32_t T = table.num_trees();
  if (T < 1) return Invalid("halting table is empty");
  if (o.order != QueryOrder::kGeneration && o.order != QueryOrder::kFixed &&
      o.order != QueryOrder::kRandomPerRow)
    return Invalid("unknown query order");
  if (o.order == QueryOrder::kFixed && o.fixed_order.empty())
    return Invalid("query order 'fixed' needs fixed_order");
  if (!o.fixed_order.empty()) {
    if (static_cast<int32_t>(o.fixed_order.size()) != T)
      return Invalid("fixed_order has " + std::to_string(o.fixed_order.size()) +
                     " trees, the table is for " + std::to_string(T));
    std::vector<int32_t> sorted = o.fixed_order;
    std::sort(sorted.begin(), sorted.end());
    if (sorted[0] < 0) return Invalid("fixed_order has a negative tree id");
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return Invalid("fixed_order repeats a tree id");
  }
  return Status::Ok();
}

void BaseOrder(const HaltingTable& table, const SequentialVoteOptions& o, std::vector<int32_t>* out) {
  if (!o.fixed_order.empty()) {
    *out = o.fixed_order;
  } else {
    out->resize(table.num_trees());
    for (int32_t i = 0; i < table.num_trees(); ++i) (*out)[i] = i;
  }
}

// Random query orders, one per row, over a base order (RowShuffles::ShuffleTo). Fisher-Yates from
// the first position: position p swaps with p + Below32(n - p) of the row's own stream
// DetRng::ForItem(seed, row) (n = T < 2^31). Position p is final after p + 1 draws, so a row that
// stops after k votes draws only about k times (not n - 1), and a row's order never depends on how
// far it was taken.
class RowShuffles {
 public:
  /// Orders of the rows of a run seeded `seed` over `order`'s n entries (borrowed; each Start puts
  /// the previous row's swaps back, so the base order is restored between rows).
  RowShuffles(uint64_t seed, int32_t* order, size_t n)
      : seed_(seed), order_(order), n_(n), rng_(0) {
    divisors_.reserve(n);
    swaps_.reserve(n);
  }

  /// Begins row `row`'s order (no position final yet).
  void Start(size_t row) {
    for (size_t p = swaps_.size(); p-- > 0;) std::swap(order_[p], order_[swaps_[p]]);
    swaps_.clear();
    rng_ = internal::DetRng::ForItem(seed_, row);
  }

  /// Makes positions [0, min(count, n)) of the current row's order final.
  void ShuffleTo(size_t count) {
    // The last position is final when the others are.
    const size_t end = n_ == 0 ? 0 : std::min(count, n_ - 1);
    for (size_t p = swaps_.size(); p < end; ++p) {
      // The bound's rejection threshold (a division) once per run, and only as far as some row
      // reaches: a one-row call that stops after 3 votes prepares 3 bounds, not n.
      if (p == divisors_.size()) divisors_.emplace_back(static_cast<uint32_t>(n_ - p));
      const size_t j = p + rng_.Below32(divisors_[p]);
      std::swap(order_[p], order_[j]);
      swaps_.push_back(static_cast<uint32_t>(j));
    }
  }

 private:
  uint64_t seed_;
  int32_t* order_;
  size_t n_;
  std::vector<internal::DetRng::Divisor32> divisors_;  // entry p prepares Below32(n - p)
  std::vector<uint32_t> swaps_;                       // swaps_[p]: the position p swapped with
  internal::DetRng rng_;
};

// Rows per block of the blocked halted vote: every tree is entered once per block by the rows still
// voting, so a large block shares each tree's nodes among more rows (the later trees, which few rows
// reach, are otherwise cold in cache on every visit).
constexpr size_t kHaltBlock = 4096;
// Rows per sub-block for the trees that every row votes: their rows stay in L1 across the trees.
constexpr size_t kWalkBlock = 256;
// Walks done together: rows per tree while at least this many rows of a block are voting, then
// trees per row for the rest (BlockVoter::VoteTrees; the forest's walker interleaves 4 walks).
constexpr size_t kWalkTogether = 4;
// Random query orders: rows per block walked side by side (each row keeps its own order, T entries),
// for forests of at most kLockstepMaxTrees trees (larger ones go row by row).
constexpr size_t kLockstepBlock = 256;
constexpr size_t kLockstepMaxTrees = 1024;
constexpr int32_t kTreesTogether = static_cast<int32_t>(kWalkTogether);

// Runs one row over `order`; fills trace vectors when non-null. With `shuffles` (random order,
// started for this row), each position of `order` is made final just before it is queried.
Status RunRow(const HaltingTable& table, size_t row, const std::vector<int32_t>& order,
              RowShuffles* shuffles, const TreeVoteFn& vote, std::vector<int32_t>* tally,
              int32_t* label, int32_t* used, double* conf, bool* early, VoteTrace* trace) {
  const int32_t T = table.num_trees();
  const int32_t l = table.num_classes();
  const bool finite = !RuleTraits(table.rule()).infinite_ensemble;
  std::fill(tally->begin(), tally->end(), 0);
  *used = T;
  *early = false;
  bool stopped = false;
  for (int32_t i = 0; i < T; ++i) {
    if (shuffles != nullptr) shuffles->ShuffleTo(static_cast<size_t>(i) + 1);
    int32_t v = vote(order[i], row);
    if (v < 0 || v >= l)
      return Invalid("tree " + std::to_string(order[i]) + " voted " + std::to_string(v) +
                     " for row " + std::to_string(row) + ", not a class in [0, " +
                     std::to_string(l) + ")");
    if (trace) {
      trace->trees.push_back(order[i]);
      trace->votes.push_back(v);
    }
    ++(*tally)[v];
    if (stopped) {  // tracing only: keep the confidence curve after the stop
      trace->confidence.push_back(table.Confidence(tally->data()));
      continue;
    }
    if (trace) trace->confidence.push_back(table.Confidence(tally->data()));
    if (table.Halts(tally->data())) {
      *used = i + 1;
      *early = i + 1 < T;
      *label = table.Leader(tally->data());
      // The confidence is only needed at the stop (it is a table lookup or a product).
      *conf = (finite && i + 1 == T) ? 1.0 : table.Confidence(tally->data());
      stopped = true;
      if (!trace) break;
    }
  }
  if (!stopped) {
    *label = Plurality(*tally);
    *conf = finite ? 1.0 : table.Confidence(tally->data());
  }
  return Status::Ok();
}

}  // namespace

double MeanTreesOf(const int32_t* trees_used, size_t num_rows) {
  if (num_rows == 0) return 0.0;
  // An integer sum (it vectorizes) equals the sum in double: every partial sum is an integer far
  // below 2^53.
  int64_t s = 0;
  for (size_t r = 0; r < num_rows; ++r) s += trees_used[r];
  return static_cast<double>(s) / static_cast<double>(num_rows);
}

double SequentialVoteResult::MeanTrees() const {
  return MeanTreesOf(trees_used.data(), trees_used.size());
}

void SequentialVoteResult::Resize(size_t num_rows, size_t num_classes) {
  labels.resize(num_rows);
  trees_used.resize(num_rows);
  confidence.resize(num_rows);
  halted_early.resize(num_rows);
  tallies.resize(num_rows * num_classes);
}

SequentialVoteSpans SequentialVoteResult::SpansFrom(size_t first_row, size_t num_classes) {
  return {labels.data() + first_row, trees_used.data() + first_row, confidence.data() + first_row,
          halted_early.data() + first_row, tallies.data() + first_row * num_classes};
}

Result<std::vector<int32_t>> QueryOrderForRow(const HaltingTable& table, size_t row,
                                              const SequentialVoteOptions& options) {
  Status s = CheckOrder(table, options);
  if (!s.ok()) return s;
  std::vector<int32_t> order;
  BaseOrder(table, options, &order);
  if (options.order == QueryOrder::kRandomPerRow) {
    RowShuffles shuffles(options.seed, order.data(), order.size());
    shuffles.Start(row);
    shuffles.ShuffleTo(order.size());
  }
  return order;
}

Result<SequentialVoteResult> PredictSequential(const HaltingTable& table, size_t num_rows,
                                               const TreeVoteFn& vote,
                                               const SequentialVoteOptions& options) {
  Status s = CheckOrder(table, options);
  if (!s.ok()) return s;
  if (!vote) return Invalid("vote callable is empty");
  SequentialVoteResult out;
  out.Resize(num_rows, static_cast<size_t>(table.num_classes()));
  std::vector<int32_t> order, tally(table.num_classes());
  BaseOrder(table, options, &order);
  const bool random = options.order == QueryOrder::kRandomPerRow;
  RowShuffles shuffles(options.seed, order.data(), random ? order.size() : 0);
  for (size_t r = 0; r < num_rows; ++r) {
    if (random) shuffles.Start(options.first_row + r);
    int32_t label = 0, used = 0;
    double conf = 0.0;
    bool early = false;
    s = RunRow(table, r, order, random ? &shuffles : nullptr, vote, &tally, &label, &used, &conf,
               &early, nullptr);
    if (!s.ok()) return s;
    out.labels[r] = label;
    out.trees_used[r] = used;
    out.confidence[r] = conf;
    out.halted_early[r] = early ? 1 : 0;
    std::copy(tally.begin(), tally.end(), out.tallies.begin() + r * tally.size());
  }
  return out;
}

Result<SequentialVoteResult> PredictSequentialBlocked(const HaltingTable& table, size_t num_rows,
                                                      const BlockVoter& voter,
                                                      const SequentialVoteOptions& options) {
  SequentialVoteResult out;
  const size_t classes = static_cast<size_t>(std::max(table.num_classes(), 0));
  out.Resize(num_rows, classes);
  Status s = PredictSequentialBlockedInto(table, num_rows, voter, options, out.SpansFrom(0, classes));
  if (!s.ok()) return s;
  return out;
}

Status PredictSequentialBlockedInto(const HaltingTable& table, size_t num_rows,
                                    const BlockVoter& voter, const SequentialVoteOptions& options,
                                    const SequentialVoteSpans& out) {
  Status s = CheckOrder(table, options);
  if (!s.ok()) return s;
  const int32_t T = table.num_trees();
  const int32_t l = table.num_classes();
  const bool finite = !RuleTraits(table.rule()).infinite_ensemble;
  std::vector<int32_t> base;
  BaseOrder(table, options, &base);
  auto bad_vote = [&](int32_t tree, size_t row, int32_t v) {
    return Invalid("tree " + std::to_string(tree) + " voted " + std::to_string(v) + " for row " +
                   std::to_string(row) + ", not a class in [0, " + std::to_string(l) + ")");
  };
  // Binary threshold tables (the common case) are checked inline, reading the same thresholds as
  // HaltingTable::Halts (halt iff the strict leader k has at least row_k[other's count] votes) and
  // the same P* as HaltingTable::Confidence (BinaryTableView::PStar), so the results are
  // bit-identical.
  const internal::BinaryTableView binary_view(table);
  const uint16_t* row0 = binary_view.ThresholdRow(0);
  const uint16_t* row1 = binary_view.ThresholdRow(1);
  const float* pstar = binary_view.PStar();
  const bool binary = row0 != nullptr && pstar != nullptr;
  // Records row r's stop after i + 1 votes, `leader` ahead with confidence `conf`.
  // (Through plain pointers: a byte store may alias anything, so the vectors' pointers would be
  // reloaded after every halted_early store.)
  int32_t* const labels = out.labels;
  int32_t* const trees_used = out.trees_used;
  double* const confidence = out.confidence;
  uint8_t* const halted_early = out.halted_early;
  int32_t* const drawn = out.tallies;
  const size_t L = static_cast<size_t>(l);
  // Records row r's stop after i + 1 votes, tally `t` (l counts), or for two classes (t null) the
  // tally (i + 1 - ones, ones).
  auto stop = [=](size_t r, int32_t i, int32_t leader, double conf, const int32_t* t, int32_t ones) {
    if (t != nullptr) {
      std::copy(t, t + L, drawn + r * L);
    } else {
      drawn[2 * r] = i + 1 - ones;
      drawn[2 * r + 1] = ones;
    }
    labels[r] = leader;
    trees_used[r] = i + 1;
    confidence[r] = (finite && i + 1 == T) ? 1.0 : conf;
    halted_early[r] = i + 1 < T ? 1 : 0;
  };
  // True (and the stop recorded) when row r's tally `t`, after its (i + 1)-th vote, halts.
  auto halts_at = [&](size_t r, int32_t i, const int32_t* t) {
    if (binary) {
      const int32_t a = t[0];
      const int32_t b = t[1];
      if (!(a > b ? a >= row0[b] : (b > a && b >= row1[a]))) return false;
      const int32_t m = a + b;
      stop(r, i, a > b ? 0 : 1, pstar[a + m * (m + 1) / 2], t, 0);
      return true;
    }
    if (!table.Halts(t)) return false;
    stop(r, i, table.Leader(t), (finite && i + 1 == T) ? 1.0 : table.Confidence(t), t, 0);
    return true;
  };
  // Records row r's answer after all T votes without a stop (tally `t`).
  std::vector<int32_t> tally(l);
  auto full_vote = [&](size_t r, const int32_t* t) {
    std::copy(t, t + l, tally.begin());
    std::copy(t, t + l, drawn + r * L);
    labels[r] = Plurality(tally);
    trees_used[r] = T;
    confidence[r] = finite ? 1.0 : table.Confidence(t);
    halted_early[r] = 0;
  };
  // Row r alone from its (first + 1)-th vote in the order `base` on (tally `t` so far): the next
  // trees are walked kWalkGroup at a time (VoteTrees) and applied in order until the row halts; the
  // votes past the stop are discarded unchecked. With `shuffles` (random order, started for row r
  // over `base`), the positions are made final a group at a time. Returns the error of the first
  // bad vote applied.
  int32_t tree_votes[kWalkTogether];
  auto run_alone = [&](size_t r, RowShuffles* shuffles, int32_t first, int32_t* t) -> Status {
    const int32_t* order = base.data();
    for (int32_t next = first; next < T; next += kTreesTogether) {
      const int32_t n = std::min(T - next, kTreesTogether);
      if (shuffles != nullptr) shuffles->ShuffleTo(static_cast<size_t>(next + n));
      voter.VoteTrees(order + next, static_cast<size_t>(n), r, tree_votes);
      for (int32_t q = 0; q < n; ++q) {
        const int32_t v = tree_votes[q];
        if (static_cast<uint32_t>(v) >= static_cast<uint32_t>(l)) return bad_vote(order[next + q], r, v);
        ++t[v];
        if (halts_at(r, next + q, t)) return Status::Ok();
      }
    }
    full_vote(r, t);
    return Status::Ok();
  };
  if (options.order == QueryOrder::kRandomPerRow && static_cast<size_t>(T) <= kLockstepMaxTrees) {
    // Rows side by side: at step k every live row of a block makes position k of its own order
    // final (the Fisher-Yates draw RowShuffles makes for that row: same stream, same bounds) and
    // votes that tree; the walks of different rows through different trees go together
    // (BlockVoter::VotePairs). A row leaves the block when it halts.
    const size_t n = static_cast<size_t>(T);
    const size_t block = std::min(num_rows, kLockstepBlock);
    std::vector<int32_t> orders(block * n);
    std::vector<internal::DetRng> rngs(block, internal::DetRng(0));
    std::vector<internal::DetRng::Divisor32> divisors;  // entry p prepares Below32(n - p)
    std::vector<size_t> live_rows(block);
    std::vector<size_t> slots(block);  // a live row's order, stream and tally in the block
    std::vector<int32_t> trees(block);
    std::vector<int32_t> pair_votes(block);
    std::vector<int32_t> row_tallies(block * L);
    for (size_t begin = 0; begin < num_rows; begin += block) {
      const size_t count = std::min(block, num_rows - begin);
      for (size_t j = 0; j < count; ++j) {
        std::copy(base.begin(), base.end(), orders.begin() + static_cast<std::ptrdiff_t>(j * n));
        rngs[j] = internal::DetRng::ForItem(options.seed, options.first_row + begin + j);
        live_rows[j] = begin + j;
        slots[j] = j;
      }
      std::fill(row_tallies.begin(), row_tallies.begin() + static_cast<std::ptrdiff_t>(count * L), 0);
      size_t live = count;
      for (int32_t k = 0; k < T && live > 0; ++k) {
        const size_t p = static_cast<size_t>(k);
        const bool draw = p + 1 < n;  // the last position is final when the others are
        if (draw && p == divisors.size()) divisors.emplace_back(static_cast<uint32_t>(n - p));
        for (size_t j = 0; j < live; ++j) {
          int32_t* order = orders.data() + slots[j] * n;
          if (draw) std::swap(order[p], order[p + rngs[slots[j]].Below32(divisors[p])]);
          trees[j] = order[p];
        }
        voter.VotePairs(trees.data(), live_rows.data(), live, pair_votes.data());
        size_t keep = 0;
        for (size_t j = 0; j < live; ++j) {
          const int32_t v = pair_votes[j];
          const size_t r = live_rows[j];
          if (static_cast<uint32_t>(v) >= static_cast<uint32_t>(l)) return bad_vote(trees[j], r, v);
          int32_t* t = row_tallies.data() + slots[j] * L;
          ++t[v];
          if (halts_at(r, k, t)) continue;
          if (k + 1 == T) {
            full_vote(r, t);
            continue;
          }
          live_rows[keep] = r;
          slots[keep++] = slots[j];
        }
        live = keep;
      }
    }
    return Status::Ok();
  }
  if (options.order == QueryOrder::kRandomPerRow) {
    std::vector<int32_t> row_tally(l);
    RowShuffles shuffles(options.seed, base.data(), base.size());
    for (size_t r = 0; r < num_rows; ++r) {
      shuffles.Start(options.first_row + r);
      std::fill(row_tally.begin(), row_tally.end(), 0);
      s = run_alone(r, &shuffles, 0, row_tally.data());
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }
  // No tally of fewer votes halts, so the trees before are voted by every row without a halting
  // check (the same walks as the full vote).
  const int32_t before_check = std::min(T, binary_view.MinVotesToHalt() - 1);
  const size_t block = std::min(num_rows, kHaltBlock);
  std::vector<size_t> active(block);
  std::vector<int32_t> votes(block);
  // Two-class threshold tables with nondecreasing rows (all built ones): a row's class-1 count and
  // two bounds per vote count decide (BinaryTableView::ZeroWinsUpTo). The counts are kept
  // compacted with `active`. Other tables: a tally per row of the block.
  const int32_t* zero_wins_up_to = binary ? binary_view.ZeroWinsUpTo() : nullptr;
  const int32_t* one_wins_from = binary_view.OneWinsFrom();
  const bool by_bounds = zero_wins_up_to != nullptr;
  std::vector<int32_t> ones(by_bounds ? block : 0);
  std::vector<int32_t> tallies(by_bounds ? 0 : block * L);
  for (size_t begin = 0; begin < num_rows; begin += block) {
    const size_t count = std::min(block, num_rows - begin);
    if (by_bounds) {
      std::fill(ones.begin(), ones.begin() + count, 0);
    } else {
      std::fill(tallies.begin(), tallies.begin() + count * L, 0);
    }
    for (size_t j = 0; j < count; ++j) active[j] = begin + j;
    // Trees no row can halt before: in sub-blocks that stay in L1 across the trees.
    for (size_t sub = 0; sub < count; sub += kWalkBlock) {
      const size_t n = std::min(kWalkBlock, count - sub);
      for (int32_t i = 0; i < before_check; ++i) {
        voter.Vote(base[i], active.data() + sub, n, votes.data());
        for (size_t j = 0; j < n; ++j) {
          const int32_t v = votes[j];
          if (static_cast<uint32_t>(v) >= static_cast<uint32_t>(l)) return bad_vote(base[i], active[sub + j], v);
          if (by_bounds) {
            ones[sub + j] += v;
          } else {
            ++tallies[(sub + j) * L + static_cast<size_t>(v)];
          }
        }
      }
    }
    // Tree by tree while enough rows are left to walk a tree together.
    size_t live = count;
    int32_t i = before_check;
    for (; i < T && live >= kWalkTogether; ++i) {
      voter.Vote(base[i], active.data(), live, votes.data());
      size_t keep = 0;
      if (by_bounds) {  // every live row has now voted trees 0..i
        const int32_t m = i + 1;
        const int32_t zero_wins = zero_wins_up_to[m];
        const int32_t one_wins = one_wins_from[m];
        const float* pstar_m = pstar + m * (m + 1) / 2;  // P* of (a, m - a) at entry a
        size_t* const rows = active.data();
        int32_t* const counts = ones.data();
        const int32_t* const tree_votes = votes.data();
        for (size_t j = 0; j < live; ++j) {
          const int32_t v = tree_votes[j];
          const size_t r = rows[j];
          if (static_cast<uint32_t>(v) > 1u) return bad_vote(base[i], r, v);
          const int32_t b = counts[j] + v;
          if (b <= zero_wins || b >= one_wins) {
            stop(r, i, b <= zero_wins ? 0 : 1, pstar_m[m - b], nullptr, b);
          } else {
            rows[keep] = r;
            counts[keep++] = b;
          }
        }
      } else {
        for (size_t j = 0; j < live; ++j) {
          const size_t r = active[j];
          const int32_t v = votes[j];
          if (static_cast<uint32_t>(v) >= static_cast<uint32_t>(l)) return bad_vote(base[i], r, v);
          int32_t* t = tallies.data() + (r - begin) * L;
          ++t[v];
          if (!halts_at(r, i, t)) active[keep++] = r;
        }
      }
      live = keep;
    }
    // The last few rows (or all rows after T votes): each alone through its remaining trees.
    for (size_t j = 0; j < live; ++j) {
      const size_t r = active[j];
      int32_t two[2] = {i - (by_bounds ? ones[j] : 0), by_bounds ? ones[j] : 0};
      s = run_alone(r, nullptr, i, by_bounds ? two : tallies.data() + (r - begin) * L);
      if (!s.ok()) return s;
    }
  }
  return Status::Ok();
}

Result<SequentialVoteResult> PredictSequentialFromMatrix(const HaltingTable& table,
                                                         const std::vector<int32_t>& votes,
                                                         size_t num_rows,
                                                         int32_t num_trees_in_matrix,
                                                         const SequentialVoteOptions& options) {
  if (num_trees_in_matrix < 1 ||
      votes.size() != num_rows * static_cast<size_t>(num_trees_in_matrix))
    return Status::Error(StatusCode::kShapeMismatch,
                         "vote matrix has " + std::to_string(votes.size()) + " entries, expected " +
                             std::to_string(num_rows) + " x " + std::to_string(num_trees_in_matrix));
  int32_t max_id = table.num_trees() - 1;
  for (int32_t id : options.fixed_order) max_id = std::max(max_id, id);
  if (options.fixed_order.empty() ? table.num_trees() > num_trees_in_matrix
                                  : max_id >= num_trees_in_matrix)
    return Status::Error(StatusCode::kShapeMismatch, "vote matrix has fewer trees than queried");
  return PredictSequential(
      table, num_rows,
      [&](int32_t tree, size_t row) {
        return votes[row * static_cast<size_t>(num_trees_in_matrix) + tree];
      },
      options);
}

Result<VoteTrace> TraceVotes(const HaltingTable& table, size_t row, const TreeVoteFn& vote,
                             const SequentialVoteOptions& options) {
  Result<std::vector<int32_t>> order = QueryOrderForRow(table, row, options);
  if (!order.ok()) return order.status();
  if (!vote) return Invalid("vote callable is empty");
  VoteTrace trace;
  std::vector<int32_t> tally(table.num_classes());
  double conf = 0.0;
  bool early = false;
  Status s = RunRow(table, row, order.value(), nullptr, vote, &tally, &trace.label,
                    &trace.trees_used, &conf, &early, &trace);
  if (!s.ok()) return s;
  trace.halted_early = early;
  // The strict leader after each vote, then the full vote of all T queried trees (plurality, ties
  // to the lowest class index).
  std::vector<int32_t> running(table.num_classes(), 0);
  trace.leaders.reserve(trace.votes.size());
  for (int32_t v : trace.votes) {
    ++running[static_cast<size_t>(v)];
    trace.leaders.push_back(StrictLeader(running));
  }
  trace.full_label = Plurality(running);
  return trace;
}

const std::vector<std::string>& QueryOrderNames() {
  static const std::vector<std::string> kNames = {"generation", "fixed", "random"};
  return kNames;
}

const char* QueryOrderName(QueryOrder order) {
  return internal::EnumName(static_cast<size_t>(order), QueryOrderNames());
}

Result<QueryOrder> ParseQueryOrder(std::string_view name) {
  return internal::ParseEnumName<QueryOrder>(name, QueryOrderNames(), "query order");
}

}  // namespace urnforest
