// The protocol-buffers reader's runs of repeated scalars (ProtoReader::ReadRun): an unpacked
// repeated field is read value by value as Next() would, up to the first field that is not part
// of the run, and whatever ends a run is left to Next().
#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace urnforest::internal
