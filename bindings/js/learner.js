// The learner options shared by trainForest and runExperiment: ensemble kinds, boosting variants,
// mtry rules and base learners (vote-boosting [SMS18], AdaBoost, cost-complexity tree pruning
// [Sot11]), validated against the core's names and limits (options.js) into the spec object that
// bindings/wasm/options.cpp TrainOptionsFromJs decodes. Only the options given are set: the
// core's defaults stand for the others.
import { memberOption, namesOf, optionTables } from './options.js';
import { requireModule } from './module.js';
import { describe, intOption, optionsObject, realOption, rejectUnknown } from './validate.js';

const VOTEBOOST_OPTIONS = ['a', 'b', 'base', 'cvTrees'];
const ADABOOST_OPTIONS = ['base'];

/** The ensemble name of option `value` ('rf' when undefined). */
export function ensembleOption(value) {
  if (value === undefined) return namesOf('ensembles')[0];
  return memberOption(value, namesOf('ensembles'), 'ensemble', false);
}

/** Sets spec.boosting from option `value` (AdaBoost only). */
function boostingOption(value, ensemble, spec) {
  if (value === undefined) return;
  if (ensemble !== 'adaboost') throw new TypeError("boosting needs ensemble: 'adaboost'");
  spec.boosting = memberOption(value, namesOf('boostingVariants'), 'boosting', true);
}

function emphasisOption(value, name) {
  return realOption(value, name, optionTables().limits.emphasis);
}

/**
 * The learner options of trainForest and runExperiment (ensemble, boosting, mtryRule, maxDepth,
 * voteboost, adaboost, treePruning, treeFolds, treeSe of `o`, with the CLI's semantics), validated
 * and set in `spec` when given; `maxDepthLimit` bounds maxDepth. Returns the ensemble name.
 */
export function learnerSpec(o, spec, maxDepthLimit) {
  const ensemble = ensembleOption(o.ensemble);
  if (o.ensemble !== undefined) spec.ensemble = ensemble;
  boostingOption(o.boosting, ensemble, spec);
  if (o.mtryRule !== undefined) spec.mtryRule = memberOption(o.mtryRule, namesOf('mtryRules'), 'mtryRule', true);
  if (o.maxDepth !== undefined) spec.maxDepth = intOption(o.maxDepth, 'maxDepth', 0, maxDepthLimit);
  const { limits } = optionTables();
  if (o.treePruning !== undefined) {
    spec.treePruning = memberOption(o.treePruning, namesOf('treePrunings'), 'treePruning', true);
  }
  if (o.treeFolds !== undefined) spec.treeFolds = intOption(o.treeFolds, 'treeFolds', ...limits.treeFolds);
  if (o.treeSe !== undefined) spec.treeSe = realOption(o.treeSe, 'treeSe', limits.treeSe);
  if (o.voteboost !== undefined) spec.voteboost = voteBoostSpec(o.voteboost, ensemble);
  if (o.adaboost !== undefined) {
    const base = adaBoostBase(o, ensemble);
    if (base !== undefined) spec.adaboost = { base };
  }
  return ensemble;
}

// The vote-boosting spec {a, b, base, cv, cvTrees} (the keys given) of option `voteboost`.
function voteBoostSpec(voteboost, ensemble) {
  if (ensemble !== 'voteboost') throw new TypeError("voteboost needs ensemble: 'voteboost'");
  const vb = optionsObject(voteboost, 'trainForest voteboost');
  rejectUnknown(vb, VOTEBOOST_OPTIONS, 'trainForest voteboost');
  const out = {};
  if (vb.a === 'cv') {
    out.cv = true;
    if (vb.b !== undefined) throw new TypeError("voteboost.b cannot be combined with a: 'cv' (a = b)");
  } else if (vb.a !== undefined) {
    out.a = emphasisOption(vb.a, 'voteboost.a');
  }
  if (vb.b !== undefined) out.b = emphasisOption(vb.b, 'voteboost.b');
  if (vb.base !== undefined) out.base = memberOption(vb.base, namesOf('voteBoostBases'), 'voteboost.base', false);
  if (vb.cvTrees !== undefined && !out.cv) throw new TypeError("voteboost.cvTrees needs a: 'cv'");
  if (vb.cvTrees !== undefined) out.cvTrees = intOption(vb.cvTrees, 'voteboost.cvTrees', 0, optionTables().limits.maxTrees);
  return out;
}

// The AdaBoost base learner name of option `o.adaboost` (checked by the core's ParseBaseLearner),
// or undefined.
function adaBoostBase(o, ensemble) {
  if (ensemble !== 'adaboost') throw new TypeError("adaboost needs ensemble: 'adaboost'");
  const ada = optionsObject(o.adaboost, 'trainForest adaboost');
  rejectUnknown(ada, ADABOOST_OPTIONS, 'trainForest adaboost');
  const name = ada.base;
  if (name === undefined) return undefined;
  if (typeof name !== 'string') throw new RangeError(`adaboost.base must be a base-learner name, got ${describe(name)}`);
  const { problem, setsDepth } = requireModule()._checkBaseLearner('adaboost', name);
  if (problem !== undefined) throw new RangeError(`adaboost.base: ${problem}`);
  if (setsDepth && o.maxDepth !== undefined) {
    throw new TypeError(`adaboost.base '${name}' sets the depth: do not combine it with maxDepth`);
  }
  return name;
}

/** The learner stored in a model (wasm _learnerOptions, names from the core) as `forest.learner`. */
export function learnerFromWasm(o) {
  const out = {
    ensemble: o.ensemble, maxDepth: o.maxDepth, minLeaf: o.minLeaf,
    treePruning: o.treePruning, treeFolds: o.pruningFolds, treeSe: o.pruningSe,
  };
  if (out.ensemble === 'voteboost') out.voteboost = { a: o.vbA, b: o.vbB, base: o.vbBase };
  return out;
}
