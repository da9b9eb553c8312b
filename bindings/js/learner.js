// The learner options shared by trainForest and runExperiment: ensemble kinds, boosting variants,
// mtry rules and base learners (vote-boosting [SMS18], AdaBoost, cost-complexity tree pruning
// [Sot11]), validated and translated to the positions of the core's enums.
import { describe, intOption, optionsObject, rejectUnknown } from './validate.js';

/** EnsembleKind positions (src/urnforest/forest.h). */
export const ENSEMBLES = { rf: 0, bagging: 1, adaboost: 2, voteboost: 3 };
/** Ensemble names by position. */
export const ENSEMBLE_NAMES = Object.keys(ENSEMBLES);
const BOOSTING = { resample: 0, reweight: 1 };
const MTRY_RULES = { sqrt: 0, log2: 1, log2plus1: 2 };
// VoteBoostBase positions (src/urnforest/forest.h).
const VOTEBOOST_BASES = { random: 0, unpruned: 1, stump: 2, pruned: 3 };
/** Vote-boosting base names by position. */
export const VOTEBOOST_BASE_NAMES = Object.keys(VOTEBOOST_BASES);
const TREE_PRUNING = { none: 0, cv: 1 };
const VOTEBOOST_OPTIONS = ['a', 'b', 'base', 'cvTrees'];
const ADABOOST_OPTIONS = ['base'];
// Emphasis range accepted by the CLI (--emphasis).
const EMPHASIS_MIN = 1e-6;
const EMPHASIS_MAX = 1e6;

/** The EnsembleKind position of option `value` (default 'rf'). */
export function ensembleOption(value) {
  if (value === undefined) return ENSEMBLES.rf;
  if (!Object.hasOwn(ENSEMBLES, value)) throw new RangeError(`ensemble must be one of ${ENSEMBLE_NAMES.join(', ')}, got ${describe(value)}`);
  return ENSEMBLES[value];
}

/** The BoostingVariant position of option `value` (default 'resample'; AdaBoost only). */
export function boostingOption(value, ensemble) {
  if (value === undefined) return BOOSTING.resample;
  if (ensemble !== ENSEMBLES.adaboost) throw new TypeError("boosting needs ensemble: 'adaboost'");
  if (!Object.hasOwn(BOOSTING, value)) throw new RangeError(`boosting must be 'resample' or 'reweight', got ${describe(value)}`);
  return BOOSTING[value];
}

/** The MtryRule position of option `value` (default 'sqrt'). */
export function mtryRuleOption(value) {
  if (value === undefined) return MTRY_RULES.sqrt;
  if (!Object.hasOwn(MTRY_RULES, value)) throw new RangeError(`mtryRule must be 'sqrt', 'log2' or 'log2plus1', got ${describe(value)}`);
  return MTRY_RULES[value];
}

function emphasisOption(value, name) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`${name} must be a finite number, got ${describe(value)}`);
  if (value < EMPHASIS_MIN || value > EMPHASIS_MAX) throw new RangeError(`${name} must be in [${EMPHASIS_MIN}, ${EMPHASIS_MAX}], got ${value}`);
  return value;
}

/**
 * Base-learner options of trainForest and runExperiment (voteboost, adaboost, treePruning,
 * treeFolds, treeSe of `o`), with the CLI's semantics (cli/voteboost_args.h). Returns the `base`
 * object of the wasm ForestHandle::Train and the max depth that AdaBoost's 'stump' / 'depth:N'
 * bases imply (else `maxDepth`).
 */
