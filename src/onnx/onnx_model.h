#pragma once
// Internal: the parts of an ONNX ModelProto that the tree-ensemble importer reads (opsets, graph
// inputs and outputs, nodes with their attributes and tensors), decoded from the protocol-buffers
// wire format with bounds checks. Everything else in the file (initializers' data, doc strings,
// metadata, training info) is skipped.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "urnforest/status.h"

namespace urnforest {
namespace internal {

/// ONNX TensorProto.DataType values the importer reads.
enum OnnxDataType : int32_t {
  kOnnxFloat = 1,
  kOnnxUint8 = 2,
  kOnnxInt8 = 3,
  kOnnxInt32 = 6,
  kOnnxInt64 = 7,
  kOnnxString = 8,
  kOnnxDouble = 11,
};

/// A tensor attribute: numeric values widened to double (float, double, integer types) or strings.
struct OnnxTensor {
  std::vector<int64_t> dims;
  int32_t data_type = 0;
  std::vector<double> numbers;
  std::vector<std::string> strings;
};

/// One node attribute; which member holds the value follows `type` (ONNX AttributeType: 1 float,
/// 2 int, 3 string, 4 tensor, 6 floats, 7 ints, 8 strings; others are kept as type only).
struct OnnxAttribute {
  std::string name;
  int32_t type = 0;
  double f = 0;
  int64_t i = 0;
  std::string s;
  OnnxTensor t;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

/// One graph node.
struct OnnxNode {
  std::string name;
  std::string op_type;
  std::string domain;  ///< "" and "ai.onnx" are the default domain.
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::vector<OnnxAttribute> attributes;

  /// The attribute called `name`, or null.
  const OnnxAttribute* Find(const std::string& attribute) const;
  /// "node 'name' (op_type)" for error messages.
  std::string Describe() const;
};

/// A graph input or output: a tensor's element type and shape (-1 for a symbolic or absent
/// dimension); `is_tensor` false for sequences and maps (ZipMap's output).
struct OnnxValueInfo {
  std::string name;
  bool is_tensor = false;
  int32_t elem_type = 0;
  std::vector<int64_t> dims;
};

/// The decoded model.
struct OnnxModel {
  int64_t ir_version = 0;
  std::vector<std::pair<std::string, int64_t>> opsets;  ///< (domain, version)
  std::string producer_name;
  std::string producer_version;
  std::vector<OnnxNode> nodes;
  std::vector<OnnxValueInfo> inputs;
  std::vector<OnnxValueInfo> outputs;
  std::vector<std::string> initializers;  ///< names of the graph's constant tensors

  /// The imported version of `domain` ("" = default), or 0 when not imported.
  int64_t OpsetOf(const std::string& domain) const;
};

/// Decodes an ONNX file. kCorruptModel ("not a valid ONNX file: ...") on malformed protocol
/// buffers (truncated fields, bad lengths, wrong wire types for known fields, tensor data whose
/// size does not match its type) or a file without a graph; kLimitExceeded when the decoded
/// attributes would exceed 2^28 values. Never reads outside [data, data + size).
Result<OnnxModel> ParseOnnxModel(const uint8_t* data, size_t size);

}  // namespace internal
}  // namespace urnforest
