// trainForest: validating the training options and training a new Forest in wasm.
import { progressRelay } from './errors.js';
import { Dataset } from './dataset.js';
import { Forest } from './forest.js';
import { INTERNAL, live, whileInUse, withNewHandle } from './handles.js';
import { learnerSpec } from './learner.js';
import { requireModule } from './module.js';
import { optionTables } from './options.js';
import { describe, intOption, optionsObject, rejectUnknown, seedHalves } from './validate.js';

const TRAIN_OPTIONS = ['ensemble', 'trees', 'mtry', 'mtryRule', 'maxDepth', 'minLeaf', 'seed', 'onProgress', 'boosting',
  'voteboost', 'adaboost', 'treePruning', 'treeFolds', 'treeSe'];

/** Trains a forest on a labelled dataset; the caller owns it (03_train.d.ts TrainOptions, 07_experiment.d.ts). */
export function trainForest(dataset, options) {
  const m = requireModule();
  const { data, o, spec } = trainSpec(dataset, options, 'trainForest');
  const progress = progressRelay(o.onProgress);
  let result;
  // The dataset stays alive while onProgress runs: disposing it there is an error naming the call.
  const handle = whileInUse([dataset], 'trainForest', () => withNewHandle(m._ForestHandle, (h) => {
    result = h._train(data, spec, progress.fn);
    progress.rethrow();
    return result;
  }));
  return new Forest(INTERNAL, handle, result?.emphasis);
}

/** Trees first .. first + count - 1 of trainForest's forest, for Forest.mergeParts (07_experiment.d.ts). */
export function trainForestPart(dataset, options, part) {
  const m = requireModule();
  const { data, o, spec } = trainSpec(dataset, options, 'trainForestPart');
  const p = optionsObject(part, 'trainForestPart');
  rejectUnknown(p, ['first', 'count'], 'trainForestPart');
  const trees = spec.trees ?? optionTables().defaults.trees;
  const first = intOption(p.first, 'first', 0, trees - 1);
  const count = intOption(p.count, 'count', 1, trees - first);
  const progress = progressRelay(o.onProgress);
  const handle = whileInUse([dataset], 'trainForestPart', () => withNewHandle(m._ForestHandle, (h) => {
    const result = h._trainPart(data, spec, first, count, progress.fn);
    progress.rethrow();
    return result;
  }));
  return new Forest(INTERNAL, handle);
}

// The validated spec of trainForest's options for the wasm side: {data (the live handle), o, spec}.
// Types, names and single-option bounds (the core's, from optionTables) are checked here; the rules
// between options are the core's (CheckTrainRequest).
function trainSpec(dataset, options, what) {
  if (!(dataset instanceof Dataset)) throw new TypeError(`${what}: dataset must be a Dataset, got ${describe(dataset)}`);
  const data = live(dataset, 'Dataset');
  const o = optionsObject(options, what);
  rejectUnknown(o, TRAIN_OPTIONS, what);
  const spec = {};
  learnerSpec(o, spec);
  if (o.mtry !== undefined) spec.mtry = intOption(o.mtry, 'mtry', 0, data._numFeatures());
  if (o.minLeaf !== undefined) spec.minLeaf = intOption(o.minLeaf, 'minLeaf', ...optionTables().limits.minLeaf);
  if (o.seed !== undefined) [spec.seedHi, spec.seedLo] = seedHalves(o.seed);
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
    throw new TypeError(`onProgress must be a function, got ${describe(o.onProgress)}`);
  }
  return { data, o, spec };
}
