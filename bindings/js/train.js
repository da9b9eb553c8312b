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

/**
 * Trains a forest on a labeled dataset. Options (all optional; defaults are the core's
 * TrainOptions): ensemble 'rf' | 'bagging' | 'adaboost' | 'voteboost' (default 'rf'), boosting
 * 'resample' | 'reweight' (AdaBoost only; 'resample'), voteboost {a: number | 'cv', b, base:
 * 'random' | 'unpruned' | 'stump' | 'pruned', cvTrees}, adaboost {base: 'unpruned' | 'pruned' |
 * 'stump' | 'depth:N'}, treePruning 'none' | 'cv', treeFolds (10), treeSe (1) -- the CLI's
 * --emphasis, --emphasis-b, --base, --cv-trees, --tree-pruning, --tree-folds, --tree-se,
 * trees 1..100000 (101), mtry 0..features (0 = by mtryRule), mtryRule 'sqrt' | 'log2' | 'log2plus1',
 * maxDepth 0..100000 (0 = unlimited), minLeaf 1..2^26 (1), seed (non-negative safe integer or bigint < 2^64; 1),
 * onProgress(done, total) called after each tree (return false to cancel; with voteboost.a = 'cv' the
 * cross-validation's trees count too: total = its trees + trees). Returns a new Forest that
 * the caller owns.
 */
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

/**
 * Trees `part.first` .. `part.first + part.count - 1` of the forest trainForest(dataset, options)
 * grows ('rf' and 'bagging' only: their trees are independent, each drawn from (seed, tree index)),
 * as a Forest of `part.count` trees whose out-of-bag votes count only those trees. Train the parts
 * anywhere (other workers, other machines), then join their bytes with Forest.mergeParts: the result
 * is trainForest's forest, byte for byte. The worker's `threads` option does this for you.
 */
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
