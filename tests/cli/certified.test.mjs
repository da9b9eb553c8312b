// `urnforest predict --rule auto|lp`: certified halting's certificate in the JSON (docs/halting.md,
// "Certified halting"), [KM26]'s minimean rule, and their refusals with stable codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cli } from './cli_binary.mjs';
import { run, ok, scratchDir } from './cli_json.mjs';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tmp = scratchDir('urnforest-certified-');

// wdbc's feature columns (no label), rows at even positions for calibration and odd ones to predict.
const lines = readFileSync(join(root, 'datasets', 'wdbc.csv'), 'utf8').trim().split('\n').map((l) => l.split(',').slice(0, 30).join(','));
const calibrationCsv = join(tmp, 'cal.csv');
const testCsv = join(tmp, 'test.csv');
writeFileSync(calibrationCsv, [lines[0], ...lines.slice(1).filter((_, i) => i % 2 === 0)].join('\n') + '\n');
writeFileSync(testCsv, [lines[0], ...lines.slice(1).filter((_, i) => i % 2 === 1)].join('\n') + '\n');
const fixture = join(root, 'tests', 'fixtures', 'onnx', 'sk_rf_wdbc_binary_zipmap');
const features = JSON.parse(readFileSync(`${fixture}.json`, 'utf8')).feature_names.join(',');
const imported = join(tmp, 'wdbc.urnf');
const calibrated = join(tmp, 'wdbc_cal.urnf');
ok('import', '--onnx', `${fixture}.onnx`, '--out', imported, '--features', features);
ok('calibrate', '--model', imported, '--data', calibrationCsv, '--out', calibrated);
const trained = join(tmp, 'trained.urnf');
ok('train', '--data', join(root, 'datasets', 'wdbc.csv'), '--trees', '31', '--out', trained);

const CERTIFICATE_KEYS = ['strategy', 'parameter', 'certified', 'bound', 'alpha', 'delta', 'fit_rows', 'certify_rows', 'reason', 'method', 'rows_needed'];

test('rule auto prints trees_used per row and a certificate with exactly its keys', () => {
  const p = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.95', '--compare');
  assert.deepEqual(Object.keys(p.certificate), CERTIFICATE_KEYS);
  const c = p.certificate;
  assert.equal(c.certified, true);
  assert.notEqual(c.strategy, 'exact');
  assert.equal(c.alpha, 0.95);
  assert.equal(c.delta, 0.05);
  assert.equal(c.fit_rows + c.certify_rows, lines.length - 1 - Math.floor((lines.length - 1) / 2));
  assert.ok(c.bound <= 0.05);
  assert.equal(c.reason, '');
  assert.equal(c.rows_needed, null);
  assert.match(c.method, /^betting, one fixed sequence of \d+ candidates ordered on the fit rows, \d+ tested$/);
  assert.equal(p.path, 'auto');
  assert.equal(p.trees_used.length, p.rows);
  assert.ok(p.mean_trees < 15);
  assert.ok(p.disagreement <= 0.05);
});

test('--alpha without --rule is rule auto: the same answer and certificate', () => {
  const named = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.95');
  const unnamed = ok('predict', '--model', calibrated, '--data', testCsv, '--alpha', '0.95');
  assert.equal(unnamed.rule, 'auto');
  assert.equal(unnamed.path, 'auto');
  assert.deepEqual(unnamed.labels, named.labels);
  assert.deepEqual(unnamed.trees_used, named.trees_used);
  assert.deepEqual(unnamed.certificate, named.certificate);
  assert.ok(unnamed.mean_trees < 15);
});

test('rule auto with too few rows for alpha answers with the exact exit and says how many rows it needs', () => {
  const p = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.99', '--delta', '0.05', '--compare');
  assert.equal(p.certificate.certified, false);
  assert.equal(p.certificate.strategy, 'exact');
  assert.equal(p.certificate.rows_needed, 419);
  assert.match(p.certificate.reason, /too few calibration rows/);
  assert.equal(p.certificate.method, '');  // no test ran
  assert.equal(p.disagreement, 0);
});

