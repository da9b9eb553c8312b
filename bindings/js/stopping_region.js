// Forest.stoppingRegion: a read-only view of the stopping strategy rule 'lp' runs ([KM26]'s two-class
// minimean strategy, solved by the core and cached with the forest's rows), so that a page can draw where
// it stops. Documented in bindings/types/04_forest.d.ts.
import { callChecked } from './errors.js';
import { alphaOption } from './halting.js';
import { nameOption } from './options.js';
import { isPlainObject, describe, rejectUnknown } from './validate.js';

/** The rules whose stopping region can be read (the urn rules' regions are their halting tables). */
const REGION_RULES = ['lp'];

/**
 * Rule `options.rule` ('lp')'s stopping region at `options.alpha` (default 0.99) on the forest's embind
 * `handle`: {rule, alpha, numTrees, stopProbability: Float64Array, answer: Uint8Array, expectedTrees,
 * expectedDisagreement}, the arrays indexed by state (i trees seen, j of them for class index 1) at
 * i (i + 1) / 2 + j. Throws TypeError / RangeError for bad options and the core's UrnforestError
 * (InvalidArgument) for more than two classes or a forest without calibration or out-of-bag rows.
 */
export function stoppingRegionOf(handle, options) {
  if (!isPlainObject(options)) throw new TypeError(`stoppingRegion: options must be an object with rule 'lp', got ${describe(options)}`);
  rejectUnknown(options, ['rule', 'alpha'], 'stoppingRegion');
  const rule = nameOption(options.rule, REGION_RULES, 'stoppingRegion: rule', "'lp'");
  const alpha = alphaOption(options.alpha);
  const region = callChecked(() => handle._stoppingRegion(alpha));
  return Object.freeze({ rule, alpha, ...region });
}
