// Decoding of an ONNX ModelProto into internal::OnnxModel (field numbers from onnx/onnx.proto,
// IR version 3 and later; both packed and unpacked repeated scalars are accepted).
#include "onnx/onnx_model.h"

#include <cstring>

#include "onnx/protobuf_reader.h"

namespace urnforest {
namespace internal {
namespace {

constexpr size_t kMaxValues = size_t{1} << 28;

class Decoder {
 public:
  Status status = Status::Ok();
  size_t values = 0;

  bool Bad(const std::string& what) {
    if (status.ok()) {
      status = Status::Error(StatusCode::kCorruptModel, "not a valid ONNX file: " + what);
    }
    return false;
  }
  bool Count(size_t n) {
    values += n;
    if (values > kMaxValues && status.ok()) {
      status = Status::Error(StatusCode::kLimitExceeded,
                             "the ONNX file holds more than 2^28 attribute values");
      return false;
    }
    return true;
  }
  bool NeedBytes(const ProtoField& f, const char* what) {
    return f.type == WireType::kLengthDelimited || Bad(std::string("field ") + what + " has the wrong wire type");
  }
  bool NeedVarint(const ProtoField& f, const char* what) {
    return f.type == WireType::kVarint || Bad(std::string("field ") + what + " has the wrong wire type");
  }

  // Repeated int64 (packed or not).
  bool Ints(const ProtoField& f, std::vector<int64_t>* out, const char* what) {
    if (f.type == WireType::kVarint) {
      out->push_back(static_cast<int64_t>(f.varint));
      return Count(1);
    }
    if (!NeedBytes(f, what)) return false;
    // One value ends at each byte without the continuation bit: reserve exactly, so that a long
    // list is written once rather than regrown (each regrowth copies it and touches new memory).
    size_t values = 0;
    for (char c : f.bytes) values += (static_cast<uint8_t>(c) & 0x80) == 0;
    out->reserve(out->size() + values);
    if (!ForEachPackedVarint(f.bytes, [out](uint64_t v) { out->push_back(static_cast<int64_t>(v)); })) {
      return Bad(std::string("packed ") + what + " is truncated");
    }
    return Count(out->size());
  }
  // Repeated float (fixed32, packed or not), widened to double.
  bool Floats(const ProtoField& f, std::vector<double>* out, const char* what) {
    if (f.type == WireType::kFixed32) {
      out->push_back(FloatBits(static_cast<uint32_t>(f.varint)));
      return Count(1);
    }
    if (!NeedBytes(f, what)) return false;
    if (f.bytes.size() % 4 != 0) return Bad(std::string("packed ") + what + " is not a multiple of 4 bytes");
    if (!Count(f.bytes.size() / 4)) return false;
    const auto* p = reinterpret_cast<const uint8_t*>(f.bytes.data());
    out->reserve(out->size() + f.bytes.size() / 4);
    for (size_t i = 0; i < f.bytes.size(); i += 4) out->push_back(FloatBits(Le32(p + i)));
    return true;
  }
  bool Doubles(const ProtoField& f, std::vector<double>* out, const char* what) {
    if (f.type == WireType::kFixed64) {
      out->push_back(DoubleBits(f.varint));
      return Count(1);
    }
    if (!NeedBytes(f, what)) return false;
    if (f.bytes.size() % 8 != 0) return Bad(std::string("packed ") + what + " is not a multiple of 8 bytes");
    if (!Count(f.bytes.size() / 8)) return false;
    const auto* p = reinterpret_cast<const uint8_t*>(f.bytes.data());
    for (size_t i = 0; i < f.bytes.size(); i += 8) out->push_back(DoubleBits(Le64(p + i)));
    return true;
  }

  static uint32_t Le32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
           static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
  }
  static uint64_t Le64(const uint8_t* p) {
    return static_cast<uint64_t>(Le32(p)) | static_cast<uint64_t>(Le32(p + 4)) << 32;
  }
  static double FloatBits(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  static double DoubleBits(uint64_t bits) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }

  bool Tensor(std::string_view bytes, OnnxTensor* t) {
    ProtoReader r(bytes);
    ProtoField f;
    std::string_view raw;
    bool has_raw = false;
    std::vector<int64_t> ints;
    while (r.Next(&f)) {
      switch (f.number) {
        case 1: if (!Ints(f, &t->dims, "TensorProto.dims")) return false; break;
        case 2: if (!NeedVarint(f, "TensorProto.data_type")) return false;
                t->data_type = static_cast<int32_t>(f.varint); break;
        case 4: if (!Floats(f, &t->numbers, "TensorProto.float_data")) return false; break;
        case 5: case 7: case 11:
          if (!Ints(f, &ints, "TensorProto integer data")) return false;
          break;
        case 6: if (!NeedBytes(f, "TensorProto.string_data") || !Count(1)) return false;
                t->strings.emplace_back(f.bytes); break;
        case 9: if (!NeedBytes(f, "TensorProto.raw_data")) return false;
                raw = f.bytes; has_raw = true; break;
        case 10: if (!Doubles(f, &t->numbers, "TensorProto.double_data")) return false; break;
        case 13: return Bad("tensor data stored outside the file (external data) is not supported");
        default: break;
      }
    }
    if (r.failed()) return Bad("truncated tensor");
    for (int64_t v : ints) {
      // int32_data holds uint8/int8/int32 values as varints (sign-extended for negatives).
      t->numbers.push_back(t->data_type == kOnnxInt32 || t->data_type == kOnnxInt8
                               ? static_cast<double>(static_cast<int32_t>(v))
                               : static_cast<double>(v));
    }
    if (has_raw) {
      const auto* p = reinterpret_cast<const uint8_t*>(raw.data());
      size_t width = 0;
      switch (t->data_type) {
        case kOnnxFloat: case kOnnxInt32: width = 4; break;
        case kOnnxDouble: case kOnnxInt64: width = 8; break;
        case kOnnxUint8: case kOnnxInt8: width = 1; break;
        default: return Bad("raw tensor data of type " + std::to_string(t->data_type) + " is not supported");
      }
      if (raw.size() % width != 0) return Bad("raw tensor data does not match its type");
      if (!Count(raw.size() / width)) return false;
      for (size_t i = 0; i < raw.size(); i += width) {
        switch (t->data_type) {
          case kOnnxFloat: t->numbers.push_back(FloatBits(Le32(p + i))); break;
          case kOnnxInt32: t->numbers.push_back(static_cast<int32_t>(Le32(p + i))); break;
          case kOnnxDouble: t->numbers.push_back(DoubleBits(Le64(p + i))); break;
          case kOnnxInt64: t->numbers.push_back(static_cast<double>(static_cast<int64_t>(Le64(p + i)))); break;
          case kOnnxUint8: t->numbers.push_back(p[i]); break;
          default: t->numbers.push_back(static_cast<int8_t>(p[i])); break;
        }
      }
    }
    uint64_t expected = 1;
    for (int64_t d : t->dims) {
      if (d < 0 || d > static_cast<int64_t>(kMaxValues)) return Bad("tensor dimension out of range");
      expected *= static_cast<uint64_t>(d);
      if (expected > kMaxValues) return Bad("tensor dimension out of range");
    }
    const size_t held = t->data_type == kOnnxString ? t->strings.size() : t->numbers.size();
    if (held != expected) return Bad("tensor holds " + std::to_string(held) + " values, its shape says " + std::to_string(expected));
    return true;
  }

