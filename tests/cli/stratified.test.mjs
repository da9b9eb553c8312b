// `urnforest predict --rule stratified`: the minimean strategy stratified by a surrogate of the final
// vote (docs/halting.md, "Beyond counts"), calibrated by `calibrate` or in the same run with --calibration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, ok, scratchDir } from './cli_json.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = scratchDir('urnforest-stratified-');

const lines = readFileSync(join(root, 'datasets', 'wdbc.csv'), 'utf8').trim().split('\n');
const calibrationCsv = join(tmp, 'cal.csv');
const testCsv = join(tmp, 'test.csv');
writeFileSync(calibrationCsv, [lines[0], ...lines.slice(1).filter((_, i) => i % 2 === 0)].join('\n') + '\n');
writeFileSync(testCsv, [lines[0], ...lines.slice(1).filter((_, i) => i % 2 === 1)].join('\n') + '\n');
const trained = join(tmp, 'trained.urnf');
ok('train', '--data', join(root, 'datasets', 'wdbc.csv'), '--trees', '31', '--out', trained);

test('predict --rule stratified with --calibration stops every row early or at all trees and reports its path', () => {
  const out = ok('predict', '--model', trained, '--data', testCsv, '--calibration', calibrationCsv,
    '--rule', 'stratified', '--alpha', '0.99', '--compare');
  assert.equal(out.rule, 'stratified');
  assert.equal(out.path, 'stratified');
  assert.equal(out.trees_used.length, lines.length - 1 - Math.ceil((lines.length - 1) / 2));
  for (const t of out.trees_used) assert.ok(t >= 1 && t <= 31);
  assert.ok(out.mean_trees < 31);
  assert.ok(out.disagreement >= 0 && out.disagreement <= 1);
});

test('a model saved by calibrate keeps the surrogate: predict --rule stratified answers as with --calibration', () => {
  const calibrated = join(tmp, 'calibrated.urnf');
  ok('calibrate', '--model', trained, '--data', calibrationCsv, '--out', calibrated);
  const saved = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', 'stratified', '--alpha', '0.99', '--seed', '4');
  const inRun = ok('predict', '--model', trained, '--data', testCsv, '--calibration', calibrationCsv,
    '--rule', 'stratified', '--alpha', '0.99', '--seed', '4');
  assert.deepEqual(saved.trees_used, inRun.trees_used);
  assert.deepEqual(saved.labels, inRun.labels);
});

test('predict --rule stratified on a model never calibrated is refused with InvalidArgument', () => {
  const out = run('predict', '--model', trained, '--data', testCsv, '--rule', 'stratified', '--alpha', '0.99');
  assert.notEqual(out.status, 0);
  assert.equal(out.json.error.code, 'InvalidArgument');
  assert.match(out.json.error.message, /calibrat/);
});
