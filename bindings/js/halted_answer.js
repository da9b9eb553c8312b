// The packed answer: calling the one plain C entry point urnforest_predict and reading its answer,
// of any path (full, weighted, soft, table rule, exact exit, margin, lp, auto). The layout is defined once, in
// bindings/wasm/predict_abi.h; it is asked from each module instance once (_haltedAnswerLayout) and
// every offset here is computed from it. Every figure is the core's; this module only decodes.
import { callChecked } from './errors.js';

// The element type the reader expects of each section (checked against the layout once).
const SECTION_TYPES = {
  probabilities: 'f64', scores: 'f64', confidence: 'f64', tallies: 'i32', classIndex: 'i32', treesUsed: 'i32',
  fullClassIndex: 'i32', fullVotes: 'u32', votes: 'u32', haltedEarly: 'u8',
};

// A table rule's halted prediction, plus `probabilities`, computed on first read by a getter of the
// prototype: a result whose probabilities are never read costs nothing more (an own getter, or
// computing them at once, cost a single-row predict 2-6 µs more).
class HaltedResult {
  #probabilitiesOf;
  #probabilities = null;

  // The fields are assigned one by one, in the order callers see them (Object.assign of an object
  // literal cost about a microsecond per call more).
  constructor(labels, classIndex, treesUsed, confidence, tallies, haltedEarly, fullClassIndex, fullVotes,
    disagreement, meanTrees, info, classNames, probabilitiesOf) {
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
    this.trees = info.trees;
    this.classNames = classNames;
    this.rule = info.rule;
    this.alpha = info.alpha;
    this.#probabilitiesOf = probabilitiesOf;
  }

  /** Per row the posterior mean of the final vote shares given `tallies` (docs/halting.md). */
  get probabilities() {
    if (this.#probabilities === null) this.#probabilities = this.#probabilitiesOf(this.tallies);
    return this.#probabilities;
  }
}

// The exact early exit's or the margin rule's halted prediction (an imported model's soft vote),
// plus `probabilities`, asked from the core on first read (a getter of the prototype, as
// HaltedResult's): the model's own soft probabilities of the rows, which need every tree, so a
// result whose probabilities are never read keeps the early exit's saving.
class SoftHaltedResult {
  #probabilitiesOf;
  #probabilities = null;

  constructor(labels, classIndex, treesUsed, confidence, haltedEarly, fullClassIndex, fullVotes, disagreement,
    meanTrees, lambda, info, classNames, probabilities, probabilitiesOf) {
    this.labels = labels;
    this.classIndex = classIndex;
    this.treesUsed = treesUsed;
    this.confidence = confidence;
    this.haltedEarly = haltedEarly;
    this.fullClassIndex = fullClassIndex;
    this.fullVotes = fullVotes;
    this.disagreement = disagreement;
    this.meanTrees = meanTrees;
    if (lambda !== undefined) this.lambda = lambda;
    this.trees = info.trees;
    this.classNames = classNames;
    this.rule = info.rule;
    this.alpha = info.alpha;
    this.vote = info.vote;
    this.#probabilities = probabilities; // null: not in the answer (asked on first read)
    this.#probabilitiesOf = probabilitiesOf;
  }

