// Forest.fromXGBoost: XGBoost's own JSON model (Booster.save_model('model.json')) imported by the
// core (src/xgboost/, urnforest/xgboost_import.h) without a converter. index.js installs it on
// Forest as a static method like fromONNX (installFromXGBoost), so that forest.js keeps its size.
// Docs: bindings/types/04_forest.d.ts, docs/import.md.
import { Forest } from './forest.js';
import { INTERNAL, withNewHandle } from './handles.js';
import { requireModule } from './module.js';
import { describe, optionsObject, rejectUnknown, stringArray } from './validate.js';

const NAME = 'Forest.fromXGBoost';

/** The model's bytes: a Uint8Array as given, a string (the JSON text) as UTF-8. */
function modelBytes(model) {
  if (model instanceof Uint8Array) return model;
  if (typeof model === 'string') return new TextEncoder().encode(model);
  throw new TypeError(`${NAME}: model must be a Uint8Array or a string (the JSON text), got ${describe(model)}`);
}

/** Forest.fromXGBoost(model, options) (04_forest.d.ts). */
function fromXGBoost(model, options) {
  const m = requireModule();
  const bytes = modelBytes(model);
  const o = optionsObject(options, NAME);
  rejectUnknown(o, ['featureNames', 'classNames', 'target'], NAME);
  const featureNames = stringArray(o.featureNames, `${NAME}: option 'featureNames'`);
  const classNames = stringArray(o.classNames, `${NAME}: option 'classNames'`);
  if (o.target !== undefined && typeof o.target !== 'string') {
    throw new TypeError(`${NAME}: option 'target' must be a string, got ${describe(o.target)}`);
  }
  return new Forest(INTERNAL, withNewHandle(m._ForestHandle,
    (h) => h._loadXGBoost(bytes, featureNames, classNames, o.target ?? '')));
}

/** Makes fromXGBoost a static method of Forest as a class declares one: writable, configurable, not enumerable. */
export function installFromXGBoost() {
  Object.defineProperty(Forest, 'fromXGBoost', { value: fromXGBoost, writable: true, configurable: true });
}
