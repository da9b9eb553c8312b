// Shared fixtures for the node:test suites (not a test file itself).
import { readFileSync } from 'node:fs';

export const datasetsDir = new URL('../../datasets/', import.meta.url);
export const readDataset = (name) => readFileSync(new URL(`${name}.csv`, datasetsDir), 'utf8');

/** Fraction of rows whose predicted class index equals the label. */
export function accuracy(prediction, labels) {
  let right = 0;
  for (let i = 0; i < labels.length; i++) right += prediction.classIndex[i] === labels[i] ? 1 : 0;
  return right / labels.length;
}
