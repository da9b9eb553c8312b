#pragma once
// The CLI's JSON writer is the core's (src/urnforest/json_writer.h, shared with the JS API).
#include "urnforest/json_writer.h"

namespace urnforest::cli {
using ::urnforest::JsonWriter;
}  // namespace urnforest::cli
