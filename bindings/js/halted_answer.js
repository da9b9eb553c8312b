// The halted answer: calling the plain C entry point urnforest_predict_halted and reading its
// packed answer. The layout is defined once, in bindings/wasm/predict_abi.h; it is asked from each
// module instance once (_haltedAnswerLayout) and every offset here is computed from it.
import { UrnforestError, callChecked } from './errors.js';
import { namesOf } from './options.js';

// The element type the reader expects of each section (checked against the layout once).
const SECTION_TYPES = {
  confidence: 'f64', tallies: 'i32', classIndex: 'i32', treesUsed: 'i32', fullClassIndex: 'i32', fullVotes: 'u32', haltedEarly: 'u8',
};

// A halted prediction's fields, plus `probabilities`, computed on first read by a getter of the
// prototype: a result whose probabilities are never read costs nothing more (an own getter, or
// computing them at once, cost a single-row predict 2-6 µs more).
class HaltedResult {
  #probabilitiesOf;
  #probabilities = null;

  // The fields are assigned one by one, in the order callers see them (Object.assign of an object
  // literal cost about a microsecond per call more).
  constructor(labels, classIndex, treesUsed, confidence, tallies, haltedEarly, fullClassIndex, fullVotes,
    disagreement, meanTrees, h, classNames, probabilitiesOf) {
    this.labels = labels;
    this.classIndex = classIndex;
    this.treesUsed = treesUsed;
    this.confidence = confidence;
    this.tallies = tallies;
    this.haltedEarly = haltedEarly;
    this.fullClassIndex = fullClassIndex;
    this.fullVotes = fullVotes;
    this.disagreement = disagreement;
    this.meanTrees = meanTrees;
    this.trees = h.trees;
    this.classNames = classNames;
    this.rule = h.rule;
    this.alpha = h.alpha;
    this.#probabilitiesOf = probabilitiesOf;
  }

