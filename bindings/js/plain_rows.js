// forest.predict(rows) for plain rows: number[][] (one value per model feature, in the model's
// order: forest.featureNames) or objects keyed by feature name (any order, extra keys ignored as
// Dataset.fromRows with schemaOf does). The rows become a temporary Dataset read against the model's
// schema, predicted and disposed; the core decides types, categories and missing columns.
import { UrnforestError } from './errors.js';
import { Dataset } from './dataset.js';
import { describe, isPlainObject } from './validate.js';

/** True when `input` is what predictRows accepts (a non-empty array of arrays or of plain objects). */
function isPlainRows(input) {
  return Array.isArray(input) && input.length > 0 && (Array.isArray(input[0]) || isPlainObject(input[0]));
}

/**
 * `forest.predict(input, options, destination)` for plain rows. Throws TypeError for anything else
 * (naming Dataset.fromRows), UrnforestError 'ShapeMismatch' for arrays whose width is not the model's.
 */
export function predictRows(forest, input, options, destination) {
  if (!isPlainRows(input)) {
    throw new TypeError('predict: dataset must be a Dataset, number[][] (one value per model feature, in '
      + `forest.featureNames order) or an array of objects keyed by feature name, got ${describe(input)}`);
  }
  const names = forest.featureNames;
  if (Array.isArray(input[0]) && input[0].length !== names.length) {
    throw new UrnforestError('ShapeMismatch', `ShapeMismatch: predict: rows[0] has ${input[0].length} values; `
      + `the model has ${names.length} features, in this order: ${names.join(', ')}`);
  }
  const dataset = Array.isArray(input[0])
    ? Dataset.fromRows(input, { featureNames: names, schemaOf: forest })
    : Dataset.fromRows(input, { schemaOf: forest });
  try {
    return forest.predict(dataset, options, destination);
  } finally {
    dataset.dispose();
  }
}
