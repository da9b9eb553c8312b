// The JS table shapes (typed arrays, number[][], object rows) as the cells of a DatasetBuilder: a
// translation of the transport object bindings/js/table.js writes, with no rule of its own.
#pragma once

#include <emscripten/val.h>

#include "urnforest/dataset.h"
#include "urnforest/status.h"

namespace urnforest::wasm {

/// Builds a Dataset from `table`, a plain object (bindings/js/table.js `tableTransport`):
/// - `rows`, `cols`: numbers; `numbers`: Float32Array of rows * cols, row-major, NaN where the cell
///   is not a number; `codes`: Int32Array of rows * cols (an index into `texts` where the cell is a
///   string, else -1) or null; `texts`: string[]. A cell that is neither is missing.
/// - `featureNames`: string[cols] or null (DefaultFeatureName); `rules`: Int32Array[cols] of
///   ColumnRule values, or null (every column kInfer); `cellWhere`: 'rows' (messages name cells
///   rows[r].name) or 'x' (x[r][c]).
/// - `labels`: null (no labels), an Int32Array of class indices, or {codes: Int32Array (index into
///   names, -1 = missing), names: string[], numbers: Uint8Array (1 where the name is a JS number's
///   text)}; `labelWhere`: '' (messages name labels[r]) or the target key (rows[r].key).
/// - `classNames`: string[] or null; `classesFromModel`, `targetCategorical`: booleans;
///   `targetName`: string.
/// Errors: the builder's (every code of DatasetBuilder and Dataset::Create).
Result<Dataset> BuildFromColumns(const emscripten::val& table);

}  // namespace urnforest::wasm
