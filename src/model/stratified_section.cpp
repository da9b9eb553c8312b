// The STRS section of the model bytes: a forest's stratified calibration (stratified_section.h).
#include "model/stratified_section.h"

#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "ensemble/forest_access.h"
#include "urnforest/stratified_stopping.h"

namespace urnforest::internal {
namespace {

constexpr uint8_t kSectionVersion = 1;

Status Corrupt(const std::string& what) { return Status::Error(StatusCode::kCorruptModel, "stratified section: " + what); }

bool ReadFinite(ByteReader& r, size_t n, std::vector<double>* out) {
  if (r.remaining() / 8 < n) return false;
  out->resize(n);
  for (double& x : *out) {
    x = r.F64();
    if (!std::isfinite(x)) return false;
  }
  return !r.failed();
}

}  // namespace

bool HasStratifiedSection(const Forest& forest) { return forest.stratified_calibration() != nullptr; }

void WriteStratifiedSection(const Forest& forest, std::vector<uint8_t>* body) {
  const StratifiedCalibration& c = *forest.stratified_calibration();
  const LinearSurrogate& s = c.surrogate;
  ByteWriter w(body);
  w.U8(kSectionVersion);
  w.U32(static_cast<uint32_t>(c.num_trees));
  w.U32(static_cast<uint32_t>(s.num_features));
  w.U8(s.squares ? 1 : 0);
  w.F64(s.intercept);
  w.F64(c.pooled_share);
  for (const std::vector<double>* v : {&s.mean, &s.inv_sd, &s.low, &s.high, &s.weights}) {
    for (double x : *v) w.F64(x);
  }
  w.U32(static_cast<uint32_t>(c.bucket_final_counts.size()));
  for (double cut : c.cuts) w.F64(cut);
  for (const std::vector<double>& bucket : c.bucket_final_counts) {
    for (double count : bucket) w.U32(static_cast<uint32_t>(count));
  }
}

Status ReadStratifiedSection(ByteReader r, Forest* forest) {
  const uint8_t version = r.U8();
  if (r.failed()) return Corrupt("truncated");
  if (version != kSectionVersion) {
    return Status::Error(StatusCode::kUnsupportedVersion, "stratified section version " + std::to_string(version) +
                                                              " is not supported (this library reads version 1)");
  }
  auto c = std::make_shared<StratifiedCalibration>();
  LinearSurrogate& s = c->surrogate;
  c->num_trees = static_cast<int32_t>(r.U32());
  s.num_features = static_cast<int32_t>(r.U32());
  const uint8_t squares = r.U8();
  s.intercept = r.F64();
  c->pooled_share = r.F64();
  if (r.failed() || c->num_trees != forest->num_trees() || s.num_features != forest->num_features() ||
      forest->num_classes() != 2 || squares > 1 || !std::isfinite(s.intercept) ||
      !(c->pooled_share >= 0.0 && c->pooled_share <= 1.0)) {
    return Corrupt("trees, features, classes or header do not match the model");
  }
  s.squares = squares == 1;
  const size_t f = static_cast<size_t>(s.num_features);
  if (!ReadFinite(r, f, &s.mean) || !ReadFinite(r, f, &s.inv_sd) || !ReadFinite(r, f, &s.low) ||
      !ReadFinite(r, f, &s.high) || !ReadFinite(r, s.squares ? 2 * f : f, &s.weights)) {
    return Corrupt("bad surrogate");
  }
  const uint32_t buckets = r.U32();
  const size_t per_bucket = static_cast<size_t>(c->num_trees) + 1;
  if (r.failed() || buckets == 0 || buckets > r.remaining() / (4 * per_bucket)) return Corrupt("bad bucket count");
  if (!ReadFinite(r, buckets - 1, &c->cuts)) return Corrupt("bad cuts");
  for (size_t b = 1; b < c->cuts.size(); ++b) {
    if (!(c->cuts[b] > c->cuts[b - 1])) return Corrupt("cuts are not strictly increasing");
  }
  c->bucket_final_counts.assign(buckets, std::vector<double>(per_bucket, 0.0));
  for (std::vector<double>& bucket : c->bucket_final_counts) {
    double total = 0.0;
    for (double& count : bucket) total += count = r.U32();
    if (!(total > 0.0)) return Corrupt("an empty bucket");
  }
  if (r.failed() || !r.at_end()) return Corrupt("bytes missing or left over");
  ForestAccess::stratified(*forest) = std::move(c);
  return Status::Ok();
}

}  // namespace urnforest::internal
