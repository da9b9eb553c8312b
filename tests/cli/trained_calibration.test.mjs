// `urnforest calibrate` on a model trained here: the calibration rows (all trees) are stored beside
// the out-of-bag votes, and `predict --rule auto` certifies from them (docs/halting.md,
// "A forest trained here").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, ok, scratchDir } from './cli_json.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = scratchDir('urnforest-trainedcal-');

// wdbc in three parts by position: a quarter trains, half calibrates (labels dropped), a quarter is predicted.
const lines = readFileSync(join(root, 'datasets', 'wdbc.csv'), 'utf8').trim().split('\n');
const part = (keep, unlabeled) => {
  const rows = lines.slice(1).filter((_, i) => keep(i % 4));
  const cut = (l) => (unlabeled ? l.split(',').slice(0, 30).join(',') : l);
  return [cut(lines[0]), ...rows.map(cut)].join('\n') + '\n';
};
const trainCsv = join(tmp, 'train.csv');
const calCsv = join(tmp, 'cal.csv');
const testCsv = join(tmp, 'test.csv');
writeFileSync(trainCsv, part((m) => m === 0, false));
writeFileSync(calCsv, part((m) => m === 1 || m === 2, true));
writeFileSync(testCsv, part((m) => m === 3, false));
const trained = join(tmp, 'trained.urnf');
const calibrated = join(tmp, 'calibrated.urnf');
ok('train', '--data', trainCsv, '--trees', '101', '--seed', '3', '--out', trained);

test('calibrate accepts a model trained here and reports on the rows', () => {
  const report = ok('calibrate', '--model', trained, '--data', calCsv, '--out', calibrated, '--alpha', '0.9');
  assert.equal(report.kind, 'trained');
  assert.equal(report.calibrated, true);
  assert.equal(report.rows, 284);
  assert.deepEqual(report.warnings, []);
  assert.ok(report.rules.some((r) => r.rule === 'hyper'));
  assert.ok(!report.rules.some((r) => r.rule === 'margin'));
});

test('rule auto certifies a calibrated model trained here and stays within 1 - alpha of the full vote', () => {
  ok('calibrate', '--model', trained, '--data', calCsv, '--out', calibrated, '--alpha', '0.9');
  const p = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.9', '--compare');
  assert.equal(p.certificate.certified, true);
  assert.equal(p.certificate.fit_rows + p.certificate.certify_rows, 284);
  assert.ok(p.mean_trees < 101);
  assert.ok(p.disagreement <= 0.1);
  assert.equal(p.labels.length, 142);
  const before = ok('predict', '--model', trained, '--data', testCsv, '--rule', 'auto', '--alpha', '0.9', '--compare');
  assert.equal(before.certificate.certified, false);
  assert.match(before.certificate.reason, /calibrate it on held-out unlabeled rows/);
});

test('calibration leaves the out-of-bag rules of a model trained here as they were', () => {
  ok('calibrate', '--model', trained, '--data', calCsv, '--out', calibrated);
  for (const rule of ['hyper', 'siba', 'optimal']) {
    const a = ok('predict', '--model', trained, '--data', testCsv, '--rule', rule, '--seed', '5');
    const b = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', rule, '--seed', '5');
    assert.equal(a.labels.length, 142);
    assert.deepEqual(b.labels, a.labels, rule);
    assert.deepEqual(b.trees_used, a.trees_used, rule);
  }
});

test('an AdaBoost model is refused with InvalidArgument', () => {
  const boosted = join(tmp, 'boosted.urnf');
  ok('train', '--data', trainCsv, '--ensemble', 'adaboost', '--trees', '11', '--out', boosted);
  const refused = run('calibrate', '--model', boosted, '--data', calCsv, '--out', join(tmp, 'x.urnf'));
  assert.notEqual(refused.status, 0);
  assert.equal(refused.json.error.code, 'InvalidArgument');
  assert.match(refused.json.error.message, /weighted vote/);
});
