// The halted answer: calling the plain C entry point urnforest_predict_halted and reading its
// packed answer. The layout is defined once, in bindings/wasm/predict_abi.h; it is asked from each
// module instance once (_haltedAnswerLayout) and every offset here is computed from it.
import { callChecked } from './errors.js';

// The element type the reader expects of each section (checked against the layout once).
const SECTION_TYPES = {
  confidence: 'f64', classIndex: 'i32', treesUsed: 'i32', fullClassIndex: 'i32', fullVotes: 'u32', haltedEarly: 'u8',
};

let layoutModule = null;
let layout = null;

// The layout of module instance `m` (its _haltedAnswerLayout: {headerBytes, header: {numRows,
// numClasses, hasFull, sizeBytes} (byte offsets), sections: [{name, type, elementBytes, perClass,
// fullOnly}]}), compiled once into {header, full, halted}: for answers with and without the full
// vote, each section's [c, r, rk], its byte offset being c + r * n + rk * n * k.
function layoutOf(m) {
  if (layoutModule !== m) {
    const raw = m._haltedAnswerLayout();
    const compile = (hasFull) => {
      const out = {};
      const at = [raw.headerBytes, 0, 0];
      for (const s of raw.sections) {
        if (s.fullOnly && !hasFull) continue;
        if (SECTION_TYPES[s.name] !== s.type) throw new Error(`urnforest: unexpected halted answer section ${s.name}`);
        out[s.name] = at.slice();
        at[s.perClass ? 2 : 1] += s.elementBytes;
      }
      return out;
    };
    layout = { header: raw.header, full: compile(true), halted: compile(false) };
    layoutModule = m;
  }
  return layout;
}

// The byte offset of section `at` (of a compiled layout) for n rows and k classes.
function offset(at, n, k) {
  return at[0] + at[1] * n + at[2] * n * k;
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
  const { header, full, halted } = layoutOf(m);
  const n = u32At(answer, header.numRows);
  const k = names.length;
  const hasFull = answer[header.hasFull] !== 0;
  const sections = hasFull ? full : halted;
  const buffer = answer.buffer;
  const classIndex = new Int32Array(buffer, offset(sections.classIndex, n, k), n);
  const treesUsed = new Int32Array(buffer, offset(sections.treesUsed, n, k), n);
  // The full vote's arrays get buffers of their own, as before the answer was packed: callers
  // transfer, e.g., [treesUsed.buffer, fullClassIndex.buffer] to another thread in one message.
  const fullClassIndex = hasFull ? new Int32Array(buffer, offset(full.fullClassIndex, n, k), n).slice() : undefined;
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
    confidence: new Float64Array(buffer, offset(sections.confidence, n, k), n),
    haltedEarly: new Uint8Array(buffer, offset(sections.haltedEarly, n, k), n),
    fullClassIndex,
    fullVotes: hasFull ? new Uint32Array(buffer, offset(full.fullVotes, n, k), n * k).slice() : undefined,
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
