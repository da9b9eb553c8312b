// The option tables of the wasm module: the core's option names (rules, orderings, ensembles, ...),
// the defaults the JS side reports and the limits it validates with, asked from each module
// instance once (_optionTables). Options cross into wasm as names; the core parses them.
import { requireModule } from './module.js';
import { describe, intOption } from './validate.js';

let tablesModule = null;
let tables = null;

/**
 * {names: {rules, orderings, ensembles, mtryRules, boostingVariants, treePrunings, voteBoostBases,
 * queryOrders, prunedQueryOrders, generators}, defaults: {trees, alpha, delta, classes, costSamples, rules},
 * limits: {maxTrees, maxClasses (of a halting table), maxRows, maxFeatures, maxLabelClasses (of a
 * dataset), and [min, max] of trees, delta (rule 'auto''s, exclusive at both ends), maxDepth, minLeaf, cvTrees, treeFolds, treeSe, emphasis, repeats,
 * samples, costSamples (expectedCost's), backfit, maxWork, trainRows, testRows}} of the
 * current module instance (bindings/wasm/options.h OptionTables; frozen; throws as requireModule
 * when none).
 */
export function optionTables() {
  const m = requireModule();
  return tablesModule === m ? tables : loadTables(m);
}

function loadTables(m) {
  const raw = m._optionTables();
  for (const key of Object.keys(raw.names)) Object.freeze(raw.names[key]);
  for (const key of Object.keys(raw.limits)) Object.freeze(raw.limits[key]);
  Object.freeze(raw.defaults.rules);
  tables = Object.freeze({ names: Object.freeze(raw.names), defaults: Object.freeze(raw.defaults),
    limits: Object.freeze(raw.limits) });
  tablesModule = m;
  return tables;
}

/** The core's DefaultKeep, the trees static pruning keeps by default (05_halting_options.d.ts). */
export function defaultKeep(trees) {
  const m = requireModule();
  const [min, max] = optionTables().limits.trees;
  return m._defaultKeep(intOption(trees, 'trees', min, max));
}

/** The core's names of option kind `kind` (a key of optionTables().names). */
export function namesOf(kind) {
  return optionTables().names[kind];
}

/**
 * `value` when it is one of `names`, else throws: TypeError for a non-string, RangeError listing
 * the names otherwise (`message`, when given, replaces the list).
 */
export function nameOption(value, names, name, message) {
  if (typeof value === 'string' && names.includes(value)) return value;
  const expected = message ?? `one of ${names.join(', ')}`;
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string (${expected}), got ${describe(value)}`);
  throw new RangeError(`${name} must be ${expected}, got ${describe(value)}`);
}

/**
 * `value` when it is one of `names`, else a RangeError (whatever the type of `value`) saying
 * "`name` must be <list>": the names quoted ('a', 'b' or 'c') when `quoted`, else "one of a, b, c".
 */
export function memberOption(value, names, name, quoted) {
  if (typeof value === 'string' && names.includes(value)) return value;
  const expected = quoted ? quotedList(names) : `one of ${names.join(', ')}`;
  throw new RangeError(`${name} must be ${expected}, got ${describe(value)}`);
}

/** `names` quoted and joined for a message: 'a', 'b' or 'c'. */
export function quotedList(names) {
  const quoted = names.map((n) => `'${n}'`);
  return quoted.length <= 1 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}
