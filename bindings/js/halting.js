// Halting rules: the validated halting options, HaltingTable (a table in wasm memory) and its
// factories, P* of a tally, and TableCache, the per-forest cache of the tables predict() uses.
import { callChecked, progressRelay } from './errors.js';
import { INTERNAL, adopt, disposed, live, release, whileInUse, withNewHandle } from './handles.js';
import { RULE_TABLE } from './generated/rule_table.js';
import { currentModule, requireModule } from './module.js';
import { nameOption, namesOf, optionTables, quotedList } from './options.js';
import {
  countsArg, describe, intOption, isPlainObject, optionsObject, rejectUnknown, seedHalves,
} from './validate.js';

/**
 * Every halting rule's traits, in the core's order (see the .d.ts, RuleInfo): the core's rule table
 * (src/halting/rules.cpp), written into generated/rule_table.js when the wasm is built, so usable
 * before init().
 */
export const ruleInfo = Object.freeze(RULE_TABLE.map((row) => Object.freeze({ ...row })));
/** The halting rule names, in the core's order (RuleNames): the public constant, usable before init(). */
export const rules = Object.freeze(ruleInfo.map((row) => row.name));
const HALTING_OPTIONS = ['rule', 'alpha', 'order', 'seed', 'trees'];
/** haltingOptions' extra keys when a call has none. */
export const NO_EXTRA_OPTIONS = [];
// HALTING_OPTIONS plus a call's extra keys, per extra-keys array (each call site passes a constant).
const ALLOWED_OPTIONS = new Map();

/** Rule name `rule` when the core knows it; throws naming `name` otherwise. */
export function ruleOption(rule, name) {
  return nameOption(rule, namesOf('rules'), name);
}

/** Target confidence alpha in (0, 1] (default: the core's HaltingTableOptions alpha, 0.99). */
export function alphaOption(alpha) {
  if (alpha === undefined) return optionTables().defaults.alpha;
  if (typeof alpha !== 'number') throw new TypeError(`alpha must be a number, got ${describe(alpha)}`);
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError(`alpha must be in (0, 1], got ${alpha}`);
  return alpha;
}

/** The alpha of forest.calibrate's options ({alpha}; default 0.99), checked as alphaOption. */
export function calibrationAlpha(options) {
  const o = optionsObject(options, 'calibrate');
  rejectUnknown(o, ['alpha'], 'calibrate');
  return alphaOption(o.alpha);
}

/**
 * Validates HaltingOptions; `maxTrees` bounds `trees` (the forest's size); `order` defaults to
 * `orderByDefault` (the forest's defaultOrder). Returns {rule, alpha, order (a name), orderIndex
 * (its position in the core's query-order names, for the plain C entry point), seedHi, seedLo,
 * trees, extra}: extra allowed keys are returned untouched in `.extra`.
 */
export function haltingOptions(options, what, maxTrees, extraKeys = NO_EXTRA_OPTIONS, orderByDefault = 'generation') {
  if (!isPlainObject(options)) throw new TypeError(`${what}: options must be an object with a 'rule', got ${describe(options)}`);
  let allowed = ALLOWED_OPTIONS.get(extraKeys);
  if (allowed === undefined) ALLOWED_OPTIONS.set(extraKeys, allowed = HALTING_OPTIONS.concat(extraKeys));
  rejectUnknown(options, allowed, what);
  const { names, defaults } = optionTables();
  if (options.rule === undefined) throw new TypeError(`${what}: option 'rule' is required (one of ${names.rules.join(', ')})`);
  const rule = names.rules.includes(options.rule) ? options.rule : nameOption(options.rule, names.rules, 'rule');
  const alpha = options.alpha === undefined ? defaults.alpha : alphaOption(options.alpha);
  const order = options.order === undefined ? orderByDefault : options.order;
  const orderIndex = order === 'fixed' ? -1 : names.queryOrders.indexOf(order);
  if (orderIndex < 0) {
    const message = `order must be ${quotedList(names.queryOrders.filter((n) => n !== 'fixed'))}, got ${describe(order)}`;
    throw typeof order !== 'string' ? new TypeError(message) : new RangeError(message);
  }
  const [seedHi, seedLo] = seedHalves(options.seed);
  const trees = intOption(options.trees, 'trees', 1, maxTrees, maxTrees);
  const extra = {};
  for (const key of extraKeys) extra[key] = options[key];
  return { rule, alpha, order, orderIndex, seedHi, seedLo, trees, extra };
}

/** The extra options of the calls that build a table on request: progress and cancellation. */
export const BUILD_OPTIONS = Object.freeze(['onProgress', 'signal']);

