// Prediction requests: predict()'s options type-checked into a spec, parsed and checked by the core
// (_PredictRequestHandle: PlanPredict) and kept per forest, so that the README's call, repeated,
// crosses into wasm once per prediction. The core decides every value and every refusal.
import { callTranslated, errorFromObject } from './errors.js';
import { currentModule } from './module.js';
import { describe, isPlainObject, rejectUnknown, seedHalves, treeIds } from './validate.js';

const PREDICT_OPTIONS = ['rule', 'alpha', 'delta', 'objective', 'order', 'seed', 'trees', 'compare', 'vote', 'fixedOrder', 'firstRow'];
const NO_EXTRA = Object.freeze({});

function typeChecked(value, type, name) {
  if (value !== undefined && typeof value !== type) throw new TypeError(`option '${name}' must be a ${type}, got ${describe(value)}`);
  return value;
}

// predict()'s firstRow: the index of the call's first row in a larger batch (a non-negative safe integer).
function firstRowOption(value) {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new TypeError(`firstRow must be an integer, got ${describe(value)}`);
  if (value < 0 || value > Number.MAX_SAFE_INTEGER) throw new RangeError(`firstRow must be in [0, 2^53 - 1], got ${value}`);
  return value;
}

/**
 * The spec of predict()'s `options` (HaltingOptions plus delta, objective, compare, vote, fixedOrder, firstRow) after
 * type
 * checks; `numTrees` bounds fixedOrder's ids. Values are checked by the core.
 */
export function predictSpec(options, numTrees) {
  if (!isPlainObject(options)) throw new TypeError(`predict: options must be an object with a 'rule', got ${describe(options)}`);
  rejectUnknown(options, PREDICT_OPTIONS, 'predict');
  // Halting asked for without a rule (an alpha or a delta alone) gets rule 'auto': the core decides.
  if (options.rule === undefined && options.alpha === undefined && options.delta === undefined) {
    throw new TypeError("predict: option 'rule' (or 'alpha' for the certified rule 'auto') is required");
  }
  const spec = { rule: options.rule === undefined ? '' : typeChecked(options.rule, 'string', 'rule') };
  if (options.alpha !== undefined) spec.alpha = typeChecked(options.alpha, 'number', 'alpha');
  if (options.delta !== undefined) spec.delta = typeChecked(options.delta, 'number', 'delta');
  if (options.objective !== undefined) spec.objective = typeChecked(options.objective, 'string', 'objective');
  if (options.order !== undefined) spec.order = typeChecked(options.order, 'string', 'order');
  if (options.seed !== undefined) [spec.seedHi, spec.seedLo] = seedHalves(options.seed);
  if (options.trees !== undefined) {
    if (!Number.isInteger(options.trees)) throw new TypeError(`trees must be an integer, got ${describe(options.trees)}`);
    spec.trees = options.trees;
  }
  if (options.compare !== undefined) spec.compare = typeChecked(options.compare, 'boolean', 'compare');
  if (options.vote !== undefined) spec.vote = typeChecked(options.vote, 'string', 'vote');
  if (options.fixedOrder !== undefined) spec.fixedOrder = treeIds(options.fixedOrder, 'fixedOrder', numTrees);
  if (options.firstRow !== undefined) spec.firstRow = firstRowOption(options.firstRow);
  return spec;
}

/**
 * Rule 'auto''s certificate of the prediction `request` just answered (the core's, cached with the
 * strategy it chose): {strategy, parameter, certified, bound, alpha, delta, fitRows, certifyRows,
 * reason, method, rowsNeeded}.
 */
export function certificateOf(request) {
  const certificate = callTranslated(() => request.handle._certificate());
  if (certificate !== null && certificate.code !== undefined) throw errorFromObject(certificate);
  return certificate;
}

/** The spec of predictProba()'s options ({vote}). */
export function probaSpec(vote) {
  const spec = { probabilities: true };
  if (vote !== undefined) spec.vote = typeChecked(vote, 'string', 'vote');
  return spec;
}

/**
 * A new request handle for `spec` on the forest of embind `forestHandle`: {handle, address, info, spec}
 * (info: the core's plan, {path, vote, rule, alpha, trees, compare, inPlace, table}). A refusal
 * throws RangeError (a value out of range), TypeError (an option that does not apply) or
 * UrnforestError (a request this model cannot serve), with the core's message.
 */
export function newRequest(forestHandle, spec, what) {
  const m = currentModule();
  const handle = callTranslated(() => new m._PredictRequestHandle());
  let info;
  try {
    info = callTranslated(() => handle._parse(forestHandle, spec));
  } catch (e) {
    handle.delete();
    throw e;
  }
  if (info !== null && typeof info === 'object' && info.code !== undefined) {
    handle.delete();
    if (info.fault === 'range') throw new RangeError(`${what}: ${info.message}`);
    if (info.fault === 'misplaced') throw new TypeError(`${what}: ${info.message}`);
    throw errorFromObject(info);
  }
  if (info.table !== null) info.table.extra = NO_EXTRA; // TableCache's halting options
  // owned: the caller frees it after its one call (RequestCache.request); probabilitiesOf: the
  // result's probabilities getter, made once per request by its forest (forest.js).
  return { handle, address: handle._address(), info, spec, owned: false, probabilitiesOf: null };
}

