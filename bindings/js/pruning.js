// Static pruning by ordered aggregation [Sot11]: the work behind Forest's order, orderReport, prune and
// errorCurve (bindings/types/04_forest.d.ts documents them), on the forest's embind handle.
import { callChecked } from './errors.js';
import { live, withNewHandle } from './handles.js';
import { Dataset } from './dataset.js';
import { requireModule } from './module.js';
import { nameOption, namesOf, optionTables } from './options.js';
import { describe, intOption, optionsObject, rejectUnknown, treeIds } from './validate.js';

/**
 * The ordered-aggregation heuristics (static pruning), in the core's order: the public constant
 * (usable before init()); the names accepted are the core's (OrderingNames; tests/js/core_api.test.mjs
 * checks that they agree).
 */
export const orderings = Object.freeze(['early', 'reduce-error', 'complementarity', 'margin-distance',
  'orientation', 'boosting', 'kappa', 'greedy-sdp']);

function liveDataset(dataset, what) {
  if (!(dataset instanceof Dataset)) throw new TypeError(`${what}: dataset must be a Dataset, got ${describe(dataset)}`);
  return live(dataset, 'Dataset');
}

// The core's ordering spec from order()'s options (names checked here, values by the core).
function orderSpec(options, what) {
  const o = optionsObject(options, what);
  rejectUnknown(o, ['ordering', 'on', 'backfit', 'mdmP'], what);
  const spec = {};
  if (o.ordering !== undefined) spec.ordering = nameOption(o.ordering, namesOf('orderings'), 'ordering');
  if (o.on !== undefined) spec.on = nameOption(o.on, ['data', 'oob'], 'on');
  if (o.backfit !== undefined) spec.backfit = intOption(o.backfit, 'backfit', ...optionTables().limits.backfit);
  if (o.mdmP !== undefined) {
    if (typeof o.mdmP !== 'number') throw new TypeError(`mdmP must be a number, got ${describe(o.mdmP)}`);
    if (!(o.mdmP > 0 && o.mdmP < 1)) throw new RangeError(`mdmP must be in (0, 1), got ${o.mdmP}`);
    spec.mdmP = o.mdmP;
  }
  return spec;
}

/** Forest.order: the ordering of every tree (Int32Array). */
export function orderOf(handle, dataset, options) {
  const data = liveDataset(dataset, 'order');
  return callChecked(() => handle._order(data, orderSpec(options, 'order')));
}

/** Forest.orderReport: {order, on, warnings}. */
export function orderReportOf(handle, dataset, options) {
  const data = liveDataset(dataset, 'orderReport');
  const spec = orderSpec(options, 'orderReport');
  const order = callChecked(() => handle._order(data, spec));
  const warnings = callChecked(() => handle._orderingWarnings(data, spec));
  return { order, on: spec.on ?? 'data', warnings };
}

/** Forest.prune: the new embind handle of trees order[0..keep) (the caller wraps it in a Forest). */
export function prunedHandle(handle, order, keep, options) {
  const ids = treeIds(order, 'order', handle._numTrees());
  if (keep === undefined) throw new TypeError('prune: keep is required');
  const k = intOption(keep, 'keep', 1, ids.length, 1);
  const o = optionsObject(options, 'prune');
  rejectUnknown(o, ['training'], 'prune');
  let training = null;
  if (o.training !== undefined) {
    if (!(o.training instanceof Dataset)) throw new TypeError(`training must be a Dataset, got ${describe(o.training)}`);
    training = live(o.training, 'Dataset');
  }
  return withNewHandle(requireModule()._ForestHandle, (h) => h._loadPruned(handle, ids, k, training));
}

/** Forest.errorCurve: the error of the first u trees of `order`, u = 1..order.length. */
export function errorCurveOf(handle, dataset, order) {
  const data = liveDataset(dataset, 'errorCurve');
  const ids = treeIds(order, 'order', handle._numTrees());
  return callChecked(() => handle._errorCurve(data, ids));
}