/**
 * Runs `build(progressFn)` (a table build in wasm; progressFn is undefined or the callback the
 * core calls with (steps done, total)) under the control of `onProgress(done, total)` (returning
 * false cancels: UrnforestError 'InvalidArgument', "cancelled"; what it throws cancels and is
 * rethrown) and `signal` (an AbortSignal: aborted before the call or by onProgress, the call
 * throws its reason). `wrappers` stay undisposable while the callback can run (whileInUse).
 */
export function controlledBuild(onProgress, signal, what, wrappers, build) {
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError(`${what}: onProgress must be a function, got ${describe(onProgress)}`);
  }
  if (signal !== undefined && !(typeof AbortSignal === 'function' && signal instanceof AbortSignal)) {
    throw new TypeError(`${what}: signal must be an AbortSignal, got ${describe(signal)}`);
  }
  signal?.throwIfAborted();
  const relay = progressRelay(onProgress === undefined && signal === undefined ? undefined : (done, total) => {
    if (signal?.aborted) return false;
    const keepGoing = onProgress?.(done, total);
    return signal?.aborted ? false : keepGoing;
  });
  try {
    return whileInUse(wrappers, what, () => build(relay.fn));
  } catch (e) {
    relay.rethrow();
    signal?.throwIfAborted();
    throw e;
  }
}

/**
 * A new internal table handle of validated options `h` for the forest of embind `forestHandle`;
 * `h.extra` may hold BUILD_OPTIONS (then `owner`, the Forest, stays undisposable meanwhile).
 */
export function buildForestTable(forestHandle, h, owner) {
  return buildForestTableReporting(forestHandle, h, owner).table;
}

// buildForestTable with where the table came from: {table, fromStore}.
function buildForestTableReporting(forestHandle, h, owner) {
  const m = requireModule();
  const { onProgress, signal } = h.extra;
  let fromStore = false;
  const table = controlledBuild(onProgress, signal, 'haltingTable', owner === undefined ? [] : [owner],
    (progress) => withNewHandle(m._HaltingTableHandle, (t) => {
      const r = t._buildForForest(forestHandle, h.rule, h.alpha, h.trees, progress);
      if (r !== undefined && r !== null && r.fromStore === true) fromStore = true;
      return r;
    }));
  return { table, fromStore };
}

// Halting tables built by predict/trace/expectedCost are cached per forest (least recently used
// first out), keyed by rule, alpha and trees; they are freed with the forest.
const TABLE_CACHE_SIZE = 8;

/**
 * A forest's internal table handles by (rule, alpha, trees), least recently used first out, with
 * the wasm address of each. The most recently used one is also kept with its options, so that
 * repeated predictions with the same options find it without building the key.
 */
const CACHED = Object.freeze({ source: 'cached', ms: 0 });

export class TableCache {
  /** What the last entry() call cost (see entry). */
  lastUse = CACHED;
  #tables = new Map(); // key -> {table, address (of the table handle, for the plain C entry point)}
  #recent = null;

  /**
   * The entry {table, address, source, ms} for validated options `h`, built for `forestHandle` on
   * first use. `lastUse` then says what this call cost: {source: 'built' | 'stored' | 'cached', ms}
   * (ms: building or copying the table, in this call; 0 when cached).
   */
  entry(forestHandle, h, owner) {
    const recent = this.#recent;
    if (recent !== null && recent.rule === h.rule && recent.alpha === h.alpha && recent.trees === h.trees &&
        this.#tables.get(recent.key) === recent.entry) {
      this.lastUse = CACHED;
      return recent.entry;
    }
    this.lastUse = CACHED;
    const key = `${h.rule}|${h.alpha}|${h.trees}`;
    let entry = this.#tables.get(key);
    if (entry !== undefined) {
      this.#tables.delete(key);
      this.#tables.set(key, entry);
    } else {
      const { table, fromStore } = buildForestTableReporting(forestHandle, h, owner);
      entry = { table, address: table._address() };
      this.lastUse = { source: fromStore ? 'stored' : 'built', ms: table._buildMs() };
      this.#tables.set(key, entry);
      if (this.#tables.size > TABLE_CACHE_SIZE) {
        const [oldKey, oldest] = this.#tables.entries().next().value;
        this.#tables.delete(oldKey);
        oldest.table.delete();
      }
    }
    this.#recent = { rule: h.rule, alpha: h.alpha, trees: h.trees, key, entry };
    return entry;
  }

  /**
   * The internal table handle for `h` (as entry(); `owner`, the Forest, stays undisposable while
   * a build reports progress, when h.extra holds BUILD_OPTIONS).
   */
  table(forestHandle, h, owner) {
    return this.entry(forestHandle, h, owner).table;
  }