// The options a kept request is keyed by, in the order of the key's levels (fixedOrder, an array,
// is never kept).
const KEY_OPTIONS = ['rule', 'alpha', 'delta', 'objective', 'order', 'seed', 'trees', 'compare', 'vote'];
const KEYED = new Set(KEY_OPTIONS);
const LEAF = Symbol('request');
// At most this many requests are kept per forest: a caller sweeping alpha or seeds must not grow
// the cache without bound (beyond it, requests are parsed per call).
const KEPT_REQUESTS = 64;

/**
 * A forest's parsed requests: those of options made of the keyed options only are kept, keyed by
 * their values (Map keys: 0.9 and '0.9' differ), so that a repeated call, with the same object or
 * a new literal, parses nothing; others are parsed for one call. Freed with the forest.
 */
export class RequestCache {
  #byOptions = new Map(); // a trie over KEY_OPTIONS' values; a leaf holds the request under LEAF
  #kept = 0;
  #bySpec = new Map(); // the option-less calls' requests: key -> request
  // The last kept request found, with its options object and their keyed values then: a call with
  // the same object, unchanged, skips the walk down the trie.
  #last = null;
  #lastOptions = null;
  #lastValues = new Array(KEY_OPTIONS.length);

  /** The kept request of an option-less call (predict(d), predictProba(d, {vote})) named `key`. */
  fixed(forestHandle, key, spec, what) {
    let request = this.#bySpec.get(key);
    if (request === undefined) this.#bySpec.set(key, request = newRequest(forestHandle, spec, what));
    return request;
  }

  /**
   * The request for `options` (predict's) on `forestHandle`; when its `owned` is true, the caller
   * frees it (request.handle.delete()) after the call.
   */
  request(forestHandle, options, numTrees) {
    if (!isPlainObject(options) || !keyedOnly(options)) return ownedRequest(forestHandle, options, numTrees);
    if (options === this.#lastOptions && this.#sameAsLast(options)) return this.#last;
    let node = this.#byOptions;
    for (const key of KEY_OPTIONS) {
      let next = node.get(options[key]);
      if (next === undefined) node.set(options[key], next = new Map());
      node = next;
    }
    let request = node.get(LEAF);
    if (request === undefined) {
      if (this.#kept >= KEPT_REQUESTS) return ownedRequest(forestHandle, options, numTrees);
      request = newRequest(forestHandle, predictSpec(options, numTrees), 'predict');
      node.set(LEAF, request);
      this.#kept++;
    }
    this.#last = request;
    this.#lastOptions = options;
    for (let i = 0; i < KEY_OPTIONS.length; i++) this.#lastValues[i] = options[KEY_OPTIONS[i]];
    return request;
  }

  // True when `options` holds the keyed values it held at the last lookup (Map's key equality).
  #sameAsLast(options) {
    for (let i = 0; i < KEY_OPTIONS.length; i++) {
      const value = options[KEY_OPTIONS[i]];
      const last = this.#lastValues[i];
      if (value !== last && !(value !== value && last !== last)) return false;
    }
    return true;
  }

  /** True when no request is held (for the leak net). */
  isDeleted() { return this.#kept === 0 && this.#bySpec.size === 0; }

  /** Frees every request (the model changed, or the forest is disposed). */
  delete() {
    const free = (node) => node.forEach((v, k) => (k === LEAF ? v.handle.delete() : free(v)));
    free(this.#byOptions);
    for (const r of this.#bySpec.values()) r.handle.delete();
    this.forget();
  }

  /** Forgets every request without freeing it (its module instance aborted). */
  forget() {
    this.#byOptions = new Map();
    this.#kept = 0;
    this.#last = null;
    this.#lastOptions = null;
    this.#bySpec.clear();
  }
}

// A request for one call, freed by the caller (owned).
function ownedRequest(forestHandle, options, numTrees) {
  const request = newRequest(forestHandle, predictSpec(options, numTrees), 'predict');
  request.owned = true;
  return request;
}

// True when every key of `options` (own enumerable, as rejectUnknown reads them) is a keyed option.
function keyedOnly(options) {
  for (const key in options) if (!KEYED.has(key)) return false;
  return true;
}

/** Throws unless `request` may write into caller-owned arrays (a table rule, no full vote). */
export function requireInPlace(request) {
  const { info } = request;
  if (info.path !== 'table') {
    throw new TypeError(info.path === 'margin'
      ? "predict: caller-owned arrays work with table rules in generation or random order, not rule 'margin'"
      : "predict: caller-owned arrays work with the trees' votes; pass vote: 'hard' or leave out {out}");
  }
  if (!info.inPlace) {
    throw new TypeError('predict: caller-owned arrays ({out}) hold the halted answer only; compare: true and order \'fixed\' compute the full vote');
  }
}