  /**
   * Per row the model's own class probabilities (its soft prediction, n x k; docs/api.md): the
   * prediction the exact exit's label equals and the margin rule's confidence refers to.
   */
  get probabilities() {
    if (this.#probabilities === null) this.#probabilities = this.#probabilitiesOf();
    return this.#probabilities;
  }
}

let layoutModule = null;
let layout = null;

// The layout of module instance `m` (its _haltedAnswerLayout), compiled once into {header, paths,
// sections: [{name, bytes, perClass}]} and a cache of section offsets per `present` mask.
function layoutOf(m) {
  if (layoutModule !== m) {
    const raw = m._haltedAnswerLayout();
    for (const s of raw.sections) {
      if (SECTION_TYPES[s.name] !== s.type) throw new Error(`urnforest: unexpected answer section ${s.name}`);
    }
    layout = { raw, header: raw.header, paths: raw.paths, byMask: new Map() };
    layoutModule = m;
  }
  return layout;
}

// Section name -> [c, r, rk] for the sections of mask `present`, a section's byte offset being
// c + r * n + rk * n * k.
function sectionsOf(l, present) {
  let out = l.byMask.get(present);
  if (out !== undefined) return out;
  out = {};
  const at = [l.raw.headerBytes, 0, 0];
  l.raw.sections.forEach((s, i) => {
    if ((present & (1 << i)) === 0) return;
    out[s.name] = at.slice();
    at[s.perClass ? 2 : 1] += s.elementBytes;
  });
  l.byMask.set(present, out);
  return out;
}

function offset(at, n, k) {
  return at[0] + at[1] * n + at[2] * n * k;
}

// The core's figures of the answer copyAnswer copied last (read in place from the header, so that
// no typed array is made for them): meanTrees, disagreement, lambda.
const figures = new Float64Array(3);

/**
 * The packed answer of the core's Predict for request address `request` (predict_request.js) on the
 * forest and dataset at their handle addresses, with the halting table at `tableAddress` (0: none):
 * one copy out of wasm (a Uint8Array with a buffer of its own), the wasm block freed whatever happens.
 */
export function answerOf(m, forestAddress, dataAddress, request, tableAddress) {
  const address = callChecked(() => m._urnforest_predict(forestAddress, dataAddress, request, tableAddress));
  if (address === 0) callChecked(() => m._takeLastError());
  try {
    const { header } = layoutOf(m);
    figures[0] = m.HEAPF64[(address + header.meanTrees) >>> 3];
    figures[1] = m.HEAPF64[(address + header.disagreement) >>> 3];
    figures[2] = m.HEAPF64[(address + header.lambda) >>> 3];
    return m.HEAPU8.slice(address, address + m.HEAPU32[(address + header.sizeBytes) >>> 2]);
  } finally {
    m._free(address);
  }
}

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
 * not a view of wasm memory (which moves when it grows), and no two sharing a byte of their first n
 * rows. Returns {classIndex, treesUsed, confidence, haltedEarly}: each the caller's array trimmed to
 * n rows (a subarray view: no copy), or undefined. TypeError / RangeError naming the array(s).
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
  requireDisjoint(views);
  return views;
}

// TypeError naming two of the views that share a byte (the same buffer, overlapping ranges): the
// answer written into one would be overwritten by the other.
function requireDisjoint(views) {
  const given = OUT_NAMES.filter((key) => views[key] !== undefined && views[key].byteLength > 0);
  for (let i = 0; i < given.length; i++) {
    const a = views[given[i]];
    for (let j = i + 1; j < given.length; j++) {
      const b = views[given[j]];
      if (a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength) {
        throw new TypeError(`predict: out.${given[i]} and out.${given[j]} share memory; each answer needs an array of its own`);
      }
    }
  }
}

/**
 * The answer of an in-place request (answerOf's call, without the copy) written into `out`
 * (outArrays' views): each section is copied from wasm memory straight into the caller's array, and
 * the wasm block freed. Returns meanTrees.
 */
export function answerInto(m, forestAddress, dataAddress, request, tableAddress, out) {
  const address = callChecked(() => m._urnforest_predict(forestAddress, dataAddress, request, tableAddress));
  if (address === 0) callChecked(() => m._takeLastError());
  try {
    const l = layoutOf(m);
    const { header } = l;
    const n = m.HEAPU32[(address + header.numRows) >>> 2];
    const k = m.HEAPU32[(address + header.numClasses) >>> 2];
    const sections = sectionsOf(l, m.HEAPU32[(address + header.present) >>> 2]);
    for (const [key, heap, shift] of OUT_SECTIONS) {
      const array = out[key];
      if (array === undefined) continue;
      const at = (address + offset(sections[key], n, k)) >>> shift;
      array.set(m[heap].subarray(at, at + n));
    }
    return m.HEAPF64[(address + header.meanTrees) >>> 3];
  } finally {
    m._free(address);
  }
}

/**
 * predict()'s or predictProba()'s result from packed answer `answer` (a Uint8Array of its own buffer)
 * of module instance `m` (the answer answerOf returned last), for class names `names` and the
 * request's `info` (predict_request.js): views of that one buffer for the answer's arrays, copies
 * with buffers of their own for the full vote's. `probabilitiesOf(tallies)` gives a table rule's
 * `probabilities` on first read (HaltedResult), `probabilitiesOf()` a soft rule's (SoftHaltedResult).
 */
export function readAnswer(m, answer, names, info, probabilitiesOf) {
  const l = layoutOf(m);
  const n = u32At(answer, l.header.numRows);
  const k = names.length;
  const s = sectionsOf(l, u32At(answer, l.header.present));
  const path = l.paths[u32At(answer, l.header.path)];
  const buffer = answer.buffer;
  const classIndex = new Int32Array(buffer, offset(s.classIndex, n, k), n);
  const labels = new Array(n);
  for (let i = 0; i < n; i++) labels[i] = names[classIndex[i]];
  if (path === 'full' || path === 'weighted' || path === 'soft') {
    const out = { labels, classIndex, votes: view(buffer, s.votes, n, k, Uint32Array, n * k) ?? new Uint32Array(0), classNames: names.slice() };
    if (path === 'weighted') out.scores = view(buffer, s.scores, n, k, Float64Array, n * k);
    const probabilities = view(buffer, s.probabilities, n, k, Float64Array, n * k);
    if (probabilities !== undefined) out.probabilities = probabilities;
    return out;
  }
  // The full vote's arrays get buffers of their own, as before the answer was packed: callers
  // transfer, e.g., [treesUsed.buffer, fullClassIndex.buffer] to another thread in one message.
  const fullClassIndex = info.compare ? view(buffer, s.fullClassIndex, n, k, Int32Array, n).slice() : undefined;
  const fullVotes = info.compare ? (view(buffer, s.fullVotes, n, k, Uint32Array, n * k)?.slice() ?? new Uint32Array(0)) : undefined;
  const disagreement = info.compare ? figures[1] : undefined;
  const treesUsed = new Int32Array(buffer, offset(s.treesUsed, n, k), n);
  const confidence = new Float64Array(buffer, offset(s.confidence, n, k), n);
  const haltedEarly = new Uint8Array(buffer, offset(s.haltedEarly, n, k), n);
  if (path === 'lp' || path === 'auto' || path === 'stratified') {
    // Rules 'lp', 'stratified' and 'auto': the halted answer without probabilities (no prior backs their stops).
    const out = { labels, classIndex, treesUsed, confidence, haltedEarly, fullClassIndex, fullVotes, disagreement };
    const tallies = view(buffer, s.tallies, n, k, Int32Array, n * k);
    if (tallies !== undefined) out.tallies = tallies;
    Object.assign(out, { meanTrees: figures[0], trees: info.trees, classNames: names.slice(), rule: info.rule, alpha: info.alpha });
    return out;
  }
  if (path === 'table') {
    return new HaltedResult(labels, classIndex, treesUsed, confidence, new Int32Array(buffer, offset(s.tallies, n, k), n * k),
      haltedEarly, fullClassIndex, fullVotes, disagreement, figures[0], info, names.slice(), probabilitiesOf);
  }
  return new SoftHaltedResult(labels, classIndex, treesUsed, confidence, haltedEarly, fullClassIndex, fullVotes,
    disagreement, figures[0], path === 'margin' ? figures[2] : undefined, info, names.slice(),
    view(buffer, s.probabilities, n, k, Float64Array, n * k) ?? null, probabilitiesOf);
}

// A view of the section at `at` (sectionsOf's [c, r, rk], or undefined when absent: undefined) of
// `length` elements of `Type` in an answer of n rows and k classes.
function view(buffer, at, n, k, Type, length) {
  return at === undefined ? undefined : new Type(buffer, offset(at, n, k), length);
}

function u32At(bytes, offset) {
  return (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0;
}