test('the text form of rule auto ends with the certificate as comment lines after the labels', () => {
  const json = ok('predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.95');
  const out = spawnSync(cli, ['predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.95'], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  const text = out.stdout.trim().split('\n');
  assert.deepEqual(text.slice(0, json.rows), json.labels);
  const c = json.certificate;
  assert.deepEqual(text.slice(json.rows), [
    `# certificate: ${c.strategy} ${Number(c.parameter.toPrecision(6))}, disagreement <= ${Number(c.bound.toPrecision(6))} (alpha 0.95) with probability >= 0.95`,
    `# certificate rows: ${c.fit_rows} fit, ${c.certify_rows} certify`,
    `# certificate method: ${c.method}`,
  ]);
  const few = spawnSync(cli, ['predict', '--model', calibrated, '--data', testCsv, '--rule', 'auto', '--alpha', '0.99'], { encoding: 'utf8' });
  assert.match(few.stdout, /\n# certificate: none \(exact exit, every answer the full vote's\) at alpha 0.99, delta 0.05\n/);
  assert.match(few.stdout, /\n# certificate reason: too few calibration rows/);
});

test('rule auto on a forest trained here answers with the exact exit and says why', () => {
  const p = ok('predict', '--model', trained, '--data', join(root, 'datasets', 'wdbc.csv'), '--rule', 'auto', '--compare');
  assert.equal(p.certificate.certified, false);
  assert.match(p.certificate.reason, /calibration rows/);
  assert.equal(p.disagreement, 0);
});

test('rule lp halts a two-class forest with fewer trees, deterministic per seed', () => {
  const a = ok('predict', '--model', trained, '--data', join(root, 'datasets', 'wdbc.csv'), '--rule', 'lp', '--alpha', '0.99', '--seed', '4', '--compare');
  const b = ok('predict', '--model', trained, '--data', join(root, 'datasets', 'wdbc.csv'), '--rule', 'lp', '--alpha', '0.99', '--seed', '4', '--compare');
  assert.equal(a.path, 'lp');
  assert.ok(a.mean_trees < 31);
  assert.deepEqual(a.trees_used, b.trees_used);
  assert.ok(!('certificate' in a));
});

test('rule lp --objective minimax halts a two-class forest; other objectives and three classes are refused', () => {
  const args = ['predict', '--model', trained, '--data', join(root, 'datasets', 'wdbc.csv'), '--rule', 'lp', '--alpha', '0.99', '--seed', '4'];
  const mean = ok(...args);
  const minimax = ok(...args, '--objective', 'minimax', '--compare');
  assert.equal(minimax.path, 'lp');
  assert.ok(minimax.mean_trees < 31);
  assert.ok(minimax.mean_trees >= mean.mean_trees - 1);
  assert.deepEqual(ok(...args, '--objective', 'minimean').trees_used, mean.trees_used);
  assert.equal(run(...args, '--objective', 'maximin').json.error.code, 'InvalidArgument');
  assert.match(run('predict', '--model', trained, '--data', join(root, 'datasets', 'wdbc.csv'), '--rule', 'hyper', '--objective', 'minimax').json.error.message, /objective/);
});

test('rules auto and lp refuse what does not apply with stable codes', () => {
  const iris = join(tmp, 'iris.urnf');
  ok('train', '--data', join(root, 'datasets', 'iris.csv'), '--trees', '11', '--out', iris);
  const data = join(root, 'datasets', 'iris.csv');
  const refused = (...args) => run('predict', '--model', iris, '--data', data, ...args).json.error;
  const lp = ok('predict', '--model', iris, '--data', data, '--rule', 'lp', '--alpha', '0.99', '--compare');
  assert.equal(lp.path, 'lp');
  assert.ok(lp.mean_trees < 11);
  const soybean = join(tmp, 'soybean.urnf');
  ok('train', '--data', join(root, 'datasets', 'soybean.csv'), '--trees', '11', '--out', soybean);
  const tooMany = run('predict', '--model', soybean, '--data', join(root, 'datasets', 'soybean.csv'), '--rule', 'lp').json.error;
  assert.equal(tooMany.code, 'LimitExceeded');
  assert.match(tooMany.message, /full-tally states/);
  assert.equal(refused('--rule', 'auto', '--delta', '0').code, 'InvalidArgument');
  assert.equal(refused('--rule', 'auto', '--delta', '1.5').code, 'InvalidArgument');
  assert.match(refused('--rule', 'hyper', '--delta', '0.1').message, /delta/);
  assert.match(refused('--rule', 'auto', '--order', 'fixed').message, /fixed/i);
  const uncalibrated = run('predict', '--model', imported, '--data', testCsv, '--rule', 'lp').json.error;
  assert.equal(uncalibrated.code, 'InvalidArgument');
  assert.match(uncalibrated.message, /calibrat/);
});
