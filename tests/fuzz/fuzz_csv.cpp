// libFuzzer target: ReadCsv on arbitrary bytes, in training mode and in schema mode.
//
// Input layout: byte 0 selects the options, the rest is the CSV text.
//   bit 0     has_target = false
//   bit 1     class_order = kFirstSeen
//   bits 2-3  target: 0 = default (last column), 1 = "class", 2 = "a", 3 = "" but schema mode only
//   bit 4     also read the text against a fixed hand-written schema
//   bit 5     also read the text against its own schema (oracle: the same Dataset comes back)
// Every outcome must be a Dataset or a Status with a known code; the oracles abort on a mismatch.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "urnforest/csv_reader.h"
#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace {

using urnforest::CsvOptions;
using urnforest::Dataset;
using urnforest::FeatureType;
using urnforest::Result;
using urnforest::Schema;
using urnforest::Status;
using urnforest::StatusCode;

[[noreturn]] void Fail(const char* what) {
  std::fprintf(stderr, "fuzz_csv oracle failed: %s\n", what);
  std::abort();
}

void CheckStatus(const Status& status) {
  if (status.ok()) Fail("a failed Result carries an OK status");
  if (status.code == StatusCode::kInternal) Fail(("kInternal: " + status.ToString()).c_str());
  if (static_cast<int>(status.code) < 0 || static_cast<int>(status.code) > static_cast<int>(StatusCode::kIoError)) Fail("unknown code");
  if (status.message.empty()) Fail("an error without a message");
  if (status.line < 0 || status.column < 0) Fail("negative position");
  (void)status.ToString();
}

void CheckDataset(const Dataset& d) {
  const Schema& s = d.schema();
  if (d.has_labels() && d.labels().size() != d.num_rows()) Fail("label count");
  for (int32_t label : d.labels()) {
    if (label < -1 || label >= static_cast<int32_t>(s.class_names.size())) Fail("label range");
  }
  for (size_t f = 0; f < d.num_features(); ++f) {
    const float* col = d.column(f);
    const size_t cats = s.features[f].categories.size();
    for (size_t r = 0; r < d.num_rows(); ++r) {
      const float v = col[r];
      if (std::isnan(v)) continue;
      if (std::isinf(v)) Fail("infinite value");
      if (s.features[f].type == FeatureType::kCategorical &&
          (v < 0 || v >= static_cast<float>(cats) || v != std::floor(v))) {
        Fail("category index out of range");
      }
    }
  }
}

bool SameBits(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// A dataset re-read against its own schema must come back identical.
void CheckSameDataset(const Dataset& a, const Dataset& b) {
  if (a.num_rows() != b.num_rows() || a.num_features() != b.num_features()) Fail("shape changed");
  if (a.labels() != b.labels()) Fail("labels changed");
  for (size_t f = 0; f < a.num_features(); ++f) {
    for (size_t r = 0; r < a.num_rows(); ++r) {
      if (!SameBits(a.value(r, f), b.value(r, f))) Fail("value changed");
    }
  }
}

Schema FixedSchema() {
  Schema s;
  s.target_name = "class";
  s.class_names = {"no", "yes", "1"};
  urnforest::FeatureInfo a{"a", FeatureType::kNumeric, {}};
  urnforest::FeatureInfo b{"b", FeatureType::kCategorical, {"x", "y", "1", ""}};
  s.features = {a, b};
  return s;
}

}  // namespace

// The Catch2 suite compiles this file too, renaming the entry point (tests/cpp/fuzz_corpus_test.cpp).
#ifndef URNFOREST_FUZZ_ENTRY
#define URNFOREST_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

extern "C" int URNFOREST_FUZZ_ENTRY(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  CsvOptions options;
  options.has_target = (flags & 1u) == 0;
  options.class_order =
      (flags & 2u) ? urnforest::ClassOrder::kFirstSeen : urnforest::ClassOrder::kSorted;
  const int target_choice = (flags >> 2) & 3;
  if (target_choice == 1) options.target = "class";
  if (target_choice == 2) options.target = "a";

  Result<Dataset> trained = urnforest::ReadCsv(text, options);
  if (trained.ok()) {
    CheckDataset(trained.value());
  } else {
    CheckStatus(trained.status());
  }

  if (flags & 16u) {
    const Schema fixed = FixedSchema();
    CsvOptions with_schema = options;
    with_schema.schema = &fixed;
    Result<Dataset> read = urnforest::ReadCsv(text, with_schema);
    if (read.ok()) {
      CheckDataset(read.value());
    } else {
      CheckStatus(read.status());
    }
  }

  if ((flags & 32u) && trained.ok() && options.has_target) {
    const Schema own = trained.value().schema();
    CsvOptions with_schema = options;
    with_schema.schema = &own;
    Result<Dataset> again = urnforest::ReadCsv(text, with_schema);
    if (!again.ok()) Fail(("own schema rejected: " + again.status().ToString()).c_str());
    CheckSameDataset(trained.value(), again.value());
  }
  return 0;
}
