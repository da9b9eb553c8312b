// The protocol-buffers reader's runs of repeated scalars (ProtoReader::ReadRun): an unpacked
// repeated field is read value by value as Next() would, up to the first field that is not part
// of the run, and whatever ends a run is left to Next().
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

#include "onnx/protobuf_reader.h"
#include "onnx/protobuf_writer.h"

namespace urnforest::internal {
namespace {

std::vector<uint64_t> RunAfter(ProtoReader* r, const ProtoField& f) {
  std::vector<uint64_t> out;
  const size_t n = r->ReadRun(f, [&out](uint64_t v) { out.push_back(v); });
  REQUIRE(n == out.size());
  return out;
}

TEST_CASE("A run of an unpacked varint field ends before the first other field, which Next() then reads",
          "[protobuf_reader]") {
  ProtoWriter w;
  for (uint64_t v : {1u, 300u, 5u}) w.Varint(8, v);
  w.Varint(3, 7);
  w.Varint(8, 9);
  ProtoReader r(w.view());
  ProtoField f;
  REQUIRE(r.Next(&f));
  CHECK((f.number == 8 && f.varint == 1));
  CHECK(RunAfter(&r, f) == std::vector<uint64_t>{300, 5});
  REQUIRE(r.Next(&f));
  CHECK((f.number == 3 && f.varint == 7));
  REQUIRE(r.Next(&f));
  CHECK((f.number == 8 && f.varint == 9));
  CHECK(RunAfter(&r, f).empty());
  CHECK(!r.Next(&f));
  CHECK(!r.failed());
}

TEST_CASE("A run of fixed32 values gives their raw bits, with keys of two bytes too", "[protobuf_reader]") {
  ProtoWriter w;
  for (float v : {1.5f, -2.0f, 0.25f}) w.Float(20, v);
  w.Bytes(1, "x");
  ProtoReader r(w.view());
  ProtoField f;
  REQUIRE(r.Next(&f));
  REQUIRE(f.type == WireType::kFixed32);
  std::vector<float> values;
  for (uint64_t bits : RunAfter(&r, f)) {
    const uint32_t b = static_cast<uint32_t>(bits);
    float x;
    std::memcpy(&x, &b, 4);
    values.push_back(x);
  }
  CHECK(values == std::vector<float>{-2.0f, 0.25f});
  REQUIRE(r.Next(&f));
  CHECK((f.number == 1 && f.bytes == "x"));
}

TEST_CASE("A run reads nothing after a length-delimited field or before a truncated value, which Next() reports",
          "[protobuf_reader]") {
  ProtoWriter w;
  w.Bytes(8, "ab");
  w.Varint(8, 4);
  ProtoReader packed(w.view());
  ProtoField f;
  REQUIRE(packed.Next(&f));
  CHECK(RunAfter(&packed, f).empty());
  REQUIRE(packed.Next(&f));
  CHECK(f.varint == 4);

  ProtoWriter t;
  t.Varint(8, 1);
  std::vector<uint8_t> bytes = t.bytes();
  bytes.push_back(8 << 3);  // the same key, then a varint cut short
  bytes.push_back(0x80);
  ProtoReader cut(bytes.data(), bytes.size());
  REQUIRE(cut.Next(&f));
  CHECK(RunAfter(&cut, f).empty());
  CHECK(!cut.Next(&f));
  CHECK(cut.failed());
}

TEST_CASE("A run of varints of one to nine bytes reads the values Next() reads, field by field", "[protobuf_reader]") {
  for (uint32_t field : {8u, 20u}) {  // a one-byte key and a two-byte key
    INFO(field);
    std::vector<uint64_t> values;
    uint64_t state = 12345;
    for (int i = 0; i < 400; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const int bits = static_cast<int>(state >> 58);  // 0..63: every varint length
      values.push_back((state >> 3) >> (63 - std::min(bits, 61)));
    }
    ProtoWriter w;
    for (uint64_t v : values) w.Varint(field, v);
    std::vector<uint8_t> bytes = w.bytes();
    const uint8_t key = static_cast<uint8_t>(field << 3);
    if (field == 8) {
      // Two values spelt in more bytes than needed (0 as 0x80 0x00, 5 as 0x85 0x80 0x00): still
      // the values Next() reads.
      for (uint8_t b : {key, uint8_t{0x80}, uint8_t{0x00}, key, uint8_t{0x85}, uint8_t{0x80}, uint8_t{0x00}}) {
        bytes.push_back(b);
      }
      values.push_back(0);
      values.push_back(5);
    }
    ProtoReader by_next(bytes.data(), bytes.size());
    std::vector<uint64_t> want;
    ProtoField f;
    while (by_next.Next(&f)) want.push_back(f.varint);
    REQUIRE(!by_next.failed());
    CHECK(want == values);
    ProtoReader r(bytes.data(), bytes.size());
    REQUIRE(r.Next(&f));
    std::vector<uint64_t> got{f.varint};
    for (uint64_t v : RunAfter(&r, f)) got.push_back(v);
    CHECK(got == want);
    CHECK(r.remaining() == 0);
  }
}

TEST_CASE("CountBytesRun counts the same-key strings that follow without reading them", "[protobuf_reader]") {
  ProtoWriter w;
  for (const char* s : {"LEAF", "BRANCH_LEQ", "", "LEAF"}) w.Bytes(9, s);
  w.Varint(9, 1);  // the same number, another wire type: not part of the run
  w.Bytes(9, "x");
  ProtoReader r(w.view());
  ProtoField f;
  REQUIRE(r.Next(&f));
  CHECK(r.CountBytesRun(f) == 3);
  CHECK(r.remaining() == w.view().size() - 6);  // nothing read: the first field's 6 bytes only
  for (int i = 0; i < 3; ++i) REQUIRE(r.Next(&f));
  CHECK(f.bytes == "LEAF");
  CHECK(r.CountBytesRun(f) == 0);
  REQUIRE(r.Next(&f));
  CHECK(r.CountBytesRun(f) == 0);  // a varint field: no run of strings

  ProtoWriter t;
  t.Bytes(9, "ab");
  std::vector<uint8_t> bytes = t.bytes();
  bytes.push_back(9 << 3 | 2);  // the same key, then a length past the end
  bytes.push_back(5);
  bytes.push_back('c');
  ProtoReader cut(bytes.data(), bytes.size());
  REQUIRE(cut.Next(&f));
  CHECK(cut.CountBytesRun(f) == 0);
  CHECK(!cut.Next(&f));
  CHECK(cut.failed());
}

}  // namespace
}  // namespace urnforest::internal