  bool Attribute(std::string_view bytes, OnnxAttribute* a) {
    ProtoReader r(bytes);
    ProtoField f;
    while (r.Next(&f)) {
      switch (f.number) {
        case 1: if (!NeedBytes(f, "AttributeProto.name")) return false; a->name = std::string(f.bytes); break;
        case 20: if (!NeedVarint(f, "AttributeProto.type")) return false; a->type = static_cast<int32_t>(f.varint); break;
        case 2: if (f.type != WireType::kFixed32) return Bad("field AttributeProto.f has the wrong wire type");
                a->f = FloatBits(static_cast<uint32_t>(f.varint)); break;
        case 3: if (!NeedVarint(f, "AttributeProto.i")) return false; a->i = static_cast<int64_t>(f.varint); break;
        case 4: if (!NeedBytes(f, "AttributeProto.s")) return false; a->s = std::string(f.bytes); break;
        case 5: if (!NeedBytes(f, "AttributeProto.t") || !Tensor(f.bytes, &a->t)) return false; break;
        // An unpacked list's remaining values are read as one run (ProtoReader::ReadRun), into
        // room for as many as the attribute's remaining bytes can hold (a key and a value take at
        // least 5 bytes for floats, 2 for ints): regrowing a long list costs more than the spare room.
        case 7: a->floats.reserve(a->floats.size() + 1 + r.remaining() / 5);
                if (!Floats(f, &a->floats, "AttributeProto.floats") ||
                    !Count(r.ReadRun(f, [a](uint64_t v) { a->floats.push_back(FloatBits(static_cast<uint32_t>(v))); })))
                  return false;
                break;
        case 8: if (f.type == WireType::kVarint) a->ints.reserve(a->ints.size() + 1 + r.remaining() / 2);
                if (!Ints(f, &a->ints, "AttributeProto.ints") ||
                    !Count(r.ReadRun(f, [a](uint64_t v) { a->ints.push_back(static_cast<int64_t>(v)); })))
                  return false;
                break;
        case 9: if (!NeedBytes(f, "AttributeProto.strings") || !Count(1)) return false;
                // Room for the run of strings that follows (node modes: one per node), counted
                // first: regrowing moves every string already read.
                if (a->strings.empty()) a->strings.reserve(1 + r.CountBytesRun(f));
                a->strings.emplace_back(f.bytes); break;
        default: break;
      }
    }
    return !r.failed() || Bad("truncated attribute");
  }

  bool Node(std::string_view bytes, OnnxNode* n) {
    ProtoReader r(bytes);
    ProtoField f;
    while (r.Next(&f)) {
      switch (f.number) {
        case 1: if (!NeedBytes(f, "NodeProto.input")) return false; n->inputs.emplace_back(f.bytes); break;
        case 2: if (!NeedBytes(f, "NodeProto.output")) return false; n->outputs.emplace_back(f.bytes); break;
        case 3: if (!NeedBytes(f, "NodeProto.name")) return false; n->name = std::string(f.bytes); break;
        case 4: if (!NeedBytes(f, "NodeProto.op_type")) return false; n->op_type = std::string(f.bytes); break;
        case 7: if (!NeedBytes(f, "NodeProto.domain")) return false; n->domain = std::string(f.bytes); break;
        case 5: {
          if (!NeedBytes(f, "NodeProto.attribute")) return false;
          n->attributes.emplace_back();
          if (!Attribute(f.bytes, &n->attributes.back())) return false;
          break;
        }
        default: break;
      }
    }
    return !r.failed() || Bad("truncated node");
  }

  bool ValueInfo(std::string_view bytes, OnnxValueInfo* v) {
    ProtoReader r(bytes);
    ProtoField f;
    while (r.Next(&f)) {
      if (f.number == 1) {
        if (!NeedBytes(f, "ValueInfoProto.name")) return false;
        v->name = std::string(f.bytes);
      } else if (f.number == 2) {
        if (!NeedBytes(f, "ValueInfoProto.type")) return false;
        ProtoReader type(f.bytes);
        ProtoField tf;
        while (type.Next(&tf)) {
          if (tf.number != 1) continue;  // tensor_type; sequences and maps are not tensors
          if (!NeedBytes(tf, "TypeProto.tensor_type")) return false;
          v->is_tensor = true;
          ProtoReader tensor(tf.bytes);
          ProtoField xf;
          while (tensor.Next(&xf)) {
            if (xf.number == 1) {
              if (!NeedVarint(xf, "TypeProto.Tensor.elem_type")) return false;
              v->elem_type = static_cast<int32_t>(xf.varint);
            } else if (xf.number == 2) {
              if (!NeedBytes(xf, "TypeProto.Tensor.shape")) return false;
              ProtoReader shape(xf.bytes);
              ProtoField df;
              while (shape.Next(&df)) {
                if (df.number != 1) continue;
                if (!NeedBytes(df, "TensorShapeProto.dim") || !Count(1)) return false;
                int64_t dim = -1;
                ProtoReader d(df.bytes);
                ProtoField vf;
                while (d.Next(&vf)) {
                  if (vf.number == 1 && vf.type == WireType::kVarint) dim = static_cast<int64_t>(vf.varint);
                }
                if (d.failed()) return Bad("truncated dimension");
                v->dims.push_back(dim);
              }
              if (shape.failed()) return Bad("truncated shape");
            }
          }
          if (tensor.failed()) return Bad("truncated tensor type");
        }
        if (type.failed()) return Bad("truncated type");
      }
    }
    return !r.failed() || Bad("truncated value info");
  }