  /** True when no table is held (for the leak net). */
  isDeleted() {
    return this.#tables.size === 0;
  }

  /** Frees every table. */
  delete() {
    for (const e of this.#tables.values()) e.table.delete();
    this.#tables.clear();
  }

  /** Forgets every table without freeing it (its module instance aborted). */
  forget() {
    this.#tables.clear();
  }
}

function tableAndTally(table, value) {
  const handle = live(table, 'HaltingTable');
  return [handle, countsArg(value, 'tally', handle._numClasses(), handle._numTrees())];
}

/**
 * A precomputed halting table for (rule, T, classes, alpha): one lookup per vote. Held in wasm
 * memory; the caller disposes it.
 */
export class HaltingTable {
  constructor(token, handle) {
    if (token !== INTERNAL) throw new TypeError('use haltingTable(), forest.haltingTable() or HaltingTable.fromBytes()');
    adopt(this, handle, 'HaltingTable');
  }

  /** Loads bytes from toBytes(). Throws UrnforestError 'CorruptModel' / 'UnsupportedVersion'. */
  static fromBytes(bytes) {
    const m = requireModule();
    if (!(bytes instanceof Uint8Array)) throw new TypeError(`HaltingTable.fromBytes: bytes must be a Uint8Array, got ${describe(bytes)}`);
    return new HaltingTable(INTERNAL, withNewHandle(m._HaltingTableHandle, (h) => h._load(bytes)));
  }

  /** The rule name. */
  get rule() { return live(this, 'HaltingTable')._rule(); }
  /** Target confidence alpha in (0, 1]. */
  get alpha() { return live(this, 'HaltingTable')._alpha(); }
  /** T, the number of trees queried. */
  get numTrees() { return live(this, 'HaltingTable')._numTrees(); }
  /** Number of classes l. */
  get numClasses() { return live(this, 'HaltingTable')._numClasses(); }
  /** False when some exact halting set was not monotone (thresholds then made conservative). */
  get monotone() { return live(this, 'HaltingTable')._monotone(); }
  /** Storage: 'thresholds' | 'pairwiseBound' | 'leadRule' | 'infiniteProduct' | 'onDemand'. */
  get layout() { return live(this, 'HaltingTable')._layout(); }
  /** Milliseconds it took to build (or load) this table, prior included. */
  get buildMs() { return live(this, 'HaltingTable')._buildMs(); }
  /** Bytes the table holds now; an 'onDemand' table grows as it decides new tallies. */
  get memoryBytes() { return live(this, 'HaltingTable')._memoryBytes(); }
  /** Tallies an 'onDemand' table has decided so far (0 for the other layouts). */
  get memoEntries() { return live(this, 'HaltingTable')._memoEntries(); }
  /** True for an 'optimal' table beyond its size limit, which decides with its prior's P* rule. */
  get optimalFallback() { return live(this, 'HaltingTable')._optimalFallback(); }

  /** True when voting may stop at `tally` (numClasses counts, sum <= numTrees). */
  halts(tally) {
    const [handle, t] = tableAndTally(this, tally);
    return handle._halts(t);
  }

  /** The rule's confidence for the strict leader of `tally` (0 without a strict leader). */
  confidence(tally) {
    const [handle, t] = tableAndTally(this, tally);
    return handle._confidence(t);
  }

  /** halts() of many tallies in one call (the core's HaltsMany; 06_halting_table.d.ts). */
  haltsMany(tallies) {
    const handle = live(this, 'HaltingTable');
    const l = handle._numClasses();
    const T = handle._numTrees();
    let flat;
    if (Array.isArray(tallies)) {
      flat = new Int32Array(tallies.length * l);
      tallies.forEach((t, k) => flat.set(countsArg(t, `tallies[${k}]`, l, T), k * l));
    } else if (tallies instanceof Int32Array) {
      if (tallies.length % l !== 0) throw new RangeError(`tallies.length (${tallies.length}) must be a multiple of numClasses (${l})`);
      flat = tallies;
    } else {
      throw new TypeError(`haltsMany: tallies must be an Int32Array or an array of tallies, got ${describe(tallies)}`);
    }
    return callChecked(() => handle._haltsMany(flat));
  }

  /** Strict leader of `tally`, or -1 on a tie for first place. */
  leader(tally) {
    const [handle, t] = tableAndTally(this, tally);
    return handle._leader(t);
  }

  /** Minimum count of class `c` that halts given the others' counts (06_halting_table.d.ts). */
  minLeaderVotes(c, others) {
    const handle = live(this, 'HaltingTable');
    const l = handle._numClasses();
    const cls = intOption(c, 'c', 0, l - 1, 0);
    if (c === undefined) throw new TypeError('c is required');
    const o = countsArg(others, 'others', l - 1, handle._numTrees());
    return handle._minLeaderVotes(cls, o);
  }

