// The packed answer's section offsets, header and packing (predict_abi.h), shared by the full
// module and the inference-only one (predict_only.cpp), which does not link predict_abi.cpp's embind parts.
#include "predict_abi.h"

#include <cstdlib>
#include <cstring>

namespace urnforest::wasm {

AnswerLayout LayoutOf(size_t n, size_t k, uint32_t present) {
  AnswerLayout layout{};
  size_t at = sizeof(AnswerHeader);
  for (size_t i = 0; i < kNumParts; ++i) {
    if ((present & (1u << i)) == 0) continue;
    const AnswerSection& s = kAnswerSections[i];
    layout.offset[i] = at;
    at += s.element_bytes * n * (s.per_class ? k : 1);
  }
  layout.size_bytes = at;
  return layout;
}

void WriteAnswerHeader(uint8_t* block, size_t n, size_t k, uint32_t present, size_t size_bytes,
                       double mean_trees, double disagreement, double lambda, PredictPath path) {
  const AnswerHeader header = {static_cast<uint32_t>(n), static_cast<uint32_t>(k), present,
                               static_cast<uint32_t>(size_bytes), mean_trees, disagreement, lambda,
                               static_cast<uint32_t>(path), 0u};
  std::memcpy(block, &header, sizeof(header));
}

namespace {

template <typename T>
void Put(uint8_t* block, const AnswerLayout& layout, AnswerPart part, const std::vector<T>& values) {
  if (!values.empty()) std::memcpy(block + layout.offset[part], values.data(), values.size() * sizeof(T));
}

}  // namespace

uint8_t* PackPrediction(const Prediction& p, size_t k) {
  const size_t n = p.labels.size();
  const size_t sizes[kNumParts] = {p.probabilities.size(), p.scores.size(), p.confidence.size(),
                                   p.tallies.size(), p.labels.size(), p.trees_used.size(),
                                   p.full_labels.size(), p.full_votes.size(), p.votes.size(),
                                   p.halted_early.size()};
  uint32_t present = 0;
  for (size_t i = 0; i < kNumParts; ++i) {
    if (sizes[i] == n * (kAnswerSections[i].per_class ? k : 1)) present |= 1u << i;
  }
  const AnswerLayout layout = LayoutOf(n, k, present);
  uint8_t* block = static_cast<uint8_t*>(std::malloc(layout.size_bytes));
  if (block == nullptr) return nullptr;
  WriteAnswerHeader(block, n, k, present, layout.size_bytes, p.mean_trees, p.disagreement, p.lambda, p.path);
  if (present & (1u << kProbabilities)) Put(block, layout, kProbabilities, p.probabilities);
  if (present & (1u << kScores)) Put(block, layout, kScores, p.scores);
  if (present & (1u << kConfidence)) Put(block, layout, kConfidence, p.confidence);
  if (present & (1u << kTallies)) Put(block, layout, kTallies, p.tallies);
  Put(block, layout, kClassIndex, p.labels);
  if (present & (1u << kTreesUsed)) Put(block, layout, kTreesUsed, p.trees_used);
  if (present & (1u << kFullClassIndex)) Put(block, layout, kFullClassIndex, p.full_labels);
  if (present & (1u << kFullVotes)) Put(block, layout, kFullVotes, p.full_votes);
  if (present & (1u << kVotes)) Put(block, layout, kVotes, p.votes);
  if (present & (1u << kHaltedEarly)) Put(block, layout, kHaltedEarly, p.halted_early);
  return block;
}

}  // namespace urnforest::wasm