  /** Per row the posterior mean of the final vote shares given `tallies` (docs/halting.md). */
  get probabilities() {
    if (this.#probabilities === null) this.#probabilities = this.#probabilitiesOf(this.tallies);
    return this.#probabilities;
  }
}

let layoutModule = null;
let layout = null;

// The layout of module instance `m` (its _haltedAnswerLayout: {headerBytes, header: {numRows,
// numClasses, hasFull, sizeBytes, meanTrees, disagreement} (byte offsets), sections: [{name, type, elementBytes, perClass,
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
 * The packed answer of a halted prediction in any query order, through the plain C entry point (no
 * embind on this path, which small batches call often): one copy out of wasm (a Uint8Array with a
 * buffer of its own), the wasm block freed whatever happens. Addresses are those of the forest,
 * dataset and table handles; `h` validated halting options (h.orderIndex: generation or random).
 */
export function haltedAnswer(m, forestAddress, dataAddress, tableAddress, h, compare) {
  const address = callChecked(() => m._urnforest_predict_halted(forestAddress, dataAddress, tableAddress,
    h.orderIndex, h.seedHi, h.seedLo, compare ? 1 : 0, 0, 0));
  if (address === 0) callChecked(() => m._takeLastError());
  try {
    return copyAnswer(m, address);
  } finally {
    m._free(address);
  }
}

/**
 * haltedAnswer for the fixed query order of tree ids `ids` (an Int32Array of the table's T ids,
 * copied into a malloc'd block for the call); the answer always holds the full vote of those trees.
 */
export function haltedAnswerFixed(m, forestAddress, dataAddress, tableAddress, h, ids) {
  const fixed = m._malloc(Math.max(4 * ids.length, 4));
  if (fixed === 0) throw new UrnforestError('OutOfMemory', 'OutOfMemory: the fixed query order does not fit in wasm memory');
  let address;
  try {
    m.HEAPU32.set(ids, fixed >>> 2); // tree ids are non-negative
    address = callChecked(() => m._urnforest_predict_halted(forestAddress, dataAddress, tableAddress,
      namesOf('queryOrders').indexOf('fixed'), h.seedHi, h.seedLo, 1, fixed, ids.length));
  } finally {
    m._free(fixed);
  }
  return takeAnswer(m, address);
}

// The packed answer at wasm `address` (0: the call failed, its error is thrown) copied out, the
// block freed.
function takeAnswer(m, address) {
  if (address === 0) callChecked(() => m._takeLastError());
  try {
    return copyAnswer(m, address);
  } finally {
    m._free(address);
  }
}

// The core's meanTrees and disagreement of the answer copyAnswer copied last (read in place from
// the header, so that no typed array is made for them).
const figures = new Float64Array(2);

// The typed array each section of an answer may be written into, by name.
const OUT_TYPES = { classIndex: Int32Array, treesUsed: Int32Array, confidence: Float64Array, haltedEarly: Uint8Array };
const OUT_NAMES = Object.keys(OUT_TYPES);
// Where each section is read from: the heap view and its element size as a shift (class indices and
// trees used are non-negative, so the unsigned view reads them).
const OUT_SECTIONS = [['classIndex', 'HEAPU32', 2], ['treesUsed', 'HEAPU32', 2], ['confidence', 'HEAPF64', 3],
  ['haltedEarly', 'HEAPU8', 0]];

/**
 * `destination` ({out: {classIndex?, treesUsed?, confidence?, haltedEarly?}}) checked for an answer of
 * n rows: each array of its type (Int32Array, Int32Array, Float64Array, Uint8Array), at least n long,
 * not a view of wasm memory (which moves when it grows). Returns {classIndex, treesUsed, confidence,
 * haltedEarly}: each the caller's array trimmed to n rows (a subarray view: no copy), or undefined.
 * TypeError / RangeError naming the array.
 */
export function outArrays(destination, n, m) {
  if (destination === null || typeof destination !== 'object' || Object.getPrototypeOf(destination) !== Object.prototype) {
    throw new TypeError(`predict: the third argument must be {out: {classIndex?, treesUsed?, confidence?, haltedEarly?}}, got ${typeof destination}`);
  }
  for (const key of Object.keys(destination)) if (key !== 'out') throw new TypeError(`predict: unknown destination option '${key}' (expected out)`);
  const out = destination.out;
  if (out === null || typeof out !== 'object' || Object.getPrototypeOf(out) !== Object.prototype) {
    throw new TypeError('predict: out must be a plain object of typed arrays {classIndex?, treesUsed?, confidence?, haltedEarly?}');
  }
  for (const key of Object.keys(out)) {
    if (OUT_TYPES[key] === undefined) throw new TypeError(`predict: unknown out array '${key}' (expected ${OUT_NAMES.join(', ')})`);
  }
  const views = { classIndex: undefined, treesUsed: undefined, confidence: undefined, haltedEarly: undefined };
  for (const key of OUT_NAMES) {
    const array = out[key];
    if (array === undefined) continue;
    const Type = OUT_TYPES[key];
    if (!(array instanceof Type)) throw new TypeError(`predict: out.${key} must be a ${Type.name}`);
    if (array.length < n) throw new RangeError(`predict: out.${key} has ${array.length} elements, the data set ${n} rows`);
    if (array.buffer === m.HEAPU8.buffer) throw new TypeError(`predict: out.${key} must not be a view of wasm memory`);
    views[key] = array.length === n ? array : array.subarray(0, n);
  }
  return views;
}

/**
 * haltedAnswer (without the full vote) written into `out` (outArrays' views): each section is copied
 * from wasm memory straight into the caller's array, and the wasm block freed. Returns meanTrees.
 */
export function haltedAnswerInto(m, forestAddress, dataAddress, tableAddress, h, out) {
  const address = callChecked(() => m._urnforest_predict_halted(forestAddress, dataAddress, tableAddress,
    h.orderIndex, h.seedHi, h.seedLo, 0, 0, 0));
  if (address === 0) callChecked(() => m._takeLastError());
  try {
    const { header, halted } = layoutOf(m);
    const n = m.HEAPU32[(address + header.numRows) >>> 2];
    const k = m.HEAPU32[(address + header.numClasses) >>> 2];
    for (const [key, heap, shift] of OUT_SECTIONS) {
      const array = out[key];
      if (array === undefined) continue;
      const at = (address + offset(halted[key], n, k)) >>> shift;
      array.set(m[heap].subarray(at, at + n));
    }
    return m.HEAPF64[(address + header.meanTrees) >>> 3];
  } finally {
    m._free(address);
  }
}

// A copy of the packed answer at wasm `address`, with its two figures kept in `figures`.
function copyAnswer(m, address) {
  const { header } = layoutOf(m);
  figures[0] = m.HEAPF64[(address + header.meanTrees) >>> 3];
  figures[1] = m.HEAPF64[(address + header.disagreement) >>> 3];
  return m.HEAPU8.slice(address, address + m.HEAPU32[(address + header.sizeBytes) >>> 2]);
}

/**
 * predict()'s result from packed answer `answer` (a Uint8Array of its own buffer) of module
 * instance `m` (the answer haltedAnswer or haltedAnswerFixed returned last), for class names
 * `names` and validated halting options `h`: the halted arrays are views of that one buffer;
 * meanTrees and disagreement are the core's, as that call read them. `probabilitiesOf(tallies)`
 * gives the result's `probabilities` on first read (HaltedResult).
 */
export function readHaltedAnswer(m, answer, names, h, probabilitiesOf) {
  const { header, full, halted } = layoutOf(m);
  const n = u32At(answer, header.numRows);
  const k = names.length;
  const hasFull = answer[header.hasFull] !== 0;
  const sections = hasFull ? full : halted;
  const buffer = answer.buffer;
  const classIndex = new Int32Array(buffer, offset(sections.classIndex, n, k), n);
  const tallies = new Int32Array(buffer, offset(sections.tallies, n, k), n * k);
  const labels = new Array(n);
  for (let i = 0; i < n; i++) labels[i] = names[classIndex[i]];
  return new HaltedResult(
    labels,
    classIndex,
    new Int32Array(buffer, offset(sections.treesUsed, n, k), n),
    new Float64Array(buffer, offset(sections.confidence, n, k), n),
    tallies,
    new Uint8Array(buffer, offset(sections.haltedEarly, n, k), n),
    // The full vote's arrays get buffers of their own, as before the answer was packed: callers
    // transfer, e.g., [treesUsed.buffer, fullClassIndex.buffer] to another thread in one message.
    hasFull ? new Int32Array(buffer, offset(full.fullClassIndex, n, k), n).slice() : undefined,
    hasFull ? new Uint32Array(buffer, offset(full.fullVotes, n, k), n * k).slice() : undefined,
    hasFull ? figures[1] : undefined,
    figures[0],
    h,
    names.slice(),
    probabilitiesOf);
}

function u32At(bytes, offset) {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}