  /** Two-class tables: the minimum votes of class c per count of the other (06_halting_table.d.ts). */
  binaryThresholds(c) {
    const handle = live(this, 'HaltingTable');
    if (handle._numClasses() !== 2) throw new RangeError(`binaryThresholds needs a 2-class table, this one has ${handle._numClasses()} classes`);
    if (c === undefined) throw new TypeError('c is required');
    return handle._binaryThresholds(intOption(c, 'c', 0, 1, 0));
  }

  /** Expected trees and disagreement, for a final tally or over the prior (06_halting_table.d.ts). */
  expectedCost(options) {
    const handle = live(this, 'HaltingTable');
    const o = optionsObject(options, 'expectedCost');
    rejectUnknown(o, ['final', 'samples', 'seed'], 'expectedCost');
    const [seedHi, seedLo] = seedHalves(o.seed);
    if (o.final !== undefined) {
      const final = countsArg(o.final, 'final', handle._numClasses(), handle._numTrees());
      const sum = final.reduce((a, b) => a + b, 0);
      if (sum !== handle._numTrees()) throw new RangeError(`final must sum to numTrees (${handle._numTrees()}), got ${sum}`);
      const samples = intOption(o.samples, 'samples', ...optionTables().limits.costSamples, 0);
      return callChecked(() => handle._expectedCostFinal(final, samples, seedHi, seedLo));
    }
    const samples = intOption(o.samples, 'samples', ...optionTables().limits.costSamples, optionTables().defaults.costSamples);
    return callChecked(() => handle._expectedCostOverPrior(samples, seedHi, seedLo));
  }

  /** Versioned bytes of the table (a copy), e.g. to move it between threads. */
  toBytes() { return callChecked(() => live(this, 'HaltingTable')._bytes()); }
  /** True once dispose() has been called. */
  get disposed() { return disposed(this, 'HaltingTable'); }
  /** Frees the wasm memory. Idempotent; any later use throws. */
  dispose() { release(this, 'HaltingTable'); }
}

/** A table for a rule needing no data prior; the caller owns it (06_halting_table.d.ts). */
export function haltingTable(options) {
  const m = requireModule();
  const o = optionsObject(options, 'haltingTable');
  rejectUnknown(o, ['rule', 'trees', 'classes', 'alpha', ...BUILD_OPTIONS], 'haltingTable');
  const spec = priorlessSpec(o, 'haltingTable');
  return new HaltingTable(INTERNAL, controlledBuild(o.onProgress, o.signal, 'haltingTable', [],
    (progress) => withNewHandle(m._HaltingTableHandle, (h) => h._build(spec, progress))));
}

// The wasm spec {rule, trees?, classes?, alpha?} of a priorless table's options `o`.
function priorlessSpec(o, what) {
  if (o.rule === undefined) throw new TypeError(`${what}: option 'rule' is required`);
  const rule = ruleOption(o.rule, 'rule');
  const priorless = namesOf('priorlessRules');
  if (!priorless.includes(rule)) {
    throw new RangeError(`rule '${rule}' needs a prior estimated from a model: use forest.haltingTable() (here: ${priorless.join(', ')})`);
  }
  const { limits } = optionTables();
  const spec = { rule };
  if (o.trees !== undefined) spec.trees = intOption(o.trees, 'trees', 1, limits.maxTrees);
  if (o.classes !== undefined) spec.classes = intOption(o.classes, 'classes', 2, limits.maxClasses);
  if (o.alpha !== undefined) spec.alpha = alphaOption(o.alpha);
  return spec;
}

/** P* of a partial tally for 'alpha1', 'siba', 'infinite' (06_halting_table.d.ts PStarResult). */
export function pstar(options) {
  requireModule();
  const o = optionsObject(options, 'pstar');
  rejectUnknown(o, ['rule', 'trees', 'classes', 'votes', 'alpha'], 'pstar');
  if (o.trees === undefined) throw new TypeError("pstar: option 'trees' is required");
  if (o.votes === undefined) throw new TypeError("pstar: option 'votes' is required");
  if (!(Array.isArray(o.votes) || (ArrayBuffer.isView(o.votes) && !(o.votes instanceof DataView)))) {
    throw new TypeError(`votes must be an array or typed array of counts, got ${describe(o.votes)}`);
  }
  const spec = priorlessSpec({ ...o, classes: o.classes ?? o.votes.length }, 'pstar');
  const votes = countsArg(o.votes, 'votes', spec.classes, spec.trees);
  return callChecked(() => currentModule()._pstar(spec, votes));
}
