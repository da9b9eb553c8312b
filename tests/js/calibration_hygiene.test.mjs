// forest.calibrate() as a specification of calibration hygiene: it refuses one row with
// 'TooFewCalibrationRows', and returns the core's report on the rows: rows, distinct rows, the
// largest alpha they certify at delta 0.05, and warnings with stable codes (DuplicateRows,
// TrainingLikeRows, TooFewRowsForAlpha). Fixture: tests/fixtures/calibration
// (scripts/calibration_fixture.py), a fully grown scikit-learn forest and its training rows.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, Dataset, Forest, UrnforestError } from '../../dist/index.js';

const dir = new URL('../fixtures/calibration/', import.meta.url);
const text = (file) => readFileSync(new URL(file, dir), 'utf8');
const lines = (file) => text(file).trim().split('\n');
const header = lines('train.csv')[0];

before(async () => { await init(); });

function forest() {
  return Forest.fromONNX(new Uint8Array(readFileSync(new URL('rf_wdbc_full.onnx', dir))), { featureNames: header.split(',') });
}
const rowsOf = (body) => Dataset.fromCSV([header, ...body].join('\n') + '\n', { target: null });
const codes = (report) => report.warnings.map((w) => w.code);

test('calibrate on one row is refused with TooFewCalibrationRows and leaves the forest uncalibrated', () => {
  const f = forest();
  const one = rowsOf(lines('heldout.csv').slice(1, 2));
  assert.throws(() => f.calibrate(one), (e) => e instanceof UrnforestError && e.code === 'TooFewCalibrationRows' && /at least 5 rows/.test(e.message));
  assert.equal(f.imported.calibrated, false);
  const four = rowsOf(lines('heldout.csv').slice(1, 5));
  assert.throws(() => f.calibrate(four), (e) => e.code === 'TooFewCalibrationRows');
  f.dispose(); one.dispose(); four.dispose();
});

test('calibrate returns rows, distinct rows, the largest alpha they certify at delta 0.05 and no warning on enough held-out rows', () => {
  const f = forest();
  const held = rowsOf(lines('heldout.csv').slice(1));
  const report = f.calibrate(held, { alpha: 0.95 });
  assert.equal(report.rows, 285);
  assert.equal(report.distinctRows, 285);
  assert.ok(Math.abs(report.maxCertifiableAlpha - 0.9853097159) < 1e-9);
  assert.equal(report.rowsNeeded, 83);
  assert.equal(report.alpha, 0.95);
  assert.deepEqual(report.warnings, []);
  assert.equal(f.imported.calibrated, true);
  assert.equal(f.calibrate(held).alpha, 0.99);  // the default alpha
  assert.throws(() => f.calibrate(held, { alpha: 1.5 }), RangeError);
  assert.throws(() => f.calibrate(held, { alpah: 0.9 }), TypeError);
  f.dispose(); held.dispose();
});

test('300 copies of one row calibrate with the warning DuplicateRows saying 1 distinct row', () => {
  const f = forest();
  const copies = rowsOf(new Array(300).fill(lines('heldout.csv')[1]));
  const report = f.calibrate(copies);
  assert.equal(report.rows, 300);
  assert.equal(report.distinctRows, 1);
  assert.ok(codes(report).includes('DuplicateRows'));
  assert.match(report.warnings.find((w) => w.code === 'DuplicateRows').message, /300 rows, 1 distinct/);
  assert.equal(f.imported.calibrated, true);  // a warning does not stop the calibration
  f.dispose(); copies.dispose();
});

test("the model's own training rows warn TrainingLikeRows; its held-out rows do not", () => {
  const f = forest();
  const train = rowsOf(lines('train.csv').slice(1));
  const held = rowsOf(lines('heldout.csv').slice(1));
  assert.deepEqual(codes(f.calibrate(train, { alpha: 0.9 })), ['TrainingLikeRows']);
  assert.deepEqual(codes(f.calibrate(held, { alpha: 0.9 })), []);
  f.dispose(); train.dispose(); held.dispose();
});

test('50 rows for alpha 0.999 warn TooFewRowsForAlpha with the largest alpha 50 rows certify and the rows 0.999 needs', () => {
  const f = forest();
  const fifty = rowsOf(lines('heldout.csv').slice(1, 51));
  const report = f.calibrate(fifty, { alpha: 0.999 });
  assert.deepEqual(codes(report), ['TooFewRowsForAlpha']);
  assert.ok(Math.abs(report.maxCertifiableAlpha - 0.9185) < 1e-4);
  assert.equal(report.rowsNeeded, 4203);
  assert.match(report.warnings[0].message, /at most alpha 0\.918[45] .* needs 4203 rows/);
  f.dispose(); fifty.dispose();
});
