// Vote-boosting's emphasis ([SMS18] §3, Eqs. 5-9) of vote counts, computed by the core: the
// Laplace-corrected vote shares and the training weights they give, and the paper's grid of a = b.
import { callChecked } from './errors.js';
import { requireModule } from './module.js';
import { describe, isPlainObject, optionsObject, rejectUnknown } from './validate.js';

let gridModule = null;
let grid = null;

/** Vote-boosting's weights for vote counts, as the core computes them (09_emphasis.d.ts). */
export function emphasisWeights(votes, numClasses, options) {
  const m = requireModule();
  if (!(votes instanceof Uint32Array || votes instanceof Int32Array || Array.isArray(votes))) {
    throw new TypeError(`emphasisWeights: votes must be a Uint32Array, Int32Array or array of counts, got ${describe(votes)}`);
  }
  if (typeof numClasses !== 'number' || !Number.isInteger(numClasses)) {
    throw new TypeError(`emphasisWeights: numClasses must be an integer, got ${describe(numClasses)}`);
  }
  if (numClasses < 2) throw new RangeError(`numClasses must be at least 2, got ${numClasses}`);
  if (!isPlainObject(options)) throw new TypeError('emphasisWeights: options {a, b} are required');
  const o = optionsObject(options, 'emphasisWeights');
  rejectUnknown(o, ['a', 'b', 'trees'], 'emphasisWeights');
  for (const key of ['a', 'b']) {
    if (typeof o[key] !== 'number' || !Number.isFinite(o[key])) throw new TypeError(`${key} must be a finite number, got ${describe(o[key])}`);
    if (!(o[key] > 0)) throw new RangeError(`${key} must be > 0, got ${o[key]}`);
  }
  if (votes.length === 0 || votes.length % numClasses !== 0) {
    throw new RangeError(`votes.length (${votes.length}) must be a positive multiple of numClasses (${numClasses})`);
  }
  const counts = new Uint32Array(votes.length);
  for (let i = 0; i < votes.length; i++) {
    const v = votes[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`votes[${i}] must be an integer, got ${describe(v)}`);
    if (v < 0) throw new RangeError(`votes[${i}] must be >= 0, got ${v}`);
    counts[i] = v;
  }
  let trees = o.trees;
  if (trees === undefined) {
    trees = 0;
    for (let c = 0; c < numClasses; c++) trees += counts[c];
  } else if (typeof trees !== 'number' || !Number.isInteger(trees) || trees < 0) {
    throw new TypeError(`trees must be a non-negative integer, got ${describe(trees)}`);
  }
  return callChecked(() => m._emphasisWeights(counts, numClasses, trees, o.a, o.b));
}

/** The paper's grid of a = b values for the emphasis's cross-validation (the core's EmphasisGrid). */
export function emphasisGridOf(m) {
  if (gridModule !== m) {
    grid = Object.freeze(Array.from(m._emphasisGrid()));
    gridModule = m;
  }
  return grid;
}
