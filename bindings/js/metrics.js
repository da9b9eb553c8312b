// Metrics of a prediction against known labels: the confusion matrix, accuracy overall and per class.
import { describe } from './validate.js';

// Class indices of `labels`: an Int32Array/number[] of indices, or a result with classIndex.
function indicesOf(labels, what) {
  if (labels !== null && typeof labels === 'object' && labels.classIndex instanceof Int32Array) return labels.classIndex;
  if (labels instanceof Int32Array || labels instanceof Uint32Array || Array.isArray(labels)) return labels;
  throw new TypeError(`confusionMatrix: ${what} must be class indices (Int32Array or number[]) or a prediction, got ${describe(labels)}`);
}

/** The confusion matrix of true against predicted class indices (10_metrics.d.ts). */
export function confusionMatrix(trueLabels, predicted, numClasses) {
  const truth = indicesOf(trueLabels, 'trueLabels');
  const guess = indicesOf(predicted, 'predicted');
  if (truth.length !== guess.length) {
    throw new RangeError(`confusionMatrix: ${truth.length} true labels but ${guess.length} predictions`);
  }
  let k = numClasses ?? predicted?.classNames?.length;
  if (k === undefined) {
    k = 0;
    for (let i = 0; i < truth.length; i++) k = Math.max(k, truth[i] + 1, guess[i] + 1);
  }
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`confusionMatrix: numClasses must be a positive integer, got ${describe(k)}`);
  const matrix = new Uint32Array(k * k);
  let rows = 0;
  let correct = 0;
  for (let i = 0; i < truth.length; i++) {
    const t = truth[i];
    const p = guess[i];
    if (t === -1) continue;
    for (const [v, name] of [[t, 'trueLabels'], [p, 'predicted']]) {
      if (!Number.isInteger(v) || v < 0 || v >= k) throw new RangeError(`confusionMatrix: ${name}[${i}] = ${describe(v)} is not a class index in [0, ${k})`);
    }
    matrix[t * k + p]++;
    rows++;
    if (t === p) correct++;
  }
  const perClass = [];
  for (let c = 0; c < k; c++) {
    let support = 0;
    let predictedAs = 0;
    for (let j = 0; j < k; j++) {
      support += matrix[c * k + j];
      predictedAs += matrix[j * k + c];
    }
    const hit = matrix[c * k + c];
    perClass.push({ support, correct: hit, accuracy: support === 0 ? NaN : hit / support, precision: predictedAs === 0 ? NaN : hit / predictedAs });
  }
  return { matrix, numClasses: k, rows, accuracy: rows === 0 ? NaN : correct / rows, perClass };
}
