#pragma once
// UTF-8 text from outside (CSV cells, ONNX strings, model bytes, JSON output): where it stops
// being valid, and how to quote it in an error message.
#include <cstddef>
#include <string>
#include <string_view>

namespace urnforest {
namespace internal {

/// Offset of the first byte of `s` that breaks UTF-8 (overlong forms, surrogates and code points
/// above U+10FFFF are invalid), or s.size() when all of `s` is valid.
size_t FirstInvalidUtf8(std::string_view s);

/// `s` in single quotes for an error message, cut after about 40 bytes at a UTF-8 boundary.
std::string QuoteForMessage(std::string_view s);

}  // namespace internal
}  // namespace urnforest
