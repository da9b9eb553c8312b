// runExperiment: the experiment harness (the CLI's `experiment`): validating its options into the
// spec the wasm side decodes (bindings/wasm/experiment.cpp: only the options given are set, the
// core's ExperimentOptions defaults stand for the others), running it, and the names of the
// synthetic problems. Types, names and single-option bounds (the core's, from optionTables) are
// checked here; the data's own conditions and the rules between options are the core's
// (CheckExperimentOptions): UrnforestError with the code and message the CLI prints.
import { callChecked, progressRelay } from './errors.js';
import { Dataset } from './dataset.js';
import { alphaOption, ruleOption } from './halting.js';
import { live, whileInUse } from './handles.js';
import { learnerSpec } from './learner.js';
import { requireModule } from './module.js';
import { memberOption, namesOf, nameOption, optionTables } from './options.js';
import { describe, intOption, isPlainObject, optionsObject, rejectUnknown, seedHalves } from './validate.js';

const EXPERIMENT_OPTIONS = ['data', 'name', 'train', 'test', 'ensemble', 'boosting', 'trees', 'mtry', 'mtryRule',
  'alpha', 'rules', 'folds', 'repeats', 'holdout', 'stratified', 'seed', 'proxyTrees', 'samples', 'maxWork', 'prune', 'keep',
  'queryOrder', 'voteboost', 'adaboost', 'treePruning', 'treeFolds', 'treeSe', 'maxDepth', 'noise'];
/** Names of the synthetic problems runExperiment accepts as `data` (a fresh array). */
export function generators() {
  return namesOf('generators').slice();
}

