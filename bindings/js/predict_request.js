// Prediction requests: predict()'s options type-checked into a spec, parsed and checked by the core
// (_PredictRequestHandle: PlanPredict) and kept per forest, so that the README's call, repeated,
// crosses into wasm once per prediction. The core decides every value and every refusal.
import { callTranslated, errorFromObject } from './errors.js';
import { currentModule } from './module.js';
import { describe, isPlainObject, rejectUnknown, seedHalves, treeIds } from './validate.js';

const PREDICT_OPTIONS = ['rule', 'alpha', 'order', 'seed', 'trees', 'compare', 'vote', 'fixedOrder'];
// At most this many alphas are kept per rule: a caller sweeping alpha must not grow the cache
// without bound (other option shapes are parsed per call).
const REQUESTS_PER_RULE = 16;
const NO_EXTRA = Object.freeze({});

function typeChecked(value, type, name) {
  if (value !== undefined && typeof value !== type) throw new TypeError(`option '${name}' must be a ${type}, got ${describe(value)}`);
  return value;
}

/**
 * The spec of predict()'s `options` (HaltingOptions plus compare, vote, fixedOrder) after type
 * checks; `numTrees` bounds fixedOrder's ids. Values are checked by the core.
 */
export function predictSpec(options, numTrees) {
  if (!isPlainObject(options)) throw new TypeError(`predict: options must be an object with a 'rule', got ${describe(options)}`);
  rejectUnknown(options, PREDICT_OPTIONS, 'predict');
  if (options.rule === undefined) throw new TypeError("predict: option 'rule' is required");
  const spec = { rule: typeChecked(options.rule, 'string', 'rule') };
  if (options.alpha !== undefined) spec.alpha = typeChecked(options.alpha, 'number', 'alpha');
  if (options.order !== undefined) spec.order = typeChecked(options.order, 'string', 'order');
  if (options.seed !== undefined) [spec.seedHi, spec.seedLo] = seedHalves(options.seed);
  if (options.trees !== undefined) {
    if (!Number.isInteger(options.trees)) throw new TypeError(`trees must be an integer, got ${describe(options.trees)}`);
    spec.trees = options.trees;
  }
  if (options.compare !== undefined) spec.compare = typeChecked(options.compare, 'boolean', 'compare');
  if (options.vote !== undefined) spec.vote = typeChecked(options.vote, 'string', 'vote');
  if (options.fixedOrder !== undefined) spec.fixedOrder = treeIds(options.fixedOrder, 'fixedOrder', numTrees);
  return spec;
}

/** The spec of predictProba()'s options ({vote}). */
export function probaSpec(vote) {
  const spec = { probabilities: true };
  if (vote !== undefined) spec.vote = typeChecked(vote, 'string', 'vote');
  return spec;
}

/**
 * A new request handle for `spec` on the forest of embind `forestHandle`: {handle, address, info}
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
  return { handle, address: handle._address(), info };
}

/**
 * A forest's parsed requests: those of options {rule} and {rule, alpha} are kept (per rule, at most
 * REQUESTS_PER_RULE alphas), others are parsed for one call. Freed with the forest.
 */
export class RequestCache {
  #byRule = new Map(); // rule -> alpha -> request
  #bySpec = new Map(); // the option-less calls' requests: key -> request

  /** The kept request of an option-less call (predict(d), predictProba(d, {vote})) named `key`. */
  fixed(forestHandle, key, spec, what) {
    let request = this.#bySpec.get(key);
    if (request === undefined) this.#bySpec.set(key, request = newRequest(forestHandle, spec, what));
    return request;
  }

  /**
   * The request for `options` (predict's) on `forestHandle`, and whether the caller must free it
   * after the call: {request, owned}.
   */
  request(forestHandle, options, numTrees) {
    const simple = isPlainObject(options) && simpleShape(options);
    const kept = simple ? this.#byRule.get(options.rule)?.get(options.alpha) : undefined;
    if (kept !== undefined) return { request: kept, owned: false };
    const request = newRequest(forestHandle, predictSpec(options, numTrees), 'predict');
    if (!simple) return { request, owned: true };
    let byAlpha = this.#byRule.get(options.rule);
    if (byAlpha === undefined) this.#byRule.set(options.rule, byAlpha = new Map());
    if (byAlpha.size >= REQUESTS_PER_RULE) return { request, owned: true };
    byAlpha.set(options.alpha, request);
    return { request, owned: false };
  }

  /** True when no request is held (for the leak net). */
  isDeleted() { return this.#byRule.size === 0 && this.#bySpec.size === 0; }

  /** Frees every request (the model changed, or the forest is disposed). */
  delete() {
    for (const byAlpha of this.#byRule.values()) for (const r of byAlpha.values()) r.handle.delete();
    for (const r of this.#bySpec.values()) r.handle.delete();
    this.#byRule.clear();
    this.#bySpec.clear();
  }

  /** Forgets every request without freeing it (its module instance aborted). */
  forget() {
    this.#byRule.clear();
    this.#bySpec.clear();
  }
}

// Options {rule} or {rule, alpha} (own enumerable keys only, as rejectUnknown reads them).
function simpleShape(options) {
  for (const key in options) if (key !== 'rule' && key !== 'alpha') return false;
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
