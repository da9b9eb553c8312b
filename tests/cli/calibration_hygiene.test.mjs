// `urnforest calibrate` as a specification of calibration hygiene: one row is refused with
// TooFewCalibrationRows; the JSON answer carries rows, distinct_rows, max_certifiable_alpha (at
// delta 0.05), rows_needed and "warnings": [{code, message}], which text mode prints on stderr.
// Fixture: tests/fixtures/calibration (scripts/calibration_fixture.py).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cli } from './cli_binary.mjs';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'tests', 'fixtures', 'calibration');
const tmp = mkdtempSync(join(tmpdir(), 'urnforest-calibration-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const lines = (file) => readFileSync(join(fixtures, file), 'utf8').trim().split('\n');
const header = lines('train.csv')[0];
function csv(name, body) {
  const path = join(tmp, name);
  writeFileSync(path, [header, ...body].join('\n') + '\n');
  return path;
}
function run(...args) {
  const out = spawnSync(cli, args, { encoding: 'utf8' });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}
const model = join(tmp, 'wdbc.urnf');
const imported = run('import', '--onnx', join(fixtures, 'rf_wdbc_full.onnx'), '--out', model, '--features', header, '--json');
assert.equal(imported.status, 0, imported.stderr);

function calibrate(data, ...extra) {
  const out = run('calibrate', '--model', model, '--data', data, '--out', join(tmp, 'cal.urnf'), '--json', ...extra);
  return { status: out.status, json: JSON.parse(out.stdout) };
}
const codes = (doc) => doc.warnings.map((w) => w.code);

test('calibrate on one row fails with TooFewCalibrationRows (exit 1)', () => {
  const out = calibrate(csv('one.csv', lines('heldout.csv').slice(1, 2)));
  assert.equal(out.status, 1);
  assert.equal(out.json.error.code, 'TooFewCalibrationRows');
  assert.match(out.json.error.message, /at least 5 rows, got 1/);
});

test('calibrate on held-out rows answers rows, distinct_rows, max_certifiable_alpha, rows_needed and no warning', () => {
  const out = calibrate(csv('held.csv', lines('heldout.csv').slice(1)), '--alpha', '0.95');
  assert.equal(out.status, 0);
  assert.equal(out.json.rows, 285);
  assert.equal(out.json.distinct_rows, 285);
  assert.ok(Math.abs(out.json.max_certifiable_alpha - 0.9853097159) < 1e-9);
  assert.equal(out.json.rows_needed, 83);
  assert.deepEqual(out.json.warnings, []);
});

test('300 copies of one row warn DuplicateRows with 1 distinct row', () => {
  const out = calibrate(csv('copies.csv', new Array(300).fill(lines('heldout.csv')[1])));
  assert.equal(out.status, 0);
  assert.equal(out.json.distinct_rows, 1);
  const dup = out.json.warnings.find((w) => w.code === 'DuplicateRows');
  assert.ok(dup, JSON.stringify(out.json.warnings));
  assert.match(dup.message, /300 rows, 1 distinct/);
});

test("the model's own training rows warn TrainingLikeRows; its held-out rows do not", () => {
  assert.deepEqual(codes(calibrate(csv('train.csv', lines('train.csv').slice(1)), '--alpha', '0.9').json), ['TrainingLikeRows']);
  assert.deepEqual(codes(calibrate(csv('held.csv', lines('heldout.csv').slice(1)), '--alpha', '0.9').json), []);
});

test('50 rows for alpha 0.999 warn TooFewRowsForAlpha, in JSON and on stderr in text mode', () => {
  const data = csv('fifty.csv', lines('heldout.csv').slice(1, 51));
  const out = calibrate(data, '--alpha', '0.999');
  assert.deepEqual(codes(out.json), ['TooFewRowsForAlpha']);
  assert.ok(Math.abs(out.json.max_certifiable_alpha - 0.9185) < 1e-4);
  assert.equal(out.json.rows_needed, 4203);
  const text = run('calibrate', '--model', model, '--data', data, '--out', join(tmp, 'cal.urnf'), '--alpha', '0.999');
  assert.equal(text.status, 0);
  assert.match(text.stderr, /^urnforest calibrate: warning TooFewRowsForAlpha: 50 rows certify at most alpha 0\.918[45] .*needs 4203 rows$/m);
  assert.doesNotMatch(text.stdout, /warning/);
});
