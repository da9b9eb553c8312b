// `urnforest import`, `calibrate` and `predict --vote/--proba/--rule` on ONNX models made by
// scikit-learn and XGBoost (tests/fixtures/onnx): the CLI predicts what the source library
// predicted, halts exactly with alpha1, and fails with one JSON error on files it cannot run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run, ok, scratchDir } from './cli_json.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'tests', 'fixtures', 'onnx');
const tmp = scratchDir('urnforest-onnx-import-');

function fixture(name) {
  const fx = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8'));
  const csv = join(tmp, `${name}.csv`);
  // Columns reversed on purpose: the CLI matches them by name.
  const cols = [...fx.feature_names].reverse();
  const lines = [cols.join(',')];
  for (const row of fx.rows) lines.push(cols.map((c) => { const v = row[fx.feature_names.indexOf(c)]; return v === null ? '' : String(v); }).join(','));
  writeFileSync(csv, lines.join('\n') + '\n');
  const model = join(tmp, `${name}.urnf`);
  const info = ok('import', '--onnx', join(fixtures, `${name}.onnx`), '--out', model, '--features', fx.feature_names.join(','));
  return { fx, csv, model, info };
}

test('import prints the model it read; predict --proba gives the source library probabilities', () => {
  for (const name of ['sk_rf_iris_nozipmap', 'sk_rf_wdbc_binary_zipmap', 'xgb_wdbc_binary_missing']) {
    const { fx, csv, model, info } = fixture(name);
    assert.equal(info.trees, fx.n_trees);
    assert.deepEqual(info.feature_names, fx.feature_names);
    assert.equal(info.kind, name.startsWith('xgb') ? 'additive' : 'voting');
    assert.equal(info.calibrated, false);
    const p = ok('predict', '--model', model, '--data', csv, '--proba');
    assert.equal(p.vote, 'soft');
    assert.deepEqual(p.labels, fx.source.predict.map(String));
    p.probabilities.flat().forEach((v, i) => assert.ok(Math.abs(v - fx.source.predict_proba.flat()[i]) <= 1e-5, `${name} [${i}]`));
    const exact = ok('predict', '--model', model, '--data', csv, '--rule', 'alpha1', '--compare');
    assert.deepEqual(exact.labels, p.labels);
    assert.equal(exact.disagreement, 0);
    assert.ok(exact.mean_trees <= fx.n_trees);
    assert.equal(ok('info', '--model', model).imported.kind, info.kind);
  }
});

test('predict --vote hard is the majority of the trees, as each scikit-learn estimator votes', () => {
  const { fx, csv, model } = fixture('sk_rf_iris_nozipmap');
  const hard = ok('predict', '--model', model, '--data', csv, '--vote', 'hard');
  assert.equal(hard.vote, 'hard');
  const k = fx.classes.length;
  fx.source.tree_votes.forEach((votes, r) => {
    const counts = new Array(k).fill(0);
    for (const v of votes) counts[v]++;
    assert.deepEqual(hard.votes.slice(r * k, r * k + k), counts, `row ${r}`);
  });
  assert.equal(run('predict', '--model', model, '--data', csv, '--vote', 'mean').json.error.code, 'InvalidArgument');
});

test('calibrate stores priors from unlabeled rows and reports every rule on them', () => {
  const { csv, model } = fixture('sk_rf_soybean_19class');
  assert.equal(run('predict', '--model', model, '--data', csv, '--rule', 'hyper').json.error.code, 'InvalidArgument');
  const calibrated = join(tmp, 'soy_cal.urnf');
  const c = ok('calibrate', '--model', model, '--data', csv, '--out', calibrated);
  assert.equal(c.calibrated, true);
  assert.equal(c.rows, 200);
  const names = c.rules.map((r) => r.rule);
  assert.deepEqual(names, ['alpha1', 'siba', 'hyper', '1dir', 'ndir', 'infinite', 'margin']);
  const alpha1 = c.rules.find((r) => r.rule === 'alpha1');
  assert.ok(alpha1.mean_trees > 0);
  for (const rule of ['hyper', 'margin']) {
    const p = ok('predict', '--model', calibrated, '--data', csv, '--rule', rule, '--alpha', '0.99');
    assert.ok(p.mean_trees < 50, `${rule} ${p.mean_trees}`);
  }
  assert.ok('lambda' in ok('predict', '--model', calibrated, '--data', csv, '--rule', 'margin'));
});

test('an additive model halts with alpha1 only and cannot be calibrated', () => {
  const { csv, model } = fixture('xgb_vehicle_softprob_missing');
  assert.equal(run('predict', '--model', model, '--data', csv, '--rule', 'hyper').json.error.code, 'InvalidArgument');
  assert.equal(run('predict', '--model', model, '--data', csv, '--vote', 'hard').json.error.code, 'InvalidArgument');
  assert.equal(run('calibrate', '--model', model, '--data', csv, '--out', join(tmp, 'x.urnf')).json.error.code, 'InvalidArgument');
});

test('files urnforest cannot import are one JSON error with a stable code', () => {
  const cases = [
    ['bad_regressor.onnx', 'UnsupportedModel'],
    ['bad_scaler_pipeline.onnx', 'UnsupportedModel'],
    ['bad_unknown_op.onnx', 'UnsupportedModel'],
  ];
  for (const [file, code] of cases) {
    const out = run('import', '--onnx', join(fixtures, file), '--out', join(tmp, 'bad.urnf'));
    assert.notEqual(out.status, 0);
    assert.equal(out.json.error.code, code, file);
  }
  const cut = join(tmp, 'cut.onnx');
  const bytes = readFileSync(join(fixtures, 'sk_rf_iris_nozipmap.onnx'));
  writeFileSync(cut, bytes.subarray(0, 1000));
  assert.equal(run('import', '--onnx', cut, '--out', join(tmp, 'bad.urnf')).json.error.code, 'CorruptModel');
  assert.equal(run('import', '--onnx', join(fixtures, 'sk_rf_iris_nozipmap.onnx'), '--out', join(tmp, 'bad.urnf'), '--features', 'a,b').json.error.code, 'InvalidArgument');
});

test('import --classes names the classes, so a labelled CSV reports accuracy', () => {
  const fx = JSON.parse(readFileSync(join(fixtures, 'sk_rf_iris_nozipmap.json'), 'utf8'));
  const model = join(tmp, 'iris-named.urnf');
  ok('import', '--onnx', join(fixtures, 'sk_rf_iris_nozipmap.onnx'), '--out', model,
    '--features', fx.feature_names.join(','), '--classes', fx.class_names.join(','));
  const p = ok('predict', '--model', model, '--data', join(root, 'datasets', 'iris.csv'));
  assert.ok(p.accuracy > 0.9, `accuracy ${p.accuracy}`);
  assert.equal(run('import', '--onnx', join(fixtures, 'sk_rf_iris_nozipmap.onnx'), '--out', model, '--classes', 'a,b').json.error.code, 'InvalidArgument');
  assert.equal(run('import', '--onnx', join(fixtures, 'sk_rf_iris_nozipmap.onnx'), '--out', model, '--classes', 'a,a,b').json.error.code, 'InvalidArgument');
});