/** The CLI's `experiment` as a JSON-shaped report (07_experiment.d.ts, docs/experiments.md). */
export function runExperiment(options, control) {
  const m = requireModule();
  if (!isPlainObject(options)) throw new TypeError(`runExperiment: options must be an object with 'data', got ${describe(options)}`);
  rejectUnknown(options, EXPERIMENT_OPTIONS, 'runExperiment');
  const ctl = optionsObject(control, 'runExperiment control');
  rejectUnknown(ctl, ['onProgress'], 'runExperiment control');
  if (ctl.onProgress !== undefined && typeof ctl.onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(ctl.onProgress)}`);
  }
  const spec = {};
  const { dataHandle, maxFeatures } = dataSpec(options, spec);
  modelSpec(options, spec, maxFeatures);
  haltingSpec(options, spec);
  pruningSpec(options, spec);
  const progress = progressRelay(ctl.onProgress);
  // The dataset stays alive while onProgress runs: disposing it there is an error naming the call.
  const out = whileInUse([typeof options.data === 'string' ? undefined : options.data], 'runExperiment', () => callChecked(() => {
    const report = m._runExperiment(spec, dataHandle, progress.fn);
    progress.rethrow();
    return report;
  }));
  return JSON.parse(out);
}

// The protocol and data of `spec` from options.data (a Dataset or a generator name) and the
// options that go with it; returns the dataset's handle (null for a generator) and the feature
// count that bounds mtry.
function dataSpec(o, spec) {
  if (o.data === undefined) throw new TypeError("runExperiment: option 'data' is required (a Dataset or a generator name)");
  if (typeof o.data === 'string') {
    const names = namesOf('generators');
    if (!names.includes(o.data)) throw new RangeError(`data must be a Dataset or one of ${names.join(', ')}, got ${describe(o.data)}`);
    for (const key of ['folds', 'holdout', 'stratified']) {
      if (o[key] !== undefined) throw new TypeError(`${key} applies to a Dataset; synthetic problems use train, test and repeats`);
    }
    const { limits } = optionTables();
    spec.generator = o.data;
    if (o.train !== undefined) spec.train = intOption(o.train, 'train', ...limits.trainRows);
    if (o.test !== undefined) spec.test = intOption(o.test, 'test', ...limits.testRows);
    if (o.repeats !== undefined) spec.repeats = intOption(o.repeats, 'repeats', ...limits.repeats);
    return { dataHandle: null, maxFeatures: limits.maxFeatures };
  }
  if (!(o.data instanceof Dataset)) throw new TypeError(`data must be a Dataset or a generator name, got ${describe(o.data)}`);
  const dataHandle = live(o.data, 'Dataset');
  const maxFeatures = dataHandle._numFeatures();
  for (const key of ['train', 'test']) {
    if (o[key] !== undefined) throw new TypeError(`${key} applies to synthetic problems (data: a generator name)`);
  }
  if (o.holdout !== undefined) {
    if (o.folds !== undefined) throw new TypeError('give folds or holdout, not both');
    if (typeof o.holdout !== 'number') throw new TypeError(`holdout must be a number, got ${describe(o.holdout)}`);
    if (!(o.holdout > 0 && o.holdout < 1)) throw new RangeError(`holdout must be in (0, 1), got ${o.holdout}`);
    spec.holdout = o.holdout;
  } else if (o.folds !== undefined) {
    spec.folds = intOption(o.folds, 'folds', 2, Math.max(2, dataHandle._numRows()));
  }
  if (o.repeats !== undefined) spec.repeats = intOption(o.repeats, 'repeats', ...optionTables().limits.repeats);
  if (o.stratified !== undefined) {
    if (typeof o.stratified !== 'boolean') throw new TypeError(`stratified must be a boolean, got ${describe(o.stratified)}`);
    spec.stratified = o.stratified;
  }
  return { dataHandle, maxFeatures };
}

// The name, learner, label noise, trees and mtry of `spec`.
function modelSpec(o, spec, maxFeatures) {
  if (o.name !== undefined) {
    if (typeof o.name !== 'string') throw new TypeError(`name must be a string, got ${describe(o.name)}`);
    spec.name = o.name;
  }
  learnerSpec(o, spec);
  if (o.noise !== undefined) {
    if (typeof o.noise !== 'number' || !Number.isFinite(o.noise)) throw new TypeError(`noise must be a number, got ${describe(o.noise)}`);
    if (o.noise < 0 || o.noise > 1) throw new RangeError(`noise must be in [0, 1], got ${o.noise}`);
    spec.noise = o.noise;
  }
  if (o.mtry !== undefined) spec.mtry = intOption(o.mtry, 'mtry', 0, maxFeatures);
}

// The alphas, rules, seed, proxy trees and Monte Carlo samples of `spec`.
function haltingSpec(o, spec) {
  if (o.alpha !== undefined) {
    const alphas = Array.isArray(o.alpha) ? o.alpha : [o.alpha];
    if (alphas.length === 0) throw new RangeError('alpha must not be an empty array');
    spec.alphas = alphas.map((a) => alphaOption(a));
  }
  if (o.rules !== undefined) {
    if (!Array.isArray(o.rules)) throw new TypeError(`rules must be an array of rule names, got ${describe(o.rules)}`);
    if (o.rules.length === 0) throw new RangeError('rules must name at least one rule');
    spec.rules = o.rules.map((r, i) => ruleOption(r, `rules[${i}]`));
    if (new Set(spec.rules).size !== spec.rules.length) throw new RangeError('rules names a rule twice');
  }
  const { limits } = optionTables();
  if (o.seed !== undefined) [spec.seedHi, spec.seedLo] = seedHalves(o.seed);
  if (o.proxyTrees !== undefined) spec.proxyTrees = intOption(o.proxyTrees, 'proxyTrees', 0, limits.maxTrees);
  if (o.samples !== undefined) spec.samples = intOption(o.samples, 'samples', ...limits.samples);
  if (o.maxWork !== undefined) {
    const [min, max] = limits.maxWork;
    if (typeof o.maxWork !== 'number' || !(o.maxWork >= min && o.maxWork <= max)) {
      throw new RangeError(`maxWork must be a number of row-trees in [${min}, ${max}], got ${describe(o.maxWork)}`);
    }
    spec.maxWork = o.maxWork;
  }
}

// The static pruning (ordering, kept trees) and query order of `spec`. The JS API names the
// pruned query orders 'ordered' and 'random' (the core's 'generation' is its 'ordered').
function pruningSpec(o, spec) {
  if (o.prune !== undefined) spec.prune = nameOption(o.prune, namesOf('orderings'), 'prune');
  // keep without prune is the core's refusal (CheckExperimentOptions), as in the CLI.
  if (o.keep !== undefined) spec.keep = intOption(o.keep, 'keep', 1, spec.trees ?? optionTables().defaults.trees);
  if (o.queryOrder !== undefined) {
    const names = namesOf('prunedQueryOrders').filter((n) => n !== 'generation');
    spec.queryOrder = memberOption(o.queryOrder, names, 'queryOrder', true);
  }
}