  bool Graph(std::string_view bytes, OnnxModel* m) {
    ProtoReader r(bytes);
    ProtoField f;
    while (r.Next(&f)) {
      switch (f.number) {
        case 1: {
          if (!NeedBytes(f, "GraphProto.node")) return false;
          m->nodes.emplace_back();
          if (!Node(f.bytes, &m->nodes.back())) return false;
          break;
        }
        case 5: {
          if (!NeedBytes(f, "GraphProto.initializer")) return false;
          ProtoReader t(f.bytes);
          ProtoField tf;
          std::string name;
          while (t.Next(&tf)) {
            if (tf.number == 8 && tf.type == WireType::kLengthDelimited) name = std::string(tf.bytes);
          }
          if (t.failed()) return Bad("truncated initializer");
          m->initializers.push_back(name);
          break;
        }
        case 11: case 12: {
          if (!NeedBytes(f, "GraphProto.input/output")) return false;
          auto& list = f.number == 11 ? m->inputs : m->outputs;
          list.emplace_back();
          if (!ValueInfo(f.bytes, &list.back())) return false;
          break;
        }
        default: break;
      }
    }
    return !r.failed() || Bad("truncated graph");
  }
};

}  // namespace

const OnnxAttribute* OnnxNode::Find(const std::string& attribute) const {
  for (const OnnxAttribute& a : attributes) {
    if (a.name == attribute) return &a;
  }
  return nullptr;
}

namespace {
// `s` for a message: printable ASCII kept, anything else '?', at most 60 bytes.
std::string Printable(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (out.size() == 60) return out + "...";
    out += c >= 0x20 && c < 0x7f ? c : '?';
  }
  return out;
}
}  // namespace

std::string OnnxNode::Describe() const {
  return "node '" + Printable(name) + "' (" + Printable(domain.empty() ? op_type : domain + "." + op_type) + ")";
}

int64_t OnnxModel::OpsetOf(const std::string& domain) const {
  for (const auto& [d, v] : opsets) {
    if (d == domain || (domain.empty() && d == "ai.onnx") || (domain == "ai.onnx" && d.empty())) return v;
  }
  return 0;
}

Result<OnnxModel> ParseOnnxModel(const uint8_t* data, size_t size) {
  Decoder dec;
  OnnxModel model;
  if (data == nullptr || size == 0) {
    return Status::Error(StatusCode::kCorruptModel, "not a valid ONNX file: it is empty");
  }
  ProtoReader r(data, size);
  ProtoField f;
  bool has_graph = false;
  while (r.Next(&f)) {
    bool ok = true;
    switch (f.number) {
      case 1: ok = dec.NeedVarint(f, "ModelProto.ir_version"); model.ir_version = static_cast<int64_t>(f.varint); break;
      case 2: ok = dec.NeedBytes(f, "ModelProto.producer_name"); model.producer_name = std::string(f.bytes); break;
      case 3: ok = dec.NeedBytes(f, "ModelProto.producer_version"); model.producer_version = std::string(f.bytes); break;
      case 7: ok = dec.NeedBytes(f, "ModelProto.graph") && dec.Graph(f.bytes, &model); has_graph = true; break;
      case 8: {
        ok = dec.NeedBytes(f, "ModelProto.opset_import");
        if (!ok) break;
        ProtoReader o(f.bytes);
        ProtoField of;
        std::string domain;
        int64_t version = 0;
        while (o.Next(&of)) {
          if (of.number == 1 && of.type == WireType::kLengthDelimited) domain = std::string(of.bytes);
          if (of.number == 2 && of.type == WireType::kVarint) version = static_cast<int64_t>(of.varint);
        }
        ok = !o.failed() || dec.Bad("truncated opset import");
        model.opsets.emplace_back(domain, version);
        break;
      }
      default: break;
    }
    if (!ok) return dec.status;
  }
  if (r.failed()) {
    dec.Bad("the protocol-buffers encoding is truncated or malformed");
    return dec.status;
  }
  if (!has_graph) {
    return Status::Error(StatusCode::kCorruptModel, "not a valid ONNX file: it has no graph");
  }
  if (!dec.status.ok()) return dec.status;
  return model;
}

}  // namespace internal
}  // namespace urnforest
