// The halted answer: calling the plain C entry point urnforest_predict_halted and reading its
// packed answer. The layout is defined once, in bindings/wasm/predict_abi.h; it is asked from each
// module instance once (_haltedAnswerLayout) and every offset here is computed from it.
import { callChecked } from './errors.js';

const ARRAY_TYPES = { f64: Float64Array, i32: Int32Array, u32: Uint32Array, u8: Uint8Array };

let layoutModule = null;
let layout = null;

// The layout of module instance `m`: {headerBytes, header: {numRows, numClasses, hasFull,
// sizeBytes} (byte offsets), sections: [{name, type, elementBytes, perClass, fullOnly}]}.
function layoutOf(m) {
  if (layoutModule !== m) {
    layout = m._haltedAnswerLayout();
    layoutModule = m;
  }
  return layout;
}

/**
 * The packed answer of a halted prediction in generation or random order, through the plain C
 * entry point (no embind on this path, which small batches call often): one copy out of wasm (a
 * Uint8Array with a buffer of its own), the wasm block freed whatever happens. Addresses are those
 * of the forest, dataset and table handles; `h` validated halting options.
 */
export function haltedAnswer(m, forestAddress, dataAddress, tableAddress, h, compare) {
  const address = callChecked(() => m._urnforest_predict_halted(forestAddress, dataAddress, tableAddress,
    h.orderCode, h.seedHi, h.seedLo, compare ? 1 : 0));
  if (address === 0) callChecked(() => m._takeLastError());
  try {
    const size = m.HEAPU32[(address + layoutOf(m).header.sizeBytes) >>> 2];
    return m.HEAPU8.slice(address, address + size);
  } finally {
    m._free(address);
  }
}

/**
 * predict()'s result from packed answer `answer` (a Uint8Array of its own buffer) of module
 * instance `m`, for class names `names` and validated halting options `h`: the halted arrays are
 * views of that one buffer.
 */
export function readHaltedAnswer(m, answer, names, h) {
  const { header, headerBytes, sections } = layoutOf(m);
  const n = u32At(answer, header.numRows);
  const k = names.length;
  const hasFull = answer[header.hasFull] !== 0;
  const buffer = answer.buffer;
  const arrays = {};
  let at = headerBytes;
  for (const s of sections) {
    if (s.fullOnly && !hasFull) continue;
    const length = s.perClass ? n * k : n;
    arrays[s.name] = new ARRAY_TYPES[s.type](buffer, at, length);
    at += s.elementBytes * length;
  }
  const { classIndex, treesUsed } = arrays;
  // The full vote's arrays get buffers of their own, as before the answer was packed: callers
  // transfer, e.g., [treesUsed.buffer, fullClassIndex.buffer] to another thread in one message.
  const fullClassIndex = hasFull ? arrays.fullClassIndex.slice() : undefined;
  const labels = new Array(n);
  let differ = 0;
  let used = 0;
  for (let i = 0; i < n; i++) {
    labels[i] = names[classIndex[i]];
    used += treesUsed[i];
  }
  if (hasFull) for (let i = 0; i < n; i++) if (classIndex[i] !== fullClassIndex[i]) differ++;
  return {
    labels,
    classIndex,
    treesUsed,
    confidence: arrays.confidence,
    haltedEarly: arrays.haltedEarly,
    fullClassIndex,
    fullVotes: hasFull ? arrays.fullVotes.slice() : undefined,
    disagreement: !hasFull ? undefined : n === 0 ? 0 : differ / n,
    meanTrees: n === 0 ? 0 : used / n,
    trees: h.trees,
    classNames: names.slice(),
    rule: h.rule,
    alpha: h.alpha,
  };
}

function u32At(bytes, offset) {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}