export function baseLearnerOptions(o, ensemble, maxDepth) {
  const base = { vbA: 1, vbB: 0, vbBase: 0, emphasisCv: false, cvTrees: 0, pruning: 0, pruningFolds: 10, pruningSe: 1 };
  if (o.treePruning !== undefined) {
    if (!Object.hasOwn(TREE_PRUNING, o.treePruning)) throw new RangeError(`treePruning must be 'none' or 'cv', got ${describe(o.treePruning)}`);
    base.pruning = TREE_PRUNING[o.treePruning];
  }
  base.pruningFolds = intOption(o.treeFolds, 'treeFolds', 2, 100, 10);
  if (o.treeSe !== undefined) {
    if (typeof o.treeSe !== 'number' || !Number.isFinite(o.treeSe)) throw new TypeError(`treeSe must be a finite number, got ${describe(o.treeSe)}`);
    if (o.treeSe < 0 || o.treeSe > 10) throw new RangeError(`treeSe must be in [0, 10], got ${o.treeSe}`);
    base.pruningSe = o.treeSe;
  }
  if (o.voteboost !== undefined) voteBoostOptions(o.voteboost, ensemble, base);
  if (o.adaboost !== undefined) maxDepth = adaBoostOptions(o, ensemble, base, maxDepth);
  return { base, maxDepth };
}

// Sets the vote-boosting fields of `base` from option `voteboost`.
function voteBoostOptions(voteboost, ensemble, base) {
  if (ensemble !== ENSEMBLES.voteboost) throw new TypeError("voteboost needs ensemble: 'voteboost'");
  const vb = optionsObject(voteboost, 'trainForest voteboost');
  rejectUnknown(vb, VOTEBOOST_OPTIONS, 'trainForest voteboost');
  if (vb.a === 'cv') {
    base.emphasisCv = true;
    if (vb.b !== undefined) throw new TypeError("voteboost.b cannot be combined with a: 'cv' (a = b)");
  } else if (vb.a !== undefined) {
    base.vbA = emphasisOption(vb.a, 'voteboost.a');
  }
  if (vb.b !== undefined) base.vbB = emphasisOption(vb.b, 'voteboost.b');
  if (vb.base !== undefined) {
    if (!Object.hasOwn(VOTEBOOST_BASES, vb.base)) {
      throw new RangeError(`voteboost.base must be one of ${VOTEBOOST_BASE_NAMES.join(', ')}, got ${describe(vb.base)}`);
    }
    base.vbBase = VOTEBOOST_BASES[vb.base];
  }
  if (vb.cvTrees !== undefined && !base.emphasisCv) throw new TypeError("voteboost.cvTrees needs a: 'cv'");
  base.cvTrees = intOption(vb.cvTrees, 'voteboost.cvTrees', 0, 100000, 0);
}

// Sets the AdaBoost base learner in `base` from option `o.adaboost`; returns the max depth.
function adaBoostOptions(o, ensemble, base, maxDepth) {
  if (ensemble !== ENSEMBLES.adaboost) throw new TypeError("adaboost needs ensemble: 'adaboost'");
  const ada = optionsObject(o.adaboost, 'trainForest adaboost');
  rejectUnknown(ada, ADABOOST_OPTIONS, 'trainForest adaboost');
  const name = ada.base;
  if (name === undefined) return maxDepth;
  const depth = typeof name === 'string' ? /^depth:([1-9][0-9]{0,5})$/.exec(name) : null;
  if (typeof name !== 'string' || (!['unpruned', 'pruned', 'stump'].includes(name) && depth === null)) {
    throw new RangeError(`adaboost.base must be 'unpruned', 'pruned', 'stump' or 'depth:N' (N in 1..999999), got ${describe(name)}`);
  }
  if ((name === 'stump' || depth !== null) && o.maxDepth !== undefined) {
    throw new TypeError(`adaboost.base '${name}' sets the depth: do not combine it with maxDepth`);
  }
  if (name === 'pruned') base.pruning = TREE_PRUNING.cv;
  if (name === 'stump') return 1;
  if (depth !== null) return Number(depth[1]);
  return maxDepth;
}

/** The learner stored in a model (wasm _learnerOptions) as the public `forest.learner` object. */
export function learnerFromWasm(o) {
  const out = {
    ensemble: ENSEMBLE_NAMES[o.ensemble], maxDepth: o.maxDepth, minLeaf: o.minLeaf,
    treePruning: o.pruning === 1 ? 'cv' : 'none', treeFolds: o.pruningFolds, treeSe: o.pruningSe,
  };
  if (out.ensemble === 'voteboost') out.voteboost = { a: o.vbA, b: o.vbB, base: VOTEBOOST_BASE_NAMES[o.vbBase] };
  return out;
}
