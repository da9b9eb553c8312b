// The learner options shared by trainForest and runExperiment: ensemble kinds, boosting variants,
// mtry rules and base learners (vote-boosting [SMS18], AdaBoost, cost-complexity tree pruning
// [Sot11]), validated against the core's names and limits (options.js) into the spec object that
// bindings/wasm/options.cpp TrainRequestFromJs decodes. Only the options given are set: the
// core's defaults stand for the others. The rules between options (boosting needs AdaBoost,
// voteboost.b not with a: 'cv', ...) are the core's (CheckTrainRequest): UrnforestError
// 'InvalidArgument' with the message the CLI prints.
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

/** Sets spec.boosting from option `value` (the core refuses it for an ensemble other than AdaBoost). */
function boostingOption(value, spec) {
  if (value === undefined) return;
  spec.boosting = memberOption(value, namesOf('boostingVariants'), 'boosting', true);
}

function emphasisOption(value, name) {
  return realOption(value, name, optionTables().limits.emphasis);
}

/**
 * The learner options of trainForest and runExperiment (ensemble, boosting, trees, mtryRule,
 * maxDepth, voteboost, adaboost, treePruning, treeFolds, treeSe of `o`, with the CLI's semantics),
 * validated (types, names, the core's bounds) and set in `spec` when given. Returns the ensemble name.
 */
export function learnerSpec(o, spec) {
  const ensemble = ensembleOption(o.ensemble);
  if (o.ensemble !== undefined) spec.ensemble = ensemble;
  boostingOption(o.boosting, spec);
  const { limits } = optionTables();
  if (o.trees !== undefined) spec.trees = intOption(o.trees, 'trees', ...limits.trees);
  if (o.mtryRule !== undefined) spec.mtryRule = memberOption(o.mtryRule, namesOf('mtryRules'), 'mtryRule', true);
  if (o.maxDepth !== undefined) spec.maxDepth = intOption(o.maxDepth, 'maxDepth', ...limits.maxDepth);
  if (o.treePruning !== undefined) {
    spec.treePruning = memberOption(o.treePruning, namesOf('treePrunings'), 'treePruning', true);
  }
  if (o.treeFolds !== undefined) spec.treeFolds = intOption(o.treeFolds, 'treeFolds', ...limits.treeFolds);
  if (o.treeSe !== undefined) spec.treeSe = realOption(o.treeSe, 'treeSe', limits.treeSe);
  if (o.voteboost !== undefined) spec.voteboost = voteBoostSpec(o.voteboost);
  if (o.adaboost !== undefined) spec.adaboost = adaBoostSpec(o.adaboost);
  return ensemble;
}

// The vote-boosting spec {a, b, base, cv, cvTrees} (the keys given) of option `voteboost`.
function voteBoostSpec(voteboost) {
  const vb = optionsObject(voteboost, 'trainForest voteboost');
  rejectUnknown(vb, VOTEBOOST_OPTIONS, 'trainForest voteboost');
  const out = {};
  if (vb.a === 'cv') {
    out.cv = true;
  } else if (vb.a !== undefined) {
    out.a = emphasisOption(vb.a, 'voteboost.a');
  }
  if (vb.b !== undefined) out.b = emphasisOption(vb.b, 'voteboost.b');
  if (vb.base !== undefined) out.base = memberOption(vb.base, namesOf('voteBoostBases'), 'voteboost.base', false);
  if (vb.cvTrees !== undefined) out.cvTrees = intOption(vb.cvTrees, 'voteboost.cvTrees', ...optionTables().limits.cvTrees);
  return out;
}

// The AdaBoost spec {base} (the base-learner name checked by the core's ParseBaseLearner, when given)
// of option `adaboost`.
function adaBoostSpec(adaboost) {
  const ada = optionsObject(adaboost, 'trainForest adaboost');
  rejectUnknown(ada, ADABOOST_OPTIONS, 'trainForest adaboost');
  const name = ada.base;
  if (name === undefined) return {};
  if (typeof name !== 'string') throw new RangeError(`adaboost.base must be a base-learner name, got ${describe(name)}`);
  const { problem } = requireModule()._checkBaseLearner('adaboost', name);
  if (problem !== undefined) throw new RangeError(`adaboost.base: ${problem}`);
  return { base: name };
}

/** The learner stored in a model (wasm _learnerOptions, names from the core) as `forest.learner`. */
export function learnerFromWasm(o) {
  const out = {
    ensemble: o.ensemble, maxDepth: o.maxDepth, minLeaf: o.minLeaf,
    treePruning: o.treePruning, treeFolds: o.pruningFolds, treeSe: o.pruningSe, grownToPurity: o.grownToPurity,
  };
  if (out.ensemble === 'voteboost') out.voteboost = { a: o.vbA, b: o.vbB, base: o.vbBase };
  return out;
}
